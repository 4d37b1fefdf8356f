// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Device memory as an RDMA buffer on rdma-sim: a DM MR (ZERO_BASED) on the
 * owner context, and the dma-buf MR of the exported DM on another context
 * of the same device or (with "2") of another device. Each is the remote
 * target of WRITE, READ and atomics, the landing buffer of a SEND and the
 * local SGE of one; the bytes are checked in the DM with
 * ibv_memcpy_from_dm. After ibv_free_dm the importer's access fails with
 * an error completion, and a new DM is never written; closing the owner
 * context does the same.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "dm_util.h"
#include "rdma_util.h"
#include "skip.h"

#define DM_SZ 16384
#define HOST_SZ 16384

static int ndev = 1;
static struct ibv_device **devs;
static struct leak_mark mark;

static void open_host(struct rdma_host *h, struct ibv_device *dev)
{
	assert_int_equal(host_open(h, dev, HOST_SZ,
				   IBV_ACCESS_LOCAL_WRITE |
					   IBV_ACCESS_REMOTE_WRITE |
					   IBV_ACCESS_REMOTE_READ),
			 0);
}

static void test_dm_mr(void **state);

static int setup(void **state)
{
	int n;

	devs = ibv_get_device_list(&n);
	if (!devs || n < ndev)
		return -1;
	/*
	 * rdma-sim's engine maps the device memory it serves RDMA from at
	 * the first such access and keeps it (as its fabric socket): one
	 * round first, then the baseline.
	 */
	test_dm_mr(state);
	leak_mark_take(&mark);
	return 0;
}

static int teardown(void **state)
{
	int fds, maps;

	test_teardown_begin();
	ibv_free_device_list(devs);
	leak_mark_recount(&mark, &fds, &maps);
	assert_int_equal(fds, mark.fds);
	assert_int_equal(maps, mark.maps);
	return test_teardown_end();
}

static void check_dm(struct ibv_dm *dm, uint64_t off, const void *want,
		     size_t len)
{
	uint8_t *got = malloc(len);

	assert_int_equal(ibv_memcpy_from_dm(got, dm, off, len), 0);
	assert_memory_equal(got, want, len);
	free(got);
}

static void wc_ok(struct rdma_ep *ep)
{
	struct ibv_wc wc;

	assert_int_equal(ep_poll(ep, &wc, 1), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
}

/*
 * @mr (addresses from 0) on @tpd covers the DM; the initiator @h is a
 * host buffer on another context.
 */
static void exercise(struct ibv_dm *dm, struct ibv_pd *tpd, struct ibv_mr *mr,
		     struct rdma_host *h)
{
	struct ep_opts o = { .type = IBV_QPT_RC };
	uint64_t v = 40, *res = (uint64_t *)(h->buf + 8192);
	struct rdma_ep i, t;

	assert_int_equal(ep_pair(&i, h->pd, &o, &t, tpd, &o), 0);

	/* WRITE into the DM, READ it back. */
	fill_pattern(h->buf, 2048, 21);
	assert_int_equal(ep_post(&i, IBV_WR_RDMA_WRITE, h->buf, 2048,
				 h->mr->lkey, 0, mr->rkey, IBV_SEND_SIGNALED,
				 1),
			 0);
	wc_ok(&i);
	check_dm(dm, 0, h->buf, 2048);
	assert_int_equal(ep_post(&i, IBV_WR_RDMA_READ, h->buf + 4096, 2048,
				 h->mr->lkey, 0, mr->rkey, IBV_SEND_SIGNALED,
				 2),
			 0);
	wc_ok(&i);
	assert_memory_equal(h->buf + 4096, h->buf, 2048);

	/* Atomics on DM words. */
	assert_int_equal(ibv_memcpy_to_dm(dm, 2048, &v, 8), 0);
	assert_int_equal(ep_atomic(&i, IBV_WR_ATOMIC_FETCH_AND_ADD, res,
				   h->mr->lkey, 2048, mr->rkey, 2, 0,
				   IBV_SEND_SIGNALED),
			 0);
	wc_ok(&i);
	assert_int_equal(*res, 40);
	assert_int_equal(ep_atomic(&i, IBV_WR_ATOMIC_CMP_AND_SWP, res,
				   h->mr->lkey, 2048, mr->rkey, 42, 7,
				   IBV_SEND_SIGNALED),
			 0);
	wc_ok(&i);
	assert_int_equal(*res, 42);
	v = 7;
	check_dm(dm, 2048, &v, 8);

	/* A SEND lands in the DM (receive SGE = the DM MR at 4096). */
	fill_pattern(h->buf, 1000, 22);
	assert_int_equal(ep_recv(&t, (void *)4096, 1024, mr->lkey, 3), 0);
	assert_int_equal(ep_post(&i, IBV_WR_SEND, h->buf, 1000, h->mr->lkey,
				 0, 0, IBV_SEND_SIGNALED, 4),
			 0);
	wc_ok(&i);
	wc_ok(&t);
	check_dm(dm, 4096, h->buf, 1000);

	/* And the DM is the source of one (send SGE = the DM MR at 0). */
	memset(h->buf + 12288, 0, 2048);
	assert_int_equal(ep_recv(&i, h->buf + 12288, 2048, h->mr->lkey, 5), 0);
	assert_int_equal(ep_post(&t, IBV_WR_SEND, NULL, 2048, mr->lkey, 0, 0,
				 IBV_SEND_SIGNALED, 6),
			 0);
	wc_ok(&t);
	wc_ok(&i);
	check_dm(dm, 0, h->buf + 12288, 2048);
	ep_close(&i);
	ep_close(&t);
}

/* DM MR on the owner, driven from a host buffer on the other context. */
static void test_dm_mr(void **state)
{
	struct ibv_context *owner;
	struct ibv_pd *pd;
	struct ibv_dm *dm;
	struct ibv_mr *mr;
	struct rdma_host h;

	owner = ibv_open_device(devs[0]);
	assert_non_null(owner);
	pd = ibv_alloc_pd(owner);
	dm = alloc_dm(owner, DM_SZ, 3);
	assert_non_null(dm);
	mr = ibv_reg_dm_mr(pd, dm, 0, DM_SZ,
			   IBV_ACCESS_ZERO_BASED | IBV_ACCESS_LOCAL_WRITE |
				   IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ |
				   IBV_ACCESS_REMOTE_ATOMIC);
	assert_non_null(mr);
	open_host(&h, devs[ndev - 1]);
	exercise(dm, pd, mr, &h);
	assert_int_equal(host_close(&h), 0);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	assert_int_equal(ibv_free_dm(dm), 0);
	assert_int_equal(ibv_dealloc_pd(pd), 0);
	assert_int_equal(ibv_close_device(owner), 0);
}

struct import {
	struct ibv_context *owner;
	struct ibv_dm *dm;
	struct ibv_context *ictx;
	struct ibv_pd *ipd;
	struct ibv_mr *mr;
};

static void import_open(struct import *im)
{
	int fd;

	im->owner = ibv_open_device(devs[0]);
	assert_non_null(im->owner);
	im->dm = alloc_dm(im->owner, DM_SZ, 3);
	assert_non_null(im->dm);
	fd = ibv_dm_export_dmabuf_fd(im->dm);
	assert_true(fd >= 0);
	im->ictx = ibv_open_device(devs[ndev - 1]);
	assert_non_null(im->ictx);
	im->ipd = ibv_alloc_pd(im->ictx);
	im->mr = ibv_reg_dmabuf_mr(im->ipd, 0, DM_SZ, 0, fd,
				   IBV_ACCESS_LOCAL_WRITE |
					   IBV_ACCESS_REMOTE_WRITE |
					   IBV_ACCESS_REMOTE_READ |
					   IBV_ACCESS_REMOTE_ATOMIC);
	assert_non_null(im->mr);
	/* The MR keeps the buffer: the fd may go at once (perftest does). */
	assert_int_equal(close(fd), 0);
}

static void import_close(struct import *im)
{
	assert_int_equal(ibv_dereg_mr(im->mr), 0);
	if (im->dm)
		assert_int_equal(ibv_free_dm(im->dm), 0);
	assert_int_equal(ibv_dealloc_pd(im->ipd), 0);
	assert_int_equal(ibv_close_device(im->ictx), 0);
	assert_int_equal(ibv_close_device(im->owner), 0);
}

/* The dma-buf MR on the importer context, driven from the owner's side. */
static void test_dmabuf_mr(void **state)
{
	struct import im;
	struct rdma_host h;

	import_open(&im);
	open_host(&h, devs[0]);
	exercise(im.dm, im.ipd, im.mr, &h);
	assert_int_equal(host_close(&h), 0);
	import_close(&im);
}

/* One signaled 256-byte @op from @h to the import: an error completion. */
static void access_fails(struct rdma_ep *i, struct rdma_host *h,
			 struct import *im, enum ibv_wr_opcode op,
			 uint64_t wr_id)
{
	struct ibv_wc wc;

	assert_int_equal(ep_post(i, op, h->buf, 256, h->mr->lkey, 0,
				 im->mr->rkey, IBV_SEND_SIGNALED, wr_id),
			 0);
	assert_int_equal(ep_poll(i, &wc, 1), 1);
	assert_int_not_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, wr_id);
}

/* After ibv_free_dm the importer's MR leads nowhere: error completions. */
static void test_revoked(void **state)
{
	struct ep_opts o = { .type = IBV_QPT_RC };
	uint8_t zero[256] = {};
	struct ibv_dm *fresh;
	struct rdma_ep i, t;
	struct import im;
	struct rdma_host h;

	import_open(&im);
	open_host(&h, devs[0]);
	assert_int_equal(ep_pair(&i, h.pd, &o, &t, im.ipd, &o), 0);
	assert_int_equal(ibv_free_dm(im.dm), 0);
	im.dm = NULL;
	/* A new DM may reuse the memory: it must stay untouched. */
	fresh = alloc_dm(im.owner, DM_SZ, 3);
	assert_non_null(fresh);
	assert_int_equal(ibv_memcpy_to_dm(fresh, 0, zero, sizeof(zero)), 0);
	memset(h.buf, 0xab, 256);
	access_fails(&i, &h, &im, IBV_WR_RDMA_WRITE, 9);
	check_dm(fresh, 0, zero, sizeof(zero));
	ep_close(&i);
	ep_close(&t);
	assert_int_equal(ibv_free_dm(fresh), 0);
	assert_int_equal(host_close(&h), 0);
	import_close(&im);
}

/* Closing the owner (its DM still allocated) revokes the import too. */
static void test_revoked_by_close(void **state)
{
	struct ep_opts o = { .type = IBV_QPT_RC };
	struct rdma_ep i, t;
	struct import im;
	struct rdma_host h;

	import_open(&im);
	open_host(&h, devs[0]);
	assert_int_equal(ep_pair(&i, h.pd, &o, &t, im.ipd, &o), 0);
	assert_int_equal(ibv_close_device(im.owner), 0);
	access_fails(&i, &h, &im, IBV_WR_RDMA_READ, 10);
	ep_close(&i);
	ep_close(&t);
	assert_int_equal(host_close(&h), 0);
	assert_int_equal(ibv_dereg_mr(im.mr), 0);
	assert_int_equal(ibv_dealloc_pd(im.ipd), 0);
	assert_int_equal(ibv_close_device(im.ictx), 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dm_mr),
		cmocka_unit_test(test_dmabuf_mr),
		cmocka_unit_test(test_revoked),
		cmocka_unit_test(test_revoked_by_close),
	};

	if (argc > 1)
		ndev = atoi(argv[1]);
	return test_exit_status(
		cmocka_run_group_tests(tests, setup, teardown));
}
