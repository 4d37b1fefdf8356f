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

static void port_event(struct sim_uvfile *uv, void *arg)
{
	sim_device_event(uv, *(uint32_t *)arg, 1);
}

static void device_event(struct sim_uvfile *uv, void *arg)
{
	sim_device_event(uv, *(uint32_t *)arg, 0);
}

/* Port events on every context of the devices rule r names. */
static void for_devices(const struct sim_fault_rule *r, uint32_t event,
			void (*fn)(struct sim_uvfile *uv, void *arg))
{
	unsigned int d;

	for (d = 0; d < cfg()->ndev; d++)
		if (r->any_dev || r->dev == d)
			sim_for_each_context(d, fn, &event);
}

enum {
	IBV_EVENT_DEVICE_FATAL = 8,
	IBV_EVENT_PORT_ACTIVE = 9,
	IBV_EVENT_PORT_ERR = 10
};

/* The port went down (1) or came back (2): its events, once each. */
static void link_flap(const struct sim_fault_rule *r, unsigned int i,
		      uint64_t ms)
{
	uint8_t state = ms < r->ms			   ? 0
			: ms < (uint64_t)r->ms + r->for_ms ? 1
							   : 2;

	if (state <= done[i])
		return;
	if (state == 1 || done[i] == 1) {
		for_devices(r,
			    state == 1 ? IBV_EVENT_PORT_ERR
				       : IBV_EVENT_PORT_ACTIVE,
			    port_event);
		if (sim_tracing())
			sim_trace("fault link-flap port %s at %llu ms",
				  state == 1 ? "down" : "up",
				  (unsigned long long)ms);
	}
	done[i] = state;
}

static int on_dev(const struct sim_fault_rule *r, const struct sim_uvfile *uv)
{
	return uv && (r->any_dev || r->dev == uv->dev);
}

/* An injected async event, on every matching object of this process. A
 * QP error moves the QP to ERR as the hardware's would (its WQEs flush);
 * a fatal device takes all its QPs there. */
static void inject_event(const struct sim_fault_rule *r)
{
	struct hca_qp *qp;
	struct hca_cq *cq;
	struct hca_srq *srq;
	uint32_t e = r->event;

	if (sim_tracing())
		sim_trace("fault event %s", sim_fault_event_name(e));
	hca_stats.faults++;
	if (e == SIM_EVENT_CQ_ERR) {
		for (cq = hca_cqs; cq; cq = cq->next)
			if (cq->obj && on_dev(r, cq->uv))
				sim_async_event(cq->uv, e, cq->obj);
	} else if (e == SIM_EVENT_SRQ_ERR) {
		for (srq = hca_srqs; srq; srq = srq->next)
			if (srq->obj && on_dev(r, srq->uv))
				sim_async_event(srq->uv, e, srq->obj);
	} else if (e >= IBV_EVENT_DEVICE_FATAL) {
		for_devices(r, e,
			    e == IBV_EVENT_DEVICE_FATAL ? device_event
							: port_event);
	}
	if (e != SIM_EVENT_QP_FATAL && e != SIM_EVENT_QP_REQ_ERR &&
	    e != SIM_EVENT_QP_ACCESS_ERR && e != IBV_EVENT_DEVICE_FATAL)
		return;
	for (qp = hca_qps; qp; qp = qp->next) {
		if (!qp->obj || !on_dev(r, qp->uv) ||
		    (r->qpn && r->qpn != qp->qpn))
			continue;
		if (e != IBV_EVENT_DEVICE_FATAL)
			sim_async_event(qp->uv, e, qp->obj);
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

uint8_t hca_fault_wqe(struct hca_qp *qp)
{
	const struct sim_config *c = cfg();
	const struct sim_fault_rule *r;
	unsigned int i;

	if (!c->nfaults)
		return 0;
	qp->faults_sent++;
	for (i = 0, r = c->faults; i < c->nfaults; i++, r++) {
		if (r->kind != SIM_FAULT_CQE_ERR ||
		    !matches(r, qp->dev, qp->qpn) || r->wqe != qp->faults_sent)
			continue;
		hca_stats.faults++;
		if (sim_tracing())
			sim_trace("fault cqe-error qp %#x wqe %u status %s",
				  qp->qpn, r->wqe,
				  sim_fault_status_name(r->status));
		return (uint8_t)r->status;
	}
	return 0;
}
