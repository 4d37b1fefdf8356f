// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Landings into a QP that receives through an SRQ (hca_land.c). An mlx5
 * SRQ is a linked list: the HCA takes the WQE at its head, follows the
 * WQE's next index, and names the WQE it took in the CQE's wqe_counter;
 * the driver gives that index back at the tail. An offer only looks at
 * the head WQE, as the RQ's offer does: nothing of the SRQ changes until
 * the receiver settles the offer. A taken one goes to the responder like
 * any SEND, which takes that same head WQE (nothing else took one since
 * the offer: the engine settles before anything it does); a withdrawn
 * one leaves the WQE at the head, the next SEND's. So an SRQ holds at
 * most one offer, for the QP that last took a WQE from it (the first QP
 * offered, before any did): two offers would name the same WQE.
 *
 * The limit event: the WQE that takes the SRQ below its armed limit is
 * never offered, it goes by the ring; its responder raises the event as
 * before it, at the same count. Tag-matching and XRC SRQs (with a CQ of
 * their own) are not offered.
 */
#include "hca.h"

#include <endian.h>

int hca_land_srq_peek(struct hca_qp *qp, struct hca_sge *sge, uint32_t *nsge,
		      uint32_t *wqe_counter)
{
	struct hca_srq *srq = qp->srq;
	uint16_t head = srq->head, consumed = srq->consumed, avail;

	if (srq->tm || srq->cq || srq->xrcdn ||
	    (srq->land_qpn && srq->land_qpn != qp->qpn))
		return -1;
	avail = (uint16_t)(be32toh(__atomic_load_n(&srq->dbrec[0],
						   __ATOMIC_ACQUIRE)) -
			   consumed);
	/* none posted, or this one takes it below the limit: looking at it
	 * with hca_recv_wqe would raise the event and disarm the limit now,
	 * at the offer, before any SEND took it (debian_land_srq.c) */
	if (!avail || (srq->limit && avail <= srq->limit))
		return -1;
	if (hca_recv_wqe(qp, sge, nsge, wqe_counter))
		return -1;
	srq->head = head; /* only looked at: the SEND takes it */
	srq->consumed = consumed;
	return 0;
}
