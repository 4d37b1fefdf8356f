// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Scatter to CQE as mlx5_ib configures it at QP creation (qp.c:
 * create_user_qp, create_dci, create_dct, configure_requester_scat_cqe).
 * The user's MLX5_QP_FLAG_SCATTER_CQE is taken, never refused, since the
 * HCA has sctr_data_cqe (without it mlx5_ib would drop the flag
 * silently). Responder (QPC cs_res): RC and UC, 64 bytes into a 128-byte
 * receive CQE, else 32; a DCT only with a 128-byte CQE (64). Requester
 * (cs_req): RC and DCI, and only when every WR is signalled (sq_sig_all)
 * or the user allowed it anyway (MLX5_QP_FLAG_ALLOW_SCATTER_CQE); 64
 * bytes with a 128-byte send CQE, else 32, which a DCI gets only if the
 * HCA has dc_req_scat_data_cqe (this one does not). UD, XRC and raw QPs
 * get neither. A QP without a CQ counts as one of 128-byte CQEs.
 */
#include "mlx5.h"
#include "hca_cmd.h"

/* MLX5_CAP_GEN(dc_req_scat_data_cqe) of the modelled HCA */
#define MLX5_SIM_DC_REQ_SCAT_DATA_CQE 0

/* mlx5_ib_get_cqe_size: the CQE size the CQ was created with. */
static uint32_t cqe_size(struct sim_cq *cq)
{
	struct hca_num_in q = {.hdr.opcode = HCA_CMD_QUERY_CQ};
	struct hca_query_cq_out o = {};

	if (!cq)
		return 128;
	q.num = mlx5_sim_res_num(&cq->obj);
	if (mlx5_sim_cmd(&q, sizeof(q), &o, sizeof(o)))
		return 64;
	return o.cqe_size;
}

uint8_t mlx5_sim_cs_res(const struct sim_qp *gqp, uint32_t flags, int dc)
{
	uint32_t sz;

	if (!(flags & MLX5_QP_FLAG_SCATTER_CQE))
		return HCA_CS_RES_DISABLE;
	sz = cqe_size(gqp->recv_cq);
	if (dc == MLX5_QP_FLAG_TYPE_DCT)
		return sz == 128 ? HCA_CS_RES_UP_TO_64B : HCA_CS_RES_DISABLE;
	if (dc || (gqp->qp_type != IB_QPT_RC && gqp->qp_type != IB_QPT_UC))
		return HCA_CS_RES_DISABLE;
	return sz == 128 ? HCA_CS_RES_UP_TO_64B : HCA_CS_RES_UP_TO_32B;
}

uint8_t mlx5_sim_cs_req(const struct sim_qp *gqp, uint32_t flags, int dc)
{
	int dci = dc == MLX5_QP_FLAG_TYPE_DCI;

	if (!(flags & MLX5_QP_FLAG_SCATTER_CQE) ||
	    (!dci && gqp->qp_type != IB_QPT_RC) ||
	    (!(flags & MLX5_QP_FLAG_ALLOW_SCATTER_CQE) && !gqp->sq_sig_all))
		return HCA_CS_REQ_DISABLE;
	if (cqe_size(gqp->send_cq) == 128)
		return HCA_CS_REQ_UP_TO_64B;
	return !dci || MLX5_SIM_DC_REQ_SCAT_DATA_CQE ? HCA_CS_REQ_UP_TO_32B
						     : HCA_CS_REQ_DISABLE;
}
