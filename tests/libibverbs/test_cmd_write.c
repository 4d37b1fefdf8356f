// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Legacy write() framing (plain and extended headers), the INVOKE_WRITE
 * tunnel, and the ioctl -> write() fallback rules: ENOTTY marks every
 * op, EPROTONOSUPPORT one op, mandatory driver attributes forbid it.
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

static int setup_write(void **state)
{
	mock_setup_write(state);
	assert_false(get_priv(&vctx->context)->use_ioctl_write);
	return 0;
}

static int setup_tunnel(void **state)
{
	mock_setup_ioctl(state);
	assert_true(get_priv(&vctx->context)->use_ioctl_write);
	return 0;
}

static uint32_t u32_at(const uint8_t *buf, size_t off)
{
	uint32_t v;

	memcpy(&v, buf + off, sizeof(v));
	return v;
}

static uint64_t u64_at(const uint8_t *buf, size_t off)
{
	uint64_t v;

	memcpy(&v, buf + off, sizeof(v));
	return v;
}

#define response_of mock_write_response
#define expect_write_hdr mock_expect_write_hdr

/* ALLOC_PD answers pd_handle 0x31 and 4 driver bytes. */
static int answer_alloc_pd(const void *buf, size_t len)
{
	uint8_t resp[8] = {0x31, 0, 0, 0, 0xaa, 0xbb, 0xcc, 0xdd};

	memcpy(response_of(buf), resp, sizeof(resp));
	return 0;
}

static void test_alloc_pd_write_framing(void **state)
{
	uint32_t drv_in[2] = {0x01020304, 0x05060708}, drv_out = 0;
	struct ibv_udata udata = {drv_in, 8, &drv_out, 4};
	struct ibv_pd pd = {};

	mock_write_handler = answer_alloc_pd;
	assert_int_equal(ibv_cmd_alloc_pd(&vctx->context, &pd, &udata), 0);
	assert_int_equal(mock_num_calls, 1);
	assert_int_equal(mock_calls[0].len, 24);
	assert_int_equal(mock_calls[0].fd, 1000);
	/* in: hdr 8 + core 8 + driver 8 = 6 words; out: 4 + 4 = 2 words */
	expect_write_hdr(0, IB_USER_VERBS_CMD_ALLOC_PD, 6, 2);
	assert_non_null(response_of(mock_calls[0].bytes));
	assert_memory_equal(mock_calls[0].bytes + 16, drv_in, 8);
	assert_int_equal(pd.handle, 0x31);
	assert_ptr_equal(pd.context, &vctx->context);
	assert_int_equal(drv_out, 0xddccbbaa);
}

static void test_alloc_pd_tunnelled(void **state)
{
	uint32_t drv_in = 7, drv_out;
	struct ibv_udata udata = {&drv_in, 4, &drv_out, 4};
	struct ibv_pd pd;

	assert_int_equal(ibv_cmd_alloc_pd(&vctx->context, &pd, &udata), 0);
	assert_int_equal(mock_calls[0].kind, MOCK_IOCTL);
	mock_expect_hdr(0, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE, 5,
			1);
	mock_expect_attr(0, 0, UVERBS_ATTR_WRITE_CMD, 8, 1,
			 IB_USER_VERBS_CMD_ALLOC_PD);
	mock_expect_attr(0, 1, UVERBS_ATTR_CORE_IN, 8, 1, MOCK_ANY);
	mock_expect_attr(0, 2, UVERBS_ATTR_CORE_OUT, 4, 1, MOCK_ANY);
	mock_expect_attr(0, 3, UVERBS_ATTR_UHW_IN, 4, 1, 7);
	mock_expect_attr(0, 4, UVERBS_ATTR_UHW_OUT, 4, 1, (uintptr_t)&drv_out);
}

static void test_bad_udata_length(void **state)
{
	uint8_t drv[3];
	struct ibv_udata udata = {drv, 3, NULL, 0};
	struct ibv_pd pd;

	assert_int_equal(ibv_cmd_alloc_pd(&vctx->context, &pd, &udata), EINVAL);
	assert_int_equal(mock_num_calls, 0);
}

static void test_reg_mr_framing(void **state)
{
	struct ibv_pd pd = {.context = &vctx->context, .handle = 0x44};
	uint8_t buf[64];
	struct verbs_mr mr;
	const uint8_t *req;

	assert_int_equal(
		ibv_cmd_reg_mr(&pd, buf, sizeof(buf), 0x9000, 7, &mr, NULL), 0);
	/* 8 + 40 bytes in, 12 bytes (handle, lkey, rkey) out */
	expect_write_hdr(0, IB_USER_VERBS_CMD_REG_MR, 12, 3);
	req = mock_calls[0].bytes + 8;
	assert_int_equal(u64_at(req, 8), (uintptr_t)buf);
	assert_int_equal(u64_at(req, 16), sizeof(buf));
	assert_int_equal(u64_at(req, 24), 0x9000);
	assert_int_equal(u32_at(req, 32), 0x44);
	assert_int_equal(u32_at(req, 36), 7);
	assert_ptr_equal(mr.ibv_mr.addr, buf);
}

static int answer_query_device(const void *buf, size_t len)
{
	struct ib_uverbs_query_device_resp *resp = response_of(buf);

	resp->fw_ver = (16ULL << 32) | (35ULL << 16) | 2004;
	resp->max_qp = 1234;
	resp->phys_port_cnt = 2;
	return 0;
}

static void test_query_device_legacy_framing(void **state)
{
	struct ibv_device_attr_ex attr;

	mock_write_handler = answer_query_device;
	assert_int_equal(ibv_cmd_query_device_any(&vctx->context, NULL, &attr,
						  sizeof(attr.orig_attr), NULL),
			 0);
	/* 8 + 8 in; the 176-byte response */
	expect_write_hdr(0, IB_USER_VERBS_CMD_QUERY_DEVICE, 4, 44);
	assert_string_equal(attr.orig_attr.fw_ver, "16.35.2004");
	assert_int_equal(attr.orig_attr.max_qp, 1234);
	assert_int_equal(attr.orig_attr.phys_port_cnt, 2);
}

static uint32_t ex_response_length;

static int answer_ex_query_device(const void *buf, size_t len)
{
	struct ib_uverbs_ex_query_device_resp *resp = response_of(buf);

	/* The library zeroed the response before the call. */
	assert_int_equal(resp->max_dm_size, 0);
	resp->base.phys_port_cnt = 1;
	resp->response_length = ex_response_length;
	resp->max_dm_size = 131072;
	resp->xrc_odp_caps = 5;
	resp->hca_core_clock = 156250;
	return 0;
}

static void test_ex_query_device_framing(void **state)
{
	uint64_t drv_out[2];
	struct ibv_udata udata = {NULL, 0, drv_out, sizeof(drv_out)};
	struct ibv_device_attr_ex attr;
	const uint8_t *buf;

	ex_response_length = 304;
	mock_write_handler = answer_ex_query_device;
	assert_int_equal(ibv_cmd_query_device_any(&vctx->context, NULL, &attr,
						  sizeof(attr), &udata),
			 0);
	buf = mock_calls[0].bytes;
	assert_int_equal(mock_calls[0].len, 24 + 8);
	/* ex: in = core request / 8, out = 304 / 8 */
	expect_write_hdr(0,
			 IB_USER_VERBS_CMD_FLAG_EXTENDED |
				 IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
			 1, 38);
	assert_int_equal(u32_at(buf, 16), 2 << 16); /* provider in 0, out 2 */
	assert_int_equal(u32_at(buf, 20), 0);	    /* cmd_hdr_reserved */
	assert_int_equal(u64_at(buf, 24), 0);	    /* comp_mask, reserved */
	assert_int_equal(attr.max_dm_size, 131072);
	assert_int_equal(attr.xrc_odp_caps, 5);
	assert_int_equal(attr.hca_core_clock, 156250);
	assert_int_equal(attr.phys_port_cnt_ex, 1);
}

static void test_ex_query_device_short_response(void **state)
{
	struct ibv_device_attr_ex attr;

	/* A kernel whose response stops right before max_dm_size. */
	ex_response_length = 288;
	mock_write_handler = answer_ex_query_device;
	assert_int_equal(ibv_cmd_query_device_any(&vctx->context, NULL, &attr,
						  sizeof(attr), NULL),
			 0);
	assert_int_equal(attr.max_dm_size, 0);
	assert_int_equal(attr.xrc_odp_caps, 0);
	assert_int_equal(attr.hca_core_clock, 156250);

	/* A caller whose struct ends before max_dm_size gets nothing more. */
	ex_response_length = 304;
	memset(&attr, 0x5a, sizeof(attr));
	assert_int_equal(
		ibv_cmd_query_device_any(
			&vctx->context, NULL, &attr,
			offsetof(struct ibv_device_attr_ex, max_dm_size), NULL),
		0);
	assert_int_equal(attr.max_dm_size, 0x5a5a5a5a5a5a5a5aULL);
}

static void test_ex_query_device_tunnelled(void **state)
{
	struct ibv_device_attr_ex attr;

	assert_int_equal(ibv_cmd_query_device_any(&vctx->context, NULL, &attr,
						  sizeof(attr), NULL),
			 0);
	mock_expect_attr(0, 0, UVERBS_ATTR_WRITE_CMD, 8, 1,
			 IB_USER_VERBS_CMD_FLAG_EXTENDED |
				 IB_USER_VERBS_EX_CMD_QUERY_DEVICE);
	mock_expect_attr(0, 1, UVERBS_ATTR_CORE_IN, 8, 1, 0);
	mock_expect_attr(0, 2, UVERBS_ATTR_CORE_OUT, 304, 1, MOCK_ANY);
}

static int answer_get_context(const void *buf, size_t len)
{
	uint32_t resp[4] = {9, 2, 0xfeed, 0xf00d};

	memcpy(response_of(buf), resp, sizeof(resp));
	return 0;
}

static void test_get_context_ioctl_then_write(void **state)
{
	uint8_t drv_in[32] = {1, 2, 3};
	uint32_t drv_out[2];
	struct ibv_udata udata = {drv_in, 32, drv_out, 8};

	/* The ioctl form: core outputs, then UHW in/out as pointers. */
	mock_ioctl_handler = mock_fail_enotty;
	mock_write_handler = answer_get_context;
	assert_int_equal(ibv_cmd_get_context(vctx, &udata, NULL), 0);
	mock_expect_hdr(0, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT, 4,
			1);
	mock_expect_attr(0, 0, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, 4, 1,
			 MOCK_ANY);
	mock_expect_attr(0, 1, UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT, 8, 0,
			 MOCK_ANY);
	mock_expect_attr(0, 2, UVERBS_ATTR_UHW_IN, 32, 1, (uintptr_t)drv_in);
	mock_expect_attr(0, 3, UVERBS_ATTR_UHW_OUT, 8, 1, (uintptr_t)drv_out);
	assert_memory_equal(mock_calls[0].payload[2], drv_in, 32);

	/* ENOTTY: the write() form, 8 + 8 + 32 in, 8 + 8 out. */
	expect_write_hdr(1, IB_USER_VERBS_CMD_GET_CONTEXT, 12, 4);
	assert_memory_equal(mock_calls[1].bytes + 16, drv_in, 32);
	assert_int_equal(vctx->context.async_fd, 9);
	assert_int_equal(vctx->context.num_comp_vectors, 2);
	assert_int_equal(drv_out[0], 0xfeed);
	assert_int_equal(drv_out[1], 0xf00d);

	/* ENOTTY is remembered for every op: no further ioctl attempts. */
	mock_reset();
	mock_write_handler = answer_get_context;
	assert_int_equal(ibv_cmd_get_context(vctx, &udata, NULL), 0);
	assert_int_equal(mock_num_calls, 1);
	assert_int_equal(mock_calls[0].kind, MOCK_WRITE);
	assert_int_equal(ibv_cmd_query_port(&vctx->context, 1,
					    &(struct ibv_port_attr){}),
			 0);
	assert_int_equal(mock_calls[1].kind, MOCK_WRITE);
}

static void test_driver_attr_blocks_fallback(void **state)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT,
			   1);

	uverbs_attr_in_u32(cmd, 0x1002, 1);
	mock_ioctl_handler = mock_fail_eprotonosupport;
	errno = 0;
	assert_int_equal(ibv_cmd_get_context(vctx, NULL, cmd), EOPNOTSUPP);
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(mock_num_calls, 1);
}

static int answer_query_port_ioctl(struct ib_uverbs_ioctl_hdr *hdr)
{
	uint8_t *resp = (void *)(uintptr_t)mock_find(hdr, 1)->data;
	struct ib_uverbs_query_port_resp legacy = {
		.gid_tbl_len = 256,
		.lid = 7,
		.state = IBV_PORT_ACTIVE,
		.link_layer = IBV_LINK_LAYER_ETHERNET,
	};
	uint16_t flags2 = 0x12;
	uint32_t speed_ex = 0x40;

	memcpy(resp, &legacy, sizeof(legacy));
	memcpy(resp + 40, &flags2, 2);
	memcpy(resp + 44, &speed_ex, 4);
	mock_find(hdr, 1)->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
	return 0;
}

static void test_query_port_ioctl(void **state)
{
	struct ibv_port_attr attr;

	mock_ioctl_handler = answer_query_port_ioctl;
	assert_int_equal(ibv_cmd_query_port(&vctx->context, 2, &attr), 0);
	mock_expect_hdr(0, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT, 2,
			1);
	mock_expect_attr(0, 0, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 8, 1, 2);
	mock_expect_attr(0, 1, UVERBS_ATTR_QUERY_PORT_RESP, 48, 1, MOCK_ANY);
	assert_int_equal(attr.gid_tbl_len, 256);
	assert_int_equal(attr.lid, 7);
	assert_int_equal(attr.state, IBV_PORT_ACTIVE);
	assert_int_equal(attr.link_layer, IBV_LINK_LAYER_ETHERNET);
	assert_int_equal(attr.port_cap_flags2, 0x12);
	assert_int_equal(attr.active_speed_ex, 0x40);
}

static int answer_query_port_write(const void *buf, size_t len)
{
	struct ib_uverbs_query_port_resp *resp = response_of(buf);

	resp->pkey_tbl_len = 128;
	return 0;
}

static void test_query_port_write_fallback(void **state)
{
	struct ibv_port_attr attr;

	mock_ioctl_handler = mock_fail_eprotonosupport;
	mock_write_handler = answer_query_port_write;
	assert_int_equal(ibv_cmd_query_port(&vctx->context, 1, &attr), 0);
	/* 8 + 16 in, 40 out; port number right after the response */
	expect_write_hdr(1, IB_USER_VERBS_CMD_QUERY_PORT, 6, 10);
	assert_int_equal(mock_calls[1].bytes[16], 1);
	assert_int_equal(attr.pkey_tbl_len, 128);

	/* EPROTONOSUPPORT marked QUERY_PORT only; DM still tries ioctl. */
	mock_reset();
	assert_int_equal(ibv_cmd_query_port(&vctx->context, 1, &attr), 0);
	assert_int_equal(mock_calls[0].kind, MOCK_WRITE);
	assert_int_equal(ibv_cmd_dealloc_pd(&(struct ibv_pd){
				 .context = &vctx->context, .handle = 1}),
			 0);
	assert_int_equal(mock_calls[1].kind, MOCK_IOCTL);
}

static void test_destroy_fallbacks(void **state)
{
	struct ibv_pd pd = {.context = &vctx->context, .handle = 0x21};
	struct verbs_mr mr = {
		.ibv_mr = {.context = &vctx->context, .handle = 0x22}};

	mock_ioctl_handler = mock_fail_eprotonosupport;
	assert_int_equal(ibv_cmd_dealloc_pd(&pd), 0);
	mock_expect_hdr(0, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY, 1, 1);
	mock_expect_attr(0, 0, 0, 0, 1, 0x21);
	expect_write_hdr(1, IB_USER_VERBS_CMD_DEALLOC_PD, 3, 0);
	assert_int_equal(u32_at(mock_calls[1].bytes, 8), 0x21);

	assert_int_equal(ibv_cmd_dereg_mr(&mr), 0);
	mock_expect_hdr(2, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY, 1, 1);
	expect_write_hdr(3, IB_USER_VERBS_CMD_DEREG_MR, 3, 0);
	assert_int_equal(u32_at(mock_calls[3].bytes, 8), 0x22);
}

static int fail_write_ebusy(const void *buf, size_t len)
{
	return EBUSY;
}

static void test_write_error_passes_through(void **state)
{
	struct ibv_pd pd = {.context = &vctx->context, .handle = 1};

	mock_ioctl_handler = mock_fail_eprotonosupport;
	mock_write_handler = fail_write_ebusy;
	errno = 0;
	assert_int_equal(ibv_cmd_dealloc_pd(&pd), EBUSY);
	assert_int_equal(errno, EBUSY);
}

static int probe_answer;

static int answer_probe(struct ib_uverbs_ioctl_hdr *hdr)
{
	return probe_answer;
}

/* Context init asks the kernel for INVOKE_WRITE with a too-short call. */
static void test_invoke_write_probe(void **state)
{
	static const struct {
		int answer;
		bool tunnel;
	} cases[] = {
		{ENOSPC, true},		  {0, true},	   {EINVAL, true},
		{EPROTONOSUPPORT, false}, {ENOTTY, false},
	};
	static struct ibv_device dev;
	struct verbs_context *probed;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		mock_reset();
		probe_answer = cases[i].answer;
		mock_ioctl_handler = answer_probe;
		probed = _verbs_init_and_alloc_context(&dev, 1000,
						       sizeof(*probed), 0, 7);
		assert_non_null(probed);
		assert_int_equal(mock_num_calls, 1);
		mock_expect_hdr(0, UVERBS_OBJECT_DEVICE,
				UVERBS_METHOD_INVOKE_WRITE, 1, 7);
		mock_expect_attr(0, 0, UVERBS_ATTR_WRITE_CMD, 8, 1,
				 IB_USER_VERBS_CMD_QUERY_DEVICE);
		assert_int_equal(get_priv(&probed->context)->use_ioctl_write,
				 cases[i].tunnel);
		/* The generic part of the context, as providers get it. */
		assert_int_equal(probed->context.cmd_fd, 1000);
		assert_int_equal(probed->context.async_fd, -1);
		assert_ptr_equal(probed->context.abi_compat,
				 (void *)UINTPTR_MAX);
		assert_int_equal(probed->sz, sizeof(*probed));
		assert_int_equal(verbs_context_driver_id(&probed->context), 7);
		mock_context_free(probed);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define W(fn) cmocka_unit_test_setup_teardown(fn, setup_write, mock_teardown)
#define I(fn) cmocka_unit_test_setup_teardown(fn, setup_tunnel, mock_teardown)
		cmocka_unit_test(test_invoke_write_probe),
		W(test_alloc_pd_write_framing),
		I(test_alloc_pd_tunnelled),
		W(test_bad_udata_length),
		W(test_reg_mr_framing),
		W(test_query_device_legacy_framing),
		W(test_ex_query_device_framing),
		W(test_ex_query_device_short_response),
		I(test_ex_query_device_tunnelled),
		W(test_get_context_ioctl_then_write),
		W(test_driver_attr_blocks_fallback),
		W(test_query_port_ioctl),
		W(test_query_port_write_fallback),
		W(test_destroy_fallbacks),
		W(test_write_error_passes_through),
#undef W
#undef I
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
