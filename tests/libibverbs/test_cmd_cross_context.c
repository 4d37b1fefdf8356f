// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A command that takes objects besides its context refuses an object of
 * another context with EINVAL before any syscall: kernel handles are
 * numbered per context, so the kernel would take it for whatever object
 * has that number in this context. Each row gives one object of context B
 * to a command of context A.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "mock_kernel.h"

static struct verbs_context *a, *b;
static struct ibv_pd pd_a, pd_b;
static struct ibv_cq cq_a, cq_b;
static struct ibv_srq srq_a, srq_b;
static struct ibv_comp_channel channel_b;

static int setup(void **state)
{
	a = mock_context(RDMA_DRIVER_MLX5, ENOSPC);
	b = mock_context(RDMA_DRIVER_MLX5, ENOSPC);
	/* Same handle numbers in both contexts, as the kernel hands out. */
	pd_a = (struct ibv_pd){.context = &a->context, .handle = 1};
	pd_b = (struct ibv_pd){.context = &b->context, .handle = 1};
	cq_a = (struct ibv_cq){.context = &a->context, .handle = 2};
	cq_b = (struct ibv_cq){.context = &b->context, .handle = 2};
	srq_a = (struct ibv_srq){.context = &a->context, .handle = 3};
	srq_b = (struct ibv_srq){.context = &b->context, .handle = 3};
	channel_b = (struct ibv_comp_channel){.context = &b->context, .fd = 9};
	return 0;
}

static int teardown(void **state)
{
	mock_context_free(b);
	mock_context_free(a);
	return 0;
}

/* Nothing reached the kernel and the command said EINVAL. */
static void expect_refused(int ret)
{
	assert_int_equal(ret, EINVAL);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(mock_num_calls, 0);
}

static void test_create_qp(void **state)
{
	struct ibv_qp_init_attr_ex good = {
		.send_cq = &cq_a,
		.recv_cq = &cq_a,
		.srq = &srq_a,
		.cap = {16, 16, 1, 1, 0},
		.qp_type = IBV_QPT_RC,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = &pd_a,
	};
	struct ibv_qp_init_attr_ex attr;
	struct verbs_qp qp;
	int i;

	for (i = 0; i < 4; i++) {
		attr = good;
		switch (i) {
		case 0:
			attr.pd = &pd_b;
			break;
		case 1:
			attr.send_cq = &cq_b;
			break;
		case 2:
			attr.recv_cq = &cq_b;
			break;
		case 3:
			attr.srq = &srq_b;
			break;
		}
		print_message("object %d of the other context\n", i);
		mock_reset();
		errno = 0;
		expect_refused(ibv_cmd_create_qp_ex(&a->context, &qp, &attr,
						    NULL, NULL));
	}
}

static void test_create_srq_tm_cq(void **state)
{
	struct ibv_srq_init_attr_ex attr = {
		.attr = {.max_wr = 16, .max_sge = 1},
		.comp_mask = IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE |
			     IBV_SRQ_INIT_ATTR_CQ | IBV_SRQ_INIT_ATTR_TM,
		.srq_type = IBV_SRQT_TM,
		.pd = &pd_a,
		.cq = &cq_b,
		.tm_cap = {.max_num_tags = 8},
	};
	struct verbs_srq srq;

	mock_reset();
	errno = 0;
	expect_refused(
		ibv_cmd_create_srq_ex(&a->context, &srq, &attr, NULL, NULL));
	attr.cq = &cq_a;
	attr.pd = &pd_b;
	mock_reset();
	errno = 0;
	expect_refused(
		ibv_cmd_create_srq_ex(&a->context, &srq, &attr, NULL, NULL));
}

/*
 * ibv_create_cq_ex() reaches the provider, and it this, directly. A
 * channel is an fd, not a handle: the kernel itself would refuse another
 * context's with EBADF, and so does the library.
 */
static void test_create_cq_channel(void **state)
{
	struct verbs_cq cq;

	mock_reset();
	errno = 0;
	assert_int_equal(ibv_cmd_create_cq(&a->context, 4, &channel_b, 0, &cq,
					   NULL, NULL),
			 EBADF);
	assert_int_equal(errno, EBADF);
	assert_int_equal(mock_num_calls, 0);
}

static void test_reg_dm_mr(void **state)
{
	struct verbs_dm dm = {.dm = {.context = &b->context}, .handle = 4};
	struct verbs_mr mr;

	mock_reset();
	errno = 0;
	expect_refused(ibv_cmd_reg_dm_mr(&pd_a, &dm, 0, 64,
					 IBV_ACCESS_ZERO_BASED, &mr, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_qp),
		cmocka_unit_test(test_create_srq_tm_cq),
		cmocka_unit_test(test_create_cq_channel),
		cmocka_unit_test(test_reg_dm_mr),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
