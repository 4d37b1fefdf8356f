// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The tag-matching data path: ibv_post_srq_ops as TAG_MATCHING WQEs on the
 * SRQ's command QP, and the CQEs with app = tag matching (see tm.c).
 */
#include <errno.h>
#include <string.h>

#include "tm.h"
#include "wqe.h"

/* Called with the SRQ lock. */
static void release_tag(struct mlx5_tm *tm, uint32_t idx)
{
	struct mlx5_tm_tag *t = &tm->tags[idx];

	if (!t->expect || --t->expect)
		return;
	t->next = TM_NONE;
	tm->tags[tm->tail].next = idx;
	tm->tail = idx;
}

static void set_tm_seg(struct mlx5_wqe_tm_seg *seg, uint8_t op,
		       const struct ibv_ops_wr *wr, uint32_t index)
{
	memset(seg, 0, sizeof(*seg));
	seg->opcode = (uint8_t)(op << 4);
	if (wr->flags & IBV_OPS_SIGNALED)
		seg->flags |= TM_FLAG_CQE_REQ;
	if (wr->flags & IBV_OPS_TM_SYNC) {
		seg->flags |= TM_FLAG_SW_CNT;
		seg->sw_cnt = htobe16((uint16_t)wr->tm.unexpected_cnt);
	}
	seg->index = htobe16((uint16_t)index);
	if (op == TM_WQE_APPEND) {
		seg->append_tag = htobe64(wr->tm.add.tag);
		seg->append_mask = htobe64(wr->tm.add.mask);
	}
}

/* A signaled op's CQE will name this tag (TM_NONE: none). */
static void push_op(struct mlx5_tm *tm, struct mlx5_qp *qp,
		    const struct ibv_ops_wr *wr, uint32_t tag,
		    unsigned int nreq)
{
	struct mlx5_tm_op *op = &tm->ops[tm->op_tail++ & (qp->sq.wqe_cnt - 1)];

	op->wr_id = wr->wr_id;
	op->tag = tag;
	op->wqe_head = qp->sq.head + nreq;
	if (tag != TM_NONE)
		tm->tags[tag].expect++;
}

/* The TM segment and buffer of one op at seg; its size in 16-byte units
 * after ctrl, or 0 with *err. */
static unsigned int build_op(struct mlx5_tm *tm, struct mlx5_qp *qp,
			     struct ibv_ops_wr *wr, void *seg,
			     unsigned int nreq, int *err)
{
	const bool signaled = wr->flags & IBV_OPS_SIGNALED;
	const struct ibv_sge *sg = wr->tm.add.sg_list;
	struct mlx5_tm_tag *t;
	uint32_t idx;

	switch (wr->opcode) {
	case IBV_WR_TAG_ADD:
		if (wr->tm.add.num_sge > 1 || (wr->tm.add.num_sge && !sg) ||
		    wr->tm.add.num_sge < 0) {
			*err = EINVAL;
			return 0;
		}
		idx = tm->head;
		if (tm->tags[idx].next == TM_NONE) { /* one stays spare */
			*err = ENOMEM;
			return 0;
		}
		t = &tm->tags[idx];
		tm->head = t->next;
		t->next = TM_NONE;
		set_tm_seg(seg, TM_WQE_APPEND, wr, tm->head);
		if (wr->flags & IBV_OPS_TM_SYNC)
			tm->unexp_out = (uint16_t)wr->tm.unexpected_cnt;
		t->wr_id = wr->tm.add.recv_wr_id;
		t->phase = tm->unexp_out;
		t->expect = 1;
		if (signaled)
			push_op(tm, qp, wr, idx, nreq);
		wr->tm.handle = idx;
		seg = mlx5_sq_wrap(qp, (uint8_t *)seg +
					       sizeof(struct mlx5_wqe_tm_seg));
		if (wr->tm.add.num_sge && sg->length)
			mlx5_set_data(seg, sg->length, sg->lkey, sg->addr);
		else
			mlx5_set_data(seg, 0, MLX5_INVALID_LKEY, 0);
		return 3;
	case IBV_WR_TAG_DEL:
		idx = wr->tm.handle;
		/* only a tag the HCA may still hold can be removed */
		if (idx >= tm->ntags || !tm->tags[idx].expect) {
			*err = EINVAL;
			return 0;
		}
		set_tm_seg(seg, TM_WQE_REMOVE, wr, idx);
		if (signaled)
			push_op(tm, qp, wr, idx, nreq);
		else
			release_tag(tm, idx);
		return 2;
	case IBV_WR_TAG_SYNC:
		set_tm_seg(seg, TM_WQE_NOP, wr, 0);
		if (wr->flags & IBV_OPS_TM_SYNC)
			tm->unexp_out = (uint16_t)wr->tm.unexpected_cnt;
		if (signaled)
			push_op(tm, qp, wr, TM_NONE, nreq);
		return 2;
	default:
		*err = EINVAL;
		return 0;
	}
}

int mlx5_post_srq_ops(struct ibv_srq *ibsrq, struct ibv_ops_wr *wr,
		      struct ibv_ops_wr **bad_wr)
{
	struct mlx5_srq *srq = to_msrq(ibsrq);
	struct mlx5_wqe_ctrl_seg *ctrl = NULL;
	unsigned int nreq = 0, ds = 0, idx;
	struct mlx5_tm *tm = srq->tm;
	struct mlx5_qp *qp;
	int err = 0;

	/* not a TM SRQ, or one whose destroy took its command QP and then
	 * failed (a QP still uses it) */
	if (!tm || !tm->cmd_qp) {
		*bad_wr = wr;
		return EINVAL;
	}
	qp = to_mqp(tm->cmd_qp);
	pthread_spin_lock(&srq->lock);
	for (; wr; wr = wr->next, nreq++) {
		if (mlx5_sq_full(qp, nreq)) {
			err = ENOMEM;
			break;
		}
		idx = qp->sq.cur_post & (qp->sq.wqe_cnt - 1);
		ctrl = mlx5_sq_wqe(qp, idx);
		ds = build_op(tm, qp, wr, ctrl + 1, nreq, &err);
		if (!ds)
			break;
		ds++; /* ctrl */
		mlx5_set_ctrl(ctrl, qp->sq.cur_post, MLX5_OPCODE_TAG_MATCHING,
			      qp->qpn8, ds, 0, 0);
		qp->sq.wrid[idx] = wr->wr_id;
		qp->sq.wqe_head[idx] = qp->sq.head + nreq;
		qp->sq.cur_post += (ds * MLX5_DS + MLX5_SEND_WQE_BB - 1) /
				   MLX5_SEND_WQE_BB;
	}
	if (err)
		*bad_wr = wr;
	if (nreq)
		mlx5_ring_sq(qp, ctrl, ds, nreq, false);
	pthread_spin_unlock(&srq->lock);
	return err;
}

static const unsigned int tag_wc_flags[] = {
	[TM_APP_CONSUMED] = IBV_WC_TM_MATCH,
	[TM_APP_EXPECTED] = IBV_WC_TM_DATA_VALID,
	[TM_APP_CONSUMED_SW_RNDV] = IBV_WC_TM_MATCH,
	[TM_APP_CONSUMED_MSG] = IBV_WC_TM_MATCH | IBV_WC_TM_DATA_VALID,
	[TM_APP_CONSUMED_MSG_SW_RNDV] = IBV_WC_TM_MATCH | IBV_WC_TM_DATA_VALID,
	[TM_APP_MSG_COMPLETION_CANCELED] =
		IBV_WC_TM_MATCH | IBV_WC_TM_DATA_VALID,
};

bool mlx5_tm_in_srq_wqe(uint8_t app_op)
{
	return app_op == TM_APP_UNEXPECTED || app_op == TM_APP_NO_TAG;
}

void mlx5_tm_srq_wqe_cqe(struct mlx5_srq *srq, struct mlx5_cqe64 *cqe,
			 struct ibv_wc *wc)
{
	struct mlx5_tm *tm = srq->tm;

	if (cqe->app_op == TM_APP_NO_TAG) {
		wc->opcode = IBV_WC_TM_NO_TAG;
		return;
	}
	wc->opcode = IBV_WC_TM_RECV;
	pthread_spin_lock(&srq->lock);
	tm->unexp_in++;
	if ((uint16_t)(tm->unexp_in - tm->unexp_out) > TM_MAX_SYNC_DIFF)
		wc->wc_flags |= IBV_WC_TM_SYNC_REQ;
	pthread_spin_unlock(&srq->lock);
}

/* A message that matched tag entry app_info. */
static int tagged_cqe(struct mlx5_tm *tm, struct mlx5_cqe64 *cqe,
		      struct ibv_wc *wc)
{
	uint32_t idx = be16toh(cqe->app_info);

	if (idx >= tm->ntags || !tm->tags[idx].expect) {
		wc->status = IBV_WC_GENERAL_ERR;
		return 0;
	}
	wc->wr_id = tm->tags[idx].wr_id;
	wc->opcode = IBV_WC_TM_RECV;
	wc->byte_len = be32toh(cqe->byte_cnt);
	wc->wc_flags |= tag_wc_flags[cqe->app_op];
	if (cqe->app_op == TM_APP_CONSUMED_SW_RNDV ||
	    cqe->app_op == TM_APP_CONSUMED_MSG_SW_RNDV ||
	    cqe->app_op == TM_APP_MSG_COMPLETION_CANCELED)
		wc->status = IBV_WC_TM_RNDV_INCOMPLETE;
	/* a consumed tag still waits for its data's CQE */
	if (cqe->app_op != TM_APP_CONSUMED &&
	    cqe->app_op != TM_APP_CONSUMED_SW_RNDV)
		release_tag(tm, idx);
	return 0;
}

/* A list operation's CQE: the oldest signaled op. */
static int list_cqe(struct mlx5_tm *tm, struct mlx5_cqe64 *cqe,
		    struct ibv_wc *wc)
{
	struct mlx5_qp *qp = to_mqp(tm->cmd_qp);
	bool ok = be32toh(cqe->tm_cqe.success) & MLX5_TMC_SUCCESS;
	struct mlx5_tm_op *op;

	if (tm->op_head == tm->op_tail) {
		wc->status = IBV_WC_GENERAL_ERR;
		return 0;
	}
	op = &tm->ops[tm->op_head++ & (qp->sq.wqe_cnt - 1)];
	wc->opcode = cqe->app_op == TM_APP_APPEND   ? IBV_WC_TM_ADD
		     : cqe->app_op == TM_APP_REMOVE ? IBV_WC_TM_DEL
						    : IBV_WC_TM_SYNC;
	wc->wr_id = op->wr_id;
	wc->byte_len = 0;
	if (!ok)
		wc->status = IBV_WC_TM_ERR;
	if (op->tag != TM_NONE) {
		if (be16toh(cqe->tm_cqe.hw_phase_cnt) !=
		    tm->tags[op->tag].phase)
			wc->wc_flags |= IBV_WC_TM_SYNC_REQ;
		release_tag(tm, op->tag);
		/* removed: no message will name it */
		if (cqe->app_op == TM_APP_REMOVE && ok)
			release_tag(tm, op->tag);
	}
	/* the command QP's slots up to this op are free again */
	qp->sq.tail = op->wqe_head + 1;
	return 0;
}

int mlx5_tm_cqe(struct mlx5_srq *srq, struct mlx5_cqe64 *cqe, struct ibv_wc *wc)
{
	struct mlx5_tm *tm = srq->tm;
	int ret = -1;

	pthread_spin_lock(&srq->lock);
	switch (cqe->app_op) {
	case TM_APP_APPEND:
	case TM_APP_REMOVE:
	case TM_APP_NOOP:
		ret = list_cqe(tm, cqe, wc);
		break;
	default:
		if (cqe->app_op <
			    sizeof(tag_wc_flags) / sizeof(*tag_wc_flags) &&
		    tag_wc_flags[cqe->app_op])
			ret = tagged_cqe(tm, cqe, wc);
		break;
	}
	pthread_spin_unlock(&srq->lock);
	return ret;
}
