// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe's completer: acknowledgements, READ responses and atomic
 * acknowledgements retire the send WQEs they cover, in SQ order (an ACK
 * covers every earlier PSN; a READ or an atomic waits for its own
 * response); READ data and atomic results land in the WQE's SGEs. A WQE
 * that is DONE gets its CQE if it failed or was signaled (or sq_sig_all)
 * and the SQ's consumer index moves past it. NAKs: RNR waits the timer
 * the NAK carries and sends again from that WQE (rnr_retry times, 7 is
 * for ever), a PSN sequence error sends again at once (retry_cnt; rxe
 * takes 7 as for ever too), the others fail the WQE. The ACK timer
 * (4.096 us << timeout) sends again from the oldest WQE not acknowledged
 * once the receiver has had its chance at what was sent (the fabric
 * tells). A failed WQE takes the QP to ERR: what is left in the SQ and
 * the RQ completes WR_FLUSH_ERR, one CQE each.
 */
#include "restrack.h"
#include "rxe.h"

#include <string.h>
#include <sys/uio.h>

/* rnrnak_usec: the delay of each RNR timer code */
static const uint32_t rnr_usec[32] = {
	655360, 10,    20,    30,     40,     60,     80,     120,
	160,	240,   320,   480,    640,    960,    1280,   1920,
	2560,	3840,  5120,  7680,   10240,  15360,  20480,  30720,
	40960,	61410, 81920, 122880, 163840, 245760, 327680, 491520,
};

/* ib_wc_opcode of each send WR opcode (0xff: none) */
static uint32_t wc_opcode(uint32_t op)
{
	static const uint8_t map[] = {
		[RXE_WR_WRITE] = 1,   [RXE_WR_WRITE_IMM] = 1,
		[RXE_WR_SEND] = 0,    [RXE_WR_SEND_IMM] = 0,
		[RXE_WR_READ] = 2,    [RXE_WR_CS] = 3,
		[RXE_WR_FA] = 4,      [RXE_WR_LOCAL_INV] = 6,
		[RXE_WR_BIND_MW] = 5, [RXE_WR_SEND_INV] = 0,
	};

	return op < sizeof(map) ? map[op] : 0xff;
}

static void send_cqe(struct rxe_sim_qp *q, const struct rxe_send_wqe *w,
		     uint32_t status)
{
	struct ib_uverbs_wc wc = {
		.wr_id = w->wr.wr_id,
		.status = status,
		.qp_num = q->qpn,
	};

	if (!status) {
		wc.opcode = wc_opcode(w->wr.opcode);
		wc.byte_len = w->dma.length;
		if (w->wr.opcode == RXE_WR_WRITE_IMM ||
		    w->wr.opcode == RXE_WR_SEND_IMM)
			wc.wc_flags = RXE_WC_WITH_IMM;
	}
	rxe_cq_post(q->qp->send_cq, &wc, 0);
}

static uint64_t ack_timeout_ns(const struct rxe_sim_qp *q)
{
	uint64_t t = 4096ull << q->qp->attr.timeout;

	return t < 4000000 ? 4000000 : t; /* at least a jiffy */
}

static void reset_retries(struct rxe_sim_qp *q)
{
	q->comp.retry = q->qp->attr.retry_cnt;
	q->comp.rnr_retry = q->qp->attr.rnr_retry;
}

/* One past the last WQE sent from: the requester's index, or past it
 * while it is still sending that one. */
static uint32_t sent_end(const struct rxe_sim_qp *q)
{
	const struct rxe_send_wqe *w;

	if (q->req.wqe_index == rxe_queue_user_index(q->sq))
		return q->req.wqe_index;
	w = rxe_queue_slot(q->sq, q->req.wqe_index);
	return w->state == RXE_WQE_PROCESSING
		       ? (q->req.wqe_index + 1) & q->sq->usable
		       : q->req.wqe_index;
}

/* The outstanding WQE whose PSNs hold psn, or NULL. */
static struct rxe_send_wqe *wqe_of_psn(struct rxe_sim_qp *q, uint32_t psn)
{
	struct rxe_send_wqe *w;
	uint32_t i;

	for (i = q->sq->index; i != sent_end(q); i = (i + 1) & q->sq->usable) {
		w = rxe_queue_slot(q->sq, i);
		if (w->state != RXE_WQE_PENDING &&
		    w->state != RXE_WQE_PROCESSING)
			continue;
		if (rxe_psn_diff(psn, w->first_psn) >= 0 &&
		    rxe_psn_diff(psn, w->last_psn) <= 0)
			return w;
	}
	return NULL;
}

/*
 * An ACK of psn: the SENDs and WRITEs up to it are done. A READ or an
 * atomic is done by its own response only: the acknowledged PSN stops at
 * its first one while it is outstanding.
 */
static void ack_upto(struct rxe_sim_qp *q, uint32_t psn)
{
	uint32_t i, upto = (psn + 1) & 0xffffff;
	struct rxe_send_wqe *w;

	for (i = q->sq->index; i != q->req.wqe_index;
	     i = (i + 1) & q->sq->usable) {
		w = rxe_queue_slot(q->sq, i);
		if (w->state == RXE_WQE_DONE)
			continue;
		if (w->state != RXE_WQE_PENDING ||
		    rxe_psn_diff(w->first_psn, psn) > 0)
			break;
		if (rxe_wr_is_rd_atomic(w->wr.opcode)) {
			upto = w->first_psn;
			break;
		}
		if (rxe_psn_diff(w->last_psn, psn) > 0)
			break;
		w->state = RXE_WQE_DONE;
	}
	/* a stale answer of what was sent again acknowledges nothing past
	 * the PSNs given again so far */
	if (rxe_psn_diff(upto, q->req.psn) > 0)
		upto = q->req.psn;
	if (rxe_psn_diff(upto, q->comp.psn) > 0)
		q->comp.psn = upto;
}

/* The oldest WQE not done, or NULL. */
static struct rxe_send_wqe *head(struct rxe_sim_qp *q)
{
	struct rxe_send_wqe *w;
	uint32_t i;

	for (i = q->sq->index; i != sent_end(q); i = (i + 1) & q->sq->usable) {
		w = rxe_queue_slot(q->sq, i);
		if (w->state != RXE_WQE_DONE)
			return w;
	}
	return NULL;
}

static void wqe_done(struct rxe_sim_qp *q, struct rxe_send_wqe *w,
		     uint32_t status)
{
	w->status = status;
	w->state = RXE_WQE_DONE;
	q->req.rd_atomic -= w->has_rd_atomic;
	w->has_rd_atomic = 0;
	if (!status && rxe_psn_diff(w->last_psn, q->comp.psn) >= 0)
		q->comp.psn = (w->last_psn + 1) & 0xffffff;
}

/* Send again from the oldest WQE not done (a sequence NAK, a response
 * out of order, the ACK timer): retry_cnt times, 7 for ever. */
static void retry(struct rxe_sim_qp *q)
{
	struct rxe_send_wqe *w = head(q);

	if (!w)
		return;
	if (!q->comp.retry) {
		wqe_done(q, w, RXE_WC_RETRY_EXC_ERR);
		return;
	}
	if (q->comp.retry != 7)
		q->comp.retry--;
	hca_stats.retransmits++;
	rxe_req_rewind(q);
}

/* READ response data or an atomic's original value into w's SGEs. */
static void place(struct rxe_sim_qp *q, struct rxe_send_wqe *w,
		  const struct hca_pkt *p, const uint8_t *payload)
{
	struct iovec iov[RXE_MAX_SGE + 1];
	uint32_t off = 0, len = p->len, status = 0;
	const uint8_t *src = payload;
	int n, k;

	if (p->op == HCA_PKT_ATOMIC_RESP) {
		src = (const uint8_t *)&p->atom[0];
		len = 8;
	} else {
		off = (uint32_t)rxe_psn_diff(p->psn, w->first_psn) *
		      rxe_path_mtu(q);
	}
	n = rxe_sg_iov(q, w->dma.sge, w->dma.num_sge, off, len,
		       IB_ACCESS_LOCAL_WRITE, iov, &status);
	if (n < 0) {
		wqe_done(q, w, RXE_WC_LOC_PROT_ERR);
		return;
	}
	for (k = 0; k < n; k++) {
		memcpy(iov[k].iov_base, src, iov[k].iov_len);
		src += iov[k].iov_len;
	}
	if (p->op == HCA_PKT_ATOMIC_RESP || (p->flags & HCA_PF_LAST))
		wqe_done(q, w, RXE_WC_SUCCESS);
	else
		q->comp.psn = (p->psn + 1) & 0xffffff;
}

static void nak(struct rxe_sim_qp *q, struct rxe_send_wqe *w,
		const struct hca_pkt *p)
{
	static const uint32_t status[] = {
		[HCA_NAK_INV_REQ] = RXE_WC_REM_INV_REQ_ERR,
		[HCA_NAK_ACCESS] = RXE_WC_REM_ACCESS_ERR,
		[HCA_NAK_OP] = RXE_WC_REM_OP_ERR,
	};

	if (p->nak == HCA_NAK_SEQ) {
		retry(q);
	} else if (p->nak != HCA_NAK_RNR) {
		wqe_done(q, w,
			 p->nak < 6 && status[p->nak] ? status[p->nak]
						      : RXE_WC_REM_OP_ERR);
	} else if (!q->comp.rnr_retry) {
		wqe_done(q, w, RXE_WC_RNR_RETRY_EXC_ERR);
	} else {
		if (q->comp.rnr_retry != 7)
			q->comp.rnr_retry--;
		hca_stats.rnr_naks++;
		q->req.rnr_until =
			hca_now() + rnr_usec[p->rnr_timer & 31] * 1000ull;
		rxe_req_rewind(q);
	}
}

static int retire(struct rxe_sim_qp *q);

void rxe_comp_rcv(struct rxe_sim_qp *q, const struct hca_pkt *p,
		  const uint8_t *payload)
{
	uint32_t before = (p->psn - 1) & 0xffffff;
	struct rxe_send_wqe *w;

	if (q->qp->attr.qp_state != IB_QPS_RTS &&
	    q->qp->attr.qp_state != IB_QPS_SQD)
		return;
	if (p->op == HCA_PKT_ACK) {
		ack_upto(q, p->psn);
		reset_retries(q);
		q->comp.retrying = 0;
	} else {
		ack_upto(q, before); /* what came before it was received */
		w = wqe_of_psn(q, p->psn);
		if (!w || rxe_psn_diff(p->psn, q->comp.psn) < 0)
			return; /* a duplicate or stale response */
		if (p->op == HCA_PKT_NAK) {
			nak(q, w, p);
		} else if (w != head(q) || p->psn != q->comp.psn) {
			/* responses before it were lost: once, the rest of
			 * that flight is stale */
			if (!q->comp.retrying)
				retry(q);
			q->comp.retrying = 1;
		} else if ((p->op == HCA_PKT_READ_RESP) ==
			   (w->wr.opcode == RXE_WR_READ)) {
			reset_retries(q);
			q->comp.retrying = 0;
			place(q, w, p, payload);
		} else {
			wqe_done(q, w, RXE_WC_FATAL_ERR);
		}
	}
	q->comp.deadline = 1; /* armed again from now */
	if (!retire(q))
		rxe_requester(q); /* the window may have opened */
}

/* Retire DONE WQEs in order; 1 if the QP went to ERR. */
static int retire(struct rxe_sim_qp *q)
{
	struct rxe_send_wqe *w;
	uint32_t status;

	while (q->sq->index != q->req.wqe_index) {
		w = rxe_queue_slot(q->sq, q->sq->index);
		if (w->state != RXE_WQE_DONE)
			break;
		status = w->status;
		if (status || q->qp->sq_sig_all || (w->wr.send_flags & 2))
			send_cqe(q, w, status);
		rxe_queue_advance(q->sq);
		if (status) {
			rxe_qp_error(q);
			return 1;
		}
	}
	if (q->sq->index == sent_end(q))
		q->comp.deadline = 0; /* nothing outstanding */
	return 0;
}

/* The ACK timer expired: send again once the peer had its chance. */
static void timed_out(struct rxe_sim_qp *q, uint64_t now)
{
	q->comp.deadline = now + ack_timeout_ns(q);
	if (!hca_fabric_reached(&q->comp.mark)) {
		hca_stats.timer_waits++;
		return;
	}
	hca_stats.ack_timeouts++;
	retry(q);
}

int rxe_completer(struct rxe_sim_qp *q, uint64_t now)
{
	uint32_t head = q->sq->index;

	if (q->qp->qp_type == IB_QPT_RC && q->comp.deadline == 1)
		q->comp.deadline = q->qp->attr.timeout
					   ? now + ack_timeout_ns(q)
					   : 0; /* timeout 0: no timer */
	if (q->comp.deadline > 1 && now >= q->comp.deadline &&
	    q->sq->index != sent_end(q))
		timed_out(q, now);
	retire(q);
	return head != q->sq->index;
}

void rxe_qp_error(struct rxe_sim_qp *q)
{
	q->qp->attr.qp_state = IB_QPS_ERR;
	sim_res_touch(&q->qp->obj);
	q->resp.in_msg = 0;
	rxe_flush(q);
}

int rxe_flush(struct rxe_sim_qp *q)
{
	struct ib_uverbs_wc wc = {
		.status = RXE_WC_WR_FLUSH_ERR,
		.qp_num = q->qpn,
	};
	struct rxe_recv_wqe *r;
	struct rxe_send_wqe *w;
	int did = 0;

	while (q->sq->index != rxe_queue_user_index(q->sq)) {
		w = rxe_queue_slot(q->sq, q->sq->index);
		wc.wr_id = w->wr.wr_id;
		rxe_cq_post(q->qp->send_cq, &wc, 0);
		rxe_queue_advance(q->sq);
		did = 1;
	}
	q->req.wqe_index = q->sq->index;
	q->req.rd_atomic = 0;
	q->comp.deadline = 0;
	while (q->rq && q->rq->index != rxe_queue_user_index(q->rq)) {
		r = rxe_queue_slot(q->rq, q->rq->index);
		wc.wr_id = r->wr_id;
		rxe_cq_post(q->qp->recv_cq, &wc, 1);
		rxe_queue_advance(q->rq);
		did = 1;
	}
	q->resp.have_wqe = 0;
	return did;
}
