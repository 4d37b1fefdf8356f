// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * XRC on the responder side. An XRC_TGT QP owns no receive queue and no
 * CQ: every request packet carries an XRCETH naming an XRC SRQ, which must
 * belong to the TGT QP's XRC domain; the message lands in that SRQ's
 * buffers and completes on that SRQ's CQ with the SRQ's user index, and
 * its memory accesses are checked against the SRQ's PD. A number no SRQ
 * of the domain has is an invalid request (NAK, as the IBTA's XRC rules
 * want; the HCA's exact syndrome is not documented).
 *
 * The SRQ is looked up among this process's: an XRC SRQ created in
 * another process on the same domain is not reachable through a TGT QP of
 * this one (see sim/README.md, Limits).
 */
#include "hca.h"

#include <errno.h>

int hca_xrc_target(struct hca_qp *qp, const struct hca_pkt *p)
{
	struct hca_srq *srq;

	if (qp->srq && qp->srq->srqn == p->xrc_srqn)
		return 0;
	for (srq = hca_srqs; srq; srq = srq->next)
		if (srq->xrcdn && srq->xrcdn == qp->xrcdn &&
		    srq->srqn == p->xrc_srqn)
			break;
	if (!srq)
		return -ENOENT;
	qp->srq = srq;
	qp->rcq = srq->cq;
	qp->uidx = srq->uidx;
	qp->pdn = srq->pdn;
	return 0;
}

void hca_xrc_srq_gone(const struct hca_srq *srq)
{
	struct hca_qp *qp;

	for (qp = hca_qps; qp; qp = qp->next)
		if (qp->xrc == HCA_XRC_TGT && qp->srq == srq) {
			qp->srq = NULL;
			qp->rcq = NULL;
			qp->pdn = 0;
		}
}
