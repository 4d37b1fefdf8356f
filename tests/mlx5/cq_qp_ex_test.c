// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The extended CQ and QP options on rdma-sim, end to end: completion
 * timestamps (raw and as wall time, against the clock around the send),
 * ibv_query_rt_values_ex, mlx5dv_create_cq (CQE size, compression,
 * padding: the library's checks and the kernel's answers), creation flags
 * of ibv_create_qp_ex, and mlx5dv_create_qp with its flags and a raw WQE
 * sent through mlx5dv_wr_raw_wqe. Two QPs on one device, or across two
 * devices with "2"; nothing (fd, mapping) may be left behind.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include <infiniband/mlx5dv.h>

#include "host_pair.h"
#include "skip.h"

#define BUF_SZ 8192
#define MSG 256

static struct host_pair hosts;
#define A (hosts.a)
#define B (hosts.b)
static int ndev = 1;

static int group_setup(void **state)
{
	return host_pair_open(&hosts, ndev, BUF_SZ,
			      IBV_ACCESS_LOCAL_WRITE |
				      IBV_ACCESS_REMOTE_WRITE);
}

static int group_teardown(void **state)
{
	test_teardown_begin();
	assert_true(host_pair_close(&hosts));
	return test_teardown_end();
}

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * Wait for one completion on an extended CQ; its status and wr_id. The
 * bound is time, not a spin count: the simulated HCA may take the work
 * on its engine thread, which a slow (ASan) build schedules late.
 */
static void start_one(struct ibv_cq_ex *cq, uint64_t wr_id)
{
	struct ibv_poll_cq_attr attr = {};
	uint64_t give_up = wall_ns() + 10000000000ULL;
	int ret;

	while ((ret = ibv_start_poll(cq, &attr)) == ENOENT &&
	       wall_ns() < give_up)
		;
	assert_int_equal(ret, 0);
	assert_int_equal(cq->status, IBV_WC_SUCCESS);
	assert_int_equal(cq->wr_id, wr_id);
}

/* One SEND from a to b, the receive posted first. */
static void send_one(struct rdma_ep *a, struct rdma_ep *b)
{
	assert_int_equal(ep_recv(b, B.buf, MSG, B.mr->lkey, 2), 0);
	assert_int_equal(ep_post(a, IBV_WR_SEND, A.buf, MSG, A.mr->lkey, 0, 0,
				 IBV_SEND_SIGNALED, 1),
			 0);
}

/*
 * Both stamps of a completion: the raw one is the HCA clock, the wall one
 * is that clock converted through the clock-info page, and it falls
 * between the clock before the send and after the poll.
 */
static void test_timestamps(void **state)
{
	struct ep_opts o = {
		.type = IBV_QPT_RC, .cq_ex = true,
		.wc_flags = IBV_WC_EX_WITH_COMPLETION_TIMESTAMP |
			    IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK };
	struct mlx5dv_clock_info ci;
	uint64_t before, after, wall, raw, raw2;
	struct rdma_ep a, b;

	assert_int_equal(ep_pair(&a, A.pd, &o, &b, B.pd, &o), 0);
	assert_non_null(a.cq_ex->read_completion_ts);
	assert_null(a.cq_ex->read_flow_tag); /* not asked for */
	before = wall_ns();
	send_one(&a, &b);
	start_one(a.cq_ex, 1);
	after = wall_ns();
	raw = ibv_wc_read_completion_ts(a.cq_ex);
	wall = ibv_wc_read_completion_wallclock_ns(a.cq_ex);
	ibv_end_poll(a.cq_ex);
	/*
	 * Within what pairing the counter with the wall clock can miss by
	 * (6.4 ns cycles, the two clocks read apart: 1 ms on a busy host).
	 */
	assert_true(wall + 1000000 >= before);
	assert_true(wall <= after + 1000000);
	assert_int_equal(mlx5dv_get_clock_info(A.ctx, &ci), 0);
	assert_int_equal(mlx5dv_ts_to_ns(&ci, raw), wall);

	start_one(b.cq_ex, 2);
	raw2 = ibv_wc_read_completion_ts(b.cq_ex);
	assert_int_equal(ibv_wc_read_opcode(b.cq_ex), IBV_WC_RECV);
	ibv_end_poll(b.cq_ex);
	/* The receive lands around the send (either first), 1 s at most. */
	assert_true(llabs((long long)(raw2 - raw)) < 156250000LL);
	assert_true(raw != 0 && raw2 != 0);
	ep_close(&a);
	ep_close(&b);
}

/* The core clock from its page; wc_flags this provider does not know. */
static void test_rt_values_and_bad_flags(void **state)
{
	struct ibv_values_ex v = { .comp_mask = IBV_VALUES_MASK_RAW_CLOCK };
	struct ibv_cq_init_attr_ex ca = {
		.cqe = 4, .wc_flags = IBV_WC_STANDARD_FLAGS | 1ULL << 12 };

	assert_int_equal(ibv_query_rt_values_ex(A.ctx, &v), 0);
	assert_int_equal(v.comp_mask, IBV_VALUES_MASK_RAW_CLOCK);
	assert_int_equal(v.raw_clock.tv_sec, 0);
	v.comp_mask = 2;
	assert_int_equal(ibv_query_rt_values_ex(A.ctx, &v), EINVAL);
	errno = 0;
	assert_null(ibv_create_cq_ex(A.ctx, &ca));
	assert_int_equal(errno, EOPNOTSUPP);
}

static struct ibv_cq_ex *dv_cq(struct mlx5dv_cq_init_attr *dv)
{
	struct ibv_cq_init_attr_ex ca = { .cqe = 8,
					  .wc_flags = IBV_WC_STANDARD_FLAGS };

	errno = 0;
	return mlx5dv_create_cq(A.ctx, &ca, dv);
}

static uint32_t cqe_size_of(struct ibv_cq_ex *cq)
{
	struct mlx5dv_cq dc = {};
	struct mlx5dv_obj obj = { .cq = { .in = ibv_cq_ex_to_cq(cq),
					  .out = &dc } };

	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_CQ), 0);
	return dc.cqe_size;
}

/* Rejected by the library (EINVAL) or by the kernel (its errno). */
static void test_dv_cq_checks(void **state)
{
	static const struct {
		struct mlx5dv_cq_init_attr a;
		int err;
	} cases[] = {
		{ { .comp_mask = 1 << 3 }, EINVAL },
		{ { .comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE,
		    .cqe_size = 100 }, EINVAL },
		{ { .comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_FLAGS,
		    .flags = MLX5DV_CQ_INIT_ATTR_FLAGS_RESERVED }, EINVAL },
		/* padding needs 128-byte CQEs */
		{ { .comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_FLAGS,
		    .flags = MLX5DV_CQ_INIT_ATTR_FLAGS_CQE_PAD }, EINVAL },
		/* a format outside the reported caps (0x7) */
		{ { .comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE,
		    .cqe_comp_res_format = 0x8 }, EINVAL },
		/* the library passes these on; the device does neither */
		{ { .comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE,
		    .cqe_comp_res_format = MLX5DV_CQE_RES_FORMAT_HASH },
		  EOPNOTSUPP },
		{ { .comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_FLAGS |
				 MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE,
		    .flags = MLX5DV_CQ_INIT_ATTR_FLAGS_CQE_PAD,
		    .cqe_size = 128 }, EOPNOTSUPP },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mlx5dv_cq_init_attr a = cases[i].a;

		assert_null(dv_cq(&a));
		assert_int_equal(errno, cases[i].err);
	}
}

/* CQE size from the attribute, from MLX5_CQE_SIZE, 64 by default. */
static void test_dv_cq_sizes(void **state)
{
	struct mlx5dv_cq_init_attr a = {
		.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE,
		.cqe_size = 128 };
	struct mlx5dv_cq_init_attr none = {};
	struct ibv_cq_ex *cq;

	cq = dv_cq(&a);
	assert_non_null(cq);
	assert_int_equal(cqe_size_of(cq), 128);
	assert_int_equal(ibv_destroy_cq(ibv_cq_ex_to_cq(cq)), 0);
	cq = dv_cq(NULL);
	assert_non_null(cq);
	assert_int_equal(cqe_size_of(cq), 64);
	assert_int_equal(ibv_destroy_cq(ibv_cq_ex_to_cq(cq)), 0);
	setenv("MLX5_CQE_SIZE", "128", 1);
	cq = dv_cq(&none);
	unsetenv("MLX5_CQE_SIZE");
	assert_non_null(cq);
	assert_int_equal(cqe_size_of(cq), 128);
	assert_int_equal(ibv_destroy_cq(ibv_cq_ex_to_cq(cq)), 0);
	setenv("MLX5_CQE_SIZE", "100", 1);
	assert_null(dv_cq(&none));
	unsetenv("MLX5_CQE_SIZE");
	assert_int_equal(errno, EINVAL);
}

static struct ibv_cq_ex *cq_128(struct ibv_context *ctx,
				struct ibv_cq_init_attr_ex *attr)
{
	struct mlx5dv_cq_init_attr dv = {
		.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE,
		.cqe_size = 128 };

	return mlx5dv_create_cq(ctx, attr, &dv);
}

/* Traffic on 128-byte CQEs: the HCA writes their second half. */
static void test_dv_cq_traffic(void **state)
{
	struct ep_opts o = { .type = IBV_QPT_RC, .create_cq_ex = cq_128 };
	struct rdma_ep a, b;
	struct ibv_wc wc;
	int i;

	assert_int_equal(ep_pair(&a, A.pd, &o, &b, B.pd, &o), 0);
	for (i = 0; i < 20; i++) { /* past the ring's end */
		memset(A.buf, 'a' + i, MSG);
		send_one(&a, &b);
		assert_int_equal(ep_poll(&a, &wc, 1), 1);
		assert_int_equal(wc.status, IBV_WC_SUCCESS);
		assert_int_equal(wc.opcode, IBV_WC_SEND);
		assert_int_equal(ep_poll(&b, &wc, 1), 1);
		assert_int_equal(wc.status, IBV_WC_SUCCESS);
		assert_int_equal(wc.byte_len, MSG);
		assert_memory_equal(B.buf, A.buf, MSG);
	}
	ep_close(&a);
	ep_close(&b);
}

static struct ibv_qp *qp_with(enum ibv_qp_type type, uint32_t flags,
			      struct ibv_cq *cq)
{
	struct ibv_qp_init_attr_ex qa = {
		.send_cq = cq, .recv_cq = cq, .qp_type = type,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_CREATE_FLAGS,
		.create_flags = flags, .pd = A.pd };

	errno = 0;
	return ibv_create_qp_ex(A.ctx, &qa);
}

/* CREATE_FLAGS with no flag, multicast loopback blocked on UD. */
static void test_qp_create_flags(void **state)
{
	struct ibv_cq *cq = ibv_create_cq(A.ctx, 8, NULL, NULL, 0);
	struct ibv_qp *qp;

	assert_non_null(cq);
	qp = qp_with(IBV_QPT_RC, 0, cq);
	assert_non_null(qp);
	assert_int_equal(ibv_destroy_qp(qp), 0);
	qp = qp_with(IBV_QPT_UD, IBV_QP_CREATE_BLOCK_SELF_MCAST_LB, cq);
	assert_non_null(qp);
	assert_int_equal(ibv_destroy_qp(qp), 0);
	/* an underlay QP (own source QPN) is UD only */
	assert_null(qp_with(IBV_QPT_RC, IBV_QP_CREATE_SOURCE_QPN, cq));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(ibv_destroy_cq(cq), 0);
}

/* mlx5dv_create_qp: the library's checks, then the kernel's. */
static void test_dv_qp_checks(void **state)
{
	static const struct {
		struct mlx5dv_qp_init_attr a;
		int err;
	} cases[] = {
		{ { .comp_mask = 1 << 4 }, EINVAL },
		{ { .comp_mask = MLX5DV_QP_INIT_ATTR_MASK_DC }, EINVAL },
		{ { .comp_mask = MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS,
		    .create_flags = 1 << 8 }, EINVAL },
		{ { .comp_mask = MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS,
		    .create_flags = MLX5DV_QP_CREATE_DISABLE_SCATTER_TO_CQE |
				    MLX5DV_QP_CREATE_ALLOW_SCATTER_TO_CQE },
		  EINVAL },
		{ { .comp_mask = MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS,
		    .create_flags = MLX5DV_QP_CREATE_SIG_PIPELINING },
		  EOPNOTSUPP },
		{ { .comp_mask = MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS,
		    .send_ops_flags = MLX5DV_QP_EX_WITH_MEMCPY }, EOPNOTSUPP },
		/* mlx5_ib refuses these on an RC QP */
		{ { .comp_mask = MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS,
		    .create_flags = MLX5DV_QP_CREATE_TUNNEL_OFFLOADS },
		  EINVAL },
	};
	struct ibv_cq *cq = ibv_create_cq(A.ctx, 8, NULL, NULL, 0);
	size_t i;

	assert_non_null(cq);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mlx5dv_qp_init_attr a = cases[i].a;
		struct ibv_qp_init_attr_ex qa = {
			.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = 4, .max_recv_wr = 4,
				 .max_send_sge = 1, .max_recv_sge = 1 },
			.comp_mask = IBV_QP_INIT_ATTR_PD |
				     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
			.send_ops_flags = IBV_QP_EX_WITH_SEND,
			.pd = A.pd };

		errno = 0;
		assert_null(mlx5dv_create_qp(A.ctx, &qa, &a));
		assert_int_equal(errno, cases[i].err);
	}
	assert_int_equal(ibv_destroy_cq(cq), 0);
}

static struct ibv_qp *qp_raw(struct ibv_context *ctx,
			     struct ibv_qp_init_attr_ex *attr)
{
	struct mlx5dv_qp_init_attr dv = {
		.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS,
		.send_ops_flags = MLX5DV_QP_EX_WITH_RAW_WQE };

	return mlx5dv_create_qp(ctx, attr, &dv);
}

/* A SEND built by hand: its bytes arrive, its completion is DRIVER2. */
static void test_raw_wqe(void **state)
{
	struct ep_opts oa = { .type = IBV_QPT_RC, .qp_ex = true,
			      .create_qp_ex = qp_raw, .depth = 2 };
	struct ep_opts ob = { .type = IBV_QPT_RC };
	struct {
		struct mlx5_wqe_ctrl_seg ctrl;
		struct mlx5_wqe_data_seg data;
	} wqe;
	struct mlx5dv_qp_ex *mqp;
	struct rdma_ep a, b;
	struct ibv_wc wc;
	int i;

	assert_int_equal(ep_pair(&a, A.pd, &oa, &b, B.pd, &ob), 0);
	mqp = mlx5dv_qp_ex_from_ibv_qp_ex(a.qpx);
	assert_non_null(mqp);
	assert_non_null(mqp->wr_raw_wqe);
	for (i = 0; i < 6; i++) { /* raw and plain, around the ring */
		memset(A.buf, 'r' + i, MSG);
		assert_int_equal(ep_recv(&b, B.buf, MSG, B.mr->lkey, 2), 0);
		ibv_wr_start(a.qpx);
		a.qpx->wr_id = 10 + i;
		a.qpx->wr_flags = IBV_SEND_SIGNALED;
		if (i % 2) {
			ibv_wr_send(a.qpx);
			ibv_wr_set_sge(a.qpx, A.mr->lkey, (uintptr_t)A.buf,
				       MSG);
		} else {
			memset(&wqe, 0, sizeof(wqe));
			mlx5dv_set_ctrl_seg(&wqe.ctrl, 0, MLX5_OPCODE_SEND, 0,
					    a.qpn, MLX5_WQE_CTRL_CQ_UPDATE, 2,
					    0, 0);
			mlx5dv_set_data_seg(&wqe.data, MSG, A.mr->lkey,
					    (uintptr_t)A.buf);
			mlx5dv_wr_raw_wqe(mqp, &wqe);
		}
		assert_int_equal(ibv_wr_complete(a.qpx), 0);
		assert_int_equal(ep_poll(&a, &wc, 1), 1);
		assert_int_equal(wc.status, IBV_WC_SUCCESS);
		assert_int_equal(wc.wr_id, 10 + i);
		assert_int_equal(wc.opcode,
				 i % 2 ? IBV_WC_SEND : IBV_WC_DRIVER2);
		assert_int_equal(ep_poll(&b, &wc, 1), 1);
		assert_int_equal(wc.status, IBV_WC_SUCCESS);
		assert_int_equal(wc.byte_len, MSG);
		assert_memory_equal(B.buf, A.buf, MSG);
	}
	ep_close(&a);
	ep_close(&b);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timestamps),
		cmocka_unit_test(test_rt_values_and_bad_flags),
		cmocka_unit_test(test_dv_cq_checks),
		cmocka_unit_test(test_dv_cq_sizes),
		cmocka_unit_test(test_dv_cq_traffic),
		cmocka_unit_test(test_qp_create_flags),
		cmocka_unit_test(test_dv_qp_checks),
		cmocka_unit_test(test_raw_wqe),
	};

	if (argc > 1)
		ndev = atoi(argv[1]);
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
