// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Write landings: an RDMA WRITE placed by the sender's pass, as landings
 * (hca_land.c) place a SEND. Through the ring a WRITE is copied twice
 * (into the ring, out of it into the MR) and waits for the receiver's
 * engine thread to be woken; a WRITE needs nothing of the receiver's
 * program, only its bytes in place and the responder's ACK.
 *
 * At the end of each pass the responder offers, per RC QP in RTR or RTS
 * with nothing of its own in flight (no queued READ or atomic answer, no
 * pending ACK or NAK, no SEND half received), the PSN it expects next and
 * the memory keys recent WRITEs through the ring named (learned in
 * hca_rx.c), each checked as hca_mem checks a WRITE's rkey (PD,
 * REMOTE_WRITE, the MR's range) and translated. On-demand, dma-buf and
 * device-less keys, windows and the null key are not offered. The offer
 * lives in the header page of the process's ring (hca_fabric.c).
 *
 * A sender whose WRITE packet (no immediate) carries that PSN and names
 * an offered key over a range inside the MR (the first packet: the whole
 * message's range, as the responder checks) claims the offer, writes the
 * bytes into the peer (hca_peer.c), and gives the offer back open one PSN
 * further, counting what landed: a stream of WRITEs lands back to back
 * without the receiver running. The last packet of a WRITE brings back
 * the responder's ACK for it (a responder may coalesce the ACKs of a
 * message into its last): it arrives at once, taken by the requester
 * after the pass has sent what it takes of that QP's WQEs
 * (hca_land_write_acks), as the ring would hand it over, counted as it
 * would count it. Only while the sender's own ring is empty: what came
 * before it, a READ response, a NAK, is taken first, so the ACK goes by
 * the ring then, and so do all after it in that pass. Anything else, and
 * everything after a packet that does not fit, goes by the ring: a WRITE
 * lands only at the PSN the responder expects, so SENDs, READs and
 * atomics keep their order with it.
 *
 * The receiver's engine settles before anything else it does (each pass,
 * each command, with the SEND landings): it withdraws the offer and
 * advances its responder as the packets would have (expected PSN, a
 * message still open, the port's counters). An offer being taken is
 * waited for; a taker that died took its packet with it (lost, as on a
 * link that went down). A receiver that died makes the write fail: the
 * packet goes to its ring, which reports it gone.
 */
#include "hca.h"
#include "pid_gone.h"

#include <sched.h>
#include <sys/uio.h>

enum { WL_FREE, WL_OPEN, WL_TAKING };

#define PSN_MASK      0xffffff
#define TAKER_WAIT_NS 1000000 /* then ask whether the taker lives */
#define ACKS	      512     /* ACKs arrived at once, not taken yet */

/* The ACKs of WRITEs this pass placed, in the order they came: the
 * responder (dev, qpn), its requester (dlid_dev, dest_qpn), the PSN. */
static struct {
	uint16_t dev, dlid_dev;
	uint32_t qpn, dest_qpn, psn;
} acks[ACKS];
static unsigned int nacks;

void hca_land_write_learn(struct hca_qp *qp, uint32_t rkey)
{
	unsigned int i;

	for (i = 0; i < HCA_WLAND_KEYS; i++)
		if (qp->wl_key[i] == rkey)
			return;
	qp->wl_key[qp->wl_next++ % HCA_WLAND_KEYS] = rkey;
}

static int offerable(const struct hca_qp *qp)
{
	return qp->type == IB_QPT_RC && !qp->xrc && !qp->dct && !qp->dci &&
	       !qp->dct_parent &&
	       (qp->state == IB_QPS_RTR || qp->state == IB_QPS_RTS) &&
	       (qp->access & IB_ACCESS_REMOTE_WRITE) &&
	       (!qp->in_msg || qp->msg_op == HCA_PKT_WRITE) &&
	       !qp->nak_pending && !qp->ack_pending &&
	       qp->rr_head == qp->rr_tail;
}

/* The keys of qp a WRITE may name, checked and translated, into l. */
static unsigned int offer_keys(const struct hca_qp *qp, struct hca_wlanding *l)
{
	const struct hca_mkey *mk;
	unsigned int i, n = 0;
	uint8_t synd;
	void *p;

	for (i = 0; i < HCA_WLAND_KEYS; i++) {
		mk = hca_mkey_find(qp->dev, qp->wl_key[i]);
		/* only what hca_mem translates without asking anyone */
		if (!mk || mk->mw || mk->odp || mk->fault ||
		    qp->wl_key[i] == HCA_NULL_MKEY)
			continue;
		p = hca_mem(qp, qp->wl_key[i], mk->start, mk->length,
			    IB_ACCESS_REMOTE_WRITE, 1, &synd);
		if (!p)
			continue;
		l->key[n].key = qp->wl_key[i];
		l->key[n].start = mk->start;
		l->key[n].len = mk->length;
		l->key[n].addr = (uintptr_t)p;
		n++;
	}
	return n;
}

static int offer(const struct hca_qp *qp, struct hca_wlanding *l)
{
	if (!offerable(qp))
		return 0;
	l->nkey = (uint8_t)offer_keys(qp, l);
	if (!l->nkey)
		return 0;
	l->dev = (uint16_t)qp->dev;
	l->ack_dev = (uint16_t)qp->dlid_dev;
	l->qpn = qp->qpn;
	l->src_qpn = qp->dest_qpn;
	l->psn = qp->epsn;
	l->in_msg = qp->in_msg;
	l->pkts = l->msgs = 0;
	l->bytes = 0;
	return 1;
}

void hca_land_write_offer(void)
{
	struct hca_wlanding *l = hca_fabric_wlandings(0);
	unsigned int i = 0;
	struct hca_qp *qp;

	for (qp = hca_qps; l && qp && i < HCA_WLANDINGS; qp = qp->next) {
		if (__atomic_load_n(&l[i].state, __ATOMIC_ACQUIRE) != WL_FREE ||
		    !offer(qp, &l[i]))
			continue;
		__atomic_store_n(&l[i].state, WL_OPEN, __ATOMIC_RELEASE);
		i++;
	}
}

/* The responder takes what landed as if the packets had arrived. */
static void settled(const struct hca_wlanding *l)
{
	struct hca_qp *qp = hca_qp_by_qpn(l->dev, l->qpn);

	if (!qp || !l->pkts)
		return;
	qp->epsn = l->psn;
	qp->seq_nak_sent = 0;
	qp->in_msg = l->in_msg;
	qp->msg_op = HCA_PKT_WRITE;
	qp->rx_pkts += l->pkts;
	hca_hw_add(l->dev, SIM_HWC_RCV_PKTS, l->pkts);
	hca_hw_add(l->dev, SIM_HWC_RCV_BYTES, l->bytes);
	hca_hw_add(l->dev, SIM_HWC_RX_WRITE, l->msgs);
	hca_stats.landed_writes += l->pkts;
}

void hca_land_write_settle(void)
{
	struct hca_wlanding *l = hca_fabric_wlandings(0);
	unsigned int i;
	uint64_t t0;
	uint32_t st;

	for (i = 0; l && i < HCA_WLANDINGS; i++, l++) {
		t0 = 0;
		st = WL_OPEN;
		/* a packet being written is waited for: a few us, unless its
		 * taker lost its CPU or died (the packet then is lost) */
		while (!__atomic_compare_exchange_n(&l->state, &st, WL_FREE, 0,
						    __ATOMIC_ACQ_REL,
						    __ATOMIC_ACQUIRE) &&
		       st == WL_TAKING) {
			if (!t0)
				t0 = hca_now();
			else
				sched_yield();
			if (hca_now() - t0 > TAKER_WAIT_NS &&
			    sim_pid_gone((pid_t)l->taker))
				break;
			st = WL_OPEN;
		}
		if (st == WL_FREE)
			continue; /* never offered */
		__atomic_store_n(&l->state, WL_FREE, __ATOMIC_RELEASE);
		settled(l);
	}
}

/* [va, va+len) inside one of the offered keys: where it is, else 0. */
static uint64_t translate(const struct hca_wlanding *l, uint32_t key,
			  uint64_t va, uint64_t len)
{
	unsigned int i;

	for (i = 0; i < l->nkey && i < HCA_WLAND_KEYS; i++)
		if (l->key[i].key == key && va >= l->key[i].start &&
		    len <= l->key[i].len &&
		    va - l->key[i].start <= l->key[i].len - len)
			return l->key[i].addr + (va - l->key[i].start);
	return 0;
}

/* Where p's bytes go if it may land on l: 1 and *dst (0: no bytes). */
static int fits(const struct hca_wlanding *l, const struct hca_pkt *p,
		uint64_t *dst)
{
	int first = !!(p->flags & HCA_PF_FIRST);

	if (l->dev != p->dst_dev || l->qpn != p->dst_qpn ||
	    l->src_qpn != p->src_qpn || l->ack_dev != p->src_dev ||
	    l->psn != p->psn || l->in_msg == first)
		return 0;
	/* the first packet: the whole message, as the responder checks */
	if (first && p->msg_len &&
	    !translate(l, p->rkey, p->raddr, p->msg_len))
		return 0;
	*dst = p->len ? translate(l, p->rkey, p->raddr, p->len) : 0;
	return !p->len || *dst;
}

/*
 * The packet's bytes into the peer, for its last the responder's ACK
 * into our ring, then the offer one PSN on. 0: the ring carries it (the
 * peer is gone, its memory is not there, or our ring has no room).
 */
static int place(int32_t pid, int32_t self, struct hca_wlanding *l,
		 const struct hca_pkt *p, const struct iovec *iov, int iovcnt,
		 uint64_t dst)
{
	struct iovec rem = {(void *)(uintptr_t)dst, p->len};
	struct hca_qp stub = {.dev = p->dst_dev, .qpn = p->dst_qpn,
			      .dlid_dev = p->src_dev, .dest_qpn = p->src_qpn};
	struct hca_pkt ack;

	if (p->len && !hca_peer_write(pid, iov, iovcnt, &rem, 1, p->len))
		return 0;
	if (p->flags & HCA_PF_LAST) {
		/* at once, unless the ring holds what came before it */
		if (nacks < ACKS && !hca_fabric_backlog()) {
			acks[nacks].dev = p->dst_dev;
			acks[nacks].dlid_dev = p->src_dev;
			acks[nacks].qpn = p->dst_qpn;
			acks[nacks].dest_qpn = p->src_qpn;
			acks[nacks++].psn = p->psn;
		} else {
			hca_resp_ack(&stub, p->psn, &ack);
			if (hca_fabric_send_pid(self, &ack))
				return 0;
		}
		hca_land_ack_sent(p->dst_dev);
	}
	hca_stats.placed_writes++;
	l->psn = (p->psn + 1) & PSN_MASK;
	l->pkts++;
	l->msgs += !!(p->flags & HCA_PF_FIRST);
	l->bytes += p->len;
	l->in_msg = !(p->flags & HCA_PF_LAST);
	return 1;
}

int hca_land_write(int32_t pid, int32_t self, const struct hca_pkt *p,
		   const struct iovec *iov, int iovcnt)
{
	struct hca_wlanding *l;
	uint64_t dst = 0;
	unsigned int i;
	uint32_t st;
	int ok;

	if (!pid || pid == self || (p->flags & HCA_PF_IMM) || p->xrc_srqn ||
	    hca_soft || hca_peer_denied())
		return 0;
	l = hca_fabric_wlandings(pid);
	for (i = 0; l && i < HCA_WLANDINGS; i++, l++) {
		if (__atomic_load_n(&l->qpn, __ATOMIC_RELAXED) != p->dst_qpn)
			continue;
		st = WL_OPEN;
		/* taken first, then read: the receiver may offer it anew */
		if (!__atomic_compare_exchange_n(&l->state, &st, WL_TAKING, 0,
						 __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			continue;
		l->taker = self;
		ok = fits(l, p, &dst) &&
		     place(pid, self, l, p, iov, iovcnt, dst);
		__atomic_store_n(&l->state, WL_OPEN, __ATOMIC_RELEASE);
		return ok;
	}
	return 0;
}

/*
 * The ACKs that arrived at once, to the requester as hca_fabric_poll
 * hands a packet over: in order, counted in, through hca_rx. After the
 * QP's send pass, never inside it (an ACK retires WQEs transmit walks);
 * one a destroyed QP left is lost, as in the ring.
 */
void hca_land_write_acks(void)
{
	static const uint8_t none[1];
	struct hca_qp stub = {0};
	struct hca_pkt ack;
	unsigned int i;

	for (i = 0; i < nacks; i++) {
		stub.dev = acks[i].dev;
		stub.qpn = acks[i].qpn;
		stub.dlid_dev = acks[i].dlid_dev;
		stub.dest_qpn = acks[i].dest_qpn;
		hca_resp_ack(&stub, acks[i].psn, &ack);
		hca_stats.pkts_in++;
		hca_stats.acks_at_once++;
		hca_rx(&ack, none);
	}
	nacks = 0;
}
