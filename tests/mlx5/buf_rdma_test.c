// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibv_alloc_buf() memory as an RDMA buffer on rdma-sim. A device that
 * needs no bounce memory hands out ordinary memory: two MRs over parts
 * of one buffer (ibv_reg_buf_mr) are the remote target of WRITE, READ and
 * atomics, the landing buffer of a SEND and the local SGE of one, from a
 * host buffer on another context (of another device with "2"); the bytes
 * are checked in the buffer itself. Around it: the refusals, no dma-buf
 * to export, the devx UAR pages (alloc, store, free, export to the peer
 * device), DMA handle checks, completion counters as libmlx5 answers
 * them, and nothing leaked. With "cc" (under rdma-sim --cc-guest) a
 * parent domain allowing CoCo bounce memory hands out dma-bufs of the
 * shared heap, and the same RDMA runs over them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <infiniband/mlx5dv.h>
#include <rdma_sim_peer.h>

#include "dm_util.h"
#include "fds.h"
#include "rdma_util.h"
#include "skip.h"

#define BUF_SZ 12000 /* not a page multiple: mlx5 rounds it up */
#define HOST_SZ 16384
#define MR_ACCESS                                                              \
	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |                    \
	 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)

#define BUF_PAGES_SZ 12288 /* BUF_SZ as mlx5 rounds it */

static int ndev = 1;
static bool cc; /* the device is a CoCo guest's (--cc-guest) */
static struct ibv_device **devs;
static struct leak_mark mark;

static void wc_ok(struct rdma_ep *ep, uint64_t wr_id)
{
	struct ibv_wc wc;

	assert_int_equal(ep_poll(ep, &wc, 1), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, wr_id);
}

/* @lo covers [p, p + 8192) and @hi [p + 8192, p + 12000) of one buffer. */
static void exercise(uint8_t *p, struct ibv_pd *pd, struct ibv_mr *lo,
		     struct ibv_mr *hi, struct rdma_host *h)
{
	struct ep_opts o = {.type = IBV_QPT_RC};
	uint64_t v = 40, *res = (uint64_t *)(h->buf + 8192);
	struct rdma_ep i, t;

	/* Like malloc()ed memory the buffer starts undefined. */
	fill_pattern(p, BUF_SZ, 30);
	assert_int_equal(ep_pair(&i, h->pd, &o, &t, pd, &o), 0);

	/* WRITE into the buffer's low MR, READ it back. */
	fill_pattern(h->buf, 4000, 31);
	assert_int_equal(ep_post(&i, IBV_WR_RDMA_WRITE, h->buf, 4000,
				 h->mr->lkey, (uintptr_t)(p + 100), lo->rkey,
				 IBV_SEND_SIGNALED, 1),
			 0);
	wc_ok(&i, 1);
	assert_memory_equal(p + 100, h->buf, 4000);
	assert_int_equal(ep_post(&i, IBV_WR_RDMA_READ, h->buf + 4096, 4000,
				 h->mr->lkey, (uintptr_t)(p + 100), lo->rkey,
				 IBV_SEND_SIGNALED, 2),
			 0);
	wc_ok(&i, 2);
	assert_memory_equal(h->buf + 4096, h->buf, 4000);

	/* Atomics on a word of the high MR. */
	memcpy(p + 8192, &v, 8);
	assert_int_equal(ep_atomic(&i, IBV_WR_ATOMIC_FETCH_AND_ADD, res,
				   h->mr->lkey, (uintptr_t)(p + 8192),
				   hi->rkey, 2, 0, IBV_SEND_SIGNALED),
			 0);
	wc_ok(&i, IBV_WR_ATOMIC_FETCH_AND_ADD); /* ep_atomic's wr_id */
	assert_int_equal(*res, 40);
	assert_int_equal(ep_atomic(&i, IBV_WR_ATOMIC_CMP_AND_SWP, res,
				   h->mr->lkey, (uintptr_t)(p + 8192),
				   hi->rkey, 42, 7, IBV_SEND_SIGNALED),
			 0);
	wc_ok(&i, IBV_WR_ATOMIC_CMP_AND_SWP);
	assert_int_equal(*res, 42);
	memcpy(&v, p + 8192, 8);
	assert_int_equal(v, 7);

	/* The high MR ends where the buffer does: a WRITE past it fails. */
	assert_int_equal(ep_post(&i, IBV_WR_RDMA_WRITE, h->buf, 64,
				 h->mr->lkey, (uintptr_t)(p + BUF_SZ - 32),
				 hi->rkey, IBV_SEND_SIGNALED, 9),
			 0);
	{
		struct ibv_wc wc;

		assert_int_equal(ep_poll(&i, &wc, 1), 1);
		assert_int_equal(wc.status, IBV_WC_REM_ACCESS_ERR);
	}
	ep_close(&i);
	ep_close(&t);
	assert_int_equal(ep_pair(&i, h->pd, &o, &t, pd, &o), 0);

	/* A SEND lands in the buffer, and the buffer is the source of one. */
	fill_pattern(h->buf, 1000, 32);
	assert_int_equal(ep_recv(&t, p + 9000, 1024, hi->lkey, 3), 0);
	assert_int_equal(ep_post(&i, IBV_WR_SEND, h->buf, 1000, h->mr->lkey,
				 0, 0, IBV_SEND_SIGNALED, 4),
			 0);
	wc_ok(&i, 4);
	wc_ok(&t, 3);
	assert_memory_equal(p + 9000, h->buf, 1000);
	memset(h->buf + 12288, 0, 2048);
	assert_int_equal(ep_recv(&i, h->buf + 12288, 2048, h->mr->lkey, 5), 0);
	assert_int_equal(ep_post(&t, IBV_WR_SEND, p, 2048, lo->lkey, 0, 0,
				 IBV_SEND_SIGNALED, 6),
			 0);
	wc_ok(&t, 6);
	wc_ok(&i, 5);
	assert_memory_equal(h->buf + 12288, p, 2048);
	ep_close(&i);
	ep_close(&t);
}

/*
 * Two MRs over @buf (at @p, for @pd) as exercise() uses them, the high
 * one reporting @hi_addr; deregistered after.
 */
static void rdma_over_buf(uint8_t *p, struct ibv_pd *pd, struct ibv_buf *buf,
			  void *hi_addr)
{
	struct ibv_mr *lo, *hi;
	struct rdma_host h;

	lo = ibv_reg_buf_mr(pd, buf, p, 8192, MR_ACCESS);
	hi = ibv_reg_buf_mr(pd, buf, p + 8192, BUF_SZ - 8192, MR_ACCESS);
	assert_non_null(lo);
	assert_non_null(hi);
	assert_int_not_equal(lo->lkey, hi->lkey);
	assert_ptr_equal(hi->addr, hi_addr);
	assert_int_equal(hi->length, BUF_SZ - 8192);

	assert_int_equal(host_open(&h, devs[ndev - 1], HOST_SZ, MR_ACCESS), 0);
	exercise(p, pd, lo, hi, &h);
	assert_int_equal(host_close(&h), 0);
	assert_int_equal(ibv_dereg_mr(lo), 0);
	assert_int_equal(ibv_dereg_mr(hi), 0);
}

static void test_buf_mr_rdma(void **state)
{
	struct ibv_context *ctx;
	struct ibv_pd *pd, *other;
	struct ibv_buf *buf;
	uint8_t *p;

	ctx = ibv_open_device(devs[0]);
	assert_non_null(ctx);
	pd = ibv_alloc_pd(ctx);
	other = ibv_alloc_pd(ctx);
	assert_non_null(pd);
	assert_non_null(other);
	p = ibv_alloc_buf(pd, BUF_SZ, &buf);
	assert_non_null(p);
	assert_int_equal((uintptr_t)p % (uintptr_t)sysconf(_SC_PAGESIZE), 0);

	/* Ordinary memory: nothing to export. */
	errno = 0;
	assert_int_equal(ibv_export_buf_dmabuf_fd(buf), -1);
	assert_int_equal(errno, ENODATA);
	/* Another PD, and a range running past the (rounded) end. */
	errno = 0;
	assert_null(ibv_reg_buf_mr(other, buf, p, 64, MR_ACCESS));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(ibv_reg_buf_mr(pd, buf, p + 8192, 4097, MR_ACCESS));
	assert_int_equal(errno, EINVAL);

	rdma_over_buf(p, pd, buf, p + 8192);
	ibv_free_buf(buf);
	assert_int_equal(ibv_dealloc_pd(other), 0);
	assert_int_equal(ibv_dealloc_pd(pd), 0);
	assert_int_equal(ibv_close_device(ctx), 0);
}

/*
 * @efd is a dma-buf of @len bytes sharing @p with the CPU: what one side
 * stores the other reads. Closes @efd.
 */
static void check_shared(int efd, uint8_t *p, size_t len)
{
	struct rdma_sim_peer *peer;
	struct stat st;
	char b[8] = "";

	assert_int_equal(fstat(efd, &st), 0);
	assert_int_equal(st.st_size, len);
	peer = rdma_sim_peer_import(efd);
	assert_non_null(peer);
	assert_int_equal(rdma_sim_peer_size(peer), len);
	memcpy(p + 0x10, "cpu", 4);
	assert_int_equal(rdma_sim_peer_read(peer, 0x10, b, 4), 0);
	assert_string_equal(b, "cpu");
	assert_int_equal(rdma_sim_peer_write(peer, 0x18, "gpu", 4), 0);
	assert_string_equal((char *)p + 0x18, "gpu");
	rdma_sim_peer_release(peer);
	assert_int_equal(close(efd), 0);
}

/*
 * A parent domain allowing CoCo bounce memory: on a CC_DMA_BOUNCE device
 * it holds the shared heap open and each buffer is a dma-buf of its own
 * (an fd and a shared mapping), registered by fd; elsewhere the bit is
 * ignored and the buffer is ordinary memory. RDMA works on both.
 */
static void test_cc_pd_buf(void **state)
{
	struct ibv_parent_domain_init_attr pa = {
		.comp_mask =
			IBV_PARENT_DOMAIN_INIT_ATTR_ALLOW_CC_UNPROTECTED_ALLOC,
	};
	struct ibv_device_attr_ex attr;
	struct ibv_context *ctx;
	struct ibv_pd *pd, *ppd;
	struct ibv_buf *buf;
	int fds, maps, efd;
	uint8_t *p;

	ctx = ibv_open_device(devs[0]);
	assert_non_null(ctx);
	assert_int_equal(ibv_query_device_ex(ctx, NULL, &attr), 0);
	assert_int_equal(!!(attr.device_cap_flags_ex &
			    IBV_DEVICE_CC_DMA_BOUNCE),
			 cc);
	pd = ibv_alloc_pd(ctx);
	assert_non_null(pd);
	pa.pd = pd;
	fds = count_fds();
	maps = count_shared_maps();
	ppd = ibv_alloc_parent_domain(ctx, &pa);
	assert_non_null(ppd);
	assert_int_equal(count_fds(), fds + cc); /* the heap */
	p = ibv_alloc_buf(ppd, BUF_SZ, &buf);
	assert_non_null(p);
	assert_int_equal((uintptr_t)p % (uintptr_t)sysconf(_SC_PAGESIZE), 0);
	assert_int_equal(count_fds(), fds + 2 * cc);
	assert_int_equal(count_shared_maps(), maps + cc);

	errno = 0;
	efd = ibv_export_buf_dmabuf_fd(buf);
	if (cc) {
		/* A new fd each time, the caller's to close. */
		assert_true(efd >= 0);
		assert_int_equal(count_fds(), fds + 3);
		check_shared(efd, p, BUF_PAGES_SZ);
		check_shared(ibv_export_buf_dmabuf_fd(buf), p, BUF_PAGES_SZ);
	} else {
		assert_int_equal(efd, -1);
		assert_int_equal(errno, ENODATA);
	}
	/* The inner PD is not the buffer's. */
	errno = 0;
	assert_null(ibv_reg_buf_mr(pd, buf, p, 64, MR_ACCESS));
	assert_int_equal(errno, EINVAL);

	/* An fd registration's addr is its offset in the dma-buf. */
	rdma_over_buf(p, ppd, buf, cc ? (void *)8192 : (void *)(p + 8192));
	/* The QPs left the context pages of their own: count from here. */
	fds = count_fds();
	maps = count_shared_maps();
	ibv_free_buf(buf);
	assert_int_equal(count_fds(), fds - cc);
	assert_int_equal(count_shared_maps(), maps - cc);
	assert_int_equal(ibv_dealloc_pd(ppd), 0);
	assert_int_equal(count_fds(), fds - 2 * cc);
	assert_int_equal(ibv_dealloc_pd(pd), 0);
	assert_int_equal(ibv_close_device(ctx), 0);
}

static void test_buf_size_zero(void **state)
{
	struct ibv_context *ctx = ibv_open_device(devs[0]);
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	struct ibv_buf *buf = NULL;

	assert_non_null(pd);
	errno = 0;
	assert_null(ibv_alloc_buf(pd, 0, &buf));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(ibv_dealloc_pd(pd), 0);
	assert_int_equal(ibv_close_device(ctx), 0);
}

/* NC is the context's own page; BF and NC_DEDICATED are pages of theirs. */
static void test_devx_uar(void **state)
{
	static const uint32_t kinds[] = {
		MLX5DV_UAR_ALLOC_TYPE_BF,
		MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED,
	};
	struct ibv_context *ctx = ibv_open_device(devs[0]);
	struct mlx5dv_devx_uar *nc, *u[2];
	size_t i;

	assert_non_null(ctx);
	nc = mlx5dv_devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	assert_non_null(nc);
	assert_ptr_equal(mlx5dv_devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_NC),
			 nc);
	for (i = 0; i < 2; i++) {
		u[i] = mlx5dv_devx_alloc_uar(ctx, kinds[i]);
		assert_non_null(u[i]);
		assert_ptr_equal(u[i]->reg_addr,
				 (uint8_t *)u[i]->base_addr + 0x800);
		assert_int_not_equal(u[i]->mmap_off, nc->mmap_off);
		assert_int_equal(u[i]->comp_mask, 0);
		/* A doorbell store lands in the mapped page. */
		*(volatile uint64_t *)u[i]->reg_addr = 0;
	}
	assert_int_not_equal(u[0]->mmap_off, u[1]->mmap_off);
	assert_int_not_equal(u[0]->page_id, u[1]->page_id);
	errno = 0;
	assert_null(mlx5dv_devx_alloc_uar(ctx, 2));
	assert_int_equal(errno, EOPNOTSUPP);
	mlx5dv_devx_free_uar(u[0]);
	mlx5dv_devx_free_uar(nc); /* the singleton stays */
	assert_ptr_equal(mlx5dv_devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_NC),
			 nc);
	/* u[1] is left for the context's close to release. */
	assert_int_equal(ibv_close_device(ctx), 0);
}

/*
 * A UAR page exported through libmlx5: the peer device shares the page
 * with the CPU mapping until the UAR is freed, then reads ENODEV; the fd
 * stays the caller's to close.
 */
static void test_devx_uar_export(void **state)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct ibv_context *ctx = ibv_open_device(devs[0]);
	struct rdma_sim_peer *peer;
	struct mlx5dv_devx_uar *u;
	int fds, maps, efd;
	char b;

	assert_non_null(ctx);
	fds = count_fds();
	maps = count_shared_maps();
	u = mlx5dv_devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED);
	assert_non_null(u);
	efd = mlx5dv_devx_uar_export_dmabuf_fd(u);
	assert_true(efd >= 0);
	assert_int_equal(count_fds(), fds + 1);
	check_shared(dup(efd), u->base_addr, page);

	peer = rdma_sim_peer_import(efd);
	assert_non_null(peer);
	mlx5dv_devx_free_uar(u);
	assert_int_equal(count_shared_maps(), maps);
	errno = 0;
	assert_int_equal(rdma_sim_peer_read(peer, 0, &b, 1), -1);
	assert_int_equal(errno, ENODEV);
	errno = 0;
	assert_null(rdma_sim_peer_import(efd));
	assert_int_equal(errno, ENODEV);
	rdma_sim_peer_release(peer);
	assert_int_equal(close(efd), 0);
	assert_int_equal(count_fds(), fds);
	assert_int_equal(ibv_close_device(ctx), 0);
}

/* libibverbs and libmlx5 checks, before any kernel command. */
static void test_dmah_checks(void **state)
{
	struct ibv_context *ctx = ibv_open_device(devs[0]);
	struct ibv_dmah_init_attr a = {.comp_mask = 1 << 3};

	errno = 0;
	assert_null(ibv_alloc_dmah(ctx, &a));
	assert_int_equal(errno, EOPNOTSUPP);
	a.comp_mask = IBV_DMAH_INIT_ATTR_MASK_CPU_ID;
	errno = 0;
	assert_null(ibv_alloc_dmah(ctx, &a)); /* no processing hint */
	assert_int_equal(errno, EINVAL);
	a.comp_mask |= IBV_DMAH_INIT_ATTR_MASK_PH;
	errno = 0;
	assert_null(ibv_alloc_dmah(ctx, &a)); /* a CPU without memory type */
	assert_int_equal(errno, EINVAL);
	assert_int_equal(ibv_close_device(ctx), 0);
}

/* mlx5 has no completion-counter object: every call says EOPNOTSUPP. */
static void test_comp_cntr_on_mlx5(void **state)
{
	struct ibv_context *ctx = ibv_open_device(devs[0]);
	struct ibv_comp_cntr_init_attr init = {
		.type = IBV_COMP_CNTR_TYPE_WRS};
	struct ibv_comp_cntr_caps caps;

	memset(&caps, 0xee, sizeof(caps));
	assert_int_equal(ibv_query_comp_cntr_caps(ctx, &caps), EOPNOTSUPP);
	assert_int_equal(caps.max_counters, 0);
	assert_int_equal(caps.max_value, 0);
	errno = 0;
	assert_null(ibv_create_comp_cntr(ctx, &init));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(ibv_close_device(ctx), 0);
}

/* The engine's fabric socket and mappings stay: one round, then count. */
static int warm_up(void **state)
{
	test_buf_mr_rdma(state);
	leak_mark_take(&mark);
	return 0;
}

static int leak_check(void **state)
{
	int fds, maps;

	test_teardown_begin();
	leak_mark_recount(&mark, &fds, &maps);
	assert_int_equal(fds, mark.fds);
	assert_int_equal(maps, mark.maps);
	return test_teardown_end();
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buf_mr_rdma),
		cmocka_unit_test(test_cc_pd_buf),
		cmocka_unit_test(test_buf_size_zero),
		cmocka_unit_test(test_devx_uar),
		cmocka_unit_test(test_devx_uar_export),
		cmocka_unit_test(test_dmah_checks),
		cmocka_unit_test(test_comp_cntr_on_mlx5),
	};
	int n, ret;

	if (argc > 1)
		ndev = atoi(argv[1]);
	cc = argc > 2 && !strcmp(argv[2], "cc");
	devs = ibv_get_device_list(&n);
	if (!devs || n < ndev) {
		fprintf(stderr, "need %d devices (run under rdma-sim)\n", ndev);
		return 1;
	}
	ret = cmocka_run_group_tests(tests, warm_up, leak_check);
	ibv_free_device_list(devs);
	return ret;
}
