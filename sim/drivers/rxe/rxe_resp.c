// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe's responder: request packets of a QP in RTR or later, in PSN order.
 * RC: a PSN ahead of the expected one gets one sequence NAK, a duplicate
 * is acknowledged again (a READ read again, an atomic answered with the
 * value it returned the first time, from the resources kept); UC drops
 * up to the next FIRST. A SEND or a WRITE with immediate takes a receive
 * WQE (the RQ ring's head, or a copy of the SRQ's, no system call: the
 * user posted it in the ring) — none: RNR NAK with min_rnr_timer (UC, UD
 * drop). WRITE, READ and atomics need the QP's remote right and a valid
 * rkey over the range (else NAK invalid request / remote access error,
 * the QP goes to ERR); a receive that does not fit its WQE completes
 * LOC_QP_OP_ERR (NAK remote operational error). ACKs go for the last
 * packet of a message and every 64th PSN. The 40 bytes before a UD
 * payload are its IP header (rxe_net_hdr).
 */
#include "rxe.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>

/* One answer, a READ's responses from where they stopped: 0 sent (or
 * lost: the READ's memory is gone), -EAGAIN no room. */
static int send_ans(struct rxe_sim_qp *q, struct rxe_ans *a)
{
	uint32_t mtu = rxe_path_mtu(q), n;
	struct hca_pkt p = a->p;
	struct iovec iov;

	if (p.op != HCA_PKT_READ_RESP)
		return rxe_xmit(q, &p, NULL, 0, 0) == -EAGAIN ? -EAGAIN : 0;
	do {
		n = a->len - a->off < mtu ? a->len - a->off : mtu;
		iov.iov_base = n ? rxe_rmem(q, a->rkey, a->va + a->off, n,
					    IB_ACCESS_REMOTE_READ)
				 : NULL;
		iov.iov_len = n;
		if (n && !iov.iov_base)
			return 0;
		p.psn = (a->p.psn + a->off / mtu) & 0xffffff;
		p.flags = (a->off ? 0 : HCA_PF_FIRST) |
			  (a->off + n == a->len ? HCA_PF_LAST : 0);
		p.len = n;
		if (rxe_xmit(q, &p, &iov, n ? 1 : 0, 0) == -EAGAIN)
			return -EAGAIN;
		a->off += n;
	} while (a->off < a->len);
	return 0;
}

int rxe_resp_flush(struct rxe_sim_qp *q)
{
	int did = 0;

	while (q->resp.ans_tail != q->resp.ans_head) {
		if (send_ans(q, &q->resp.ans[q->resp.ans_tail % RXE_ANS]))
			return did;
		q->resp.ans_tail++;
		did = 1;
	}
	return did;
}

/* Answers leave in order; one that finds no room waits in the queue (a
 * full queue loses it, as the wire would: the requester asks again). */
static void answer(struct rxe_sim_qp *q, struct rxe_ans *a)
{
	if (q->resp.ans_tail == q->resp.ans_head && !send_ans(q, a))
		return;
	if (q->resp.ans_head - q->resp.ans_tail >= RXE_ANS)
		return;
	q->resp.ans[q->resp.ans_head++ % RXE_ANS] = *a;
}

static void send_ack(struct rxe_sim_qp *q, uint8_t op, uint8_t code,
		     uint32_t psn)
{
	struct rxe_ans a = {.p = {.op = op, .nak = code, .psn = psn}};

	if (code == HCA_NAK_RNR)
		a.p.rnr_timer = q->qp->attr.min_rnr_timer;
	answer(q, &a);
}

/* The receive WQE in use: the RQ's head slot or the SRQ copy. */
static struct rxe_recv_wqe *cur_wqe(struct rxe_sim_qp *q)
{
	if (q->qp->srq)
		return (struct rxe_recv_wqe *)q->resp.srq_wqe;
	return rxe_queue_slot(q->rq, q->rq->index);
}

/* Take a receive WQE for a message: 0, or -1 when none is posted. */
static int get_wqe(struct rxe_sim_qp *q)
{
	struct sim_srq *srq = q->qp->srq;
	struct rxe_sim_queue *sq;
	struct rxe_recv_wqe *r;
	size_t bytes;

	if (q->resp.have_wqe)
		return 0;
	if (!srq) {
		if (q->rq->index == rxe_queue_user_index(q->rq))
			return -1;
		q->resp.have_wqe = 1;
		return 0;
	}
	sq = srq->obj.drv;
	if (sq->index == rxe_queue_user_index(sq))
		return -1;
	r = rxe_queue_slot(sq, sq->index);
	bytes = sizeof(*r) +
		16 * (size_t)(r->dma.num_sge < 32 ? r->dma.num_sge : 32);
	memcpy(q->resp.srq_wqe, r, bytes);
	rxe_queue_advance(sq);
	q->resp.have_wqe = 1;
	if (srq->limit && rxe_queue_count(sq) < srq->limit) {
		srq->limit = 0; /* fires once, then disarmed */
		sim_async_event(srq->obj.uv, SIM_EVENT_SRQ_LIMIT_REACHED,
				&srq->obj);
	}
	return 0;
}

static uint32_t max_recv_sge(const struct rxe_sim_qp *q)
{
	return q->qp->srq ? q->qp->srq->max_sge : q->qp->attr.cap.max_recv_sge;
}

/* Bytes into the receive WQE at offset off: 0 or a WC status. */
static uint32_t scatter(struct rxe_sim_qp *q, uint32_t off, const void *src,
			uint32_t len)
{
	struct rxe_recv_wqe *r = cur_wqe(q);
	struct iovec iov[RXE_MAX_SGE + 1];
	const uint8_t *s = src;
	uint32_t status = 0;
	int n, k;

	if (r->dma.num_sge > max_recv_sge(q))
		return RXE_WC_LOC_QP_OP_ERR; /* a malformed WQE */
	n = rxe_sg_iov(q, r->dma.sge, r->dma.num_sge, off, len,
		       IB_ACCESS_LOCAL_WRITE, iov, &status);
	if (n < 0)
		return RXE_WC_LOC_QP_OP_ERR;
	for (k = 0; k < n; k++) {
		memcpy(iov[k].iov_base, s, iov[k].iov_len);
		s += iov[k].iov_len;
	}
	return 0;
}

/* The receive completion: the WQE goes back to userspace. */
static void complete(struct rxe_sim_qp *q, const struct hca_pkt *p,
		     uint32_t status, uint32_t bytes)
{
	struct ib_uverbs_wc wc = {
		.wr_id = cur_wqe(q)->wr_id,
		.status = status,
		.qp_num = q->qpn,
	};

	if (!status) {
		wc.opcode = p->op == HCA_PKT_WRITE ? 129 : 128;
		wc.byte_len = bytes;
		wc.wc_flags = RXE_WC_GRH;
		wc.port_num = 1;
		if (p->flags & HCA_PF_IMM) {
			wc.wc_flags |= RXE_WC_WITH_IMM;
			wc.ex.imm_data = p->imm;
		} else if (p->flags & HCA_PF_INV) {
			wc.wc_flags |= RXE_WC_WITH_INV;
			wc.ex.invalidate_rkey = p->imm;
		}
		if (q->qp->qp_type == IB_QPT_UD)
			wc.src_qp = p->src_qpn;
	}
	if (!q->qp->srq)
		rxe_queue_advance(q->rq);
	q->resp.have_wqe = 0;
	if (rxe_cq_post(q->qp->recv_cq, &wc, !!(p->flags & HCA_PF_SE)) &&
	    !status)
		rxe_qp_error(q); /* class G: the CQ was full */
}

/* A responder error: NAK (RC), the receive WQE in use fails, ERR. */
static void fail(struct rxe_sim_qp *q, const struct hca_pkt *p, uint8_t code,
		 uint32_t status)
{
	if (q->qp->qp_type == IB_QPT_RC && code)
		send_ack(q, HCA_PKT_NAK, code, p->psn);
	if (q->resp.have_wqe)
		complete(q, p, status, 0);
	rxe_qp_error(q);
}

static void ud_rcv(struct rxe_sim_qp *q, const struct hca_pkt *p,
		   const uint8_t *payload)
{
	uint8_t hdr[40];
	uint32_t st;

	if (p->qkey != q->qp->attr.qkey || get_wqe(q))
		return; /* a Q_Key violation or no WQE: dropped */
	rxe_net_hdr(p, hdr);
	st = scatter(q, 0, hdr, sizeof(hdr));
	if (!st)
		st = scatter(q, 40, payload, p->len);
	complete(q, p, st, p->len + 40);
	if (st)
		rxe_qp_error(q);
}

static void read_rcv(struct rxe_sim_qp *q, const struct hca_pkt *p)
{
	struct rxe_ans a = {.p = {.op = HCA_PKT_READ_RESP, .psn = p->psn},
			    .va = p->raddr,
			    .rkey = p->rkey,
			    .len = p->msg_len};
	uint32_t mtu = rxe_path_mtu(q), end;

	if (a.len &&
	    !rxe_rmem(q, p->rkey, p->raddr, a.len, IB_ACCESS_REMOTE_READ)) {
		fail(q, p, HCA_NAK_ACCESS, 0);
		return;
	}
	answer(q, &a);
	end = (p->psn + (a.len ? (a.len + mtu - 1) / mtu : 1)) & 0xffffff;
	if (rxe_psn_diff(end, q->resp.epsn) > 0)
		q->resp.epsn = end;
}

static void atomic_rcv(struct rxe_sim_qp *q, const struct hca_pkt *p)
{
	struct rxe_ans a = {.p = {.op = HCA_PKT_ATOMIC_RESP, .psn = p->psn}};
	struct rxe_res *r;
	uint64_t *t, old;
	uint32_t i;

	for (i = 0; i < RXE_RES && i < q->resp.nres; i++) {
		r = &q->resp.res[i];
		if (r->psn == p->psn &&
		    rxe_psn_diff(p->psn, q->resp.epsn) < 0) {
			a.p.atom[0] = r->orig; /* a duplicate: not twice */
			answer(q, &a);
			return;
		}
	}
	if (rxe_psn_diff(p->psn, q->resp.epsn) < 0)
		return; /* an unknown duplicate */
	if (p->raddr & 7) {
		fail(q, p, HCA_NAK_INV_REQ, 0);
		return;
	}
	t = rxe_rmem(q, p->rkey, p->raddr, 8, IB_ACCESS_REMOTE_ATOMIC);
	if (!t) {
		fail(q, p, HCA_NAK_ACCESS, 0);
		return;
	}
	if (p->op == HCA_PKT_FA) {
		old = __atomic_fetch_add(t, p->atom[0], __ATOMIC_SEQ_CST);
	} else {
		old = p->atom[1];
		__atomic_compare_exchange_n(t, &old, p->atom[0], 0,
					    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	}
	r = &q->resp.res[q->resp.nres++ % RXE_RES];
	r->psn = p->psn;
	r->orig = old;
	a.p.atom[0] = old;
	answer(q, &a);
	q->resp.epsn = (p->psn + 1) & 0xffffff;
}

/* Does the QP allow what the request asks for (qp_access_flags)? */
static int allowed(const struct rxe_sim_qp *q, uint8_t op)
{
	uint32_t acc = q->qp->attr.qp_access_flags;

	switch (op) {
	case HCA_PKT_WRITE:
		return !!(acc & IB_ACCESS_REMOTE_WRITE);
	case HCA_PKT_READ_REQ:
		return (acc & IB_ACCESS_REMOTE_READ) &&
		       q->qp->attr.max_dest_rd_atomic;
	case HCA_PKT_CS:
	case HCA_PKT_FA:
		return (acc & IB_ACCESS_REMOTE_ATOMIC) &&
		       q->qp->attr.max_dest_rd_atomic;
	}
	return 1;
}

/* A WRITE packet's bytes: 0, or the NAK code. */
static uint8_t write_data(struct rxe_sim_qp *q, const struct hca_pkt *p,
			  const uint8_t *payload)
{
	uint8_t *dst;

	if (p->flags & HCA_PF_FIRST) {
		q->resp.va = p->raddr;
		q->resp.rkey = p->rkey;
		q->resp.resid = p->msg_len;
		if (p->msg_len && !rxe_rmem(q, p->rkey, p->raddr, p->msg_len,
					    IB_ACCESS_REMOTE_WRITE))
			return HCA_NAK_ACCESS;
	}
	if (p->len > q->resp.resid)
		return HCA_NAK_INV_REQ; /* more than the RETH said */
	if (p->len) {
		dst = rxe_rmem(q, q->resp.rkey, q->resp.va, p->len,
			       IB_ACCESS_REMOTE_WRITE);
		if (!dst)
			return HCA_NAK_ACCESS;
		memcpy(dst, payload, p->len);
	}
	q->resp.va += p->len;
	q->resp.resid -= p->len;
	return 0;
}

/* SEND or WRITE packet in sequence; 0 done, -1 RNR (not consumed). */
static int msg_rcv(struct rxe_sim_qp *q, const struct hca_pkt *p,
		   const uint8_t *payload)
{
	int need_wqe = p->op == HCA_PKT_SEND ||
		       (p->flags & (HCA_PF_IMM | HCA_PF_LAST)) ==
			       (HCA_PF_IMM | HCA_PF_LAST);
	uint32_t st;
	uint8_t code;

	/* resources first: an RNR NAK leaves the packet unexecuted */
	if (need_wqe && get_wqe(q)) {
		if (q->qp->qp_type == IB_QPT_RC) {
			send_ack(q, HCA_PKT_NAK, HCA_NAK_RNR, p->psn);
			return -1;
		}
		return 0; /* UC: the message is dropped */
	}
	if (p->op == HCA_PKT_WRITE) {
		code = write_data(q, p, payload);
		if (code) {
			fail(q, p, code, RXE_WC_REM_ACCESS_ERR);
			return 0;
		}
	}
	if (p->op == HCA_PKT_SEND) {
		if (p->flags & HCA_PF_FIRST)
			q->resp.placed = 0;
		st = scatter(q, q->resp.placed, payload, p->len);
		if (st) {
			fail(q, p, HCA_NAK_OP, st);
			return 0;
		}
		q->resp.placed += p->len;
	}
	if (!(p->flags & HCA_PF_LAST))
		return 0;
	if ((p->flags & HCA_PF_INV) && rxe_mw_invalidate(q, p->imm)) {
		complete(q, p, RXE_WC_REM_INV_REQ_ERR, 0);
		rxe_qp_error(q); /* class J: acknowledged, then ERR */
		return 0;
	}
	if (need_wqe)
		complete(q, p, 0,
			 p->op == HCA_PKT_WRITE ? p->msg_len : q->resp.placed);
	return 0;
}

/* RC PSN check: 1 to execute, 0 handled (duplicate or gap). */
static int rc_psn(struct rxe_sim_qp *q, const struct hca_pkt *p)
{
	int32_t d = rxe_psn_diff(p->psn, q->resp.epsn);

	if (d > 0) {
		if (!q->resp.nak_sent) {
			hca_stats.seq_naks++;
			send_ack(q, HCA_PKT_NAK, HCA_NAK_SEQ, q->resp.epsn);
		}
		q->resp.nak_sent = 1;
		return 0;
	}
	q->resp.nak_sent = 0;
	if (!d)
		return 1;
	hca_stats.duplicates++;
	if (p->op == HCA_PKT_READ_REQ || p->op == HCA_PKT_CS ||
	    p->op == HCA_PKT_FA)
		return 1; /* answered again from memory / the resources */
	send_ack(q, HCA_PKT_ACK, 0, (q->resp.epsn - 1) & 0xffffff);
	return 0;
}

/* Opcode sequence: a FIRST starts a message, the rest continue it. */
static int in_sequence(const struct rxe_sim_qp *q, const struct hca_pkt *p)
{
	int first = !!(p->flags & HCA_PF_FIRST);

	if (q->resp.in_msg)
		return !first && p->op == q->resp.op;
	return first;
}

void rxe_resp_rcv(struct rxe_sim_qp *q, const struct hca_pkt *p,
		  const uint8_t *payload)
{
	uint8_t st = q->qp->attr.qp_state, qpt = q->qp->qp_type;

	if (st < IB_QPS_RTR || st == IB_QPS_ERR)
		return;
	if (qpt == IB_QPT_UD) {
		ud_rcv(q, p, payload);
		return;
	}
	if (qpt == IB_QPT_RC && !rc_psn(q, p))
		return;
	if (qpt == IB_QPT_UC && p->psn != q->resp.epsn) {
		q->resp.in_msg = 0; /* a gap: the message is lost */
		if (!(p->flags & HCA_PF_FIRST))
			return;
		q->resp.epsn = p->psn;
	}
	if (!allowed(q, p->op)) {
		if (qpt == IB_QPT_RC)
			fail(q, p, HCA_NAK_INV_REQ, RXE_WC_REM_INV_REQ_ERR);
		return;
	}
	if (p->op == HCA_PKT_READ_REQ) {
		read_rcv(q, p);
		return;
	}
	if (p->op == HCA_PKT_CS || p->op == HCA_PKT_FA) {
		atomic_rcv(q, p);
		return;
	}
	if (!in_sequence(q, p)) {
		if (qpt == IB_QPT_RC)
			fail(q, p, HCA_NAK_INV_REQ, RXE_WC_REM_INV_REQ_ERR);
		else
			q->resp.in_msg = 0;
		return;
	}
	if (msg_rcv(q, p, payload))
		return; /* RNR: the same PSN is expected again */
	if (q->qp->attr.qp_state == IB_QPS_ERR)
		return;
	q->resp.in_msg = !(p->flags & HCA_PF_LAST);
	q->resp.op = p->op;
	q->resp.epsn = (p->psn + 1) & 0xffffff;
	if (qpt == IB_QPT_RC &&
	    ((p->flags & HCA_PF_LAST) ||
	     (p->psn % RXE_MAX_PKT_PER_ACK) == RXE_MAX_PKT_PER_ACK - 1))
		send_ack(q, HCA_PKT_ACK, 0, p->psn);
}
