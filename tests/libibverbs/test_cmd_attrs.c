// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The attribute builder and uverbs_cmd_execute(): inline vs pointer
 * payloads, size limits, fd -1, overflow, duplicate ids, the header the
 * kernel sees and the VALID_OUTPUT read-back.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mock_kernel.h"

static void test_inline_up_to_8_bytes(void **state)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DEVICE, 0, 2);
	const uint8_t eight[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	const uint8_t nine[9] = {9, 8, 7, 6, 5, 4, 3, 2, 1};
	struct ib_uverbs_attr *a8, *a9;

	a8 = uverbs_attr_in_ptr(cmd, 10, eight, sizeof(eight));
	a9 = uverbs_attr_in_ptr(cmd, 11, nine, sizeof(nine));
	assert_int_equal(a8->len, 8);
	assert_memory_equal(&a8->data, eight, 8);
	assert_int_equal(a9->len, 9);
	assert_int_equal(a9->data, (uintptr_t)nine);
	assert_int_equal(a8->flags, UVERBS_ATTR_F_MANDATORY);

	/* The kernel sees the same, and the 9 bytes behind the pointer. */
	assert_int_equal(uverbs_cmd_execute(&vctx->context, cmd), 0);
	mock_expect_attr(0, 0, 10, 8, 1, 0x0807060504030201ULL);
	mock_expect_attr(0, 1, 11, 9, 1, (uintptr_t)nine);
	assert_memory_equal(mock_calls[0].payload[1], nine, 9);
}

static void test_short_inline_is_zero_padded(void **state)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DEVICE, 0, 2);
	struct ib_uverbs_attr *a;

	a = uverbs_attr_in_u32(cmd, 3, 0xdeadbeef);
	assert_int_equal(a->len, 4);
	assert_int_equal(a->data, 0xdeadbeefULL);
	a = uverbs_attr_in_enum(cmd, 4, 7, "\x2a", 1);
	assert_int_equal(a->len, 1);
	assert_int_equal(a->data, 0x2a);
	assert_int_equal(a->attr_data.enum_data.elem_id, 7);
	assert_int_equal(a->attr_data.enum_data.reserved, 0);
}

static void test_out_ptr_never_inline(void **state)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DEVICE, 0, 1);
	uint32_t out;
	struct ib_uverbs_attr *a = uverbs_attr_out_ptr(cmd, 1, &out, 4);

	assert_int_equal(a->len, 4);
	assert_int_equal(a->data, (uintptr_t)&out);
}

static void test_max_payload_and_one_more(void **state)
{
	DECLARE_UVERBS_CMD(ok, UVERBS_OBJECT_DEVICE, 0, 1);
	DECLARE_UVERBS_CMD(big_in, UVERBS_OBJECT_DEVICE, 0, 1);
	DECLARE_UVERBS_CMD(big_out, UVERBS_OBJECT_DEVICE, 0, 1);
	uint8_t *buf = calloc(1, 65536);
	struct ib_uverbs_attr *a;

	a = uverbs_attr_in_ptr(ok, 1, buf, 65535);
	assert_int_equal(a->len, 65535);
	assert_int_equal(a->data, (uintptr_t)buf);
	assert_int_equal(uverbs_cmd_execute(&vctx->context, ok), 0);

	assert_null(uverbs_attr_in_ptr(big_in, 1, buf, 65536));
	assert_null(uverbs_attr_out_ptr(big_out, 1, buf, 65536));
	errno = 0;
	assert_int_equal(uverbs_cmd_execute(&vctx->context, big_in), EINVAL);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(uverbs_cmd_execute(&vctx->context, big_out), EINVAL);
	/* Only the valid command reached the kernel. */
	assert_int_equal(mock_num_calls, 1);
	free(buf);
}

static void test_fd_minus_one_is_omitted(void **state)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DEVICE, 0, 2);
	struct ib_uverbs_attr *a;

	assert_null(uverbs_attr_in_fd(cmd, 1, -1));
	assert_int_equal(cmd->num_attrs, 0);
	a = uverbs_attr_in_fd(cmd, 2, 5);
	assert_int_equal(cmd->num_attrs, 1);
	assert_int_equal(a->len, 0);
	assert_int_equal(a->data_s64, 5);
	assert_int_equal(uverbs_cmd_execute(&vctx->context, cmd), 0);
	mock_expect_hdr(0, UVERBS_OBJECT_DEVICE, 0, 1, RDMA_DRIVER_MLX5);
	mock_expect_attr(0, 0, 2, 0, 1, 5);
}

static void test_attribute_overflow(void **state)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DEVICE, 0, 1);
	unsigned int i;

	for (i = 0; i < 1 + UVERBS_CMD_CORE_SLACK; i++)
		assert_non_null(uverbs_attr_in_u64(cmd, (uint16_t)i, i));
	assert_null(uverbs_attr_in_u64(cmd, 100, 0));
	assert_null(uverbs_attr_optional(NULL));
	assert_int_equal(uverbs_cmd_execute(&vctx->context, cmd), EINVAL);
	assert_int_equal(mock_num_calls, 0);
}

static void test_duplicate_ids_rejected(void **state)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DEVICE, 0, 2);

	uverbs_attr_in_u64(cmd, 4, 1);
	uverbs_attr_in_obj(cmd, 4, 2);
	errno = 0;
	assert_int_equal(uverbs_cmd_execute(&vctx->context, cmd), EINVAL);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(mock_num_calls, 0);
}

/* The id bitmap only narrows the search: every pair is still compared. */
static void test_duplicate_ids_exact(void **state)
{
	static const uint16_t ids[] = {1, 0x1001, 2, 0x1000, 3, 0x1002, 2};
	DECLARE_UVERBS_CMD(dup, UVERBS_OBJECT_DEVICE, 0, 7);
	DECLARE_UVERBS_CMD(alias, UVERBS_OBJECT_DEVICE, 0, 2);
	size_t i;

	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		uverbs_attr_in_u32(dup, ids[i], 0);
	assert_int_equal(uverbs_cmd_execute(&vctx->context, dup), EINVAL);
	assert_int_equal(mock_num_calls, 0);
	/* 0 and 64 share a bit but are different ids: the kernel is asked. */
	uverbs_attr_in_u32(alias, 0, 0);
	uverbs_attr_in_u32(alias, 64, 0);
	assert_int_equal(uverbs_cmd_execute(&vctx->context, alias), 0);
	assert_int_equal(mock_num_calls, 1);
}

static void test_header_is_filled(void **state)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE, 0);

	/* Whatever a caller left there, the kernel sees zeros. */
	cmd->hdr.reserved1 = 0xffff;
	cmd->hdr.reserved2 = 0xffff;
	cmd->hdr.driver_id = 77;
	uverbs_attr_in_obj(cmd, 0, 0x12345678);
	assert_int_equal(uverbs_cmd_execute(&vctx->context, cmd), 0);
	assert_int_equal(mock_calls[0].fd, 1000);
	assert_int_equal(mock_calls[0].len, 40);
	mock_expect_hdr(0, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE, 1,
			RDMA_DRIVER_MLX5);
	mock_expect_attr(0, 0, 0, 0, 1, 0x12345678);
}

static int write_output(struct ib_uverbs_ioctl_hdr *hdr)
{
	struct ib_uverbs_attr *out = mock_find(hdr, 1);
	struct ib_uverbs_attr *obj = mock_find(hdr, 2);
	uint32_t value = 0xc0ffee;

	memcpy((void *)(uintptr_t)out->data, &value, sizeof(value));
	out->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
	obj->data = 42;
	return 0;
}

static void test_outputs_read_back(void **state)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DEVICE, 0, 3);
	struct ib_uverbs_attr *out, *obj, *opt;
	uint32_t value = 0, unused = 0;

	out = uverbs_attr_out_ptr(cmd, 1, &value, sizeof(value));
	obj = uverbs_attr_new_obj(cmd, 2);
	opt = uverbs_attr_optional(uverbs_attr_out_ptr(cmd, 3, &unused, 4));
	assert_int_equal(opt->flags, 0);
	mock_ioctl_handler = write_output;
	assert_int_equal(uverbs_cmd_execute(&vctx->context, cmd), 0);
	assert_true(uverbs_attr_is_valid(out));
	assert_false(uverbs_attr_is_valid(opt));
	assert_int_equal(value, 0xc0ffee);
	assert_int_equal(uverbs_attr_handle(obj), 42);
}

static int fail_with_eperm(struct ib_uverbs_ioctl_hdr *hdr)
{
	return EPERM;
}

static void test_kernel_error_is_positive_errno(void **state)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DEVICE, 0, 0);

	mock_ioctl_handler = fail_with_eperm;
	errno = 0;
	assert_int_equal(uverbs_cmd_execute(&vctx->context, cmd), EPERM);
	assert_int_equal(errno, EPERM);
}

static void test_pick_rejects_other_method(void **state)
{
	DECLARE_UVERBS_CMD(drv, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE, 0);
	DECLARE_UVERBS_CMD(core, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC, 0);
	DECLARE_UVERBS_CMD(same, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC, 0);

	assert_ptr_equal(uverbs_cmd_pick(NULL, core), core);
	assert_ptr_equal(uverbs_cmd_pick(same, core), same);
	assert_ptr_equal(uverbs_cmd_pick(drv, core), core);
	assert_int_equal(uverbs_cmd_execute(&vctx->context, core), EINVAL);
	assert_int_equal(mock_num_calls, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, mock_setup_write, mock_teardown)
		T(test_inline_up_to_8_bytes),
		T(test_short_inline_is_zero_padded),
		T(test_out_ptr_never_inline),
		T(test_max_payload_and_one_more),
		T(test_fd_minus_one_is_omitted),
		T(test_attribute_overflow),
		T(test_duplicate_ids_rejected),
		T(test_duplicate_ids_exact),
		T(test_header_is_filled),
		T(test_outputs_read_back),
		T(test_kernel_error_is_positive_errno),
		T(test_pick_rejects_other_method),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
