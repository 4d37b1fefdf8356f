// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The QP commands byte by byte: QP_CREATE / QP_DESTROY ioctls, the
 * CREATE_QP / EX_CREATE_QP / DESTROY_QP write() fallbacks, the write-only
 * MODIFY_QP / EX_MODIFY_QP / QUERY_QP, the request checks done before any
 * syscall, the generic QP fields and the extended-QP marking.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <infiniband/verbs_qp_ex.h>
#include <rdma/ib_user_verbs.h>

#include "mock_kernel.h"
#include "test_util.h"

static struct ibv_pd pd;
static struct ibv_cq scq, rcq;
static struct ibv_srq srq;

static void objects_init(void)
{
	pd = (struct ibv_pd){.context = &vctx->context, .handle = 0x0d};
	scq = (struct ibv_cq){.context = &vctx->context, .handle = 0x5c};
	rcq = (struct ibv_cq){.context = &vctx->context, .handle = 0x7c};
	srq = (struct ibv_srq){.context = &vctx->context, .handle = 0x5e};
	vctx->context.async_fd = 7;
}

static int setup_ioctl(void **state)
{
	mock_setup_ioctl(state);
	objects_init();
	return 0;
}

static int setup_write(void **state)
{
	mock_setup_write(state);
	objects_init();
	return 0;
}

static struct ibv_qp_init_attr_ex rc_attr(void)
{
	return (struct ibv_qp_init_attr_ex){
		.qp_context = &pd,
		.send_cq = &scq,
		.recv_cq = &rcq,
		.cap = {16, 32, 2, 3, 64},
		.qp_type = IBV_QPT_RC,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = &pd,
	};
}

/* The kernel's caps: every field differs from what was asked. */
static const struct ibv_qp_cap granted = {17, 33, 4, 5, 128};

static int answer_qp_create(struct ib_uverbs_ioctl_hdr *hdr)
{
	struct ib_uverbs_attr *a;
	uint32_t qpn = 0x123;

	mock_find(hdr, UVERBS_ATTR_CREATE_QP_HANDLE)->data = 0x44;
	a = mock_find(hdr, UVERBS_ATTR_CREATE_QP_RESP_CAP);
	memcpy((void *)(uintptr_t)a->data, &granted, sizeof(granted));
	a = mock_find(hdr, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM);
	memcpy((void *)(uintptr_t)a->data, &qpn, sizeof(qpn));
	return 0;
}

static void test_create_qp_ioctl(void **state)
{
	struct ibv_qp_init_attr_ex attr = rc_attr();
	const struct ibv_qp_cap asked = attr.cap;
	struct verbs_qp qp;

	memset(&qp, 0xff, sizeof(qp));
	attr.srq = &srq;
	attr.sq_sig_all = 1;
	mock_ioctl_handler = answer_qp_create;
	assert_int_equal(
		ibv_cmd_create_qp_ex(&vctx->context, &qp, &attr, NULL, NULL), 0);
	mock_expect_hdr(0, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE, 12, 1);
	mock_expect_attr(0, 0, 0, 0, 1, 0);	  /* HANDLE new */
	mock_expect_attr(0, 1, 2, 0, 1, 0x0d);	  /* PD */
	mock_expect_attr(0, 2, 3, 0, 1, 0x5e);	  /* SRQ */
	mock_expect_attr(0, 3, 4, 0, 1, 0x5c);	  /* SEND_CQ */
	mock_expect_attr(0, 4, 5, 0, 1, 0x7c);	  /* RECV_CQ */
	mock_expect_attr(0, 5, 7, 8, 1, (uintptr_t)&qp); /* USER_HANDLE */
	mock_expect_attr(0, 6, 8, 20, 1, MOCK_ANY); /* CAP */
	assert_memory_equal(mock_calls[0].payload[6], &asked, 20);
	mock_expect_attr(0, 7, 9, 8, 1, IBV_QPT_RC);	/* TYPE, const */
	mock_expect_attr(0, 8, 10, 4, 1, 0x1000);	/* FLAGS: SQ_SIG_ALL */
	mock_expect_attr(0, 9, 12, 0, 1, 7);		/* EVENT_FD */
	mock_expect_attr(0, 10, 13, 20, 1, MOCK_ANY);	/* RESP_CAP */
	mock_expect_attr(0, 11, 14, 4, 1, MOCK_ANY);	/* RESP_QP_NUM */

	assert_memory_equal(&attr.cap, &granted, sizeof(granted));
	assert_ptr_equal(qp.qp.context, &vctx->context);
	assert_ptr_equal(qp.qp.qp_context, &pd);
	assert_ptr_equal(qp.qp.pd, &pd);
	assert_ptr_equal(qp.qp.send_cq, &scq);
	assert_ptr_equal(qp.qp.recv_cq, &rcq);
	assert_ptr_equal(qp.qp.srq, &srq);
	assert_int_equal(qp.qp.handle, 0x44);
	assert_int_equal(qp.qp.qp_num, 0x123);
	assert_int_equal(qp.qp.state, IBV_QPS_RESET);
	assert_int_equal(qp.qp.qp_type, IBV_QPT_RC);
	assert_int_equal(qp.qp.events_completed, 0);
	assert_int_equal(qp.comp_mask, 0);
	assert_null(qp.xrcd);
	errno = 0;
	assert_null(ibv_qp_to_qp_ex(&qp.qp));
	assert_int_equal(errno, EOPNOTSUPP);
}

static void test_create_qp_ex_send_ops_source_qpn(void **state)
{
	struct ibv_qp_init_attr_ex attr = rc_attr();
	struct verbs_qp qp;

	attr.qp_type = IBV_QPT_UD;
	attr.recv_cq = NULL;
	attr.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS |
			  IBV_QP_INIT_ATTR_CREATE_FLAGS;
	attr.send_ops_flags = IBV_QP_EX_WITH_SEND;
	attr.create_flags = IBV_QP_CREATE_SOURCE_QPN |
			    IBV_QP_CREATE_SCATTER_FCS;
	attr.source_qpn = 0x99;
	mock_ioctl_handler = answer_qp_create;
	assert_int_equal(
		ibv_cmd_create_qp_ex(&vctx->context, &qp, &attr, NULL, NULL), 0);
	mock_expect_hdr(0, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE, 11, 1);
	mock_expect_attr(0, 2, 4, 0, 1, 0x5c); /* SEND_CQ; no RECV_CQ */
	mock_expect_attr(0, 3, 7, 8, 1, (uintptr_t)&qp);
	mock_expect_attr(0, 5, 9, 8, 1, IBV_QPT_UD);
	/* SOURCE_QPN is an attribute of its own, not a flag bit. */
	mock_expect_attr(0, 6, 10, 4, 1, IBV_QP_CREATE_SCATTER_FCS);
	mock_expect_attr(0, 7, 11, 4, 1, 0x99);
	assert_null(qp.qp.recv_cq);
	assert_int_equal(qp.comp_mask, VERBS_QP_EX);
	assert_ptr_equal(ibv_qp_to_qp_ex(&qp.qp), &qp.qp_ex);
}

/*
 * CREATE_FLAGS with no flag sends no FLAGS attribute at all; the
 * multicast-loopback block reaches the kernel as bit 1.
 */
static void test_create_qp_ex_create_flags(void **state)
{
	struct ibv_qp_init_attr_ex attr = rc_attr();
	struct verbs_qp qp;

	attr.comp_mask |= IBV_QP_INIT_ATTR_CREATE_FLAGS;
	mock_ioctl_handler = answer_qp_create;
	assert_int_equal(
		ibv_cmd_create_qp_ex(&vctx->context, &qp, &attr, NULL, NULL), 0);
	mock_expect_hdr(0, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE, 10, 1);
	mock_expect_attr(0, 6, 9, 8, 1, IBV_QPT_RC); /* TYPE, then ... */
	mock_expect_attr(0, 7, 12, 0, 1, 7);	     /* ... EVENT_FD */

	attr = rc_attr();
	attr.qp_type = IBV_QPT_UD;
	attr.comp_mask |= IBV_QP_INIT_ATTR_CREATE_FLAGS;
	attr.create_flags = IBV_QP_CREATE_BLOCK_SELF_MCAST_LB;
	assert_int_equal(
		ibv_cmd_create_qp_ex(&vctx->context, &qp, &attr, NULL, NULL), 0);
	mock_expect_hdr(1, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE, 11, 1);
	mock_expect_attr(1, 7, 10, 4, 1, 1 << 1); /* FLAGS */
}

/* Every rule checked before the kernel is asked. */
static void test_create_qp_checks(void **state)
{
	static const struct {
		uint32_t comp_mask;
		uint32_t create_flags;
		enum ibv_qp_type type;
		int bad_pd;
		int err;
	} cases[] = {
		{1 << 7 | IBV_QP_INIT_ATTR_PD, 0, IBV_QPT_RC, 0, EINVAL},
		{IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_CREATE_FLAGS, 1 << 0,
		 IBV_QPT_RC, 0, EINVAL},
		{0, 0, IBV_QPT_RC, 0, EINVAL},
		{IBV_QP_INIT_ATTR_PD, 0, IBV_QPT_UD, 1, EINVAL},
		{IBV_QP_INIT_ATTR_PD, 0, IBV_QPT_XRC_RECV, 0, EINVAL},
		/* a target QP names its domain (here: none) */
		{IBV_QP_INIT_ATTR_XRCD, 0, IBV_QPT_XRC_RECV, 0, EINVAL},
		/* RSS: no receive side of its own. */
		{IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_IND_TABLE, 0,
		 IBV_QPT_RAW_PACKET, 0, EINVAL},
	};
	struct verbs_qp qp;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ibv_qp_init_attr_ex attr = rc_attr();

		attr.comp_mask = cases[i].comp_mask;
		attr.create_flags = cases[i].create_flags;
		attr.qp_type = cases[i].type;
		if (cases[i].bad_pd)
			attr.pd = NULL;
		errno = 0;
		assert_int_equal(ibv_cmd_create_qp_ex(&vctx->context, &qp,
						      &attr, NULL, NULL),
				 cases[i].err);
		assert_int_equal(errno, cases[i].err);
	}
	assert_int_equal(mock_num_calls, 0);
}

/* CREATE_QP / EX_CREATE_QP: handle 0x45, qpn 0x321, the granted caps. */
static int answer_create_qp_write(const void *buf, size_t len)
{
	struct ib_uverbs_create_qp_resp resp = {
		.qp_handle = 0x45,
		.qpn = 0x321,
		.max_send_wr = granted.max_send_wr,
		.max_recv_wr = granted.max_recv_wr,
		.max_send_sge = granted.max_send_sge,
		.max_recv_sge = granted.max_recv_sge,
		.max_inline_data = granted.max_inline_data,
	};

	memcpy(mock_write_response(buf), &resp, sizeof(resp));
	return 0;
}

static void test_create_qp_write_fallback(void **state)
{
	struct ibv_qp_init_attr_ex attr = rc_attr();
	uint64_t drv_in = 0x5151, drv_out;
	struct ibv_udata udata = {&drv_in, 8, &drv_out, 8};
	struct verbs_qp qp;
	size_t o = 8;

	attr.sq_sig_all = 7;
	mock_ioctl_handler = mock_fail_eprotonosupport;
	mock_write_handler = answer_create_qp_write;
	assert_int_equal(
		ibv_cmd_create_qp_ex(&vctx->context, &qp, &attr, &udata, NULL),
		0);
	/* in: 8 + 56 + 8 = 18 words; out: 32 + 8 = 10 words */
	mock_expect_write_hdr(1, IB_USER_VERBS_CMD_CREATE_QP, 18, 10);
	assert_int_equal(mock_calls[1].len, 72);
	assert_int_not_equal(mock_u64_at(1, o), 0);
	assert_int_equal(mock_u64_at(1, o + 8), (uintptr_t)&qp);
	assert_int_equal(mock_u32_at(1, o + 16), 0x0d); /* pd */
	assert_int_equal(mock_u32_at(1, o + 20), 0x5c); /* send cq */
	assert_int_equal(mock_u32_at(1, o + 24), 0x7c); /* recv cq */
	assert_int_equal(mock_u32_at(1, o + 28), 0);	/* srq */
	assert_int_equal(mock_u32_at(1, o + 32), 16);	/* max_send_wr */
	assert_int_equal(mock_u32_at(1, o + 36), 32);
	assert_int_equal(mock_u32_at(1, o + 40), 2);
	assert_int_equal(mock_u32_at(1, o + 44), 3);
	assert_int_equal(mock_u32_at(1, o + 48), 64);	/* max_inline */
	/* sq_sig_all 1, qp_type RC 2, is_srq 0, reserved 0 */
	assert_int_equal(mock_u32_at(1, o + 52), 1 | 2 << 8);
	assert_int_equal(mock_u64_at(1, o + 56), 0x5151);
	assert_int_equal(qp.qp.handle, 0x45);
	assert_int_equal(qp.qp.qp_num, 0x321);
	assert_memory_equal(&attr.cap, &granted, sizeof(granted));
}

static void test_create_qp_ex_write_for_flags(void **state)
{
	struct ibv_qp_init_attr_ex attr = rc_attr();
	struct verbs_qp qp;
	size_t o = 24;

	attr.srq = &srq;
	attr.comp_mask |= IBV_QP_INIT_ATTR_CREATE_FLAGS;
	attr.create_flags = IBV_QP_CREATE_SOURCE_QPN;
	attr.source_qpn = 0x77;
	mock_ioctl_handler = mock_fail_eprotonosupport;
	mock_write_handler = answer_create_qp_write;
	assert_int_equal(
		ibv_cmd_create_qp_ex(&vctx->context, &qp, &attr, NULL, NULL), 0);
	/* in 64/8 = 8 words, out 40/8 = 5 words, no provider words */
	mock_expect_write_hdr(1,
			      IB_USER_VERBS_CMD_FLAG_EXTENDED |
				      IB_USER_VERBS_CMD_CREATE_QP,
			      8, 5);
	assert_int_equal(mock_calls[1].len, 24 + 64);
	assert_int_equal(mock_u32_at(1, 16), 0);
	assert_int_equal(mock_u64_at(1, o), (uintptr_t)&qp);
	assert_int_equal(mock_u32_at(1, o + 8), 0x0d);
	assert_int_equal(mock_u32_at(1, o + 20), 0x5e);	 /* srq */
	assert_int_equal(mock_u32_at(1, o + 44), 2 << 8 | 1 << 16); /* is_srq */
	assert_int_equal(mock_u32_at(1, o + 48), 0);	 /* comp_mask */
	assert_int_equal(mock_u32_at(1, o + 52), IBV_QP_CREATE_SOURCE_QPN);
	assert_int_equal(mock_u32_at(1, o + 56), 0);	 /* ind table */
	assert_int_equal(mock_u32_at(1, o + 60), 0x77); /* source_qpn */
	assert_int_equal(qp.qp.qp_num, 0x321);
	assert_memory_equal(&attr.cap, &granted, sizeof(granted));
}

static void test_modify_qp_legacy(void **state)
{
	struct ibv_qp qp = {.context = &vctx->context, .handle = 0x46};
	struct ibv_qp_attr attr;
	const size_t o = 8;
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
		   IBV_QP_ACCESS_FLAGS;

	/* Every field set: only the masked ones may reach the kernel. */
	memset(&attr, 0x5a, sizeof(attr));
	attr.qp_state = IBV_QPS_INIT;
	attr.pkey_index = 0x102;
	attr.port_num = 1;
	attr.qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
	assert_int_equal(ibv_cmd_modify_qp(&qp, &attr, mask, NULL), 0);
	/* 8 + 112 bytes = 30 words, no response */
	mock_expect_write_hdr(0, IB_USER_VERBS_CMD_MODIFY_QP, 30, 0);
	assert_int_equal(mock_calls[0].len, 120);
	assert_int_equal(mock_u32_at(0, o + 64), 0x46);
	assert_int_equal(mock_u32_at(0, o + 68), mask);
	assert_int_equal(mock_u32_at(0, o + 88), IBV_ACCESS_REMOTE_WRITE);
	assert_int_equal(mock_u32_at(0, o + 92), 0x102); /* pkey, alt 0 */
	assert_int_equal(mock_calls[0].bytes[o + 96], IBV_QPS_INIT);
	assert_int_equal(mock_calls[0].bytes[o + 104], 1);
	/* Not in the mask: zero (dest, qkey, psns, timers...). */
	assert_int_equal(mock_u64_at(0, o + 0), 0);
	assert_int_equal(mock_u32_at(0, o + 72), 0);
	assert_int_equal(mock_u32_at(0, o + 84), 0);
	assert_int_equal(mock_calls[0].bytes[o + 105], 0);
}

static void test_modify_qp_rtr_fields(void **state)
{
	struct ibv_qp qp = {.context = &vctx->context, .handle = 0x47};
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = IBV_MTU_1024,
		.dest_qp_num = 0xabcde,
		.rq_psn = 0x111,
		.max_dest_rd_atomic = 4,
		.min_rnr_timer = 12,
		.ah_attr = {
			.grh = {.dgid.raw = {0xfe, 0x80, [15] = 0x01},
				.flow_label = 0x12345,
				.sgid_index = 3,
				.hop_limit = 64,
				.traffic_class = 0x20},
			.dlid = 0x0bcd,
			.sl = 2,
			.src_path_bits = 1,
			.static_rate = 3,
			.is_global = 1,
			.port_num = 1,
		},
	};
	int mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
		   IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
		   IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	const uint8_t *b = mock_calls[0].bytes + 8;
	const uint8_t dest[32] = {
		0xfe, 0x80, [15] = 0x01, U32(0x12345), U16(0x0bcd), U16(0),
		3, 64, 0x20, 2, 1, 3, 1, 1,
	};

	assert_int_equal(ibv_cmd_modify_qp(&qp, &attr, mask, NULL), 0);
	assert_memory_equal(b, dest, sizeof(dest)); /* ib_uverbs_qp_dest */
	assert_int_equal(mock_u32_at(0, 8 + 76), 0x111);   /* rq_psn */
	assert_int_equal(mock_u32_at(0, 8 + 84), 0xabcde); /* dest_qp */
	assert_int_equal(b[98], IBV_MTU_1024);
	assert_int_equal(b[102], 4);
	assert_int_equal(b[103], 12);
}

static void test_modify_qp_extended(void **state)
{
	struct ibv_qp qp = {.context = &vctx->context, .handle = 0x48};
	struct ibv_qp_attr attr = {.qp_state = IBV_QPS_RTS,
				   .rate_limit = 5000};
	uint64_t drv = 0x42;
	struct ibv_udata udata = {&drv, 8, NULL, 0};

	/* A rate limit needs the extended form. */
	assert_int_equal(ibv_cmd_modify_qp(&qp, &attr,
					   IBV_QP_STATE | IBV_QP_RATE_LIMIT,
					   NULL),
			 0);
	/* core in 120/8 = 15 words, core out 8/8 = 1 */
	mock_expect_write_hdr(0,
			      IB_USER_VERBS_CMD_FLAG_EXTENDED |
				      IB_USER_VERBS_CMD_MODIFY_QP,
			      15, 1);
	assert_int_equal(mock_calls[0].len, 24 + 120);
	assert_int_equal(mock_u32_at(0, 24 + 64), 0x48);
	assert_int_equal(mock_u32_at(0, 24 + 68),
			 IBV_QP_STATE | IBV_QP_RATE_LIMIT);
	assert_int_equal(mock_u32_at(0, 24 + 112), 5000);
	/* So does driver data; without RATE_LIMIT the field stays 0. */
	assert_int_equal(ibv_cmd_modify_qp(&qp, &attr, IBV_QP_STATE, &udata),
			 0);
	mock_expect_write_hdr(1,
			      IB_USER_VERBS_CMD_FLAG_EXTENDED |
				      IB_USER_VERBS_CMD_MODIFY_QP,
			      15, 1);
	assert_int_equal(mock_u32_at(1, 16), 1); /* provider_in_words */
	assert_int_equal(mock_u32_at(1, 24 + 112), 0);
	assert_int_equal(mock_u64_at(1, 24 + 120), 0x42);
	/* Bits this library does not know. */
	errno = 0;
	assert_int_equal(ibv_cmd_modify_qp(&qp, &attr, 1 << 26, NULL),
			 EOPNOTSUPP);
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(mock_num_calls, 2);
}

static int answer_query_qp(const void *buf, size_t len)
{
	struct ib_uverbs_query_qp_resp r = {
		.dest = {.dgid = {1, 2}, .dlid = 0x22, .sl = 3,
			 .is_global = 1, .port_num = 1},
		.alt_dest = {.dlid = 0x33},
		.max_send_wr = 10, .max_recv_wr = 11, .max_send_sge = 12,
		.max_recv_sge = 13, .max_inline_data = 14,
		.qkey = 0x11111111, .rq_psn = 0x100, .sq_psn = 0x200,
		.dest_qp_num = 0x300, .qp_access_flags = 7,
		.pkey_index = 4, .alt_pkey_index = 5,
		.qp_state = IBV_QPS_RTS, .cur_qp_state = IBV_QPS_RTR,
		.path_mtu = IBV_MTU_4096, .path_mig_state = IBV_MIG_ARMED,
		.sq_draining = 1, .max_rd_atomic = 2, .max_dest_rd_atomic = 3,
		.min_rnr_timer = 4, .port_num = 1, .timeout = 14,
		.retry_cnt = 7, .rnr_retry = 6, .alt_port_num = 2,
		.alt_timeout = 9, .sq_sig_all = 1,
	};

	memcpy(mock_write_response(buf), &r, sizeof(r));
	return 0;
}

static void test_query_qp(void **state)
{
	struct ibv_qp qp = {.context = &vctx->context, .handle = 0x49,
			    .qp_context = &pd, .send_cq = &scq,
			    .recv_cq = &rcq, .qp_type = IBV_QPT_UC};
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;

	mock_write_handler = answer_query_qp;
	assert_int_equal(ibv_cmd_query_qp(&qp, &attr, IBV_QP_STATE, &init), 0);
	/* in: 8 + 16 = 6 words; out: 128 = 32 words */
	mock_expect_write_hdr(0, IB_USER_VERBS_CMD_QUERY_QP, 6, 32);
	assert_int_equal(mock_u32_at(0, 16), 0x49);
	assert_int_equal(mock_u32_at(0, 20), IBV_QP_STATE);
	assert_int_equal(attr.qp_state, IBV_QPS_RTS);
	assert_int_equal(attr.cur_qp_state, IBV_QPS_RTR);
	assert_int_equal(attr.path_mtu, IBV_MTU_4096);
	assert_int_equal(attr.path_mig_state, IBV_MIG_ARMED);
	assert_int_equal(attr.qkey, 0x11111111);
	assert_int_equal(attr.rq_psn, 0x100);
	assert_int_equal(attr.sq_psn, 0x200);
	assert_int_equal(attr.dest_qp_num, 0x300);
	assert_int_equal(attr.qp_access_flags, 7);
	assert_int_equal(attr.cap.max_inline_data, 14);
	assert_int_equal(attr.ah_attr.dlid, 0x22);
	assert_int_equal(attr.ah_attr.grh.dgid.raw[1], 2);
	assert_int_equal(attr.ah_attr.is_global, 1);
	assert_int_equal(attr.alt_ah_attr.dlid, 0x33);
	assert_int_equal(attr.pkey_index, 4);
	assert_int_equal(attr.alt_pkey_index, 5);
	assert_int_equal(attr.sq_draining, 1);
	assert_int_equal(attr.max_rd_atomic, 2);
	assert_int_equal(attr.max_dest_rd_atomic, 3);
	assert_int_equal(attr.min_rnr_timer, 4);
	assert_int_equal(attr.timeout, 14);
	assert_int_equal(attr.retry_cnt, 7);
	assert_int_equal(attr.rnr_retry, 6);
	assert_int_equal(attr.alt_port_num, 2);
	assert_int_equal(attr.alt_timeout, 9);
	assert_ptr_equal(init.qp_context, &pd);
	assert_ptr_equal(init.send_cq, &scq);
	assert_ptr_equal(init.recv_cq, &rcq);
	assert_null(init.srq);
	assert_int_equal(init.qp_type, IBV_QPT_UC);
	assert_int_equal(init.cap.max_send_wr, 10);
	assert_int_equal(init.cap.max_recv_sge, 13);
	assert_int_equal(init.sq_sig_all, 1);
	assert_int_equal(ibv_cmd_query_qp(&qp, &attr, IBV_QP_RATE_LIMIT, NULL),
			 EOPNOTSUPP);
	assert_int_equal(mock_num_calls, 1);
}

static void *destroy_qp_thread(void *arg)
{
	return (void *)(intptr_t)ibv_cmd_destroy_qp(arg);
}

static void test_destroy_qp(void **state)
{
	struct ibv_qp qp = {.context = &vctx->context, .handle = 0x4a};
	struct ibv_async_event ev = {.element.qp = &qp,
				     .event_type = IBV_EVENT_COMM_EST};

	pthread_mutex_init(&qp.mutex, NULL);
	pthread_cond_init(&qp.cond, NULL);
	mock_destroy_events = 0;
	mock_ioctl_handler = mock_answer_destroy;
	assert_int_equal(ibv_cmd_destroy_qp(&qp), 0);
	mock_expect_hdr(0, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_DESTROY, 2, 1);
	mock_expect_attr(0, 0, 0, 0, 1, 0x4a);
	mock_expect_attr(0, 1, 1, 4, 1, MOCK_ANY);

	/* One async event reported: destroy returns after its ack. */
	mock_destroy_events = 1;
	test_destroy_waits_for_ack(destroy_qp_thread, &qp, &ev);
	assert_int_equal(qp.events_completed, 1);

	/* The legacy form, on a fresh QP. */
	qp.events_completed = 0;
	mock_reset();
	mock_ioctl_handler = mock_fail_eprotonosupport;
	assert_int_equal(ibv_cmd_destroy_qp(&qp), 0);
	/* in: 8 + 16 = 6 words; out: 4 bytes = 1 word */
	mock_expect_write_hdr(1, IB_USER_VERBS_CMD_DESTROY_QP, 6, 1);
	assert_int_equal(mock_u32_at(1, 16), 0x4a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define I(fn) cmocka_unit_test_setup_teardown(fn, setup_ioctl, mock_teardown)
#define W(fn) cmocka_unit_test_setup_teardown(fn, setup_write, mock_teardown)
		I(test_create_qp_ioctl),
		I(test_create_qp_ex_send_ops_source_qpn),
		I(test_create_qp_ex_create_flags),
		I(test_create_qp_checks),
		W(test_create_qp_write_fallback),
		W(test_create_qp_ex_write_for_flags),
		W(test_modify_qp_legacy),
		W(test_modify_qp_rtr_fields),
		W(test_modify_qp_extended),
		W(test_query_qp),
		W(test_destroy_qp),
#undef I
#undef W
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
