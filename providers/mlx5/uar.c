// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The registers QPs ring. Dynamic-UAR contexts (every modern kernel) give
 * each QP a BlueFlame register of its own, allocating a BF UAR object (two
 * registers) when none is free, so posting takes no register lock; a
 * register freed by a destroyed QP is reused, the UARs live until the
 * context closes. Without BF UARs (refused, MLX5_SHUT_UP_BF, no
 * write-combining) QPs share the context's non-cached UAR with plain
 * 64-bit doorbells under a lock. Legacy static-UAR contexts use the bfreg
 * the kernel picked per QP.
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

static struct mlx5_bf_uar *alloc_bf_uar(struct mlx5_context *ctx)
{
	struct mlx5_dp_context *dp = ctx->dp;
	struct mlx5_bf_uar *u = calloc(1, sizeof(*u));
	uint32_t page_id = 0;
	unsigned int i;

	if (!u)
		return NULL;
	if (mlx5_uar_obj_alloc(ctx, MLX5_IB_UAPI_UAR_ALLOC_TYPE_BF,
			       &u->handle, &u->map, &page_id)) {
		free(u);
		dp->bf_refused = true;
		return NULL;
	}
	for (i = 0; i < 2; i++) {
		init_bf(&u->bfs[i],
			(uint8_t *)u->map.addr + MLX5_BF_OFFSET +
				i * ctx->bf_reg_size,
			ctx->bf_reg_size / 2, page_id, true);
		u->bfs[i].need_lock = false;
	}
	u->next = dp->bf_uars;
	dp->bf_uars = u;
	return u;
}

static struct mlx5_bf *free_dedicated_bf(struct mlx5_dp_context *dp)
{
	struct mlx5_bf_uar *u;
	unsigned int i;

	for (u = dp->bf_uars; u; u = u->next)
		for (i = 0; i < 2; i++)
			if (!u->bfs[i].in_use)
				return &u->bfs[i];
	return NULL;
}

uint8_t *mlx5_cq_uar(struct mlx5_context *ctx)
{
	if (ctx->nc_uar.addr)
		return ctx->nc_uar.addr;
	if (ctx->uar_pages && ctx->num_uar_pages)
		return ctx->uar_pages[0].addr;
	return NULL;
}

struct mlx5_bf *mlx5_pick_bf(struct mlx5_context *ctx)
{
	struct mlx5_dp_context *dp = ctx->dp;
	struct mlx5_bf *bf = NULL;
	struct mlx5_bf_uar *u;

	if (ctx->tot_bfregs)
		return &dp->nc_bf; /* rebound after create (static bfregs) */
	pthread_mutex_lock(&dp->uar_lock);
	if (!dp->shut_up_bf && ctx->bf_reg_size) {
		bf = free_dedicated_bf(dp);
		if (!bf && !dp->bf_refused) {
			u = alloc_bf_uar(ctx);
			bf = u ? &u->bfs[0] : NULL;
		}
		if (bf)
			bf->in_use = true;
	}
	if (!bf && ctx->nc_uar.addr)
		bf = &dp->nc_bf;
	pthread_mutex_unlock(&dp->uar_lock);
	if (!bf)
		errno = EOPNOTSUPP;
	return bf;
}

void mlx5_release_bf(struct mlx5_context *ctx, struct mlx5_bf *bf)
{
	struct mlx5_dp_context *dp = ctx->dp;

	pthread_mutex_lock(&dp->uar_lock);
	if (bf->in_use) {
		bf->in_use = false;
		bf->offset = 0;
	}
	pthread_mutex_unlock(&dp->uar_lock);
}

void mlx5_uar_cleanup(struct mlx5_context *ctx)
{
	struct mlx5_dp_context *dp = ctx->dp;
	struct mlx5_bf_uar *u;

	while ((u = dp->bf_uars)) {
		dp->bf_uars = u->next;
		mlx5_unmap(&u->map);
		mlx5_uar_obj_destroy(ctx, u->handle);
		pthread_spin_destroy(&u->bfs[0].lock);
		pthread_spin_destroy(&u->bfs[1].lock);
		free(u);
	}
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
