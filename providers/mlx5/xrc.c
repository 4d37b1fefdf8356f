// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * XRC on mlx5: domains (OPEN_XRCD, no driver data), the target QPs the
 * kernel owns (created or opened: no rings, no doorbell, no driver data;
 * only modify, query and destroy reach them) and the SRQ number senders
 * name. The XRC SRQ itself is srq.c's, the XRC segment of send WQEs is
 * post.c's and wr.c's.
 */
#include <errno.h>
#include <stdlib.h>

#include "datapath.h"

struct ibv_xrcd *mlx5_open_xrcd(struct ibv_context *ctx,
				struct ibv_xrcd_init_attr *attr)
{
	struct verbs_xrcd *xrcd = calloc(1, sizeof(*xrcd));
	int err;

	if (!xrcd) {
		errno = ENOMEM;
		return NULL;
	}
	err = ibv_cmd_open_xrcd(ctx, xrcd, attr, NULL);
	if (err) {
		free(xrcd);
		errno = err;
		return NULL;
	}
	return &xrcd->xrcd;
}

int mlx5_close_xrcd(struct ibv_xrcd *ibxrcd)
{
	struct verbs_xrcd *xrcd = verbs_get_xrcd(ibxrcd);
	int err = ibv_cmd_close_xrcd(xrcd);

	if (!err)
		free(xrcd);
	return err;
}

static struct mlx5_qp *tgt_alloc(void)
{
	struct mlx5_qp *qp = calloc(1, sizeof(*qp));

	if (!qp)
		return NULL;
	qp->qp_type = IBV_QPT_XRC_RECV;
	qp->rsc.type = MLX5_RSC_QP;
	pthread_spin_init(&qp->sq.lock, PTHREAD_PROCESS_PRIVATE);
	pthread_spin_init(&qp->rq.lock, PTHREAD_PROCESS_PRIVATE);
	return qp;
}

static void tgt_free(struct mlx5_qp *qp)
{
	pthread_spin_destroy(&qp->sq.lock);
	pthread_spin_destroy(&qp->rq.lock);
	free(qp);
}

static struct ibv_qp *tgt_done(struct mlx5_qp *qp, int err)
{
	if (err) {
		tgt_free(qp);
		errno = err;
		return NULL;
	}
	qp->qpn = qp->verbs_qp.qp.qp_num;
	return &qp->verbs_qp.qp;
}

/* The kernel makes XRC_TGT QPs for itself and reads no driver data. */
struct ibv_qp *mlx5_create_xrc_tgt(struct ibv_context *ctx,
				   struct ibv_qp_init_attr_ex *attr)
{
	struct mlx5_qp *qp;

	if (attr->comp_mask & ~(uint32_t)IBV_QP_INIT_ATTR_XRCD) {
		errno = EINVAL;
		return NULL;
	}
	qp = tgt_alloc();
	if (!qp) {
		errno = ENOMEM;
		return NULL;
	}
	return tgt_done(
		qp, ibv_cmd_create_qp_ex(ctx, &qp->verbs_qp, attr, NULL, NULL));
}

struct ibv_qp *mlx5_open_qp(struct ibv_context *ctx,
			    struct ibv_qp_open_attr *attr)
{
	struct mlx5_qp *qp = tgt_alloc();

	if (!qp) {
		errno = ENOMEM;
		return NULL;
	}
	return tgt_done(qp, ibv_cmd_open_qp(ctx, &qp->verbs_qp, attr, NULL));
}

int mlx5_destroy_xrc_tgt(struct mlx5_qp *qp)
{
	int err = ibv_cmd_destroy_qp(&qp->verbs_qp.qp);

	if (!err)
		tgt_free(qp);
	return err;
}

int mlx5_get_srq_num(struct ibv_srq *srq, uint32_t *srq_num)
{
	*srq_num = to_msrq(srq)->srqn;
	return 0;
}
