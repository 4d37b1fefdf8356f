// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * SRQ and AH commands byte by byte (SRQ_CREATE / SRQ_DESTROY / AH_DESTROY
 * ioctls; CREATE_SRQ, CREATE_XSRQ, MODIFY_SRQ, QUERY_SRQ, DESTROY_SRQ,
 * CREATE_AH, DESTROY_AH writes), and the rule every destroy shares: EIO
 * from a disassociated device counts as success.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <rdma/ib_user_verbs.h>

#include "mock_kernel.h"
#include "test_util.h"

static struct ibv_pd pd;
static struct ibv_cq cq;

static int setup_common(int probe)
{
	vctx = mock_context(RDMA_DRIVER_MLX5, probe);
	vctx->context.async_fd = 7;
	pd = (struct ibv_pd){.context = &vctx->context, .handle = 0x0d};
	cq = (struct ibv_cq){.context = &vctx->context, .handle = 0x0c};
	return 0;
}

static int setup_ioctl(void **state)
{
	return setup_common(ENOSPC);
}

static int setup_write(void **state)
{
	return setup_common(EPROTONOSUPPORT);
}

static void out_u32(struct ib_uverbs_ioctl_hdr *hdr, uint16_t id,
		    uint32_t value)
{
	memcpy((void *)(uintptr_t)mock_find(hdr, id)->data, &value, 4);
}

static int answer_srq_create(struct ib_uverbs_ioctl_hdr *hdr)
{
	mock_find(hdr, UVERBS_ATTR_CREATE_SRQ_HANDLE)->data = 0x66;
	out_u32(hdr, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR, 128);
	out_u32(hdr, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE, 4);
	return 0;
}

static void test_create_srq_ioctl(void **state)
{
	struct ibv_srq_init_attr_ex attr = {
		.srq_context = &cq,
		.attr = {100, 3, 10},
		.comp_mask = IBV_SRQ_INIT_ATTR_PD,
		.pd = &pd,
	};
	struct verbs_srq srq;

	memset(&srq, 0xff, sizeof(srq));
	mock_ioctl_handler = answer_srq_create;
	assert_int_equal(
		ibv_cmd_create_srq_ex(&vctx->context, &srq, &attr, NULL, NULL),
		0);
	mock_expect_hdr(0, UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_CREATE, 10, 1);
	mock_expect_attr(0, 0, 0, 0, 1, 0);		   /* HANDLE new */
	mock_expect_attr(0, 1, 1, 0, 1, 0x0d);		   /* PD */
	mock_expect_attr(0, 2, 4, 8, 1, (uintptr_t)&srq); /* USER_HANDLE */
	mock_expect_attr(0, 3, 5, 4, 1, 100);		   /* MAX_WR */
	mock_expect_attr(0, 4, 6, 4, 1, 3);		   /* MAX_SGE */
	mock_expect_attr(0, 5, 7, 4, 1, 10);		   /* LIMIT */
	mock_expect_attr(0, 6, 9, 8, 1, IBV_SRQT_BASIC);  /* TYPE const */
	mock_expect_attr(0, 7, 10, 0, 1, 7);		   /* EVENT_FD */
	mock_expect_attr(0, 8, 11, 4, 1, MOCK_ANY);	   /* RESP_MAX_WR */
	mock_expect_attr(0, 9, 12, 4, 1, MOCK_ANY);	   /* RESP_MAX_SGE */
	assert_ptr_equal(srq.srq.context, &vctx->context);
	assert_ptr_equal(srq.srq.srq_context, &cq);
	assert_ptr_equal(srq.srq.pd, &pd);
	assert_int_equal(srq.srq.handle, 0x66);
	assert_int_equal(srq.srq.events_completed, 0);
	assert_int_equal(srq.srq_type, IBV_SRQT_BASIC);
	assert_null(srq.cq);
	assert_int_equal(attr.attr.max_wr, 128);
	assert_int_equal(attr.attr.max_sge, 4);
}

static void test_create_srq_checks(void **state)
{
	static const struct {
		uint32_t comp_mask;
		enum ibv_srq_type type;
		uint32_t tags;
		int err;
	} cases[] = {
		{IBV_SRQ_INIT_ATTR_RESERVED | IBV_SRQ_INIT_ATTR_PD,
		 IBV_SRQT_BASIC, 0, EOPNOTSUPP},
		{0, IBV_SRQT_BASIC, 0, EINVAL},
		{IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE, IBV_SRQT_TM, 4,
		 EINVAL}, /* TM without CQ and TM masks */
		{IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE |
			 IBV_SRQ_INIT_ATTR_CQ | IBV_SRQ_INIT_ATTR_TM,
		 IBV_SRQT_TM, 0, EINVAL}, /* no tags */
		{IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE |
			 IBV_SRQ_INIT_ATTR_XRCD | IBV_SRQ_INIT_ATTR_CQ,
		 IBV_SRQT_XRC, 0, EINVAL}, /* XRC without a domain */
		{IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE |
			 IBV_SRQ_INIT_ATTR_XRCD,
		 IBV_SRQT_XRC, 0, EINVAL}, /* XRC without its CQ mask */
	};
	struct verbs_srq srq;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ibv_srq_init_attr_ex attr = {
			.comp_mask = cases[i].comp_mask,
			.srq_type = cases[i].type,
			.pd = &pd,
			.cq = &cq,
			.tm_cap.max_num_tags = cases[i].tags,
		};

		errno = 0;
		assert_int_equal(ibv_cmd_create_srq_ex(&vctx->context, &srq,
						       &attr, NULL, NULL),
				 cases[i].err);
		assert_int_equal(errno, cases[i].err);
	}
	assert_int_equal(mock_num_calls, 0);
}

static int answer_srq_write(const void *buf, size_t len)
{
	struct ib_uverbs_create_srq_resp resp = {0x67, 64, 2, 0};

	memcpy(mock_write_response(buf), &resp, sizeof(resp));
	return 0;
}

static void test_create_srq_write_fallback(void **state)
{
	struct ibv_srq_init_attr_ex attr = {
		.attr = {100, 3, 10},
		.comp_mask = IBV_SRQ_INIT_ATTR_PD,
		.pd = &pd,
	};
	struct verbs_srq srq;
	size_t o = 8;

	mock_ioctl_handler = mock_fail_eprotonosupport;
	mock_write_handler = answer_srq_write;
	assert_int_equal(
		ibv_cmd_create_srq_ex(&vctx->context, &srq, &attr, NULL, NULL),
		0);
	/* in: 8 + 32 = 10 words; out: 16 = 4 words */
	mock_expect_write_hdr(1, IB_USER_VERBS_CMD_CREATE_SRQ, 10, 4);
	assert_int_equal(mock_u64_at(1, o + 8), (uintptr_t)&srq);
	assert_int_equal(mock_u32_at(1, o + 16), 0x0d);
	assert_int_equal(mock_u32_at(1, o + 20), 100);
	assert_int_equal(mock_u32_at(1, o + 24), 3);
	assert_int_equal(mock_u32_at(1, o + 28), 10);
	assert_int_equal(srq.srq.handle, 0x67);
	assert_int_equal(attr.attr.max_wr, 64);
	assert_int_equal(attr.attr.max_sge, 2);

	/* Tag matching needs CREATE_XSRQ. */
	attr.comp_mask |= IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_CQ |
			  IBV_SRQ_INIT_ATTR_TM;
	attr.srq_type = IBV_SRQT_TM;
	attr.cq = &cq;
	attr.tm_cap.max_num_tags = 32;
	mock_reset();
	mock_write_handler = answer_srq_write;
	assert_int_equal(
		ibv_cmd_create_srq_ex(&vctx->context, &srq, &attr, NULL, NULL),
		0);
	/* Remembered: no ioctl. in: 8 + 48 = 14 words; out 4 words */
	mock_expect_write_hdr(0, IB_USER_VERBS_CMD_CREATE_XSRQ, 14, 4);
	assert_int_equal(mock_u32_at(0, o + 16), IBV_SRQT_TM);
	assert_int_equal(mock_u32_at(0, o + 20), 0x0d);
	assert_int_equal(mock_u32_at(0, o + 36), 32); /* max_num_tags */
	assert_int_equal(mock_u32_at(0, o + 40), 0);  /* xrcd */
	assert_int_equal(mock_u32_at(0, o + 44), 0x0c); /* cq */
	assert_int_equal(srq.srq_type, IBV_SRQT_TM);
	assert_ptr_equal(srq.cq, &cq);
}

static int answer_query_srq(const void *buf, size_t len)
{
	struct ib_uverbs_query_srq_resp resp = {500, 6, 50, 0};

	memcpy(mock_write_response(buf), &resp, sizeof(resp));
	return 0;
}

static void test_modify_query_srq(void **state)
{
	struct ibv_srq srq = {.context = &vctx->context, .handle = 0x68};
	struct ibv_srq_attr attr = {.max_wr = 200, .srq_limit = 20};
	uint64_t drv = 0x99;
	struct ibv_udata in = {&drv, 8, NULL, 0}, out = {NULL, 0, &drv, 8};

	assert_int_equal(ibv_cmd_modify_srq(&srq, &attr, IBV_SRQ_LIMIT, &in),
			 0);
	/* 8 + 16 + 8 driver bytes = 8 words, no response */
	mock_expect_write_hdr(0, IB_USER_VERBS_CMD_MODIFY_SRQ, 8, 0);
	assert_int_equal(mock_u32_at(0, 8), 0x68);
	assert_int_equal(mock_u32_at(0, 12), IBV_SRQ_LIMIT);
	assert_int_equal(mock_u32_at(0, 16), 200);
	assert_int_equal(mock_u32_at(0, 20), 20);
	assert_int_equal(mock_u64_at(0, 24), 0x99);
	assert_int_equal(ibv_cmd_modify_srq(&srq, &attr, IBV_SRQ_LIMIT, &out),
			 EINVAL);

	mock_write_handler = answer_query_srq;
	assert_int_equal(ibv_cmd_query_srq(&srq, &attr), 0);
	/* in: 8 + 16 = 6 words; out: 16 = 4 words */
	mock_expect_write_hdr(1, IB_USER_VERBS_CMD_QUERY_SRQ, 6, 4);
	assert_int_equal(mock_u32_at(1, 16), 0x68);
	assert_int_equal(attr.max_wr, 500);
	assert_int_equal(attr.max_sge, 6);
	assert_int_equal(attr.srq_limit, 50);
	assert_int_equal(mock_num_calls, 2);
}

static void test_destroy_srq(void **state)
{
	struct ibv_srq srq = {.context = &vctx->context, .handle = 0x69};

	pthread_mutex_init(&srq.mutex, NULL);
	pthread_cond_init(&srq.cond, NULL);
	assert_int_equal(ibv_cmd_destroy_srq(&srq), 0);
	mock_expect_hdr(0, UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_DESTROY, 2, 1);
	mock_expect_attr(0, 0, 0, 0, 1, 0x69);
	mock_expect_attr(0, 1, 1, 4, 1, MOCK_ANY);
	mock_ioctl_handler = mock_fail_eprotonosupport;
	assert_int_equal(ibv_cmd_destroy_srq(&srq), 0);
	mock_expect_write_hdr(2, IB_USER_VERBS_CMD_DESTROY_SRQ, 6, 1);
	assert_int_equal(mock_u32_at(2, 16), 0x69);
}

static void *destroy_srq_thread(void *arg)
{
	return (void *)(intptr_t)ibv_cmd_destroy_srq(arg);
}

/* One SRQ_LIMIT_REACHED reported: destroy returns once it is acked. */
static void test_destroy_srq_waits_for_ack(void **state)
{
	struct ibv_srq srq = {.context = &vctx->context, .handle = 0x6a};
	struct ibv_async_event ev = {.element.srq = &srq,
				     .event_type = IBV_EVENT_SRQ_LIMIT_REACHED};

	pthread_mutex_init(&srq.mutex, NULL);
	pthread_cond_init(&srq.cond, NULL);
	mock_destroy_events = 1;
	mock_ioctl_handler = mock_answer_destroy;
	test_destroy_waits_for_ack(destroy_srq_thread, &srq, &ev);
	assert_int_equal(srq.events_completed, 1);
}

static int answer_create_ah(const void *buf, size_t len)
{
	uint8_t resp[12] = {0x71, 0, 0, 0, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55};

	memcpy(mock_write_response(buf), resp, sizeof(resp));
	return 0;
}

static void test_create_destroy_ah(void **state)
{
	struct ibv_ah_attr attr = {
		.grh = {.dgid.raw = {[10] = 0xff, [11] = 0xff, 10, 0, 0, 2},
			.flow_label = 0xabcde,
			.sgid_index = 1,
			.hop_limit = 64,
			.traffic_class = 0x10},
		.dlid = 0,
		.sl = 3,
		.src_path_bits = 0,
		.static_rate = 0,
		.is_global = 1,
		.port_num = 1,
	};
	const uint8_t kattr[32] = {
		[10] = 0xff, [11] = 0xff, 10, 0, 0, 2, U32(0xabcde), 1, 64,
		0x10, 0, U16(0), 3, 0, 0, 1, 1, 0,
	};
	/* RoCE: the driver's response carries the resolved MAC. */
	uint8_t dmac[8] = {0};
	struct ibv_udata udata = {NULL, 0, dmac, 8};
	struct ibv_ah ah = {};

	mock_write_handler = answer_create_ah;
	assert_int_equal(ibv_cmd_create_ah(&pd, &ah, &attr, &udata), 0);
	/* in: 8 + 56 = 16 words; out: 4 + 8 = 3 words */
	mock_expect_write_hdr(0, IB_USER_VERBS_CMD_CREATE_AH, 16, 3);
	assert_int_equal(mock_u64_at(0, 16), (uintptr_t)&ah);
	assert_int_equal(mock_u32_at(0, 24), 0x0d);
	assert_int_equal(mock_u32_at(0, 28), 0);
	assert_memory_equal(mock_calls[0].bytes + 32, kattr, sizeof(kattr));
	assert_int_equal(ah.handle, 0x71);
	assert_ptr_equal(ah.context, &vctx->context);
	assert_ptr_equal(ah.pd, &pd);
	assert_int_equal(dmac[0], 0x02);
	assert_int_equal(dmac[5], 0x55);

	mock_write_handler = NULL;
	assert_int_equal(ibv_cmd_destroy_ah(&ah), 0);
	mock_expect_hdr(1, UVERBS_OBJECT_AH, UVERBS_METHOD_AH_DESTROY, 1, 1);
	mock_expect_attr(1, 0, 0, 0, 1, 0x71);
	mock_ioctl_handler = mock_fail_eprotonosupport;
	assert_int_equal(ibv_cmd_destroy_ah(&ah), 0);
	/* 8 + 4 bytes = 3 words, no response */
	mock_expect_write_hdr(3, IB_USER_VERBS_CMD_DESTROY_AH, 3, 0);
	assert_int_equal(mock_u32_at(3, 8), 0x71);
}

/* Every destroy helper; DM only where it has a path (the ioctl). */
static int destroy_all(bool with_dm)
{
	struct ibv_cq dcq = {.context = &vctx->context, .handle = 1};
	struct ibv_qp qp = {.context = &vctx->context, .handle = 2};
	struct ibv_srq srq = {.context = &vctx->context, .handle = 3};
	struct ibv_ah ah = {.context = &vctx->context, .handle = 4};
	struct verbs_mr mr = {.ibv_mr = {.context = &vctx->context}};
	struct verbs_dm dm = {.dm.context = &vctx->context};
	struct ibv_pd dpd = {.context = &vctx->context};
	int ret = 0;

	ret |= ibv_cmd_destroy_cq(&dcq);
	ret |= ibv_cmd_destroy_qp(&qp);
	ret |= ibv_cmd_destroy_srq(&srq);
	ret |= ibv_cmd_destroy_ah(&ah);
	ret |= ibv_cmd_dereg_mr(&mr);
	if (with_dm)
		ret |= ibv_cmd_free_dm(&dm);
	ret |= ibv_cmd_dealloc_pd(&dpd);
	return ret;
}

static void test_destroy_eio_is_success(void **state)
{
	/* Other errors are errors. */
	mock_ioctl_handler = mock_fail_einval;
	assert_int_equal(destroy_all(true), EINVAL);
	assert_int_equal(mock_num_calls, 7);
	/* EIO on the ioctl path (the only one DM has) ... */
	mock_reset();
	mock_ioctl_handler = mock_fail_eio;
	assert_int_equal(destroy_all(true), 0);
	assert_int_equal(mock_num_calls, 7);
	/* ... and on the write() path. */
	mock_reset();
	mock_ioctl_handler = mock_fail_eprotonosupport;
	mock_write_handler = mock_fail_write_eio;
	assert_int_equal(destroy_all(false), 0);
	assert_int_equal(mock_num_calls, 12);
	assert_int_equal(mock_calls[11].kind, MOCK_WRITE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define I(fn) cmocka_unit_test_setup_teardown(fn, setup_ioctl, mock_teardown)
#define W(fn) cmocka_unit_test_setup_teardown(fn, setup_write, mock_teardown)
		I(test_create_srq_ioctl),
		I(test_create_srq_checks),
		W(test_create_srq_write_fallback),
		W(test_modify_query_srq),
		W(test_destroy_srq),
		I(test_destroy_srq_waits_for_ack),
		W(test_create_destroy_ah),
		W(test_destroy_eio_is_success),
#undef I
#undef W
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
