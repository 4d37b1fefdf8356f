// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The registers QPs ring. Dynamic-UAR contexts (every modern kernel)
 * allocate one BlueFlame UAR object at the first QP and share its two BF
 * registers round robin; without it (allocation refused, MLX5_SHUT_UP_BF)
 * QPs ring the context's non-cached UAR with plain 64-bit doorbells. Legacy
 * static-UAR contexts use the bfreg the kernel picked per QP.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "datapath.h"

static void init_bf(struct mlx5_bf *bf, uint8_t *reg, unsigned int size,
		    uint32_t page_id, bool single_threaded)
{
	bf->reg = reg;
	bf->offset = 0;
	bf->buf_size = size;
	bf->page_id = page_id;
	bf->need_lock = !single_threaded;
	pthread_spin_init(&bf->lock, PTHREAD_PROCESS_PRIVATE);
}

static void alloc_bf_uar(struct mlx5_context *ctx)
{
	struct mlx5_dp_context *dp = ctx->dp;
	uint32_t page_id = 0;
	unsigned int i;

	if (mlx5_uar_obj_alloc(ctx, MLX5_IB_UAPI_UAR_ALLOC_TYPE_BF,
			       &dp->bf_uar_handle, &dp->bf_map, &page_id))
		return;
	dp->have_bf_uar = true;
	for (i = 0; i < MLX5_NUM_DYN_BFS; i++)
		init_bf(&dp->bfs[i],
			(uint8_t *)dp->bf_map.addr + MLX5_BF_OFFSET +
				i * ctx->bf_reg_size,
			ctx->bf_reg_size / 2, page_id, dp->single_threaded);
}

uint8_t *mlx5_cq_uar(struct mlx5_context *ctx)
{
	if (ctx->nc_uar.addr)
		return ctx->nc_uar.addr;
	if (ctx->uar_pages && ctx->num_uar_pages)
		return ctx->uar_pages[0].addr;
	return NULL;
}

/* Legacy static bfreg index -> its register (4 per 4 KiB UAR). */
static struct mlx5_bf *static_bf(struct mlx5_context *ctx)
{
	struct mlx5_dp_context *dp = ctx->dp;

	/* Per-QP register: rebound after create from the kernel's answer. */
	return &dp->nc_bf;
}

struct mlx5_bf *mlx5_pick_bf(struct mlx5_context *ctx)
{
	struct mlx5_dp_context *dp = ctx->dp;
	struct mlx5_bf *bf;

	if (ctx->tot_bfregs)
		return static_bf(ctx);
	pthread_mutex_lock(&dp->uar_lock);
	if (!dp->uar_tried && !dp->shut_up_bf && ctx->bf_reg_size)
		alloc_bf_uar(ctx);
	dp->uar_tried = true;
	if (dp->bf_map.addr) {
		bf = &dp->bfs[dp->next_bf++ % MLX5_NUM_DYN_BFS];
	} else if (ctx->nc_uar.addr) {
		bf = &dp->nc_bf;
	} else {
		bf = NULL;
		errno = EOPNOTSUPP;
	}
	pthread_mutex_unlock(&dp->uar_lock);
	return bf;
}

void mlx5_uar_cleanup(struct mlx5_context *ctx)
{
	struct mlx5_dp_context *dp = ctx->dp;

	mlx5_unmap(&dp->bf_map);
	if (dp->have_bf_uar)
		mlx5_uar_obj_destroy(ctx, dp->bf_uar_handle);
	dp->have_bf_uar = false;
}

static bool env_is(const char *name, const char *val)
{
	const char *s = getenv(name);

	return s && !strcmp(s, val);
}

int mlx5_dp_init(struct mlx5_context *ctx)
{
	struct mlx5_dp_context *dp = calloc(1, sizeof(*dp));
	uint8_t *nc;

	if (!dp)
		return ENOMEM;
	ctx->dp = dp;
	pthread_mutex_init(&dp->dbrec_lock, NULL);
	pthread_mutex_init(&dp->uar_lock, NULL);
	mlx5_rsc_table_init(&dp->rsc);
	mlx5_rsc_table_init(&dp->srq_rsc);
	dp->shut_up_bf = getenv("MLX5_SHUT_UP_BF") &&
			 !env_is("MLX5_SHUT_UP_BF", "0");
	dp->prefer_bf = !env_is("MLX5_POST_SEND_PREFER_BF", "0");
	dp->scatter_to_cqe = !env_is("MLX5_SCATTER_TO_CQE", "0");
	dp->single_threaded = env_is("MLX5_SINGLE_THREADED", "1");
	/* Doorbell-only register on the NC UAR: never BlueFlame. */
	nc = mlx5_cq_uar(ctx);
	init_bf(&dp->nc_bf, nc ? nc + MLX5_BF_OFFSET : NULL, 0,
		ctx->nc_uar_page_id, dp->single_threaded);
	return 0;
}

void mlx5_dp_cleanup(struct mlx5_context *ctx)
{
	struct mlx5_dp_context *dp = ctx->dp;

	if (!dp)
		return;
	mlx5_uar_cleanup(ctx);
	mlx5_rsc_table_cleanup(&dp->rsc);
	mlx5_rsc_table_cleanup(&dp->srq_rsc);
	pthread_mutex_destroy(&dp->uar_lock);
	pthread_mutex_destroy(&dp->dbrec_lock);
	free(dp);
	ctx->dp = NULL;
}
