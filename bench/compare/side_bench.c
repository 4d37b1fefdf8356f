// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * One benchmark, built against rdma-dm and against Debian's rdma-core 44
 * (system headers and libraries), run under the same rdma-sim by run.sh:
 *   side_bench devlist N    N x ibv_get_device_list + ibv_free_device_list
 *   side_bench dm N         N x ibv_alloc_dm 4 KiB, export, ibv_free_dm
 *   side_bench copy N       N x ibv_memcpy_to/from_dm, 64 B .. 64 KiB
 *   side_bench open N       N x ibv_open_device + ibv_close_device
 * Each call is timed alone; the median is printed as "name ns calls",
 * with the kernel calls per call when built with kcount.c ("name.kc N").
 * Every measured call is a noinline bench_* function so callgrind can
 * toggle on it (--toggle-collect=bench_alloc_dm).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#ifdef BENCH_KCOUNT
#include "kcount.h"
#endif

#define NOINLINE static __attribute__((noinline, used))
#define DM_LEN	 4096

static void die(const char *what)
{
	fprintf(stderr, "side_bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Median of the samples of one operation, and its kernel calls. */
struct series {
	const char *name;
	uint64_t *ns;
	long n;
	unsigned long kc;
	unsigned long kinds[16];
};

static void series_init(struct series *s, const char *name, long n)
{
	s->name = name;
	s->n = 0;
	s->kc = 0;
	memset(s->kinds, 0, sizeof(s->kinds));
	s->ns = calloc((size_t)n, sizeof(*s->ns));
	if (!s->ns)
		die("calloc");
}

static void kc_begin(void)
{
#ifdef BENCH_KCOUNT
	kc_start();
#endif
}

static void kc_end(struct series *s)
{
#ifdef BENCH_KCOUNT
	unsigned int k;

	kc_stop();
	s->kc += kc_total();
	for (k = 0; k < KC_NUM; k++)
		s->kinds[k] += kc_get(k);
#else
	(void)s;
#endif
}

static void series_print(struct series *s, double per)
{
	qsort(s->ns, (size_t)s->n, sizeof(*s->ns), cmp_u64);
	printf("%s %.1f %ld\n", s->name, (double)s->ns[s->n / 2] / per, s->n);
#ifdef BENCH_KCOUNT
	unsigned int k;

	printf("%s.kc %.2f", s->name, (double)s->kc / (double)s->n);
	for (k = 0; k < KC_NUM; k++)
		if (s->kinds[k])
			printf(" %s=%.2f", kc_names[k],
			       (double)s->kinds[k] / (double)s->n);
	printf("\n");
#endif
	free(s->ns);
}

NOINLINE struct ibv_device **bench_get_device_list(int *num)
{
	return ibv_get_device_list(num);
}

NOINLINE void bench_free_device_list(struct ibv_device **list)
{
	ibv_free_device_list(list);
}

static void devlist(long n)
{
	struct ibv_device **list;
	struct series s;
	uint64_t t;
	int num = 0;
	long i;

	/*
	 * The first call loads providers and reads every device; it is not
	 * one of the measured (or callgrind-toggled) calls.
	 */
	ibv_free_device_list(ibv_get_device_list(&num));
	series_init(&s, "devlist", n);
	for (i = 0; i < n; i++) {
		kc_begin();
		t = now_ns();
		list = bench_get_device_list(&num);
		if (!list)
			die("ibv_get_device_list");
		bench_free_device_list(list);
		s.ns[s.n++] = now_ns() - t;
		kc_end(&s);
	}
	printf("devices %d\n", num);
	series_print(&s, 1);
}

static struct ibv_context *open_first(void)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx;

	if (!list || !list[0])
		die("no device (run under rdma-sim)");
	ctx = ibv_open_device(list[0]);
	if (!ctx)
		die("ibv_open_device");
	ibv_free_device_list(list);
	return ctx;
}

NOINLINE struct ibv_dm *bench_alloc_dm(struct ibv_context *ctx)
{
	struct ibv_alloc_dm_attr attr = {.length = DM_LEN};

	return ibv_alloc_dm(ctx, &attr);
}

NOINLINE int bench_export_dm(struct ibv_dm *dm)
{
#ifdef BENCH_HAVE_EXPORT
	return ibv_dm_export_dmabuf_fd(dm);
#else
	(void)dm;
	errno = EOPNOTSUPP;
	return -1;
#endif
}

NOINLINE int bench_free_dm(struct ibv_dm *dm)
{
	return ibv_free_dm(dm);
}

static void dm_verbs(long n)
{
	struct ibv_context *ctx = open_first();
	struct series s[3];
	struct ibv_dm *dm;
	uint64_t t;
	long i;
	int fd;

	series_init(&s[0], "alloc_dm", n);
	series_init(&s[1], "export_dm", n);
	series_init(&s[2], "free_dm", n);
	for (i = 0; i < n; i++) {
		kc_begin();
		t = now_ns();
		dm = bench_alloc_dm(ctx);
		s[0].ns[s[0].n++] = now_ns() - t;
		kc_end(&s[0]);
		if (!dm)
			die("ibv_alloc_dm");
		kc_begin();
		t = now_ns();
		fd = bench_export_dm(dm);
		s[1].ns[s[1].n++] = now_ns() - t;
		kc_end(&s[1]);
		if (fd >= 0)
			close(fd);
		else
			s[1].n--; /* not in this library */
		kc_begin();
		t = now_ns();
		if (bench_free_dm(dm))
			die("ibv_free_dm");
		s[2].ns[s[2].n++] = now_ns() - t;
		kc_end(&s[2]);
	}
	for (i = 0; i < 3; i++)
		if (s[i].n)
			series_print(&s[i], 1);
	ibv_close_device(ctx);
}

NOINLINE struct ibv_context *bench_open_device(struct ibv_device *dev)
{
	return ibv_open_device(dev);
}

NOINLINE int bench_close_device(struct ibv_context *ctx)
{
	return ibv_close_device(ctx);
}

/* A context's whole life: open (with its set-up) and close. */
static void open_close(long n)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx;
	struct series s[2];
	uint64_t t;
	long i;

	if (!list || !list[0])
		die("no device (run under rdma-sim)");
	/* The first open maps the provider's pages: not measured. */
	ctx = ibv_open_device(list[0]);
	if (!ctx || ibv_close_device(ctx))
		die("ibv_open_device");
	series_init(&s[0], "open_device", n);
	series_init(&s[1], "close_device", n);
	for (i = 0; i < n; i++) {
		kc_begin();
		t = now_ns();
		ctx = bench_open_device(list[0]);
		s[0].ns[s[0].n++] = now_ns() - t;
		kc_end(&s[0]);
		if (!ctx)
			die("ibv_open_device");
		kc_begin();
		t = now_ns();
		if (bench_close_device(ctx))
			die("ibv_close_device");
		s[1].ns[s[1].n++] = now_ns() - t;
		kc_end(&s[1]);
	}
	series_print(&s[0], 1);
	series_print(&s[1], 1);
	ibv_free_device_list(list);
}

NOINLINE int bench_memcpy_to_dm(struct ibv_dm *dm, const void *buf, size_t len)
{
	return ibv_memcpy_to_dm(dm, 0, buf, len);
}

NOINLINE int bench_memcpy_from_dm(void *buf, struct ibv_dm *dm, size_t len)
{
	return ibv_memcpy_from_dm(buf, dm, 0, len);
}

/* GB/s per sample of @reps copies; the printed value is ns per copy. */
static void copies(long n)
{
	static const size_t sizes[] = {64, 4096, 65536};
	struct ibv_context *ctx = open_first();
	char name[32];
	size_t k;

	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t len = sizes[k];
		long reps = (long)(1 << 20) / (long)len + 16, i, r;
		struct ibv_alloc_dm_attr attr = {.length = len};
		struct ibv_dm *dm = ibv_alloc_dm(ctx, &attr);
		void *buf = aligned_alloc(64, len);
		struct series to, from;
		uint64_t t;

		if (!dm || !buf)
			die("copy buffers");
		memset(buf, 0x5a, len);
		snprintf(name, sizeof(name), "to_dm_%zu", len);
		series_init(&to, strdup(name), n);
		snprintf(name, sizeof(name), "from_dm_%zu", len);
		series_init(&from, strdup(name), n);
		for (i = 0; i < n; i++) {
			t = now_ns();
			for (r = 0; r < reps; r++)
				bench_memcpy_to_dm(dm, buf, len);
			to.ns[to.n++] = now_ns() - t;
			t = now_ns();
			for (r = 0; r < reps; r++)
				bench_memcpy_from_dm(buf, dm, len);
			from.ns[from.n++] = now_ns() - t;
		}
		series_print(&to, (double)reps);
		series_print(&from, (double)reps);
		ibv_free_dm(dm);
		free(buf);
	}
	ibv_close_device(ctx);
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 100;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "devlist"))
		devlist(n);
	else if (argc > 1 && !strcmp(argv[1], "dm"))
		dm_verbs(n);
	else if (argc > 1 && !strcmp(argv[1], "copy"))
		copies(n);
	else if (argc > 1 && !strcmp(argv[1], "open"))
		open_close(n);
	else {
		fprintf(stderr, "usage: side_bench devlist|dm|copy|open N\n");
		return 2;
	}
	return 0;
}
