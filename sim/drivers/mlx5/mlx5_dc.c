// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5_ib's DC QPs (IB_QPT_DRIVER): the vendor flags that make a driver
 * QP a DCT or a DCI, the DCT's context (PD, SRQ, receive CQ, access key,
 * user index) whose number exists only from INIT->RTR on and reaches the
 * library in the modify response, and the exact attribute masks mlx5_ib
 * allows for each DC transition instead of the IB state table.
 */
#include "mlx5.h"
#include "hca_cmd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define DC_FLAGS (MLX5_QP_FLAG_TYPE_DCT | MLX5_QP_FLAG_TYPE_DCI)
#define M(b)	 IB_QP_##b

int mlx5_sim_dc_flags(const struct sim_qp *gqp, uint32_t *flags, int *kind)
{
	uint32_t dc = *flags & DC_FLAGS;

	*kind = 0;
	if (gqp->qp_type != IB_QPT_DRIVER)
		return dc ? -EINVAL : 0;
	/* a driver QP is exactly one of them; streams are not reported */
	if ((dc != MLX5_QP_FLAG_TYPE_DCT && dc != MLX5_QP_FLAG_TYPE_DCI) ||
	    (*flags & MLX5_QP_FLAG_DCI_STREAM))
		return -EINVAL;
	if (dc == MLX5_QP_FLAG_TYPE_DCT && (!gqp->srq || !gqp->recv_cq))
		return -EINVAL;
	if (dc == MLX5_QP_FLAG_TYPE_DCI &&
	    (gqp->attr.cap.max_recv_wr || gqp->attr.cap.max_recv_sge))
		return -EINVAL;
	*kind = dc;
	*flags &= ~DC_FLAGS;
	return 0;
}

/* The DCT's context waits in the driver until INIT->RTR creates it. */
int mlx5_sim_create_dct(struct sim_uvfile *uv, struct sim_qp *gqp,
			const struct mlx5_ib_create_qp *req)
{
	struct hca_create_dct_in *c = calloc(1, sizeof(*c));
	struct mlx5_sim_res *r;

	if (!c)
		return -ENOMEM;
	c->hdr.opcode = HCA_CMD_CREATE_DCT;
	c->dev = uv->dev;
	c->dctn = gqp->qpn; /* the number the firmware gives it at RTR */
	c->pdn = mlx5_sim_pdn(gqp->pd);
	c->cqn = mlx5_sim_res_num(&gqp->recv_cq->obj);
	c->srqn = mlx5_sim_res_num(&gqp->srq->obj);
	c->uidx = req->uidx;
	c->dc_key = req->access_key;
	c->cs_res = mlx5_sim_cs_res(gqp, req->flags, MLX5_QP_FLAG_TYPE_DCT);
	r = mlx5_sim_res_add(MLX5_RES_QP, c->dctn, &gqp->obj);
	if (!r) {
		free(c);
		return -ENOMEM;
	}
	r->dct = c;
	gqp->qpn = 0; /* create answers qp_num 0 */
	return 0;
}

/* One allowed DC transition: the mask bits it needs and those it may
 * carry besides (STATE is always there). */
struct dc_step {
	uint8_t cur, next;
	uint32_t req, opt;
};

static const struct dc_step dct_steps[] = {
	{IB_QPS_RESET, IB_QPS_INIT, M(ACCESS_FLAGS) | M(PKEY_INDEX) | M(PORT),
	 0},
	{IB_QPS_INIT, IB_QPS_RTR, M(MIN_RNR_TIMER) | M(AV) | M(PATH_MTU), 0},
};

static const struct dc_step dci_steps[] = {
	{IB_QPS_RESET, IB_QPS_INIT, M(PKEY_INDEX) | M(PORT), 0},
	{IB_QPS_INIT, IB_QPS_INIT, 0, M(PKEY_INDEX) | M(PORT)},
	{IB_QPS_INIT, IB_QPS_RTR, M(PATH_MTU), M(PKEY_INDEX) | M(AV)},
	{IB_QPS_RTR, IB_QPS_RTS,
	 M(TIMEOUT) | M(RETRY_CNT) | M(RNR_RETRY) | M(MAX_QP_RD_ATOMIC) |
		 M(SQ_PSN),
	 M(MIN_RNR_TIMER)},
	{IB_QPS_RTS, IB_QPS_RTS, 0, M(MIN_RNR_TIMER)},
};

static int step_ok(const struct dc_step *t, size_t n, unsigned int cur,
		   unsigned int next, uint32_t mask)
{
	size_t i;

	mask &= ~(uint32_t)M(STATE);
	for (i = 0; i < n; i++)
		if (t[i].cur == cur && t[i].next == next)
			return (mask & t[i].req) == t[i].req &&
			       !(mask & ~(t[i].req | t[i].opt));
	return 0;
}

static int dci_ok(unsigned int cur, unsigned int next, uint32_t mask)
{
	/* to RESET from anywhere, to ERR from anything but RESET: STATE */
	if (next == IB_QPS_RESET || (next == IB_QPS_ERR && cur != IB_QPS_RESET))
		return mask == M(STATE);
	return step_ok(dci_steps, sizeof(dci_steps) / sizeof(dci_steps[0]), cur,
		       next, mask);
}

/* INIT->RTR makes the DCT: its number goes back in the response. */
static int dct_rtr(struct sim_qp *gqp, struct mlx5_sim_res *res, void *out,
		   size_t out_len)
{
	struct mlx5_ib_modify_qp_resp r = {};
	int ret;

	if (out_len < offsetof(struct mlx5_ib_modify_qp_resp, ece_options))
		return -EINVAL;
	ret = mlx5_sim_cmd(res->dct, sizeof(*res->dct), NULL, 0);
	if (ret)
		return ret;
	res->dct_live = 1;
	gqp->qpn = res->num;
	r.response_length =
		out_len < sizeof(r) ? (uint32_t)out_len : (uint32_t)sizeof(r);
	r.dctn = res->num;
	memcpy(out, &r, r.response_length);
	return 0;
}

int mlx5_sim_dc_modify(struct sim_qp *gqp, const struct sim_qp_attr *a,
		       uint32_t mask, void *out, size_t out_len)
{
	struct mlx5_sim_res *r = gqp->obj.drv;
	unsigned int cur = gqp->attr.qp_state;
	unsigned int next = (mask & M(STATE)) ? a->qp_state : cur;

	if (!r->dct)
		return dci_ok(cur, next, mask) ? 0 : -EINVAL;
	/* a DCT goes RESET->INIT->RTR once, and is destroyed after */
	if (!(mask & M(STATE)) ||
	    !step_ok(dct_steps, sizeof(dct_steps) / sizeof(dct_steps[0]), cur,
		     next, mask))
		return -EINVAL;
	if (next == IB_QPS_INIT) {
		r->dct->access = (uint8_t)a->qp_access_flags;
		return 1;
	}
	r->dct->min_rnr_timer = a->min_rnr_timer;
	r->dct->dp_ooo = r->ooo_dp;
	if (dct_rtr(gqp, r, out, out_len))
		return -EINVAL;
	return 1;
}

void mlx5_sim_destroy_dct(struct sim_qp *gqp)
{
	struct mlx5_sim_res *r = gqp->obj.drv;

	if (r->dct_live)
		mlx5_sim_hca_destroy(HCA_CMD_DESTROY_DCT, r->num);
}
