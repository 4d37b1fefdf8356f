// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Out-of-order receive QPs (MLX5DV_QP_CREATE_OOO_DP) on rdma-sim's mlx5,
 * over the kernel ABI of Linux 6.13: the caps from the query-device flag,
 * an RC pair with it moving bytes (its RQ twice the size asked), a DCT,
 * the
 * kernel refusing a type the firmware cannot reorder (UD) at RESET->INIT,
 * the library refusing a type with no caps (RAW_PACKET), and
 * mlx5_ib_modify_qp's udata judged as mlx5_ib judges it. With "k61" the
 * program expects a 6.1 kernel (rdma-sim --kernel 6.1): no caps, the flag
 * refused, the comp_mask bit unknown.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <infiniband/mlx5dv.h>
#include <rdma/mlx5-abi.h>
#include <rdma/rdma_dm_uapi.h>

#include "driver.h"
#include "host_pair.h"
#include "rdma_util.h"
#include "skip.h"

#define BUF_SZ 8192
#define DEPTH  8

static struct host_pair hp;

static int group_setup(void **state)
{
	(void)state;
	return host_pair_open(&hp, 1, BUF_SZ,
			      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
}

static int group_teardown(void **state)
{
	(void)state;
	test_teardown_begin();
	assert_true(host_pair_close(&hp));
	return test_teardown_end();
}

static struct ibv_qp *create_ooo(struct ibv_context *ctx,
				 struct ibv_qp_init_attr_ex *attr)
{
	struct mlx5dv_qp_init_attr dv = {
		.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS,
		.create_flags = MLX5DV_QP_CREATE_OOO_DP,
	};

	return mlx5dv_create_qp(ctx, attr, &dv);
}

static enum ibv_qp_state qp_state(struct ibv_qp *qp)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr a;

	assert_int_equal(ibv_query_qp(qp, &a, IBV_QP_STATE, &init), 0);
	return a.qp_state;
}

static uint32_t rq_ring(struct ibv_qp *qp)
{
	struct mlx5dv_qp dq = {};
	struct mlx5dv_obj obj = {.qp = {.in = qp, .out = &dq}};

	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_QP), 0);
	return dq.rq.wqe_cnt;
}

/* A modify carrying @in_len bytes of mlx5_ib_modify_qp with @comp_mask. */
static int modify_udata(struct ibv_qp *qp, uint32_t comp_mask, size_t in_len)
{
	struct ibv_qp_attr a = {.qp_state = IBV_QPS_INIT, .port_num = 1};
	struct mlx5_ib_modify_qp req = {.comp_mask = comp_mask};
	struct ibv_udata u = {.in = &req, .in_len = in_len};
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;

	if (qp->qp_type == IBV_QPT_UD) {
		a.qkey = EP_QKEY;
		mask |= IBV_QP_QKEY;
	} else {
		mask |= IBV_QP_ACCESS_FLAGS;
	}
	return ibv_cmd_modify_qp(qp, &a, mask, &u);
}

static void test_caps(void **state)
{
	struct mlx5dv_context c;
	struct ibv_device_attr a;
	uint32_t max;

	(void)state;
	assert_int_equal(ibv_query_device(hp.a.ctx, &a), 0);
	max = (uint32_t)a.max_qp_wr / 2;
	memset(&c, 0xa5, sizeof(c));
	c.comp_mask = MLX5DV_CONTEXT_MASK_OOO_RECV_WRS;
	assert_int_equal(mlx5dv_query_device(hp.a.ctx, &c), 0);
	assert_int_equal(c.comp_mask, MLX5DV_CONTEXT_MASK_OOO_RECV_WRS);
	assert_int_equal(c.ooo_recv_wrs_caps.max_rc, max);
	assert_int_equal(c.ooo_recv_wrs_caps.max_xrc, max);
	assert_int_equal(c.ooo_recv_wrs_caps.max_dct, max);
	assert_int_equal(c.ooo_recv_wrs_caps.max_ud, max);
	assert_int_equal(c.ooo_recv_wrs_caps.max_uc, max);
	/* not asked: not written */
	memset(&c, 0xa5, sizeof(c));
	c.comp_mask = 0;
	assert_int_equal(mlx5dv_query_device(hp.a.ctx, &c), 0);
	assert_int_equal(c.comp_mask, 0);
	assert_int_equal(c.ooo_recv_wrs_caps.max_rc, 0xa5a5a5a5);
}

/* An RC pair with OOO_DP: SEND into posted receives and a WRITE land. */
static void test_rc_data(void **state)
{
	const struct ep_opts o = {
		.type = IBV_QPT_RC, .depth = DEPTH, .create_qp_ex = create_ooo};
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr qa;
	struct rdma_ep a = {}, b = {};
	struct ibv_wc wc;
	unsigned int i;

	(void)state;
	assert_int_equal(ep_pair(&a, hp.a.pd, &o, &b, hp.b.pd, &o), 0);
	assert_int_equal(qp_state(a.qp), IBV_QPS_RTS);
	/* twice the ring, as many postable as asked */
	assert_int_equal(rq_ring(b.qp), 2 * DEPTH);
	assert_int_equal(ibv_query_qp(b.qp, &qa, IBV_QP_CAP, &init), 0);
	assert_int_equal(init.cap.max_recv_wr, DEPTH);

	for (i = 0; i < 4096; i++)
		hp.a.buf[i] = (uint8_t)(i * 13 + 5);
	memset(hp.b.buf, 0, BUF_SZ);
	for (i = 0; i < DEPTH; i++)
		assert_int_equal(
			ep_recv(&b, hp.b.buf + i * 256, 256, hp.b.mr->lkey, i),
			0);
	/* the ninth receive finds the budget spent */
	assert_int_equal(ep_recv(&b, hp.b.buf, 256, hp.b.mr->lkey, 99), ENOMEM);
	for (i = 0; i < DEPTH; i++) {
		assert_int_equal(ep_post(&a, IBV_WR_SEND, hp.a.buf + i * 256,
					 256, hp.a.mr->lkey, 0, 0,
					 IBV_SEND_SIGNALED, i),
				 0);
		assert_int_equal(ep_poll(&a, &wc, 1), 1);
		assert_int_equal(wc.status, IBV_WC_SUCCESS);
		assert_int_equal(ep_poll(&b, &wc, 1), 1);
		assert_int_equal(wc.status, IBV_WC_SUCCESS);
		assert_int_equal(wc.opcode, IBV_WC_RECV);
		assert_int_equal(wc.wr_id, i);
		assert_int_equal(wc.byte_len, 256);
	}
	assert_memory_equal(hp.b.buf, hp.a.buf, DEPTH * 256);
	assert_int_equal(ep_post(&a, IBV_WR_RDMA_WRITE, hp.a.buf, 4096,
				 hp.a.mr->lkey, (uintptr_t)hp.b.buf + 4096,
				 hp.b.mr->rkey, IBV_SEND_SIGNALED, 7),
			 0);
	assert_int_equal(ep_poll(&a, &wc, 1), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_memory_equal(hp.b.buf + 4096, hp.a.buf, 4096);
	ep_close(&a);
	ep_close(&b);
}

/* A DCT with OOO_DP (its SRQ receives): told at RESET->INIT, made at
 * INIT->RTR with the ordering in its context (the trace checks that). */
static void test_dct(void **state)
{
	struct ibv_srq_init_attr sa = {.attr = {.max_wr = 16, .max_sge = 1}};
	struct ibv_cq *cq = ibv_create_cq(hp.a.ctx, 16, NULL, NULL, 0);
	struct ibv_srq *srq = ibv_create_srq(hp.a.pd, &sa);
	struct ibv_qp_init_attr_ex qa = {
		.qp_type = IBV_QPT_DRIVER,
		.send_cq = cq,
		.recv_cq = cq,
		.srq = srq,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = hp.a.pd,
	};
	struct mlx5dv_qp_init_attr dv = {
		.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_DC |
			     MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS,
		.create_flags = MLX5DV_QP_CREATE_OOO_DP,
		.dc_init_attr = {.dc_type = MLX5DV_DCTYPE_DCT,
				 .dct_access_key = 0x1234},
	};
	struct ibv_qp_attr a = {.qp_state = IBV_QPS_INIT,
				.port_num = 1,
				.qp_access_flags = IBV_ACCESS_REMOTE_WRITE};
	struct ibv_qp *dct;

	(void)state;
	assert_non_null(cq);
	assert_non_null(srq);
	dct = mlx5dv_create_qp(hp.a.ctx, &qa, &dv);
	assert_non_null(dct);
	assert_int_equal(ibv_modify_qp(dct, &a,
				       IBV_QP_STATE | IBV_QP_PKEY_INDEX |
					       IBV_QP_PORT |
					       IBV_QP_ACCESS_FLAGS),
			 0);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.min_rnr_timer = 1;
	a.ah_attr.port_num = 1;
	assert_int_equal(ibv_modify_qp(dct, &a,
				       IBV_QP_STATE | IBV_QP_MIN_RNR_TIMER |
					       IBV_QP_AV | IBV_QP_PATH_MTU),
			 0);
	assert_int_not_equal(dct->qp_num, 0);
	assert_int_equal(ibv_destroy_qp(dct), 0);
	assert_int_equal(ibv_destroy_srq(srq), 0);
	assert_int_equal(ibv_destroy_cq(cq), 0);
}

/* Without the flag the RQ is the size asked. */
static void test_rc_plain_ring(void **state)
{
	const struct ep_opts o = {.type = IBV_QPT_RC, .depth = DEPTH};
	struct rdma_ep a = {};

	(void)state;
	assert_int_equal(ep_open(&a, hp.a.ctx, hp.a.pd, &o), 0);
	assert_int_equal(rq_ring(a.qp), DEPTH);
	ep_close(&a);
}

/* UD: the library cannot tell the firmware's types apart; the kernel
 * refuses it as the QP leaves RESET, and the QP stays there. */
static void test_ud_refused_by_kernel(void **state)
{
	const struct ep_opts o = {
		.type = IBV_QPT_UD, .depth = DEPTH, .create_qp_ex = create_ooo};
	struct rdma_ep a = {};

	(void)state;
	assert_int_equal(ep_open(&a, hp.a.ctx, hp.a.pd, &o), 0);
	assert_int_equal(ep_connect(&a, a.lid, a.qpn), EOPNOTSUPP);
	assert_int_equal(qp_state(a.qp), IBV_QPS_RESET);
	ep_close(&a);
}

/* RAW_PACKET has no ooo_recv_wrs_caps member: the library refuses. */
static void test_raw_refused(void **state)
{
	struct ibv_qp_init_attr_ex qa = {
		.qp_type = IBV_QPT_RAW_PACKET,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = hp.a.pd,
		.cap = {.max_send_wr = 4,
			.max_recv_wr = 4,
			.max_send_sge = 1,
			.max_recv_sge = 1},
	};
	struct ibv_cq *cq = ibv_create_cq(hp.a.ctx, 8, NULL, NULL, 0);

	(void)state;
	assert_non_null(cq);
	qa.send_cq = cq;
	qa.recv_cq = cq;
	errno = 0;
	assert_null(create_ooo(hp.a.ctx, &qa));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(ibv_destroy_cq(cq), 0);
}

/* mlx5_ib_modify_qp's udata: short EINVAL, unknown bit EOPNOTSUPP, the
 * OOO_DP bit on UD EOPNOTSUPP and on RC taken. */
static void test_modify_udata(void **state)
{
	static const struct {
		enum ibv_qp_type type;
		uint32_t comp_mask;
		size_t len;
		int err;
	} rows[] = {
		{IBV_QPT_RC, 0, 12, EINVAL},
		{IBV_QPT_RC, 1U << 1, sizeof(struct mlx5_ib_modify_qp),
		 EOPNOTSUPP},
		{IBV_QPT_RC, 1U << 31, sizeof(struct mlx5_ib_modify_qp),
		 EOPNOTSUPP},
		{IBV_QPT_UD, RDMA_DM_MLX5_MODIFY_QP_OOO_DP,
		 sizeof(struct mlx5_ib_modify_qp), EOPNOTSUPP},
		{IBV_QPT_RC, RDMA_DM_MLX5_MODIFY_QP_OOO_DP,
		 sizeof(struct mlx5_ib_modify_qp), 0},
	};
	struct rdma_ep a = {};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct ep_opts o = {.type = rows[i].type, .depth = 4};

		assert_int_equal(ep_open(&a, hp.a.ctx, hp.a.pd, &o), 0);
		assert_int_equal(
			modify_udata(a.qp, rows[i].comp_mask, rows[i].len),
			rows[i].err);
		assert_int_equal(qp_state(a.qp),
				 rows[i].err ? IBV_QPS_RESET : IBV_QPS_INIT);
		ep_close(&a);
	}
}

/* A 6.1 kernel: no flag, so no caps and no OOO QP; the bit is unknown. */
static void test_k61(void **state)
{
	const struct ep_opts o = {
		.type = IBV_QPT_RC, .depth = DEPTH, .create_qp_ex = create_ooo};
	const struct ep_opts plain = {.type = IBV_QPT_RC, .depth = 4};
	struct mlx5dv_context c = {.comp_mask =
					   MLX5DV_CONTEXT_MASK_OOO_RECV_WRS};
	struct rdma_ep a = {};

	(void)state;
	assert_int_equal(mlx5dv_query_device(hp.a.ctx, &c), 0);
	assert_int_equal(c.comp_mask, 0);
	assert_int_equal(ep_open(&a, hp.a.ctx, hp.a.pd, &o), EOPNOTSUPP);
	assert_int_equal(ep_open(&a, hp.a.ctx, hp.a.pd, &plain), 0);
	assert_int_equal(modify_udata(a.qp, RDMA_DM_MLX5_MODIFY_QP_OOO_DP,
				      sizeof(struct mlx5_ib_modify_qp)),
			 EOPNOTSUPP);
	assert_int_equal(qp_state(a.qp), IBV_QPS_RESET);
	ep_close(&a);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_rc_data),
		cmocka_unit_test(test_rc_plain_ring),
		cmocka_unit_test(test_dct),
		cmocka_unit_test(test_ud_refused_by_kernel),
		cmocka_unit_test(test_raw_refused),
		cmocka_unit_test(test_modify_udata),
	};
	const struct CMUnitTest k61[] = {
		cmocka_unit_test(test_k61),
	};

	if (argc > 1 && !strcmp(argv[1], "k61"))
		return test_exit_status(cmocka_run_group_tests(k61, group_setup,
							       group_teardown));
	return test_exit_status(
		cmocka_run_group_tests(tests, group_setup, group_teardown));
}
