// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A context whose provider implements nothing: every verb must fail the
 * way it documents, with EOPNOTSUPP, reaching the default ops through the
 * same dispatch (private table, verbs_context slot or legacy ops member)
 * a real provider's ops would take.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fake_ctx.h"

/* A NULL result with errno EOPNOTSUPP. */
#define assert_null_eopnotsupp(expr)                                           \
	do {                                                                   \
		errno = 0;                                                     \
		assert_null(expr);                                             \
		assert_int_equal(errno, EOPNOTSUPP);                           \
	} while (0)

static struct verbs_context *vctx;
static struct ibv_context *ctx;
static struct ibv_pd pd;
static struct ibv_cq cq;
static struct ibv_qp qp;
static struct ibv_srq srq;
static struct ibv_dm dm;

static int setup(void **state)
{
	vctx = fake_ctx_new(sizeof(struct verbs_context));
	ctx = &vctx->context;
	pd.context = ctx;
	cq.context = ctx;
	qp.context = ctx;
	qp.pd = &pd;
	srq.context = ctx;
	dm.context = ctx;
	return 0;
}

static int teardown(void **state)
{
	fake_ctx_free(vctx);
	return 0;
}

static void test_no_null_default(void **state)
{
	const char *p = (const char *)&verbs_dummy_ops;
	size_t off;

	for (off = 0; off < sizeof(verbs_dummy_ops); off += sizeof(void *)) {
		void (*fn)(void);

		memcpy(&fn, p + off, sizeof(fn));
		if (!fn)
			fail_msg("verbs_dummy_ops has a NULL op at offset %zu",
				 off);
	}
}

static void test_device_and_pd(void **state)
{
	struct ibv_device_attr attr;
	struct ibv_device_attr_ex attr_ex;
	struct ibv_port_attr port;

	assert_int_equal(ibv_query_device(ctx, &attr), EOPNOTSUPP);
	assert_int_equal(ibv_query_device_ex(ctx, NULL, &attr_ex), EOPNOTSUPP);
	assert_int_equal(ibv_query_port(ctx, 1, &port), EOPNOTSUPP);
	assert_null_eopnotsupp(ibv_alloc_pd(ctx));
	assert_int_equal(ibv_dealloc_pd(&pd), EOPNOTSUPP);
	assert_null_eopnotsupp(ibv_import_pd(ctx, 1));
	assert_null_eopnotsupp(ibv_alloc_td(ctx, NULL));
	assert_null_eopnotsupp(ibv_alloc_parent_domain(ctx, NULL));
	assert_int_equal(ibv_query_rt_values_ex(ctx, NULL), EOPNOTSUPP);
}

static void test_memory(void **state)
{
	struct ibv_alloc_dm_attr dm_attr = { .length = 64 };
	struct ibv_mr_init_attr mr_attr = { 0 };
	struct verbs_mr vmr = { .ibv_mr.context = NULL };
	struct ibv_mw mw = { .type = IBV_MW_TYPE_1 };
	struct ibv_mw_bind bind = { 0 };
	char buf[64];

	vmr.ibv_mr.context = ctx;
	vmr.ibv_mr.pd = &pd;
	mw.context = ctx;
	mw.pd = &pd;

	assert_null_eopnotsupp(ibv_reg_mr(&pd, buf, sizeof(buf),
					  IBV_ACCESS_LOCAL_WRITE));
	assert_null_eopnotsupp(ibv_reg_mr_iova(&pd, buf, sizeof(buf), 0x1000,
					       IBV_ACCESS_LOCAL_WRITE));
	assert_null_eopnotsupp(ibv_reg_dmabuf_mr(&pd, 0, 4096, 0, 3, 0));
	mr_attr.comp_mask = IBV_REG_MR_MASK_ADDR;
	mr_attr.addr = buf;
	mr_attr.length = sizeof(buf);
	assert_null_eopnotsupp(ibv_reg_mr_ex(&pd, &mr_attr));
	assert_null_eopnotsupp(ibv_import_mr(&pd, 1));
	assert_null_eopnotsupp(ibv_alloc_null_mr(&pd));
	assert_int_equal(ibv_advise_mr(&pd, IBV_ADVISE_MR_ADVICE_PREFETCH, 0,
				       NULL, 0),
			 EOPNOTSUPP);
	errno = 0;
	assert_int_equal(ibv_rereg_mr(&vmr.ibv_mr, IBV_REREG_MR_CHANGE_ACCESS,
				      NULL, NULL, 0, 0),
			 IBV_REREG_MR_ERR_CMD);
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(ibv_dereg_mr(&vmr.ibv_mr), EOPNOTSUPP);
	assert_null_eopnotsupp(ibv_alloc_mw(&pd, IBV_MW_TYPE_1));
	assert_int_equal(ibv_dealloc_mw(&mw), EOPNOTSUPP);
	assert_int_equal(ibv_bind_mw(&qp, &mw, &bind), EOPNOTSUPP);
	assert_null_eopnotsupp(ibv_alloc_dmah(ctx, &(struct ibv_dmah_init_attr){
							   0 }));

	assert_null_eopnotsupp(ibv_alloc_dm(ctx, &dm_attr));
	assert_int_equal(ibv_free_dm(&dm), EOPNOTSUPP);
	assert_null_eopnotsupp(ibv_reg_dm_mr(&pd, &dm, 0, 64,
					     IBV_ACCESS_ZERO_BASED));
	assert_null_eopnotsupp(ibv_import_dm(ctx, 1));
	errno = 0;
	assert_int_equal(ibv_dm_export_dmabuf_fd(&dm), -1);
	assert_int_equal(errno, EOPNOTSUPP);
}

static void test_queues(void **state)
{
	struct ibv_cq_init_attr_ex cq_attr = { .cqe = 1 };
	struct ibv_srq_init_attr srq_attr = { 0 };
	struct ibv_srq_init_attr_ex srq_attr_ex = {
		.comp_mask = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD |
			     IBV_SRQ_INIT_ATTR_CQ,
		.srq_type = IBV_SRQT_XRC,
	};
	struct ibv_qp_init_attr qp_attr = { .qp_type = IBV_QPT_RC };
	struct ibv_qp_init_attr_ex qp_attr_ex = {
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_CREATE_FLAGS,
		.pd = &pd,
	};
	struct ibv_send_wr swr = { 0 }, *bad_swr = NULL;
	struct ibv_recv_wr rwr = { 0 }, *bad_rwr = NULL;
	struct ibv_ops_wr owr = { 0 }, *bad_owr = NULL;
	struct ibv_qp_attr attr = { 0 };
	struct ibv_srq_attr sattr = { 0 };
	struct ibv_ece ece = { 0 };
	union ibv_gid gid = { .raw = { 0xff } };
	struct ibv_wc wc;
	uint32_t srqn;

	assert_null_eopnotsupp(ibv_create_cq(ctx, 1, NULL, NULL, 0));
	assert_null_eopnotsupp(ibv_create_cq_ex(ctx, &cq_attr));
	assert_int_equal(ibv_resize_cq(&cq, 2), EOPNOTSUPP);
	assert_int_equal(ibv_destroy_cq(&cq), EOPNOTSUPP);
	/* A count is expected: the failure must be negative. */
	errno = 0;
	assert_int_equal(ibv_poll_cq(&cq, 1, &wc), -EOPNOTSUPP);
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(ibv_req_notify_cq(&cq, 0), EOPNOTSUPP);
	assert_int_equal(ibv_modify_cq(&cq, NULL), EOPNOTSUPP);

	assert_null_eopnotsupp(ibv_create_srq(&pd, &srq_attr));
	assert_null_eopnotsupp(ibv_create_srq_ex(ctx, &srq_attr_ex));
	assert_int_equal(ibv_modify_srq(&srq, &sattr, IBV_SRQ_LIMIT),
			 EOPNOTSUPP);
	assert_int_equal(ibv_query_srq(&srq, &sattr), EOPNOTSUPP);
	assert_int_equal(ibv_get_srq_num(&srq, &srqn), EOPNOTSUPP);
	assert_int_equal(ibv_destroy_srq(&srq), EOPNOTSUPP);
	assert_int_equal(ibv_post_srq_recv(&srq, &rwr, &bad_rwr), EOPNOTSUPP);
	assert_ptr_equal(bad_rwr, &rwr);
	assert_int_equal(ibv_post_srq_ops(&srq, &owr, &bad_owr), EOPNOTSUPP);
	assert_ptr_equal(bad_owr, &owr);

	assert_null_eopnotsupp(ibv_create_qp(&pd, &qp_attr));
	assert_null_eopnotsupp(ibv_create_qp_ex(ctx, &qp_attr_ex));
	assert_null_eopnotsupp(ibv_open_qp(ctx, NULL));
	assert_int_equal(ibv_modify_qp(&qp, &attr, IBV_QP_STATE), EOPNOTSUPP);
	assert_int_equal(ibv_query_qp(&qp, &attr, IBV_QP_STATE, &qp_attr),
			 EOPNOTSUPP);
	assert_int_equal(ibv_modify_qp_rate_limit(&qp, NULL), EOPNOTSUPP);
	assert_int_equal(ibv_destroy_qp(&qp), EOPNOTSUPP);
	bad_rwr = NULL;
	assert_int_equal(ibv_post_send(&qp, &swr, &bad_swr), EOPNOTSUPP);
	assert_ptr_equal(bad_swr, &swr);
	assert_int_equal(ibv_post_recv(&qp, &rwr, &bad_rwr), EOPNOTSUPP);
	assert_ptr_equal(bad_rwr, &rwr);
	assert_int_equal(ibv_set_ece(&qp, &ece), EOPNOTSUPP);
	assert_int_equal(ibv_query_ece(&qp, &ece), EOPNOTSUPP);
	assert_int_equal(ibv_attach_mcast(&qp, &gid, 0), EOPNOTSUPP);
	assert_int_equal(ibv_detach_mcast(&qp, &gid, 0), EOPNOTSUPP);
	errno = 0;
	assert_int_equal(ibv_query_qp_data_in_order(&qp, IBV_WR_SEND, 0), 0);
	assert_int_equal(errno, EOPNOTSUPP);
	assert_null_eopnotsupp(ibv_qp_to_qp_ex(&qp));
}

static void test_other_objects(void **state)
{
	struct ibv_ah ah = { .context = NULL };
	struct ibv_xrcd xrcd = { .context = NULL };
	struct ibv_wq wq = { .context = NULL };
	struct ibv_rwq_ind_table tbl = { .context = NULL };
	struct ibv_flow flow = { .context = NULL };
	struct ibv_flow_action action = { .context = NULL };
	struct ibv_counters counters = { .context = NULL };
	struct ibv_td td = { .context = NULL };
	struct ibv_ah_attr ah_attr = { 0 };
	uint64_t value;

	ah.context = xrcd.context = wq.context = tbl.context = ctx;
	flow.context = action.context = counters.context = td.context = ctx;

	assert_null_eopnotsupp(ibv_create_ah(&pd, &ah_attr));
	assert_int_equal(ibv_destroy_ah(&ah), EOPNOTSUPP);
	assert_null_eopnotsupp(ibv_open_xrcd(ctx, NULL));
	assert_int_equal(ibv_close_xrcd(&xrcd), EOPNOTSUPP);
	assert_null_eopnotsupp(ibv_create_wq(ctx, NULL));
	assert_int_equal(ibv_modify_wq(&wq, NULL), EOPNOTSUPP);
	assert_int_equal(ibv_destroy_wq(&wq), EOPNOTSUPP);
	assert_null_eopnotsupp(ibv_create_rwq_ind_table(ctx, NULL));
	assert_int_equal(ibv_destroy_rwq_ind_table(&tbl), EOPNOTSUPP);
	assert_null_eopnotsupp(ibv_create_flow(&qp, NULL));
	assert_int_equal(ibv_destroy_flow(&flow), EOPNOTSUPP);
	assert_null_eopnotsupp(ibv_create_flow_action_esp(ctx, NULL));
	assert_int_equal(ibv_modify_flow_action_esp(&action, NULL), EOPNOTSUPP);
	assert_int_equal(ibv_destroy_flow_action(&action), EOPNOTSUPP);
	assert_null_eopnotsupp(ibv_create_counters(ctx, NULL));
	assert_int_equal(ibv_destroy_counters(&counters), EOPNOTSUPP);
	assert_int_equal(ibv_attach_counters_point_flow(&counters, NULL, &flow),
			 EOPNOTSUPP);
	assert_int_equal(ibv_read_counters(&counters, &value, 1, 0),
			 EOPNOTSUPP);
	assert_int_equal(ibv_dealloc_td(&td), EOPNOTSUPP);
}

/* The ops no verb returns a result of: they must do nothing, safely. */
static void test_void_ops(void **state)
{
	struct ibv_async_event event = { .event_type = IBV_EVENT_PORT_ACTIVE };
	struct ibv_mr mr = { .context = NULL };

	mr.context = ctx;
	verbs_dummy_ops.async_event(ctx, &event);
	verbs_dummy_ops.cq_event(&cq);
	verbs_dummy_ops.free_context(ctx);
	ibv_unimport_dm(&dm);
	ibv_unimport_mr(&mr);
	ibv_unimport_pd(&pd);
	assert_int_equal(event.event_type, IBV_EVENT_PORT_ACTIVE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_null_default),
		cmocka_unit_test(test_device_and_pd),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_queues),
		cmocka_unit_test(test_other_objects),
		cmocka_unit_test(test_void_ops),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
