// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * NLDEV resource answers (`rdma resource`), as nldev.c's fill_res_info and
 * res_get_common_dumpit give them from the restrack of the world
 * (restrack.c) and the MAD layer's own objects on each port.
 *   RES_GET          doit (DEV_INDEX) / dump of every device: the summary
 *   RES_{PD,CQ,QP,MR,CTX,SRQ}_GET  dump of one device (DEV_INDEX required,
 *                    PORT_INDEX filters QPs): one message per datagram
 *                    holding the entries that fit, in id order; a device
 *                    without objects gives no message. Tables and entries
 *                    carry no NLA_F_NESTED (nla_nest_start_noflag).
 * Keys (PD local DMA lkey, MR lkey/rkey) only for a CAP_NET_ADMIN caller.
 * No cm_ids: the sim has no RDMA CM yet (their dump is empty).
 */
#include "netlink.h"
#include "restrack.h"

#include <errno.h>
#include <linux/capability.h>
#include <stddef.h>
#include <string.h>

/* an ib_poll_context value the kernel sends */
enum { POLL_UNBOUND_WORKQUEUE = 2 };

/* The MAD layer's QPs of a port: QP0 (SMI, IB only) and QP1 (GSI). */
static unsigned int kern_qps(void)
{
	return sim.model->gid_is_roce ? 1 : 2;
}

/* Its CQ: 128 send + 512 receive entries per QP, as the driver sizes it
 * (a power of two minus one). */
static uint32_t kern_cqe(void)
{
	uint32_t asked = (128 + 512) * kern_qps(), n = 1;

	while (n < asked + 1)
		n <<= 1;
	return n - 1;
}

/* The row of a kernel object (kind, id) of the MAD layer. */
static void kern_row(struct sim_res *r, unsigned int dev, unsigned int kind,
		     uint32_t id)
{
	memset(r, 0, sizeof(*r));
	r->in_use = 1;
	r->kind = (uint8_t)kind;
	r->dev = (uint16_t)dev;
	r->pid = 0; /* kernel: named, no pid */
	r->id = id;
	r->pdn = r->cqn = r->rcqn = 0;
	r->srqn = ~0u;
	r->cqe = kern_cqe();
	r->type = id ? IB_QPT_GSI : IB_QPT_SMI;
	if (sim.model->gid_is_roce)
		r->type = IB_QPT_GSI;
	r->state = IB_QPS_RTS;
	r->port = 1;
}

/* The kernel objects of kind on dev: how many, and the ith one. */
static unsigned int kern_count(unsigned int kind)
{
	switch (kind) {
	case SIM_RES_PD:
	case SIM_RES_CQ:
		return nl_nports();
	case SIM_RES_QP:
		return kern_qps() * nl_nports();
	}
	return 0;
}

static uint32_t kern_id(unsigned int kind, unsigned int i)
{
	return kind == SIM_RES_QP && sim.model->gid_is_roce ? 1 : i;
}

/*
 * The kernel's usecnt of a PD or CQ (nldev's USECNT): a PD's users are the
 * QPs, MRs, SRQs, AHs and MWs on it, a CQ's one per QP queue completing
 * there and an SRQ's own CQ (ib_qp_usecnt_inc, ib_create_srq_user,
 * ib_uverbs_alloc_mw).
 */
static const struct sim_res_ref pd_refs[] = {
	{SIM_RES_QP, offsetof(struct sim_res, pdn)},
	{SIM_RES_MR, offsetof(struct sim_res, pdn)},
	{SIM_RES_SRQ, offsetof(struct sim_res, pdn)},
	{SIM_RES_AH, offsetof(struct sim_res, pdn)},
	{SIM_RES_MW, offsetof(struct sim_res, pdn)},
};
static const struct sim_res_ref cq_refs[] = {
	{SIM_RES_QP, offsetof(struct sim_res, cqn)},
	{SIM_RES_QP, offsetof(struct sim_res, rcqn)},
	{SIM_RES_SRQ, offsetof(struct sim_res, cqn)},
};

/* ib_core's own PD and CQ of a port: the MAD layer's QPs use them. */
static uint64_t kern_users(unsigned int kind)
{
	if (kind == SIM_RES_PD)
		return kern_qps();
	return kind == SIM_RES_CQ ? 2 * kern_qps() : 0;
}

static void put_owner(struct nl_out *o, const struct sim_res *r)
{
	if (r->pid)
		nl_put_u32(o, RDMA_NLDEV_ATTR_RES_PID, (uint32_t)r->pid);
	else
		nl_put_str(o, RDMA_NLDEV_ATTR_RES_KERN_NAME, "ib_core");
}

struct fill_ctx {
	struct nl_out *o;
	size_t limit;
	uint32_t port;	/* filter: QPs on this port only */
	int admin;	/* CAP_NET_ADMIN: keys shown */
	int filled;	/* an entry was visited */
	uint64_t users; /* of the row being filled, counted before */
};

static void fill_pd(struct fill_ctx *f, const struct sim_res *r)
{
	if (f->admin)
		nl_put_u32(f->o, RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY, 0);
	nl_put_u64(f->o, RDMA_NLDEV_ATTR_RES_USECNT, f->users);
	nl_put_u32(f->o, RDMA_NLDEV_ATTR_RES_PDN, r->id);
	if (r->pid)
		nl_put_u32(f->o, RDMA_NLDEV_ATTR_RES_CTXN, r->ctxn);
}

static void fill_cq(struct fill_ctx *f, const struct sim_res *r)
{
	nl_put_u32(f->o, RDMA_NLDEV_ATTR_RES_CQE, r->cqe);
	nl_put_u64(f->o, RDMA_NLDEV_ATTR_RES_USECNT, f->users);
	if (!r->pid)
		nl_put_u8(f->o, RDMA_NLDEV_ATTR_RES_POLL_CTX,
			  POLL_UNBOUND_WORKQUEUE);
	/* adaptive moderation: kernel CQs of a device using CQ DIM */
	nl_put_u8(f->o, RDMA_NLDEV_ATTR_DEV_DIM,
		  !r->pid && sim_model_kind(sim.model) == SIM_DRIVER_MLX5);
	nl_put_u32(f->o, RDMA_NLDEV_ATTR_RES_CQN, r->id);
	if (r->pid)
		nl_put_u32(f->o, RDMA_NLDEV_ATTR_RES_CTXN, r->ctxn);
}

static void fill_qp(struct fill_ctx *f, const struct sim_res *r)
{
	int connected = r->type == IB_QPT_RC || r->type == IB_QPT_UC;

	if (r->port)
		nl_put_u32(f->o, RDMA_NLDEV_ATTR_PORT_INDEX, r->port);
	nl_put_u32(f->o, RDMA_NLDEV_ATTR_RES_LQPN, r->id);
	if (connected) {
		nl_put_u32(f->o, RDMA_NLDEV_ATTR_RES_RQPN, r->rqpn);
		nl_put_u32(f->o, RDMA_NLDEV_ATTR_RES_RQ_PSN, r->rq_psn);
	}
	nl_put_u32(f->o, RDMA_NLDEV_ATTR_RES_SQ_PSN, r->sq_psn);
	if (connected)
		nl_put_u8(f->o, RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE,
			  r->path_mig);
	nl_put_u8(f->o, RDMA_NLDEV_ATTR_RES_TYPE, r->type);
	nl_put_u8(f->o, RDMA_NLDEV_ATTR_RES_STATE, r->state);
	if (r->pid)
		nl_put_u32(f->o, RDMA_NLDEV_ATTR_RES_PDN, r->pdn);
}

static void fill_mr(struct fill_ctx *f, const struct sim_res *r)
{
	if (f->admin) {
		nl_put_u32(f->o, RDMA_NLDEV_ATTR_RES_RKEY, r->rkey);
		nl_put_u32(f->o, RDMA_NLDEV_ATTR_RES_LKEY, r->lkey);
	}
	nl_put_u64(f->o, RDMA_NLDEV_ATTR_RES_MRLEN, r->length);
	nl_put_u32(f->o, RDMA_NLDEV_ATTR_RES_MRN, r->id);
	nl_put_u32(f->o, RDMA_NLDEV_ATTR_RES_PDN, r->pdn);
}

static void fill_ctx(struct fill_ctx *f, const struct sim_res *r)
{
	nl_put_u32(f->o, RDMA_NLDEV_ATTR_RES_CTXN, r->id);
}

/* The QPs on an SRQ, runs of consecutive numbers as ranges. */
struct qp_runs {
	struct nl_out *o;
	uint32_t srqn, min, prev;
};

static void put_run(struct qp_runs *q)
{
	size_t e;

	if (!q->min)
		return;
	e = nl_nest_begin(q->o, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
	if (q->min == q->prev) {
		nl_put_u32(q->o, RDMA_NLDEV_ATTR_RES_LQPN, q->min);
	} else {
		nl_put_u32(q->o, RDMA_NLDEV_ATTR_MIN_RANGE, q->min);
		nl_put_u32(q->o, RDMA_NLDEV_ATTR_MAX_RANGE, q->prev);
	}
	nl_nest_end(q->o, e);
}

static int srq_qp(const struct sim_res *r, void *arg)
{
	struct qp_runs *q = arg;

	if (r->srqn != q->srqn)
		return 0;
	if (!q->min) {
		q->min = r->id;
	} else if (r->id > q->prev + 1) {
		put_run(q);
		q->min = r->id;
	}
	q->prev = r->id;
	return 0;
}

static void fill_srq(struct fill_ctx *f, const struct sim_res *r)
{
	struct qp_runs q = {.o = f->o, .srqn = r->id};
	int64_t pos = -1;
	size_t t;

	nl_put_u32(f->o, RDMA_NLDEV_ATTR_RES_SRQN, r->id);
	nl_put_u8(f->o, RDMA_NLDEV_ATTR_RES_TYPE, r->type);
	nl_put_u32(f->o, RDMA_NLDEV_ATTR_RES_PDN, r->pdn);
	if (r->cqn != ~0u)
		nl_put_u32(f->o, RDMA_NLDEV_ATTR_RES_CQN, r->cqn);
	t = nl_nest_begin(f->o, RDMA_NLDEV_ATTR_RES_QP);
	sim_res_walk(r->dev, SIM_RES_QP, &pos, srq_qp, &q);
	put_run(&q);
	nl_nest_end(f->o, t);
}

/* Each object dump: its command, table, entry, kind and filler. */
static const struct res_kind {
	uint16_t op, table, entry;
	uint8_t kind;
	void (*fill)(struct fill_ctx *f, const struct sim_res *r);
} kinds[] = {
	{RDMA_NLDEV_CMD_RES_PD_GET, RDMA_NLDEV_ATTR_RES_PD,
	 RDMA_NLDEV_ATTR_RES_PD_ENTRY, SIM_RES_PD, fill_pd},
	{RDMA_NLDEV_CMD_RES_CQ_GET, RDMA_NLDEV_ATTR_RES_CQ,
	 RDMA_NLDEV_ATTR_RES_CQ_ENTRY, SIM_RES_CQ, fill_cq},
	{RDMA_NLDEV_CMD_RES_QP_GET, RDMA_NLDEV_ATTR_RES_QP,
	 RDMA_NLDEV_ATTR_RES_QP_ENTRY, SIM_RES_QP, fill_qp},
	{RDMA_NLDEV_CMD_RES_MR_GET, RDMA_NLDEV_ATTR_RES_MR,
	 RDMA_NLDEV_ATTR_RES_MR_ENTRY, SIM_RES_MR, fill_mr},
	{RDMA_NLDEV_CMD_RES_CTX_GET, RDMA_NLDEV_ATTR_RES_CTX,
	 RDMA_NLDEV_ATTR_RES_CTX_ENTRY, SIM_RES_CTX, fill_ctx},
	{RDMA_NLDEV_CMD_RES_SRQ_GET, RDMA_NLDEV_ATTR_RES_SRQ,
	 RDMA_NLDEV_ATTR_RES_SRQ_ENTRY, SIM_RES_SRQ, fill_srq},
	/* no RDMA CM in the world: a kind without rows */
	{RDMA_NLDEV_CMD_RES_CM_ID_GET, RDMA_NLDEV_ATTR_RES_CM_ID,
	 RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY, SIM_RES_KINDS, NULL},
};

struct entry_walk {
	struct fill_ctx f;
	const struct res_kind *k;
};

/* One entry; 1 when the message is full (the entry is cancelled). */
static int put_entry(const struct sim_res *r, void *arg)
{
	struct entry_walk *w = arg;
	struct nl_out *o = w->f.o;
	size_t e;

	w->f.filled = 1;
	if (w->k->kind == SIM_RES_QP && w->f.port && r->port != w->f.port)
		return 0; /* -EAGAIN: another port's QP */
	e = nl_nest_begin(o, w->k->entry);
	w->k->fill(&w->f, r);
	put_owner(o, r);
	nl_nest_end(o, e);
	if (o->len + NLMSG_ALIGN(o->cur->nlmsg_len) > w->f.limit) {
		nl_cancel(o, e);
		return 1;
	}
	return 0;
}

static int put_entry_counted(struct sim_res *r, uint64_t users,
			     struct entry_walk *w)
{
	w->f.users = users;
	return put_entry(r, w);
}

/* The rows one walk hands out: about what a message holds, so a dump of N
 * rows walks the table N / DUMP_PAGE times. */
#define DUMP_PAGE 32
struct dump_page {
	struct sim_res row[DUMP_PAGE];
	uint64_t users[DUMP_PAGE]; /* PD, CQ: each row's usecnt */
	unsigned int n;
};

/* The users of a page's PDs or CQs (in id order, as the walk gives them),
 * counted in one scan of the table after the walk, not one per row. */
static void page_users(unsigned int dev, unsigned int kind,
		       struct dump_page *pg)
{
	uint32_t ids[DUMP_PAGE];
	unsigned int i;

	memset(pg->users, 0, sizeof(pg->users));
	if (kind != SIM_RES_PD && kind != SIM_RES_CQ)
		return;
	for (i = 0; i < pg->n; i++)
		ids[i] = pg->row[i].id;
	if (kind == SIM_RES_PD)
		sim_res_users(dev, pd_refs, ARRAY_SIZE(pd_refs), ids, pg->n,
			      pg->users);
	else
		sim_res_users(dev, cq_refs, ARRAY_SIZE(cq_refs), ids, pg->n,
			      pg->users);
}

static int collect(const struct sim_res *r, void *arg)
{
	struct dump_page *pg = arg;

	pg->row[pg->n++] = *r;
	return pg->n == DUMP_PAGE;
}

int nl_res_obj_dumpit(struct sim_nl_dump *d, struct nl_out *o, size_t limit)
{
	const struct res_kind *k = NULL;
	struct entry_walk w = {.f = {.o = o, .limit = limit}};
	struct dump_page pg;
	unsigned int i, dev;
	struct sim_res r;
	int64_t pos;
	size_t t;
	int more;

	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if (kinds[i].op == d->op)
			k = &kinds[i];
	if (!k || d->dev < 0 || !sim_dev_live(sim.sh, (unsigned int)d->dev))
		return -EINVAL;
	if (d->port > nl_nports())
		return -EINVAL;
	dev = (unsigned int)d->dev;
	w.k = k;
	w.f.port = d->port;
	w.f.admin = sim_has_cap(CAP_NET_ADMIN);
	nl_msg_begin(o, nl_type(d->op), NLM_F_MULTI, d->seq, d->pid);
	nl_put_dev(o, dev);
	t = nl_nest_begin(o, k->table);
	for (i = 0; i < kern_count(k->kind); i++) {
		if ((int64_t)kern_id(k->kind, i) <= d->last_id)
			continue;
		kern_row(&r, dev, k->kind, kern_id(k->kind, i));
		if (put_entry_counted(&r, kern_users(k->kind), &w))
			goto full;
		d->last_id = r.id;
	}
	do {
		pg.n = 0;
		pos = d->last_id;
		more = sim_res_walk(dev, k->kind, &pos, collect, &pg);
		page_users(dev, k->kind, &pg);
		for (i = 0; i < pg.n; i++) {
			if (put_entry_counted(&pg.row[i], pg.users[i], &w))
				goto full;
			d->last_id = pg.row[i].id;
		}
	} while (more);
full:
	nl_nest_end(o, t);
	nl_msg_end(o);
	if (!w.f.filled) {
		o->len = 0; /* nothing left: the dump ends */
		return 0;
	}
	return (int)o->len;
}

static void fill_summary(struct nl_out *o, const struct sim_nl_dump *d,
			 unsigned int dev)
{
	static const struct {
		const char *name;
		int kind; /* -1: none tracked here */
	} names[] = {
		{"pd", SIM_RES_PD},   {"cq", SIM_RES_CQ}, {"qp", SIM_RES_QP},
		{"cm_id", -1},	      {"mr", SIM_RES_MR}, {"ctx", SIM_RES_CTX},
		{"srq", SIM_RES_SRQ},
	};
	unsigned int i;
	size_t t, e;
	uint64_t n;

	(void)d;
	nl_put_dev(o, dev);
	t = nl_nest_begin(o, RDMA_NLDEV_ATTR_RES_SUMMARY | NLA_F_NESTED);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		n = 0;
		if (names[i].kind >= 0)
			n = kern_count((unsigned int)names[i].kind) +
			    sim_res_count(dev, (unsigned int)names[i].kind,
					  SIM_RES_ANY, 0);
		e = nl_nest_begin(o, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY |
					     NLA_F_NESTED);
		nl_put_str(o, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME,
			   names[i].name);
		nl_put_u64(o, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR, n);
		nl_nest_end(o, e);
	}
	nl_nest_end(o, t);
}

int nl_res_get_doit(struct nl_out *o, const struct nl_req *r)
{
	return nl_dev_doit(o, r, RDMA_NLDEV_CMD_RES_GET, fill_summary);
}

int nl_res_get_dumpit(struct sim_nl_dump *d, struct nl_out *o, size_t limit)
{
	return nl_dump_devs(d, o, limit, RDMA_NLDEV_CMD_RES_GET, fill_summary);
}
