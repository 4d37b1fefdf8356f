// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibv_rereg_mr on rdma-sim: each flag changes what the HCA lets through,
 * checked by traffic from host A into host B's re-registered MR (same
 * device, or mlx5_1 with "2"); the keys stay for changes mlx5 makes in
 * place and are new otherwise; every refusal gives the return code and
 * errno upstream gives. Nothing (fd, mapping, PD user) is left behind.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host_pair.h"
#include "skip.h"

#define BUF_SZ 65536

static struct host_pair hp;
static int ndev = 1;

static const unsigned int rw = IBV_ACCESS_LOCAL_WRITE |
			       IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;

static int group_setup(void **state)
{
	return host_pair_open(&hp, ndev, BUF_SZ, rw);
}

static int group_teardown(void **state)
{
	test_teardown_begin();
	assert_true(host_pair_close(&hp));
	return test_teardown_end();
}

static void pair(struct rdma_ep *a, struct rdma_ep *b)
{
	struct ep_opts o = {.type = IBV_QPT_RC};

	assert_int_equal(ep_pair(a, hp.a.pd, &o, b, hp.b.pd, &o), 0);
}

static void unpair(struct rdma_ep *a, struct rdma_ep *b)
{
	ep_close(a);
	ep_close(b);
}

static enum ibv_wc_status write_to(struct rdma_ep *a, uint64_t raddr,
				   uint32_t rkey, uint32_t len)
{
	struct ibv_wc wc;

	assert_int_equal(ep_post(a, IBV_WR_RDMA_WRITE, hp.a.buf, len,
				 hp.a.mr->lkey, raddr, rkey, IBV_SEND_SIGNALED,
				 1),
			 0);
	assert_int_equal(ep_poll(a, &wc, 1), 1);
	return wc.status;
}

/* A fresh MR of B's over its own buffer. */
static struct ibv_mr *b_mr(unsigned int access)
{
	struct ibv_mr *mr = ibv_reg_mr(hp.b.pd, hp.b.buf, BUF_SZ, access);

	assert_non_null(mr);
	return mr;
}

/* Access bits mlx5 changes in place: same keys, the new rights hold. */
static void test_access_in_place(void **state)
{
	struct ibv_mr *mr = b_mr(rw);
	uint32_t lkey = mr->lkey, rkey = mr->rkey;
	struct rdma_ep a, b;

	pair(&a, &b);
	fill_pattern(hp.a.buf, 4096, 1);
	assert_int_equal(write_to(&a, (uintptr_t)hp.b.buf, rkey, 4096),
			 IBV_WC_SUCCESS);
	assert_memory_equal(hp.b.buf, hp.a.buf, 4096);
	assert_int_equal(ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_ACCESS, NULL,
				      NULL, 0, IBV_ACCESS_LOCAL_WRITE),
			 0);
	assert_int_equal(mr->lkey, lkey);
	assert_int_equal(mr->rkey, rkey);
	assert_int_equal(write_to(&a, (uintptr_t)hp.b.buf, rkey, 64),
			 IBV_WC_REM_ACCESS_ERR);
	unpair(&a, &b);
	assert_int_equal(
		ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, NULL, 0, rw),
		0);
	assert_int_equal(mr->rkey, rkey);
	pair(&a, &b);
	assert_int_equal(write_to(&a, (uintptr_t)hp.b.buf + 8192, rkey, 64),
			 IBV_WC_SUCCESS);
	unpair(&a, &b);
	assert_int_equal(ibv_dereg_mr(mr), 0);
}

/* MW_BIND is no UMR-able bit: a new mkey, the old keys dead. */
static void test_access_new_keys(void **state)
{
	struct ibv_mr *mr = b_mr(rw);
	uint32_t rkey = mr->rkey;
	struct rdma_ep a, b;

	assert_int_equal(ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_ACCESS, NULL,
				      NULL, 0, rw | IBV_ACCESS_MW_BIND),
			 0);
	assert_int_not_equal(mr->rkey, rkey);
	assert_int_not_equal(mr->lkey, rkey);
	pair(&a, &b);
	assert_int_equal(write_to(&a, (uintptr_t)hp.b.buf, mr->rkey, 64),
			 IBV_WC_SUCCESS);
	assert_int_equal(write_to(&a, (uintptr_t)hp.b.buf, rkey, 64),
			 IBV_WC_REM_ACCESS_ERR);
	unpair(&a, &b);
	assert_int_equal(ibv_dereg_mr(mr), 0);
}

/* Another PD: the QP's PD no longer matches, then it does again. */
static void test_change_pd(void **state)
{
	struct ibv_pd *pd2 = ibv_alloc_pd(hp.b.ctx);
	struct ibv_mr *mr = b_mr(rw);
	uint32_t rkey = mr->rkey;
	struct rdma_ep a, b;
	struct ibv_wc wc;

	assert_non_null(pd2);
	assert_int_equal(
		ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_PD, pd2, NULL, 0, 0), 0);
	assert_ptr_equal(mr->pd, pd2);
	assert_int_equal(mr->rkey, rkey);
	/* the MR holds its new PD */
	assert_int_equal(ibv_dealloc_pd(pd2), EBUSY);
	pair(&a, &b);
	assert_int_equal(write_to(&a, (uintptr_t)hp.b.buf, rkey, 64),
			 IBV_WC_REM_ACCESS_ERR);
	unpair(&a, &b);
	/* a receive buffer under it: B's local protection, A's remote op */
	pair(&a, &b);
	assert_int_equal(ep_recv(&b, hp.b.buf, 64, mr->lkey, 2), 0);
	assert_int_equal(ep_post(&a, IBV_WR_SEND, hp.a.buf, 64, hp.a.mr->lkey,
				 0, 0, IBV_SEND_SIGNALED, 3),
			 0);
	assert_int_equal(ep_poll(&a, &wc, 1), 1);
	assert_int_equal(wc.status, IBV_WC_REM_OP_ERR);
	assert_int_equal(ep_poll(&b, &wc, 1), 1);
	assert_int_equal(wc.status, IBV_WC_LOC_PROT_ERR);
	unpair(&a, &b);
	assert_int_equal(
		ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_PD, hp.b.pd, NULL, 0, 0),
		0);
	assert_ptr_equal(mr->pd, hp.b.pd);
	pair(&a, &b);
	assert_int_equal(write_to(&a, (uintptr_t)hp.b.buf, rkey, 64),
			 IBV_WC_SUCCESS);
	unpair(&a, &b);
	assert_int_equal(ibv_dealloc_pd(pd2), 0);
	assert_int_equal(ibv_dereg_mr(mr), 0);
}

/* New memory under the MR: new keys, the bytes land in the new pages. */
static void test_translation(void **state)
{
	struct ibv_mr *mr = b_mr(rw);
	uint32_t rkey = mr->rkey;
	uint8_t *mem = aligned_alloc(4096, 8192);
	struct rdma_ep a, b;

	assert_non_null(mem);
	memset(mem, 0, 8192);
	memset(hp.b.buf, 0, BUF_SZ);
	assert_int_equal(ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_TRANSLATION, NULL,
				      mem, 8192, 0),
			 0);
	assert_ptr_equal(mr->addr, mem);
	assert_int_equal(mr->length, 8192);
	assert_int_not_equal(mr->rkey, rkey);
	pair(&a, &b);
	fill_pattern(hp.a.buf, 8192, 4);
	assert_int_equal(write_to(&a, (uintptr_t)mem, mr->rkey, 8192),
			 IBV_WC_SUCCESS);
	assert_memory_equal(mem, hp.a.buf, 8192);
	/* past the new end */
	assert_int_equal(write_to(&a, (uintptr_t)mem + 4096, mr->rkey, 8192),
			 IBV_WC_REM_ACCESS_ERR);
	unpair(&a, &b);
	pair(&a, &b);
	assert_int_equal(write_to(&a, (uintptr_t)hp.b.buf, rkey, 64),
			 IBV_WC_REM_ACCESS_ERR);
	unpair(&a, &b);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	free(mem);
}

/* The library's refusals (-1, the MR untouched) and the kernel's (-4). */
static void test_errors(void **state)
{
	struct ibv_mr *mr = b_mr(rw);
	uint32_t lkey = mr->lkey;
	static const struct {
		int flags, access, ret, err;
		bool addr;
	} bad[] = {
		{8, 0, IBV_REREG_MR_ERR_INPUT, EINVAL, false},
		{IBV_REREG_MR_CHANGE_TRANSLATION, 0, IBV_REREG_MR_ERR_INPUT,
		 EINVAL, false},
		{IBV_REREG_MR_CHANGE_PD, IBV_ACCESS_LOCAL_WRITE,
		 IBV_REREG_MR_ERR_INPUT, EINVAL, false},
		/* flags 0 passes the library; the kernel says EINVAL */
		{0, 0, IBV_REREG_MR_ERR_CMD, EINVAL, false},
		/* ib_check_mr_access: remote write without local write */
		{IBV_REREG_MR_CHANGE_ACCESS, IBV_ACCESS_REMOTE_WRITE,
		 IBV_REREG_MR_ERR_CMD, EINVAL, false},
		{IBV_REREG_MR_CHANGE_ACCESS, 1 << 30, IBV_REREG_MR_ERR_CMD,
		 EINVAL, false},
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		assert_int_equal(ibv_rereg_mr(mr, bad[i].flags, hp.b.pd, NULL,
					      0, bad[i].access),
				 bad[i].ret);
		assert_int_equal(errno, bad[i].err);
		assert_int_equal(mr->lkey, lkey);
	}
	/* CHANGE_PD without a PD */
	errno = 0;
	assert_int_equal(
		ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_PD, NULL, NULL, 0, 0),
		IBV_REREG_MR_ERR_INPUT);
	assert_int_equal(errno, EINVAL);
	assert_ptr_equal(mr->pd, hp.b.pd);
	assert_int_equal(ibv_dereg_mr(mr), 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_access_in_place),
		cmocka_unit_test(test_access_new_keys),
		cmocka_unit_test(test_change_pd),
		cmocka_unit_test(test_translation),
		cmocka_unit_test(test_errors),
	};

	if (argc > 1)
		ndev = atoi(argv[1]);
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
