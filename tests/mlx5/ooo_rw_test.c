// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Out-of-order RDMA READ/WRITE placement on rdma-sim's mlx5: the device
 * reports it for RC and XRC (ooo_caps), a caller built on upstream's
 * 400-byte ibv_device_attr_ex is answered within its size, an RC pair
 * asking for it at INIT->RTR moves bytes, any other transition is EINVAL
 * and UD or UC is EOPNOTSUPP, the QP left in its state.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host_pair.h"
#include "qp_link.h"
#include "rdma_util.h"
#include "skip.h"

#define BUF_SZ		      8192
#define UPSTREAM_ATTR_EX_SIZE 400

static struct host_pair hp;

static int group_setup(void **state)
{
	(void)state;
	return host_pair_open(&hp, 1, BUF_SZ,
			      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				      IBV_ACCESS_REMOTE_READ);
}

static int group_teardown(void **state)
{
	(void)state;
	test_teardown_begin();
	assert_true(host_pair_close(&hp));
	return test_teardown_end();
}

static void test_caps(void **state)
{
	struct ibv_device_attr_ex attr;
	struct verbs_context *vctx;
	uint8_t small[sizeof(attr)];

	(void)state;
	memset(&attr, 0xa5, sizeof(attr));
	assert_int_equal(ibv_query_device_ex(hp.a.ctx, NULL, &attr), 0);
	assert_int_equal(attr.ooo_caps.rc_caps, IBV_OOO_RW_DATA_PLACEMENT);
	assert_int_equal(attr.ooo_caps.xrc_caps, IBV_OOO_RW_DATA_PLACEMENT);
	assert_int_equal(attr.ooo_caps.ud_caps, 0);
	assert_int_equal(attr.ooo_caps.uc_caps, 0);

	/* What a program built on upstream's header passes: nothing is
	 * written past its 400 bytes. */
	vctx = verbs_get_ctx_op(hp.a.ctx, query_device_ex);
	assert_non_null(vctx);
	memset(small, 0xa5, sizeof(small));
	assert_int_equal(
		vctx->query_device_ex(hp.a.ctx, NULL,
				      (struct ibv_device_attr_ex *)small,
				      UPSTREAM_ATTR_EX_SIZE),
		0);
	assert_int_equal(small[UPSTREAM_ATTR_EX_SIZE], 0xa5);
	assert_int_equal(small[sizeof(small) - 1], 0xa5);
	assert_memory_equal(small, &attr, UPSTREAM_ATTR_EX_SIZE);
}

static enum ibv_qp_state qp_state(struct ibv_qp *qp)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr a;

	assert_int_equal(ibv_query_qp(qp, &a, IBV_QP_STATE, &init), 0);
	return a.qp_state;
}

static struct qp_link link_to(const struct rdma_ep *peer, int rtr_mask)
{
	struct qp_link l = qp_link_default(peer->qpn);

	l.dlid = peer->lid;
	l.rtr_mask = rtr_mask;
	l.rd_atomic = 4;
	return l;
}

/* One signaled READ or WRITE of 4 KiB between @local and B's buffer. */
static void rdma_4k(struct rdma_ep *ep, enum ibv_wr_opcode op, uint8_t *local,
		    enum ibv_wc_opcode done)
{
	struct ibv_wc wc;

	assert_int_equal(ep_post(ep, op, local, 4096, hp.a.mr->lkey,
				 (uintptr_t)hp.b.buf, hp.b.mr->rkey,
				 IBV_SEND_SIGNALED, op),
			 0);
	assert_int_equal(ep_poll(ep, &wc, 1), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.opcode, done);
	assert_int_equal(wc.wr_id, op);
}

static void test_rc_rdma(void **state)
{
	const struct ep_opts o = {.type = IBV_QPT_RC, .depth = 8};
	struct rdma_ep a = {}, b = {};
	struct qp_link la, lb;
	unsigned int i;

	(void)state;
	assert_int_equal(ep_open(&a, hp.a.ctx, hp.a.pd, &o), 0);
	assert_int_equal(ep_open(&b, hp.b.ctx, hp.b.pd, &o), 0);
	la = link_to(&b, IBV_QP_OOO_RW_DATA_PLACEMENT);
	lb = link_to(&a, IBV_QP_OOO_RW_DATA_PLACEMENT);
	assert_int_equal(qp_link_up(a.qp, &la), 0);
	assert_int_equal(qp_link_up(b.qp, &lb), 0);
	assert_int_equal(qp_state(a.qp), IBV_QPS_RTS);

	for (i = 0; i < 4096; i++)
		hp.a.buf[i] = (uint8_t)(i * 7 + 1);
	memset(hp.b.buf, 0, BUF_SZ);
	rdma_4k(&a, IBV_WR_RDMA_WRITE, hp.a.buf, IBV_WC_RDMA_WRITE);
	assert_memory_equal(hp.b.buf, hp.a.buf, 4096);
	/* and back with a READ into the second half */
	rdma_4k(&a, IBV_WR_RDMA_READ, hp.a.buf + 4096, IBV_WC_RDMA_READ);
	assert_memory_equal(hp.a.buf + 4096, hp.a.buf, 4096);
	ep_close(&a);
	ep_close(&b);
}

/* The attribute outside INIT->RTR on an RC QP: EINVAL, the QP stays. */
static void test_wrong_transition(void **state)
{
	const struct ep_opts o = {.type = IBV_QPT_RC, .depth = 4};
	struct rdma_ep a = {}, b = {};
	struct ibv_qp_attr at = {.qp_state = IBV_QPS_INIT, .port_num = 1};
	struct qp_link la;

	(void)state;
	assert_int_equal(ep_open(&a, hp.a.ctx, hp.a.pd, &o), 0);
	assert_int_equal(ep_open(&b, hp.b.ctx, hp.b.pd, &o), 0);
	/* RESET -> INIT */
	assert_int_equal(ibv_modify_qp(a.qp, &at,
				       IBV_QP_STATE | IBV_QP_PKEY_INDEX |
					       IBV_QP_PORT |
					       IBV_QP_ACCESS_FLAGS |
					       IBV_QP_OOO_RW_DATA_PLACEMENT),
			 EINVAL);
	assert_int_equal(qp_state(a.qp), IBV_QPS_RESET);
	la = link_to(&b, 0);
	assert_int_equal(qp_link_up(a.qp, &la), 0);
	/* RTS -> RTS */
	at.qp_state = IBV_QPS_RTS;
	assert_int_equal(
		ibv_modify_qp(a.qp, &at,
			      IBV_QP_STATE | IBV_QP_OOO_RW_DATA_PLACEMENT),
		EINVAL);
	/* without a state change */
	assert_int_equal(ibv_modify_qp(a.qp, &at, IBV_QP_OOO_RW_DATA_PLACEMENT),
			 EINVAL);
	assert_int_equal(qp_state(a.qp), IBV_QPS_RTS);
	ep_close(&a);
	ep_close(&b);
}

/* UD and UC: the device reports no ooo_caps for them. */
static void test_other_types(void **state)
{
	static const enum ibv_qp_type types[] = {IBV_QPT_UD, IBV_QPT_UC};
	struct rdma_ep a = {};
	struct qp_link l;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		const struct ep_opts o = {.type = types[i], .depth = 4};

		assert_int_equal(ep_open(&a, hp.a.ctx, hp.a.pd, &o), 0);
		l = link_to(&a, IBV_QP_OOO_RW_DATA_PLACEMENT);
		l.qkey = EP_QKEY;
		assert_int_equal(qp_link_up(a.qp, &l), EOPNOTSUPP);
		assert_int_equal(qp_state(a.qp), IBV_QPS_INIT);
		ep_close(&a);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_rc_rdma),
		cmocka_unit_test(test_wrong_transition),
		cmocka_unit_test(test_other_types),
	};

	return test_exit_status(
		cmocka_run_group_tests(tests, group_setup, group_teardown));
}
