// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * XRC and ODP commands byte by byte: OPEN_XRCD and OPEN_QP (write only),
 * CLOSE_XRCD (XRCD_DESTROY ioctl, write fallback), the XRC forms of SRQ
 * and QP creation (ioctl and write), ADVISE_MR (ioctl only), and the
 * library's own checks that come before any of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <rdma/ib_user_verbs.h>

#include "mock_kernel.h"
#include "test_util.h"

static struct ibv_pd pd;
static struct ibv_cq cq;
static struct verbs_xrcd xrcd;

static int setup_common(int probe)
{
	vctx = mock_context(RDMA_DRIVER_MLX5, probe);
	vctx->context.async_fd = 7;
	pd = (struct ibv_pd){.context = &vctx->context, .handle = 0x0d};
	cq = (struct ibv_cq){.context = &vctx->context, .handle = 0x0c};
	xrcd = (struct verbs_xrcd){.xrcd = {.context = &vctx->context},
				   .handle = 0x0e};
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

static int answer_open_xrcd(const void *buf, size_t len)
{
	uint32_t handle = 0x44;

	memcpy(mock_write_response(buf), &handle, sizeof(handle));
	return 0;
}

static void test_open_xrcd(void **state)
{
	struct ibv_xrcd_init_attr a = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
		.fd = 5,
		.oflags = O_CREAT,
	};
	struct verbs_xrcd x;

	mock_write_handler = answer_open_xrcd;
	assert_int_equal(ibv_cmd_open_xrcd(&vctx->context, &x, &a, NULL), 0);
	/* in: 8 + 16 = 6 words; out: 4 bytes = 1 word */
	mock_expect_write_hdr(0, IB_USER_VERBS_CMD_OPEN_XRCD, 6, 1);
	assert_int_equal(mock_u32_at(0, 16), 5);
	assert_int_equal(mock_u32_at(0, 20), O_CREAT);
	assert_int_equal(x.handle, 0x44);
	assert_ptr_equal(x.xrcd.context, &vctx->context);

	/* the library's rules: nothing reaches the kernel */
	mock_reset();
	a.comp_mask = IBV_XRCD_INIT_ATTR_FD;
	assert_int_equal(ibv_cmd_open_xrcd(&vctx->context, &x, &a, NULL),
			 EINVAL);
	a.comp_mask |= IBV_XRCD_INIT_ATTR_OFLAGS | IBV_XRCD_INIT_ATTR_RESERVED;
	assert_int_equal(ibv_cmd_open_xrcd(&vctx->context, &x, &a, NULL),
			 EOPNOTSUPP);
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(mock_num_calls, 0);
}

static void test_close_xrcd(void **state)
{
	assert_int_equal(ibv_cmd_close_xrcd(&xrcd), 0);
	mock_expect_hdr(0, UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_DESTROY, 1,
			1);
	mock_expect_attr(0, 0, UVERBS_ATTR_DESTROY_XRCD_HANDLE, 0, 1, 0x0e);
	mock_ioctl_handler = mock_fail_eprotonosupport;
	assert_int_equal(ibv_cmd_close_xrcd(&xrcd), 0);
	/* in: 8 + 4 = 3 words */
	mock_expect_write_hdr(2, IB_USER_VERBS_CMD_CLOSE_XRCD, 3, 0);
	assert_int_equal(mock_u32_at(2, 8), 0x0e);
}

static int answer_open_qp(const void *buf, size_t len)
{
	struct ib_uverbs_create_qp_resp resp = {.qp_handle = 0x55,
						.qpn = 0x123};

	memcpy(mock_write_response(buf), &resp, sizeof(resp));
	return 0;
}

static void test_open_qp(void **state)
{
	struct ibv_qp_open_attr a = {
		.comp_mask = IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_XRCD |
			     IBV_QP_OPEN_ATTR_TYPE | IBV_QP_OPEN_ATTR_CONTEXT,
		.qp_num = 0x123,
		.xrcd = &xrcd.xrcd,
		.qp_context = &cq,
		.qp_type = IBV_QPT_XRC_RECV,
	};
	struct verbs_qp qp;

	memset(&qp, 0xff, sizeof(qp));
	mock_write_handler = answer_open_qp;
	assert_int_equal(ibv_cmd_open_qp(&vctx->context, &qp, &a, NULL), 0);
	/* in: 8 + 32 = 10 words; out: 32 bytes = 8 words */
	mock_expect_write_hdr(0, IB_USER_VERBS_CMD_OPEN_QP, 10, 8);
	assert_int_equal(mock_u64_at(0, 16), (uintptr_t)&qp);
	assert_int_equal(mock_u32_at(0, 24), 0x0e); /* XRCD in pd_handle */
	assert_int_equal(mock_u32_at(0, 28), 0x123);
	assert_int_equal(mock_u32_at(0, 32) & 0xff, IBV_QPT_XRC_RECV);
	assert_int_equal(qp.qp.handle, 0x55);
	assert_int_equal(qp.qp.qp_num, 0x123);
	assert_int_equal(qp.qp.state, IBV_QPS_UNKNOWN);
	assert_null(qp.qp.pd);
	assert_null(qp.qp.send_cq);
	assert_null(qp.qp.srq);
	assert_ptr_equal(qp.qp.qp_context, &cq);
	assert_ptr_equal(qp.xrcd, &xrcd.xrcd);
	assert_int_equal(qp.comp_mask, VERBS_QP_XRCD);

	mock_reset();
	a.comp_mask = IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_TYPE;
	assert_int_equal(ibv_cmd_open_qp(&vctx->context, &qp, &a, NULL),
			 EINVAL);
	a.comp_mask |= IBV_QP_OPEN_ATTR_XRCD | IBV_QP_OPEN_ATTR_RESERVED;
	assert_int_equal(ibv_cmd_open_qp(&vctx->context, &qp, &a, NULL),
			 EOPNOTSUPP);
	assert_int_equal(mock_num_calls, 0);
}

static int answer_xsrq(struct ib_uverbs_ioctl_hdr *hdr)
{
	uint32_t srqn = 0x77;

	mock_find(hdr, UVERBS_ATTR_CREATE_SRQ_HANDLE)->data = 0x66;
	memcpy((void *)(uintptr_t)mock_find(hdr,
					    UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM)
		       ->data,
	       &srqn, 4);
	return 0;
}

static struct ibv_srq_init_attr_ex xrc_srq_attr(void)
{
	return (struct ibv_srq_init_attr_ex){
		.attr = {16, 1, 0},
		.comp_mask = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD |
			     IBV_SRQ_INIT_ATTR_XRCD | IBV_SRQ_INIT_ATTR_CQ,
		.srq_type = IBV_SRQT_XRC,
		.pd = &pd,
		.xrcd = &xrcd.xrcd,
		.cq = &cq,
	};
}

static void test_xrc_srq_ioctl(void **state)
{
	struct ibv_srq_init_attr_ex attr = xrc_srq_attr();
	struct verbs_srq srq;

	mock_ioctl_handler = answer_xsrq;
	assert_int_equal(
		ibv_cmd_create_srq_ex(&vctx->context, &srq, &attr, NULL, NULL),
		0);
	mock_expect_attr(0, 2, UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE, 0, 1, 0x0c);
	mock_expect_attr(0, 3, UVERBS_ATTR_CREATE_SRQ_XRCD_HANDLE, 0, 1, 0x0e);
	mock_expect_attr(0, 4, UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM, 4, 1,
			 MOCK_ANY);
	assert_int_equal(srq.srq_num, 0x77);
	assert_int_equal(srq.srq_type, IBV_SRQT_XRC);
	assert_ptr_equal(srq.xrcd, &xrcd.xrcd);
	assert_ptr_equal(srq.cq, &cq);
}

static int answer_xsrq_write(const void *buf, size_t len)
{
	struct ib_uverbs_create_srq_resp resp = {0x67, 16, 1, 0x78};

	memcpy(mock_write_response(buf), &resp, sizeof(resp));
	return 0;
}

static void test_xrc_srq_write(void **state)
{
	struct ibv_srq_init_attr_ex attr = xrc_srq_attr();
	struct verbs_srq srq;

	mock_ioctl_handler = mock_fail_eprotonosupport;
	mock_write_handler = answer_xsrq_write;
	assert_int_equal(
		ibv_cmd_create_srq_ex(&vctx->context, &srq, &attr, NULL, NULL),
		0);
	/* CREATE_XSRQ: in 8 + 48 = 14 words, out 4 words */
	mock_expect_write_hdr(1, IB_USER_VERBS_CMD_CREATE_XSRQ, 14, 4);
	assert_int_equal(mock_u32_at(1, 24), IBV_SRQT_XRC);
	assert_int_equal(mock_u32_at(1, 28), 0x0d); /* pd */
	assert_int_equal(mock_u32_at(1, 44), 0);    /* max_num_tags */
	assert_int_equal(mock_u32_at(1, 48), 0x0e); /* xrcd */
	assert_int_equal(mock_u32_at(1, 52), 0x0c); /* cq */
	assert_int_equal(srq.srq_num, 0x78);
}

static int answer_qp_create(struct ib_uverbs_ioctl_hdr *hdr)
{
	uint32_t qpn = 0x99;

	mock_find(hdr, UVERBS_ATTR_CREATE_QP_HANDLE)->data = 0x33;
	memcpy((void *)(uintptr_t)mock_find(hdr,
					    UVERBS_ATTR_CREATE_QP_RESP_QP_NUM)
		       ->data,
	       &qpn, 4);
	return 0;
}

static struct ibv_qp_init_attr_ex tgt_attr(void)
{
	return (struct ibv_qp_init_attr_ex){
		.qp_type = IBV_QPT_XRC_RECV,
		.comp_mask = IBV_QP_INIT_ATTR_XRCD,
		.xrcd = &xrcd.xrcd,
		.send_cq = &cq, /* ignored for a target QP */
	};
}

static void test_xrc_tgt_ioctl(void **state)
{
	struct ibv_qp_init_attr_ex attr = tgt_attr();
	struct verbs_qp qp;

	mock_ioctl_handler = answer_qp_create;
	assert_int_equal(
		ibv_cmd_create_qp_ex(&vctx->context, &qp, &attr, NULL, NULL),
		0);
	/* the domain instead of a PD, and no CQ */
	mock_expect_attr(0, 1, UVERBS_ATTR_CREATE_QP_XRCD_HANDLE, 0, 1, 0x0e);
	mock_expect_attr(0, 2, UVERBS_ATTR_CREATE_QP_USER_HANDLE, 8, 1,
			 (uintptr_t)&qp);
	assert_int_equal(qp.qp.qp_num, 0x99);
	assert_null(qp.qp.pd);
	assert_null(qp.qp.send_cq);
	assert_ptr_equal(qp.xrcd, &xrcd.xrcd);
	assert_int_equal(qp.comp_mask, VERBS_QP_XRCD);

	/* a target QP without its domain */
	mock_reset();
	attr.xrcd = NULL;
	assert_int_equal(
		ibv_cmd_create_qp_ex(&vctx->context, &qp, &attr, NULL, NULL),
		EINVAL);
	assert_int_equal(mock_num_calls, 0);
}

static int answer_qp_write(const void *buf, size_t len)
{
	struct ib_uverbs_create_qp_resp resp = {.qp_handle = 0x34, .qpn = 0x9a};

	memcpy(mock_write_response(buf), &resp, sizeof(resp));
	return 0;
}

static void test_xrc_tgt_write(void **state)
{
	struct ibv_qp_init_attr_ex attr = tgt_attr();
	struct verbs_qp qp;

	mock_ioctl_handler = mock_fail_eprotonosupport;
	mock_write_handler = answer_qp_write;
	assert_int_equal(
		ibv_cmd_create_qp_ex(&vctx->context, &qp, &attr, NULL, NULL),
		0);
	/* CREATE_QP: response @8, user_handle @16, pd_handle @24 (the
	 * XRCD), send_cq @28, recv_cq @32, srq @36, ..., qp_type @61 */
	mock_expect_write_hdr(1, IB_USER_VERBS_CMD_CREATE_QP, 16, 8);
	assert_int_equal(mock_u32_at(1, 24), 0x0e);
	assert_int_equal(mock_u32_at(1, 28), 0);
	assert_int_equal(mock_u32_at(1, 32), 0);
	assert_int_equal(mock_u32_at(1, 60) >> 8 & 0xff, IBV_QPT_XRC_RECV);
	assert_int_equal(qp.qp.handle, 0x34);
}

static void test_advise_mr(void **state)
{
	struct ibv_sge sge[2] = {{0x1000, 64, 0x500}, {0x3000, 8, 0x600}};

	assert_int_equal(ibv_cmd_advise_mr(&pd,
					   IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE,
					   IBV_ADVISE_MR_FLAG_FLUSH, sge, 2),
			 0);
	mock_expect_hdr(0, UVERBS_OBJECT_MR, UVERBS_METHOD_ADVISE_MR, 4, 1);
	mock_expect_attr(0, 0, UVERBS_ATTR_ADVISE_MR_PD_HANDLE, 0, 1, 0x0d);
	mock_expect_attr(0, 1, UVERBS_ATTR_ADVISE_MR_ADVICE, 8, 1,
			 IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE);
	mock_expect_attr(0, 2, UVERBS_ATTR_ADVISE_MR_FLAGS, 4, 1,
			 IBV_ADVISE_MR_FLAG_FLUSH);
	/* the SGEs as they are: 16 bytes each, by pointer */
	mock_expect_attr(0, 3, UVERBS_ATTR_ADVISE_MR_SGE_LIST, 32, 1,
			 (uintptr_t)sge);
	/* no write form: a kernel without the method is EOPNOTSUPP */
	mock_ioctl_handler = mock_fail_eprotonosupport;
	assert_int_equal(ibv_cmd_advise_mr(&pd, IBV_ADVISE_MR_ADVICE_PREFETCH,
					   0, sge, 1),
			 EOPNOTSUPP);
	assert_int_equal(mock_num_calls, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define I(fn) cmocka_unit_test_setup_teardown(fn, setup_ioctl, mock_teardown)
#define W(fn) cmocka_unit_test_setup_teardown(fn, setup_write, mock_teardown)
		W(test_open_xrcd),
		W(test_close_xrcd),
		W(test_open_qp),
		I(test_xrc_srq_ioctl),
		W(test_xrc_srq_write),
		I(test_xrc_tgt_ioctl),
		W(test_xrc_tgt_write),
		I(test_advise_mr),
#undef I
#undef W
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
