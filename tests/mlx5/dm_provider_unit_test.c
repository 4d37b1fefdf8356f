// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * White-box test of providers/mlx5/dm.c and dv.c with the kernel commands
 * and mmap replaced by recorders: what the sim cannot show. SW-ICM DMs
 * (no CPU mapping: copies and export fail with EOPNOTSUPP, nothing
 * crashes), the attributes DM_ALLOC carries for each type, the MEMIC mmap
 * offset encoding (abi-facts' worked example), unwinding when the mmap
 * fails, and a failed free that must release nothing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mlx5.h"

#define PAGE 4096

/* ---- recorders standing in for the kernel and libibverbs ---- */

static struct {
	bool is_mlx5;
	int alloc_err, free_err, map_err;
	uint64_t start_offset;
	uint16_t page_index;
	/* What the last DM_ALLOC carried. */
	bool type_sent, type_mandatory, page_index_asked;
	uint64_t type;
	int alloc_calls, free_calls, export_calls, map_calls, unmap_calls;
	off_t map_offset, export_offset;
	size_t map_length;
} k;

bool mlx5_is_mlx5_context(struct ibv_context *ibctx)
{
	return k.is_mlx5;
}

int ibv_cmd_alloc_dm(struct ibv_context *ctx,
		     const struct ibv_alloc_dm_attr *attr, struct verbs_dm *dm,
		     struct uverbs_cmd *cmd)
{
	unsigned int i;

	k.alloc_calls++;
	k.type_sent = k.page_index_asked = false;
	for (i = 0; i < cmd->num_attrs; i++) {
		struct ib_uverbs_attr *a = &cmd->hdr.attrs[i];
		void *out = (void *)(uintptr_t)a->data;

		switch (a->attr_id) {
		case MLX5_IB_ATTR_ALLOC_DM_REQ_TYPE:
			k.type_sent = true;
			k.type = a->data;
			k.type_mandatory = a->flags & UVERBS_ATTR_F_MANDATORY;
			break;
		case MLX5_IB_ATTR_ALLOC_DM_RESP_START_OFFSET:
			memcpy(out, &k.start_offset, sizeof(k.start_offset));
			break;
		case MLX5_IB_ATTR_ALLOC_DM_RESP_PAGE_INDEX:
			k.page_index_asked = true;
			memcpy(out, &k.page_index, sizeof(k.page_index));
			break;
		}
	}
	if (k.alloc_err)
		return k.alloc_err;
	/* As the core helper does. */
	dm->dm.context = ctx;
	dm->handle = 7;
	return 0;
}

int ibv_cmd_free_dm(struct verbs_dm *dm)
{
	k.free_calls++;
	return k.free_err;
}

int ibv_cmd_export_dmabuf_fd(struct ibv_context *ctx, off_t mmap_offset)
{
	k.export_calls++;
	k.export_offset = mmap_offset;
	return 42;
}

int mlx5_map(struct mlx5_context *ctx, struct mlx5_mapping *map,
	     size_t length, int prot, off_t offset)
{
	k.map_calls++;
	k.map_offset = offset;
	k.map_length = length;
	if (k.map_err)
		return k.map_err;
	map->addr = aligned_alloc(PAGE, length);
	map->length = length;
	map->offset = offset; /* as context_pages.c records it */
	return map->addr ? 0 : ENOMEM;
}

void mlx5_unmap(struct mlx5_mapping *map)
{
	if (!map->addr)
		return;
	k.unmap_calls++;
	free(map->addr);
	map->addr = NULL;
}

/* ---- fixtures ---- */

static struct mlx5_context *ctx;

static int setup(void **state)
{
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return -1;
	ctx->page_size = PAGE;
	ctx->max_dm_size = 1 << 20;
	memset(&k, 0, sizeof(k));
	k.is_mlx5 = true;
	return 0;
}

static int teardown(void **state)
{
	/* Nothing may stay tracked once a test freed what it allocated. */
	assert_null(ctx->dm_list);
	free(ctx);
	return 0;
}

static struct ibv_dm *dv_alloc(size_t len, unsigned int type)
{
	struct ibv_alloc_dm_attr attr = { .length = len };
	struct mlx5dv_alloc_dm_attr mattr = {
		.type = (enum mlx5dv_alloc_dm_type)type };

	return mlx5dv_alloc_dm(&ctx->ibv_ctx.context, &attr, &mattr);
}

static void test_sw_icm_has_no_cpu_side(void **state)
{
	struct mlx5dv_dm dv = { .comp_mask = MLX5DV_DM_MASK_REMOTE_VA };
	struct mlx5dv_obj obj = {};
	struct ibv_dm *dm;
	uint8_t buf[64] = {};

	k.start_offset = 0xabc000;
	dm = dv_alloc(4096, MLX5DV_DM_TYPE_STEERING_SW_ICM);
	assert_non_null(dm);
	/* The type is mandatory for SW-ICM; there is no page to map. */
	assert_true(k.type_sent);
	assert_true(k.type_mandatory);
	assert_int_equal(k.type, MLX5DV_DM_TYPE_STEERING_SW_ICM);
	assert_false(k.page_index_asked);
	assert_int_equal(k.map_calls, 0);

	assert_int_equal(ibv_memcpy_to_dm(dm, 0, buf, sizeof(buf)), EOPNOTSUPP);
	assert_int_equal(ibv_memcpy_from_dm(buf, dm, 0, sizeof(buf)),
			 EOPNOTSUPP);
	errno = 0;
	assert_int_equal(mlx5_dm_export_dmabuf_fd(dm), -1);
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(k.export_calls, 0);
	errno = 0;
	assert_null(mlx5dv_dm_map_op_addr(dm, 0));
	assert_int_equal(errno, EOPNOTSUPP);

	obj.dm.in = dm;
	obj.dm.out = &dv;
	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_DM), 0);
	assert_null(dv.buf);
	assert_int_equal(dv.length, 4096);
	assert_int_equal(dv.comp_mask, MLX5DV_DM_MASK_REMOTE_VA);
	assert_int_equal(dv.remote_va, 0xabc000);

	assert_int_equal(mlx5_free_dm(dm), 0);
	assert_int_equal(k.free_calls, 1);
	assert_int_equal(k.unmap_calls, 0);
}

/* page_idx 0x123 with 4 KiB pages must be mapped at 0x10823000. */
static void test_memic_offsets(void **state)
{
	struct ibv_dm *dm;
	struct mlx5dv_dm dv = {};
	struct mlx5dv_obj obj = {};

	k.page_index = 0x123;
	k.start_offset = 0x5000040;
	dm = dv_alloc(100, MLX5DV_DM_TYPE_MEMIC);
	assert_non_null(dm);
	/* Optional for MEMIC, so kernels without the attribute answer. */
	assert_true(k.type_sent);
	assert_false(k.type_mandatory);
	assert_true(k.page_index_asked);
	assert_int_equal(k.map_offset, 0x10823000);
	assert_int_equal(k.map_length, PAGE);

	obj.dm.in = dm;
	obj.dm.out = &dv;
	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_DM), 0);
	assert_int_equal((uintptr_t)dv.buf % PAGE, 0x40);

	assert_int_equal(mlx5_dm_export_dmabuf_fd(dm), 42);
	assert_int_equal(k.export_offset, 0x10823000);
	assert_int_equal(mlx5_free_dm(dm), 0);
	assert_int_equal(k.unmap_calls, 1);
}

/* The mmap fails: the kernel object is freed again, ENOMEM reported. */
static void test_map_failure_unwinds(void **state)
{
	k.map_err = ENOMEM;
	errno = 0;
	assert_null(dv_alloc(64, MLX5DV_DM_TYPE_MEMIC));
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(k.alloc_calls, 1);
	assert_int_equal(k.free_calls, 1);
}

static void test_kernel_error_passed_through(void **state)
{
	k.alloc_err = EPERM;
	errno = 0;
	assert_null(dv_alloc(64, MLX5DV_DM_TYPE_HEADER_MODIFY_SW_ICM));
	assert_int_equal(errno, EPERM);
	assert_int_equal(k.free_calls, 0);
	assert_int_equal(k.map_calls, 0);
}

/* A failed free releases nothing; the DM still works and frees later. */
static void test_failed_free_keeps_everything(void **state)
{
	uint8_t in[16] = { 1, 2, 3, 4 }, out[16] = {};
	struct ibv_dm *dm = dv_alloc(16, MLX5DV_DM_TYPE_MEMIC);

	assert_non_null(dm);
	k.free_err = EBUSY;
	assert_int_equal(mlx5_free_dm(dm), EBUSY);
	assert_int_equal(k.unmap_calls, 0);
	assert_int_equal(ibv_memcpy_to_dm(dm, 0, in, sizeof(in)), 0);
	assert_int_equal(ibv_memcpy_from_dm(out, dm, 0, sizeof(out)), 0);
	assert_memory_equal(in, out, sizeof(in));
	k.free_err = 0;
	assert_int_equal(mlx5_free_dm(dm), 0);
	assert_int_equal(k.unmap_calls, 1);
}

static void test_refused_before_the_kernel(void **state)
{
	struct ibv_alloc_dm_attr attr = { .length = 64, .comp_mask = 1 };
	struct mlx5dv_alloc_dm_attr mattr = {};
	struct ibv_dm *dm;

	errno = 0;
	assert_null(mlx5_alloc_dm(&ctx->ibv_ctx.context, &attr));
	assert_int_equal(errno, EINVAL);
	attr.comp_mask = 0;
	attr.length = ctx->max_dm_size + 1;
	errno = 0;
	assert_null(mlx5_alloc_dm(&ctx->ibv_ctx.context, &attr));
	assert_int_equal(errno, EINVAL);
	/* SW-ICM is not bounded by max_dm_size (MEMIC's BAR size). */
	dm = dv_alloc(ctx->max_dm_size + 1, MLX5DV_DM_TYPE_STEERING_SW_ICM);
	assert_non_null(dm);
	assert_int_equal(mlx5_free_dm(dm), 0);
	k.alloc_calls = 0;
	errno = 0;
	assert_null(dv_alloc(64, 5));
	assert_int_equal(errno, EOPNOTSUPP);
	mattr.comp_mask = 1;
	attr.length = 64;
	errno = 0;
	assert_null(mlx5dv_alloc_dm(&ctx->ibv_ctx.context, &attr, &mattr));
	assert_int_equal(errno, EINVAL);
	k.is_mlx5 = false;
	errno = 0;
	assert_null(dv_alloc(64, MLX5DV_DM_TYPE_MEMIC));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(k.alloc_calls, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sw_icm_has_no_cpu_side,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_memic_offsets, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_map_failure_unwinds,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_kernel_error_passed_through, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_failed_free_keeps_everything, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_before_the_kernel,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
