// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The pages a context maps from the kernel at open, and the non-cached UAR
 * object. In DYN_UAR mode (tot_bfregs == 0, every modern kernel) no UAR page
 * is mapped at open; only the legacy static mode maps them.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "mlx5.h"

int mlx5_map(struct mlx5_context *ctx, struct mlx5_mapping *map,
	     size_t length, int prot, off_t offset)
{
	void *addr = mmap(NULL, length, prot, MAP_SHARED,
			  ctx->ibv_ctx.context.cmd_fd, offset);

	if (addr == MAP_FAILED)
		return errno;
	map->addr = addr;
	map->length = length;
	map->offset = offset;
	return 0;
}

void mlx5_unmap(struct mlx5_mapping *map)
{
	if (map->addr)
		munmap(map->addr, map->length);
	map->addr = NULL;
	map->length = 0;
	map->offset = 0;
}

/* MLX5_SHUT_UP_BF asks for non-cached UAR pages (no BlueFlame). */
static int map_uar_page(struct mlx5_context *ctx, unsigned int i)
{
	struct mlx5_mapping *map = &ctx->uar_pages[i];
	int err = ENOENT;

	if (getenv("MLX5_SHUT_UP_BF"))
		err = mlx5_map(ctx, map, ctx->page_size, PROT_WRITE,
			       mlx5_mmap_offset(MLX5_IB_MMAP_NC_PAGE, i,
						ctx->page_size));
	if (err)
		err = mlx5_map(ctx, map, ctx->page_size, PROT_WRITE,
			       mlx5_mmap_offset(MLX5_IB_MMAP_REGULAR_PAGE, i,
						ctx->page_size));
	return err;
}

static int map_legacy_uars(struct mlx5_context *ctx)
{
	unsigned int i;
	int err;

	ctx->num_uar_pages = ctx->tot_bfregs /
			     (ctx->num_uars_per_page *
			      MLX5_NON_FP_BFREGS_PER_UAR);
	if (!ctx->num_uar_pages)
		return 0;
	ctx->uar_pages = calloc(ctx->num_uar_pages, sizeof(*ctx->uar_pages));
	if (!ctx->uar_pages)
		return ENOMEM;
	for (i = 0; i < ctx->num_uar_pages; i++) {
		err = map_uar_page(ctx, i);
		if (err)
			return err; /* the caller unmaps what was mapped */
	}
	return 0;
}

/* Both clock pages are optional: timestamps just become unavailable. */
static void map_clock_pages(struct mlx5_context *ctx,
			    const struct mlx5_ib_alloc_ucontext_resp *resp)
{
	uint64_t clock = MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_CORE_CLOCK_OFFSET;

	if (resp->comp_mask & clock)
		mlx5_map(ctx, &ctx->core_clock, ctx->page_size, PROT_READ,
			 mlx5_mmap_offset(MLX5_IB_MMAP_CORE_CLOCK, 0,
					  ctx->page_size));
	if (resp->clock_info_versions & (1 << MLX5_IB_CLOCK_INFO_V1))
		mlx5_map(ctx, &ctx->clock_info, ctx->page_size, PROT_READ,
			 mlx5_mmap_offset(MLX5_IB_MMAP_CLOCK_INFO,
					  MLX5_IB_CLOCK_INFO_V1,
					  ctx->page_size));
}

int mlx5_map_context_pages(struct mlx5_context *ctx,
			   const struct mlx5_ib_alloc_ucontext_resp *resp)
{
	int err;

	if (ctx->tot_bfregs) {
		err = map_legacy_uars(ctx);
		if (err) {
			mlx5_unmap_context_pages(ctx);
			return err;
		}
	}
	map_clock_pages(ctx, resp);
	return 0;
}

/* Destroy a UAR object; closing cmd_fd would destroy it anyway. */
void mlx5_uar_obj_destroy(struct mlx5_context *ctx, uint32_t handle)
{
	DECLARE_UVERBS_CMD(cmd, MLX5_IB_OBJECT_UAR,
			   MLX5_IB_METHOD_UAR_OBJ_DESTROY, 1);

	uverbs_attr_in_obj(cmd, MLX5_IB_ATTR_UAR_OBJ_DESTROY_HANDLE, handle);
	uverbs_cmd_execute(&ctx->ibv_ctx.context, cmd);
}

int mlx5_uar_obj_alloc(struct mlx5_context *ctx, uint64_t type,
		       uint32_t *handle, struct mlx5_mapping *map,
		       uint32_t *page_id)
{
	DECLARE_UVERBS_CMD(cmd, MLX5_IB_OBJECT_UAR,
			   MLX5_IB_METHOD_UAR_OBJ_ALLOC, 5);
	struct ib_uverbs_attr *h;
	uint64_t mmap_offset = 0;
	uint32_t mmap_length = 0;
	int err;

	h = uverbs_attr_new_obj(cmd, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE);
	uverbs_attr_in_u64(cmd, MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE, type);
	uverbs_attr_out_ptr(cmd, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET,
			    &mmap_offset, sizeof(mmap_offset));
	uverbs_attr_out_ptr(cmd, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH,
			    &mmap_length, sizeof(mmap_length));
	uverbs_attr_out_ptr(cmd, MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID, page_id,
			    sizeof(*page_id));
	err = uverbs_cmd_execute(&ctx->ibv_ctx.context, cmd);
	if (err)
		return err;
	*handle = uverbs_attr_handle(h);
	err = mmap_length ? mlx5_map(ctx, map, mmap_length, PROT_WRITE,
				     (off_t)mmap_offset)
			  : EINVAL;
	if (err)
		mlx5_uar_obj_destroy(ctx, *handle);
	return err;
}

/*
 * The singleton NC UAR (the CQ doorbell page). Optional: an old kernel or a
 * failure leaves the context without it, as upstream does.
 */
void mlx5_alloc_nc_uar(struct mlx5_context *ctx)
{
	/* Legacy static-UAR kernels refuse dynamic UARs. */
	if (ctx->tot_bfregs)
		return;
	ctx->have_nc_uar = !mlx5_uar_obj_alloc(ctx,
					       MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC,
					       &ctx->nc_uar_handle,
					       &ctx->nc_uar,
					       &ctx->nc_uar_page_id);
}

void mlx5_unmap_context_pages(struct mlx5_context *ctx)
{
	unsigned int i;

	mlx5_unmap(&ctx->nc_uar);
	if (ctx->have_nc_uar)
		mlx5_uar_obj_destroy(ctx, ctx->nc_uar_handle);
	ctx->have_nc_uar = false;
	mlx5_unmap(&ctx->clock_info);
	mlx5_unmap(&ctx->core_clock);
	for (i = 0; ctx->uar_pages && i < ctx->num_uar_pages; i++)
		mlx5_unmap(&ctx->uar_pages[i]);
	free(ctx->uar_pages);
	ctx->uar_pages = NULL;
	ctx->num_uar_pages = 0;
}
