// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5dv_create_cq: an extended CQ with the mlx5 attributes (CQE size,
 * CQE compression, 128-byte padding), checked as libmlx5 checks them
 * against the caps the device reported at open. Whether the device then
 * runs them is the kernel's call: its errno comes back unchanged.
 */
#include <errno.h>

#include "datapath.h"

#define DV_CQ_MASK                                                             \
	(MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE |                             \
	 MLX5DV_CQ_INIT_ATTR_MASK_FLAGS | MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE)

static int check_dv(const struct mlx5_context *ctx,
		    const struct mlx5dv_cq_init_attr *a, struct mlx5_cq_dv *dv)
{
	const struct mlx5_dv_caps *caps = &ctx->dv_caps;
	int err = 0;

	if (a && (a->comp_mask & ~(uint64_t)DV_CQ_MASK))
		return EINVAL;
	if (a && (a->comp_mask & MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE))
		dv->cqe_size = a->cqe_size;
	else
		err = mlx5_env_cqe_size(&dv->cqe_size);
	if (err || (dv->cqe_size != 64 && dv->cqe_size != 128))
		return EINVAL;
	if (!a)
		return 0;
	if (a->comp_mask & MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE) {
		if (!caps->cqe_comp.max_num ||
		    !(a->cqe_comp_res_format & caps->cqe_comp.supported_format))
			return EINVAL;
		dv->comp_en = 1;
		dv->comp_format = a->cqe_comp_res_format;
	}
	if (!(a->comp_mask & MLX5DV_CQ_INIT_ATTR_MASK_FLAGS))
		return 0;
	if (a->flags >= MLX5DV_CQ_INIT_ATTR_FLAGS_RESERVED)
		return EINVAL;
	if (a->flags & MLX5DV_CQ_INIT_ATTR_FLAGS_CQE_PAD) {
		if (!(caps->flags & MLX5DV_CONTEXT_FLAGS_CQE_128B_PAD) ||
		    dv->cqe_size != 128)
			return EINVAL;
		dv->flags |= MLX5_IB_CREATE_CQ_FLAGS_CQE_128B_PAD;
	}
	return 0;
}

struct ibv_cq_ex *mlx5dv_create_cq(struct ibv_context *context,
				   struct ibv_cq_init_attr_ex *cq_attr,
				   struct mlx5dv_cq_init_attr *mlx5_cq_attr)
{
	struct mlx5_cq_dv dv = {};
	struct mlx5_cq *cq;
	int err;

	if (!context || !cq_attr) {
		errno = EINVAL;
		return NULL;
	}
	if (!mlx5_is_mlx5_context(context)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	err = check_dv(to_mctx(context), mlx5_cq_attr, &dv);
	if (err) {
		errno = err;
		return NULL;
	}
	cq = mlx5_create_cq_common(context, cq_attr, &dv);
	if (!cq)
		return NULL;
	mlx5_cq_ex_set_ops(cq);
	return &cq->verbs_cq.cq_ex;
}
