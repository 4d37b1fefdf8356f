// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * How the mlx5 DM verbs behave on kernels/devices that lack a feature:
 *   rdma-sim --no-dmabuf -- dm_env_test no-dmabuf   export -> EOPNOTSUPP
 *   rdma-sim --no-dm     -- dm_env_test no-dm       max_dm_size 0 -> EINVAL
 *   rdma-sim --driver rxe -- dm_env_test not-mlx5   mlx5dv_* -> EOPNOTSUPP
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>

#include "dm_util.h"

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "FAIL %s:%d: %s (errno %s)\n",         \
				__FILE__, __LINE__, #cond, strerror(errno));   \
			return 1;                                              \
		}                                                              \
	} while (0)

static int no_dmabuf(struct dm_env *env)
{
	int fds = count_fds();
	struct ibv_dm *dm = alloc_dm(env->ctx, 256, 0);

	CHECK(dm);
	errno = 0;
	CHECK(ibv_dm_export_dmabuf_fd(dm) == -1);
	CHECK(errno == EOPNOTSUPP);
	CHECK(count_fds() == fds);
	/* Everything else about the DM still works. */
	CHECK(ibv_free_dm(dm) == 0);
	return 0;
}

static int no_dm(struct dm_env *env)
{
	struct ibv_alloc_dm_attr attr = { .length = 4 };
	struct mlx5dv_alloc_dm_attr mattr = { .type = MLX5DV_DM_TYPE_MEMIC };

	CHECK(env->max_dm_size == 0);
	errno = 0;
	CHECK(!ibv_alloc_dm(env->ctx, &attr));
	CHECK(errno == EINVAL);
	errno = 0;
	CHECK(!mlx5dv_alloc_dm(env->ctx, &attr, &mattr));
	CHECK(errno == EINVAL);
	return 0;
}

static int not_mlx5(struct dm_env *env)
{
	struct ibv_alloc_dm_attr attr = { .length = 64 };
	struct mlx5dv_alloc_dm_attr mattr = { .type = MLX5DV_DM_TYPE_MEMIC };
	struct mlx5dv_context_attr cattr = {};
	struct mlx5dv_context dv = {};

	CHECK(!mlx5dv_is_supported(env->list[0]));
	errno = 0;
	CHECK(!mlx5dv_alloc_dm(env->ctx, &attr, &mattr));
	CHECK(errno == EOPNOTSUPP);
	CHECK(mlx5dv_query_device(env->ctx, &dv) == EOPNOTSUPP);
	errno = 0;
	CHECK(!mlx5dv_open_device(env->list[0], &cattr));
	CHECK(errno == EOPNOTSUPP);
	errno = 0;
	CHECK(!mlx5dv_reg_dmabuf_mr(env->pd, 0, 4096, 0, 0, 0, 0));
	CHECK(errno == EOPNOTSUPP);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(struct dm_env *env);
	} modes[] = {
		{ "no-dmabuf", no_dmabuf },
		{ "no-dm", no_dm },
		{ "not-mlx5", not_mlx5 },
	};
	struct dm_env env;
	unsigned int i;
	int ret;

	for (i = 0; argc == 2 && i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (strcmp(argv[1], modes[i].name))
			continue;
		if (dm_env_open(&env, 0)) {
			fprintf(stderr, "FAIL: cannot open device 0\n");
			return 1;
		}
		ret = modes[i].run(&env);
		dm_env_close(&env);
		if (!ret)
			printf("PASS: %s\n", argv[1]);
		return ret;
	}
	fprintf(stderr, "usage: %s no-dmabuf|no-dm|not-mlx5\n", argv[0]);
	return 2;
}
