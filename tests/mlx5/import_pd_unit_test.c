// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibv_import_pd on mlx5 against the mock kernel: the driver method PD_QUERY
 * byte by byte, the PD number of the answer in the imported PD, and on an
 * error the kernel's errno with the PD given back. calloc and free are
 * wrapped too, so every allocation of the import is followed to its free.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mlx5.h"
#include "mock_kernel.h"

#define PD_HANDLE 0x2a
#define PDN	  0x00abcdef

/* Driver ids carry the namespace bit (1 << UVERBS_ID_NS_SHIFT, 12). */
#define WIRE_PD_QUERY	       0x1000
#define WIRE_QUERY_PD_HANDLE   0x1000
#define WIRE_QUERY_PD_RESP_PDN 0x1001
_Static_assert(MLX5_IB_METHOD_PD_QUERY == WIRE_PD_QUERY &&
		       MLX5_IB_ATTR_QUERY_PD_HANDLE == WIRE_QUERY_PD_HANDLE &&
		       MLX5_IB_ATTR_QUERY_PD_RESP_PDN == WIRE_QUERY_PD_RESP_PDN,
	       "uAPI headers disagree with the kernel's wire ids");

void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);
void __real_free(void *p);
void __wrap_free(void *p);

/* Blocks calloc'ed while a test runs and not yet freed. */
static void *live[8];
static unsigned int num_callocs;
static bool tracking;

void *__wrap_calloc(size_t n, size_t size)
{
	void *p = __real_calloc(n, size);
	unsigned int i;

	if (!tracking || !p)
		return p;
	num_callocs++;
	for (i = 0; i < sizeof(live) / sizeof(live[0]); i++)
		if (!live[i]) {
			live[i] = p;
			return p;
		}
	fail_msg("more live blocks than the test follows");
	return p;
}

void __wrap_free(void *p)
{
	unsigned int i;

	for (i = 0; p && i < sizeof(live) / sizeof(live[0]); i++)
		if (live[i] == p)
			live[i] = NULL;
	__real_free(p);
}

static unsigned int num_live(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < sizeof(live) / sizeof(live[0]); i++)
		n += live[i] != NULL;
	return n;
}

/* pd.c's dealloc path asks this of domain.c; no test here takes it. */
int mlx5_dealloc_parent_domain(struct mlx5_parent_domain *mparent)
{
	fail_msg("parent domain dealloc reached");
	return EINVAL;
}

/* The kernel's PD_QUERY: the handle must be there, the PDN goes out. */
static int answer_pd_query(struct ib_uverbs_ioctl_hdr *hdr)
{
	struct ib_uverbs_attr *a;
	uint32_t pdn = PDN;

	if (hdr->object_id != UVERBS_OBJECT_PD ||
	    hdr->method_id != WIRE_PD_QUERY)
		return EPROTONOSUPPORT;
	a = mock_find(hdr, WIRE_QUERY_PD_HANDLE);
	if (!a || a->data != PD_HANDLE)
		return ENOENT;
	a = mock_find(hdr, WIRE_QUERY_PD_RESP_PDN);
	if (!a || a->len != sizeof(pdn))
		return EINVAL;
	memcpy((void *)(uintptr_t)a->data, &pdn, sizeof(pdn));
	a->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
	return 0;
}

static int fail_enoent(struct ib_uverbs_ioctl_hdr *hdr)
{
	return ENOENT;
}

static const struct verbs_context_ops mlx5_pd_ops = {
	.import_pd = mlx5_import_pd,
	.unimport_pd = mlx5_unimport_pd,
};

static int setup(void **state)
{
	mock_setup_ioctl(state);
	verbs_set_ops(vctx, &mlx5_pd_ops);
	memset(live, 0, sizeof(live));
	num_callocs = 0;
	tracking = true;
	return 0;
}

static int teardown(void **state)
{
	tracking = false;
	return mock_teardown(state);
}

/* Recorded call @call is PD_QUERY of @handle with the PDN sent to @pdn. */
static void expect_query(unsigned int call, uint32_t handle, uint32_t *pdn)
{
	const uint8_t want[] = {
		HDR(56, UVERBS_OBJECT_PD, WIRE_PD_QUERY, 2, RDMA_DRIVER_MLX5),
		/* IDR in: len 0, the handle itself in data. */
		ATTR(WIRE_QUERY_PD_HANDLE, 0, UVERBS_ATTR_F_MANDATORY, handle),
		/* PTR_OUT: a pointer to the PD's own pdn field. */
		ATTR(WIRE_QUERY_PD_RESP_PDN, 4, UVERBS_ATTR_F_MANDATORY,
		     (uint64_t)(uintptr_t)pdn),
	};

	assert_int_equal(mock_calls[call].len, sizeof(want));
	assert_memory_equal(mock_calls[call].bytes, want, sizeof(want));
}

static void test_import_bytes_and_pdn(void **state)
{
	struct ibv_pd *pd;

	mock_ioctl_handler = answer_pd_query;
	pd = ibv_import_pd(&vctx->context, PD_HANDLE);
	assert_non_null(pd);
	assert_int_equal(mock_num_calls, 1);
	expect_query(0, PD_HANDLE, &to_mpd(pd)->pdn);
	mock_expect_hdr(0, UVERBS_OBJECT_PD, WIRE_PD_QUERY, 2,
			RDMA_DRIVER_MLX5);

	assert_int_equal(to_mpd(pd)->pdn, PDN);
	assert_int_equal(pd->handle, PD_HANDLE);
	assert_ptr_equal(pd->context, &vctx->context);
	assert_null(to_mparent_domain(pd));
	assert_int_equal(num_callocs, 1);
	assert_int_equal(num_live(), 1);

	/* Unimport is local: no command, and the PD's memory is gone. */
	ibv_unimport_pd(pd);
	assert_int_equal(mock_num_calls, 1);
	assert_int_equal(num_live(), 0);
}

static void test_kernel_error_frees_pd(void **state)
{
	mock_ioctl_handler = fail_enoent;
	errno = 0;
	assert_null(ibv_import_pd(&vctx->context, PD_HANDLE));
	assert_int_equal(errno, ENOENT);
	assert_int_equal(mock_num_calls, 1);
	assert_int_equal(num_callocs, 1);
	assert_int_equal(num_live(), 0);

	/* A handle the "kernel" does not know: its ENOENT, nothing kept. */
	mock_ioctl_handler = answer_pd_query;
	errno = 0;
	assert_null(ibv_import_pd(&vctx->context, PD_HANDLE + 1));
	assert_int_equal(errno, ENOENT);
	mock_expect_attr(1, 0, WIRE_QUERY_PD_HANDLE, 0, UVERBS_ATTR_F_MANDATORY,
			 PD_HANDLE + 1);
	assert_int_equal(num_callocs, 2);
	assert_int_equal(num_live(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_import_bytes_and_pdn),
		T(test_kernel_error_frees_pd),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
