// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5dv entry points on DM objects: op-address pages and init_obj.
 */
#include <errno.h>
#include <sys/mman.h>

#include "mlx5.h"

static bool is_mlx5_dm(struct ibv_dm *ibdm)
{
	return ibdm && mlx5_is_mlx5_context(ibdm->context);
}

/*
 * The op page is mapped for the caller and not recorded in the DM: the
 * export keeps using the base mapping (see struct mlx5_dm).
 */
void *mlx5dv_dm_map_op_addr(struct ibv_dm *ibdm, uint8_t op)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DM, MLX5_IB_METHOD_DM_MAP_OP_ADDR,
			   4);
	struct mlx5_context *ctx;
	struct mlx5_dm *dm;
	uint64_t start_offset = 0;
	uint16_t page_index = 0;
	void *addr;
	int err;

	if (!ibdm) {
		errno = EINVAL;
		return NULL;
	}
	if (!is_mlx5_dm(ibdm)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	dm = to_mdm(ibdm);
	ctx = to_mctx(ibdm->context);
	if (dm->type != MLX5DV_DM_TYPE_MEMIC) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	uverbs_attr_in_obj(cmd, MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_HANDLE,
			   dm->verbs_dm.handle);
	uverbs_attr_in_ptr(cmd, MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_OP, &op,
			   sizeof(op));
	uverbs_attr_out_ptr(cmd, MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_START_OFFSET,
			    &start_offset, sizeof(start_offset));
	uverbs_attr_out_ptr(cmd, MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_PAGE_INDEX,
			    &page_index, sizeof(page_index));
	err = uverbs_cmd_execute(ibdm->context, cmd);
	if (err) {
		errno = err;
		return NULL;
	}
	addr = mmap(NULL, mlx5_align_up(dm->length, ctx->page_size),
		    PROT_READ | PROT_WRITE, MAP_SHARED, ibdm->context->cmd_fd,
		    mlx5_mmap_offset(MLX5_IB_MMAP_DEVICE_MEM, page_index,
				     ctx->page_size));
	if (addr == MAP_FAILED)
		return NULL;
	return (uint8_t *)addr + (start_offset & (ctx->page_size - 1));
}

static int init_dm_obj(struct ibv_dm *ibdm, struct mlx5dv_dm *out)
{
	struct mlx5_dm *dm;

	if (!ibdm || !out)
		return EINVAL;
	if (!is_mlx5_dm(ibdm))
		return EOPNOTSUPP;
	dm = to_mdm(ibdm);
	out->buf = dm->start;
	out->length = dm->length;
	/* Answer only what was asked and is known. */
	out->comp_mask &= MLX5DV_DM_MASK_REMOTE_VA;
	if (out->comp_mask & MLX5DV_DM_MASK_REMOTE_VA)
		out->remote_va = dm->remote_va;
	return 0;
}

int mlx5dv_init_obj(struct mlx5dv_obj *obj, uint64_t obj_type)
{
	if (!obj) {
		errno = EINVAL;
		return EINVAL;
	}
	if (obj_type & ~(uint64_t)MLX5DV_OBJ_DM)
		return EOPNOTSUPP;
	if (obj_type & MLX5DV_OBJ_DM)
		return init_dm_obj(obj->dm.in, obj->dm.out);
	return 0;
}
