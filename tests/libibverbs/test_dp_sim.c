// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The data-path command helpers against rdma-sim's rxe model, a second,
 * independent implementation of the kernel's rules: CQ, QP, SRQ and AH
 * life cycles (the helpers called directly, so no provider data path is
 * needed), the QP state table's verdict on a missing attribute, EBUSY on
 * objects still in use, an async event (SQ_DRAINED) that QP destroy waits
 * for, no fd left behind, and what rxe lacks (domains, import).
 * Run as: rdma-sim --driver rxe [--fail CQ_CREATE:1:EPROTONOSUPPORT ...]
 * -- test_dp_sim; with a create or destroy ioctl failed as a kernel
 * without it answers, every object must take its legacy write() path.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <rdma/rdma_user_rxe.h>

#include "driver.h"
#include "fds.h"
#include "skip.h"
#include "test_util.h"

static struct ibv_device **list;
static struct ibv_context *ctx;
static struct ibv_pd *pd;
static int fds_before;

static int setup(void **state)
{
	fds_before = count_fds();
	list = ibv_get_device_list(NULL);
	assert_non_null(list);
	assert_non_null(list[0]);
	ctx = ibv_open_device(list[0]);
	assert_non_null(ctx);
	pd = ibv_alloc_pd(ctx);
	assert_non_null(pd);
	return 0;
}

static int teardown(void **state)
{
	test_teardown_begin();
	assert_int_equal(ibv_dealloc_pd(pd), 0);
	assert_int_equal(ibv_close_device(ctx), 0);
	ibv_free_device_list(list);
	assert_int_equal(count_fds(), fds_before);
	return test_teardown_end();
}

static void create_cq(struct verbs_cq *cq, int cqe,
		      struct ibv_comp_channel *channel)
{
	struct rxe_create_cq_resp resp;
	struct ibv_udata udata = {NULL, 0, &resp, sizeof(resp)};

	memset(cq, 0, sizeof(*cq));
	assert_int_equal(ibv_cmd_create_cq(ctx, cqe, channel, 0, cq, &udata,
					   NULL),
			 0);
	assert_true(cq->cq.cqe >= cqe);
	assert_int_not_equal(resp.mi.size, 0);
}

static void test_cq(void **state)
{
	struct ibv_comp_channel *channel = ibv_create_comp_channel(ctx);
	struct rxe_resize_cq_resp rresp;
	struct ibv_udata rudata = {NULL, 0, &rresp, sizeof(rresp)};
	struct verbs_cq cq;

	assert_non_null(channel);
	create_cq(&cq, 16, channel);
	assert_ptr_equal(cq.cq.context, ctx);
	assert_ptr_equal(cq.cq.channel, channel);
	assert_int_equal(channel->refcnt, 1);
	assert_int_equal(ibv_cmd_req_notify_cq(&cq.cq, 1), 0);
	assert_int_equal(ibv_cmd_resize_cq(&cq.cq, 100, &rudata), 0);
	assert_true(cq.cq.cqe >= 100);
	/* Beyond the device's max_cqe: the kernel's EINVAL, CQ unchanged. */
	assert_int_equal(ibv_cmd_create_cq(ctx, 1 << 30, NULL, 0, &cq, NULL,
					   NULL),
			 EINVAL);
	assert_int_equal(ibv_destroy_comp_channel(channel), EBUSY);
	assert_int_equal(ibv_cmd_destroy_cq(&cq.cq), 0);
	assert_int_equal(channel->refcnt, 0);
	assert_int_equal(ibv_destroy_comp_channel(channel), 0);
}

static void create_qp(struct verbs_qp *qp, struct ibv_cq *cq,
		      struct ibv_srq *srq)
{
	struct ibv_qp_init_attr_ex attr = {
		.send_cq = cq,
		.recv_cq = cq,
		.srq = srq,
		.cap = {8, srq ? 0 : 8, 1, srq ? 0 : 1, 0},
		.qp_type = IBV_QPT_RC,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = pd,
	};
	struct rxe_create_qp_resp resp;
	struct ibv_udata udata = {NULL, 0, &resp, sizeof(resp)};

	memset(qp, 0, sizeof(*qp));
	assert_int_equal(ibv_cmd_create_qp_ex(ctx, qp, &attr, &udata, NULL),
			 0);
	assert_int_not_equal(qp->qp.qp_num, 0);
	assert_true(attr.cap.max_send_wr >= 8);
	assert_int_equal(qp->qp.state, IBV_QPS_RESET);
}

static int modify(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask)
{
	int ret = ibv_cmd_modify_qp(qp, attr, mask, NULL);

	if (!ret && (mask & IBV_QP_STATE))
		qp->state = attr->qp_state;
	return ret;
}

/* RESET -> INIT -> RTR -> RTS, connected to itself over GID 0. */
static void bring_up(struct ibv_qp *qp)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE,
	};
	union ibv_gid gid;

	/* The state table wants the port too: EINVAL without it. */
	assert_int_equal(modify(qp, &attr,
				IBV_QP_STATE | IBV_QP_PKEY_INDEX |
					IBV_QP_ACCESS_FLAGS),
			 EINVAL);
	assert_int_equal(modify(qp, &attr,
				IBV_QP_STATE | IBV_QP_PKEY_INDEX |
					IBV_QP_PORT | IBV_QP_ACCESS_FLAGS),
			 0);
	assert_int_equal(ibv_query_gid(ctx, 1, 0, &gid), 0);
	attr = (struct ibv_qp_attr){
		.qp_state = IBV_QPS_RTR,
		.path_mtu = IBV_MTU_1024,
		.dest_qp_num = qp->qp_num,
		.rq_psn = 1,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 12,
		.ah_attr = {.grh = {.dgid = gid, .hop_limit = 1},
			    .is_global = 1,
			    .port_num = 1},
	};
	assert_int_equal(modify(qp, &attr,
				IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
					IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
					IBV_QP_MAX_DEST_RD_ATOMIC |
					IBV_QP_MIN_RNR_TIMER),
			 0);
	attr = (struct ibv_qp_attr){
		.qp_state = IBV_QPS_RTS,
		.timeout = 14,
		.retry_cnt = 7,
		.rnr_retry = 7,
		.sq_psn = 1,
		.max_rd_atomic = 1,
	};
	assert_int_equal(modify(qp, &attr,
				IBV_QP_STATE | IBV_QP_TIMEOUT |
					IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
					IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC),
			 0);
}

static void *destroy_qp_thread(void *arg)
{
	return (void *)(intptr_t)ibv_cmd_destroy_qp(arg);
}

static void test_qp(void **state)
{
	struct ibv_qp_attr attr = {};
	struct ibv_qp_init_attr init;
	struct ibv_async_event ev;
	struct verbs_cq cq;
	struct verbs_qp qp;

	create_cq(&cq, 16, NULL);
	create_qp(&qp, &cq.cq, NULL);
	bring_up(&qp.qp);
	assert_int_equal(ibv_cmd_query_qp(&qp.qp, &attr, IBV_QP_STATE, &init),
			 0);
	assert_int_equal(attr.qp_state, IBV_QPS_RTS);
	assert_int_equal(attr.dest_qp_num, qp.qp.qp_num);
	assert_int_equal(attr.path_mtu, IBV_MTU_1024);
	assert_ptr_equal(init.send_cq, &cq.cq);

	/* Entering SQD drains the send queue: one async event. */
	attr = (struct ibv_qp_attr){.qp_state = IBV_QPS_SQD,
				    .en_sqd_async_notify = 1};
	assert_int_equal(modify(&qp.qp, &attr,
				IBV_QP_STATE | IBV_QP_EN_SQD_ASYNC_NOTIFY),
			 0);
	assert_int_equal(ibv_get_async_event(ctx, &ev), 0);
	assert_int_equal(ev.event_type, IBV_EVENT_SQ_DRAINED);
	assert_ptr_equal(ev.element.qp, &qp.qp);

	/* The CQ is in use; the QP waits for the event's ack. */
	assert_int_equal(ibv_cmd_destroy_cq(&cq.cq), EBUSY);
	test_destroy_waits_for_ack(destroy_qp_thread, &qp.qp, &ev);
	assert_int_equal(ibv_cmd_destroy_cq(&cq.cq), 0);
}

static void test_srq(void **state)
{
	struct ibv_srq_init_attr_ex attr = {
		.attr = {16, 1, 0},
		.comp_mask = IBV_SRQ_INIT_ATTR_PD,
		.pd = pd,
	};
	struct rxe_create_srq_resp resp;
	struct ibv_udata udata = {NULL, 0, &resp, sizeof(resp)};
	struct rxe_modify_srq_cmd mcmd = {.mmap_info_addr = 0};
	struct ibv_udata mudata = {&mcmd, sizeof(mcmd), NULL, 0};
	struct ibv_srq_attr sattr = {.srq_limit = 4};
	struct verbs_srq srq = {};
	struct verbs_cq cq;
	struct verbs_qp qp;

	assert_int_equal(ibv_cmd_create_srq_ex(ctx, &srq, &attr, &udata, NULL),
			 0);
	assert_true(attr.attr.max_wr >= 16);
	assert_int_equal(srq.srq_type, IBV_SRQT_BASIC);
	assert_int_equal(ibv_cmd_modify_srq(&srq.srq, &sattr, IBV_SRQ_LIMIT,
					    &mudata),
			 0);
	memset(&sattr, 0, sizeof(sattr));
	assert_int_equal(ibv_cmd_query_srq(&srq.srq, &sattr), 0);
	assert_int_equal(sattr.srq_limit, 4);
	assert_true(sattr.max_wr >= 16);

	create_cq(&cq, 4, NULL);
	create_qp(&qp, &cq.cq, &srq.srq);
	assert_ptr_equal(qp.qp.srq, &srq.srq);
	assert_int_equal(ibv_cmd_destroy_srq(&srq.srq), EBUSY);
	assert_int_equal(ibv_cmd_destroy_qp(&qp.qp), 0);
	assert_int_equal(ibv_cmd_destroy_srq(&srq.srq), 0);
	assert_int_equal(ibv_cmd_destroy_cq(&cq.cq), 0);
}

static void test_ah(void **state)
{
	struct ibv_ah_attr attr = {.is_global = 1, .port_num = 1};
	struct rxe_create_ah_resp resp;
	struct ibv_udata udata = {NULL, 0, &resp, sizeof(resp)};
	struct ibv_ah ah = {};

	assert_int_equal(ibv_query_gid(ctx, 1, 0, &attr.grh.dgid), 0);
	attr.grh.hop_limit = 64;
	assert_int_equal(ibv_cmd_create_ah(pd, &ah, &attr, &udata), 0);
	assert_ptr_equal(ah.pd, pd);
	assert_int_equal(ibv_cmd_destroy_ah(&ah), 0);
	/* RoCE: an AH without a GRH has nowhere to go. */
	attr.is_global = 0;
	assert_int_not_equal(ibv_cmd_create_ah(pd, &ah, &attr, &udata), 0);
}

/*
 * rxe, as upstream's provider: no thread or parent domains and no PD or
 * MR import (EOPNOTSUPP from the default ops), while the kernel's
 * QUERY_MR, a core method, answers for an rxe MR too.
 */
static void test_domains_and_import(void **state)
{
	struct ibv_parent_domain_init_attr pda = {.pd = pd};
	struct ibv_td_init_attr tda = {};
	static char buf[4096];
	struct verbs_mr qmr = {};
	struct ibv_mr *mr;

	errno = 0;
	assert_null(ibv_alloc_td(ctx, &tda));
	assert_int_equal(errno, EOPNOTSUPP);
	errno = 0;
	assert_null(ibv_alloc_parent_domain(ctx, &pda));
	assert_int_equal(errno, EOPNOTSUPP);
	errno = 0;
	assert_null(ibv_import_pd(ctx, pd->handle));
	assert_int_equal(errno, EOPNOTSUPP);

	mr = ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	assert_non_null(mr);
	errno = 0;
	assert_null(ibv_import_mr(pd, mr->handle));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(ibv_cmd_query_mr(pd, &qmr, mr->handle), 0);
	assert_int_equal(qmr.ibv_mr.lkey, mr->lkey);
	assert_int_equal(qmr.ibv_mr.rkey, mr->rkey);
	assert_int_equal(qmr.ibv_mr.length, sizeof(buf));
	assert_int_equal(ibv_cmd_query_mr(pd, &qmr, mr->handle + 1), ENOENT);
	assert_int_equal(ibv_dereg_mr(mr), 0);
}

/*
 * rxe keeps libibverbs' defaults for IBVERBS_1.15-1.18: a buffer of
 * ordinary memory, its MR through the classic REG_MR, no DMA handles and
 * no completion counters (the kernel's rxe has neither object).
 */
static void test_buf_defaults(void **state)
{
	struct ibv_comp_cntr_init_attr cc = {0};
	struct ibv_dmah_init_attr dmah = {
		.comp_mask = IBV_DMAH_INIT_ATTR_MASK_PH};
	struct ibv_comp_cntr_caps caps;
	struct ibv_buf *buf;
	struct ibv_mr *mr;
	uint8_t *p;

	p = ibv_alloc_buf(pd, 5000, &buf);
	assert_non_null(p);
	memset(p, 0x5a, 5000);
	mr = ibv_reg_buf_mr(pd, buf, p + 1000, 4000,
			    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
	assert_non_null(mr);
	assert_ptr_equal(mr->addr, p + 1000);
	assert_int_equal(mr->length, 4000);
	assert_int_not_equal(mr->rkey, 0);
	/* The default keeps the exact size: one byte more is outside. */
	errno = 0;
	assert_null(ibv_reg_buf_mr(pd, buf, p + 1000, 4001, 0));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_int_equal(ibv_export_buf_dmabuf_fd(buf), -1);
	assert_int_equal(errno, ENODATA);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	ibv_free_buf(buf);

	errno = 0;
	assert_null(ibv_alloc_dmah(ctx, &dmah));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(ibv_query_comp_cntr_caps(ctx, &caps), EOPNOTSUPP);
	errno = 0;
	assert_null(ibv_create_comp_cntr(ctx, &cc));
	assert_int_equal(errno, EOPNOTSUPP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_domains_and_import),
		cmocka_unit_test(test_cq),
		cmocka_unit_test(test_qp),
		cmocka_unit_test(test_srq),
		cmocka_unit_test(test_ah),
		cmocka_unit_test(test_buf_defaults),
	};

	return test_exit_status(
		cmocka_run_group_tests(tests, setup, teardown));
}
