// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Cost of the simulated kernel boundary: ns per uverbs ioctl, per write()
 * command, per MEMIC mmap+munmap, per DM alloc+free, and the pass-through
 * cost of an interposed call on an fd the sim does not own.
 * Run it under rdma-sim (bench/sim/run.sh does).
 *
 * sim_bench N --trap[-off]: the system-call boundary's own cost: plain
 * system calls (getppid, read of an empty pipe) through libc and through
 * syscall(2), and QUERY_PORT through libc's ioctl (interposed, no trap)
 * and through syscall(2) (trapped, served in the SIGSYS handler); with
 * --trap-off (rdma-sim --no-seccomp) raw ioctls would reach /dev/null, so
 * that row is left out (bench/sim/syscall_trap.sh runs both).
 */
#include <errno.h>
#include <fcntl.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/mlx5-abi.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct cmd {
	union {
		struct ib_uverbs_ioctl_hdr hdr;
		uint8_t raw[24 + 8 * 16];
	};
};

static void add(struct cmd *c, uint16_t id, uint16_t len, uint64_t data)
{
	struct ib_uverbs_attr *a = &c->hdr.attrs[c->hdr.num_attrs++];

	memset(a, 0, sizeof(*a));
	a->attr_id = id;
	a->len = len;
	a->flags = UVERBS_ATTR_F_MANDATORY;
	a->data = data;
	c->hdr.length += sizeof(*a);
}

static void init(struct cmd *c, uint16_t obj, uint16_t method)
{
	memset(c, 0, sizeof(*c));
	c->hdr.length = sizeof(c->hdr);
	c->hdr.object_id = obj;
	c->hdr.method_id = method;
	c->hdr.driver_id = RDMA_DRIVER_MLX5;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int open_ctx(void)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = {
		.total_num_bfregs = 16,
		.num_low_latency_bfregs = 4,
		.max_cqe_version = 1,
		.lib_caps = MLX5_LIB_CAP_DYN_UAR,
	};
	struct mlx5_ib_alloc_ucontext_resp resp;
	int fd = open("/dev/infiniband/uverbs0", O_RDWR | O_CLOEXEC);
	struct cmd c;

	init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT);
	add(&c, UVERBS_ATTR_UHW_IN, sizeof(req), (uintptr_t)&req);
	add(&c, UVERBS_ATTR_UHW_OUT, sizeof(resp), (uintptr_t)&resp);
	if (fd < 0 || ioctl(fd, RDMA_VERBS_IOCTL, &c)) {
		perror("sim_bench: context (run under rdma-sim)");
		exit(1);
	}
	return fd;
}

static int dm_alloc(int fd, uint32_t *h, uint16_t *idx)
{
	uint64_t start;
	struct cmd c;
	int ret;

	init(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC);
	add(&c, UVERBS_ATTR_ALLOC_DM_HANDLE, 0, 0);
	add(&c, UVERBS_ATTR_ALLOC_DM_LENGTH, 8, 4096);
	add(&c, UVERBS_ATTR_ALLOC_DM_ALIGNMENT, 4, 0);
	add(&c, MLX5_IB_ATTR_ALLOC_DM_RESP_START_OFFSET, 8, (uintptr_t)&start);
	add(&c, MLX5_IB_ATTR_ALLOC_DM_RESP_PAGE_INDEX, 2, (uintptr_t)idx);
	ret = ioctl(fd, RDMA_VERBS_IOCTL, &c);
	*h = (uint32_t)c.hdr.attrs[0].data;
	return ret;
}

static int dm_free(int fd, uint32_t h)
{
	struct cmd c;

	init(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE);
	add(&c, UVERBS_ATTR_FREE_DM_HANDLE, 0, h);
	return ioctl(fd, RDMA_VERBS_IOCTL, &c);
}

#define RUN(name, n, body)                                                     \
	do {                                                                   \
		double t0 = now_ns();                                          \
		for (long i_ = 0; i_ < (n); i_++) {                            \
			body;                                                  \
		}                                                              \
		printf("%-28s %10.0f ns/op  (%ld ops)\n", name,                \
		       (now_ns() - t0) / (n), (long)(n));                      \
	} while (0)

static int trap_rows(long n, int fd, struct cmd *q, int trapped)
{
	int p[2], bad = 0;
	char b;

	if (pipe2(p, O_NONBLOCK | O_CLOEXEC))
		return 1;
	RUN("getppid (libc)", n, getppid());
	RUN("syscall(getppid)", n, syscall(SYS_getppid));
	RUN("read empty pipe (libc)", n, bad |= read(p[0], &b, 1) != -1);
	RUN("syscall(read) empty pipe", n,
	    bad |= syscall(SYS_read, p[0], &b, 1) != -1);
	RUN("ioctl QUERY_PORT (libc)", n,
	    bad |= ioctl(fd, RDMA_VERBS_IOCTL, q));
	if (trapped)
		RUN("syscall(ioctl) QUERY_PORT", n,
		    bad |= syscall(SYS_ioctl, fd, RDMA_VERBS_IOCTL, q) != 0);
	close(p[0]);
	close(p[1]);
	return bad;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	struct ib_uverbs_query_port_resp_ex port;
	long page = sysconf(_SC_PAGESIZE);
	int fd = open_ctx(), null = open("/dev/null", O_RDONLY);
	uint64_t off;
	uint32_t h;
	uint16_t idx;
	struct cmd q;
	int bad = 0;

	init(&q, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	add(&q, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 8, 1);
	add(&q, UVERBS_ATTR_QUERY_PORT_RESP, sizeof(port), (uintptr_t)&port);
	if (argc > 2 && !strncmp(argv[2], "--trap", 6)) {
		bad = trap_rows(n, fd, &q, !strcmp(argv[2], "--trap"));
		goto out;
	}
	RUN("ioctl QUERY_PORT", n, bad |= ioctl(fd, RDMA_VERBS_IOCTL, &q));
	RUN("ioctl on a non-sim fd", n, ioctl(null, FIONREAD, &h));
	RUN("fcntl on a non-sim fd", n, bad |= fcntl(null, F_GETFD) < 0);
	RUN("DM_ALLOC + DM_FREE (4 KiB)", n / 10,
	    bad |= dm_alloc(fd, &h, &idx) | dm_free(fd, h));
	bad |= dm_alloc(fd, &h, &idx);
	off = (((uint64_t)MLX5_IB_MMAP_DEVICE_MEM << 8) | (idx & 0xff) |
	       ((uint64_t)(idx >> 8) << 16)) *
	      page;
	RUN("mmap + munmap MEMIC page", n / 10, {
		void *p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED,
			       fd, off);
		bad |= p == MAP_FAILED || munmap(p, page);
	});
	bad |= dm_free(fd, h);
out:
	close(null);
	close(fd);
	if (bad)
		fprintf(stderr, "sim_bench: a call failed: %s\n",
			strerror(errno));
	return bad ? 1 : 0;
}
