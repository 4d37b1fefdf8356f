// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5_ib's XRC_TGT QP: a kernel QP. The driver takes no user data for it
 * (libmlx5 sends its usual create_qp udata and the kernel ignores it, and
 * leaves the driver response as libmlx5 zeroed it); the QP has no send
 * queue, its receive side is "SRQ" and its CQs are internal. The engine
 * gets a QP with no rings that answers requests as RC does and hands each
 * message to the XRC SRQ the packet names (hw/mlx5/hca_xrc.c).
 */
#include "hca.h"

#include <errno.h>
#include <stdlib.h>

int mlx5_sim_create_xrc_tgt(struct sim_uvfile *uv, struct sim_qp *gqp)
{
	struct hca_qp *qp = calloc(1, sizeof(*qp));
	int ret;

	if (!qp)
		return -ENOMEM;
	qp->type = IB_QPT_RC;
	qp->xrc = HCA_XRC_TGT;
	qp->xrcdn = gqp->xrcd->xrcdn;
	ret = sim_xrc_tgt_new(gqp); /* the domain's QP, held by this handle */
	if (!ret)
		ret = mlx5_sim_qp_attach(uv, gqp, qp);
	if (ret) {
		free(qp);
		return ret;
	}
	hca_engine_start();
	return 0;
}

/* A process that opened a TGT QP hears of its async events from the HCA
 * that found them (hw/mlx5/hca_xrc.c): it needs a ring and an engine even
 * with no queue of its own. */
void mlx5_sim_open_xrc_tgt(struct sim_uvfile *uv, struct sim_qp *gqp)
{
	(void)uv, (void)gqp;
	if (!hca_fabric_open())
		hca_engine_start();
}
