// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * --fault: the wire, the HCA and the kernel misbehaving on purpose.
 *
 * Wire faults act where a packet arrives: as the receiving engine takes it
 * from its ring (hca_fabric_poll), before the QP sees it. Whether a rate
 * rule fires is a hash of the seed, the rule, the receiving QP and how
 * many packets that QP has received, so the same program with the same
 * seed meets the same faults however the processes are scheduled. A
 * delayed or reordered packet is copied aside and handed over later; a
 * corrupt one fails its ICRC check and is dropped; while a port is down
 * (link-flap) every packet from or to it is lost.
 *
 * Timed rules (link-flap, event) count milliseconds from the world's
 * start; each process's engine applies them to its own contexts and
 * objects when it passes that time.
 */
#include "hca.h"
#include "hca_cmd.h"

#include <stdlib.h>
#include <string.h>

/* A packet set aside by delay or reorder. */
struct held {
	struct held *next;
	uint64_t due;	   /* hand over at this time at the latest */
	uint64_t after_rx; /* ... or once this many packets arrived */
	struct hca_pkt p;
	uint8_t data[];
};

static struct held *held_head, **held_tail = &held_head;
static uint64_t rx_seen;	     /* packets this process took */
static uint8_t done[SIM_MAX_FAULTS]; /* timed rules: what was applied */

static const char *const pkt_names[] = {
	[HCA_PKT_SEND] = "SEND",
	[HCA_PKT_WRITE] = "WRITE",
	[HCA_PKT_READ_REQ] = "READ_REQ",
	[HCA_PKT_READ_RESP] = "READ_RESP",
	[HCA_PKT_CS] = "CMP_SWAP",
	[HCA_PKT_FA] = "FETCH_ADD",
	[HCA_PKT_ATOMIC_RESP] = "ATOMIC_RESP",
	[HCA_PKT_ACK] = "ACK",
	[HCA_PKT_NAK] = "NAK",
	[HCA_PKT_XRC_ERR] = "XRC_ERR",
};

static const struct sim_config *cfg(void)
{
	return &sim.sh->cfg;
}

static uint64_t ms_since_start(uint64_t now)
{
	return now > cfg()->start_ns ? (now - cfg()->start_ns) / 1000000 : 0;
}

/* splitmix64: a well-mixed 64-bit value from its input */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static int fires(const struct sim_fault_rule *r, unsigned int i,
		 const struct hca_pkt *p, uint64_t n)
{
	uint64_t h;

	if (r->upto && n > r->upto)
		return 0;
	if (r->packet)
		return n == r->packet;
	h = mix(cfg()->seed ^
		mix((uint64_t)i << 56 ^ (uint64_t)p->dst_dev << 32 ^
		    p->dst_qpn) ^
		mix(n));
	return h % 1000000 < r->rate;
}

static int matches(const struct sim_fault_rule *r, unsigned int dev,
		   uint32_t qpn)
{
	return (r->any_dev || r->dev == dev) && (!r->qpn || r->qpn == qpn);
}

static void trace_pkt(const char *what, const struct hca_pkt *p, uint64_t n)
{
	hca_stats.faults++;
	if (!sim_tracing())
		return;
	sim_trace("fault %s dev %u qp %#x pkt %llu %s psn %#x len %u", what,
		  p->dst_dev, p->dst_qpn, (unsigned long long)n,
		  p->op < sizeof(pkt_names) / sizeof(pkt_names[0]) &&
				  pkt_names[p->op]
			  ? pkt_names[p->op]
			  : "?",
		  p->psn, p->len);
}

static void hold(const struct hca_pkt *p, const uint8_t *payload, uint64_t due,
		 uint64_t after_rx)
{
	struct held *h = malloc(sizeof(*h) + p->len);

	if (!h)
		return; /* no memory: the packet is lost, as a full queue */
	h->next = NULL;
	h->due = due;
	h->after_rx = after_rx;
	h->p = *p;
	memcpy(h->data, payload, p->len);
	*held_tail = h;
	held_tail = &h->next;
}

int hca_fault_rx(const struct hca_pkt *p, const uint8_t *payload)
{
	const struct sim_config *c = cfg();
	const struct sim_fault_rule *r;
	struct hca_qp *qp;
	unsigned int i;
	uint64_t now, *rx;

	rx_seen++;
	if (!c->nfaults)
		return 0;
	now = hca_now();
	if (sim_fault_link_down(c->faults, c->nfaults, ms_since_start(now),
				p->src_dev) ||
	    sim_fault_link_down(c->faults, c->nfaults, ms_since_start(now),
				p->dst_dev)) {
		trace_pkt("link-down", p, 0);
		return 1;
	}
	qp = hca_qp_by_qpn(p->dst_dev, p->dst_qpn);
	/* a software device's QPs keep their own count */
	rx = qp ? &qp->rx_pkts : hca_soft ? hca_soft->rx_count(p) : NULL;
	if (!rx)
		return 0;
	(*rx)++;
	for (i = 0, r = c->faults; i < c->nfaults; i++, r++) {
		if (!SIM_FAULT_ON_WIRE(r->kind) ||
		    !matches(r, p->dst_dev, p->dst_qpn) ||
		    !fires(r, i, p, *rx))
			continue;
		trace_pkt(sim_fault_kind_name(r->kind), p, *rx);
		switch (r->kind) {
		case SIM_FAULT_DUP:
			hca_rx_deliver(p, payload);
			hca_rx_deliver(p, payload);
			break;
		case SIM_FAULT_REORDER: /* behind the next packet */
			hold(p, payload, now + 1000000, rx_seen + 1);
			break;
		case SIM_FAULT_DELAY:
			hold(p, payload, now + r->ms * 1000000ull, 0);
			break;
		}
		return 1; /* DROP, CORRUPT: not delivered */
	}
	return 0;
}

/* Hand over what delay and reorder set aside, once it is due. */
static int release(uint64_t now)
{
	struct held **pp = &held_head, *h;
	int did = 0;

	while ((h = *pp)) {
		if (now < h->due && (!h->after_rx || rx_seen < h->after_rx)) {
			pp = &h->next;
			continue;
		}
		*pp = h->next;
		if (held_tail == &h->next)
			held_tail = pp;
		hca_rx_deliver(&h->p, h->data);
		free(h);
		did = 1;
	}
	return did;
}

/*
 * The EQE an injected ibv_event_type becomes, as the firmware would raise
 * it, and what it is affiliated with (mlx5_ib turns it back).
 */
enum { ON_CQ, ON_SRQ, ON_QP, ON_DEV };
static const struct {
	uint8_t ibv, eqe, sub, on;
} inject[] = {
	{0, HCA_EQE_CQ_ERROR, 0, ON_CQ},		/* CQ_ERR */
	{1, HCA_EQE_WQ_CATAS_ERROR, 0, ON_QP},		/* QP_FATAL */
	{2, HCA_EQE_WQ_INVAL_REQ_ERROR, 0, ON_QP},	/* QP_REQ_ERR */
	{3, HCA_EQE_WQ_ACCESS_ERROR, 0, ON_QP},		/* QP_ACCESS_ERR */
	{8, HCA_EQE_INTERNAL_ERROR, 0, ON_DEV},		/* DEVICE_FATAL */
	{9, HCA_EQE_PORT_CHANGE, HCA_PORT_ACTIVE, ON_DEV},
	{10, HCA_EQE_PORT_CHANGE, HCA_PORT_DOWN, ON_DEV},
	{11, HCA_EQE_PORT_CHANGE, HCA_PORT_LID, ON_DEV},
	{12, HCA_EQE_PORT_CHANGE, HCA_PORT_PKEY, ON_DEV},
	{13, HCA_EQE_PORT_CHANGE, HCA_PORT_SM, ON_DEV},
	{14, HCA_EQE_SRQ_CATAS_ERROR, 0, ON_SRQ},	/* SRQ_ERR */
	{17, HCA_EQE_PORT_CHANGE, HCA_PORT_CLIENT_REREG, ON_DEV},
	{18, HCA_EQE_PORT_CHANGE, HCA_PORT_GUID, ON_DEV},
};

/* A port or device EQE on every device rule r names (port 1). */
static void for_devices(const struct sim_fault_rule *r, uint8_t eqe,
			uint8_t sub)
{
	unsigned int d;

	for (d = 0; d < cfg()->ndev; d++)
		if (r->any_dev || r->dev == d)
			hca_eq_post(eqe, sub, d, eqe == HCA_EQE_PORT_CHANGE);
}

/* The port went down (1) or came back (2): its events, once each. */
static void link_flap(const struct sim_fault_rule *r, unsigned int i,
		      uint64_t ms)
{
	uint8_t state = ms < r->ms			   ? 0
			: ms < (uint64_t)r->ms + r->for_ms ? 1
							   : 2;

	/* each transition once, in order: an engine that first looks after
	 * the window (a slow start on a loaded host) still saw the port go
	 * down and come back */
	while (done[i] < state) {
		done[i]++;
		for_devices(r, HCA_EQE_PORT_CHANGE,
			    done[i] == 1 ? HCA_PORT_DOWN : HCA_PORT_ACTIVE);
		if (sim_tracing())
			sim_trace("fault link-flap port %s at %llu ms",
				  done[i] == 1 ? "down" : "up",
				  (unsigned long long)ms);
	}
}

static int on_dev(const struct sim_fault_rule *r, unsigned int dev)
{
	return r->any_dev || r->dev == dev;
}

/* An injected async event, on every matching object of this process. A
 * QP error moves the QP to ERR as the hardware's would (its WQEs flush);
 * a fatal device takes all its QPs there. */
static void inject_event(const struct sim_fault_rule *r)
{
	struct hca_qp *qp;
	struct hca_cq *cq;
	struct hca_srq *srq;
	size_t k;

	if (sim_tracing())
		sim_trace("fault event %s", sim_fault_event_name(r->event));
	hca_stats.faults++;
	for (k = 0; k < sizeof(inject) / sizeof(inject[0]); k++)
		if (inject[k].ibv == r->event)
			break;
	if (k == sizeof(inject) / sizeof(inject[0]))
		return;
	if (inject[k].on == ON_CQ)
		for (cq = hca_cqs; cq; cq = cq->next)
			if (on_dev(r, cq->dev))
				hca_eq_post(inject[k].eqe, 0, cq->dev, cq->cqn);
	if (inject[k].on == ON_SRQ)
		for (srq = hca_srqs; srq; srq = srq->next)
			if (on_dev(r, srq->dev))
				hca_eq_post(inject[k].eqe, 0, srq->dev,
					    srq->srqn);
	if (inject[k].on == ON_DEV)
		for_devices(r, inject[k].eqe, inject[k].sub);
	if (inject[k].on != ON_QP && inject[k].eqe != HCA_EQE_INTERNAL_ERROR)
		return;
	for (qp = hca_qps; qp; qp = qp->next) {
		if (!on_dev(r, qp->dev) || (r->qpn && r->qpn != qp->qpn))
			continue;
		if (inject[k].on == ON_QP)
			hca_eq_post(inject[k].eqe, 0, qp->dev, qp->qpn);
		hca_qp_to_err(qp);
	}
}

int hca_fault_step(uint64_t now)
{
	const struct sim_config *c = cfg();
	const struct sim_fault_rule *r;
	unsigned int i;
	uint64_t ms;
	int did;

	if (!c->nfaults)
		return 0;
	did = held_head ? release(now) : 0;
	ms = ms_since_start(now);
	for (i = 0, r = c->faults; i < c->nfaults; i++, r++) {
		if (r->kind == SIM_FAULT_LINK_FLAP) {
			link_flap(r, i, ms);
		} else if (r->kind == SIM_FAULT_EVENT && !done[i] &&
			   ms >= r->ms) {
			done[i] = 1;
			inject_event(r);
			did = 1;
		}
	}
	return did;
}

uint32_t hca_fault_cqe_error(unsigned int dev, uint32_t qpn, uint32_t *sent)
{
	const struct sim_config *c = cfg();
	const struct sim_fault_rule *r;
	unsigned int i;

	if (!c->nfaults)
		return 0;
	++*sent;
	for (i = 0, r = c->faults; i < c->nfaults; i++, r++) {
		if (r->kind != SIM_FAULT_CQE_ERR || !matches(r, dev, qpn) ||
		    r->wqe != *sent)
			continue;
		hca_stats.faults++;
		if (sim_tracing())
			sim_trace("fault cqe-error qp %#x wqe %u status %s",
				  qpn, r->wqe, sim_fault_status_name(r->status));
		return r->status;
	}
	return 0;
}

uint8_t hca_fault_wqe(struct hca_qp *qp)
{
	return (uint8_t)hca_fault_cqe_error(qp->dev, qp->qpn,
					    &qp->faults_sent);
}
