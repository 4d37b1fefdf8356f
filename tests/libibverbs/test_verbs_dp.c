// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The public data-path verbs over a context whose provider implements
 * nothing (every verb: EOPNOTSUPP, nothing crashes), NULL objects at the
 * exported entry points (EINVAL), ibv_qp_to_qp_ex(), building an AH from
 * a received completion (IB, RoCE v1, RoCE v2 over IPv6 and IPv4), and
 * the ibv_register_driver() compat stub.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "log.h"
#include "mock_kernel.h"
#include "test_util.h"

/* A provider with no data-path op: every verb fails cleanly. */
static void test_default_ops(void **state)
{
	struct ibv_context *ctx = &vctx->context;
	struct ibv_pd pd = {.context = ctx};
	struct ibv_cq cq = {.context = ctx};
	struct ibv_qp qp = {.context = ctx};
	struct ibv_srq srq = {.context = ctx};
	struct ibv_ah ah = {.context = ctx};
	struct ibv_cq_init_attr_ex cq_attr = {.cqe = 1};
	struct ibv_qp_init_attr qp_attr = {.qp_type = IBV_QPT_RC};
	struct ibv_qp_init_attr_ex qpx_attr = {
		.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = &pd,
	};
	struct ibv_srq_init_attr srq_attr = {};
	struct ibv_srq_init_attr_ex srqx_attr = {
		.comp_mask = IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE,
		.srq_type = IBV_SRQT_TM,
		.pd = &pd,
	};
	struct ibv_ah_attr ah_attr = {};
	struct ibv_qp_attr attr = {};
	struct ibv_srq_attr sattr = {};
	struct ibv_send_wr swr = {}, *sbad = NULL;
	struct ibv_recv_wr rwr = {}, *rbad = NULL;
	struct ibv_qp_init_attr init;
	struct ibv_wc wc;

	errno = 0;
	assert_null(ibv_create_cq(ctx, 1, NULL, NULL, 0));
	assert_int_equal(errno, EOPNOTSUPP);
	errno = 0;
	assert_null(ibv_create_cq_ex(ctx, &cq_attr));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(ibv_resize_cq(&cq, 2), EOPNOTSUPP);
	assert_int_equal(ibv_destroy_cq(&cq), EOPNOTSUPP);
	errno = 0;
	assert_true(ibv_poll_cq(&cq, 1, &wc) < 0);
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(ibv_req_notify_cq(&cq, 0), EOPNOTSUPP);

	errno = 0;
	assert_null(ibv_create_qp(&pd, &qp_attr));
	assert_int_equal(errno, EOPNOTSUPP);
	errno = 0;
	assert_null(ibv_create_qp_ex(ctx, &qpx_attr));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(ibv_modify_qp(&qp, &attr, IBV_QP_STATE), EOPNOTSUPP);
	assert_int_equal(ibv_query_qp(&qp, &attr, IBV_QP_STATE, &init),
			 EOPNOTSUPP);
	assert_int_equal(ibv_destroy_qp(&qp), EOPNOTSUPP);
	assert_int_equal(ibv_post_send(&qp, &swr, &sbad), EOPNOTSUPP);
	assert_ptr_equal(sbad, &swr);
	assert_int_equal(ibv_post_recv(&qp, &rwr, &rbad), EOPNOTSUPP);
	assert_ptr_equal(rbad, &rwr);

	errno = 0;
	assert_null(ibv_create_srq(&pd, &srq_attr));
	assert_int_equal(errno, EOPNOTSUPP);
	errno = 0;
	assert_null(ibv_create_srq_ex(ctx, &srqx_attr));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(ibv_modify_srq(&srq, &sattr, IBV_SRQ_LIMIT),
			 EOPNOTSUPP);
	assert_int_equal(ibv_query_srq(&srq, &sattr), EOPNOTSUPP);
	assert_int_equal(ibv_destroy_srq(&srq), EOPNOTSUPP);
	rbad = NULL;
	assert_int_equal(ibv_post_srq_recv(&srq, &rwr, &rbad), EOPNOTSUPP);
	assert_ptr_equal(rbad, &rwr);

	errno = 0;
	assert_null(ibv_create_ah(&pd, &ah_attr));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(ibv_destroy_ah(&ah), EOPNOTSUPP);
	/* Nothing reached the kernel. */
	assert_int_equal(mock_num_calls, 0);
}

/* errno-returning verbs answer EINVAL, pointer verbs NULL, -1 verbs -1. */
static void test_null_objects(void **state)
{
	struct ibv_context *ctx = &vctx->context;
	struct ibv_pd pd = {.context = ctx};
	struct ibv_qp qp = {.context = ctx};
	struct ibv_srq srq = {.context = ctx};
	struct ibv_comp_channel ch = {.context = ctx, .fd = -1};
	struct ibv_qp_attr attr;
	struct ibv_srq_attr sattr;
	struct ibv_cq *cq;
	void *cq_ctx;
	struct ibv_async_event ev;
	struct ibv_ah_attr ah_attr;
	struct ibv_wc wc = {};

#define EXPECT_EINVAL(call)                                                    \
	do {                                                                   \
		errno = 0;                                                     \
		assert_int_equal(call, EINVAL);                                \
		assert_int_equal(errno, EINVAL);                               \
	} while (0)
#define EXPECT_NULL(call)                                                      \
	do {                                                                   \
		errno = 0;                                                     \
		assert_null(call);                                             \
		assert_int_equal(errno, EINVAL);                               \
	} while (0)
#define EXPECT_MINUS_ONE(call)                                                 \
	do {                                                                   \
		errno = 0;                                                     \
		assert_int_equal(call, -1);                                    \
		assert_int_equal(errno, EINVAL);                               \
	} while (0)
	EXPECT_NULL(ibv_create_comp_channel(NULL));
	EXPECT_EINVAL(ibv_destroy_comp_channel(NULL));
	EXPECT_NULL(ibv_create_cq(NULL, 1, NULL, NULL, 0));
	EXPECT_EINVAL(ibv_resize_cq(NULL, 1));
	EXPECT_EINVAL(ibv_destroy_cq(NULL));
	EXPECT_MINUS_ONE(ibv_get_cq_event(NULL, &cq, &cq_ctx));
	EXPECT_MINUS_ONE(ibv_get_cq_event(&ch, NULL, &cq_ctx));
	EXPECT_MINUS_ONE(ibv_get_cq_event(&ch, &cq, NULL));
	errno = 0;
	ibv_ack_cq_events(NULL, 1);
	assert_int_equal(errno, EINVAL);
	EXPECT_NULL(ibv_create_qp(NULL, NULL));
	EXPECT_NULL(ibv_create_qp(&pd, NULL));
	EXPECT_NULL(ibv_qp_to_qp_ex(NULL));
	EXPECT_EINVAL(ibv_modify_qp(NULL, &attr, IBV_QP_STATE));
	EXPECT_EINVAL(ibv_modify_qp(&qp, NULL, IBV_QP_STATE));
	EXPECT_EINVAL(ibv_query_qp(NULL, &attr, 0, NULL));
	EXPECT_EINVAL(ibv_query_qp(&qp, NULL, 0, NULL));
	EXPECT_EINVAL(ibv_destroy_qp(NULL));
	EXPECT_EINVAL(ibv_set_ece(NULL, &(struct ibv_ece){}));
	EXPECT_EINVAL(ibv_query_ece(NULL, &(struct ibv_ece){}));
	EXPECT_EINVAL(ibv_query_ece(&qp, NULL));
	EXPECT_EINVAL(ibv_attach_mcast(NULL, &(union ibv_gid){}, 0));
	EXPECT_EINVAL(ibv_attach_mcast(&qp, NULL, 0));
	EXPECT_EINVAL(ibv_detach_mcast(NULL, &(union ibv_gid){}, 0));
	EXPECT_NULL(ibv_create_srq(NULL, NULL));
	EXPECT_NULL(ibv_create_srq(&pd, NULL));
	EXPECT_EINVAL(ibv_modify_srq(NULL, &sattr, 0));
	EXPECT_EINVAL(ibv_modify_srq(&srq, NULL, 0));
	EXPECT_EINVAL(ibv_query_srq(NULL, &sattr));
	EXPECT_EINVAL(ibv_query_srq(&srq, NULL));
	EXPECT_EINVAL(ibv_destroy_srq(NULL));
	EXPECT_NULL(ibv_create_ah(NULL, &ah_attr));
	EXPECT_NULL(ibv_create_ah(&pd, NULL));
	EXPECT_EINVAL(ibv_destroy_ah(NULL));
	EXPECT_NULL(ibv_create_ah_from_wc(NULL, &wc, NULL, 1));
	EXPECT_MINUS_ONE(ibv_init_ah_from_wc(NULL, 1, &wc, NULL, &ah_attr));
	EXPECT_MINUS_ONE(ibv_init_ah_from_wc(ctx, 1, NULL, NULL, &ah_attr));
	EXPECT_MINUS_ONE(ibv_init_ah_from_wc(ctx, 1, &wc, NULL, NULL));
	wc.wc_flags = IBV_WC_GRH;
	EXPECT_MINUS_ONE(ibv_init_ah_from_wc(ctx, 1, &wc, NULL, &ah_attr));
	EXPECT_MINUS_ONE(ibv_get_async_event(NULL, &ev));
	EXPECT_MINUS_ONE(ibv_get_async_event(ctx, NULL));
	errno = 0;
	ibv_ack_async_event(NULL);
	assert_int_equal(errno, EINVAL);
	/* A CQ on another context's channel: its fd is no event file of
	 * this context, EBADF as the kernel says. */
	ch.context = NULL;
	errno = 0;
	assert_null(ibv_create_cq(ctx, 1, NULL, &ch, 0));
	assert_int_equal(errno, EBADF);
	assert_int_equal(mock_num_calls, 0);
#undef EXPECT_EINVAL
#undef EXPECT_NULL
#undef EXPECT_MINUS_ONE
}

static void test_qp_to_qp_ex(void **state)
{
	struct verbs_qp plain = {.comp_mask = 0};
	struct verbs_qp ex = {.comp_mask = VERBS_QP_EX};

	errno = 0;
	assert_null(ibv_qp_to_qp_ex(&plain.qp));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_ptr_equal(ibv_qp_to_qp_ex(&ex.qp), &ex.qp_ex);
	assert_ptr_equal(&ibv_qp_to_qp_ex(&ex.qp)->qp_base, &ex.qp);
}

/* One port, IB or Ethernet; its GID table comes from QUERY_GID_ENTRY. */
static uint8_t link_layer;

static int fake_query_port(struct ibv_context *context, uint8_t port_num,
			   struct ibv_port_attr *port_attr)
{
	memset(port_attr, 0, sizeof(*port_attr));
	port_attr->link_layer = link_layer;
	port_attr->gid_tbl_len = 4;
	return port_num == 1 ? 0 : EINVAL;
}

static const uint8_t local_v6[16] = {0xfe, 0x80, [8] = 0x02, [15] = 0x01};
static const uint8_t local_v4[16] = {[10] = 0xff, [11] = 0xff, 10, 0, 0, 1};

/* Index 0/1: local_v6 as RoCE v1/v2 (or IB), 2/3: local_v4 v1/v2. */
static int answer_gid(struct ib_uverbs_ioctl_hdr *hdr)
{
	struct ib_uverbs_attr *index =
		mock_find(hdr, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX);
	struct ib_uverbs_gid_entry *e = (void *)(uintptr_t)mock_find(
		hdr, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY)->data;

	memset(e, 0, sizeof(*e));
	memcpy(e->gid, index->data < 2 ? local_v6 : local_v4, 16);
	e->gid_index = (uint32_t)index->data;
	e->port_num = 1;
	e->gid_type = link_layer == IBV_LINK_LAYER_ETHERNET ?
			      (index->data & 1 ? IB_UVERBS_GID_TYPE_ROCE_V2 :
						 IB_UVERBS_GID_TYPE_ROCE_V1) :
			      IB_UVERBS_GID_TYPE_IB;
	return 0;
}

static void ah_from_wc_setup(uint8_t ll)
{
	const struct verbs_context_ops ops = {.query_port = fake_query_port};

	verbs_set_ops(vctx, &ops);
	link_layer = ll;
	mock_ioctl_handler = answer_gid;
}

static void grh_ipv6(struct ibv_grh *grh, uint8_t next_hdr)
{
	memset(grh, 0, sizeof(*grh));
	/* version 6, traffic class 0x28, flow label 0x54321 */
	grh->version_tclass_flow = htonl(6u << 28 | 0x28u << 20 | 0x54321);
	grh->next_hdr = next_hdr;
	grh->hop_limit = 3;
	memset(grh->sgid.raw, 0x77, 16);
	memcpy(grh->dgid.raw, local_v6, 16);
}

static void test_ah_from_wc_ib(void **state)
{
	struct ibv_wc wc = {.slid = 0x42, .sl = 5, .dlid_path_bits = 1};
	struct ibv_ah_attr ah;
	struct ibv_grh grh;

	ah_from_wc_setup(IBV_LINK_LAYER_INFINIBAND);
	/* No GRH: LID routing. */
	assert_int_equal(ibv_init_ah_from_wc(&vctx->context, 1, &wc, NULL, &ah),
			 0);
	assert_int_equal(ah.dlid, 0x42);
	assert_int_equal(ah.sl, 5);
	assert_int_equal(ah.src_path_bits, 1);
	assert_int_equal(ah.port_num, 1);
	assert_int_equal(ah.is_global, 0);
	/* With a GRH: reply to its source from the GID it was sent to. */
	wc.wc_flags = IBV_WC_GRH;
	grh_ipv6(&grh, 0x1b);
	assert_int_equal(
		ibv_init_ah_from_wc(&vctx->context, 1, &wc, &grh, &ah), 0);
	assert_int_equal(ah.is_global, 1);
	assert_memory_equal(ah.grh.dgid.raw, grh.sgid.raw, 16);
	assert_int_equal(ah.grh.sgid_index, 0);
	assert_int_equal(ah.grh.flow_label, 0x54321);
	assert_int_equal(ah.grh.traffic_class, 0x28);
	assert_int_equal(ah.grh.hop_limit, 3); /* the GRH's, as rdma-core */
	assert_int_equal(ah.dlid, 0x42);
}

static void test_ah_from_wc_roce(void **state)
{
	struct ibv_wc wc = {.wc_flags = IBV_WC_GRH};
	struct ibv_ah_attr ah;
	struct ibv_grh grh;
	uint8_t *ipv4 = (uint8_t *)&grh + 20;

	ah_from_wc_setup(IBV_LINK_LAYER_ETHERNET);
	/* RoCE v2 over IPv6 (next header UDP): the v2 entry, index 1. */
	grh_ipv6(&grh, 17);
	assert_int_equal(
		ibv_init_ah_from_wc(&vctx->context, 1, &wc, &grh, &ah), 0);
	assert_int_equal(ah.grh.sgid_index, 1);
	assert_memory_equal(ah.grh.dgid.raw, grh.sgid.raw, 16);
	/* RoCE v1 (next header BTH): the v1 entry with the same GID. */
	grh_ipv6(&grh, 0x1b);
	assert_int_equal(
		ibv_init_ah_from_wc(&vctx->context, 1, &wc, &grh, &ah), 0);
	assert_int_equal(ah.grh.sgid_index, 0);
	/* RoCE v2 over IPv4: 20 unused bytes, then the IPv4 header. */
	memset(&grh, 0, sizeof(grh));
	ipv4[0] = 0x45;
	ipv4[1] = 0x60; /* TOS */
	ipv4[8] = 64;
	ipv4[9] = 17;
	memcpy(ipv4 + 12, (uint8_t[]){10, 0, 0, 9}, 4);
	memcpy(ipv4 + 16, (uint8_t[]){10, 0, 0, 1}, 4);
	assert_int_equal(
		ibv_init_ah_from_wc(&vctx->context, 1, &wc, &grh, &ah), 0);
	assert_int_equal(ah.grh.sgid_index, 3);
	assert_memory_equal(ah.grh.dgid.raw,
			    ((uint8_t[]){[10] = 0xff, [11] = 0xff, 10, 0, 0, 9}),
			    16);
	assert_int_equal(ah.grh.traffic_class, 0x60);
	assert_int_equal(ah.grh.hop_limit, 64); /* the TTL */
	assert_int_equal(ah.grh.flow_label, 0);
	assert_int_equal(ah.is_global, 1);

	/* Sent to a GID this port does not have. */
	ipv4[19] = 99;
	errno = 0;
	assert_int_equal(
		ibv_init_ah_from_wc(&vctx->context, 1, &wc, &grh, &ah), -1);
	assert_int_equal(errno, ENOENT);
	/* Neither IPv6 nor IPv4. */
	ipv4[0] = 0;
	errno = 0;
	assert_int_equal(
		ibv_init_ah_from_wc(&vctx->context, 1, &wc, &grh, &ah), -1);
	assert_int_equal(errno, EINVAL);
	/* RoCE cannot answer without GIDs. */
	wc.wc_flags = 0;
	errno = 0;
	assert_int_equal(ibv_init_ah_from_wc(&vctx->context, 1, &wc, NULL, &ah),
			 -1);
	assert_int_equal(errno, EINVAL);
	/* A port that does not exist. */
	errno = 0;
	assert_int_equal(ibv_init_ah_from_wc(&vctx->context, 2, &wc, NULL, &ah),
			 -1);
	assert_int_equal(errno, EINVAL);
}

/* Not in any header: only old binaries call it. */
void ibv_register_driver(const char *name,
			 struct ibv_device *(*init_func)(const char *, int));

static void call_register_driver(void *arg)
{
	ibv_register_driver("old", NULL);
}

static void test_register_driver_compat(void **state)
{
	char *out;

	setenv("IBV_SHOW_WARNINGS", "1", 1);
	verbs_log_reset();
	out = test_capture_stderr(call_register_driver, NULL);
	assert_non_null(strstr(out, "driver old uses the obsolete"));
	free(out);
	unsetenv("IBV_SHOW_WARNINGS");
	verbs_log_reset();
	out = test_capture_stderr(call_register_driver, NULL);
	assert_string_equal(out, "");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, mock_setup_ioctl, mock_teardown)
		T(test_default_ops),
		T(test_null_objects),
		T(test_qp_to_qp_ex),
		T(test_ah_from_wc_ib),
		T(test_ah_from_wc_roce),
		T(test_register_driver_compat),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
