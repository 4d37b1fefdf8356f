// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Byte-exact ioctl encodings of the DM, dma-buf and MR commands, checked
 * against the uverbs ABI layouts (header, attribute ids, lengths, flags,
 * inline values), and what each helper makes of the kernel's answer.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mock_kernel.h"

static int answer_dm_alloc(struct ib_uverbs_ioctl_hdr *hdr)
{
	mock_find(hdr, UVERBS_ATTR_ALLOC_DM_HANDLE)->data = 0x55;
	return 0;
}

static void test_dm_alloc_bytes(void **state)
{
	const uint8_t expect[] = {
		/* length 72, object DM 14, method ALLOC 0, 3 attrs, mlx5 */
		HDR(72, 14, 0, 3, 1),
		/* HANDLE 0: IDR new, len 0, mandatory */
		ATTR(0, 0, 1, 0),
		/* LENGTH 1: u64 inline */
		ATTR(1, 8, 1, 4096),
		/* ALIGNMENT 2: u32 inline (log2) */
		ATTR(2, 4, 1, 6),
	};
	struct ibv_alloc_dm_attr attr = {.length = 4096, .log_align_req = 6};
	struct verbs_dm dm = {};

	mock_ioctl_handler = answer_dm_alloc;
	assert_int_equal(ibv_cmd_alloc_dm(&vctx->context, &attr, &dm, NULL), 0);
	assert_int_equal(mock_num_calls, 1);
	assert_int_equal(mock_calls[0].len, sizeof(expect));
	assert_memory_equal(mock_calls[0].bytes, expect, sizeof(expect));
	assert_int_equal(dm.handle, 0x55);
	assert_int_equal(dm.dm.handle, 0x55);
	assert_int_equal(dm.dm.comp_mask, IBV_DM_MASK_HANDLE);
	assert_ptr_equal(dm.dm.context, &vctx->context);
}

static void test_dm_alloc_keeps_driver_attrs(void **state)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC, 2);
	struct ibv_alloc_dm_attr attr = {.length = 64};
	struct verbs_dm dm = {};
	uint64_t start;
	uint16_t page;

	uverbs_attr_out_ptr(cmd, 0x1000, &start, sizeof(start));
	uverbs_attr_out_ptr(cmd, 0x1001, &page, sizeof(page));
	assert_int_equal(ibv_cmd_alloc_dm(&vctx->context, &attr, &dm, cmd), 0);
	mock_expect_hdr(0, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC, 5, 1);
	mock_expect_attr(0, 0, 0x1000, 8, 1, (uintptr_t)&start);
	mock_expect_attr(0, 1, 0x1001, 2, 1, (uintptr_t)&page);
	mock_expect_attr(0, 2, 0, 0, 1, 0);
	mock_expect_attr(0, 3, 1, 8, 1, 64);
	mock_expect_attr(0, 4, 2, 4, 1, 0);
}

static void test_dm_free_bytes(void **state)
{
	const uint8_t expect[] = {
		HDR(40, 14, 1, 1, 1),
		ATTR(0, 0, 1, 0x77),
	};
	struct verbs_dm dm = {.dm.context = &vctx->context, .handle = 0x77};

	assert_int_equal(ibv_cmd_free_dm(&dm), 0);
	assert_memory_equal(mock_calls[0].bytes, expect, sizeof(expect));
	mock_ioctl_handler = mock_fail_einval;
	assert_int_equal(ibv_cmd_free_dm(&dm), EINVAL);
}

static int answer_dmabuf(struct ib_uverbs_ioctl_hdr *hdr)
{
	mock_find(hdr, 0)->data = 23;
	return 0;
}

static void test_dmabuf_alloc_bytes(void **state)
{
	const uint8_t expect[] = {
		/* object DMABUF 18, method ALLOC 0, 2 attrs */
		HDR(56, 18, 0, 2, 1),
		/* HANDLE 0: FD new, len 0, data 0 */
		ATTR(0, 0, 1, 0),
		/* PGOFF 1: the mmap byte offset, u64 inline */
		ATTR(1, 8, 1, 0x10823000),
	};

	mock_ioctl_handler = answer_dmabuf;
	assert_int_equal(ibv_cmd_export_dmabuf_fd(&vctx->context, 0x10823000),
			 23);
	assert_int_equal(mock_calls[0].len, sizeof(expect));
	assert_memory_equal(mock_calls[0].bytes, expect, sizeof(expect));
}

static void test_dmabuf_errors(void **state)
{
	/* A kernel without the DMABUF object: "not supported". */
	mock_ioctl_handler = mock_fail_eprotonosupport;
	errno = 0;
	assert_int_equal(ibv_cmd_export_dmabuf_fd(&vctx->context, 0), -1);
	assert_int_equal(errno, EOPNOTSUPP);
	/* Anything else passes through unchanged. */
	mock_ioctl_handler = mock_fail_einval;
	assert_int_equal(ibv_cmd_export_dmabuf_fd(&vctx->context, 0), -1);
	assert_int_equal(errno, EINVAL);
}

static int answer_mr(struct ib_uverbs_ioctl_hdr *hdr, uint16_t handle_id,
		     uint16_t lkey_id, uint16_t rkey_id)
{
	uint32_t lkey = 0x1111, rkey = 0x2222;

	mock_find(hdr, handle_id)->data = 9;
	memcpy((void *)(uintptr_t)mock_find(hdr, lkey_id)->data, &lkey, 4);
	memcpy((void *)(uintptr_t)mock_find(hdr, rkey_id)->data, &rkey, 4);
	return 0;
}

static int answer_dm_mr(struct ib_uverbs_ioctl_hdr *hdr)
{
	return answer_mr(hdr, 0, 6, 7);
}

static void test_reg_dm_mr(void **state)
{
	struct ibv_pd pd = {.context = &vctx->context, .handle = 3};
	struct verbs_dm dm = {.dm.context = &vctx->context, .handle = 4};
	unsigned int access = IBV_ACCESS_ZERO_BASED | IBV_ACCESS_LOCAL_WRITE;
	struct verbs_mr mr = {};

	/* Without ZERO_BASED: refused before any syscall. */
	assert_int_equal(ibv_cmd_reg_dm_mr(&pd, &dm, 0, 64,
					   IBV_ACCESS_LOCAL_WRITE, &mr, NULL),
			 EINVAL);
	assert_int_equal(mock_num_calls, 0);

	mock_ioctl_handler = answer_dm_mr;
	assert_int_equal(ibv_cmd_reg_dm_mr(&pd, &dm, 16, 64, access, &mr, NULL),
			 0);
	mock_expect_hdr(0, UVERBS_OBJECT_MR, UVERBS_METHOD_DM_MR_REG, 8, 1);
	mock_expect_attr(0, 0, 0, 0, 1, 0);	   /* HANDLE, new */
	mock_expect_attr(0, 1, 1, 8, 1, 16);	   /* OFFSET */
	mock_expect_attr(0, 2, 2, 8, 1, 64);	   /* LENGTH */
	mock_expect_attr(0, 3, 3, 0, 1, 3);	   /* PD_HANDLE */
	mock_expect_attr(0, 4, 4, 4, 1, access);   /* ACCESS_FLAGS */
	mock_expect_attr(0, 5, 5, 0, 1, 4);	   /* DM_HANDLE */
	mock_expect_attr(0, 6, 6, 4, 1, MOCK_ANY); /* RESP_LKEY */
	mock_expect_attr(0, 7, 7, 4, 1, MOCK_ANY); /* RESP_RKEY */
	assert_int_equal(mr.ibv_mr.handle, 9);
	assert_int_equal(mr.ibv_mr.lkey, 0x1111);
	assert_int_equal(mr.ibv_mr.rkey, 0x2222);
	assert_null(mr.ibv_mr.addr);
	assert_int_equal(mr.ibv_mr.length, 64);
	assert_ptr_equal(mr.ibv_mr.pd, &pd);
	assert_int_equal(mr.mr_type, IBV_MR_TYPE_MR);
}

static int answer_dmabuf_mr(struct ib_uverbs_ioctl_hdr *hdr)
{
	return answer_mr(hdr, 0, 7, 8);
}

static void test_reg_dmabuf_mr(void **state)
{
	struct ibv_pd pd = {.context = &vctx->context, .handle = 5};
	struct verbs_mr mr = {};

	mock_ioctl_handler = answer_dmabuf_mr;
	assert_int_equal(ibv_cmd_reg_dmabuf_mr(&pd, 0x1000, 0x2000, 0x7000, 7,
					       IBV_ACCESS_REMOTE_READ, &mr,
					       NULL),
			 0);
	mock_expect_hdr(0, UVERBS_OBJECT_MR, UVERBS_METHOD_REG_DMABUF_MR, 9, 1);
	mock_expect_attr(0, 0, 0, 0, 1, 0);	 /* HANDLE */
	mock_expect_attr(0, 1, 1, 0, 1, 5);	 /* PD_HANDLE */
	mock_expect_attr(0, 2, 2, 8, 1, 0x1000); /* OFFSET */
	mock_expect_attr(0, 3, 3, 8, 1, 0x2000); /* LENGTH */
	mock_expect_attr(0, 4, 4, 8, 1, 0x7000); /* IOVA */
	mock_expect_attr(0, 5, 5, 4, 1, 7);	 /* FD: a u32 value */
	mock_expect_attr(0, 6, 6, 4, 1, IBV_ACCESS_REMOTE_READ);
	mock_expect_attr(0, 7, 7, 4, 1, MOCK_ANY); /* RESP_LKEY */
	mock_expect_attr(0, 8, 8, 4, 1, MOCK_ANY); /* RESP_RKEY */
	assert_int_equal(mr.ibv_mr.lkey, 0x1111);
	assert_int_equal(mr.mr_type, IBV_MR_TYPE_DMABUF_MR);
	assert_int_equal(mr.access, IBV_ACCESS_REMOTE_READ);
}

static int answer_query_mr(struct ib_uverbs_ioctl_hdr *hdr)
{
	uint64_t length = 0x3000;

	memcpy((void *)(uintptr_t)mock_find(hdr, 3)->data, &length, 8);
	return answer_mr(hdr, 0, 1, 2);
}

/* ibv_import_mr's QUERY_MR: no IOVA asked, the MR is of the given PD. */
static void test_query_mr(void **state)
{
	struct ibv_pd pd = {.context = &vctx->context, .handle = 6};
	struct verbs_mr mr = {.ibv_mr.addr = &pd};

	mock_ioctl_handler = answer_query_mr;
	assert_int_equal(ibv_cmd_query_mr(&pd, &mr, 12), 0);
	mock_expect_hdr(0, UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR, 4, 1);
	mock_expect_attr(0, 0, 0, 0, 1, 12);	   /* HANDLE, in */
	mock_expect_attr(0, 1, 1, 4, 1, MOCK_ANY); /* RESP_LKEY */
	mock_expect_attr(0, 2, 2, 4, 1, MOCK_ANY); /* RESP_RKEY */
	mock_expect_attr(0, 3, 3, 8, 1, MOCK_ANY); /* RESP_LENGTH */
	assert_int_equal(mr.ibv_mr.handle, 12);
	assert_int_equal(mr.ibv_mr.lkey, 0x1111);
	assert_int_equal(mr.ibv_mr.rkey, 0x2222);
	assert_int_equal(mr.ibv_mr.length, 0x3000);
	assert_null(mr.ibv_mr.addr);
	assert_ptr_equal(mr.ibv_mr.pd, &pd);
	assert_ptr_equal(mr.ibv_mr.context, &vctx->context);
	assert_int_equal(mr.mr_type, IBV_MR_TYPE_IMPORTED_MR);

	/* The kernel's error, as is; an old kernel's is EOPNOTSUPP. */
	mock_ioctl_handler = mock_fail_einval;
	assert_int_equal(ibv_cmd_query_mr(&pd, &mr, 12), EINVAL);
	mock_ioctl_handler = mock_fail_eprotonosupport;
	assert_int_equal(ibv_cmd_query_mr(&pd, &mr, 12), EOPNOTSUPP);
}

/* ioctl-only commands: "the kernel lacks it" is EOPNOTSUPP for callers. */
static void test_missing_method_is_eopnotsupp(void **state)
{
	static const mock_ioctl_fn missing[] = {mock_fail_eprotonosupport,
						mock_fail_enotty};
	struct ibv_alloc_dm_attr attr = {.length = 64};
	struct ibv_pd pd = {.context = &vctx->context};
	struct verbs_dm dm = {.dm.context = &vctx->context};
	struct verbs_mr mr;
	size_t i;

	for (i = 0; i < 2; i++) {
		mock_ioctl_handler = missing[i];
		assert_int_equal(
			ibv_cmd_alloc_dm(&vctx->context, &attr, &dm, NULL),
			EOPNOTSUPP);
		assert_int_equal(ibv_cmd_free_dm(&dm), EOPNOTSUPP);
		assert_int_equal(ibv_cmd_reg_dm_mr(&pd, &dm, 0, 4,
						   IBV_ACCESS_ZERO_BASED, &mr,
						   NULL),
				 EOPNOTSUPP);
		errno = 0;
		assert_int_equal(
			ibv_cmd_reg_dmabuf_mr(&pd, 0, 4, 0, 3, 0, &mr, NULL),
			EOPNOTSUPP);
		assert_int_equal(errno, EOPNOTSUPP);
	}
	/* Real errors are not rewritten. */
	mock_ioctl_handler = mock_fail_einval;
	assert_int_equal(ibv_cmd_alloc_dm(&vctx->context, &attr, &dm, NULL),
			 EINVAL);
	/* Every attempt reached the "kernel": no op is remembered. */
	assert_int_equal(mock_num_calls, 9);
}

static void test_async_fd_alloc(void **state)
{
	mock_ioctl_handler = answer_dmabuf;
	assert_int_equal(verbs_cmd_alloc_async_fd(&vctx->context), 0);
	mock_expect_hdr(0, UVERBS_OBJECT_ASYNC_EVENT,
			UVERBS_METHOD_ASYNC_EVENT_ALLOC, 1, 1);
	mock_expect_attr(0, 0, 0, 0, 1, 0);
	assert_int_equal(vctx->context.async_fd, 23);
	vctx->context.async_fd = -1; /* not a real fd: keep uninit quiet */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, mock_setup_ioctl, mock_teardown)
		T(test_dm_alloc_bytes), T(test_dm_alloc_keeps_driver_attrs),
		T(test_dm_free_bytes),	T(test_dmabuf_alloc_bytes),
		T(test_dmabuf_errors),	T(test_reg_dm_mr),
		T(test_reg_dmabuf_mr),	T(test_query_mr),
		T(test_missing_method_is_eopnotsupp),
		T(test_async_fd_alloc),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
