// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Resource tracking of the world (see restrack.h). The kernel gives each
 * tracked object an id per device and kind, allocated cyclically (xarray
 * next id) and never reused before wrapping; a QP's id is its number.
 * The MAD layer's PD and CQ of each port come first, so user PDs and CQs
 * start at 1 on a one-port device, contexts, MRs and SRQs at 0.
 */
#include "restrack.h"
#include "uapi.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const struct sim_obj_type *type;
	uint8_t kind;
} tracked[] = {
	{&sim_type_pd, SIM_RES_PD},   {&sim_type_cq, SIM_RES_CQ},
	{&sim_type_srq, SIM_RES_SRQ}, {&sim_type_qp, SIM_RES_QP},
	{&sim_type_mr, SIM_RES_MR},   {&sim_type_ah, SIM_RES_AH},
	{&sim_type_mw, SIM_RES_MW},
};

uint32_t sim_res_first_id(unsigned int kind)
{
	return kind == SIM_RES_PD || kind == SIM_RES_CQ ? 1 : 0;
}

static struct sim_res *row_of(uint32_t res)
{
	return res ? &sim.sh->res[res - 1] : NULL;
}

static uint32_t id_of(const struct sim_obj *o)
{
	return o && o->res ? row_of(o->res)->id : ~0u;
}

static void fill(struct sim_res *r, struct sim_uvfile *uv, struct sim_obj *o)
{
	struct sim_qp *qp;
	struct sim_mr *mr;

	r->ctxn = row_of(uv->res) ? row_of(uv->res)->id : ~0u;
	r->cqn = r->rcqn = r->srqn = ~0u;
	switch (r->kind) {
	case SIM_RES_CQ:
		r->cqe = sim_cq(o)->cqe;
		break;
	case SIM_RES_SRQ:
		r->pdn = id_of(&sim_srq(o)->pd->obj);
		r->cqn = id_of(sim_srq(o)->cq ? &sim_srq(o)->cq->obj : NULL);
		r->type = sim_srq(o)->srq_type;
		break;
	case SIM_RES_QP:
		qp = sim_qp(o);
		r->id = qp->qpn;
		r->pdn = id_of(qp->pd ? &qp->pd->obj : NULL);
		r->cqn = id_of(qp->send_cq ? &qp->send_cq->obj : NULL);
		r->rcqn = id_of(qp->recv_cq ? &qp->recv_cq->obj : NULL);
		r->srqn = id_of(qp->srq ? &qp->srq->obj : NULL);
		r->type = qp->qp_type;
		r->state = qp->attr.qp_state;
		r->port = qp->attr.port_num;
		r->path_mig = qp->attr.path_mig_state;
		r->rqpn = qp->attr.dest_qp_num;
		r->rq_psn = qp->attr.rq_psn;
		r->sq_psn = qp->attr.sq_psn;
		break;
	case SIM_RES_MR:
		mr = sim_mr(o);
		r->pdn = id_of(&mr->pd->obj);
		r->lkey = mr->lkey;
		r->rkey = mr->rkey;
		r->iova = mr->iova;
		r->length = mr->length;
		break;
	case SIM_RES_AH:
		r->pdn = id_of(&sim_ah(o)->pd->obj);
		break;
	case SIM_RES_MW:
		r->pdn = id_of(&sim_mw(o)->pd->obj);
		break;
	}
}

/* A free row for a new object of (dev, kind), its id allocated. */
static uint32_t row_new(unsigned int dev, unsigned int kind)
{
	struct sim_shared *sh = sim.sh;
	unsigned int i;

	for (i = 0; i < SIM_MAX_RES; i++) {
		if (sh->res[i].in_use)
			continue;
		memset(&sh->res[i], 0, sizeof(sh->res[i]));
		sh->res[i].in_use = 1;
		sh->res[i].kind = (uint8_t)kind;
		sh->res[i].dev = (uint16_t)dev;
		sh->res[i].pid = getpid();
		sh->res[i].id =
			sim_res_first_id(kind) + sh->res_next[dev][kind]++;
		return i + 1;
	}
	return 0; /* full: the object lives on, unlisted */
}

/* (Re)write the row of o (or of uv's context when o is NULL). */
static void publish(struct sim_uvfile *uv, struct sim_obj *o, unsigned int kind)
{
	uint32_t *res = o ? &o->res : &uv->res;
	struct sim_res now;

	if (*res) {
		now = *row_of(*res);
		fill(&now, uv, o);
		if (!memcmp(&now, row_of(*res), sizeof(now)))
			return;
	}
	sim_shared_lock(sim.sh);
	if (!*res)
		*res = row_new(uv->dev, kind);
	if (*res)
		fill(row_of(*res), uv, o);
	sim_shared_unlock(sim.sh);
}

void sim_res_touch(struct sim_obj *o)
{
	struct sim_uvfile *uv = o->uv;

	if (!o->res || o->res_dirty)
		return; /* no row yet: the next sync makes it */
	o->res_dirty = 1;
	if (uv->res_ndirty < ARRAY_SIZE(uv->res_dirty))
		uv->res_dirty[uv->res_ndirty++] = o;
	else
		uv->res_dirty_all = 1;
}

/* Rewrite the touched rows; after an overflow, every row of uv. */
static void publish_dirty(struct sim_uvfile *uv)
{
	struct sim_obj *o;
	unsigned int i;

	for (o = uv->objs; uv->res_dirty_all && o; o = o->next) {
		if (o->res)
			publish(uv, o, row_of(o->res)->kind);
		o->res_dirty = 0;
	}
	for (i = 0; i < uv->res_ndirty; i++) {
		o = uv->res_dirty[i];
		if (!uv->res_dirty_all)
			publish(uv, o, row_of(o->res)->kind);
		o->res_dirty = 0;
	}
	uv->res_ndirty = uv->res_dirty_all = 0;
}

/*
 * New objects stand at the head of uv->objs, before the first one a sync
 * saw: only those are walked, so a process creating N objects costs O(N)
 * in all, not O(N) per command.
 */
void sim_res_sync(struct sim_uvfile *uv)
{
	struct sim_obj *o;
	unsigned int i;

	if (!uv || !sim_uvfile_mine(uv))
		return;
	if (uv->has_ctx && !uv->res)
		publish(uv, NULL, SIM_RES_CTX);
	/* in dependency order: a QP's row names its PD's and CQs' ids */
	for (i = 0; i < ARRAY_SIZE(tracked); i++)
		for (o = uv->objs; o && !o->res_seen; o = o->next)
			if (o->type == tracked[i].type)
				publish(uv, o, tracked[i].kind);
	for (o = uv->objs; o && !o->res_seen; o = o->next)
		o->res_seen = 1;
	publish_dirty(uv);
}

static void row_free(uint32_t *res)
{
	if (!*res)
		return;
	sim_shared_lock(sim.sh);
	row_of(*res)->in_use = 0;
	sim_shared_unlock(sim.sh);
	*res = 0;
}

void sim_res_forget(struct sim_uvfile *uv, struct sim_obj *o)
{
	unsigned int i;

	for (i = 0; o->res_dirty && i < uv->res_ndirty; i++)
		if (uv->res_dirty[i] == o)
			uv->res_dirty[i] = uv->res_dirty[--uv->res_ndirty];
	o->res_dirty = 0;
	if (sim_uvfile_mine(uv))
		row_free(&o->res);
}

void sim_res_forget_ctx(struct sim_uvfile *uv)
{
	if (sim_uvfile_mine(uv))
		row_free(&uv->res);
}

static void forget_pid(pid_t pid)
{
	unsigned int i;

	for (i = 0; i < SIM_MAX_RES; i++)
		if (sim.sh->res[i].in_use && sim.sh->res[i].pid == pid)
			sim.sh->res[i].in_use = 0;
}

/*
 * Drop the rows of processes that ended. Each owner is asked once: a dead
 * one's rows all go in one pass, the living are remembered (a world has a
 * handful of processes; past the cache's size one is asked again).
 */
static void forget_dead(void)
{
	pid_t alive[32];
	unsigned int i, j, n = 0;
	pid_t pid;

	for (i = 0; i < SIM_MAX_RES; i++) {
		if (!sim.sh->res[i].in_use || sim.sh->res[i].pid <= 0)
			continue;
		pid = sim.sh->res[i].pid;
		for (j = 0; j < n && alive[j] != pid; j++)
			;
		if (j < n)
			continue;
		if (sim_pid_gone(pid))
			forget_pid(pid);
		else if (n < ARRAY_SIZE(alive))
			alive[n++] = pid;
	}
}

void sim_res_forget_pid(pid_t pid)
{
	sim_shared_lock(sim.sh);
	forget_pid(pid);
	sim_shared_unlock(sim.sh);
}

static int matches(const struct sim_res *r, unsigned int dev, unsigned int kind)
{
	return r->in_use && r->dev == dev && r->kind == kind;
}

/* The rows of the walk in progress, by index: one per process is enough,
 * as a walk holds the shared lock from its scan to its last row. */
static uint16_t walk_rows[SIM_MAX_RES];

static int by_id(const void *a, const void *b)
{
	uint32_t x = sim.sh->res[*(const uint16_t *)a].id;
	uint32_t y = sim.sh->res[*(const uint16_t *)b].id;

	return (x > y) - (x < y);
}

/* Rows sit where a free slot was, not in id order: one scan picks the
 * walk's rows, a sort orders them (not a scan of the table per row). */
int sim_res_walk(unsigned int dev, unsigned int kind, int64_t *pos,
		 int (*fn)(const struct sim_res *r, void *arg), void *arg)
{
	const struct sim_res *r;
	int stopped = 0, err = errno;
	unsigned int i, n = 0;

	sim_shared_lock(sim.sh);
	forget_dead(); /* the process died: its objects went */
	for (i = 0; i < SIM_MAX_RES; i++)
		if (matches(&sim.sh->res[i], dev, kind) &&
		    (int64_t)sim.sh->res[i].id > *pos)
			walk_rows[n++] = (uint16_t)i;
	qsort(walk_rows, n, sizeof(walk_rows[0]), by_id);
	for (i = 0; i < n; i++) {
		r = &sim.sh->res[walk_rows[i]];
		if (fn(r, arg)) {
			stopped = 1;
			break;
		}
		*pos = r->id;
	}
	sim_shared_unlock(sim.sh);
	errno = err;
	return stopped;
}

/* Count a reference to id among the n ascending ids (each equal one). */
static void count_ref(uint32_t id, const uint32_t *ids, unsigned int n,
		      uint64_t *users)
{
	unsigned int lo = 0, hi = n, mid;

	while (lo < hi) { /* the first index whose id is not below */
		mid = lo + (hi - lo) / 2;
		if (ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && ids[lo] == id; lo++)
		users[lo]++;
}

void sim_res_users(unsigned int dev, const struct sim_res_ref *refs,
		   unsigned int nrefs, const uint32_t *ids, unsigned int n,
		   uint64_t *users)
{
	const struct sim_res *r;
	unsigned int i, j;
	int err = errno;
	uint32_t v;

	sim_shared_lock(sim.sh);
	forget_dead();
	for (i = 0; i < SIM_MAX_RES; i++) {
		r = &sim.sh->res[i];
		if (!r->in_use || r->dev != dev)
			continue;
		for (j = 0; j < nrefs; j++) {
			if (r->kind != refs[j].kind)
				continue;
			memcpy(&v, (const uint8_t *)r + refs[j].off, sizeof(v));
			count_ref(v, ids, n, users);
		}
	}
	sim_shared_unlock(sim.sh);
	errno = err;
}

uint64_t sim_res_count(unsigned int dev, unsigned int kind, size_t off,
		       uint32_t ref)
{
	uint64_t n = 0;
	unsigned int i;
	uint32_t v;
	int err = errno;

	sim_shared_lock(sim.sh);
	forget_dead();
	for (i = 0; i < SIM_MAX_RES; i++) {
		const struct sim_res *r = &sim.sh->res[i];

		if (!matches(r, dev, kind))
			continue;
		if (off != SIM_RES_ANY) {
			memcpy(&v, (const uint8_t *)r + off, sizeof(v));
			if (v != ref)
				continue;
		}
		n++;
	}
	sim_shared_unlock(sim.sh);
	errno = err;
	return n;
}
