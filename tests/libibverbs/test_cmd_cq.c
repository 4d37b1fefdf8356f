// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The CQ commands byte by byte: CQ_CREATE / CQ_DESTROY ioctls, their
 * CREATE_CQ / EX_CREATE_CQ / DESTROY_CQ write() fallbacks, the write-only
 * RESIZE_CQ, REQ_NOTIFY_CQ and POLL_CQ, the generic fields the helpers
 * fill, the channel reference, and destroy waiting for acked events.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <rdma/ib_user_verbs.h>

#include "mock_kernel.h"

/* Tunnelled write commands (a 6.x kernel) or plain write() (no ioctl). */
static int setup_ioctl(void **state)
{
	mock_setup_ioctl(state);
	vctx->context.async_fd = 7;
	return 0;
}

static int setup_write(void **state)
{
	mock_setup_write(state);
	vctx->context.async_fd = 7;
	return 0;
}

static uint32_t answer_cqe;

static int answer_cq_create(struct ib_uverbs_ioctl_hdr *hdr)
{
	uint8_t drv[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	struct ib_uverbs_attr *out;

	mock_find(hdr, UVERBS_ATTR_CREATE_CQ_HANDLE)->data = 0x33;
	out = mock_find(hdr, UVERBS_ATTR_CREATE_CQ_RESP_CQE);
	memcpy((void *)(uintptr_t)out->data, &answer_cqe, 4);
	out->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
	out = mock_find(hdr, UVERBS_ATTR_UHW_OUT);
	if (out)
		memcpy((void *)(uintptr_t)out->data, drv, out->len);
	return 0;
}

static void test_create_cq_ioctl(void **state)
{
	struct ibv_comp_channel channel = {.context = &vctx->context, .fd = 9};
	uint64_t drv_in = 0x1122334455667788, drv_out = 0;
	struct ibv_udata udata = {&drv_in, 8, &drv_out, 8};
	struct verbs_cq cq;

	memset(&cq, 0xff, sizeof(cq));
	answer_cqe = 31;
	mock_ioctl_handler = answer_cq_create;
	assert_int_equal(ibv_cmd_create_cq(&vctx->context, 20, &channel, 2,
					   &cq, &udata, NULL),
			 0);
	assert_int_equal(mock_num_calls, 1);
	mock_expect_hdr(0, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, 9, 1);
	mock_expect_attr(0, 0, 0, 0, 1, 0);		      /* HANDLE new */
	mock_expect_attr(0, 1, 1, 4, 1, 20);		      /* CQE */
	mock_expect_attr(0, 2, 2, 8, 1, (uintptr_t)&cq);      /* USER_HANDLE */
	mock_expect_attr(0, 3, 3, 0, 1, 9);		      /* COMP_CHANNEL */
	mock_expect_attr(0, 4, 4, 4, 1, 2);		      /* COMP_VECTOR */
	mock_expect_attr(0, 5, 6, 4, 1, MOCK_ANY);	      /* RESP_CQE */
	mock_expect_attr(0, 6, 7, 0, 0, 7);		      /* EVENT_FD, opt. */
	mock_expect_attr(0, 7, 0x1000, 8, 1, drv_in);	      /* UHW_IN inline */
	mock_expect_attr(0, 8, 0x1001, 8, 1, (uintptr_t)&drv_out);
	/* Every generic field, from the kernel's answer. */
	assert_ptr_equal(cq.cq.context, &vctx->context);
	assert_ptr_equal(cq.cq.channel, &channel);
	assert_null(cq.cq.cq_context);
	assert_int_equal(cq.cq.handle, 0x33);
	assert_int_equal(cq.cq.cqe, 31);
	assert_int_equal(cq.cq.comp_events_completed, 0);
	assert_int_equal(cq.cq.async_events_completed, 0);
	assert_int_equal(channel.refcnt, 1);
	assert_int_equal(drv_out, 0x0807060504030201);

	/* A channel in use cannot go; destroying the CQ releases it. */
	assert_int_equal(ibv_destroy_comp_channel(&channel), EBUSY);
	mock_reset();
	assert_int_equal(ibv_cmd_destroy_cq(&cq.cq), 0);
	assert_int_equal(channel.refcnt, 0);
}

static void test_create_cq_no_channel_no_async_fd(void **state)
{
	struct verbs_cq cq;

	vctx->context.async_fd = -1;
	answer_cqe = 1;
	mock_ioctl_handler = answer_cq_create;
	assert_int_equal(
		ibv_cmd_create_cq(&vctx->context, 1, NULL, 0, &cq, NULL, NULL),
		0);
	/* No COMP_CHANNEL, no EVENT_FD, no UHW. */
	mock_expect_hdr(0, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, 5, 1);
	mock_expect_attr(0, 3, 4, 4, 1, 0);
	mock_expect_attr(0, 4, 6, 4, 1, MOCK_ANY);
	assert_null(cq.cq.channel);
}

static void test_create_cq_ex_flags_and_checks(void **state)
{
	struct ibv_cq_init_attr_ex attr = {
		.cqe = 8,
		.cq_context = &attr,
		.wc_flags = IBV_WC_STANDARD_FLAGS,
	};
	struct verbs_cq cq;

	answer_cqe = 8;
	mock_ioctl_handler = answer_cq_create;
	assert_int_equal(ibv_cmd_create_cq_ex(&vctx->context, &attr,
					      IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN,
					      &cq, NULL, NULL),
			 0);
	mock_expect_hdr(0, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, 7, 1);
	mock_expect_attr(0, 4, 5, 4, 1, IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN);
	assert_ptr_equal(cq.cq.cq_context, &attr);

	/* Unknown comp_mask or wc_flags bits: refused before any syscall. */
	mock_reset();
	attr.comp_mask = 1 << 2;
	assert_int_equal(ibv_cmd_create_cq_ex(&vctx->context, &attr, 0, &cq,
					      NULL, NULL),
			 EOPNOTSUPP);
	attr.comp_mask = 0;
	attr.wc_flags = 1ULL << 12;
	errno = 0;
	assert_int_equal(ibv_cmd_create_cq_ex(&vctx->context, &attr, 0, &cq,
					      NULL, NULL),
			 EOPNOTSUPP);
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(
		ibv_cmd_create_cq(&vctx->context, -1, NULL, 0, &cq, NULL, NULL),
		EINVAL);
	assert_int_equal(mock_num_calls, 0);
}

/* The response bytes a write() being handled may fill (header says). */
static size_t response_len(const void *buf)
{
	uint32_t command, words;
	uint16_t provider_out;

	memcpy(&command, buf, 4);
	memcpy(&words, (const uint8_t *)buf + 4, 4);
	if (!(command & IB_USER_VERBS_CMD_FLAG_EXTENDED))
		return (words >> 16) * 4;
	memcpy(&provider_out, (const uint8_t *)buf + 18, 2);
	return ((words >> 16) + provider_out) * 8;
}

/*
 * CREATE_CQ, EX_CREATE_CQ and RESIZE_CQ: the first u32 of the answer is
 * 0x44 (handle; cqe for resize), the second 63 (cqe), the core response
 * tail 0 and driver data 0xab.
 */
static int answer_create_cq_write(const void *buf, size_t len)
{
	uint8_t *resp = mock_write_response(buf);
	size_t n = response_len(buf), core;
	uint32_t command;

	memcpy(&command, buf, 4);
	core = command & IB_USER_VERBS_CMD_FLAG_EXTENDED ? 16 : 8;
	memset(resp, 0xab, n);
	memset(resp, 0, core);
	resp[0] = 0x44;
	resp[4] = 63;
	return 0;
}

static void test_create_cq_write_fallback(void **state)
{
	struct ibv_comp_channel channel = {.context = &vctx->context, .fd = 9};
	uint64_t drv_in = 0x0102030405060708, drv_out = 0;
	struct ibv_udata udata = {&drv_in, 8, &drv_out, 8};
	struct verbs_cq cq;
	size_t o = 8; /* after struct ib_uverbs_cmd_hdr */

	mock_ioctl_handler = mock_fail_eprotonosupport;
	mock_write_handler = answer_create_cq_write;
	assert_int_equal(ibv_cmd_create_cq(&vctx->context, 20, &channel, 3,
					   &cq, &udata, NULL),
			 0);
	assert_int_equal(mock_num_calls, 2);
	assert_int_equal(mock_calls[0].kind, MOCK_IOCTL);
	/* in: 8 + 32 + 8 = 12 words; out: 8 + 8 = 4 words */
	mock_expect_write_hdr(1, IB_USER_VERBS_CMD_CREATE_CQ, 12, 4);
	assert_int_equal(mock_calls[1].len, 48);
	assert_int_not_equal(mock_u64_at(1, o + 0), 0);	  /* response */
	assert_int_equal(mock_u64_at(1, o + 8), (uintptr_t)&cq); /* user */
	assert_int_equal(mock_u32_at(1, o + 16), 20);		  /* cqe */
	assert_int_equal(mock_u32_at(1, o + 20), 3);		  /* vector */
	assert_int_equal(mock_u32_at(1, o + 24), 9);		  /* channel */
	assert_int_equal(mock_u32_at(1, o + 28), 0);		  /* reserved */
	assert_int_equal(mock_u64_at(1, o + 32), drv_in);	  /* driver */
	assert_int_equal(cq.cq.handle, 0x44);
	assert_int_equal(cq.cq.cqe, 63);
	assert_int_equal(drv_out, 0xabababababababab);
	assert_int_equal(channel.refcnt, 1);

	/* The op is remembered: the next create goes straight to write(). */
	mock_reset();
	mock_write_handler = answer_create_cq_write;
	assert_int_equal(
		ibv_cmd_create_cq(&vctx->context, 2, NULL, 0, &cq, NULL, NULL),
		0);
	assert_int_equal(mock_num_calls, 1);
	/* No channel: comp_channel -1 */
	mock_expect_write_hdr(0, IB_USER_VERBS_CMD_CREATE_CQ, 10, 2);
	assert_int_equal(mock_u32_at(0, o + 24), UINT32_MAX);
}

static void test_create_cq_ex_write_fallback(void **state)
{
	struct ibv_cq_init_attr_ex attr = {.cqe = 5, .comp_vector = 1};
	uint64_t drv_in = 7, drv_out;
	struct ibv_udata udata = {&drv_in, 8, &drv_out, 8};
	struct verbs_cq cq;
	size_t o = 24; /* after the command and extended headers */

	/* No ioctl framework at all (ENOTTY): the extended write. */
	mock_ioctl_handler = mock_fail_enotty;
	mock_write_handler = answer_create_cq_write;
	assert_int_equal(ibv_cmd_create_cq_ex(&vctx->context, &attr,
					      IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION,
					      &cq, &udata, NULL),
			 0);
	/* in 32/8 = 4 words, out 16/8 = 2; provider 1 + 1 words */
	mock_expect_write_hdr(1,
			      IB_USER_VERBS_CMD_FLAG_EXTENDED |
				      IB_USER_VERBS_CMD_CREATE_CQ,
			      4, 2);
	assert_int_equal(mock_calls[1].len, 24 + 32 + 8);
	assert_int_equal(mock_u32_at(1, 16), 1 | 1 << 16);
	assert_int_equal(mock_u32_at(1, 20), 0);		  /* reserved */
	assert_int_equal(mock_u64_at(1, o + 0), (uintptr_t)&cq); /* user */
	assert_int_equal(mock_u32_at(1, o + 8), 5);		  /* cqe */
	assert_int_equal(mock_u32_at(1, o + 12), 1);		  /* vector */
	assert_int_equal(mock_u32_at(1, o + 16), UINT32_MAX);	  /* none */
	assert_int_equal(mock_u32_at(1, o + 20), 0);		  /* mask */
	assert_int_equal(mock_u32_at(1, o + 24), 1);		  /* flags */
	assert_int_equal(mock_u32_at(1, o + 28), 0);		  /* reserved */
	assert_int_equal(mock_u64_at(1, o + 32), 7);
	assert_int_equal(cq.cq.handle, 0x44);
	assert_int_equal(cq.cq.cqe, 63);
	assert_int_equal(drv_out, 0xabababababababab);
}

static void test_driver_attr_blocks_fallback(void **state)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, 1);
	struct verbs_cq cq;
	uint32_t uar = 3;

	uverbs_attr_in_ptr(cmd, 0x1002, &uar, sizeof(uar));
	mock_ioctl_handler = mock_fail_eprotonosupport;
	assert_int_equal(
		ibv_cmd_create_cq(&vctx->context, 2, NULL, 0, &cq, NULL, cmd),
		EOPNOTSUPP);
	assert_int_equal(mock_num_calls, 1);
	mock_expect_attr(0, 0, 0x1002, 4, 1, 3);
}

/*
 * An imported context's objects must report to its own async fd, which
 * only the ioctls carry: EVENT_FD is mandatory and nothing falls back.
 */
static void test_imported_context_never_falls_back(void **state)
{
	struct ibv_pd pd = {.context = &vctx->context, .handle = 1};
	struct ibv_cq scq = {.context = &vctx->context, .handle = 2};
	struct ibv_qp_init_attr_ex qattr = {
		.send_cq = &scq,
		.recv_cq = &scq,
		.qp_type = IBV_QPT_RC,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = &pd,
	};
	struct ibv_srq_init_attr_ex sattr = {
		.comp_mask = IBV_SRQ_INIT_ATTR_PD,
		.pd = &pd,
	};
	struct verbs_srq srq;
	struct verbs_qp qp;
	struct verbs_cq cq;

	get_priv(&vctx->context)->imported = true;
	mock_ioctl_handler = mock_fail_eprotonosupport;
	assert_int_equal(
		ibv_cmd_create_cq(&vctx->context, 1, NULL, 0, &cq, NULL, NULL),
		EOPNOTSUPP);
	mock_expect_attr(0, 5, UVERBS_ATTR_CREATE_CQ_EVENT_FD, 0, 1, 7);
	assert_int_equal(ibv_cmd_create_qp_ex(&vctx->context, &qp, &qattr,
					      NULL, NULL),
			 EOPNOTSUPP);
	assert_int_equal(ibv_cmd_create_srq_ex(&vctx->context, &srq, &sattr,
					       NULL, NULL),
			 EOPNOTSUPP);
	/* Three refused ioctls and no write(). */
	assert_int_equal(mock_num_calls, 3);
	assert_int_equal(mock_calls[1].kind, MOCK_IOCTL);
	assert_int_equal(mock_calls[2].kind, MOCK_IOCTL);
	get_priv(&vctx->context)->imported = false;
}

static struct ib_uverbs_destroy_cq_resp destroy_answer;

static int answer_cq_destroy(struct ib_uverbs_ioctl_hdr *hdr)
{
	struct ib_uverbs_attr *resp = mock_find(hdr, 1);

	memcpy((void *)(uintptr_t)resp->data, &destroy_answer,
	       sizeof(destroy_answer));
	return 0;
}

static void test_destroy_cq_ioctl_and_write(void **state)
{
	struct ibv_cq cq = {.context = &vctx->context, .handle = 0x51};

	pthread_mutex_init(&cq.mutex, NULL);
	pthread_cond_init(&cq.cond, NULL);
	destroy_answer = (struct ib_uverbs_destroy_cq_resp){0, 0};
	mock_ioctl_handler = answer_cq_destroy;
	assert_int_equal(ibv_cmd_destroy_cq(&cq), 0);
	mock_expect_hdr(0, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY, 2, 1);
	mock_expect_attr(0, 0, 0, 0, 1, 0x51);
	mock_expect_attr(0, 1, 1, 8, 1, MOCK_ANY);

	mock_reset();
	mock_ioctl_handler = mock_fail_eprotonosupport;
	assert_int_equal(ibv_cmd_destroy_cq(&cq), 0);
	/* in: 8 + 16 = 6 words; out: 8 bytes = 2 words */
	mock_expect_write_hdr(1, IB_USER_VERBS_CMD_DESTROY_CQ, 6, 2);
	assert_int_not_equal(mock_u64_at(1, 8), 0);
	assert_int_equal(mock_u32_at(1, 16), 0x51);
	assert_int_equal(mock_u32_at(1, 20), 0);
}

static int fail_ebusy(struct ib_uverbs_ioctl_hdr *hdr)
{
	return EBUSY;
}

/* A removed device: the CQ is gone, even with events never acked. */
static void test_destroy_cq_eio_is_success(void **state)
{
	struct ibv_comp_channel channel = {.context = &vctx->context,
					   .refcnt = 1};
	struct ibv_cq cq = {.context = &vctx->context, .channel = &channel};

	pthread_mutex_init(&cq.mutex, NULL);
	pthread_cond_init(&cq.cond, NULL);
	mock_ioctl_handler = fail_ebusy;
	assert_int_equal(ibv_cmd_destroy_cq(&cq), EBUSY);
	assert_int_equal(channel.refcnt, 1);
	mock_ioctl_handler = mock_fail_eio;
	errno = 0;
	assert_int_equal(ibv_cmd_destroy_cq(&cq), 0);
	assert_int_equal(channel.refcnt, 0);
}

struct destroy_thread {
	struct ibv_cq *cq;
	int ret;
	int done;
};

static void *destroy_cq_thread(void *arg)
{
	struct destroy_thread *t = arg;

	t->ret = ibv_cmd_destroy_cq(t->cq);
	__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {0, ms * 1000000};

	nanosleep(&ts, NULL);
}

/*
 * The kernel reported 2 completion and 1 async event for this CQ: destroy
 * returns only once the application acknowledged all three.
 */
static void test_destroy_cq_waits_for_acks(void **state)
{
	struct ibv_cq cq = {.context = &vctx->context, .handle = 1};
	struct destroy_thread t = {.cq = &cq};
	struct ibv_async_event ev = {.element.cq = &cq,
				     .event_type = IBV_EVENT_CQ_ERR};
	pthread_t thread;

	pthread_mutex_init(&cq.mutex, NULL);
	pthread_cond_init(&cq.cond, NULL);
	destroy_answer = (struct ib_uverbs_destroy_cq_resp){2, 1};
	mock_ioctl_handler = answer_cq_destroy;
	assert_int_equal(pthread_create(&thread, NULL, destroy_cq_thread, &t),
			 0);
	sleep_ms(50);
	assert_false(__atomic_load_n(&t.done, __ATOMIC_ACQUIRE));
	ibv_ack_cq_events(&cq, 1);
	sleep_ms(20);
	assert_false(__atomic_load_n(&t.done, __ATOMIC_ACQUIRE));
	ibv_ack_cq_events(&cq, 1);
	sleep_ms(20);
	assert_false(__atomic_load_n(&t.done, __ATOMIC_ACQUIRE));
	ibv_ack_async_event(&ev);
	assert_int_equal(pthread_join(thread, NULL), 0);
	assert_int_equal(t.ret, 0);
	assert_int_equal(cq.comp_events_completed, 2);
	assert_int_equal(cq.async_events_completed, 1);
}

static void test_resize_cq(void **state)
{
	struct ibv_cq cq = {.context = &vctx->context, .handle = 0x61, .cqe = 1};

	mock_write_handler = answer_create_cq_write; /* resp.cqe = 0x44 */
	assert_int_equal(ibv_cmd_resize_cq(&cq, 100, NULL), 0);
	/* in: 8 + 16 = 6 words; out: 8 = 2 words */
	mock_expect_write_hdr(0, IB_USER_VERBS_CMD_RESIZE_CQ, 6, 2);
	assert_int_equal(mock_u32_at(0, 16), 0x61);
	assert_int_equal(mock_u32_at(0, 20), 100);
	assert_int_equal(cq.cqe, 0x44);
	assert_int_equal(ibv_cmd_resize_cq(&cq, -1, NULL), EINVAL);
	assert_int_equal(mock_num_calls, 1);
}

static void test_req_notify_cq(void **state)
{
	struct ibv_cq cq = {.context = &vctx->context, .handle = 0x62};

	assert_int_equal(ibv_cmd_req_notify_cq(&cq, 5), 0);
	assert_int_equal(ibv_cmd_req_notify_cq(&cq, 0), 0);
	/* 8 + 8 bytes = 4 words, no response */
	mock_expect_write_hdr(0, IB_USER_VERBS_CMD_REQ_NOTIFY_CQ, 4, 0);
	assert_int_equal(mock_calls[0].len, 16);
	assert_int_equal(mock_u32_at(0, 8), 0x62);
	assert_int_equal(mock_u32_at(0, 12), 1); /* !!solicited_only */
	assert_int_equal(mock_u32_at(1, 12), 0);
}

static unsigned int poll_have;

/* Answers min(ne, poll_have) completions numbered from 100. */
static int answer_poll(const void *buf, size_t len)
{
	struct ib_uverbs_poll_cq_resp *resp = mock_write_response(buf);
	uint32_t ne, i;

	memcpy(&ne, (const uint8_t *)buf + 20, 4);
	resp->count = ne < poll_have ? ne : poll_have;
	for (i = 0; i < resp->count; i++) {
		struct ib_uverbs_wc *wc = &resp->wc[i];

		wc->wr_id = 100 + i;
		wc->status = IBV_WC_REM_ACCESS_ERR;
		wc->opcode = IBV_WC_RECV;
		wc->vendor_err = 0x77;
		wc->byte_len = 4096;
		wc->ex.imm_data = 0x12345678;
		wc->qp_num = 0xabc;
		wc->src_qp = 0xdef;
		wc->wc_flags = 1 | 4; /* kernel GRH | WITH_INVALIDATE */
		wc->pkey_index = 3;
		wc->slid = 0x1234;
		wc->sl = 5;
		wc->dlid_path_bits = 6;
		wc->port_num = 1;
	}
	poll_have -= resp->count;
	return 0;
}

static void test_poll_cq(void **state)
{
	struct ibv_cq cq = {.context = &vctx->context, .handle = 0x63};
	struct ibv_wc wc[4];

	memset(wc, 0xee, sizeof(wc));
	poll_have = 2;
	mock_write_handler = answer_poll;
	assert_int_equal(ibv_cmd_poll_cq(&cq, 4, wc), 2);
	assert_int_equal(mock_num_calls, 1);
	/* in: 8 + 16 = 6 words; out: 8 + 4 * 48 = 50 words */
	mock_expect_write_hdr(0, IB_USER_VERBS_CMD_POLL_CQ, 6, 50);
	assert_int_equal(mock_u32_at(0, 16), 0x63);
	assert_int_equal(mock_u32_at(0, 20), 4);
	assert_int_equal(wc[1].wr_id, 101);
	assert_int_equal(wc[1].status, IBV_WC_REM_ACCESS_ERR);
	assert_int_equal(wc[1].opcode, IBV_WC_RECV);
	assert_int_equal(wc[1].vendor_err, 0x77);
	assert_int_equal(wc[1].byte_len, 4096);
	assert_int_equal(wc[1].imm_data, 0x12345678);
	assert_int_equal(wc[1].qp_num, 0xabc);
	assert_int_equal(wc[1].src_qp, 0xdef);
	assert_int_equal(wc[1].wc_flags, IBV_WC_GRH | IBV_WC_WITH_INV);
	assert_int_equal(wc[1].pkey_index, 3);
	assert_int_equal(wc[1].slid, 0x1234);
	assert_int_equal(wc[1].sl, 5);
	assert_int_equal(wc[1].dlid_path_bits, 6);
	/* Untouched beyond the count. */
	assert_int_equal(wc[2].wr_id, 0xeeeeeeeeeeeeeeee);

	/* Empty CQ, zero entries, bad arguments. */
	assert_int_equal(ibv_cmd_poll_cq(&cq, 4, wc), 0);
	assert_int_equal(ibv_cmd_poll_cq(&cq, 0, wc), 0);
	errno = 0;
	assert_int_equal(ibv_cmd_poll_cq(&cq, -1, wc), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(mock_num_calls, 2);
}

static void test_poll_cq_large_and_failing(void **state)
{
	struct ibv_cq cq = {.context = &vctx->context, .handle = 0x64};
	struct ibv_wc *wc = calloc(1500, sizeof(*wc));

	assert_non_null(wc);
	/* More than one write can carry: 1024, then the rest. */
	poll_have = 1200;
	mock_write_handler = answer_poll;
	assert_int_equal(ibv_cmd_poll_cq(&cq, 1500, wc), 1200);
	assert_int_equal(mock_num_calls, 2);
	assert_int_equal(mock_u32_at(1, 20), 1500 - 1024);

	mock_reset();
	mock_write_handler = mock_fail_write_eio;
	errno = 0;
	assert_int_equal(ibv_cmd_poll_cq(&cq, 1, wc), -1);
	assert_int_equal(errno, EIO);
	free(wc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define I(fn) cmocka_unit_test_setup_teardown(fn, setup_ioctl, mock_teardown)
#define W(fn) cmocka_unit_test_setup_teardown(fn, setup_write, mock_teardown)
		I(test_create_cq_ioctl),
		I(test_create_cq_no_channel_no_async_fd),
		I(test_create_cq_ex_flags_and_checks),
		W(test_create_cq_write_fallback),
		W(test_create_cq_ex_write_fallback),
		W(test_driver_attr_blocks_fallback),
		W(test_imported_context_never_falls_back),
		W(test_destroy_cq_ioctl_and_write),
		I(test_destroy_cq_eio_is_success),
		I(test_destroy_cq_waits_for_acks),
		W(test_resize_cq),
		W(test_req_notify_cq),
		W(test_poll_cq),
		W(test_poll_cq_large_and_failing),
#undef I
#undef W
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
