// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5dv_devx_alloc_uar(): doorbell pages for the application (a GPU's
 * DevX queues, a peer ringing through a dma-buf). NC is the context's own
 * non-cached singleton; NC_DEDICATED and BF each get a UAR object of their
 * own, mapped write-only and destroyed when freed, so an exported dma-buf
 * of a freed page is revoked rather than left naming a reused one.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "datapath.h"

#define DEVX_UAR_FLAGS                                                         \
	(MLX5DV_UAR_ALLOC_TYPE_NC | MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED)

static void fill_dv(struct mlx5_devx_uar *u, const struct mlx5_mapping *map,
		    uint32_t page_id)
{
	u->dv.base_addr = map->addr;
	u->dv.reg_addr = (uint8_t *)map->addr + MLX5_BF_OFFSET;
	u->dv.page_id = page_id;
	u->dv.mmap_off = map->offset;
	u->dv.comp_mask = 0;
}

void mlx5_init_nc_devx_uar(struct mlx5_context *ctx)
{
	struct mlx5_devx_uar *u = &ctx->nc_devx_uar;

	u->ctx = ctx;
	u->singleton = true;
	fill_dv(u, &ctx->nc_uar, ctx->nc_uar_page_id);
}

static struct mlx5_devx_uar *alloc_dedicated(struct mlx5_context *ctx,
					     uint64_t type)
{
	struct mlx5_devx_uar *u = calloc(1, sizeof(*u));
	uint32_t page_id = 0;
	int err;

	if (!u) {
		errno = ENOMEM;
		return NULL;
	}
	err = mlx5_uar_obj_alloc(ctx, type, &u->handle, &u->map, &page_id);
	if (err) {
		free(u);
		errno = err;
		return NULL;
	}
	u->ctx = ctx;
	fill_dv(u, &u->map, page_id);
	mlx5_list_add(ctx, &ctx->devx_uars, &u->node);
	return u;
}

struct mlx5dv_devx_uar *mlx5dv_devx_alloc_uar(struct ibv_context *context,
					      uint32_t flags)
{
	struct mlx5_context *ctx;
	struct mlx5_devx_uar *u;

	if (!context) {
		errno = EINVAL;
		return NULL;
	}
	if (!mlx5_is_mlx5_context(context) || (flags & ~DEVX_UAR_FLAGS)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	ctx = to_mctx(context);
	/* Legacy static-UAR kernels have no UAR objects to hand out. */
	if (ctx->tot_bfregs) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (flags == MLX5DV_UAR_ALLOC_TYPE_NC) {
		if (!ctx->have_nc_uar) {
			errno = EOPNOTSUPP;
			return NULL;
		}
		return &ctx->nc_devx_uar.dv;
	}
	u = alloc_dedicated(ctx, flags ? MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC :
					 MLX5_IB_UAPI_UAR_ALLOC_TYPE_BF);
	return u ? &u->dv : NULL;
}

static void release_dedicated(struct mlx5_context *ctx,
			      struct mlx5_devx_uar *u)
{
	mlx5_list_del(ctx, &ctx->devx_uars, &u->node);
	/* Unmapped first: the kernel frees the page when both are gone. */
	mlx5_unmap(&u->map);
	mlx5_uar_obj_destroy(ctx, u->handle);
	free(u);
}

void mlx5dv_devx_free_uar(struct mlx5dv_devx_uar *dv)
{
	struct mlx5_devx_uar *u = (struct mlx5_devx_uar *)dv;

	if (!u) {
		errno = EINVAL;
		return;
	}
	if (u->singleton)
		return;
	release_dedicated(u->ctx, u);
}

void mlx5_release_all_devx_uars(struct mlx5_context *ctx)
{
	while (ctx->devx_uars)
		release_dedicated(ctx,
				  mlx5_list_entry(ctx->devx_uars,
						  struct mlx5_devx_uar, node));
}

int mlx5dv_devx_uar_export_dmabuf_fd(struct mlx5dv_devx_uar *dv)
{
	struct mlx5_devx_uar *u = (struct mlx5_devx_uar *)dv;

	if (!u) {
		errno = EINVAL;
		return -1;
	}
	/* The same DMABUF_ALLOC as a DM export, at the page's mmap offset. */
	return ibv_cmd_export_dmabuf_fd(&u->ctx->ibv_ctx.context,
					u->dv.mmap_off);
}
