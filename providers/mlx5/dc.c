// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Dynamically Connected QPs (mlx5dv_create_qp with MLX5DV_QP_INIT_ATTR_
 * MASK_DC): the checks libmlx5 makes before the kernel hears of a DCT or
 * a DCI, the vendor flags and access key of the create udata, and the
 * DCT's modify, whose response brings its number (known from RTR on).
 */
#include <errno.h>
#include <string.h>

#include "datapath.h"

/* What a DCT may carry: a PD in the core mask, DC and create flags in
 * the dv mask, and only the scatter-to-CQE and out-of-order receive
 * create flags (max_dct judges the latter). */
#define DCT_DV_MASK                                                            \
	(MLX5DV_QP_INIT_ATTR_MASK_DC | MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS)
#define DCT_FLAGS                                                              \
	(MLX5DV_QP_CREATE_DISABLE_SCATTER_TO_CQE |                             \
	 MLX5DV_QP_CREATE_ALLOW_SCATTER_TO_CQE | MLX5DV_QP_CREATE_OOO_DP)

static int check_dct(const struct ibv_qp_init_attr_ex *qp_attr,
		     const struct mlx5dv_qp_init_attr *a, struct mlx5_qp_dv *dv)
{
	if (qp_attr->comp_mask & ~(uint32_t)IBV_QP_INIT_ATTR_PD)
		return EINVAL;
	if (a->comp_mask & ~(uint64_t)DCT_DV_MASK)
		return EINVAL;
	if ((a->comp_mask & MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS) &&
	    (a->create_flags & ~(uint32_t)DCT_FLAGS))
		return EINVAL;
	dv->dc_key = a->dc_init_attr.dct_access_key;
	return 0;
}

/* The device reports no DCI streams (dci_streams_caps 0/0). */
static int check_dci(const struct mlx5dv_qp_init_attr *a)
{
	const struct mlx5dv_dci_streams *s = &a->dc_init_attr.dci_streams;

	if ((a->comp_mask & MLX5DV_QP_INIT_ATTR_MASK_DCI_STREAMS) &&
	    (s->log_num_concurent || s->log_num_errored))
		return EINVAL;
	return 0;
}

int mlx5_dc_check(const struct ibv_qp_init_attr_ex *qp_attr,
		  const struct mlx5dv_qp_init_attr *a, struct mlx5_qp_dv *dv)
{
	switch (a->dc_init_attr.dc_type) {
	case MLX5DV_DCTYPE_DCT:
		dv->dc_type = MLX5DV_DCTYPE_DCT;
		return check_dct(qp_attr, a, dv);
	case MLX5DV_DCTYPE_DCI:
		dv->dc_type = MLX5DV_DCTYPE_DCI;
		return check_dci(a);
	default:
		return EINVAL;
	}
}

/*
 * A DCT's modify goes as EX_MODIFY_QP with a response buffer: at INIT->RTR
 * the kernel makes the DCT and answers its number, which becomes the QP
 * number the application hands to its DCIs' peers.
 */
int mlx5_dc_modify_dct(struct mlx5_qp *qp, struct ibv_qp_attr *attr,
		       int attr_mask)
{
	struct mlx5_ib_modify_qp req = {};
	struct mlx5_ib_modify_qp_resp resp = {};
	struct ibv_udata udata = {.in = &req,
				  .in_len = sizeof(req),
				  .out = &resp,
				  .out_len = sizeof(resp)};
	int err;

	req.comp_mask = mlx5_modify_qp_comp_mask(qp, attr, attr_mask);
	err = ibv_cmd_modify_qp(&qp->verbs_qp.qp, attr, attr_mask, &udata);

	if (err || !(attr_mask & IBV_QP_STATE) || attr->qp_state != IBV_QPS_RTR)
		return err;
	if (resp.response_length <
	    offsetof(struct mlx5_ib_modify_qp_resp, dctn) + sizeof(resp.dctn))
		return EINVAL;
	qp->qpn = resp.dctn;
	qp->verbs_qp.qp.qp_num = resp.dctn;
	return 0;
}
