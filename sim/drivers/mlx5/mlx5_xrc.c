// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5_ib's XRC_TGT QP: a kernel QP. The driver takes no user data for it
 * (libmlx5 sends its usual create_qp udata and the kernel ignores it, and
 * leaves the driver response as libmlx5 zeroed it); the QP has no send
 * queue, its receive side is "SRQ" and its CQs are internal. The HCA gets
 * a QP with no rings that answers requests as RC does and hands each
 * message to the XRC SRQ the packet names (hw/mlx5/hca_xrc.c).
 */
#include "mlx5.h"
#include "hca_cmd.h"

int mlx5_sim_create_xrc_tgt(struct sim_uvfile *uv, struct sim_qp *gqp)
{
	const struct hca_create_qp_in c = {
		.hdr.opcode = HCA_CMD_CREATE_QP,
		.dev = uv->dev,
		.qpn = gqp->qpn,
		.st = HCA_ST_XRC,
		.xrc_half = HCA_XRC_HALF_TGT,
		.xrcdn = gqp->xrcd->xrcdn,
	};
	int ret;

	ret = sim_xrc_tgt_new(gqp); /* the domain's QP, held by this handle */
	if (ret)
		return ret;
	return mlx5_sim_qp_create(&gqp->obj, &c);
}

/* Every modify of the QP, through any handle in any process: the context
 * the HCAs' instances of it run by (hw/mlx5/hca_xrc.c). */
void mlx5_sim_xrc_qpc(unsigned int dev, const struct sim_qp *gqp,
		      const struct sim_qp_attr *a)
{
	const struct sim_xrc_qpc qpc = {
		.dest_qpn = a->dest_qp_num,
		.path_dev = mlx5_av_dev(dev, &a->ah),
		.access = (uint8_t)a->qp_access_flags,
		.min_rnr_timer = a->min_rnr_timer,
		.rra_max = a->max_dest_rd_atomic,
	};

	sim_xrc_tgt_set_qpc(sim.sh, dev, gqp->qpn, &qpc);
}

/* A process that opened a TGT QP hears of its async events from the HCA
 * that found them (hw/mlx5/hca_xrc.c), through its own HCA. */
void mlx5_sim_open_xrc_tgt(struct sim_uvfile *uv, struct sim_qp *gqp)
{
	struct hca_num_in in = {
		.hdr.opcode = HCA_CMD_SIM_OPEN_XRC_TGT,
		.num = gqp->qpn,
	};

	(void)uv;
	mlx5_sim_cmd(&in, sizeof(in), NULL, 0);
}
