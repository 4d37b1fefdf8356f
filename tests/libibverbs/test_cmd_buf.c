// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Byte-exact ioctl encodings of the commands behind IBVERBS_1.15-1.18:
 * REG_MR (MR method 5) on its address and dma-buf paths, DMAH alloc and
 * free, and the completion-counter object with its DEVICE and QP methods;
 * the fallbacks and errnos around them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mock_kernel.h"

#define PD_HANDLE 0x11
#define DMAH_HANDLE 0x22
#define MR_HANDLE 0x99
#define CC_HANDLE 0x44
#define QP_HANDLE 0x33

static void put_out(struct ib_uverbs_ioctl_hdr *hdr, uint16_t id,
		    const void *val, size_t len)
{
	struct ib_uverbs_attr *a = mock_find(hdr, id);

	assert_non_null(a);
	assert_int_equal(a->len, len);
	memcpy((void *)(uintptr_t)a->data, val, len);
	a->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
}

static int answer_reg_mr(struct ib_uverbs_ioctl_hdr *hdr)
{
	uint32_t lkey = 0x1234, rkey = 0x5678;

	mock_find(hdr, RDMA_DM_ATTR_REG_MR_HANDLE)->data = MR_HANDLE;
	put_out(hdr, RDMA_DM_ATTR_REG_MR_RESP_LKEY, &lkey, sizeof(lkey));
	put_out(hdr, RDMA_DM_ATTR_REG_MR_RESP_RKEY, &rkey, sizeof(rkey));
	return 0;
}

/* The first @n bytes of call 0 are @expect. */
static void expect_prefix(const uint8_t *expect, size_t n)
{
	assert_true(mock_num_calls >= 1);
	assert_memory_equal(mock_calls[0].bytes, expect, n);
}

static void test_reg_mr_ex_addr_bytes(void **state)
{
	static char buf[8192];
	struct ibv_pd pd = {.context = &vctx->context, .handle = PD_HANDLE};
	struct ibv_mr_init_attr a = {
		.length = 4096,
		.access = 7,
		.comp_mask = IBV_REG_MR_MASK_ADDR,
		.addr = buf + 4096,
	};
	const uint8_t expect[] = {
		HDR(152, 7, 5, 8, 1),
		ATTR(0, 0, 1, 0),			/* HANDLE new */
		ATTR(1, 0, 1, PD_HANDLE),		/* PD */
		ATTR(3, 8, 1, (uintptr_t)(buf + 4096)), /* IOVA = addr */
		ATTR(5, 8, 1, 4096),			/* LENGTH */
		ATTR(6, 4, 1, 7),			/* ACCESS */
		ATTR(4, 8, 1, (uintptr_t)(buf + 4096)), /* ADDR */
	};
	struct verbs_mr vmr = {};

	mock_ioctl_handler = answer_reg_mr;
	assert_int_equal(ibv_cmd_reg_mr_ex(&pd, &vmr, &a), 0);
	assert_int_equal(mock_num_calls, 1);
	assert_int_equal(mock_calls[0].len, 152);
	expect_prefix(expect, sizeof(expect));
	mock_expect_attr(0, 6, 9, 4, 1, MOCK_ANY);
	mock_expect_attr(0, 7, 10, 4, 1, MOCK_ANY);
	assert_int_equal(vmr.ibv_mr.handle, MR_HANDLE);
	assert_int_equal(vmr.ibv_mr.lkey, 0x1234);
	assert_int_equal(vmr.ibv_mr.rkey, 0x5678);
	assert_ptr_equal(vmr.ibv_mr.addr, buf + 4096);
	assert_int_equal(vmr.mr_type, IBV_MR_TYPE_MR);

	/* A caller IOVA replaces the address as the device's view. */
	mock_reset();
	mock_ioctl_handler = answer_reg_mr;
	a.comp_mask |= IBV_REG_MR_MASK_IOVA;
	a.iova = 0x7000;
	assert_int_equal(ibv_cmd_reg_mr_ex(&pd, &vmr, &a), 0);
	mock_expect_attr(0, 2, 3, 8, 1, 0x7000);
}

static void test_reg_mr_ex_dmah_and_fd_bytes(void **state)
{
	struct verbs_dmah dmah = {.dmah.context = &vctx->context,
				  .handle = DMAH_HANDLE};
	struct ibv_pd pd = {.context = &vctx->context, .handle = PD_HANDLE};
	struct ibv_mr_init_attr a = {
		.length = 8192,
		.access = 1,
		.comp_mask = IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET |
			     IBV_REG_MR_MASK_IOVA | IBV_REG_MR_MASK_DMAH,
		.fd = 9,
		.fd_offset = 4096,
		.iova = 0x200000,
		.dmah = &dmah.dmah,
	};
	const uint8_t expect[] = {
		HDR(184, 7, 5, 10, 1),
		ATTR(0, 0, 1, 0),
		ATTR(1, 0, 1, PD_HANDLE),
		ATTR(2, 0, 1, DMAH_HANDLE), /* DMA_HANDLE: obj in */
		ATTR(3, 8, 1, 0x200000),
		ATTR(5, 8, 1, 8192),
		ATTR(6, 4, 1, 1),
		ATTR(7, 0, 1, 9),	    /* FD: raw fd, len 0 */
		ATTR(8, 8, 1, 4096),	    /* FD_OFFSET */
	};
	struct verbs_mr vmr = {};

	mock_ioctl_handler = answer_reg_mr;
	assert_int_equal(ibv_cmd_reg_mr_ex(&pd, &vmr, &a), 0);
	expect_prefix(expect, sizeof(expect));
	assert_ptr_equal(vmr.ibv_mr.addr, (void *)4096);
	assert_int_equal(vmr.mr_type, IBV_MR_TYPE_DMABUF_MR);
}

/* Contradictory masks never reach the kernel. */
static void test_reg_mr_ex_einval(void **state)
{
	static char buf[64];
	struct ibv_pd pd = {.context = &vctx->context, .handle = PD_HANDLE};
	static const uint64_t masks[] = {
		0,
		IBV_REG_MR_MASK_IOVA,
		IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_FD_OFFSET,
		IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET,
		IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_IOVA,
		IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET |
			IBV_REG_MR_MASK_IOVA | IBV_REG_MR_MASK_ADDR,
	};
	struct ibv_mr_init_attr a = {.length = 64, .addr = buf, .fd = 3};
	struct verbs_mr vmr = {};
	size_t i;

	for (i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		a.comp_mask = masks[i];
		errno = 0;
		assert_int_equal(ibv_cmd_reg_mr_ex(&pd, &vmr, &a), EINVAL);
		assert_int_equal(errno, EINVAL);
	}
	/* Implicit ODP is the whole address space: no address allowed. */
	a.comp_mask = IBV_REG_MR_MASK_ADDR;
	a.access = IBV_ACCESS_ON_DEMAND;
	a.length = SIZE_MAX;
	assert_int_equal(ibv_cmd_reg_mr_ex(&pd, &vmr, &a), EINVAL);
	assert_int_equal(mock_num_calls, 0);

	a.addr = NULL;
	mock_ioctl_handler = answer_reg_mr;
	assert_int_equal(ibv_cmd_reg_mr_ex(&pd, &vmr, &a), 0);
	mock_expect_attr(0, 3, 5, 8, 1, UINT64_MAX);
}

static int answer_write_reg_mr(const void *buf, size_t len)
{
	struct ib_uverbs_reg_mr_resp resp = {
		.mr_handle = 5, .lkey = 6, .rkey = 7};

	memcpy(mock_write_response(buf), &resp, sizeof(resp));
	return 0;
}

/* A kernel without REG_MR: write() for a plain range, nothing else. */
static void test_reg_mr_ex_without_method(void **state)
{
	static char buf[4096];
	struct verbs_dmah dmah = {.dmah.context = &vctx->context};
	struct ibv_pd pd = {.context = &vctx->context, .handle = PD_HANDLE};
	struct ibv_mr_init_attr a = {
		.length = sizeof(buf),
		.comp_mask = IBV_REG_MR_MASK_ADDR,
		.addr = buf,
	};
	struct verbs_mr vmr = {};

	mock_ioctl_handler = mock_fail_eprotonosupport;
	mock_write_handler = answer_write_reg_mr;
	assert_int_equal(ibv_cmd_reg_mr_ex(&pd, &vmr, &a), 0);
	assert_int_equal(mock_num_calls, 2);
	mock_expect_write_hdr(1, IB_USER_VERBS_CMD_REG_MR, 12, 3);
	assert_int_equal(mock_u64_at(1, 16), (uintptr_t)buf); /* start */
	assert_int_equal(mock_u64_at(1, 32), (uintptr_t)buf); /* hca_va */
	assert_int_equal(vmr.ibv_mr.lkey, 6);

	/* The missing method is remembered; DMAH and fd have no write. */
	mock_reset();
	a.comp_mask |= IBV_REG_MR_MASK_DMAH;
	a.dmah = &dmah.dmah;
	errno = 0;
	assert_int_equal(ibv_cmd_reg_mr_ex(&pd, &vmr, &a), EOPNOTSUPP);
	assert_int_equal(errno, EOPNOTSUPP);
	a.comp_mask = IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET |
		      IBV_REG_MR_MASK_IOVA;
	assert_int_equal(ibv_cmd_reg_mr_ex(&pd, &vmr, &a), EOPNOTSUPP);
	assert_int_equal(mock_num_calls, 0);
}

static int answer_dmah(struct ib_uverbs_ioctl_hdr *hdr)
{
	mock_find(hdr, RDMA_DM_ATTR_ALLOC_DMAH_HANDLE)->data = DMAH_HANDLE;
	return 0;
}

static void test_dmah_alloc_free_bytes(void **state)
{
	struct ibv_dmah_init_attr attr = {
		.comp_mask = IBV_DMAH_INIT_ATTR_MASK_CPU_ID |
			     IBV_DMAH_INIT_ATTR_MASK_PH |
			     IBV_DMAH_INIT_ATTR_MASK_TPH_MEM_TYPE,
		.cpu_id = 3,
		.ph = 2,
		.tph_mem_type = IBV_TPH_MEM_TYPE_PM,
	};
	const uint8_t expect[] = {
		HDR(88, 17, 0, 4, 1),
		ATTR(0, 0, 1, 0),
		ATTR(1, 4, 1, 3),
		/* TPH_MEM_TYPE: an enum, the type is elem_id, no payload */
		U16(2), U16(0), U16(1), 1, 0, U64(0),
		ATTR(3, 1, 1, 2), /* PH: one byte inline */
	};
	const uint8_t expect_free[] = {
		HDR(40, 17, 1, 1, 1),
		ATTR(0, 0, 1, DMAH_HANDLE),
	};
	struct verbs_dmah dmah = {};

	mock_ioctl_handler = answer_dmah;
	assert_int_equal(ibv_cmd_alloc_dmah(&vctx->context, &dmah, &attr), 0);
	assert_int_equal(mock_calls[0].len, sizeof(expect));
	assert_memory_equal(mock_calls[0].bytes, expect, sizeof(expect));
	assert_int_equal(dmah.handle, DMAH_HANDLE);
	assert_ptr_equal(dmah.dmah.context, &vctx->context);

	/* Only what the mask names is sent. */
	mock_reset();
	mock_ioctl_handler = answer_dmah;
	attr.comp_mask = IBV_DMAH_INIT_ATTR_MASK_PH;
	assert_int_equal(ibv_cmd_alloc_dmah(&vctx->context, &dmah, &attr), 0);
	mock_expect_hdr(0, 17, 0, 2, 1);
	mock_expect_attr(0, 1, 3, 1, 1, 2);

	mock_reset();
	assert_int_equal(ibv_cmd_free_dmah(&dmah), 0);
	assert_memory_equal(mock_calls[0].bytes, expect_free,
			    sizeof(expect_free));
	/* A disassociated device already freed it. */
	mock_ioctl_handler = mock_fail_eio;
	assert_int_equal(ibv_cmd_free_dmah(&dmah), 0);
	/* A kernel without the object. */
	mock_ioctl_handler = mock_fail_eprotonosupport;
	assert_int_equal(ibv_cmd_alloc_dmah(&vctx->context, &dmah, &attr),
			 EOPNOTSUPP);
}

static int answer_caps(struct ib_uverbs_ioctl_hdr *hdr)
{
	uint32_t max = 64, ops = 0x3f | 0x40; /* 0x40: not a verbs op */
	uint64_t value = UINT64_MAX >> 1;

	put_out(hdr, 0, &max, sizeof(max));
	put_out(hdr, 1, &value, sizeof(value));
	put_out(hdr, 2, &ops, sizeof(ops));
	return 0;
}

static void test_comp_cntr_caps_bytes(void **state)
{
	struct ibv_comp_cntr_caps caps = {};

	assert_int_equal(ibv_cmd_query_comp_cntr_caps(&vctx->context, &caps,
						      sizeof(caps) - 1),
			 EINVAL);
	assert_int_equal(mock_num_calls, 0);

	mock_ioctl_handler = answer_caps;
	assert_int_equal(ibv_cmd_query_comp_cntr_caps(&vctx->context, &caps,
						      sizeof(caps)),
			 0);
	mock_expect_hdr(0, UVERBS_OBJECT_DEVICE, 8, 3, 1);
	mock_expect_attr(0, 0, 0, 4, 1, MOCK_ANY);
	mock_expect_attr(0, 1, 1, 8, 1, MOCK_ANY);
	mock_expect_attr(0, 2, 2, 4, 1, MOCK_ANY);
	assert_int_equal(caps.max_counters, 64);
	assert_int_equal(caps.max_value, UINT64_MAX >> 1);
	assert_int_equal(caps.supported_qp_attach_ops, 0x3f);
}

static int answer_cc_create(struct ib_uverbs_ioctl_hdr *hdr)
{
	mock_find(hdr, 0)->data = CC_HANDLE;
	return 0;
}

static void test_comp_cntr_create_destroy_bytes(void **state)
{
	const uint8_t create[] = {HDR(40, 19, 0, 1, 1), ATTR(0, 0, 1, 0)};
	const uint8_t destroy[] = {HDR(40, 19, 1, 1, 1),
				   ATTR(0, 0, 1, CC_HANDLE)};
	struct ibv_comp_cntr cc = {};

	mock_ioctl_handler = answer_cc_create;
	assert_int_equal(ibv_cmd_create_comp_cntr(&vctx->context, &cc, NULL),
			 0);
	assert_memory_equal(mock_calls[0].bytes, create, sizeof(create));
	assert_int_equal(cc.handle, CC_HANDLE);
	assert_ptr_equal(cc.context, &vctx->context);

	mock_reset();
	assert_int_equal(ibv_cmd_destroy_comp_cntr(&cc), 0);
	assert_memory_equal(mock_calls[0].bytes, destroy, sizeof(destroy));
	mock_ioctl_handler = mock_fail_eio;
	assert_int_equal(ibv_cmd_destroy_comp_cntr(&cc), 0);
	/* mlx5 and rxe kernels have no such object. */
	mock_ioctl_handler = mock_fail_eprotonosupport;
	assert_int_equal(ibv_cmd_create_comp_cntr(&vctx->context, &cc, NULL),
			 EOPNOTSUPP);
}

static void test_comp_cntr_modify_bytes(void **state)
{
	static const struct {
		int (*fn)(struct ibv_comp_cntr *, uint64_t);
		uint64_t entry, op;
	} cases[] = {
		{ibv_cmd_set_comp_cntr, 0, 0},
		{ibv_cmd_set_err_comp_cntr, 1, 0},
		{ibv_cmd_inc_comp_cntr, 0, 1},
		{ibv_cmd_inc_err_comp_cntr, 1, 1},
	};
	struct ibv_comp_cntr cc = {.context = &vctx->context,
				   .handle = CC_HANDLE};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const uint8_t expect[] = {
			HDR(88, 19, 2, 4, 1),
			ATTR(0, 0, 1, CC_HANDLE),
			ATTR(1, 8, 1, cases[i].entry),
			ATTR(2, 8, 1, cases[i].op),
			ATTR(3, 8, 1, 1000 + i),
		};

		mock_reset();
		assert_int_equal(cases[i].fn(&cc, 1000 + i), 0);
		assert_int_equal(mock_calls[0].len, sizeof(expect));
		assert_memory_equal(mock_calls[0].bytes, expect,
				    sizeof(expect));
	}
}

static int answer_read(struct ib_uverbs_ioctl_hdr *hdr)
{
	uint64_t v = 0x100 + mock_find(hdr, 1)->data;

	put_out(hdr, 2, &v, sizeof(v));
	return 0;
}

static void test_comp_cntr_read_bytes(void **state)
{
	struct ibv_comp_cntr cc = {.context = &vctx->context,
				   .handle = CC_HANDLE};
	const uint8_t expect[] = {
		HDR(72, 19, 3, 3, 1),
		ATTR(0, 0, 1, CC_HANDLE),
		ATTR(1, 8, 1, 1), /* ENTRY: the error count */
	};
	uint64_t v = 0;

	mock_ioctl_handler = answer_read;
	assert_int_equal(ibv_cmd_read_comp_cntr(&cc, &v), 0);
	assert_int_equal(v, 0x100);
	assert_int_equal(ibv_cmd_read_err_comp_cntr(&cc, &v), 0);
	assert_int_equal(v, 0x101);
	assert_memory_equal(mock_calls[1].bytes, expect, sizeof(expect));
	mock_expect_attr(1, 2, 2, 8, 1, (uintptr_t)&v);
}

static void test_qp_attach_comp_cntr_bytes(void **state)
{
	struct ibv_qp qp = {.context = &vctx->context, .handle = QP_HANDLE};
	struct ibv_comp_cntr cc = {.context = &vctx->context,
				   .handle = CC_HANDLE};
	struct ibv_qp_attach_comp_cntr_attr attr = {
		.comp_mask = 0xff, /* not looked at */
		.op_mask = IBV_QP_ATTACH_COMP_CNTR_OP_SEND |
			   IBV_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_WRITE |
			   0x80, /* unknown: dropped */
	};
	const uint8_t expect[] = {
		HDR(72, 4, 2, 3, 1),
		ATTR(0, 0, 1, QP_HANDLE),
		ATTR(1, 0, 1, CC_HANDLE),
		ATTR(2, 4, 1, 0x21),
	};

	assert_int_equal(ibv_cmd_qp_attach_comp_cntr(&qp, &cc, &attr), 0);
	assert_int_equal(mock_calls[0].len, sizeof(expect));
	assert_memory_equal(mock_calls[0].bytes, expect, sizeof(expect));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, mock_setup_write, mock_teardown)
		T(test_reg_mr_ex_addr_bytes),
		T(test_reg_mr_ex_dmah_and_fd_bytes),
		T(test_reg_mr_ex_einval),
		T(test_reg_mr_ex_without_method),
		T(test_dmah_alloc_free_bytes),
		T(test_comp_cntr_caps_bytes),
		T(test_comp_cntr_create_destroy_bytes),
		T(test_comp_cntr_modify_bytes),
		T(test_comp_cntr_read_bytes),
		T(test_qp_attach_comp_cntr_bytes),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
