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
 * Across processes: an XRC SRQ may live in another process than the TGT
 * QP (any process of the domain may create SRQs in it). The SRQ's ring,
 * buffers and CQ are that process's, so a request is run there: the
 * fabric sends an XRC request to the process named by the SRQ
 * (x<dev>.<srqn>), which runs it on its own instance of the TGT QP: the
 * creator's HCA QP there, elsewhere one made from the QP's row (the
 * domain's QP, core/xrc_tgt.c), whose state and context (the driver's
 * at modify) every instance takes before each request. The responder's expected PSN is the row's, so one
 * PSN sequence spans every process the INI QP's messages go to; an error
 * found in one process puts the QP in ERR for all, and its async event,
 * raised on that process's handles, goes to the HCA of every other
 * process holding the QP (HCA_PKT_XRC_ERR), which raises it on its own.
 */
#include "hca.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

	if (srq->xrcdn)
		hca_fabric_srq_name(srq->dev, srq->srqn, 0);
	for (qp = hca_qps; qp; qp = qp->next)
		if (qp->xrc == HCA_XRC_TGT && qp->srq == srq) {
			qp->srq = NULL;
			qp->rcq = NULL;
			qp->pdn = 0;
		}
}

void hca_xrc_srq_made(const struct hca_srq *srq)
{
	/* without the name, requests still reach it through a TGT QP of
	 * this process */
	(void)hca_fabric_srq_name(srq->dev, srq->srqn, 1);
	hca_engine_start(); /* it serves this ring, QP or not */
}

/* This process's instance of a TGT QP created elsewhere. */
static struct hca_qp *instance_new(const struct sim_xrc_tgt *t)
{
	struct hca_qp *qp = calloc(1, sizeof(*qp));

	if (!qp)
		return NULL;
	qp->type = IB_QPT_RC;
	qp->xrc = HCA_XRC_TGT;
	qp->xrcdn = t->xrcdn;
	qp->dev = t->dev;
	qp->qpn = t->qpn;
	qp->xrc_inst = 1;
	qp->xrc_resets = t->resets;
	qp->state = IB_QPS_RESET;
	qp->next = hca_qps;
	hca_qps = qp;
	return qp;
}

static void instance_free(struct hca_qp *qp)
{
	struct hca_qp **p;

	for (p = &hca_qps; *p; p = &(*p)->next)
		if (*p == qp) {
			*p = qp->next;
			break;
		}
	free(qp);
}

/* Every instance takes the QP's attributes from its row (and starts over
 * after a reset); one that finds the QP put in ERR elsewhere goes to ERR
 * and tells this process's handles. */
static void sync_in(struct hca_qp *qp, struct sim_xrc_tgt *t)
{
	const struct sim_xrc_qpc *c = &t->qpc;
	uint32_t state = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);

	if (qp->xrc_resets != t->resets) {
		hca_qp_reset(qp);
		qp->xrc_resets = t->resets;
	}
	qp->dest_qpn = c->dest_qpn;
	qp->dlid_dev = c->path_dev;
	qp->access = c->access;
	qp->min_rnr_timer = c->min_rnr_timer;
	qp->dest_rd_atom = c->rra_max;
	if (state != IB_QPS_ERR)
		qp->state = state;
	else if (qp->state != IB_QPS_ERR) {
		hca_qp_to_err(qp);
		hca_eq_post(HCA_EQE_XRC_TGT_ERR, 0, qp->dev, qp->qpn);
	}
	qp->epsn = __atomic_load_n(&t->epsn, __ATOMIC_ACQUIRE);
}

/* Tell the other processes holding the QP that it went to ERR: their
 * HCA raises the event on their handles. */
static void tell_holders(const struct sim_xrc_tgt *t)
{
	struct hca_pkt p = {.op = HCA_PKT_XRC_ERR};
	int32_t me = (int32_t)getpid();
	unsigned int i;

	p.src_dev = p.dst_dev = (uint16_t)t->dev;
	p.dst_qpn = t->qpn;
	for (i = 0; i < SIM_XRCD_HOLDERS; i++)
		if (t->holder[i].refs && t->holder[i].pid != me)
			hca_fabric_send_pid(t->holder[i].pid, &p);
}

void hca_xrc_event(struct hca_qp *qp, uint32_t event)
{
	struct sim_xrc_tgt *t = sim_xrc_tgt_row(sim.sh, qp->dev, qp->qpn);

	if (!t)
		return;
	/* the driver puts the row in ERR and tells this process's handles */
	hca_eq_post((uint8_t)event, HCA_EQE_SUB_XRC_TGT, qp->dev, qp->qpn);
	tell_holders(t);
}

void hca_xrc_input(struct hca_qp *qp, const struct hca_pkt *p)
{
	struct sim_xrc_tgt *t = sim_xrc_tgt_row(sim.sh, p->dst_dev, p->dst_qpn);
	uint32_t e0;

	if (!t) { /* the QP is gone: an instance of it goes too */
		if (qp && qp->xrc_inst)
			instance_free(qp);
		return;
	}
	if (!qp)
		qp = instance_new(t);
	if (!qp)
		return;
	sync_in(qp, t);
	if (p->op == HCA_PKT_XRC_ERR)
		return; /* sync_in told this process's handles */
	e0 = qp->epsn;
	hca_resp_input(qp, p);
	/* only the process holding the expected PSN's packet moves it on */
	if (qp->epsn != e0)
		__atomic_compare_exchange_n(&t->epsn, &e0, qp->epsn, 0,
					    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	if (qp->state == IB_QPS_ERR &&
	    __atomic_load_n(&t->state, __ATOMIC_ACQUIRE) != IB_QPS_ERR)
		hca_eq_post(HCA_EQE_XRC_TGT_ERR, HCA_EQE_SUB_XRC_TGT, qp->dev,
			    qp->qpn);
}
