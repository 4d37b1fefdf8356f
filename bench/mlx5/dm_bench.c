// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Workloads for bench/mlx5/run.sh (run under rdma-sim):
 *   dm_bench verbs N         N x (open, alloc 4 KiB, export, close fd,
 *                            free, close): prints the kernel calls of
 *                            each verb; callgrind measures each verb
 *   dm_bench loop-open N     N x (open, close)          } real syscalls
 *   dm_bench loop-alloc N    N x (alloc, free)          } per pair, by
 *   dm_bench loop-export N   N x (export, close fd)     } strace deltas
 *   dm_bench copy            copy bandwidth: DM vs plain memcpy
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "syscall_count.h"

#define DM_LEN 4096

static struct ibv_device **list;

static void die(const char *what)
{
	fprintf(stderr, "dm_bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static struct ibv_context *open_ctx(void)
{
	struct ibv_context *ctx = ibv_open_device(list[0]);

	if (!ctx)
		die("ibv_open_device");
	return ctx;
}

static struct ibv_dm *alloc_dm(struct ibv_context *ctx, size_t len)
{
	struct ibv_alloc_dm_attr attr = { .length = len };
	struct ibv_dm *dm = ibv_alloc_dm(ctx, &attr);

	if (!dm)
		die("ibv_alloc_dm");
	return dm;
}

static int export_dm(struct ibv_dm *dm)
{
	int fd = ibv_dm_export_dmabuf_fd(dm);

	if (fd < 0)
		die("ibv_dm_export_dmabuf_fd");
	return fd;
}

enum { V_OPEN, V_ALLOC, V_EXPORT, V_FREE, V_CLOSE, V_NUM };
static const char *const verb_names[V_NUM] = {
	"ibv_open_device", "ibv_alloc_dm", "ibv_dm_export_dmabuf_fd",
	"ibv_free_dm", "ibv_close_device",
};
static unsigned long verb_calls[V_NUM][SC_NUM];

static void account(int verb)
{
	unsigned int k;

	for (k = 0; k < SC_NUM; k++)
		verb_calls[verb][k] += sc_get(k);
	sc_reset();
}

static void verbs(long n)
{
	static const char *const kinds[SC_NUM] = {
		"ioctl", "write", "mmap", "munmap", "open", "close",
	};
	struct ibv_context *ctx;
	struct ibv_dm *dm;
	long i;
	int fd, v;
	unsigned int k;

	for (i = 0; i < n; i++) {
		sc_reset();
		ctx = open_ctx();
		account(V_OPEN);
		dm = alloc_dm(ctx, DM_LEN);
		account(V_ALLOC);
		fd = export_dm(dm);
		account(V_EXPORT);
		close(fd);
		sc_reset();
		if (ibv_free_dm(dm))
			die("ibv_free_dm");
		account(V_FREE);
		ibv_close_device(ctx);
		account(V_CLOSE);
	}
	printf("%-24s %6s", "kernel calls per call", "total");
	for (k = 0; k < SC_NUM; k++)
		printf(" %6s", kinds[k]);
	printf("\n");
	for (v = 0; v < V_NUM; v++) {
		unsigned long total = 0;

		for (k = 0; k < SC_NUM; k++)
			total += verb_calls[v][k];
		printf("%-24s %6.2f", verb_names[v], (double)total / n);
		for (k = 0; k < SC_NUM; k++)
			printf(" %6.2f", (double)verb_calls[v][k] / n);
		printf("\n");
	}
}

static void loop(const char *what, long n)
{
	struct ibv_context *ctx = open_ctx();
	struct ibv_dm *dm = alloc_dm(ctx, DM_LEN);

	while (n--) {
		if (!strcmp(what, "loop-open")) {
			ibv_close_device(open_ctx());
		} else if (!strcmp(what, "loop-alloc")) {
			if (ibv_free_dm(alloc_dm(ctx, DM_LEN)))
				die("ibv_free_dm");
		} else {
			close(export_dm(dm));
		}
	}
	ibv_free_dm(dm);
	ibv_close_device(ctx);
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Copy in the way a plain 32-bit-word loop would, for comparison. */
static void copy_words32(volatile uint32_t *dst, const uint32_t *src,
			 size_t len)
{
	size_t i;

	for (i = 0; i < len / 4; i++)
		dst[i] = src[i];
}

static void copy_bandwidth(void)
{
	static const size_t sizes[] = { 64, 4096, 65536 };
	struct ibv_context *ctx = open_ctx();
	size_t s;

	printf("%-8s %12s %12s %12s %12s\n", "bytes", "to_dm GB/s",
	       "from_dm GB/s", "memcpy GB/s", "u32 loop GB/s");
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t len = sizes[s];
		long iters = (long)(256 * 1024 * 1024 / len), i;
		struct ibv_dm *dm = alloc_dm(ctx, len);
		uint32_t *a = aligned_alloc(64, len);
		uint32_t *b = aligned_alloc(64, len);
		double t[4];

		if (!a || !b)
			die("aligned_alloc");
		memset(a, 1, len);
		t[0] = seconds();
		for (i = 0; i < iters; i++)
			ibv_memcpy_to_dm(dm, 0, a, len);
		t[0] = seconds() - t[0];
		t[1] = seconds();
		for (i = 0; i < iters; i++)
			ibv_memcpy_from_dm(b, dm, 0, len);
		t[1] = seconds() - t[1];
		t[2] = seconds();
		for (i = 0; i < iters; i++) {
			memcpy(b, a, len);
			__asm__ volatile("" ::: "memory");
		}
		t[2] = seconds() - t[2];
		t[3] = seconds();
		for (i = 0; i < iters; i++)
			copy_words32((volatile uint32_t *)b, a, len);
		t[3] = seconds() - t[3];
		printf("%-8zu %12.2f %12.2f %12.2f %12.2f\n", len,
		       (double)len * (double)iters / t[0] / 1e9,
		       (double)len * (double)iters / t[1] / 1e9,
		       (double)len * (double)iters / t[2] / 1e9,
		       (double)len * (double)iters / t[3] / 1e9);
		free(a);
		free(b);
		ibv_free_dm(dm);
	}
	ibv_close_device(ctx);
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 1;
	int num;

	list = ibv_get_device_list(&num);
	if (!list || !num) {
		fprintf(stderr, "dm_bench: no device (run under rdma-sim)\n");
		return 1;
	}
	if (argc > 1 && !strcmp(argv[1], "verbs"))
		verbs(n);
	else if (argc > 1 && !strncmp(argv[1], "loop-", 5))
		loop(argv[1], n);
	else if (argc > 1 && !strcmp(argv[1], "copy"))
		copy_bandwidth();
	else {
		fprintf(stderr, "usage: dm_bench verbs|loop-open|loop-alloc|"
				"loop-export N | copy\n");
		return 2;
	}
	ibv_free_device_list(list);
	return 0;
}
