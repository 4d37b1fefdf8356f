// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Soft-RoCE (rxe) model for the real-kernel conformance lane: no udata in
 * its ucontext, no device memory (DM_ALLOC -> EOPNOTSUPP), no DMABUF
 * object (EPROTONOSUPPORT), nothing to mmap at context level. CQs, QPs
 * and SRQs get rxe's queue buffers (rxe_queue.c) and its udata. Work
 * requests run as the kernel's rxe runs them (rxe.h): POST_SEND kicks the
 * requester, receives are read from their rings when packets arrive.
 */
#include "rxe.h"
#include "udp_sport.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define RXE_CQE_SIZE	  128 /* sizeof(struct rxe_cqe), rounded */
#define RXE_SEND_WQE_SIZE sizeof(struct rxe_send_wqe)
#define RXE_RECV_WQE_SIZE sizeof(struct rxe_recv_wqe)
#define RXE_MAX_INLINE	  512
#define RXE_MIN_SRQ_INDEX 0x20001
#define RXE_MIN_AH_INDEX  1

static int rxe_alloc_ucontext(struct sim_uvfile *uv, const void *in,
			      size_t in_len, void *out, size_t out_len)
{
	uv->ctx_resp_len = 0;
	return 0;
}

static void *rxe_mmap(struct sim_uvfile *uv, void *addr, size_t len, int prot,
		      int flags, uint64_t pgoff)
{
	return rxe_queue_mmap(uv, addr, len, flags,
			      pgoff * sim.sh->cfg.page_size);
}

static int rxe_create_cq(struct sim_uvfile *uv, struct sim_cq *cq,
			 const void *in, size_t in_len, void *out,
			 size_t out_len)
{
	struct rxe_create_cq_resp r = {};
	struct rxe_sim_queue *q;

	if (out_len < sizeof(r))
		return -EINVAL;
	if (cq->flags)
		return -EOPNOTSUPP;
	if (!cq->cqe)
		return -EINVAL; /* rxe_cq_chk_attr: cqe <= 0 */
	q = rxe_queue_new(uv, cq->cqe, RXE_CQE_SIZE, &r.mi);
	if (!q)
		return -ENOMEM;
	q->to_client = 1;
	cq->obj.drv = q;
	cq->cqe = q->usable;
	memcpy(out, &r, sizeof(r));
	return 0;
}

static int rxe_resize_cq(struct sim_uvfile *uv, struct sim_cq *cq, uint32_t cqe,
			 const void *in, size_t in_len, void *out,
			 size_t out_len)
{
	struct rxe_resize_cq_resp r = {};
	struct rxe_sim_queue *q;

	if (out_len < sizeof(r))
		return -EINVAL;
	if (cqe < rxe_queue_count(cq->obj.drv))
		return -EINVAL; /* the CQEs queued must fit */
	q = rxe_queue_new(uv, cqe, RXE_CQE_SIZE, &r.mi);
	if (!q)
		return -ENOMEM;
	rxe_queue_move(q, cq->obj.drv);
	q->notify = ((struct rxe_sim_queue *)cq->obj.drv)->notify;
	rxe_queue_free(cq->obj.drv);
	cq->obj.drv = q;
	cq->cqe = q->usable;
	memcpy(out, &r, sizeof(r));
	return 0;
}

static void rxe_destroy_cq(struct sim_uvfile *uv, struct sim_cq *cq)
{
	rxe_queue_free(cq->obj.drv);
}

/* rxe_qp_chk_cap, beyond the receive WRs the core checked */
static int check_caps(const struct sim_qp *qp)
{
	const struct sim_qp_cap *c = &qp->attr.cap;
	const struct sim_verbs_rules *r = sim_rxe_ops.rules;

	if (c->max_send_wr > r->max_qp_wr || c->max_send_sge > r->max_sge)
		return -EINVAL;
	if (!qp->srq && c->max_recv_sge > r->max_sge)
		return -EINVAL;
	return c->max_inline_data > RXE_MAX_INLINE ? -EINVAL : 0;
}

static int rxe_create_qp(struct sim_uvfile *uv, struct sim_qp *qp,
			 const void *in, size_t in_len, void *out,
			 size_t out_len)
{
	struct sim_qp_cap *c = &qp->attr.cap;
	struct rxe_create_qp_resp r = {};
	struct rxe_sim_qp *qs;
	uint32_t room;
	int ret;

	if (in_len)
		return -EINVAL; /* user QPs take no driver input */
	if (out_len < sizeof(r))
		return -EINVAL;
	ret = check_caps(qp);
	if (ret)
		return ret;
	qs = calloc(1, sizeof(*qs));
	if (!qs)
		return -ENOMEM;
	/* a send WQE holds its SGEs or its inline data, whichever is more */
	room = c->max_send_sge * 16 > c->max_inline_data ? c->max_send_sge * 16
							 : c->max_inline_data;
	c->max_send_sge = room / 16;
	c->max_inline_data = room;
	qs->sq = rxe_queue_new(uv, c->max_send_wr,
			       (uint32_t)RXE_SEND_WQE_SIZE + room, &r.sq_mi);
	if (qs->sq && !qp->srq)
		qs->rq = rxe_queue_new(uv, c->max_recv_wr,
				       (uint32_t)RXE_RECV_WQE_SIZE +
					       16 * c->max_recv_sge,
				       &r.rq_mi);
	if (!qs->sq || (!qp->srq && !qs->rq)) {
		rxe_queue_free(qs->sq);
		free(qs);
		return -ENOMEM;
	}
	qs->qp = qp;
	qs->uv = uv;
	qs->dev = uv->dev;
	qs->qpn = qp->qpn;
	qs->src_port = sim_rxe_qp_sport(qs->qpn); /* until an AV says */
	ret = rxe_net_open(qs);
	if (ret) {
		rxe_queue_free(qs->sq);
		rxe_queue_free(qs->rq);
		free(qs);
		return ret;
	}
	rxe_qp_add(qs);
	qp->obj.drv = qs;
	memcpy(out, &r, sizeof(r));
	return 0;
}

static void rxe_destroy_qp(struct sim_uvfile *uv, struct sim_qp *qp)
{
	struct rxe_sim_qp *qs = qp->obj.drv;

	rxe_qp_del(qs);
	hca_fabric_detach(qs->dev, qs->qpn);
	rxe_queue_free(qs->sq);
	rxe_queue_free(qs->rq);
	free(qs);
}

static int rxe_create_srq(struct sim_uvfile *uv, struct sim_srq *srq,
			  const void *in, size_t in_len, void *out,
			  size_t out_len)
{
	static uint32_t next_srq;
	struct rxe_create_srq_resp r = {};
	struct rxe_sim_queue *q;

	if (out_len < sizeof(r))
		return -EINVAL;
	if (!srq->max_wr)
		return -EINVAL; /* rxe_srq_chk_init: max_wr <= 0 */
	if (!srq->max_sge)
		srq->max_sge = 1;
	q = rxe_queue_new(uv, srq->max_wr,
			  (uint32_t)RXE_RECV_WQE_SIZE + 16 * srq->max_sge,
			  &r.mi);
	if (!q)
		return -ENOMEM;
	srq->obj.drv = q;
	srq->max_wr = q->usable;
	srq->srqn = RXE_MIN_SRQ_INDEX + next_srq++;
	r.srq_num = srq->srqn;
	memcpy(out, &r, sizeof(r));
	return 0;
}

/* A new ring for IB_SRQ_MAX_WR; its mminfo goes where the udata points. */
static int rxe_modify_srq(struct sim_uvfile *uv, struct sim_srq *srq,
			  uint32_t max_wr, uint32_t srq_limit, uint32_t mask,
			  const void *in, size_t in_len)
{
	struct rxe_modify_srq_cmd cmd;
	struct rxe_sim_queue *q;
	struct mminfo mi;

	if (in_len < sizeof(cmd))
		return -EINVAL;
	memcpy(&cmd, in, sizeof(cmd));
	if (!(mask & 1)) /* IB_SRQ_MAX_WR */
		return 0;
	if (max_wr < rxe_queue_count(srq->obj.drv))
		return -EINVAL; /* the receives posted must fit */
	q = rxe_queue_new(uv, max_wr,
			  (uint32_t)RXE_RECV_WQE_SIZE + 16 * srq->max_sge, &mi);
	if (!q)
		return -ENOMEM;
	rxe_queue_move(q, srq->obj.drv);
	if (sim_copy_to_user((void *)(uintptr_t)cmd.mmap_info_addr, &mi,
			     sizeof(mi))) {
		rxe_queue_free(q);
		return -EFAULT;
	}
	rxe_queue_free(srq->obj.drv);
	srq->obj.drv = q;
	srq->max_wr = q->usable;
	return 0;
}

static void rxe_destroy_srq(struct sim_uvfile *uv, struct sim_srq *srq)
{
	rxe_queue_free(srq->obj.drv);
}

/* User QPs: the kernel only kicks its requester (the rings carry the
 * WQEs), once the requester runs (RTS and after); in ERR the completer
 * flushes what was posted. */
static int rxe_post_send(struct sim_uvfile *uv, struct sim_qp *qp,
			 uint32_t wr_count, uint32_t *bad)
{
	struct rxe_sim_qp *q = qp->obj.drv;

	if (qp->attr.qp_state < IB_QPS_RTS) {
		*bad = wr_count ? 1 : 0;
		return -EINVAL;
	}
	if (qp->attr.qp_state == IB_QPS_ERR) {
		rxe_flush(q);
	} else {
		rxe_requester(q);
		rxe_completer(q, hca_now()); /* UC, UD: done once sent */
	}
	return 0;
}

/* RESET: the rings' contents go (not their indices), the requester
 * starts again at the consumer index, the responder forgets. */
static void qp_reset(struct rxe_sim_qp *q)
{
	rxe_queue_clear(q->sq);
	memset(&q->req, 0, sizeof(q->req));
	memset(&q->comp, 0, sizeof(q->comp));
	memset(&q->resp, 0, offsetof(typeof(q->resp), srq_wqe));
	q->req.wqe_index = q->sq->index;
}

static int rxe_modify_qp(struct sim_uvfile *uv, struct sim_qp *qp,
			 const struct sim_qp_attr *a, uint32_t mask,
			 const void *in, size_t in_len, void *out,
			 size_t out_len)
{
	struct rxe_sim_qp *q = qp->obj.drv;

	if (mask & IB_QP_AV)
		q->dst_dev = rxe_av_dev(q->dev, &a->ah);
	if ((mask & IB_QP_AV) && a->ah.is_global) /* rxe_modify_qp's rule */
		q->src_port = sim_udp_sport(a->ah.flow_label, q->qpn,
					    (mask & IB_QP_DEST_QPN)
						    ? a->dest_qp_num
						    : qp->attr.dest_qp_num);
	if (mask & IB_QP_RQ_PSN)
		q->resp.epsn = a->rq_psn & 0xffffff;
	if (mask & IB_QP_SQ_PSN)
		q->req.psn = q->comp.psn = a->sq_psn & 0xffffff;
	if (mask & IB_QP_RETRY_CNT)
		q->comp.retry = a->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		q->comp.rnr_retry = a->rnr_retry;
	if (!(mask & IB_QP_STATE))
		return 0;
	if (a->qp_state == IB_QPS_RESET)
		qp_reset(q);
	if (a->qp_state == IB_QPS_ERR)
		hca_fabric_wake_self(); /* the engine flushes the rings */
	return 0;
}

static void rxe_req_notify_cq(struct sim_cq *cq, int solicited_only)
{
	struct rxe_sim_queue *q = cq->obj.drv;

	if (q->notify != RXE_CQ_NEXT_COMP)
		q->notify =
			solicited_only ? RXE_CQ_SOLICITED : RXE_CQ_NEXT_COMP;
}

static int rxe_post_recv(struct sim_uvfile *uv, struct sim_qp *qp,
			 uint32_t wr_count, uint32_t *bad)
{
	if (qp->attr.qp_state < IB_QPS_INIT || qp->srq) {
		*bad = wr_count ? 1 : 0;
		return -EINVAL;
	}
	return 0;
}

static int rxe_post_srq_recv(struct sim_uvfile *uv, struct sim_srq *srq,
			     uint32_t wr_count, uint32_t *bad)
{
	return 0;
}

/* ah_num only when the response has room for it */
static int rxe_create_ah(struct sim_uvfile *uv, struct sim_ah *ah,
			 const void *in, size_t in_len, void *out,
			 size_t out_len)
{
	static uint32_t next_ah;
	struct rxe_create_ah_resp r = {.ah_num = RXE_MIN_AH_INDEX + next_ah++};

	ah->obj.drv = (void *)(uintptr_t)r.ah_num; /* what send WQEs name */
	if (out_len >= sizeof(r))
		memcpy(out, &r, sizeof(r));
	return 0;
}

/* rxe_param.h */
static const struct sim_verbs_rules rxe_rules = {
	.max_qp = 0x10000,
	.max_qp_wr = 1 << 20,
	.max_sge = RXE_MAX_SGE,
	.max_sge_rd = 32,
	.max_cq = 0x4000,
	.max_cqe = (1 << 15) - 1,
	.max_srq = 0x4000,
	.max_srq_wr = 1 << 20,
	.max_srq_sge = 27,
	.max_qp_rd_atom = 128,
	.max_qp_init_rd_atom = 128,
	.max_ah = 0x7fff,
	.qpn_base = 17,
	.chk_timeout = 1,
	.sqd_event_always = 1,
	.srq_resize = 1,
	.max_mw = 524287, /* RXE_MAX_MW */
};

const struct sim_driver_ops sim_rxe_ops = {
	.rules = &rxe_rules,
	.create_cq = rxe_create_cq,
	.resize_cq = rxe_resize_cq,
	.destroy_cq = rxe_destroy_cq,
	.create_qp = rxe_create_qp,
	.modify_qp = rxe_modify_qp,
	.req_notify_cq = rxe_req_notify_cq,
	.destroy_qp = rxe_destroy_qp,
	.create_srq = rxe_create_srq,
	.modify_srq = rxe_modify_srq,
	.destroy_srq = rxe_destroy_srq,
	.create_ah = rxe_create_ah,
	.post_send = rxe_post_send,
	.post_recv = rxe_post_recv,
	.post_srq_recv = rxe_post_srq_recv,
	.alloc_ucontext = rxe_alloc_ucontext,
	.mmap = rxe_mmap,
};
