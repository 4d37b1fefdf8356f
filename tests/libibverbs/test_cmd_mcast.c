// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Multicast commands byte by byte: ATTACH_MCAST and DETACH_MCAST are
 * write() only, a 32-byte request (GID, QP handle, MLID) and no response,
 * and the kernel's errno comes back unchanged.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <rdma/ib_user_verbs.h>

#include "mock_kernel.h"
#include "test_util.h"

static const union ibv_gid group = {
	.raw = {0xff, 0x0e, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 224, 0, 1, 7},
};

/* The request after the 8-byte header: what the kernel reads. */
static void expect_request(unsigned int call, uint32_t command)
{
	/* in: 8 + 24 = 8 words; no response */
	mock_expect_write_hdr(call, command, 8, 0);
	assert_int_equal(mock_calls[call].len, 32);
	assert_memory_equal(mock_calls[call].bytes + 8, group.raw, 16);
	assert_int_equal(mock_u32_at(call, 24), 0x2a);	 /* qp_handle */
	assert_int_equal(mock_u32_at(call, 28), 0xc003); /* mlid, reserved 0 */
}

static void test_attach_detach(void **state)
{
	struct ibv_qp qp = {.context = &vctx->context, .handle = 0x2a};

	assert_int_equal(ibv_cmd_attach_mcast(&qp, &group, 0xc003), 0);
	assert_int_equal(ibv_cmd_detach_mcast(&qp, &group, 0xc003), 0);
	assert_int_equal(mock_num_calls, 2);
	expect_request(0, IB_USER_VERBS_CMD_ATTACH_MCAST);
	expect_request(1, IB_USER_VERBS_CMD_DETACH_MCAST);
}

static void test_kernel_errno(void **state)
{
	struct ibv_qp qp = {.context = &vctx->context, .handle = 0x2a};

	mock_write_handler = mock_fail_write_eio;
	errno = 0;
	assert_int_equal(ibv_cmd_attach_mcast(&qp, &group, 0xc003), EIO);
	assert_int_equal(errno, EIO);
	errno = 0;
	assert_int_equal(ibv_cmd_detach_mcast(&qp, &group, 0xc003), EIO);
	assert_int_equal(errno, EIO);
	assert_int_equal(mock_num_calls, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define W(fn)                                                                  \
	cmocka_unit_test_setup_teardown(fn, mock_setup_write, mock_teardown)
		W(test_attach_detach),
		W(test_kernel_errno),
#undef W
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
