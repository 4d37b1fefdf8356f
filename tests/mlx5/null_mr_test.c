// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibv_alloc_null_mr on rdma-sim: the MR carries the device's dump-and-fill
 * key, what is gathered through it arrives as zeros, what is scattered
 * through it (receive, READ response) is dropped, and a peer that names it
 * as an rkey (perftest --use-null-mr) writes into nothing and reads zeros;
 * an atomic through it is a remote access error. Host A on mlx5_0, B on
 * the last of NDEV devices; nothing is left behind.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host_pair.h"
#include "skip.h"

#define BUF_SZ 65536
#define LEN    8192 /* more than one packet */

static struct host_pair hp;
static struct rdma_ep a, b;
static struct ibv_mr *null_a, *null_b;
static int ndev = 1;

static int group_setup(void **state)
{
	return host_pair_open(&hp, ndev, BUF_SZ,
			      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				      IBV_ACCESS_REMOTE_READ |
				      IBV_ACCESS_REMOTE_ATOMIC);
}

static int group_teardown(void **state)
{
	test_teardown_begin();
	assert_true(host_pair_close(&hp));
	return test_teardown_end();
}

/* A fresh RC pair and a null MR on each side; both buffers patterned. */
static int setup(void **state)
{
	struct ep_opts o = {.type = IBV_QPT_RC};

	memset(hp.a.buf, 0xa5, BUF_SZ);
	memset(hp.b.buf, 0x5a, BUF_SZ);
	null_a = ibv_alloc_null_mr(hp.a.pd);
	null_b = ibv_alloc_null_mr(hp.b.pd);
	if (!null_a || !null_b)
		return -1;
	return ep_pair(&a, hp.a.pd, &o, &b, hp.b.pd, &o);
}

static int teardown(void **state)
{
	ep_close(&a);
	ep_close(&b);
	if (ibv_dereg_mr(null_a) || ibv_dereg_mr(null_b))
		return -1;
	return 0;
}

static bool all(const uint8_t *p, size_t len, uint8_t v)
{
	while (len--)
		if (*p++ != v)
			return false;
	return true;
}

static enum ibv_wc_status post_one(enum ibv_wr_opcode op, void *addr,
				   uint32_t lkey, uint64_t raddr, uint32_t rkey)
{
	struct ibv_wc wc;

	assert_int_equal(ep_post(&a, op, addr, LEN, lkey, raddr, rkey,
				 IBV_SEND_SIGNALED, 7),
			 0);
	assert_int_equal(ep_poll(&a, &wc, 1), 1);
	assert_int_equal(wc.wr_id, 7);
	return wc.status;
}

/* What the MR looks like, and what may not be done with it. */
static void test_object(void **state)
{
	assert_ptr_equal(null_a->pd, hp.a.pd);
	assert_ptr_equal(null_a->context, hp.a.ctx);
	assert_int_equal(null_a->length, SIZE_MAX);
	assert_int_equal(null_a->rkey, 0);
	assert_int_not_equal(null_a->lkey, 0);
	/* one key the device reserves, the same for every context */
	assert_int_equal(null_a->lkey, null_b->lkey);
	assert_int_not_equal(null_a->lkey, hp.a.mr->lkey);
	assert_int_equal(ibv_rereg_mr(null_a, IBV_REREG_MR_CHANGE_ACCESS, NULL,
				      NULL, 0, IBV_ACCESS_LOCAL_WRITE),
			 IBV_REREG_MR_ERR_INPUT);
	assert_int_equal(errno, EINVAL);
}

/* A WRITE gathered through the null MR lands as zeros. */
static void test_gather_zeros(void **state)
{
	assert_int_equal(post_one(IBV_WR_RDMA_WRITE, NULL, null_a->lkey,
				  (uintptr_t)hp.b.buf, hp.b.mr->rkey),
			 IBV_WC_SUCCESS);
	assert_true(all(hp.b.buf, LEN, 0));
	assert_true(all(hp.b.buf + LEN, BUF_SZ - LEN, 0x5a));
}

/* A receive and a READ response scattered through it are dropped. */
static void test_scatter_dropped(void **state)
{
	struct ibv_wc wc;

	assert_int_equal(ep_recv(&b, NULL, LEN, null_b->lkey, 9), 0);
	assert_int_equal(post_one(IBV_WR_SEND, hp.a.buf, hp.a.mr->lkey, 0, 0),
			 IBV_WC_SUCCESS);
	assert_int_equal(ep_poll(&b, &wc, 1), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 9);
	assert_int_equal(wc.byte_len, LEN);
	assert_true(all(hp.b.buf, BUF_SZ, 0x5a));

	assert_int_equal(post_one(IBV_WR_RDMA_READ, NULL, null_a->lkey,
				  (uintptr_t)hp.b.buf, hp.b.mr->rkey),
			 IBV_WC_SUCCESS);
	assert_true(all(hp.a.buf, BUF_SZ, 0xa5));
}

/* A SEND small enough for the receive CQE (scatter to CQE): the library
 * copies its bytes nowhere either, and none lands in memory. */
static void test_scatter_cqe_dropped(void **state)
{
	struct ibv_wc wc;

	assert_int_equal(ep_recv(&b, NULL, 16, null_b->lkey, 10), 0);
	assert_int_equal(ep_post(&a, IBV_WR_SEND, hp.a.buf, 16,
				 hp.a.mr->lkey, 0, 0, IBV_SEND_SIGNALED, 11),
			 0);
	assert_int_equal(ep_poll(&a, &wc, 1), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(ep_poll(&b, &wc, 1), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 10);
	assert_int_equal(wc.byte_len, 16);
	assert_true(all(hp.b.buf, BUF_SZ, 0x5a));
}

/* The key as an rkey: writes vanish, reads return zeros. */
static void test_remote(void **state)
{
	assert_int_equal(post_one(IBV_WR_RDMA_WRITE, hp.a.buf, hp.a.mr->lkey,
				  0x1000, null_b->lkey),
			 IBV_WC_SUCCESS);
	assert_true(all(hp.b.buf, BUF_SZ, 0x5a));
	assert_int_equal(post_one(IBV_WR_RDMA_READ, hp.a.buf, hp.a.mr->lkey,
				  0x1000, null_b->lkey),
			 IBV_WC_SUCCESS);
	assert_true(all(hp.a.buf, LEN, 0));
	assert_true(all(hp.a.buf + LEN, BUF_SZ - LEN, 0xa5));
}

/* Nothing to add to or swap in: an atomic is refused by the responder. */
static void test_atomic_refused(void **state)
{
	struct ibv_wc wc;

	assert_int_equal(ep_atomic(&a, IBV_WR_ATOMIC_FETCH_AND_ADD, hp.a.buf,
				   hp.a.mr->lkey, 0x1000, null_b->lkey, 1, 0,
				   IBV_SEND_SIGNALED),
			 0);
	assert_int_equal(ep_poll(&a, &wc, 1), 1);
	assert_int_equal(wc.status, IBV_WC_REM_ACCESS_ERR);
	assert_true(all(hp.a.buf, BUF_SZ, 0xa5));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_object, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gather_zeros, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_scatter_dropped, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_scatter_cqe_dropped, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_remote, setup, teardown),
		cmocka_unit_test_setup_teardown(test_atomic_refused, setup,
						teardown),
	};

	if (argc > 1)
		ndev = atoi(argv[1]);
	return test_exit_status(
		cmocka_run_group_tests(tests, group_setup, group_teardown));
}
