// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The responder: receive WQEs (RQ and SRQ) taken up to their doorbell
 * counters, packets scattered straight from the receive ring into
 * registered memory, RDMA WRITE/READ/atomics checked against the rkey's
 * MR, and the RC answers: cumulative ACKs, RNR NAK (no receive posted,
 * min_rnr_timer), NAKs for access/invalid-request/operational errors (the
 * responder QP then goes to ERR, as IB's class J/K errors do).
 */
#include "hca.h"
#include "hca_cmd.h"

#include <endian.h>
#include <errno.h>
#include <string.h>
#include <sys/uio.h>

#define PSN_MASK	  0xffffff
#define MLX5_INVALID_LKEY 0x100

static uint32_t be32_at(const volatile void *p)
{
	uint32_t v;

	memcpy(&v, (const void *)p, 4);
	return be32toh(v);
}

static uint32_t read_sges(const uint8_t *p, uint32_t max, struct hca_sge *sge)
{
	uint32_t n, i;
	uint64_t a;

	for (n = 0, i = 0; i < max && n < HCA_MAX_SGE; i++, p += 16) {
		if (be32_at(p + 4) == MLX5_INVALID_LKEY)
			break;
		memcpy(&a, p + 8, 8);
		sge[n].len = be32_at(p);
		sge[n].key = be32_at(p + 4);
		sge[n].addr = be64toh(a);
		n++;
	}
	return n;
}

int hca_recv_wqe(struct hca_qp *qp, struct hca_sge *sge, uint32_t *nsge,
		 uint32_t *wqe_counter)
{
	struct hca_srq *srq = qp->srq;
	uint16_t db, avail;
	uint8_t *w;

	if (srq) {
		db = (uint16_t)be32toh(
			__atomic_load_n(&srq->dbrec[0], __ATOMIC_ACQUIRE));
		if (db == srq->consumed)
			return -ENOENT;
		w = srq->buf + ((size_t)srq->head << srq->wqe_shift);
		*wqe_counter = srq->head;
		*nsge = read_sges(w + 16, srq->max_gs, sge);
		srq->head = (uint16_t)(w[2] << 8 | w[3]);
		srq->consumed++;
		srq->land_qpn = qp->qpn;
		avail = (uint16_t)(db - srq->consumed);
		if (srq->limit && avail < srq->limit) {
			/* one event per arming; query_srq then reads 0 */
			srq->limit = 0;
			hca_eq_post(HCA_EQE_SRQ_RQ_LIMIT, 0, srq->dev,
				    srq->srqn);
		}
		return 0;
	}
	if (!qp->rq_wqe_cnt)
		return -ENOENT;
	db = (uint16_t)be32toh(
		__atomic_load_n(&qp->dbrec[0], __ATOMIC_ACQUIRE));
	if (db == qp->rq_consumed)
		return -ENOENT;
	w = qp->buf + ((size_t)(qp->rq_consumed & (qp->rq_wqe_cnt - 1))
		       << qp->rq_wqe_shift);
	*wqe_counter = qp->rq_consumed++;
	*nsge = read_sges(w, (1u << qp->rq_wqe_shift) / 16, sge);
	return 0;
}

static int v4_mapped(const uint8_t *g)
{
	return !memcmp(g, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12);
}

/* What carried a datagram with a GRH: 0 IB or RoCE v1, 1 RoCE v2 over
 * IPv6, 2 RoCE v2 over IPv4 (the CQE's L3 type). */
static uint8_t pkt_l3_type(const struct hca_qp *qp, const struct hca_pkt *p)
{
	if (!sim_port_is_eth(sim.sh, qp->dev) ||
	    p->gid_type != SIM_GID_ROCE_V2)
		return 0;
	return v4_mapped(p->sgid) ? 2 : 1;
}

void hca_recv_cqe_info(const struct hca_qp *qp, uint32_t wqe_counter,
		       const struct hca_pkt *p, uint32_t bytes, uint8_t synd,
		       struct hca_cqe_info *ci)
{
	*ci = (struct hca_cqe_info){
		.wqe_counter = (uint16_t)wqe_counter,
		.qpn = qp->qpn,
		.uidx = qp->uidx,
		.byte_cnt = bytes,
		.syndrome = synd,
	};
	if (synd) {
		ci->opcode = HCA_CQE_RESP_ERR;
	} else if (p->op == HCA_PKT_WRITE) {
		ci->opcode = HCA_CQE_RESP_WR_IMM;
	} else if (p->flags & HCA_PF_IMM) {
		ci->opcode = HCA_CQE_RESP_SEND_IMM;
	} else if (p->flags & HCA_PF_INV) {
		ci->opcode = HCA_CQE_RESP_SEND_INV;
	} else {
		ci->opcode = HCA_CQE_RESP_SEND;
	}
	if (!synd && p) {
		ci->imm = p->imm; /* raw: immediate or BE32 invalidated rkey */
		ci->src_qp = p->src_qpn;
		ci->slid = p->slid;
		ci->sl = p->sl;
		ci->grh = !!(p->flags & HCA_PF_GRH);
		ci->l3_type = ci->grh ? pkt_l3_type(qp, p) : 0;
		ci->solicited = !!(p->flags & HCA_PF_SE);
	}
}

void hca_recv_complete(struct hca_qp *qp, uint32_t wqe_counter,
		       const struct hca_pkt *p, uint32_t bytes, uint8_t synd)
{
	struct hca_cq *cq = qp->rcq;
	struct hca_cqe_info ci;

	hca_recv_cqe_info(qp, wqe_counter, p, bytes, synd, &ci);
	if (qp->scat_len && !synd)
		hca_scat_info(&ci, qp->rcq->cqe_size, qp->scat,
			      qp->scat_len);
	qp->scat_len = 0;
	if (qp->tm_op)
		cq = hca_tm_complete(qp, &ci);
	if (cq)
		hca_cqe_write(cq, &ci);
}

/* iovec over [off, off+len) of the SGE list, for writing. */
static int scatter_iov(struct hca_qp *qp, const struct hca_sge *sge,
		       uint32_t nsge, uint32_t off, uint32_t len,
		       struct iovec *iov, uint8_t *synd)
{
	uint32_t i, take;
	int n = 0;
	void *p;

	for (i = 0; i < nsge && len; i++) {
		if (off >= sge[i].len) {
			off -= sge[i].len;
			continue;
		}
		take = sge[i].len - off < len ? sge[i].len - off : len;
		p = hca_mem(qp, sge[i].key, sge[i].addr + off, take,
			    IB_ACCESS_LOCAL_WRITE, 0, synd);
		if (!p)
			return -1;
		iov[n].iov_base = p;
		iov[n++].iov_len = take;
		len -= take;
		off = 0;
	}
	if (len) {
		*synd = HCA_SYND_LOC_LEN;
		return -1;
	}
	return n;
}

/* Send a NAK to the connected requester, or keep it for the next pass
 * when its ring is full: a NAK is never lost on our side. 1 if sent. */
static int send_nak(struct hca_qp *qp, uint8_t nak, uint32_t psn)
{
	struct hca_pkt a;

	memset(&a, 0, sizeof(a));
	a.op = HCA_PKT_NAK;
	a.nak = nak;
	a.psn = psn;
	a.src_dev = (uint16_t)qp->dev;
	a.src_qpn = qp->qpn;
	a.dst_dev = (uint16_t)qp->dlid_dev;
	a.dst_qpn = qp->dest_qpn;
	a.rnr_timer = qp->min_rnr_timer;
	qp->nak_pending = 0;
	if (hca_fabric_send(&a, NULL, 0) != -EAGAIN)
		return 1;
	qp->nak_pending = 1;
	qp->nak_code = nak;
	qp->nak_psn = psn;
	return 0;
}

/* A responder error of class J/K: NAK (RC), then ERR. */
static void resp_fatal(struct hca_qp *qp, const struct hca_pkt *p, uint8_t nak,
		       uint32_t event)
{
	if (qp->type == IB_QPT_RC)
		send_nak(qp, nak, p->psn);
	if (sim_tracing())
		sim_trace("qp %#x to ERR: responder error (NAK %u) on packet "
			  "op %u psn %#x from qp %#x",
			  qp->qpn, nak, p->op, p->psn, p->src_qpn);
	if (event && qp->xrc == HCA_XRC_TGT)
		hca_xrc_event(qp, event); /* the domain's QP: every handle */
	else if (event)
		hca_eq_post(event, 0, qp->dev, qp->qpn);
	hca_qp_to_err(qp);
}

/* A RoCE v2 datagram over IPv4: bytes 20..39 hold its IPv4 header (TOS
 * the traffic class, TTL the hop limit, protocol UDP), 0..19 zero. */
static void ipv4_header(uint8_t *h, const struct hca_pkt *p)
{
	uint16_t tot = (uint16_t)(20 + hca_ud_paylen(p, 1)), v;
	uint32_t sum = 0;
	unsigned int i;

	memset(h, 0, 40);
	h += 20;
	h[0] = 0x45;
	h[1] = p->tclass;
	h[2] = (uint8_t)(tot >> 8);
	h[3] = (uint8_t)tot;
	h[6] = 0x40; /* don't fragment */
	h[8] = p->hop_limit;
	h[9] = 17;
	memcpy(h + 12, p->sgid + 12, 4);
	memcpy(h + 16, p->dgid + 12, 4);
	for (i = 0; i < 20; i += 2)
		sum += (uint32_t)(h[i] << 8 | h[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	v = (uint16_t)~sum;
	h[10] = (uint8_t)(v >> 8);
	h[11] = (uint8_t)v;
}

/* The 40 bytes a UD receive gets first: the GRH (IB, RoCE v1), the IPv6
 * header (RoCE v2, next header UDP) or the IPv4 header (RoCE v2 over an
 * IPv4-mapped GID). Its fields are the sender's AV's: one subnet has no
 * router to lower the hop limit. */
void hca_ud_grh(const struct hca_qp *qp, const struct hca_pkt *p,
		uint8_t grh[40])
{
	uint8_t l3 = pkt_l3_type(qp, p);
	int v2 = l3 != 0;
	uint32_t plen = hca_ud_paylen(p, v2), w0;

	if (l3 == 2) {
		ipv4_header(grh, p);
		return;
	}
	w0 = 6u << 28 | (uint32_t)p->tclass << 20 | (p->flow_label & 0xfffff);
	grh[0] = (uint8_t)(w0 >> 24);
	grh[1] = (uint8_t)(w0 >> 16);
	grh[2] = (uint8_t)(w0 >> 8);
	grh[3] = (uint8_t)w0;
	grh[4] = (uint8_t)(plen >> 8);
	grh[5] = (uint8_t)plen;
	grh[6] = v2 ? 17 : 0x1b; /* next header: UDP or BTH */
	grh[7] = p->hop_limit;
	memcpy(grh + 8, p->sgid, 16);
	memcpy(grh + 24, p->dgid, 16);
}

static void write_grh(struct hca_qp *qp, const struct hca_pkt *p,
		      const struct iovec *iov, int n)
{
	uint8_t grh[40] = {0}, *d;
	uint32_t i, k, off = 0;

	if (!(p->flags & HCA_PF_GRH))
		return;
	hca_ud_grh(qp, p, grh);
	for (i = 0; i < (uint32_t)n && off < 40; i++) {
		d = iov[i].iov_base;
		for (k = 0; k < iov[i].iov_len && off < 40; k++)
			d[k] = grh[off++];
	}
}

static void ud_input(struct hca_qp *qp, const struct hca_pkt *p)
{
	struct hca_sge sge[HCA_MAX_SGE];
	struct iovec iov[HCA_MAX_SGE], grh[HCA_MAX_SGE];
	uint32_t nsge, wc;
	uint8_t synd = 0;
	int n, g;

	if (p->qkey != qp->qkey || p->len > 4096)
		return; /* dropped, as a port drops a bad Q_Key */
	if (hca_recv_wqe(qp, sge, &nsge, &wc))
		return; /* no receive posted: UD drops */
	g = scatter_iov(qp, sge, nsge, 0, 40, grh, &synd);
	n = g < 0 ? -1 : scatter_iov(qp, sge, nsge, 40, p->len, iov, &synd);
	if (n < 0) {
		hca_recv_complete(qp, wc, p, 0, synd);
		hca_qp_to_err(qp);
		return;
	}
	/* a datagram that landed has its bytes in place (hca_land_ud.c) */
	if (!hca_rx_landing()) {
		write_grh(qp, p, grh, g);
		hca_rx_payload(iov, n);
	}
	hca_recv_complete(qp, wc, p, p->len + 40, 0);
}

static uint32_t read_pkts(uint32_t len)
{
	return len ? (len + HCA_SEG_MAX - 1) / HCA_SEG_MAX : 1;
}

/* Queue the answer: op, from psn, len bytes at src (READ) or orig. */
static void queue_reply(struct hca_qp *qp, const struct hca_pkt *p, uint8_t op,
			uint32_t psn, uint8_t *src, uint32_t len, uint64_t orig)
{
	struct hca_rresp *r = &qp->rr[qp->rr_head++ % HCA_RRESP];

	r->op = op;
	r->dst_dev = p->src_dev;
	r->dst_qpn = p->src_qpn;
	r->psn = psn;
	r->src = src;
	r->len = len;
	r->sent = 0;
	r->orig = orig;
}

/* Remember an executed READ or atomic request as a resource. */
static void keep_resource(struct hca_qp *qp, const struct hca_pkt *p,
			  uint64_t orig)
{
	struct hca_rres *r = &qp->res[qp->nres++ % HCA_RKEEP];

	r->op = p->op == HCA_PKT_READ_REQ ? HCA_PKT_READ_RESP
					  : HCA_PKT_ATOMIC_RESP;
	r->psn = p->psn;
	r->len = p->op == HCA_PKT_READ_REQ ? p->msg_len : 0;
	r->npkts = p->op == HCA_PKT_READ_REQ ? read_pkts(r->len) : 1;
	r->rkey = p->rkey;
	r->raddr = p->raddr;
	r->orig = orig;
}

/* An answer for psn (op) still waits in the queue. */
static int queued(const struct hca_qp *qp, uint8_t op, uint32_t psn)
{
	const struct hca_rresp *r;
	uint32_t i;

	for (i = qp->rr_tail; i != qp->rr_head; i++) {
		r = &qp->rr[i % HCA_RRESP];
		if (r->op == op &&
		    ((psn - r->psn) & PSN_MASK) < read_pkts(r->len))
			return 1;
	}
	return 0;
}

/*
 * A duplicate READ or atomic request: the requester lost (part of) our
 * answer. Answer it again from the resource that holds it: a READ from
 * the PSN asked for, an atomic with the value it returned the first time.
 * A request no kept resource remembers is dropped, as is one whose answer
 * is still queued.
 */
static void replay(struct hca_qp *qp, const struct hca_pkt *p)
{
	uint32_t keep = qp->dest_rd_atom ? qp->dest_rd_atom : 1, i, off, len;
	uint8_t op = p->op == HCA_PKT_READ_REQ ? HCA_PKT_READ_RESP
					       : HCA_PKT_ATOMIC_RESP;
	struct hca_rres *r;
	uint8_t synd;
	void *src;

	if (keep > HCA_RKEEP)
		keep = HCA_RKEEP;
	for (i = 0; i < keep && i < qp->nres; i++) {
		r = &qp->res[(qp->nres - 1 - i) % HCA_RKEEP];
		off = (p->psn - r->psn) & PSN_MASK;
		if (r->op != op || off >= r->npkts)
			continue;
		if (queued(qp, op, p->psn) ||
		    qp->rr_head - qp->rr_tail >= HCA_RRESP)
			return; /* queued already, or no room */
		hca_stats.duplicates++;
		hca_hw_count(qp->dev, SIM_HWC_DUPLICATE);
		if (op == HCA_PKT_ATOMIC_RESP) {
			queue_reply(qp, p, op, p->psn, NULL, 0, r->orig);
			return;
		}
		off *= HCA_SEG_MAX;
		len = r->len - off;
		src = len ? hca_mem(qp, r->rkey, r->raddr + off, len,
				    IB_ACCESS_REMOTE_READ, 1, &synd)
			  : NULL;
		if (len && !src)
			return; /* the MR is gone: nothing to answer from */
		queue_reply(qp, p, op, p->psn, src, len, 0);
		return;
	}
}

static uint64_t do_atomic(const struct hca_pkt *p, void *dst)
{
	uint64_t *a = dst, old;

	if (p->op == HCA_PKT_FA)
		return __atomic_fetch_add(a, p->atom[0], __ATOMIC_SEQ_CST);
	old = p->atom[1];
	__atomic_compare_exchange_n(a, &old, p->atom[0], 0, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
	return old;
}

static void rc_read_atomic(struct hca_qp *qp, const struct hca_pkt *p)
{
	int atomic = p->op != HCA_PKT_READ_REQ;
	uint32_t need = atomic ? IB_ACCESS_REMOTE_ATOMIC : IB_ACCESS_REMOTE_READ;
	uint64_t len = atomic ? 8 : p->msg_len, orig = 0;
	uint8_t synd, *src = NULL;

	if (!(qp->access & need) ||
	    (len &&
	     !(src = hca_mem(qp, p->rkey, p->raddr, len, need, 1, &synd))) ||
	    (atomic && (p->raddr & 7))) {
		resp_fatal(qp, p, HCA_NAK_ACCESS, HCA_EQE_WQ_ACCESS_ERROR);
		return;
	}
	if (qp->rr_head - qp->rr_tail >= HCA_RRESP)
		return; /* too many outstanding: the requester asks again */
	if (atomic)
		orig = do_atomic(p, src);
	keep_resource(qp, p, orig);
	queue_reply(qp, p, atomic ? HCA_PKT_ATOMIC_RESP : HCA_PKT_READ_RESP,
		    p->psn, src, atomic ? 0 : p->msg_len, orig);
	qp->epsn = (p->psn + (atomic ? 1 : read_pkts(p->msg_len))) & PSN_MASK;
}

/* The receive a SEND lands in; a TM SRQ matches its tag first. */
static int take_recv(struct hca_qp *qp, const struct hca_pkt *p)
{
	if (qp->srq && qp->srq->tm)
		return hca_tm_recv(qp, p, qp->msg_sge, &qp->msg_nsge,
				   &qp->msg_wqe);
	return hca_recv_wqe(qp, qp->msg_sge, &qp->msg_nsge, &qp->msg_wqe);
}

/* A SEND whose payload goes to the CQE (cs_res): a whole message that
 * fits, into no TM SRQ; the receive WQE's buffers are not touched. */
static int send_to_cqe(const struct hca_qp *qp, const struct hca_pkt *p)
{
	uint32_t both = HCA_PF_FIRST | HCA_PF_LAST;

	return p->op == HCA_PKT_SEND && (p->flags & both) == both &&
	       !(qp->srq && qp->srq->tm) && p->len &&
	       p->len <= hca_scat_max(qp->cs_res, qp->rcq);
}

/* SEND and WRITE packets (RC and UC). */
static void rc_send_write(struct hca_qp *qp, const struct hca_pkt *p)
{
	struct iovec iov[HCA_MAX_SGE + 1];
	int write = p->op == HCA_PKT_WRITE, n;
	uint8_t synd = 0, tmh[HCA_TM_RNDV_HDR];
	uint32_t skip = 0;
	void *dst;

	if (p->flags & HCA_PF_FIRST) {
		qp->in_msg = 1;
		qp->msg_op = p->op;
		qp->msg_off = 0;
		if (!write && take_recv(qp, p)) {
			qp->in_msg = 0;
			/* the NAK for this PSN: later packets of the message
			 * are dropped without another one */
			qp->seq_nak_sent = 1;
			if (qp->type == IB_QPT_RC)
				send_nak(qp, HCA_NAK_RNR, p->psn);
			return; /* UC: the message is dropped */
		}
		if (write && (!(qp->access & IB_ACCESS_REMOTE_WRITE) ||
			      (p->msg_len &&
			       !hca_mem(qp, p->rkey, p->raddr, p->msg_len,
					IB_ACCESS_REMOTE_WRITE, 1, &synd)))) {
			qp->in_msg = 0;
			resp_fatal(qp, p, HCA_NAK_ACCESS,
				   HCA_EQE_WQ_ACCESS_ERROR);
			return;
		}
	}
	if (!qp->in_msg)
		return; /* UC: rest of a dropped message */
	/* iov[0]: a matched tag's TMH, which its buffer does not get */
	if (!write && (p->flags & HCA_PF_FIRST))
		skip = qp->tm_skip;
	iov[0].iov_base = tmh;
	iov[0].iov_len = skip;
	if (write) {
		dst = p->len ? hca_mem(qp, p->rkey, p->raddr, p->len,
				       IB_ACCESS_REMOTE_WRITE, 1, &synd)
			     : NULL;
		iov[1].iov_base = dst;
		iov[1].iov_len = p->len;
		n = dst ? 1 : 0;
	} else if (hca_rx_landing()) {
		n = 0; /* the sender put the bytes in place (hca_land.c) */
	} else if (send_to_cqe(qp, p)) {
		iov[1].iov_base = qp->scat;
		iov[1].iov_len = p->len;
		hca_rx_payload(iov + 1, 1);
		qp->scat_len = (uint8_t)p->len;
		n = 0;
	} else {
		n = scatter_iov(qp, qp->msg_sge, qp->msg_nsge, qp->msg_off,
				p->len - skip, iov + 1, &synd);
		if (n < 0) {
			hca_recv_complete(qp, qp->msg_wqe, p, 0, synd);
			qp->in_msg = 0;
			resp_fatal(qp, p,
				   synd == HCA_SYND_LOC_LEN ? HCA_NAK_INV_REQ
							    : HCA_NAK_OP,
				   0);
			return;
		}
	}
	if (n || skip)
		hca_rx_payload(iov, n + 1);
	qp->msg_off += p->len - skip;
	qp->epsn = (p->psn + 1) & PSN_MASK;
	if (!hca_rx_landing()) { /* a landed SEND's ACK went with it */
		qp->ack_psn = p->psn;
		qp->ack_pending = qp->type == IB_QPT_RC;
	}
	if (!(p->flags & HCA_PF_LAST))
		return;
	qp->in_msg = 0;
	if (!write && (p->flags & HCA_PF_INV) &&
	    hca_mw_remote_inv(qp, be32toh(p->imm))) {
		/* class J: the key names no window this QP may free */
		hca_recv_complete(qp, qp->msg_wqe, p, 0, HCA_SYND_REM_INV_REQ);
		resp_fatal(qp, p, HCA_NAK_INV_REQ, HCA_EQE_WQ_INVAL_REQ_ERROR);
		return;
	}
	if (!write) {
		hca_recv_complete(qp, qp->msg_wqe, p, qp->msg_off, 0);
	} else if (p->flags & HCA_PF_IMM) {
		if (hca_recv_wqe(qp, qp->msg_sge, &qp->msg_nsge,
				 &qp->msg_wqe)) {
			/* the data landed; the immediate needs a receive */
			qp->ack_pending = 0;
			qp->epsn = p->psn;
			qp->seq_nak_sent = 1;
			if (qp->type == IB_QPT_RC)
				send_nak(qp, HCA_NAK_RNR, p->psn);
			return;
		}
		hca_recv_complete(qp, qp->msg_wqe, p, p->msg_len, 0);
	}
}

/*
 * RC, PSN not the expected one. Earlier: a duplicate (our ACK or answer
 * was lost, or the wire repeated it): ACK again, or replay a READ or
 * atomic. Later: packets were lost before it: one PSN sequence NAK for
 * the gap (the requester goes back to the PSN it names), then silence
 * until the expected PSN comes.
 */
static void rc_out_of_order(struct hca_qp *qp, const struct hca_pkt *p)
{
	if (((qp->epsn - p->psn) & PSN_MASK) < 0x800000) {
		if (p->op == HCA_PKT_READ_REQ || p->op == HCA_PKT_CS ||
		    p->op == HCA_PKT_FA) {
			replay(qp, p);
			return;
		}
		hca_stats.duplicates++;
		hca_hw_count(qp->dev, SIM_HWC_DUPLICATE);
		qp->ack_psn = (qp->epsn - 1) & PSN_MASK;
		qp->ack_pending = 1;
		return;
	}
	if (qp->seq_nak_sent)
		return;
	qp->seq_nak_sent = 1;
	hca_stats.seq_naks++;
	hca_hw_count(qp->dev, SIM_HWC_OUT_OF_SEQ);
	send_nak(qp, HCA_NAK_SEQ, qp->epsn);
}

/* UC lost a packet inside a message: the message is dropped and its
 * receive WQE, not completed, serves the next one. */
static void uc_abort(struct hca_qp *qp)
{
	if (qp->msg_op == HCA_PKT_SEND && !qp->srq)
		qp->rq_consumed--;
	qp->in_msg = 0;
}

/* The requests the port counts as they arrive in order. */
static void count_request(const struct hca_qp *qp, const struct hca_pkt *p)
{
	if (p->op == HCA_PKT_WRITE && (p->flags & HCA_PF_FIRST))
		hca_hw_count(qp->dev, SIM_HWC_RX_WRITE);
	else if (p->op == HCA_PKT_READ_REQ)
		hca_hw_count(qp->dev, SIM_HWC_RX_READ);
	else if (p->op == HCA_PKT_CS || p->op == HCA_PKT_FA)
		hca_hw_count(qp->dev, SIM_HWC_RX_ATOMIC);
}

void hca_resp_input(struct hca_qp *qp, const struct hca_pkt *p)
{
	if (qp->state < IB_QPS_RTR || qp->state > IB_QPS_SQE)
		return; /* RESET/INIT/ERR drop what arrives */
	if (qp->type == IB_QPT_UD) {
		ud_input(qp, p);
		return;
	}
	if (p->src_qpn != qp->dest_qpn)
		return;
	if (qp->type == IB_QPT_RC && p->psn != qp->epsn) {
		rc_out_of_order(qp, p);
		return;
	}
	if (qp->type == IB_QPT_UC && p->psn != qp->epsn && qp->in_msg)
		uc_abort(qp); /* a packet is missing: drop the message */
	qp->epsn = p->psn;    /* UC follows the wire; RC: unchanged */
	qp->seq_nak_sent = 0;
	if (qp->xrc == HCA_XRC_TGT && hca_xrc_target(qp, p)) {
		resp_fatal(qp, p, HCA_NAK_INV_REQ, HCA_EQE_WQ_INVAL_REQ_ERROR);
		return;
	}
	count_request(qp, p);
	switch (p->op) {
	case HCA_PKT_SEND:
	case HCA_PKT_WRITE:
		rc_send_write(qp, p);
		break;
	case HCA_PKT_READ_REQ:
	case HCA_PKT_CS:
	case HCA_PKT_FA:
		if (qp->type == IB_QPT_RC) {
			rc_read_atomic(qp, p);
			break;
		}
		/* fallthrough */
	default:
		resp_fatal(qp, p, HCA_NAK_INV_REQ, HCA_EQE_WQ_INVAL_REQ_ERROR);
	}
}

/* Send queued READ/atomic responses, then one cumulative ACK. */
void hca_resp_ack(const struct hca_qp *qp, uint32_t psn, struct hca_pkt *a)
{
	memset(a, 0, sizeof(*a));
	a->op = HCA_PKT_ACK;
	a->psn = psn;
	a->src_dev = (uint16_t)qp->dev;
	a->src_qpn = qp->qpn;
	a->dst_dev = (uint16_t)qp->dlid_dev;
	a->dst_qpn = qp->dest_qpn;
}

int hca_resp_flush(struct hca_qp *qp)
{
	struct hca_rresp *r;
	struct hca_pkt a;
	struct iovec iov;
	uint32_t chunk;
	int did = 0;

	if (qp->nak_pending && !send_nak(qp, qp->nak_code, qp->nak_psn))
		return 0;
	while (qp->rr_tail != qp->rr_head) {
		r = &qp->rr[qp->rr_tail % HCA_RRESP];
		memset(&a, 0, sizeof(a));
		a.op = r->op;
		a.src_dev = (uint16_t)qp->dev;
		a.src_qpn = qp->qpn;
		a.dst_dev = r->dst_dev;
		a.dst_qpn = r->dst_qpn;
		a.atom[0] = r->orig;
		chunk = r->len - r->sent < HCA_SEG_MAX ? r->len - r->sent
						       : HCA_SEG_MAX;
		a.psn = (r->psn + r->sent / HCA_SEG_MAX) & PSN_MASK;
		a.len = chunk;
		if (r->sent + chunk == r->len)
			a.flags = HCA_PF_LAST;
		iov.iov_base = r->src + r->sent;
		iov.iov_len = chunk;
		if (hca_fabric_send(&a, &iov, chunk ? 1 : 0) == -EAGAIN)
			return did;
		did = 1;
		r->sent += chunk;
		if (r->sent == r->len)
			qp->rr_tail++;
	}
	if (qp->ack_pending) {
		hca_resp_ack(qp, qp->ack_psn, &a);
		if (hca_fabric_send(&a, NULL, 0) != -EAGAIN) {
			qp->ack_pending = 0;
			did = 1;
		}
	}
	return did;
}
