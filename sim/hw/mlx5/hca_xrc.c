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
 * (x<dev>.<srqn>), which runs it on its own instance of the TGT QP, made
 * from the world's row of the QP (sim_shared xrc_tgts: the attributes the
 * creator's modify gave it). The responder's expected PSN is the row's,
 * so one PSN sequence spans every process the INI QP's messages go to; an
 * error found in another process puts the QP in ERR everywhere, and the
 * creator's process raises its async event when it next sees a request.
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
	qp->pd = srq->pd;
	return 0;
}

void hca_xrc_srq_gone(const struct hca_srq *srq)
{
	struct hca_qp *qp;

	if (srq->xrcdn)
		hca_fabric_srq_name(srq->uv->dev, srq->srqn, 0);
	for (qp = hca_qps; qp; qp = qp->next)
		if (qp->xrc == HCA_XRC_TGT && qp->srq == srq) {
			qp->srq = NULL;
			qp->rcq = NULL;
			qp->pd = NULL;
		}
}

void hca_xrc_srq_made(const struct hca_srq *srq)
{
	/* without the name, requests still reach it through a TGT QP of
	 * this process */
	(void)hca_fabric_srq_name(srq->uv->dev, srq->srqn, 1);
	hca_engine_start(); /* it serves this ring, QP or not */
}

/* The world's row of TGT QP (dev, qpn), or NULL. */
static struct sim_xrc_tgt *row_of(unsigned int dev, uint32_t qpn)
{
	struct sim_xrc_tgt *t;
	unsigned int i;

	for (i = 0; i < SIM_MAX_XRC_TGT; i++) {
		t = &sim.sh->xrc_tgts[i];
		if (__atomic_load_n(&t->in_use, __ATOMIC_ACQUIRE) &&
		    t->dev == dev && t->qpn == qpn)
			return t;
	}
	return NULL;
}

void hca_xrc_publish(const struct hca_qp *qp)
{
	struct sim_xrc_tgt *t;
	unsigned int i;

	if (qp->xrc != HCA_XRC_TGT || !qp->obj)
		return;
	sim_shared_lock(sim.sh);
	t = row_of(qp->dev, qp->qpn);
	for (i = 0; !t && i < SIM_MAX_XRC_TGT; i++)
		if (!sim.sh->xrc_tgts[i].in_use) {
			t = &sim.sh->xrc_tgts[i];
			memset(t, 0, sizeof(*t));
			t->dev = qp->dev;
			t->qpn = qp->qpn;
			t->xrcdn = qp->xrcdn;
			t->pid = (int32_t)getpid();
			__atomic_store_n(&t->in_use, 1, __ATOMIC_RELEASE);
		}
	if (t) {
		t->dest_qpn = qp->dest_qpn;
		t->dlid_dev = qp->dlid_dev;
		t->access = qp->access;
		t->min_rnr_timer = qp->min_rnr_timer;
		t->dest_rd_atom = qp->dest_rd_atom;
		__atomic_store_n(&t->epsn, qp->epsn, __ATOMIC_RELEASE);
		if (qp->state == HCA_QPS_RESET)
			t->resets++;
		if (qp->state != HCA_QPS_ERR)
			t->err_event = 0;
		__atomic_store_n(&t->state, (uint8_t)qp->state,
				 __ATOMIC_RELEASE);
	}
	sim_shared_unlock(sim.sh);
}

void hca_xrc_unpublish(const struct hca_qp *qp)
{
	struct sim_xrc_tgt *t;

	if (qp->xrc != HCA_XRC_TGT || !qp->obj)
		return;
	sim_shared_lock(sim.sh);
	t = row_of(qp->dev, qp->qpn);
	if (t && t->pid == (int32_t)getpid())
		__atomic_store_n(&t->in_use, 0, __ATOMIC_RELEASE);
	sim_shared_unlock(sim.sh);
}

/* This process's instance of a TGT QP created elsewhere. */
static struct hca_qp *instance_new(const struct sim_xrc_tgt *t)
{
	struct hca_qp *qp = calloc(1, sizeof(*qp));

	if (!qp)
		return NULL;
	qp->type = HCA_QPT_RC;
	qp->xrc = HCA_XRC_TGT;
	qp->xrcdn = t->xrcdn;
	qp->dev = t->dev;
	qp->qpn = t->qpn;
	qp->xrc_resets = t->resets;
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

/* An instance takes the creator's attributes (and starts over after a
 * reset); the creator's own QP takes an error found elsewhere. */
static void sync_in(struct hca_qp *qp, struct sim_xrc_tgt *t)
{
	uint8_t state = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);

	if (!qp->obj) {
		if (qp->xrc_resets != t->resets) {
			hca_qp_reset(qp);
			qp->xrc_resets = t->resets;
		}
		qp->dest_qpn = t->dest_qpn;
		qp->dlid_dev = t->dlid_dev;
		qp->access = t->access;
		qp->min_rnr_timer = t->min_rnr_timer;
		qp->dest_rd_atom = t->dest_rd_atom;
		if (state != HCA_QPS_ERR || qp->state != HCA_QPS_ERR)
			qp->state = state;
	} else if (state == HCA_QPS_ERR && qp->state != HCA_QPS_ERR) {
		if (t->err_event)
			sim_async_event(qp->uv, t->err_event, qp->obj);
		hca_qp_to_err(qp);
	}
	qp->epsn = __atomic_load_n(&t->epsn, __ATOMIC_ACQUIRE);
}

void hca_xrc_input(struct hca_qp *qp, const struct hca_pkt *p)
{
	struct sim_xrc_tgt *t = row_of(p->dst_dev, p->dst_qpn);
	uint32_t e0;

	if (!t) { /* the QP is gone: an instance of it goes too */
		if (qp && !qp->obj)
			instance_free(qp);
		return;
	}
	if (!qp)
		qp = instance_new(t);
	if (!qp)
		return;
	sync_in(qp, t);
	e0 = qp->epsn;
	hca_resp_input(qp, p);
	/* only the process holding the expected PSN's packet moves it on */
	if (qp->epsn != e0)
		__atomic_compare_exchange_n(&t->epsn, &e0, qp->epsn, 0,
					    __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE);
	if (qp->state == HCA_QPS_ERR &&
	    __atomic_load_n(&t->state, __ATOMIC_ACQUIRE) != HCA_QPS_ERR) {
		if (!qp->obj)
			t->err_event = qp->xrc_event;
		__atomic_store_n(&t->state, (uint8_t)HCA_QPS_ERR,
				 __ATOMIC_RELEASE);
	}
}
