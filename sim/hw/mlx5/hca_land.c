// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Landings: a SEND placed by the sender's pass, without the receiver's
 * engine. A packet in a peer's ring waits for that process's engine
 * thread to be woken and scheduled (2-5 us, more while spinning programs
 * hold the CPUs); a program spinning on its CQ needs only the bytes and
 * the CQE in its memory. So at the end of each pass the responder offers,
 * for each RC QP that could take a single-packet SEND now, where it would
 * put one (and for each UD QP, where a datagram would: hca_land_ud.c):
 * the addresses of its next receive WQE's buffers (translated and
 * checked by hca_mem, as for any SEND), the CQE slot and owner bit,
 * the PSN it expects and the ACK it would send. The offer lives in the
 * header page of the process's ring (hca_fabric.c), which every sender
 * maps. A sender whose packet fits claims the offer, writes payload and
 * CQE (the CQE bytes by the one CQE writer, hca_cqe.c; its owner byte
 * last) with one write into the peer (hca_peer.c), leaves the packet in the offer and
 * puts the receiver's ACK in its own ring: its WQE completes in the same
 * pass.
 *
 * The receiver's engine settles its offers before anything else it does
 * (each pass, each command): an offer nobody took is withdrawn, a taken
 * one is handed to the responder like any packet (hca_rx_landed), which
 * does everything but writing the bytes and the CQE again (and sends no
 * ACK: the sender has it). An offer being taken is waited for; one whose
 * taker died is delivered if its CQE became visible, else lost, like a
 * packet on a link that went down. A receiver that died makes the write
 * fail: the sender falls back to its ring, which reports it gone.
 */
#include "hca.h"
#include "hca_cmd.h"
#include "pid_gone.h"

#include <endian.h>
#include <sched.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

enum { LAND_FREE, LAND_OPEN, LAND_TAKING, LAND_TAKEN };

#define TAKER_WAIT_NS 1000000 /* then ask whether the taker lives */

static int rc_offerable(const struct hca_qp *qp)
{
	return qp->type == IB_QPT_RC && !qp->xrc && !qp->dct && !qp->dci &&
	       !qp->dct_parent && !qp->in_msg && !qp->nak_pending &&
	       qp->rr_head == qp->rr_tail &&
	       (qp->state == IB_QPS_RTR || qp->state == IB_QPS_RTS);
}

static int offerable(const struct hca_qp *qp)
{
	const struct hca_cq *cq = qp->rcq;
	uint32_t ci;

	if (!cq || !(qp->type == IB_QPT_UD ? hca_land_ud_offerable(qp)
					   : rc_offerable(qp)))
		return 0;
	/* an armed CQ's event, and a CQE that would overrun, are the
	 * engine's to raise */
	if (__atomic_load_n(&cq->dbrec[1], __ATOMIC_ACQUIRE) !=
	    htobe32(HCA_CQ_ARM_IDLE))
		return 0;
	ci = be32toh(__atomic_load_n(&cq->dbrec[0], __ATOMIC_ACQUIRE));
	return ((cq->pi - ci) & 0xffffff) + 1 < cq->ncqe;
}

/* The SGEs of the receive WQE the next SEND for qp takes, left in place
 * (an SRQ's: hca_land_srq.c); -1 if none is offered. */
static int peek(struct hca_qp *qp, struct hca_sge *sge, uint32_t *n,
		uint32_t *wc)
{
	if (qp->srq)
		return hca_land_srq_peek(qp, sge, n, wc);
	if (hca_recv_wqe(qp, sge, n, wc))
		return -1;
	qp->rq_consumed--; /* only looked at: the SEND takes it */
	return 0;
}

/* Where the next SEND for qp would land, into l; 0 if it cannot. */
static int offer(struct hca_qp *qp, struct hca_landing *l)
{
	struct hca_sge sge[HCA_MAX_SGE];
	struct hca_cq *cq = qp->rcq;
	uint32_t n, i, wc;
	uint8_t synd;
	void *p;

	if (!offerable(qp) || peek(qp, sge, &n, &wc))
		return 0;
	if (n > HCA_LAND_SEGS)
		return 0;
	l->cap = 0;
	for (i = 0; i < n; i++) {
		p = hca_mem(qp, sge[i].key, sge[i].addr, sge[i].len,
			    IB_ACCESS_LOCAL_WRITE, 0, &synd);
		if (!p && sge[i].len)
			return 0;
		l->seg[i].addr = (uintptr_t)p;
		l->seg[i].len = sge[i].len;
		l->cap += sge[i].len;
	}
	l->nseg = n;
	l->dev = (uint16_t)qp->dev;
	l->qpn = qp->qpn;
	l->wqe_counter = wc;
	l->uidx = qp->uidx;
	l->cqe = (uintptr_t)(cq->buf +
			     (size_t)(cq->pi & (cq->ncqe - 1)) * cq->cqe_size +
			     (cq->cqe_size == 128 ? 64 : 0));
	l->owner = (cq->pi & cq->ncqe) ? 1 : 0;
	l->cqe_size = cq->cqe_size;
	l->ud = qp->type == IB_QPT_UD;
	if (l->ud)
		return hca_land_ud_offer(qp, l);
	l->src_qpn = qp->dest_qpn;
	l->psn = qp->epsn;
	l->scat = hca_scat_max(qp->cs_res, cq);
	hca_resp_ack(qp, qp->epsn, &l->ack);
	return 1;
}

/* Offer n names the CQE slot of an earlier one (QPs sharing a CQ): two
 * SENDs would land in one slot. */
static int cq_offered(const struct hca_landing *l, unsigned int n)
{
	unsigned int j;

	for (j = 0; j < n; j++)
		if (l[j].cqe == l[n].cqe)
			return 1;
	return 0;
}

void hca_land_offer(void)
{
	struct hca_landing *l = hca_fabric_landings(0);
	unsigned int i = 0;
	struct hca_qp *qp;

	/* not with --fault's wire rules (they act on the ring), nor where
	 * memory a kernel writes is not seen as written (valgrind) */
	if (!l || hca_soft || sim.sh->cfg.nfaults || hca_doorbell_watching())
		return;
	hca_land_write_offer();
	for (qp = hca_qps; qp && i < HCA_LANDINGS; qp = qp->next) {
		if (__atomic_load_n(&l[i].state, __ATOMIC_ACQUIRE) !=
			    LAND_FREE ||
		    !offer(qp, &l[i]) || cq_offered(l, i))
			continue;
		__atomic_store_n(&l[i].state, LAND_OPEN, __ATOMIC_RELEASE);
		i++;
	}
}

/* The taker of l died before it said it was done: did its CQE land? */
static int cqe_landed(const struct hca_landing *l)
{
	uint8_t op = __atomic_load_n((const uint8_t *)(uintptr_t)l->cqe + 63,
				     __ATOMIC_ACQUIRE);

	return (op & 1) == l->owner && op >> 4 != HCA_CQE_INVALID;
}

static void settle_one(struct hca_landing *l)
{
	uint64_t t0 = 0;
	uint32_t st;

	for (;;) {
		st = LAND_OPEN;
		if (__atomic_compare_exchange_n(&l->state, &st, LAND_FREE, 0,
						__ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE) ||
		    st == LAND_FREE)
			return; /* withdrawn, or never offered */
		if (st == LAND_TAKEN)
			break;
		/* being taken: the taker writes for a few us, unless it
		 * lost its CPU; it may also give it back (open again) */
		if (!t0)
			t0 = hca_now();
		else
			sched_yield();
		if (hca_now() - t0 > TAKER_WAIT_NS &&
		    sim_pid_gone((pid_t)l->taker)) {
			if (!cqe_landed(l))
				st = LAND_FREE; /* lost on the way */
			break;
		}
	}
	if (st == LAND_TAKING || st == LAND_TAKEN) {
		hca_stats.landed++;
		hca_rx_landed(&l->pkt);
	}
	__atomic_store_n(&l->state, LAND_FREE, __ATOMIC_RELEASE);
}

void hca_land_settle(void)
{
	struct hca_landing *l = hca_fabric_landings(0);
	unsigned int i;

	for (i = 0; l && i < HCA_LANDINGS; i++)
		settle_one(&l[i]);
	hca_land_write_settle();
}

static int fits(const struct hca_landing *l, const struct hca_pkt *p,
		int32_t pid)
{
	if (l->ud)
		return hca_land_ud_fits(l, p, pid);
	return p->op == HCA_PKT_SEND && l->dev == p->dst_dev &&
	       l->qpn == p->dst_qpn && l->src_qpn == p->src_qpn &&
	       l->ack.dst_dev == p->src_dev && l->psn == p->psn &&
	       (p->len <= l->cap || p->len <= l->scat) && !p->xrc_srqn &&
	       (p->flags & ~(uint32_t)(HCA_PF_IMM | HCA_PF_SE)) ==
		       (HCA_PF_FIRST | HCA_PF_LAST);
}

/* The len bytes of a SEND whose CQE takes them (scatter to CQE), to d. */
static void gather(uint8_t *d, const struct iovec *iov, int iovcnt,
		   uint32_t len)
{
	size_t n;
	int i;

	for (i = 0; i < iovcnt && len; d += n, len -= (uint32_t)n, i++) {
		n = iov[i].iov_len < len ? iov[i].iov_len : len;
		memcpy(d, iov[i].iov_base, n);
	}
}

/* Remote iovecs over [off, off + len) of the offer's buffers, into rem. */
static int span(const struct hca_landing *l, uint32_t off, uint32_t len,
		struct iovec *rem)
{
	uint32_t i, n;
	int nr = 0;

	for (i = 0; i < l->nseg && len; i++) {
		if (off >= l->seg[i].len) {
			off -= (uint32_t)l->seg[i].len;
			continue;
		}
		n = (uint32_t)l->seg[i].len - off < len
			    ? (uint32_t)l->seg[i].len - off
			    : len;
		rem[nr].iov_base = (void *)(uintptr_t)(l->seg[i].addr + off);
		rem[nr++].iov_len = n;
		len -= n;
		off = 0;
	}
	return nr;
}

/*
 * Payload into the offer's buffers, then the CQE, its owner byte last.
 * The kernel reads the local iovecs in array order, each with its own
 * copy: the owner byte is a local iovec of its own, after the rest of
 * the CQE, so one remote iovec takes all 64 bytes (each remote iovec
 * costs a page pin, ~0.4 us here). A payload the CQE takes (scatter to
 * CQE) is in the CQE's bytes: 128 of them when it goes before the CQE.
 */
static int place(int32_t pid, const struct hca_landing *l,
		 const struct hca_pkt *p, const struct iovec *iov, int iovcnt)
{
	struct iovec loc[HCA_MAX_SGE + 3], rem[HCA_LAND_SEGS + 1];
	struct hca_qp stub = {.dev = l->dev, .qpn = l->qpn, .uidx = l->uidx};
	uint32_t off = 0, bytes = 0, head = 0;
	struct hca_cqe_info ci;
	uint8_t cqe[128], data[64], grh[40];
	int nl = 0, nr, scat = p->len && p->len <= l->scat;

	if (iovcnt > HCA_MAX_SGE)
		return 0;
	if (l->ud) { /* the GRH area, then the payload (hca_land_ud.c) */
		nl = hca_land_ud_loc(&stub, p, iov, iovcnt, grh, loc, &off);
		bytes = p->len + 40 - off;
	} else if (!scat) {
		for (nl = 0; nl < iovcnt; nl++)
			loc[nl] = iov[nl];
		bytes = p->len;
	}
	nr = span(l, off, bytes, rem);
	/* the responder's CQE for this packet, as it would write it */
	hca_recv_cqe_info(&stub, l->wqe_counter, p,
			  l->ud ? p->len + 40 : p->len, 0, &ci);
	if (scat) {
		gather(data, iov, iovcnt, p->len);
		hca_scat_info(&ci, l->cqe_size, data, p->len);
		head = ci.scat == HCA_INLINE_SCATTER_64 ? 64 : 0;
	}
	hca_cqe_render(cqe + 64, &ci, l->owner);
	loc[nl++] = (struct iovec){cqe + 64 - head, 63 + head};
	loc[nl++] = (struct iovec){cqe + 127, 1};
	rem[nr++] = (struct iovec){(void *)(uintptr_t)(l->cqe - head),
				   64 + head};
	return hca_peer_write(pid, loc, nl, rem, nr, (size_t)bytes + 64 + head);
}

/* A landing's ACK leaves the responder's port as on the wire: the sender
 * queues it for itself, so the responder's transmit counter is its. */
void hca_land_ack_sent(unsigned int dev)
{
	hca_hw_count(dev, SIM_HWC_XMIT_PKTS);
}

int hca_land(int32_t pid, int32_t self, const struct hca_pkt *p,
	     const struct iovec *iov, int iovcnt)
{
	struct hca_landing *l =
		p->op == HCA_PKT_SEND && pid && pid != self && !hca_peer_denied()
			? hca_fabric_landings(pid)
			: NULL;
	struct hca_pkt ack;
	unsigned int i;
	uint32_t st;
	int ud;

	if (p->op == HCA_PKT_WRITE)
		return hca_land_write(pid, self, p, iov, iovcnt);
	for (i = 0; l && i < HCA_LANDINGS; i++, l++) {
		st = LAND_OPEN;
		/* taken first, then read: the receiver may offer it anew */
		if (!__atomic_compare_exchange_n(&l->state, &st, LAND_TAKING, 0,
						 __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			continue;
		if (!fits(l, p, pid)) {
			__atomic_store_n(&l->state, LAND_OPEN,
					 __ATOMIC_RELEASE);
			continue;
		}
		l->taker = self;
		l->pkt = *p;
		ack = l->ack;
		ud = l->ud; /* l is the receiver's again once taken */
		if (!place(pid, l, p, iov, iovcnt)) {
			/* its owner byte is not there: the ring carries it */
			__atomic_store_n(&l->state, LAND_FREE,
					 __ATOMIC_RELEASE);
			return 0;
		}
		__atomic_store_n(&l->state, LAND_TAKEN, __ATOMIC_RELEASE);
		/* a datagram has no ACK */
		if (!ud && !hca_fabric_send_pid(self, &ack))
			hca_land_ack_sent(ack.src_dev);
		return 1;
	}
	return 0;
}
