// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe's wire. Its packets travel as every simulated port's do, through
 * the fabric (hw/fabric): one receive ring per process, a QP reachable at
 * (device, QP number). The packets of an rxe QP are executed by the
 * process that owns its rings, in its engine thread, the way the kernel's
 * rxe runs its tasks: rxe_rcv hands request packets to the responder and
 * responses to the completer; rxe_step runs the requester where it was
 * held (no room on the wire, an RNR wait), the completer's timers and
 * the flushes of QPs in ERR. Addresses are RoCE v2 ones: the AV's GRH
 * names the SGID (its IPv4-mapped or IPv6 address) and its MAC the port
 * that receives; the 40 bytes before a UD payload are the IPv4 header
 * (after 20 zero bytes) or the IPv6 header the datagram came in, its
 * lengths counting ImmDt and pad (hca_ud_paylen). The IPv4 header's
 * identification, which the kernel picks per packet, stays 0 here.
 */
#include "rxe.h"
#include "netdev.h"
#include "dev_event.h"

#include <endian.h>
#include <errno.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static struct rxe_sim_qp *qps;
static pid_t qps_pid;

struct rxe_sim_qp *rxe_qp_find(unsigned int dev, uint32_t qpn)
{
	struct rxe_sim_qp *q;

	if (qps_pid != getpid())
		return NULL; /* a fork child: the parent's QPs are not here */
	for (q = qps; q; q = q->next)
		if (q->qpn == qpn && q->dev == dev)
			return q;
	return NULL;
}

void rxe_qp_add(struct rxe_sim_qp *q)
{
	if (qps_pid != getpid()) {
		qps = NULL;
		qps_pid = getpid();
	}
	q->next = qps;
	qps = q;
}

void rxe_qp_del(struct rxe_sim_qp *q)
{
	struct rxe_sim_qp **p;

	for (p = &qps; *p; p = &(*p)->next) {
		if (*p == q) {
			*p = q->next;
			return;
		}
	}
}

unsigned int rxe_av_dev(unsigned int dev, const struct sim_ah_attr *ah)
{
	struct sim_netdev *nd = sim_netdev_by_mac(sim.sh, ah->dmac);
	static const uint8_t zero[6];

	if (nd)
		return nd->dev;
	/* lo's MAC (all zero) loops back to the sending port */
	return memcmp(ah->dmac, zero, 6) ? SIM_NO_DEVICE : dev;
}

uint32_t rxe_port_mtu(unsigned int dev)
{
	struct sim_netdev *nd = sim_netdev_of(sim.sh, dev, 1);
	unsigned int m = nd ? sim_roce_active_mtu(nd->mtu) : 0;

	return m ? 128u << m : 256;
}

uint32_t rxe_path_mtu(const struct rxe_sim_qp *q)
{
	uint8_t m = q->qp->attr.path_mtu;

	if (q->qp->qp_type == IB_QPT_UD || m < 1 || m > 5)
		return rxe_port_mtu(q->dev);
	return 128u << m;
}

void rxe_pkt_addr(const struct rxe_sim_qp *q, const struct sim_ah_attr *av,
		  struct hca_pkt *p)
{
	struct sim_netdev *nd = sim_netdev_of(sim.sh, q->dev, 1);
	struct sim_gid_slot g;

	p->src_dev = (uint16_t)q->dev;
	p->src_qpn = q->qpn;
	p->gid_type = SIM_GID_ROCE_V2;
	/* TOS/traffic class and TTL/hop limit are the AV's (a user AH's hop
	 * limit is the route's: the core resolved it); rxe's IPv6 header
	 * carries flow label 0, whatever the AV says */
	p->tclass = av->traffic_class;
	p->hop_limit = av->hop_limit;
	p->flow_label = 0;
	p->udp_sport = q->src_port;
	memcpy(p->dgid, av->dgid, 16);
	if (nd && !sim_gid_get(sim.sh, nd, av->sgid_index, &g))
		memcpy(p->sgid, g.gid, 16);
}

int rxe_xmit(struct rxe_sim_qp *q, struct hca_pkt *p, const struct iovec *iov,
	     int n, int request)
{
	if (q->qp->qp_type != IB_QPT_UD) {
		rxe_pkt_addr(q, &q->qp->attr.ah, p);
		p->dst_dev = (uint16_t)q->dst_dev;
		p->dst_qpn = q->qp->attr.dest_qp_num;
	}
	if (p->dst_dev == SIM_NO_DEVICE)
		return -EHOSTUNREACH;
	hca_trace_udp_sport(q->dev, q->qpn, p, &q->traced_sport);
	return hca_fabric_send_mark(p, iov, n, request ? &q->comp.mark : NULL);
}

static int v4_mapped(const uint8_t *g)
{
	static const uint8_t pre[12] = {[10] = 0xff, [11] = 0xff};

	return !memcmp(g, pre, sizeof(pre));
}

void rxe_net_hdr(const struct hca_pkt *p, uint8_t hdr[40])
{
	struct ipv6hdr h6 = {0};
	struct iphdr h4 = {0};
	uint32_t sum = 0, fl;
	uint16_t w[10];
	unsigned int i;

	memset(hdr, 0, 40);
	if (v4_mapped(p->sgid)) {
		h4.version = 4;
		h4.ihl = 5;
		h4.tos = p->tclass;
		h4.tot_len = htobe16((uint16_t)(20 + hca_ud_paylen(p, 1)));
		h4.frag_off = htobe16(0x4000); /* don't fragment */
		h4.ttl = p->hop_limit;
		h4.protocol = IPPROTO_UDP;
		memcpy(&h4.saddr, p->sgid + 12, 4);
		memcpy(&h4.daddr, p->dgid + 12, 4);
		memcpy(w, &h4, sizeof(w));
		for (i = 0; i < 10; i++)
			sum += be16toh(w[i]);
		sum = (sum & 0xffff) + (sum >> 16);
		sum += sum >> 16;
		h4.check = htobe16((uint16_t)~sum);
		memcpy(hdr + 20, &h4, sizeof(h4));
		return;
	}
	fl = p->flow_label & 0xfffff;
	h6.version = 6;
	h6.priority = p->tclass >> 4;
	h6.flow_lbl[0] = (uint8_t)((p->tclass & 0xf) << 4 | fl >> 16);
	h6.flow_lbl[1] = (uint8_t)(fl >> 8);
	h6.flow_lbl[2] = (uint8_t)fl;
	h6.payload_len = htobe16(hca_ud_paylen(p, 1));
	h6.nexthdr = IPPROTO_UDP;
	h6.hop_limit = p->hop_limit;
	memcpy(&h6.saddr, p->sgid, 16);
	memcpy(&h6.daddr, p->dgid, 16);
	memcpy(hdr, &h6, sizeof(h6));
}

struct sim_ah *rxe_ah_find(struct sim_uvfile *uv, uint32_t ah_num)
{
	struct sim_obj *o;

	for (o = uv->objs; o; o = o->next)
		if (o->type == &sim_type_ah && o->live &&
		    (uintptr_t)o->drv == ah_num)
			return sim_ah(o);
	return NULL;
}

/* Packets taken from this process's ring, past --fault's wire rules and
 * the port's counters (the HCA's receive entry, hca_rx.c: hca_soft). */
static void rxe_rcv(const struct hca_pkt *p, const uint8_t *payload)
{
	struct rxe_sim_qp *q = rxe_qp_find(p->dst_dev, p->dst_qpn);

	if (!q)
		return; /* no such QP here: lost */
	if (p->op == HCA_PKT_ACK || p->op == HCA_PKT_NAK ||
	    p->op == HCA_PKT_READ_RESP || p->op == HCA_PKT_ATOMIC_RESP)
		rxe_comp_rcv(q, p, payload);
	else
		rxe_resp_rcv(q, p, payload);
}

static int rxe_step(uint64_t now)
{
	struct rxe_sim_qp *q;
	int did = 0;

	if (qps_pid != getpid())
		return 0;
	for (q = qps; q; q = q->next) {
		did |= rxe_resp_flush(q); /* a last NAK may wait there */
		if (q->qp->attr.qp_state == IB_QPS_ERR) {
			did |= rxe_flush(q);
			continue;
		}
		did |= rxe_completer(q, now);
		did |= rxe_requester(q);
	}
	return did;
}

static uint64_t *rxe_rx_count(const struct hca_pkt *p)
{
	struct rxe_sim_qp *q = rxe_qp_find(p->dst_dev, p->dst_qpn);

	return q ? &q->rx_pkts : NULL;
}

static const struct hca_soft_ops rxe_soft = {
	.rcv = rxe_rcv,
	.step = rxe_step,
	.rx_count = rxe_rx_count,
};

int rxe_net_open(struct rxe_sim_qp *q)
{
	int ret = hca_fabric_attach(q->dev, q->qpn);

	if (ret)
		return ret;
	hca_soft = &rxe_soft;
	/* the shared engine's port events (--fault link-flap) reach the
	 * contexts through rxe's event queue: device-wide EQEs only, rxe
	 * has no affiliated ones from the HCA */
	sim_drv_eq_open(sim_drv_dev_event);
	hca_engine_start();
	return 0;
}
