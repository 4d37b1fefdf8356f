// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5dv_create_qp: ibv_create_qp_ex plus the mlx5 creation flags and
 * send ops, checked as libmlx5 checks them. Flags the kernel judges go to
 * it as UHW flags; what needs a part of the device this library does not
 * drive (signature pipelining, mkeys, DMA memcpy) is EOPNOTSUPP. DC QPs
 * are checked in dc.c. Out-of-order receives need the QP type's
 * ooo_recv_wrs_caps (query.c) and go to the kernel at RESET->INIT (qp.c).
 */
#include <errno.h>

#include "datapath.h"

#define DV_QP_MASK                                                             \
	(MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS |                            \
	 MLX5DV_QP_INIT_ATTR_MASK_DC | MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS | \
	 MLX5DV_QP_INIT_ATTR_MASK_DCI_STREAMS)

#define DV_QP_FLAGS                                                            \
	(MLX5DV_QP_CREATE_TUNNEL_OFFLOADS |                                    \
	 MLX5DV_QP_CREATE_TIR_ALLOW_SELF_LOOPBACK_UC |                         \
	 MLX5DV_QP_CREATE_TIR_ALLOW_SELF_LOOPBACK_MC |                         \
	 MLX5DV_QP_CREATE_DISABLE_SCATTER_TO_CQE |                             \
	 MLX5DV_QP_CREATE_ALLOW_SCATTER_TO_CQE |                               \
	 MLX5DV_QP_CREATE_PACKET_BASED_CREDIT_MODE |                           \
	 MLX5DV_QP_CREATE_SIG_PIPELINING | MLX5DV_QP_CREATE_OOO_DP)

static int check_flags(uint32_t flags)
{
	const uint32_t scatter = MLX5DV_QP_CREATE_DISABLE_SCATTER_TO_CQE |
				 MLX5DV_QP_CREATE_ALLOW_SCATTER_TO_CQE;

	if ((flags & ~(uint32_t)DV_QP_FLAGS) || (flags & scatter) == scatter)
		return EINVAL;
	/* Signature pipelining: not driven. */
	if (flags & MLX5DV_QP_CREATE_SIG_PIPELINING)
		return EOPNOTSUPP;
	return 0;
}

/* The out-of-order receive depth the device offers this QP type. */
static uint32_t ooo_max(const struct mlx5dv_ooo_recv_wrs_caps *o,
			const struct ibv_qp_init_attr_ex *qp_attr,
			const struct mlx5_qp_dv *dv)
{
	switch (qp_attr->qp_type) {
	case IBV_QPT_RC:
		return o->max_rc;
	case IBV_QPT_UC:
		return o->max_uc;
	case IBV_QPT_UD:
		return o->max_ud;
	case IBV_QPT_XRC_SEND:
	case IBV_QPT_XRC_RECV:
		return o->max_xrc;
	case IBV_QPT_DRIVER:
		return dv->dc_type ? o->max_dct : 0;
	default:
		return 0;
	}
}

/* RC, UC and UD take a raw WQE; mkeys and memcpy are not driven. */
static int check_send_ops(const struct ibv_qp_init_attr_ex *qp_attr,
			  uint64_t ops)
{
	if (!(qp_attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS))
		return EINVAL;
	if (qp_attr->comp_mask & IBV_QP_INIT_ATTR_RX_HASH)
		return EINVAL;
	return ops & ~(uint64_t)MLX5DV_QP_EX_WITH_RAW_WQE ? EOPNOTSUPP : 0;
}

static int check_dv(const struct mlx5_context *ctx,
		    const struct ibv_qp_init_attr_ex *qp_attr,
		    const struct mlx5dv_qp_init_attr *a, struct mlx5_qp_dv *dv)
{
	bool dc = a->comp_mask & MLX5DV_QP_INIT_ATTR_MASK_DC;
	int err = 0;

	if (a->comp_mask & ~(uint64_t)DV_QP_MASK)
		return EINVAL;
	if (dc != (qp_attr->qp_type == IBV_QPT_DRIVER))
		return EINVAL;
	if (dc)
		err = mlx5_dc_check(qp_attr, a, dv);
	else if (a->comp_mask & MLX5DV_QP_INIT_ATTR_MASK_DCI_STREAMS)
		return EINVAL; /* streams belong to a DCI */
	if (err)
		return err;
	if (a->comp_mask & MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS) {
		dv->create_flags = a->create_flags;
		err = check_flags(dv->create_flags);
		if (!err && (dv->create_flags & MLX5DV_QP_CREATE_OOO_DP) &&
		    !ooo_max(&ctx->dv_caps.ooo_recv_wrs, qp_attr, dv))
			err = EOPNOTSUPP;
	}
	if (!err && (a->comp_mask & MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS)) {
		dv->send_ops = a->send_ops_flags;
		err = check_send_ops(qp_attr, dv->send_ops);
	}
	return err;
}

struct ibv_qp *mlx5dv_create_qp(struct ibv_context *context,
				struct ibv_qp_init_attr_ex *qp_attr,
				struct mlx5dv_qp_init_attr *mlx5_qp_attr)
{
	struct mlx5_qp_dv dv = {};
	int err;

	if (!context || !qp_attr || !mlx5_qp_attr) {
		errno = EINVAL;
		return NULL;
	}
	if (!mlx5_is_mlx5_context(context)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	err = check_dv(to_mctx(context), qp_attr, mlx5_qp_attr, &dv);
	if (err) {
		errno = err;
		return NULL;
	}
	return mlx5_create_qp_dv(context, qp_attr, &dv);
}
