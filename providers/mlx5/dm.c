// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Device memory: MEMIC (on-chip memory the host maps) and the SW-ICM types
 * (device addresses for steering, no CPU mapping); copies; dma-buf export.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "dm_copy.h"
#include "mlx5.h"

static int memic_to_dm(struct ibv_dm *ibdm, uint64_t offset, const void *host,
		       size_t length)
{
	struct mlx5_dm *dm = to_mdm(ibdm);
	int err = mlx5_dm_check_access(dm->length, offset, length);

	if (err)
		return err;
	mlx5_dm_write(dm->start + offset, host, length);
	return 0;
}

static int memic_from_dm(void *host, struct ibv_dm *ibdm, uint64_t offset,
			 size_t length)
{
	struct mlx5_dm *dm = to_mdm(ibdm);
	int err = mlx5_dm_check_access(dm->length, offset, length);

	if (err)
		return err;
	mlx5_dm_read(host, dm->start + offset, length);
	return 0;
}

/* SW-ICM has no CPU mapping: copies fail instead of dereferencing NULL. */
static int unmapped_to_dm(struct ibv_dm *ibdm, uint64_t offset,
			  const void *host, size_t length)
{
	return EOPNOTSUPP;
}

static int unmapped_from_dm(void *host, struct ibv_dm *ibdm, uint64_t offset,
			    size_t length)
{
	return EOPNOTSUPP;
}

/*
 * DM_ALLOC with the mlx5 attributes. MEMIC's type attribute is optional so
 * kernels that predate it (MEMIC only) still answer.
 */
static int alloc_dm_cmd(struct mlx5_context *ctx,
			const struct ibv_alloc_dm_attr *attr,
			struct mlx5_dm *dm, uint64_t *start_offset,
			uint16_t *page_index)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC, 3);
	struct ib_uverbs_attr *type;

	type = uverbs_attr_in_u64(cmd, MLX5_IB_ATTR_ALLOC_DM_REQ_TYPE,
				  dm->type);
	uverbs_attr_out_ptr(cmd, MLX5_IB_ATTR_ALLOC_DM_RESP_START_OFFSET,
			    start_offset, sizeof(*start_offset));
	if (dm->type == MLX5DV_DM_TYPE_MEMIC) {
		uverbs_attr_optional(type);
		uverbs_attr_out_ptr(cmd, MLX5_IB_ATTR_ALLOC_DM_RESP_PAGE_INDEX,
				    page_index, sizeof(*page_index));
	}
	return ibv_cmd_alloc_dm(&ctx->ibv_ctx.context, attr, &dm->verbs_dm,
				cmd);
}

/* Unmap and forget @dm; the kernel object is the caller's business. */
static void release_dm(struct mlx5_context *ctx, struct mlx5_dm *dm)
{
	mlx5_list_del(ctx, &ctx->dm_list, &dm->node);
	mlx5_unmap(&dm->memic_map);
	free(dm);
}

/*
 * At close: DMs the application never freed. Their kernel objects go with
 * the context; the mappings must go first or the kernel context, and every
 * dma-buf exported from it, would outlive the close.
 */
void mlx5_release_all_dms(struct mlx5_context *ctx)
{
	while (ctx->dm_list)
		release_dm(ctx,
			   mlx5_list_entry(ctx->dm_list, struct mlx5_dm, node));
}

/* Map the MEMIC pages at the DEVICE_MEM offset of @page_index. */
static int map_memic(struct mlx5_context *ctx, struct mlx5_dm *dm,
		     uint64_t start_offset, uint16_t page_index)
{
	off_t offset = mlx5_mmap_offset(MLX5_IB_MMAP_DEVICE_MEM, page_index,
					ctx->page_size);
	int err;

	err = mlx5_map(ctx, &dm->memic_map,
		       mlx5_align_up(dm->length, ctx->page_size),
		       PROT_READ | PROT_WRITE, offset);
	if (err)
		return err;
	dm->start = (uint8_t *)dm->memic_map.addr +
		    (start_offset & (ctx->page_size - 1));
	dm->verbs_dm.dm.memcpy_to_dm = memic_to_dm;
	dm->verbs_dm.dm.memcpy_from_dm = memic_from_dm;
	return 0;
}

static struct ibv_dm *alloc_dm(struct ibv_context *ibctx,
			       struct ibv_alloc_dm_attr *attr,
			       enum mlx5dv_alloc_dm_type type)
{
	struct mlx5_context *ctx = to_mctx(ibctx);
	uint64_t start_offset = 0;
	uint16_t page_index = 0;
	struct mlx5_dm *dm;
	int err;

	if (!attr || attr->comp_mask) {
		errno = EINVAL;
		return NULL;
	}
	if (type == MLX5DV_DM_TYPE_MEMIC && attr->length > ctx->max_dm_size) {
		errno = EINVAL;
		return NULL;
	}
	/* malloc and one struct store: cheaper than calloc's memset */
	dm = malloc(sizeof(*dm));
	if (!dm)
		return NULL;
	*dm = (struct mlx5_dm){.type = type, .length = attr->length};

	err = alloc_dm_cmd(ctx, attr, dm, &start_offset, &page_index);
	if (err)
		goto err_free;

	if (type == MLX5DV_DM_TYPE_MEMIC) {
		err = map_memic(ctx, dm, start_offset, page_index);
		if (err)
			goto err_kernel;
	} else {
		dm->remote_va = start_offset;
		dm->verbs_dm.dm.memcpy_to_dm = unmapped_to_dm;
		dm->verbs_dm.dm.memcpy_from_dm = unmapped_from_dm;
	}
	mlx5_list_add(ctx, &ctx->dm_list, &dm->node);
	return &dm->verbs_dm.dm;

err_kernel:
	ibv_cmd_free_dm(&dm->verbs_dm);
err_free:
	free(dm);
	errno = err;
	return NULL;
}

struct ibv_dm *mlx5_alloc_dm(struct ibv_context *ibctx,
			     struct ibv_alloc_dm_attr *attr)
{
	return alloc_dm(ibctx, attr, MLX5DV_DM_TYPE_MEMIC);
}

struct ibv_dm *mlx5dv_alloc_dm(struct ibv_context *ibctx,
			       struct ibv_alloc_dm_attr *dm_attr,
			       struct mlx5dv_alloc_dm_attr *mlx5_dm_attr)
{
	if (!ibctx) {
		errno = EINVAL;
		return NULL;
	}
	if (!mlx5_is_mlx5_context(ibctx)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (!mlx5_dm_attr) {
		errno = EINVAL;
		return NULL;
	}
	if ((unsigned int)mlx5_dm_attr->type > MLX5DV_DM_TYPE_ENCAP_SW_ICM) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (mlx5_dm_attr->comp_mask) {
		errno = EINVAL;
		return NULL;
	}
	return alloc_dm(ibctx, dm_attr, mlx5_dm_attr->type);
}

/*
 * A MEMIC DM another context sharing this cmd fd allocated: DM_QUERY gives
 * its place, and it is mapped like a local one. Only the mapping is ours.
 */
struct ibv_dm *mlx5_import_dm(struct ibv_context *ibctx, uint32_t handle)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DM, MLX5_IB_METHOD_DM_QUERY, 4);
	struct mlx5_context *ctx = to_mctx(ibctx);
	uint64_t start_offset = 0, length = 0;
	uint16_t page_index = 0;
	struct mlx5_dm *dm;
	int err;

	uverbs_attr_in_obj(cmd, MLX5_IB_ATTR_QUERY_DM_REQ_HANDLE, handle);
	uverbs_attr_out_ptr(cmd, MLX5_IB_ATTR_QUERY_DM_RESP_START_OFFSET,
			    &start_offset, sizeof(start_offset));
	uverbs_attr_out_ptr(cmd, MLX5_IB_ATTR_QUERY_DM_RESP_PAGE_INDEX,
			    &page_index, sizeof(page_index));
	uverbs_attr_out_ptr(cmd, MLX5_IB_ATTR_QUERY_DM_RESP_LENGTH, &length,
			    sizeof(length));
	err = uverbs_cmd_execute(ibctx, cmd);
	if (err)
		goto err_out;
	dm = calloc(1, sizeof(*dm));
	if (!dm) {
		err = ENOMEM;
		goto err_out;
	}
	dm->type = MLX5DV_DM_TYPE_MEMIC;
	dm->length = length;
	dm->verbs_dm.handle = handle;
	dm->verbs_dm.dm.context = ibctx;
	dm->verbs_dm.dm.handle = handle;
	dm->verbs_dm.dm.comp_mask = IBV_DM_MASK_HANDLE;
	err = map_memic(ctx, dm, start_offset, page_index);
	if (err) {
		free(dm);
		goto err_out;
	}
	mlx5_list_add(ctx, &ctx->dm_list, &dm->node);
	return &dm->verbs_dm.dm;

err_out:
	errno = err;
	return NULL;
}

void mlx5_unimport_dm(struct ibv_dm *ibdm)
{
	release_dm(to_mctx(ibdm->context), to_mdm(ibdm));
}

/* The kernel object goes first; if it stays, so does everything else. */
int mlx5_free_dm(struct ibv_dm *ibdm)
{
	struct mlx5_dm *dm;
	int err;

	if (!ibdm)
		return EINVAL;
	dm = to_mdm(ibdm);
	err = ibv_cmd_free_dm(&dm->verbs_dm);
	if (err)
		return err;
	release_dm(to_mctx(ibdm->context), dm);
	return 0;
}

/*
 * Export the base MEMIC mapping, whatever op pages were mapped since. A
 * SW-ICM DM has no mmap entry to export: EOPNOTSUPP.
 */
int mlx5_dm_export_dmabuf_fd(struct ibv_dm *ibdm)
{
	struct mlx5_dm *dm;

	if (!ibdm) {
		errno = EINVAL;
		return -1;
	}
	dm = to_mdm(ibdm);
	if (!dm->memic_map.addr) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return ibv_cmd_export_dmabuf_fd(ibdm->context, dm->memic_map.offset);
}
