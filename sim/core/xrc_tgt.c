// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The XRC_TGT QP as the kernel keeps it: the QP belongs to its XRC domain,
 * and every handle of it (the creator's, and each one OPEN_QP made, in
 * any process of the domain) holds it; it is destroyed when the last one
 * goes, whoever created it (the kernel's __ib_destroy_shared_qp). Modify
 * and query through any handle act on the one QP.
 *
 * Here the QP is a row of the world's shared state (sim_shared
 * xrc_tgts): its attributes as modify left them, the responder's expected
 * PSN, and its holders per process. The HCA of each process runs the
 * requests whose XRC SRQ lives there on an instance of the QP made from
 * the row (hw/mlx5/hca_xrc.c). An async event of the QP goes to every
 * handle: at once to those of the process whose HCA found the error; that
 * HCA tells the other holders' HCAs, which raise it on theirs.
 */
#include "uapi.h"

#include <errno.h>
#include <string.h>

_Static_assert(sizeof(struct sim_qp_attr) <= SIM_XRC_ATTR_SIZE,
	       "sim_xrc_tgt.attr holds a struct sim_qp_attr");

/* The live row of (dev, qpn); dead holders reaped. Needs the lock. */
static struct sim_xrc_tgt *row_locked(unsigned int dev, uint32_t qpn)
{
	struct sim_xrc_tgt *t;
	unsigned int i;

	for (i = 0; i < SIM_MAX_XRC_TGT; i++) {
		t = &sim.sh->xrc_tgts[i];
		if (!t->in_use || t->dev != dev || t->qpn != qpn)
			continue;
		if (sim_holders_reap(t->holder))
			return t;
		__atomic_store_n(&t->in_use, 0, __ATOMIC_RELEASE);
	}
	return NULL;
}

static unsigned int dev_of(const struct sim_qp *qp)
{
	return qp->obj.uv->dev;
}

int sim_xrc_tgt_new(struct sim_qp *qp)
{
	struct sim_xrc_tgt *t = NULL;
	unsigned int i;
	int ret = -ENOMEM;

	sim_shared_lock(sim.sh);
	for (i = 0; !t && i < SIM_MAX_XRC_TGT; i++) {
		if (sim.sh->xrc_tgts[i].in_use)
			continue;
		t = &sim.sh->xrc_tgts[i];
		memset(t, 0, sizeof(*t));
		t->dev = dev_of(qp);
		t->qpn = qp->qpn;
		t->xrcdn = qp->xrcd->xrcdn;
		memcpy(t->attr, &qp->attr, sizeof(qp->attr));
		t->state = qp->attr.qp_state;
		ret = sim_holders_add(t->holder, 1);
		__atomic_store_n(&t->in_use, 1, __ATOMIC_RELEASE);
	}
	qp->xrc_held = !ret;
	sim_shared_unlock(sim.sh);
	return ret;
}

int sim_xrc_tgt_open(unsigned int dev, struct sim_qp *qp, uint32_t xrcdn)
{
	struct sim_xrc_tgt *t;
	int ret = -EINVAL;

	sim_shared_lock(sim.sh);
	t = row_locked(dev, qp->qpn);
	if (t && t->xrcdn == xrcdn)
		ret = sim_holders_add(t->holder, 1);
	qp->xrc_held = !ret;
	sim_shared_unlock(sim.sh);
	return ret;
}

void sim_xrc_tgt_put(struct sim_qp *qp)
{
	struct sim_xrc_tgt *t;

	if (!qp->xrc_held)
		return;
	sim_shared_lock(sim.sh);
	t = row_locked(dev_of(qp), qp->qpn);
	if (t) {
		sim_holders_add(t->holder, -1);
		if (!sim_holders_reap(t->holder))
			__atomic_store_n(&t->in_use, 0, __ATOMIC_RELEASE);
	}
	qp->xrc_held = 0;
	sim_shared_unlock(sim.sh);
}

void sim_xrc_tgt_load(struct sim_qp *qp)
{
	struct sim_xrc_tgt *t;

	sim_shared_lock(sim.sh);
	t = row_locked(dev_of(qp), qp->qpn);
	if (t) {
		memcpy(&qp->attr, t->attr, sizeof(qp->attr));
		qp->attr.qp_state = (uint8_t)t->state;
	}
	sim_shared_unlock(sim.sh);
}

void sim_xrc_tgt_store(struct sim_qp *qp)
{
	const struct sim_qp_attr *n = &qp->attr;
	struct sim_qp_attr old;
	struct sim_xrc_tgt *t;

	sim_shared_lock(sim.sh);
	t = row_locked(dev_of(qp), qp->qpn);
	if (t) {
		memcpy(&old, t->attr, sizeof(old));
		old.qp_state = (uint8_t)t->state;
		memcpy(t->attr, n, sizeof(*n));
		__atomic_store_n(&t->state, n->qp_state, __ATOMIC_RELEASE);
		/* RTR takes RQ_PSN: the responder's first expected PSN */
		if (old.rq_psn != n->rq_psn ||
		    (n->qp_state == IB_QPS_RTR && old.qp_state != IB_QPS_RTR))
			__atomic_store_n(&t->epsn, n->rq_psn & 0xffffff,
					 __ATOMIC_RELEASE);
		if (n->qp_state == IB_QPS_RESET && old.qp_state != IB_QPS_RESET)
			t->resets++;
		t->err_event = 0; /* a modify's own ERR raises nothing */
	}
	sim_shared_unlock(sim.sh);
}

/* Every handle of the QP in this process. */
static void each_handle(const struct sim_xrc_tgt *t,
			void (*fn)(struct sim_qp *, uint32_t), uint32_t arg)
{
	sim_for_each_qp_num(t->dev, t->qpn, fn, arg);
}

static void raise_on(struct sim_qp *qp, uint32_t event)
{
	if (qp->qp_type == IB_QPT_XRC_TGT)
		sim_async_event(NULL, event, &qp->obj);
}

void sim_xrc_tgt_event(const struct sim_xrc_tgt *t, uint32_t event)
{
	if (event)
		each_handle(t, raise_on, event);
}

void sim_xrc_tgt_error(struct sim_xrc_tgt *t, uint32_t event)
{
	sim_shared_lock(sim.sh);
	__atomic_store_n(&t->state, IB_QPS_ERR, __ATOMIC_RELEASE);
	t->err_event = event;
	sim_shared_unlock(sim.sh);
	sim_xrc_tgt_event(t, event);
}
