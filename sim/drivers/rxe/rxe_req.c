// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe's requester: it walks the send queue from its own index (between
 * the completer's consumer index and the user's producer), gives each new
 * WQE its PSNs (one per packet, a READ one per response packet it asks
 * for), executes local operations, and sends the message in packets of
 * the path MTU (the port MTU for UD). RC keeps at most 128 PSNs
 * unacknowledged and max_rd_atomic READs/atomics in flight, and a fenced
 * WQE waits for those before it. A WQE goes PENDING (RC: waits for its
 * acknowledgement) or DONE (UC, UD: complete once sent); the completer
 * retires it. Where the wire has no room the requester stops and the
 * engine runs it again.
 */
#include "rxe.h"
#include "fault.h"
#include "netdev.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>

#define SEND_SIGNALED  2
#define SEND_SOLICITED 4
#define SEND_INLINE    8
#define SEND_FENCE     1

int rxe_wr_is_rd_atomic(uint32_t opcode)
{
	return opcode == RXE_WR_READ || opcode == RXE_WR_CS ||
	       opcode == RXE_WR_FA;
}

/* the packet operation of a WR opcode, 0 for none on this QP type */
static uint8_t pkt_op(uint8_t qpt, uint32_t op)
{
	static const uint8_t ops[] = {
		[RXE_WR_WRITE] = HCA_PKT_WRITE,
		[RXE_WR_WRITE_IMM] = HCA_PKT_WRITE,
		[RXE_WR_SEND] = HCA_PKT_SEND,
		[RXE_WR_SEND_IMM] = HCA_PKT_SEND,
		[RXE_WR_READ] = HCA_PKT_READ_REQ,
		[RXE_WR_CS] = HCA_PKT_CS,
		[RXE_WR_FA] = HCA_PKT_FA,
		[RXE_WR_SEND_INV] = HCA_PKT_SEND,
	};

	if (op >= sizeof(ops) || !ops[op])
		return 0;
	if (qpt == IB_QPT_UD && op != RXE_WR_SEND && op != RXE_WR_SEND_IMM)
		return 0;
	if (qpt == IB_QPT_UC &&
	    (rxe_wr_is_rd_atomic(op) || op == RXE_WR_SEND_INV))
		return 0;
	return ops[op];
}

static uint32_t wqe_npkts(const struct rxe_sim_qp *q,
			  const struct rxe_send_wqe *w)
{
	uint32_t mtu = rxe_path_mtu(q), len = w->dma.length;

	if (w->wr.opcode == RXE_WR_CS || w->wr.opcode == RXE_WR_FA ||
	    q->qp->qp_type == IB_QPT_UD || !len)
		return 1;
	return (len + mtu - 1) / mtu;
}

/* The AV of a UD WQE: its AH (same PD), or the AV the WQE carries. */
static int ud_av(struct rxe_sim_qp *q, const struct rxe_send_wqe *w,
		 struct sim_ah_attr *av)
{
	const struct rxe_av *v = &w->wr.wr.ud.av;
	struct sim_ah *ah;

	if (w->wr.wr.ud.ah_num) {
		ah = rxe_ah_find(q->uv, w->wr.wr.ud.ah_num);
		if (!ah || ah->pd != q->qp->pd)
			return -1;
		*av = ah->attr;
		return 0;
	}
	memset(av, 0, sizeof(*av));
	memcpy(av->dgid, v->grh.dgid.raw, 16);
	av->flow_label = v->grh.flow_label;
	av->sgid_index = v->grh.sgid_index;
	av->hop_limit = v->grh.hop_limit;
	av->traffic_class = v->grh.traffic_class;
	memcpy(av->dmac, v->dmac, 6);
	return 0;
}

/* Send one UD datagram to its destination (each member of a group). */
static int ud_send(struct rxe_sim_qp *q, const struct rxe_send_wqe *w,
		   struct hca_pkt *p, const struct iovec *iov, int n)
{
	uint32_t devs[64], qpns[64];
	struct sim_ah_attr av;
	int k, m, ret;

	if (ud_av(q, w, &av))
		return -EINVAL;
	rxe_pkt_addr(q, &av, p);
	p->flags |= HCA_PF_GRH;
	p->qkey = w->wr.wr.ud.remote_qkey;
	if ((int32_t)p->qkey < 0) /* high bit: the QP's own Q_Key */
		p->qkey = q->qp->attr.qkey;
	if (!sim_gid_is_mcast(av.dgid)) {
		p->dst_dev = (uint16_t)rxe_av_dev(q->dev, &av);
		p->dst_qpn = w->wr.wr.ud.remote_qpn;
		ret = rxe_xmit(q, p, iov, n, 0);
		return ret == -EAGAIN ? ret : 0;
	}
	m = sim_mcast_members(sim.sh, p->dgid, devs, qpns, 64);
	for (k = 0; k < m; k++) {
		p->dst_dev = (uint16_t)devs[k];
		p->dst_qpn = qpns[k];
		if (rxe_xmit(q, p, iov, n, 0) == -EAGAIN)
			return -EAGAIN;
	}
	return 0;
}

/* The next packet of w: 0 sent, -EAGAIN no room, else a WC status. */
static int send_packet(struct rxe_sim_qp *q, struct rxe_send_wqe *w, uint8_t op)
{
	uint32_t len = w->dma.length, off = len - w->dma.resid;
	uint32_t mtu = rxe_path_mtu(q), plen = w->dma.resid;
	struct iovec iov[RXE_MAX_SGE + 1];
	struct hca_pkt p = {.op = op, .psn = q->req.psn};
	uint32_t opc = w->wr.opcode, status = 0, npsn = 1;
	int n = 0, ret, single = 0;

	if (op == HCA_PKT_READ_REQ || op == HCA_PKT_CS || op == HCA_PKT_FA) {
		p.msg_len = len;
		npsn = op == HCA_PKT_READ_REQ ? wqe_npkts(q, w) : 1;
		plen = 0;
		single = 1;
	} else if (plen > mtu) {
		plen = mtu;
	}
	if (!off)
		p.flags |= HCA_PF_FIRST;
	if (single || plen == w->dma.resid) {
		p.flags |= HCA_PF_LAST;
		if (opc == RXE_WR_WRITE_IMM || opc == RXE_WR_SEND_IMM)
			p.flags |= HCA_PF_IMM;
		if (opc == RXE_WR_SEND_INV)
			p.flags |= HCA_PF_INV;
		if (w->wr.send_flags & SEND_SOLICITED)
			p.flags |= HCA_PF_SE;
		p.imm = w->wr.ex.imm_data;
	}
	if (op == HCA_PKT_CS || op == HCA_PKT_FA) {
		p.raddr = w->wr.wr.atomic.remote_addr;
		p.rkey = w->wr.wr.atomic.rkey;
		p.atom[0] = op == HCA_PKT_CS ? w->wr.wr.atomic.swap
					     : w->wr.wr.atomic.compare_add;
		p.atom[1] = w->wr.wr.atomic.compare_add;
	} else {
		p.raddr = w->wr.wr.rdma.remote_addr + off;
		p.rkey = w->wr.wr.rdma.rkey;
		if (op == HCA_PKT_WRITE)
			p.msg_len = len;
	}
	if (plen && (w->wr.send_flags & SEND_INLINE)) {
		iov[0].iov_base = w->dma.inline_data + off;
		iov[0].iov_len = plen;
		n = 1;
	} else if (plen) {
		n = rxe_sg_iov(q, w->dma.sge, w->dma.num_sge, off, plen, 0, iov,
			       &status);
		if (n < 0)
			return (int)status;
	}
	p.len = plen;
	if (q->qp->qp_type == IB_QPT_UD) {
		ret = ud_send(q, w, &p, iov, n);
		if (ret == -EINVAL)
			return RXE_WC_LOC_QP_OP_ERR;
	} else {
		ret = rxe_xmit(q, &p, iov, n, q->qp->qp_type == IB_QPT_RC);
	}
	if (ret == -EAGAIN)
		return ret; /* no room: the same packet later */
	q->req.psn = (q->req.psn + npsn) & 0xffffff;
	w->dma.resid = single ? 0 : w->dma.resid - plen;
	return 0;
}

/* A WQE the requester fails with status. 6.1 finishes it (the completer
 * reports it in order, then the QP goes to ERR); 6.12 moves the QP to ERR
 * at once (rxe_requester's err label), so the completer flushes it and
 * every WQE still queued, those sent before it too. */
static void req_failed(struct rxe_sim_qp *q, struct rxe_send_wqe *w,
		       uint32_t status)
{
	w->status = status;
	w->state = RXE_WQE_DONE;
	if (!sim.sh->cfg.kernel_61)
		rxe_qp_error(q);
}

/* A WQE seen for the first time: 1 to send it, 0 to hold it, or it is
 * finished (DONE) here. */
static int start_wqe(struct rxe_sim_qp *q, struct rxe_send_wqe *w)
{
	uint8_t qpt = q->qp->qp_type;
	uint32_t op = w->wr.opcode;
	uint32_t max_rd =
		q->qp->attr.max_rd_atomic ? q->qp->attr.max_rd_atomic : 1;

	w->status = sim_fault_wc_status(
		hca_fault_cqe_error(q->dev, q->qpn, &q->faults_sent));
	if (w->status) { /* --fault cqe-error: it fails as it starts */
		w->state = RXE_WQE_DONE;
		return 0;
	}
	if (op == RXE_WR_LOCAL_INV || op == RXE_WR_BIND_MW) {
		if (op == RXE_WR_BIND_MW)
			w->status = rxe_bind_mw(q, w);
		else if (rxe_mw_invalidate(q, w->wr.ex.invalidate_rkey))
			w->status = RXE_WC_LOC_QP_OP_ERR;
		w->state = RXE_WQE_DONE;
		if (w->status)
			req_failed(q, w, w->status);
		return 0;
	}
	if (!pkt_op(qpt, op)) {
		req_failed(q, w, RXE_WC_LOC_QP_OP_ERR);
		return 0;
	}
	if (qpt == IB_QPT_RC) {
		if (rxe_wr_is_rd_atomic(op) && q->req.rd_atomic >= max_rd)
			return 0;
		if ((w->wr.send_flags & SEND_FENCE) && q->req.rd_atomic)
			return 0;
	}
	if (qpt == IB_QPT_UD && w->dma.length > rxe_port_mtu(q->dev)) {
		w->state = RXE_WQE_DONE; /* C10-93.1.1: success, not sent */
		return 0;
	}
	w->first_psn = q->req.psn;
	w->last_psn = (q->req.psn + wqe_npkts(q, w) - 1) & 0xffffff;
	w->dma.resid = w->dma.length;
	w->has_rd_atomic = qpt == IB_QPT_RC && rxe_wr_is_rd_atomic(op);
	q->req.rd_atomic += w->has_rd_atomic;
	w->state = RXE_WQE_PROCESSING;
	return 1;
}

static int window_full(const struct rxe_sim_qp *q)
{
	return q->qp->qp_type == IB_QPT_RC &&
	       rxe_psn_diff(q->req.psn, q->comp.psn) >= RXE_MAX_UNACKED_PSNS;
}

/* The packets of w from req.psn on: 0 all sent (or failed), 1 held by
 * the window, -EAGAIN no room on the wire. */
static int send_message(struct rxe_sim_qp *q, struct rxe_send_wqe *w)
{
	uint8_t op = pkt_op(q->qp->qp_type, w->wr.opcode);
	int ret;

	if (q->qp->qp_type == IB_QPT_RC && !q->comp.deadline)
		q->comp.deadline = 1; /* the completer arms the ACK timer */
	while (rxe_psn_diff(q->req.psn, w->last_psn) <= 0) {
		if (window_full(q))
			return 1;
		ret = send_packet(q, w, op);
		if (ret == -EAGAIN)
			return ret;
		if (ret) {
			req_failed(q, w, (uint32_t)ret);
			return 0;
		}
	}
	if (q->qp->qp_type != IB_QPT_RC) {
		w->state = RXE_WQE_DONE;
		return 0;
	}
	w->state = RXE_WQE_PENDING;
	return 0;
}

int rxe_requester(struct rxe_sim_qp *q)
{
	uint32_t prod = rxe_queue_user_index(q->sq);
	struct rxe_send_wqe *w;
	int did = 0, ret;

	if (q->qp->attr.qp_state != IB_QPS_RTS ||
	    (q->req.rnr_until && hca_now() < q->req.rnr_until))
		return 0;
	q->req.rnr_until = 0;
	while (q->req.wqe_index != prod) {
		w = rxe_queue_slot(q->sq, q->req.wqe_index);
		if (w->state == RXE_WQE_POSTED && !start_wqe(q, w) &&
		    w->state != RXE_WQE_DONE)
			break; /* held: in-flight limit or fence */
		if (w->state == RXE_WQE_PROCESSING) {
			ret = send_message(q, w);
			if (ret)
				break; /* no room, or the window: later */
		}
		if (q->qp->attr.qp_state == IB_QPS_ERR)
			return 1; /* req_failed on 6.12: all flushed */
		q->req.wqe_index = (q->req.wqe_index + 1) & q->sq->usable;
		did = 1;
	}
	return did;
}

/* Back to the oldest WQE not done (and the one being sent): their PSNs
 * are given again in the same order, so they stay the same. */
void rxe_req_rewind(struct rxe_sim_qp *q)
{
	uint32_t i, end = q->req.wqe_index, prod = rxe_queue_user_index(q->sq);
	struct rxe_send_wqe *w;
	int first = 1;

	for (i = q->sq->index;; i = (i + 1) & q->sq->usable) {
		if (i == end && i == prod)
			break;
		w = rxe_queue_slot(q->sq, i);
		if (i == end && w->state != RXE_WQE_PROCESSING)
			break;
		if (w->state != RXE_WQE_DONE && w->state != RXE_WQE_POSTED) {
			if (first) {
				q->req.psn = w->first_psn;
				q->req.wqe_index = i;
				first = 0;
			}
			q->req.rd_atomic -= w->has_rd_atomic;
			w->has_rd_atomic = 0;
			w->state = RXE_WQE_POSTED;
		}
		if (i == end)
			break;
	}
}
