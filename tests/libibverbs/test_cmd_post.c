// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Posting through the kernel: the POST_SEND, POST_RECV and POST_SRQ_RECV
 * write() images (header, uverbs WRs, then all SGEs), the per-QP-type
 * and per-opcode union contents, and which WR *bad_wr names on failure.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <rdma/ib_user_verbs.h>

#include "mock_kernel.h"

static int setup(void **state)
{
	vctx = mock_context(RDMA_DRIVER_RXE, EPROTONOSUPPORT);
	return 0;
}

/* struct ib_uverbs_post_send: response, handle, counts, wqe_size. */
static void expect_post_hdr(unsigned int call, uint32_t command,
			    uint32_t handle, uint32_t wrs, uint32_t sges,
			    uint32_t wqe_size)
{
	size_t len = 8 + 24 + wrs * wqe_size + sges * 16;

	assert_int_equal(mock_calls[call].len, len);
	/* in: everything; out: the 4-byte bad_wr */
	mock_expect_write_hdr(call, command, (uint16_t)(len / 4), 1);
	assert_int_not_equal(mock_u64_at(call, 8), 0);
	assert_int_equal(mock_u32_at(call, 16), handle);
	assert_int_equal(mock_u32_at(call, 20), wrs);
	assert_int_equal(mock_u32_at(call, 24), sges);
	assert_int_equal(mock_u32_at(call, 28), wqe_size);
}

static void test_post_send_rc(void **state)
{
	struct ibv_qp qp = {.context = &vctx->context, .handle = 0x10,
			    .qp_type = IBV_QPT_RC};
	struct ibv_sge sg[3] = {{0x1000, 64, 0x11}, {0x2000, 32, 0x22},
				{0x3000, 8, 0x33}};
	struct ibv_send_wr atomic = {
		.wr_id = 2,
		.sg_list = &sg[2],
		.num_sge = 1,
		.opcode = IBV_WR_ATOMIC_CMP_AND_SWP,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.atomic = {0x9000, 5, 6, 0x77},
	};
	struct ibv_send_wr write = {
		.wr_id = 1,
		.next = &atomic,
		.sg_list = sg,
		.num_sge = 2,
		.opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
		.send_flags = IBV_SEND_FENCE,
		.imm_data = 0xdeadbeef,
		.wr.rdma = {0x8000, 0x66},
	};
	struct ibv_send_wr *bad = &write;
	const size_t w0 = 32, w1 = 32 + 56, s0 = 32 + 112;

	assert_int_equal(ibv_cmd_post_send(&qp, &write, &bad), 0);
	assert_null(bad);
	expect_post_hdr(0, IB_USER_VERBS_CMD_POST_SEND, 0x10, 2, 3, 56);
	assert_int_equal(mock_u64_at(0, w0), 1);	      /* wr_id */
	assert_int_equal(mock_u32_at(0, w0 + 8), 2);	      /* num_sge */
	assert_int_equal(mock_u32_at(0, w0 + 12), IBV_WR_RDMA_WRITE_WITH_IMM);
	assert_int_equal(mock_u32_at(0, w0 + 16), IBV_SEND_FENCE);
	assert_int_equal(mock_u32_at(0, w0 + 20), 0xdeadbeef);
	assert_int_equal(mock_u64_at(0, w0 + 24), 0x8000);   /* rdma */
	assert_int_equal(mock_u32_at(0, w0 + 32), 0x66);
	assert_int_equal(mock_u64_at(0, w1), 2);
	assert_int_equal(mock_u32_at(0, w1 + 12), IBV_WR_ATOMIC_CMP_AND_SWP);
	assert_int_equal(mock_u64_at(0, w1 + 24), 0x9000);   /* atomic */
	assert_int_equal(mock_u64_at(0, w1 + 32), 5);
	assert_int_equal(mock_u64_at(0, w1 + 40), 6);
	assert_int_equal(mock_u32_at(0, w1 + 48), 0x77);
	/* SGEs after all WRs, in list order. */
	assert_memory_equal(mock_calls[0].bytes + s0, sg, sizeof(sg));
}

static void test_post_send_ud_and_kick(void **state)
{
	struct ibv_qp qp = {.context = &vctx->context, .handle = 0x11,
			    .qp_type = IBV_QPT_UD};
	struct ibv_ah ah = {.handle = 0x55};
	struct ibv_sge sg = {0x1000, 40, 1};
	struct ibv_send_wr wr = {
		.wr_id = 9,
		.sg_list = &sg,
		.num_sge = 1,
		.opcode = IBV_WR_SEND,
		.wr.ud = {&ah, 0x1234, 0x11111111},
	};
	struct ibv_send_wr *bad;

	assert_int_equal(ibv_cmd_post_send(&qp, &wr, &bad), 0);
	expect_post_hdr(0, IB_USER_VERBS_CMD_POST_SEND, 0x11, 1, 1, 56);
	assert_int_equal(mock_u32_at(0, 32 + 24), 0x55); /* AH handle */
	assert_int_equal(mock_u32_at(0, 32 + 28), 0x1234);
	assert_int_equal(mock_u32_at(0, 32 + 32), 0x11111111);
	/* An empty list: how rxe asks the kernel to run the send queue. */
	assert_int_equal(ibv_cmd_post_send(&qp, NULL, &bad), 0);
	expect_post_hdr(1, IB_USER_VERBS_CMD_POST_SEND, 0x11, 0, 0, 56);
	assert_null(bad);
}

static uint32_t bad_index;

/* The kernel fails the bad_index-th WR and says so (errno EINVAL). */
static int fail_wr(const void *buf, size_t len)
{
	memcpy(mock_write_response(buf), &bad_index, 4);
	return bad_index ? EINVAL : ENOMEM;
}

static void test_post_bad_wr(void **state)
{
	struct ibv_qp qp = {.context = &vctx->context, .handle = 0x12,
			    .qp_type = IBV_QPT_RC};
	struct ibv_recv_wr r[3] = {{.wr_id = 1, .next = &r[1]},
				   {.wr_id = 2, .next = &r[2]},
				   {.wr_id = 3}};
	struct ibv_recv_wr *bad = NULL;

	mock_write_handler = fail_wr;
	bad_index = 2;
	assert_int_equal(ibv_cmd_post_recv(&qp, r, &bad), EINVAL);
	assert_ptr_equal(bad, &r[1]);
	/* The write failed without naming a WR: the first one. */
	bad_index = 0;
	errno = 0;
	assert_int_equal(ibv_cmd_post_recv(&qp, r, &bad), ENOMEM);
	assert_int_equal(errno, ENOMEM);
	assert_ptr_equal(bad, &r[0]);
	/* A negative SGE count never reaches the kernel. */
	r[2].num_sge = -1;
	assert_int_equal(ibv_cmd_post_recv(&qp, r, &bad), EINVAL);
	assert_ptr_equal(bad, &r[2]);
	assert_int_equal(mock_num_calls, 2);
}

static void test_post_recv_and_srq_recv(void **state)
{
	struct ibv_qp qp = {.context = &vctx->context, .handle = 0x13};
	struct ibv_srq srq = {.context = &vctx->context, .handle = 0x14};
	struct ibv_sge sg[2] = {{0xa000, 100, 7}, {0xb000, 200, 8}};
	struct ibv_recv_wr r2 = {.wr_id = 21, .sg_list = &sg[1], .num_sge = 1};
	struct ibv_recv_wr r1 = {.wr_id = 20, .next = &r2, .sg_list = sg,
				 .num_sge = 1};
	struct ibv_recv_wr *bad;
	unsigned int call;

	assert_int_equal(ibv_cmd_post_recv(&qp, &r1, &bad), 0);
	assert_int_equal(ibv_cmd_post_srq_recv(&srq, &r1, &bad), 0);
	expect_post_hdr(0, IB_USER_VERBS_CMD_POST_RECV, 0x13, 2, 2, 16);
	expect_post_hdr(1, IB_USER_VERBS_CMD_POST_SRQ_RECV, 0x14, 2, 2, 16);
	for (call = 0; call < 2; call++) {
		/* struct ib_uverbs_recv_wr: wr_id, num_sge, reserved */
		assert_int_equal(mock_u64_at(call, 32), 20);
		assert_int_equal(mock_u32_at(call, 40), 1);
		assert_int_equal(mock_u32_at(call, 44), 0);
		assert_int_equal(mock_u64_at(call, 48), 21);
		assert_memory_equal(mock_calls[call].bytes + 64, sg, sizeof(sg));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, mock_teardown)
		T(test_post_send_rc),
		T(test_post_send_ud_and_kick),
		T(test_post_bad_wr),
		T(test_post_recv_and_srq_recv),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
