// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Verbs that take two objects refuse objects of another context with
 * EINVAL. Kernel handles are numbered per context, so an object of context
 * A passed with a PD of context B would otherwise name whatever object has
 * the same number in B. Two contexts of mlx5_0 under rdma-sim.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <rdma_sim_peer.h>

#include "dm_util.h"

#define DM_LEN 4096
#define DM_ACCESS (IBV_ACCESS_ZERO_BASED | IBV_ACCESS_LOCAL_WRITE)

static struct dm_env a, b;

static int setup(void **state)
{
	if (!rdma_sim_active()) {
		print_error("run this under rdma-sim\n");
		return -1;
	}
	if (dm_env_open(&a, 0) || dm_env_open(&b, 0)) {
		print_error("cannot open mlx5_0 twice\n");
		dm_env_close(&a);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	dm_env_close(&b);
	dm_env_close(&a);
	return 0;
}

/*
 * Each context has a DM with the same handle number: registering A's DM
 * under B's PD must not register B's DM (which could then not be freed).
 */
static void test_reg_dm_mr_other_context(void **state)
{
	struct ibv_dm *dm_a = alloc_dm(a.ctx, DM_LEN, 0);
	struct ibv_dm *dm_b = alloc_dm(b.ctx, DM_LEN, 0);
	struct ibv_mr *mr;

	assert_non_null(dm_a);
	assert_non_null(dm_b);
	assert_int_equal(dm_a->handle, dm_b->handle);
	errno = 0;
	assert_null(ibv_reg_dm_mr(b.pd, dm_a, 0, DM_LEN, DM_ACCESS));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(ibv_free_dm(dm_b), 0);
	/* The same DM with its own context's PD still registers. */
	mr = ibv_reg_dm_mr(a.pd, dm_a, 0, DM_LEN, DM_ACCESS);
	assert_non_null(mr);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	assert_int_equal(ibv_free_dm(dm_a), 0);
}

/* IBV_REREG_MR_CHANGE_PD to a PD of another context is bad input. */
static void test_rereg_mr_pd_of_other_context(void **state)
{
	static char buf[4096];
	struct ibv_mr *mr = ibv_reg_mr(a.pd, buf, sizeof(buf),
				       IBV_ACCESS_LOCAL_WRITE);

	assert_non_null(mr);
	errno = 0;
	assert_int_equal(ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_PD, b.pd, NULL,
				      0, 0),
			 IBV_REREG_MR_ERR_INPUT);
	assert_int_equal(errno, EINVAL);
	assert_ptr_equal(mr->pd, a.pd);
	assert_int_equal(ibv_dereg_mr(mr), 0);
}

/* A DMA handle names an object of its own context only. */
static void test_reg_mr_ex_dmah_of_other_context(void **state)
{
	static char buf[4096];
	struct ibv_dmah dmah = {.context = a.ctx};
	struct ibv_mr_init_attr attr = {
		.comp_mask = IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_DMAH,
		.addr = buf,
		.length = sizeof(buf),
		.access = IBV_ACCESS_LOCAL_WRITE,
		.dmah = &dmah,
	};

	errno = 0;
	assert_null(ibv_reg_mr_ex(b.pd, &attr));
	assert_int_equal(errno, EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reg_dm_mr_other_context),
		cmocka_unit_test(test_rereg_mr_pd_of_other_context),
		cmocka_unit_test(test_reg_mr_ex_dmah_of_other_context),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
