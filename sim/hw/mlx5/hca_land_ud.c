// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Landings into a UD QP (hca_land.c). A datagram has no connection and
 * no PSN: the offer is keyed by the QP it is for, and a SEND from any
 * QP may take it, as the responder takes one from anywhere (ud_input,
 * hca_resp.c). The sender checks what the responder would: the Q_Key
 * (the packet carries the one the sender's WQE resolved, the QP's own
 * when the WQE's has its high bit set, as the responder compares it), a
 * single-packet SEND (a UD message is one), no larger than 4096 bytes
 * and within the receive WQE's buffers after their 40-byte GRH area.
 * P_Keys are not modelled (the ring path checks none either). Whatever
 * else goes by the ring: a multicast datagram (it is one packet for
 * several QPs), a QP on an SRQ, a RoCE port (its GRH area may hold an
 * IPv4 header), a QP not in RTR or RTS; and a datagram the responder
 * would drop or fail (wrong Q_Key, too long) is never placed, so it
 * meets the responder's rules there.
 *
 * Order: a datagram has no PSN to keep a later one from landing before
 * an earlier one still in the ring (the responder settles offers before
 * it reads the ring), which no wire between two ports does. So a UD
 * offer is made only while the ring is empty, with the ring's end, and
 * taken only while the end is the same: once anything went by the ring
 * (a datagram that did not fit, any packet for this process) every UD
 * offer waits for the next pass.
 *
 * Placed: the GRH (as hca_resp.c builds it) over the first 40 bytes,
 * or nothing there without one, the payload after them, then the CQE,
 * by the one CQE writer, with byte_cnt payload + 40 as the responder's.
 * No scatter to CQE (UD has none), no ACK. The receiver settles the
 * offer like any (hca_rx_landed): its responder takes the same WQE,
 * counts the packet at the port and writes neither bytes nor CQE.
 */
#include "hca.h"

#include <sys/uio.h>

#define UD_GRH	  40
#define UD_MAX_MSG 4096

int hca_land_ud_offerable(const struct hca_qp *qp)
{
	return qp->type == IB_QPT_UD && !qp->srq && qp->rq_wqe_cnt &&
	       (qp->state == IB_QPS_RTR || qp->state == IB_QPS_RTS) &&
	       !sim_port_is_eth(sim.sh, qp->dev);
}

int hca_land_ud_offer(const struct hca_qp *qp, struct hca_landing *l)
{
	/* the ring's end first: tail moves only in our pass, head only on */
	l->ring_end = hca_fabric_ring_end(0);
	if (hca_fabric_backlog())
		return 0;
	l->qkey = qp->qkey;
	l->scat = 0;
	l->src_qpn = 0;
	l->psn = 0;
	return 1;
}

int hca_land_ud_fits(const struct hca_landing *l, const struct hca_pkt *p,
		     int32_t pid)
{
	uint32_t extra = HCA_PF_IMM | HCA_PF_SE | HCA_PF_GRH;
	int grh = !!(p->flags & HCA_PF_GRH);

	/* nothing went by the ring since: it would come after this one */
	if (hca_fabric_ring_end(pid) != l->ring_end)
		return 0;
	return p->op == HCA_PKT_SEND && l->dev == p->dst_dev &&
	       l->qpn == p->dst_qpn && p->qkey == l->qkey &&
	       p->len <= UD_MAX_MSG && p->len + UD_GRH <= l->cap &&
	       !p->xrc_srqn && (!grh || !sim_gid_is_mcast(p->dgid)) &&
	       (p->flags & ~extra) == (HCA_PF_FIRST | HCA_PF_LAST);
}

int hca_land_ud_loc(const struct hca_qp *stub, const struct hca_pkt *p,
		    const struct iovec *iov, int iovcnt, uint8_t grh[40],
		    struct iovec *loc, uint32_t *off)
{
	int nl = 0, i;

	*off = UD_GRH;
	if (p->flags & HCA_PF_GRH) {
		hca_ud_grh(stub, p, grh);
		loc[nl++] = (struct iovec){grh, UD_GRH};
		*off = 0;
	}
	for (i = 0; i < iovcnt; i++)
		loc[nl++] = iov[i];
	return nl;
}
