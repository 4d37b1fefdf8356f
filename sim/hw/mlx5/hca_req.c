// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The requester: takes send WQEs from the ring up to the SQ doorbell
 * counter, decodes their segments, sends them as packets, and completes
 * them: UC/UD once sent, RC when acknowledged (ACK, READ response, atomic
 * response). RC keeps the IB rules: in-order PSNs, go-back-N on RNR NAK
 * after min_rnr_timer (rnr_retry times, 7 = forever) and on the local ACK
 * timeout (4.096 us << timeout, retry_cnt times), then RNR_RETRY_EXC /
 * RETRY_EXC_ERR and the QP goes to ERR.
 */
#include "hca.h"
#include "ib_gid.h"

#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#define PSN_MASK 0xffffff

static uint32_t be32_at(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return be32toh(v);
}

static uint64_t be64_at(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return be64toh(v);
}

static int psn_le(uint32_t a, uint32_t b)
{
	return ((b - a) & PSN_MASK) < 0x800000;
}

/* Cursor over a WQE's 16-byte units, wrapping at the end of the ring. */
struct seg_cur {
	uint8_t *p, *start, *end;
};

static uint8_t *seg_next(struct seg_cur *c)
{
	uint8_t *p = c->p;

	c->p += 16;
	if (c->p >= c->end)
		c->p = c->start;
	return p;
}

/* An address vector's device (UD, DCI): by DLID on IB, by MAC on RoCE. */
unsigned int hca_av_dst_dev(const struct hca_qp *qp, const struct hca_swqe *w)
{
	struct sim_netdev *nd;

	if (!sim_port_is_eth(sim.sh, qp->dev))
		return w->dlid ? w->dlid - 1u : qp->dev;
	nd = sim_netdev_by_mac(sim.sh, w->rmac);
	if (nd)
		return nd->dev;
	return memcmp(w->rmac, "\0\0\0\0\0\0", 6) ? SIM_NO_DEVICE : qp->dev;
}

/* A datagram to a multicast group: one copy to every QP attached to it
 * (the sender's own too, as the port loops multicast back). */
static int ud_mcast(struct hca_qp *qp, struct hca_pkt *p,
		    const struct iovec *iov, int n)
{
	uint32_t devs[64], qpns[64];
	int k, m = sim_mcast_members(sim.sh, p->dgid, devs, qpns, 64);

	for (k = 0; k < m; k++) {
		p->dst_dev = (uint16_t)devs[k];
		p->dst_qpn = qpns[k];
		if (hca_fabric_send_mark(p, iov, n, &qp->mark) == -EAGAIN)
			return -EAGAIN;
	}
	return 0;
}

/* The GRH's source side: the SGID at the AV's index, on RoCE with its
 * type from the port's GID table (the HCA's own copy of it), on IB from
 * the port's GidPrefix and GUIDs; an unset slot leaves it zero. */
static void ud_source(const struct hca_qp *qp, const struct hca_swqe *w,
		      struct hca_pkt *p)
{
	struct sim_netdev *nd = sim_netdev_of(sim.sh, qp->dev, 1);
	const struct sim_gid_slot *g;

	p->tclass = w->tclass;
	p->hop_limit = w->hop_limit;
	p->flow_label = w->flow_label;
	if (!nd) {
		sim_ib_gid(qp->dev, w->sgid_index, p->sgid);
		return;
	}
	if (w->sgid_index >= nd->gid_tbl_len)
		return;
	g = &nd->gids[w->sgid_index];
	memcpy(p->sgid, g->gid, 16);
	p->gid_type = g->type;
	if (g->type == SIM_GID_ROCE_V2) /* libmlx5 put it in the AV's rlid */
		p->udp_sport = w->dlid;
}

static int is_read_like(uint8_t op)
{
	return op == HCA_WQE_RDMA_READ || op == HCA_WQE_ATOMIC_CS ||
	       op == HCA_WQE_ATOMIC_FA;
}

static uint8_t *inline_buf(struct hca_swqe *w)
{
	if (!w->inline_buf)
		w->inline_buf = malloc(1024);
	return w->inline_buf;
}

/* A UMR WQE's segments after ctrl, copied out of the ring for hca_mw.c. */
static uint8_t umr_segments(struct seg_cur *c, struct hca_swqe *w,
			    uint32_t ds)
{
	uint8_t seg[HCA_UMR_BYTES];
	uint32_t i, n = ds > 1 ? ds - 1 : 0;

	if (n > HCA_UMR_BYTES / 16)
		n = HCA_UMR_BYTES / 16;
	for (i = 0; i < n; i++)
		memcpy(seg + i * 16, seg_next(c), 16);
	return hca_umr_decode(w, seg, n * 16);
}

/* Decode the WQE at c into w; 0, or a syndrome for a malformed WQE. */
static uint8_t decode(struct hca_qp *qp, struct seg_cur *c, struct hca_swqe *w,
		      uint32_t *bbs)
{
	uint8_t *ctrl = seg_next(c), *s;
	uint32_t v0 = be32_at(ctrl), ds = ctrl[7] & 0x3f, used = 1, bc, n;
	uint8_t *ib;

	memset(w, 0, offsetof(struct hca_swqe, inline_buf));
	w->opcode = (uint8_t)v0;
	w->wqe_idx = (uint16_t)(v0 >> 8);
	w->ds = (uint8_t)ds;
	w->signaled = !!(ctrl[11] & 0x08);
	w->solicited = !!(ctrl[11] & 0x02);
	w->fence = !!(ctrl[11] & 0x80);
	memcpy(&w->imm, ctrl + 12, 4);
	*bbs = (ds * 16 + 63) / 64;
	if (!ds)
		*bbs = 1;
	if (w->opcode == HCA_WQE_NOP)
		return 0; /* its ds only says how many BBs it pads over */
	if (qp->dci) {
		s = seg_next(c);
		for (n = hca_dci_av(w, s), bc = 1; bc < n; bc++) {
			s = seg_next(c);
			/* RoCE: the MAC names the port (rlid is the UDP sport) */
			if (bc == 1)
				memcpy(w->rmac, s + 4, 6);
		}
		used += n;
	}
	if (qp->xrc == HCA_XRC_INI && w->opcode != HCA_WQE_UMR) {
		/* the XRC segment: the target SRQ's number, 12 bytes reserved */
		s = seg_next(c);
		w->xrc_srqn = be32_at(s) & 0xffffff;
		used++;
	}
	if (qp->type == IB_QPT_UD) {
		s = seg_next(c);
		w->qkey = be32_at(s);
		w->dqpn = be32_at(s + 8) & 0xffffff;
		w->sl = s[12] & 0xf;
		w->dlid = (uint16_t)(s[14] << 8 | s[15]);
		s = seg_next(c);
		memcpy(w->rmac, s + 4, 6);
		w->tclass = s[10];
		w->hop_limit = s[11];
		/* RoCE always carries a GRH (or IP header): no flag for it */
		w->grh = !!(be32_at(s + 12) & (1u << 30)) ||
			 sim_port_is_eth(sim.sh, qp->dev);
		w->sgid_index = (uint8_t)(be32_at(s + 12) >> 20);
		w->flow_label = be32_at(s + 12) & 0xfffff;
		s = seg_next(c);
		memcpy(w->dgid, s, 16);
		used += 3;
	} else if (w->opcode == HCA_WQE_RDMA_WRITE ||
		   w->opcode == HCA_WQE_RDMA_WRITE_IMM ||
		   is_read_like(w->opcode)) {
		s = seg_next(c);
		w->raddr = be64_at(s);
		w->rkey = be32_at(s + 8);
		used++;
		if (w->opcode != HCA_WQE_RDMA_READ &&
		    w->opcode != HCA_WQE_RDMA_WRITE &&
		    w->opcode != HCA_WQE_RDMA_WRITE_IMM) {
			s = seg_next(c);
			w->swap_add = be64_at(s);
			w->compare = be64_at(s + 8);
			used++;
		}
	} else if (w->opcode == HCA_WQE_UMR) {
		return umr_segments(c, w, ds);
	} else if (w->opcode == HCA_WQE_TAG_MATCHING) {
		/* the TM segment (32 bytes), then a buffer for APPEND */
		uint8_t tm[32];

		memcpy(tm, seg_next(c), 16);
		memcpy(tm + 16, seg_next(c), 16);
		hca_tm_decode(w, tm);
		used += 2;
	}
	/* A DS count short of the segments its opcode needs (0: not even
	 * the control segment) is a malformed WQE. */
	if (ds < used)
		return HCA_SYND_LOC_QP_OP;
	while (used < ds) {
		s = seg_next(c);
		used++;
		bc = be32_at(s);
		if (bc & 0x80000000u) {
			bc &= 0x7fffffff;
			ib = inline_buf(w);
			if (!ib || bc > 1024)
				return HCA_SYND_LOC_LEN;
			/* data starts 4 bytes in and may wrap */
			n = bc < 12 ? bc : 12;
			memcpy(ib, s + 4, n);
			while (n < bc) {
				s = seg_next(c);
				used++;
				memcpy(ib + n, s, bc - n < 16 ? bc - n : 16);
				n += bc - n < 16 ? bc - n : 16;
			}
			w->inl = 1;
			w->len = bc;
			continue;
		}
		if (w->nsge == HCA_MAX_SGE)
			return HCA_SYND_LOC_LEN;
		w->sge[w->nsge].len = bc;
		w->sge[w->nsge].key = be32_at(s + 4);
		w->sge[w->nsge].addr = be64_at(s + 8);
		w->len += bc;
		w->nsge++;
	}
	return 0;
}

static void req_complete(struct hca_qp *qp, struct hca_swqe *w, uint8_t synd)
{
	struct hca_cqe_info ci = {
		.opcode = synd ? HCA_CQE_REQ_ERR : HCA_CQE_REQ,
		.syndrome = synd,
		.wqe_opcode = w->opcode,
		.wqe_counter = w->wqe_idx,
		.qpn = qp->qpn,
		.uidx = qp->uidx,
	};

	if (w->opcode == HCA_WQE_RDMA_READ)
		ci.byte_cnt = w->len;
	else if (w->opcode == HCA_WQE_ATOMIC_CS ||
		 w->opcode == HCA_WQE_ATOMIC_FA)
		ci.byte_cnt = 8;
	if (qp->scat_len && !synd && w->signaled && qp->scq)
		hca_scat_info(&ci, qp->scq->cqe_size, qp->scat, qp->scat_len);
	qp->scat_len = 0;
	if ((synd || w->signaled) && qp->scq)
		hca_cqe_write(qp->scq, &ci);
}

/* Retire the oldest WQE. */
static void req_retire(struct hca_qp *qp, uint8_t synd)
{
	struct hca_swqe *w = &qp->ring[qp->tail & (qp->ring_size - 1)];
	uint8_t umr_err = 0;

	/* a bind or invalidation takes effect as it retires, in SQ order */
	if (!synd && w->opcode == HCA_WQE_UMR)
		synd = umr_err = hca_umr_exec(qp, w);
	if (!synd && w->opcode == HCA_WQE_TAG_MATCHING && qp->srq &&
	    qp->srq->tm)
		hca_tm_list_op(qp, w);
	if (w->tm.rndv == HCA_TM_RNDV_READ && qp->srq && qp->srq->tm)
		hca_tm_rndv_done(qp, w, synd);
	/* the HCA's own WQEs complete to no one, even when flushed */
	if (!w->tm.rndv)
		req_complete(qp, w, synd);
	qp->tail++;
	qp->retries = 0;
	qp->rnr_retries = 0;
	if (umr_err)
		hca_qp_to_err(qp);
}

/* Error on the oldest WQE: its CQE, then ERR (which flushes the rest). */
static void req_fail(struct hca_qp *qp, uint8_t synd)
{
	if (sim_tracing())
		sim_trace("qp %#x to ERR: requester error, syndrome %#x",
			  qp->qpn, synd);
	if (qp->tail != qp->head)
		req_retire(qp, synd);
	hca_qp_to_err(qp);
}

void hca_req_flush(struct hca_qp *qp)
{
	while (qp->tail != qp->head)
		req_retire(qp, HCA_SYND_FLUSH);
}

/* A WQE entering the ring at head: its packets and first PSN. */
static void wqe_start(struct hca_qp *qp, struct hca_swqe *w)
{
	/* a NOP, UMR or tag-list op puts nothing on the wire: no PSN */
	w->npkts = w->opcode == HCA_WQE_NOP || w->opcode == HCA_WQE_UMR ||
				   w->opcode == HCA_WQE_TAG_MATCHING
			   ? 0
			   : 1;
	if (!is_read_like(w->opcode) && w->len > HCA_SEG_MAX)
		w->npkts = (w->len + HCA_SEG_MAX - 1) / HCA_SEG_MAX;
	else if (w->opcode == HCA_WQE_RDMA_READ && w->len > HCA_SEG_MAX)
		w->npkts = (w->len + HCA_SEG_MAX - 1) / HCA_SEG_MAX;
	w->sent = 0;
	w->sent_max = 0;
	w->rd_next = 0;
	w->rd_gap = 0;
	w->deadline = 0;
	w->psn_first = qp->npsn;
	qp->npsn = (qp->npsn + w->npkts) & PSN_MASK;
}

int hca_req_inject(struct hca_qp *qp, const struct hca_swqe *tmpl,
		   const void *inl, uint32_t inl_len)
{
	struct hca_swqe *w;

	if (!qp->ring) {
		/* a QP without a send queue: room for the HCA's own */
		qp->ring = calloc(8, sizeof(*qp->ring));
		if (!qp->ring)
			return -ENOMEM;
		qp->ring_size = 8;
	}
	if (qp->head - qp->tail >= qp->ring_size || inl_len > 1024)
		return -ENOSPC;
	w = &qp->ring[qp->head & (qp->ring_size - 1)];
	memcpy(w, tmpl, offsetof(struct hca_swqe, inline_buf));
	if (inl_len) {
		if (!inline_buf(w))
			return -ENOMEM;
		memcpy(w->inline_buf, inl, inl_len);
		w->inl = 1;
		w->len = inl_len;
	}
	wqe_start(qp, w);
	w->failed = qp->state == IB_QPS_ERR ? HCA_SYND_FLUSH : 0;
	qp->head++;
	hca_trace_wqe(qp, w);
	return 0;
}

/* Take new WQEs from the ring (never more than the ring can track). */
static void take_wqes(struct hca_qp *qp)
{
	uint16_t db = (uint16_t)be32toh(
		__atomic_load_n(&qp->dbrec[1], __ATOMIC_ACQUIRE));
	struct seg_cur c = {.start = qp->sq_start,
			    .end = qp->sq_start + qp->sq_wqe_cnt * 64};
	struct hca_swqe *w;
	uint32_t bbs;
	uint8_t synd;

	while (qp->sq_taken != db && qp->head - qp->tail < qp->ring_size) {
		c.p = qp->sq_start +
		      (size_t)(qp->sq_taken & (qp->sq_wqe_cnt - 1)) * 64;
		w = &qp->ring[qp->head & (qp->ring_size - 1)];
		synd = decode(qp, &c, w, &bbs);
		qp->sq_taken = (uint16_t)(qp->sq_taken + bbs);
		wqe_start(qp, w);
		if (!synd && qp->type == IB_QPT_UD && w->len > 4096)
			synd = HCA_SYND_LOC_LEN; /* UD: one packet, MTU 4096 */
		if (!synd)
			synd = hca_fault_wqe(qp);
		w->failed = synd;
		qp->head++;
		hca_trace_wqe(qp, w);
		if (qp->state == IB_QPS_ERR)
			w->failed = HCA_SYND_FLUSH;
	}
}

/* The iovec of bytes [off, off+len) of the message. */
static int gather(struct hca_qp *qp, struct hca_swqe *w, uint32_t off,
		  uint32_t len, struct iovec *iov, uint8_t *synd)
{
	uint32_t i, skip = off, take;
	int n = 0;
	void *p;

	if (w->inl) {
		iov[0].iov_base = w->inline_buf + off;
		iov[0].iov_len = len;
		return len ? 1 : 0;
	}
	for (i = 0; i < w->nsge && len; i++) {
		if (skip >= w->sge[i].len) {
			skip -= w->sge[i].len;
			continue;
		}
		take = w->sge[i].len - skip;
		if (take > len)
			take = len;
		p = hca_mem(qp, w->sge[i].key, w->sge[i].addr + skip, take, 0,
			    0, synd);
		if (!p)
			return -1;
		iov[n].iov_base = p;
		iov[n].iov_len = take;
		n++;
		len -= take;
		skip = 0;
	}
	return n;
}

static void fill_common(struct hca_qp *qp, struct hca_pkt *p)
{
	memset(p, 0, sizeof(*p));
	p->src_dev = (uint16_t)qp->dev;
	p->src_qpn = qp->qpn;
	p->slid = (uint16_t)(qp->dev + 1);
}

static const uint8_t pkt_op[256] = {
	[HCA_WQE_SEND] = HCA_PKT_SEND,
	[HCA_WQE_SEND_IMM] = HCA_PKT_SEND,
	[HCA_WQE_SEND_INVAL] = HCA_PKT_SEND,
	[HCA_WQE_RDMA_WRITE] = HCA_PKT_WRITE,
	[HCA_WQE_RDMA_WRITE_IMM] = HCA_PKT_WRITE,
	[HCA_WQE_RDMA_READ] = HCA_PKT_READ_REQ,
	[HCA_WQE_ATOMIC_CS] = HCA_PKT_CS,
	[HCA_WQE_ATOMIC_FA] = HCA_PKT_FA,
};

/* Send packet k of w; 0, -EAGAIN, or a syndrome (> 0). */
static int send_one(struct hca_qp *qp, struct hca_swqe *w, uint32_t k)
{
	struct iovec iov[HCA_MAX_SGE];
	uint32_t off = k * HCA_SEG_MAX, len;
	struct hca_pkt p;
	uint8_t synd = 0;
	int n = 0, ret;

	fill_common(qp, &p);
	p.op = pkt_op[w->opcode];
	if (!p.op)
		return HCA_SYND_LOC_QP_OP;
	if (w->opcode == HCA_WQE_RDMA_READ) {
		/* one request for the responses not received yet */
		k = w->rd_next;
		off = k * HCA_SEG_MAX;
	}
	p.psn = (w->psn_first + k) & PSN_MASK;
	p.rkey = w->rkey;
	p.raddr = w->raddr + off;
	p.msg_len = w->len - (w->opcode == HCA_WQE_RDMA_READ ? off : 0);
	p.atom[0] = w->swap_add;
	p.atom[1] = w->compare;
	p.xrc_srqn = w->xrc_srqn;
	if (qp->type == IB_QPT_UD) {
		p.dst_dev = (uint16_t)hca_av_dst_dev(qp, w);
		p.dst_qpn = w->dqpn;
		/* a Q_Key with the high bit set means "use the QP's own" */
		p.qkey = (w->qkey & 0x80000000u) ? qp->qkey : w->qkey;
		p.sl = w->sl;
		if (w->grh) {
			p.flags |= HCA_PF_GRH;
			memcpy(p.dgid, w->dgid, 16);
			ud_source(qp, w, &p);
		}
	} else {
		p.dst_dev = (uint16_t)qp->dlid_dev;
		p.dst_qpn = qp->dest_qpn;
		p.udp_sport = qp->udp_sport;
		if (qp->dci)
			hca_dci_stamp(qp, &p);
	}
	if (k == 0)
		p.flags |= HCA_PF_FIRST;
	if (k + 1 == w->npkts)
		p.flags |= HCA_PF_LAST;
	if (w->opcode == HCA_WQE_SEND_IMM ||
	    w->opcode == HCA_WQE_RDMA_WRITE_IMM)
		p.flags |= HCA_PF_IMM;
	if (w->opcode == HCA_WQE_SEND_INVAL)
		p.flags |= HCA_PF_INV;
	if (w->solicited)
		p.flags |= HCA_PF_SE;
	p.imm = w->imm;
	if (p.op == HCA_PKT_SEND || p.op == HCA_PKT_WRITE) {
		len = w->len - off < HCA_SEG_MAX ? w->len - off : HCA_SEG_MAX;
		if (w->len == 0)
			len = 0;
		p.len = len;
		n = gather(qp, w, off, len, iov, &synd);
		if (n < 0)
			return synd;
	}
	hca_trace_udp_sport(qp->dev, qp->qpn, &p, &qp->traced_sport);
	if (qp->type == IB_QPT_UD && (p.flags & HCA_PF_GRH) &&
	    sim_gid_is_mcast(p.dgid))
		ret = ud_mcast(qp, &p, iov, n);
	else
		ret = hca_fabric_send_mark(&p, iov, n, &qp->mark);
	if (ret == -EAGAIN)
		return ret;
	if (k < w->sent_max || (w->opcode == HCA_WQE_RDMA_READ && w->sent_max))
		hca_stats.retransmits++;
	return 0; /* delivered, or lost at a QP that is not there */
}

static uint64_t rc_timeout_ns(const struct hca_qp *qp)
{
	if (!qp->timeout)
		return 0; /* infinite */
	return 4096ull << (qp->timeout < 31 ? qp->timeout : 31);
}

/* The RNR timer codes of IB (min_rnr_timer), in microseconds. */
static const uint32_t rnr_us[32] = {
	655360, 10,    20,    30,     40,     60,     80,     120,
	160,	240,   320,   480,    640,    960,    1280,   1920,
	2560,	3840,  5120,  7680,   10240,  15360,  20480,  30720,
	40960,	61440, 81920, 122880, 163840, 245760, 327680, 491520,
};

/* NOPs complete in SQ order: once every WQE before them has. */
static int retire_nops(struct hca_qp *qp)
{
	struct hca_swqe *w;
	int did = 0;

	while (qp->tail != qp->head) {
		w = &qp->ring[qp->tail & (qp->ring_size - 1)];
		if (w->npkts || w->failed)
			break;
		req_retire(qp, 0);
		did = 1;
	}
	return did;
}

static int transmit(struct hca_qp *qp)
{
	uint32_t i, k, outstanding_reads = 0;
	struct hca_swqe *w;
	int did = retire_nops(qp), ret;

	for (i = qp->tail; i != qp->head; i++) {
		w = &qp->ring[i & (qp->ring_size - 1)];
		if (w->failed) {
			if (i != qp->tail)
				break; /* completes in order */
			req_fail(qp, w->failed);
			return 1;
		}
		if (w->fence && outstanding_reads)
			break;
		/* a UMR runs once all before it completed; what follows
		 * waits for it (libmlx5 fences the next WQE) */
		if (w->opcode == HCA_WQE_UMR)
			break;
		/* never more READ/atomic requests in flight than the
		 * initiator depth (a responder holds no more) */
		if (is_read_like(w->opcode) &&
		    outstanding_reads >= 1u << qp->log_rd_atom)
			break;
		if (w->deadline && w->sent == 0 && i == qp->tail)
			break; /* RNR wait */
		if (qp->dci && !hca_dci_ready(qp, w, i == qp->tail))
			break;
		for (k = w->sent; k < w->npkts; k = w->sent) {
			ret = send_one(qp, w, k);
			if (ret == -EAGAIN)
				return did;
			if (ret > 0) {
				w->failed = (uint8_t)ret;
				return did;
			}
			did = 1;
			/* one READ request asks for all of the response */
			w->sent = w->opcode == HCA_WQE_RDMA_READ ? w->npkts
								 : k + 1;
			if (w->sent > w->sent_max)
				w->sent_max = w->sent;
			if (w->sent == w->npkts && qp->type == IB_QPT_RC &&
			    rc_timeout_ns(qp))
				w->deadline = hca_now() + rc_timeout_ns(qp);
		}
		if (is_read_like(w->opcode))
			outstanding_reads++;
	}
	/* UC and UD are done once on the wire */
	while (qp->type != IB_QPT_RC && qp->tail != qp->head &&
	       qp->ring[qp->tail & (qp->ring_size - 1)].sent ==
		       qp->ring[qp->tail & (qp->ring_size - 1)].npkts)
		req_retire(qp, 0);
	return did | retire_nops(qp);
}

int hca_sq_process(struct hca_qp *qp)
{
	uint32_t before = qp->head;

	if (!qp->ring || qp->state < IB_QPS_RTS)
		return 0;
	take_wqes(qp);
	if (qp->state == IB_QPS_ERR) {
		hca_req_flush(qp);
		return before != qp->head;
	}
	return transmit(qp) || before != qp->head;
}

/* Send everything again from psn on (go-back-N). */
/*
 * Go back to psn. lost: the wire lost what follows, so sending it again is
 * a retransmission; else (RNR) the receiver was not ready, and it is not.
 */
static void rewind_to(struct hca_qp *qp, uint32_t psn, bool lost)
{
	struct hca_swqe *w;
	uint32_t i;

	for (i = qp->tail; i != qp->head; i++) {
		w = &qp->ring[i & (qp->ring_size - 1)];
		if (!w->npkts)
			continue; /* a NOP has nothing to send again */
		if (!w->sent)
			break;
		if (psn_le(w->psn_first + w->npkts, psn))
			continue;
		w->sent = psn_le(psn, w->psn_first) ? 0 : psn - w->psn_first;
		if (w->opcode == HCA_WQE_RDMA_READ)
			w->sent = 0;
		if (!lost)
			w->sent_max = w->sent;
		w->deadline = 0;
	}
}

void hca_req_timers(struct hca_qp *qp, uint64_t now)
{
	struct hca_swqe *w;

	if (qp->type != IB_QPT_RC || qp->tail == qp->head ||
	    qp->state != IB_QPS_RTS)
		return;
	w = &qp->ring[qp->tail & (qp->ring_size - 1)];
	if (!w->deadline || now < w->deadline)
		return;
	if (w->sent == 0) { /* the RNR wait is over */
		w->deadline = 0;
		return;
	}
	/*
	 * Network time only: while the receiver has not run since our last
	 * packet reached its ring, or its answer waits in ours, nothing was
	 * lost. The timer starts again from here.
	 */
	if (!hca_fabric_reached(&qp->mark) || hca_fabric_backlog()) {
		w->deadline = now + rc_timeout_ns(qp);
		hca_stats.timer_waits++;
		return;
	}
	hca_stats.ack_timeouts++;
	hca_hw_count(qp->dev, SIM_HWC_ACK_TIMEOUT);
	if (sim_tracing())
		sim_trace("qp %#x ACK timeout psn %#x retry %u of %u", qp->qpn,
			  w->psn_first, qp->retries + 1, qp->retry_cnt);
	if (qp->retries++ >= qp->retry_cnt) {
		req_fail(qp, HCA_SYND_RETRY_EXC);
		return;
	}
	rewind_to(qp, w->psn_first, true);
}

/* READ response / atomic response data into the WQE's SGEs. */
static uint8_t scatter_resp(struct hca_qp *qp, struct hca_swqe *w,
			    const struct hca_pkt *p)
{
	struct iovec iov[HCA_MAX_SGE];
	uint32_t off = (p->psn - w->psn_first) & PSN_MASK;
	uint8_t synd = 0;
	int n, i;
	uint32_t skip, take, len = p->len;
	void *dst;

	off *= HCA_SEG_MAX;
	if (p->op == HCA_PKT_ATOMIC_RESP) {
		off = 0;
		len = 8;
	}
	for (n = 0, i = 0, skip = off; i < (int)w->nsge && len; i++) {
		if (skip >= w->sge[i].len) {
			skip -= w->sge[i].len;
			continue;
		}
		take = w->sge[i].len - skip < len ? w->sge[i].len - skip : len;
		dst = hca_mem(qp, w->sge[i].key, w->sge[i].addr + skip, take,
			      IB_ACCESS_LOCAL_WRITE, 0, &synd);
		if (!dst)
			return synd;
		iov[n].iov_base = dst;
		iov[n++].iov_len = take;
		len -= take;
		skip = 0;
	}
	if (len)
		return HCA_SYND_LOC_LEN;
	if (p->op == HCA_PKT_ATOMIC_RESP) {
		memcpy(iov[0].iov_base, &p->atom[0],
		       iov[0].iov_len < 8 ? iov[0].iov_len : 8);
		return 0;
	}
	hca_rx_payload(iov, n);
	return 0;
}

/*
 * A READ or atomic answer for the requester's CQE instead of the WQE's
 * SGEs (cs_req): a signalled WQE whose whole answer fits. 1 if it went
 * there; its completion follows at once (req_complete).
 */
static int resp_to_cqe(struct hca_qp *qp, const struct hca_swqe *w,
		       const struct hca_pkt *p)
{
	uint32_t len = p->op == HCA_PKT_ATOMIC_RESP ? 8 : w->len;
	struct iovec iov = {qp->scat, len};

	if (!w->signaled || w->npkts != 1 || !len ||
	    len > hca_scat_max(qp->cs_req, qp->scq))
		return 0;
	if (p->op == HCA_PKT_ATOMIC_RESP)
		memcpy(qp->scat, &p->atom[0], 8);
	else
		hca_rx_payload(&iov, 1);
	qp->scat_len = (uint8_t)len;
	return 1;
}

/* All WQEs whose packets are at or before psn are acknowledged. */
static void ack_upto(struct hca_qp *qp, uint32_t psn)
{
	struct hca_swqe *w;

	while (qp->tail != qp->head) {
		w = &qp->ring[qp->tail & (qp->ring_size - 1)];
		if (!w->npkts && !w->failed) {
			req_retire(qp, 0); /* a NOP behind what was acked */
			continue;
		}
		if (!w->sent || is_read_like(w->opcode) ||
		    !psn_le((w->psn_first + w->npkts - 1) & PSN_MASK, psn))
			break;
		req_retire(qp, 0);
	}
}

static struct hca_swqe *wqe_of_psn(struct hca_qp *qp, uint32_t psn)
{
	struct hca_swqe *w;
	uint32_t i;

	for (i = qp->tail; i != qp->head; i++) {
		w = &qp->ring[i & (qp->ring_size - 1)];
		if (psn_le(w->psn_first, psn) &&
		    !psn_le(w->psn_first + w->npkts, psn))
			return w;
	}
	return NULL;
}

static const uint8_t nak_synd[] = {
	[HCA_NAK_INV_REQ] = HCA_SYND_REM_INV_REQ,
	[HCA_NAK_ACCESS] = HCA_SYND_REM_ACCESS,
	[HCA_NAK_OP] = HCA_SYND_REM_OP,
};

void hca_req_input(struct hca_qp *qp, const struct hca_pkt *p)
{
	struct hca_swqe *w;
	uint8_t synd;

	if (qp->type != IB_QPT_RC || qp->state != IB_QPS_RTS)
		return;
	if (p->op == HCA_PKT_ACK) {
		ack_upto(qp, p->psn);
		return;
	}
	w = wqe_of_psn(qp, p->psn);
	if (!w)
		return; /* duplicate or stale */
	if (p->op == HCA_PKT_NAK) {
		ack_upto(qp, (p->psn - 1) & PSN_MASK);
		if (w != &qp->ring[qp->tail & (qp->ring_size - 1)])
			return;
		if (p->nak == HCA_NAK_RNR) {
			if (qp->rnr_retry != 7 &&
			    qp->rnr_retries++ >= qp->rnr_retry) {
				req_fail(qp, HCA_SYND_RNR_RETRY_EXC);
				return;
			}
			rewind_to(qp, p->psn, false);
			hca_stats.rnr_naks++;
			hca_hw_count(qp->dev, SIM_HWC_RNR_NAK_RCVD);
			w->deadline =
				hca_now() + rnr_us[p->rnr_timer & 31] * 1000ull;
			return;
		}
		if (p->nak == HCA_NAK_SEQ) {
			hca_hw_count(qp->dev, SIM_HWC_SEQ_NAK_RCVD);
			if (w->deadline && !w->sent)
				return; /* waiting out an RNR NAK already */
			/* a transport retry, as a timeout is */
			if (qp->retries++ >= qp->retry_cnt) {
				req_fail(qp, HCA_SYND_RETRY_EXC);
				return;
			}
			rewind_to(qp, p->psn, true);
			return;
		}
		req_fail(qp, nak_synd[p->nak < sizeof(nak_synd) ? p->nak : 0]
				     ?: HCA_SYND_REM_OP);
		return;
	}
	/* READ or atomic response: earlier WQEs are implicitly acked */
	ack_upto(qp, (w->psn_first - 1) & PSN_MASK);
	if (w != &qp->ring[qp->tail & (qp->ring_size - 1)] || !w->sent)
		return;
	if (((p->psn - w->psn_first) & PSN_MASK) != w->rd_next) {
		/* a response is missing: ask again from it, once per gap
		 * (an earlier one is a duplicate, dropped) */
		if (psn_le(w->psn_first + w->rd_next, p->psn) && !w->rd_gap) {
			w->rd_gap = 1;
			w->sent = 0;
			w->deadline = 0;
		}
		return;
	}
	synd = resp_to_cqe(qp, w, p) ? 0 : scatter_resp(qp, w, p);
	if (synd) {
		req_fail(qp, synd);
		return;
	}
	w->rd_next++;
	w->rd_gap = 0;
	qp->retries = 0;
	if (rc_timeout_ns(qp))
		w->deadline = hca_now() + rc_timeout_ns(qp);
	if (w->rd_next >= w->npkts)
		req_retire(qp, 0);
}
