// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5 DM under rdma-sim: byte round trips, alignment requests, the errno
 * table, DM memory regions, mlx5dv_alloc_dm / init_obj / map_op_addr.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <infiniband/mlx5dv.h>

#include "dm_util.h"

static struct dm_env env;

static int setup(void **state)
{
	int err = dm_env_open(&env, 0);

	if (err) {
		print_error("cannot open device 0: %s\n", strerror(err));
		return -1;
	}
	if (!env.max_dm_size) {
		print_error("device has no DM (max_dm_size 0)\n");
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	dm_env_close(&env);
	return 0;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	assert_non_null(p);
	return p;
}

/* Write @len bytes at @off, read them back, compare. */
static void check_copy(struct ibv_dm *dm, uint64_t off, size_t len,
		       unsigned int seed)
{
	uint8_t *src = xmalloc(len), *dst = xmalloc(len);

	fill_pattern(src, len, seed);
	memset(dst, 0, len);
	assert_int_equal(ibv_memcpy_to_dm(dm, off, src, len), 0);
	assert_int_equal(ibv_memcpy_from_dm(dst, dm, off, len), 0);
	assert_memory_equal(src, dst, len);
	free(src);
	free(dst);
}

static void round_trip_size(size_t size)
{
	size_t prefix = size & ~(size_t)3;
	uint8_t buf[8] = {};
	struct ibv_dm *dm;

	print_message("size %zu\n", size);
	dm = alloc_dm(env.ctx, size, 0);
	assert_non_null(dm);
	if (prefix)
		check_copy(dm, 0, prefix, (unsigned int)size);
	if (prefix >= 8)
		check_copy(dm, 4, prefix - 4, (unsigned int)size + 1);
	if (size != prefix) {
		uint8_t *big = xmalloc(size);

		/* The whole (unaligned) length is refused both ways. */
		assert_int_equal(ibv_memcpy_to_dm(dm, 0, big, size), EINVAL);
		assert_int_equal(ibv_memcpy_from_dm(big, dm, 0, size), EINVAL);
		free(big);
	}
	/* Length 0 is a no-op, even at the very end. */
	assert_int_equal(ibv_memcpy_to_dm(dm, prefix, buf, 0), 0);
	assert_int_equal(ibv_memcpy_from_dm(buf, dm, 0, 0), 0);
	assert_int_equal(ibv_free_dm(dm), 0);
}

static void test_round_trip_sizes(void **state)
{
	static const size_t sizes[] = { 1, 4, 31, 64, 100, 4096, 8193 };
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (sizes[i] <= env.max_dm_size)
			round_trip_size(sizes[i]);
	round_trip_size(env.max_dm_size);
}

/* Fresh DM never shows a previous owner's bytes. */
static void test_fresh_dm_is_zero(void **state)
{
	uint8_t buf[256], zero[256] = {};
	struct ibv_dm *dm = alloc_dm(env.ctx, sizeof(buf), 0);

	assert_non_null(dm);
	fill_pattern(buf, sizeof(buf), 1);
	assert_int_equal(ibv_memcpy_to_dm(dm, 0, buf, sizeof(buf)), 0);
	assert_int_equal(ibv_free_dm(dm), 0);
	dm = alloc_dm(env.ctx, sizeof(buf), 0);
	assert_non_null(dm);
	assert_int_equal(ibv_memcpy_from_dm(buf, dm, 0, sizeof(buf)), 0);
	assert_memory_equal(buf, zero, sizeof(buf));
	assert_int_equal(ibv_free_dm(dm), 0);
}

static void *dm_cpu_addr(struct ibv_dm *dm, struct mlx5dv_dm *out)
{
	struct mlx5dv_obj obj = { .dm = { .in = dm, .out = out } };

	memset(out, 0, sizeof(*out));
	out->comp_mask = MLX5DV_DM_MASK_REMOTE_VA;
	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_DM), 0);
	return out->buf;
}

static void test_alignment_requests(void **state)
{
	struct mlx5dv_dm dv;
	uint32_t log_align;
	struct ibv_dm *dm;

	for (log_align = 0; log_align <= 12; log_align++) {
		print_message("log_align_req %u\n", log_align);
		dm = alloc_dm(env.ctx, 100, log_align);
		assert_non_null(dm);
		assert_int_equal((uintptr_t)dm_cpu_addr(dm, &dv) %
					 (1ULL << log_align),
				 0);
		check_copy(dm, 0, 100, log_align);
		assert_int_equal(ibv_free_dm(dm), 0);
	}
	/* Far beyond what MEMIC can align to: the kernel says EINVAL. */
	errno = 0;
	assert_null(alloc_dm(env.ctx, 100, 40));
	assert_int_equal(errno, EINVAL);
}

static void expect_alloc_errno(size_t len, uint32_t comp_mask, int err)
{
	struct ibv_alloc_dm_attr attr = { .length = len,
					  .comp_mask = comp_mask };

	errno = 0;
	assert_null(ibv_alloc_dm(env.ctx, &attr));
	assert_int_equal(errno, err);
}

static void test_errno_alloc(void **state)
{
	expect_alloc_errno(env.max_dm_size + 1, 0, EINVAL);
	expect_alloc_errno(SIZE_MAX, 0, EINVAL);
	expect_alloc_errno(64, 1, EINVAL);
	expect_alloc_errno(64, 0x80000000u, EINVAL);
}

static void test_errno_copy(void **state)
{
	static const struct {
		uint64_t off;
		size_t len;
		int err;
	} cases[] = {
		{ 3, 4, EINVAL },   { 4, 3, EINVAL },   { 1, 0, EINVAL },
		{ 104, 4, EFAULT }, { 0, 104, EFAULT }, { 100, 4, EFAULT },
		{ 101, 0, EFAULT }, { 99, 4, EFAULT },
		{ UINT64_MAX - 3, 8, EFAULT }, { 8, SIZE_MAX - 3, EFAULT },
	};
	uint8_t *buf = xmalloc(256);
	struct ibv_dm *dm = alloc_dm(env.ctx, 100, 0);
	size_t i;

	assert_non_null(dm);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len = cases[i].len;

		print_message("offset %llu length %zu\n",
			      (unsigned long long)cases[i].off, len);
		assert_int_equal(ibv_memcpy_to_dm(dm, cases[i].off, buf, len),
				 cases[i].err);
		assert_int_equal(
			ibv_memcpy_from_dm(buf, dm, cases[i].off, len),
			cases[i].err);
	}
	assert_int_equal(ibv_free_dm(dm), 0);
	free(buf);
}

static void expect_dm_mr_errno(struct ibv_dm *dm, uint64_t off, size_t len,
			       unsigned int access, int err)
{
	errno = 0;
	assert_null(ibv_reg_dm_mr(env.pd, dm, off, len, access));
	assert_int_equal(errno, err);
}

static void test_dm_mr(void **state)
{
	const unsigned int zb = IBV_ACCESS_ZERO_BASED;
	struct ibv_dm *dm = alloc_dm(env.ctx, 100, 0);
	struct ibv_mr *mr;

	assert_non_null(dm);
	/* Access flags: ZERO_BASED required, MW_BIND/ON_DEMAND refused. */
	expect_dm_mr_errno(dm, 0, 100, IBV_ACCESS_LOCAL_WRITE, EINVAL);
	expect_dm_mr_errno(dm, 0, 100, zb | IBV_ACCESS_MW_BIND, EINVAL);
	expect_dm_mr_errno(dm, 0, 100, zb | IBV_ACCESS_ON_DEMAND, EINVAL);
	expect_dm_mr_errno(dm, 0, 100, zb | IBV_ACCESS_HUGETLB, EINVAL);
	/* The OPTIONAL_RANGE bits too (ibv_alloc_dm(3) says so). */
	expect_dm_mr_errno(dm, 0, 100, zb | IBV_ACCESS_RELAXED_ORDERING,
			   EINVAL);
	expect_dm_mr_errno(dm, 0, 100, zb | IBV_ACCESS_OPTIONAL_RANGE, EINVAL);
	/* Longer than the DM, or past its end. */
	expect_dm_mr_errno(dm, 0, 104, zb, EINVAL);
	expect_dm_mr_errno(dm, 4, 100, zb, EINVAL);
	expect_dm_mr_errno(NULL, 0, 100, zb, EINVAL);

	mr = ibv_reg_dm_mr(env.pd, dm, 0, 100,
			   zb | IBV_ACCESS_LOCAL_WRITE |
				   IBV_ACCESS_REMOTE_READ |
				   IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_ATOMIC);
	assert_non_null(mr);
	assert_null(mr->addr);
	assert_int_equal(mr->length, 100);
	assert_ptr_equal(mr->pd, env.pd);
	/* The DM cannot go while an MR uses it; nothing is released. */
	assert_int_equal(ibv_free_dm(dm), EBUSY);
	check_copy(dm, 0, 100, 3);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	assert_int_equal(ibv_free_dm(dm), 0);
}

static void test_null_dm_export(void **state)
{
	errno = 0;
	assert_int_equal(ibv_dm_export_dmabuf_fd(NULL), -1);
	assert_int_equal(errno, EINVAL);
}

static void test_mlx5dv_alloc_dm(void **state)
{
	struct ibv_alloc_dm_attr attr = { .length = 256 };
	struct mlx5dv_alloc_dm_attr mattr = { .type = MLX5DV_DM_TYPE_MEMIC };
	int icm_err = have_raw_caps() ? EOPNOTSUPP : EPERM;
	struct mlx5dv_dm dv;
	struct ibv_dm *dm;
	unsigned int t;

	dm = mlx5dv_alloc_dm(env.ctx, &attr, &mattr);
	assert_non_null(dm);
	assert_non_null(dm_cpu_addr(dm, &dv));
	assert_int_equal(dv.length, 256);
	assert_int_equal(dv.comp_mask, MLX5DV_DM_MASK_REMOTE_VA);
	check_copy(dm, 0, 256, 9);
	assert_int_equal(ibv_free_dm(dm), 0);

	/* The SW-ICM types: the simulated device has no SW steering. */
	for (t = MLX5DV_DM_TYPE_STEERING_SW_ICM;
	     t <= MLX5DV_DM_TYPE_ENCAP_SW_ICM; t++) {
		mattr.type = (enum mlx5dv_alloc_dm_type)t;
		errno = 0;
		assert_null(mlx5dv_alloc_dm(env.ctx, &attr, &mattr));
		assert_int_equal(errno, icm_err);
	}
	mattr.type = (enum mlx5dv_alloc_dm_type)5;
	errno = 0;
	assert_null(mlx5dv_alloc_dm(env.ctx, &attr, &mattr));
	assert_int_equal(errno, EOPNOTSUPP);

	mattr.type = MLX5DV_DM_TYPE_MEMIC;
	mattr.comp_mask = 1;
	errno = 0;
	assert_null(mlx5dv_alloc_dm(env.ctx, &attr, &mattr));
	assert_int_equal(errno, EINVAL);
}

static void test_init_obj_errors(void **state)
{
	struct ibv_dm *dm = alloc_dm(env.ctx, 64, 0);
	struct mlx5dv_dm dv = {};
	struct mlx5dv_obj obj = { .dm = { .in = dm, .out = &dv } };

	assert_non_null(dm);
	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_DM | MLX5DV_OBJ_RWQ),
			 EOPNOTSUPP);
	/* Nothing asked in comp_mask: nothing extra answered. */
	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_DM), 0);
	assert_int_equal(dv.comp_mask, 0);
	assert_non_null(dv.buf);
	obj.dm.out = NULL;
	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_DM), EINVAL);
	assert_int_equal(ibv_free_dm(dm), 0);
}

static void test_map_op_addr(void **state)
{
	uint8_t data[64], back[64];
	struct ibv_dm *dm = alloc_dm(env.ctx, sizeof(data), 0);
	uint8_t *op;
	size_t i;
	int maps;

	assert_non_null(dm);
	fill_pattern(data, sizeof(data), 5);
	assert_int_equal(ibv_memcpy_to_dm(dm, 0, data, sizeof(data)), 0);

	maps = count_maps();
	op = mlx5dv_dm_map_op_addr(dm, 0);
	assert_non_null(op);
	assert_int_equal(count_maps(), maps + 1);
	/* The sim's op alias has no side effects: it shows offset 0 on. */
	for (i = 0; i < sizeof(data) / 4; i++) {
		uint32_t word = ((volatile uint32_t *)op)[i];

		memcpy(back + 4 * i, &word, 4);
	}
	assert_memory_equal(back, data, sizeof(data));
	check_copy(dm, 0, sizeof(data), 6);
	assert_int_equal(unmap_op_addr(op, sizeof(data)), 0);
	assert_int_equal(count_maps(), maps);

	errno = 0;
	assert_null(mlx5dv_dm_map_op_addr(dm, 7));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(count_maps(), maps);
	assert_int_equal(ibv_memcpy_from_dm(back, dm, 0, sizeof(back)), 0);
	assert_int_equal(ibv_free_dm(dm), 0);
}

/* A second context on the same cmd fd maps the same DM by handle. */
static void test_import_dm(void **state)
{
	int fds = count_fds(), maps = count_maps();
	uint8_t pat[256], got[256];
	struct ibv_context *ctx2;
	struct ibv_dm *dm, *idm;
	int fd;

	ctx2 = ibv_import_device(dup(env.ctx->cmd_fd));
	assert_non_null(ctx2);
	dm = alloc_dm(env.ctx, sizeof(pat), 0);
	assert_non_null(dm);
	assert_true(dm->comp_mask & IBV_DM_MASK_HANDLE);
	fill_pattern(pat, sizeof(pat), 21);
	assert_int_equal(ibv_memcpy_to_dm(dm, 0, pat, sizeof(pat)), 0);

	idm = ibv_import_dm(ctx2, dm->handle);
	assert_non_null(idm);
	assert_ptr_equal(idm->context, ctx2);
	assert_int_equal(idm->handle, dm->handle);
	assert_int_equal(ibv_memcpy_from_dm(got, idm, 0, sizeof(got)), 0);
	assert_memory_equal(got, pat, sizeof(pat));
	/* Its length is the original request: the range check holds. */
	assert_int_equal(ibv_memcpy_from_dm(got, idm, 4, sizeof(got)), EFAULT);
	fill_pattern(pat, sizeof(pat), 22);
	assert_int_equal(ibv_memcpy_to_dm(idm, 0, pat, sizeof(pat)), 0);
	assert_int_equal(ibv_memcpy_from_dm(got, dm, 0, sizeof(got)), 0);
	assert_memory_equal(got, pat, sizeof(pat));
	fd = ibv_dm_export_dmabuf_fd(idm);
	assert_true(fd > 2);
	assert_int_equal(close(fd), 0);

	/* No such handle: the kernel's IDR lookup says ENOENT. */
	errno = 0;
	assert_null(ibv_import_dm(ctx2, dm->handle + 1000));
	assert_int_equal(errno, ENOENT);

	ibv_unimport_dm(idm);
	assert_int_equal(ibv_free_dm(dm), 0);
	assert_int_equal(ibv_close_device(ctx2), 0);
	assert_int_equal(count_fds(), fds);
	assert_int_equal(count_maps(), maps);
}

/* Plain host-memory MRs go through the same provider. */
static void test_host_mr(void **state)
{
	static uint8_t buf[8192];
	struct ibv_mr *mr = ibv_reg_mr(env.pd, buf, sizeof(buf),
				       IBV_ACCESS_LOCAL_WRITE |
					       IBV_ACCESS_REMOTE_READ);

	assert_non_null(mr);
	assert_ptr_equal(mr->addr, buf);
	assert_int_equal(mr->length, sizeof(buf));
	assert_ptr_equal(mr->pd, env.pd);
	assert_int_equal(ibv_dereg_mr(mr), 0);
}

static void test_dv_context(void **state)
{
	struct mlx5dv_context_attr attr = {};
	struct mlx5dv_context dv = { .comp_mask = ~0ULL };
	const uint64_t known_flags =
		(MLX5DV_CONTEXT_FLAGS_REAL_TIME_TS << 1) - 1;
	const uint64_t known_mask = (MLX5DV_CONTEXT_MASK_OOO_RECV_WRS << 1) - 1;
	struct ibv_context *ctx;

	assert_true(mlx5dv_is_supported(env.list[0]));
	assert_int_equal(mlx5dv_query_device(env.ctx, &dv), 0);
	/* Only bits naming a member come back (the values are checked
	 * against Debian's libmlx5 by dv_query_compare.sh). */
	assert_int_equal(dv.comp_mask & ~known_mask, 0);
	assert_true(dv.flags & MLX5DV_CONTEXT_FLAGS_CQE_V1);
	assert_int_equal(dv.flags & ~known_flags, 0);

	ctx = mlx5dv_open_device(env.list[0], &attr);
	assert_non_null(ctx);
	assert_int_equal(ibv_close_device(ctx), 0);

	/* DEVX made mandatory: the simulated device has none (EINVAL). */
	attr.flags = MLX5DV_CONTEXT_FLAGS_DEVX;
	errno = 0;
	assert_null(mlx5dv_open_device(env.list[0], &attr));
	assert_int_equal(errno, EINVAL);

	attr.flags = 1u << 5;
	errno = 0;
	assert_null(mlx5dv_open_device(env.list[0], &attr));
	assert_int_equal(errno, EINVAL);
	attr.flags = 0;
	attr.comp_mask = 1;
	errno = 0;
	assert_null(mlx5dv_open_device(env.list[0], &attr));
	assert_int_equal(errno, EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_sizes),
		cmocka_unit_test(test_fresh_dm_is_zero),
		cmocka_unit_test(test_alignment_requests),
		cmocka_unit_test(test_errno_alloc),
		cmocka_unit_test(test_errno_copy),
		cmocka_unit_test(test_dm_mr),
		cmocka_unit_test(test_null_dm_export),
		cmocka_unit_test(test_mlx5dv_alloc_dm),
		cmocka_unit_test(test_init_obj_errors),
		cmocka_unit_test(test_map_op_addr),
		cmocka_unit_test(test_import_dm),
		cmocka_unit_test(test_host_mr),
		cmocka_unit_test(test_dv_context),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
