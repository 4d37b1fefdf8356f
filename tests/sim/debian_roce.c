// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A RoCE port as a program sees it, under rdma-sim with the device's port
 * on Ethernet (its netdev eth0 in the world's own network namespace):
 * port attributes, the GID table built from eth0's addresses (query_gid,
 * query_gid_ex, query_gid_table, sysfs), the table and the port following
 * `ip addr` and `ip link` with GID_CHANGE, PORT_ERR and PORT_ACTIVE, an AH
 * that needs a GRH, and (--data) UD datagrams, with and without an
 * immediate, padded or not, whose receive buffer starts with the IPv4
 * header a RoCE v2 packet over IPv4 carries, the IPv6 header of v2 over
 * IPv6, v1's GRH (byte for byte, lengths and SGID included), and
 * ibv_init_ah_from_wc reading them back.
 * Usage: debian_roce DEV v1|v2only [--data]
 */
#include <arpa/inet.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <net/if.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "judge.h"
#include "qp_link.h"

#define LIMIT_MS 5000
#define QKEY	 0x11111111u

static struct ibv_context *ctx;
static int has_v1; /* mlx5: v1 and v2 GIDs; rxe: v2 only */
static int is_rxe;

/* The UD AH's hop limit and flow label, and what the header the receiver
 * gets carries. libmlx5 builds its AV in userspace from the attributes.
 * rxe's AH is the kernel's: rdma_create_user_ah (ib_resolve_eth_dmac)
 * replaces its hop limit with the route's (64, ip_default_ttl and the
 * IPv6 hop_limit), which rxe's prepare4/prepare6 put in the TTL or hop
 * limit, and prepare6 writes flow label 0 (ip6_flow_hdr), whatever the
 * AV holds. ibv_init_ah_from_wc reads the hop limit back from there. */
#define AH_HOP	33
#define AH_FLOW 0x12345u

static uint8_t wire_hop(void)
{
	return is_rxe ? 64 : AH_HOP;
}

static uint32_t wire_flow(void)
{
	return is_rxe ? 0 : AH_FLOW;
}

static void gid_of_ip(const char *ip, union ibv_gid *g)
{
	memset(g, 0, sizeof(*g));
	if (strchr(ip, ':')) {
		inet_pton(AF_INET6, ip, g->raw);
		return;
	}
	g->raw[10] = g->raw[11] = 0xff;
	inet_pton(AF_INET, ip, g->raw + 12);
}

/* Index of (ip, type) in the table, or -1. */
static int find_gid(const char *ip, enum ibv_gid_type type)
{
	struct ibv_gid_entry e[64];
	union ibv_gid g;
	ssize_t n, i;

	gid_of_ip(ip, &g);
	n = ibv_query_gid_table(ctx, e, 64, 0);
	CHECK(n > 0, "query_gid_table: %zd (%s)", n, strerror(errno));
	for (i = 0; i < n; i++)
		if (!memcmp(e[i].gid.raw, g.raw, 16) && e[i].gid_type == type)
			return (int)e[i].gid_index;
	return -1;
}

/* The next async event within LIMIT_MS, or -1. */
static int next_event(void)
{
	struct pollfd p = {.fd = ctx->async_fd, .events = POLLIN};
	struct ibv_async_event ev;
	int type;

	if (poll(&p, 1, LIMIT_MS) != 1)
		return -1;
	if (ibv_get_async_event(ctx, &ev))
		return -1;
	type = ev.event_type;
	CHECK(ev.element.port_num == 1, "event %d on port %d", type,
	      ev.element.port_num);
	ibv_ack_async_event(&ev);
	return type;
}

static void expect_events(int type, int n, const char *why)
{
	int i, got;

	for (i = 0; i < n; i++) {
		got = next_event();
		CHECK(got == type, "%s: event %d of %d is %d, want %d", why,
		      i + 1, n, got, type);
	}
}

static void sh(const char *cmd)
{
	CHECK(system(cmd) == 0, "'%s' failed", cmd);
}

static void check_port(void)
{
	struct ibv_port_attr pa;

	CHECK(!ibv_query_port(ctx, 1, &pa), "query_port");
	CHECK(pa.link_layer == IBV_LINK_LAYER_ETHERNET, "link layer %d",
	      pa.link_layer);
	CHECK(pa.state == IBV_PORT_ACTIVE, "state %d", pa.state);
	CHECK(pa.active_mtu == IBV_MTU_1024, "active mtu %d (netdev 1500)",
	      pa.active_mtu);
	CHECK(pa.lid == 0 && pa.sm_lid == 0, "lid %u sm_lid %u", pa.lid,
	      pa.sm_lid);
	CHECK(pa.gid_tbl_len == (has_v1 ? 255 : 1024), "gid_tbl_len %d",
	      pa.gid_tbl_len);
	sh("ip link set eth0 mtu 9000");
	usleep(200000);
	CHECK(!ibv_query_port(ctx, 1, &pa) && pa.active_mtu == IBV_MTU_4096,
	      "active mtu %d at netdev mtu 9000", pa.active_mtu);
	sh("ip link set eth0 mtu 1500");
}

static void check_table(void)
{
	struct ibv_gid_entry e;
	union ibv_gid g, want;
	int v4 = find_gid("192.168.1.1", IBV_GID_TYPE_ROCE_V2);
	int v6 = find_gid("fd00::1", IBV_GID_TYPE_ROCE_V2);
	char path[128], buf[64] = "";
	FILE *f;

	/* defaults first, then IPv4, then IPv6; v1 before v2 */
	CHECK(v4 == (has_v1 ? 3 : 1), "::ffff:192.168.1.1 v2 at %d", v4);
	CHECK(v6 == (has_v1 ? 5 : 2), "fd00::1 v2 at %d", v6);
	if (has_v1)
		CHECK(find_gid("192.168.1.1", IBV_GID_TYPE_ROCE_V1) == 2,
		      "the v1 entry of 192.168.1.1");
	CHECK(!ibv_query_gid_ex(ctx, 1, (uint32_t)v4, &e, 0), "gid_ex %d: %s",
	      v4, strerror(errno));
	CHECK(e.ndev_ifindex == if_nametoindex("eth0"), "ifindex %u",
	      e.ndev_ifindex);
	CHECK(!ibv_query_gid_ex(ctx, 1, 0, &e, 0) &&
		      e.gid.raw[0] == 0xfe && e.gid.raw[1] == 0x80 &&
		      e.gid.raw[11] == 0xff && e.gid.raw[12] == 0xfe,
	      "default GID fe80:: + EUI-64 of the MAC");
	errno = 0;
	CHECK(ibv_query_gid_ex(ctx, 1, 100, &e, 0) == ENODATA,
	      "empty slot: %s", strerror(errno));
	CHECK(ibv_query_gid_ex(ctx, 1, 5000, &e, 0) == EINVAL,
	      "beyond the table");
	memset(&g, 0xaa, sizeof(g));
	memset(&want, 0, sizeof(want));
	CHECK(!ibv_query_gid(ctx, 1, 100, &g) && !memcmp(&g, &want, 16),
	      "query_gid of an empty slot: zero GID, success");
	snprintf(path, sizeof(path),
		 "/sys/class/infiniband/%s/ports/1/gid_attrs/ndevs/%d",
		 ibv_get_device_name(ctx->device), v4);
	f = fopen(path, "r");
	CHECK(f && fgets(buf, sizeof(buf), f) && !strcmp(buf, "eth0\n"),
	      "%s: '%s'", path, buf);
	if (f)
		fclose(f);
}

static void check_changes(void)
{
	struct ibv_port_attr pa;
	int n = has_v1 ? 2 : 1, i, st = 0;

	sh("ip addr add 10.7.7.7/24 dev eth0");
	expect_events(IBV_EVENT_GID_CHANGE, n, "address added");
	/* after the defaults, IPv4 and IPv6 entries: mlx5 6 and 7, rxe 3 */
	CHECK(find_gid("10.7.7.7", IBV_GID_TYPE_ROCE_V2) == (has_v1 ? 7 : 3),
	      "10.7.7.7 in the lowest free slot: %d",
	      find_gid("10.7.7.7", IBV_GID_TYPE_ROCE_V2));
	sh("ip addr del 10.7.7.7/24 dev eth0");
	expect_events(IBV_EVENT_GID_CHANGE, n, "address removed");
	CHECK(find_gid("10.7.7.7", IBV_GID_TYPE_ROCE_V2) < 0, "still there");
	/* admin down: PORT_ERR, and IPv6 drops its address (one event per
	 * GID; its link-local is the default GID, which stays) */
	sh("ip link set eth0 down");
	for (i = 0; i < 1 + n; i++)
		st |= 1 << next_event();
	CHECK(st == (1 << IBV_EVENT_PORT_ERR | 1 << IBV_EVENT_GID_CHANGE),
	      "down: events %#x", st);
	CHECK(!ibv_query_port(ctx, 1, &pa) && pa.state == IBV_PORT_DOWN,
	      "state %d after ip link set down", pa.state);
	CHECK(find_gid("fd00::1", IBV_GID_TYPE_ROCE_V2) < 0,
	      "IPv6 GID kept over admin-down");
	CHECK(find_gid("192.168.1.1", IBV_GID_TYPE_ROCE_V2) >= 0,
	      "IPv4 GID lost over admin-down");
	sh("ip link set eth0 up");
	expect_events(IBV_EVENT_PORT_ACTIVE, 1, "up");
	CHECK(!ibv_query_port(ctx, 1, &pa) && pa.state == IBV_PORT_ACTIVE,
	      "state %d after ip link set up", pa.state);
	sh("ip addr add fd00::1/64 dev eth0 nodad");
	expect_events(IBV_EVENT_GID_CHANGE, n, "IPv6 address back");
}

/* create_ah from sgid to dst fails with err (0: succeeds). */
static void ah_case(struct ibv_pd *pd, int sgid, const char *dst, int err)
{
	struct ibv_ah_attr a = {.port_num = 1, .is_global = 1,
				.grh = {.sgid_index = (uint8_t)sgid,
					.hop_limit = 1}};
	struct ibv_ah *ah;

	gid_of_ip(dst, &a.grh.dgid);
	errno = 0;
	ah = ibv_create_ah(pd, &a);
	CHECK(err ? !ah && errno == err : !!ah, "AH sgid %d to %s: %s", sgid,
	      dst, ah ? "created" : strerror(errno));
	if (ah)
		ibv_destroy_ah(ah);
}

/* The kernel's AV rules on RoCE: a GRH, one address family, a route,
 * a neighbour that answers within 1000 ms. */
static void check_ah(struct ibv_pd *pd)
{
	struct ibv_ah_attr a = {.port_num = 1, .dlid = 1};
	int v4 = find_gid("192.168.1.1", IBV_GID_TYPE_ROCE_V2);
	int v6 = find_gid("fd00::1", IBV_GID_TYPE_ROCE_V2);
	struct timespec t0, t1;
	struct ibv_ah *ah;
	long ms;

	errno = 0;
	ah = ibv_create_ah(pd, &a);
	CHECK(!ah && errno == EINVAL, "AH without GRH on RoCE: %p %s", ah,
	      strerror(errno));
	if (ah)
		ibv_destroy_ah(ah);
	ah_case(pd, v4, "192.168.1.1", 0);
	ah_case(pd, v6, "fd00::1", 0);
	ah_case(pd, v4, "fd00::1", EINVAL);
	ah_case(pd, v6, "2001:db8::1", ENETUNREACH);
	ah_case(pd, v4, "239.1.2.3", 0); /* multicast: no lookup */
	/* nobody on the switch has 192.168.1.77: ARP goes unanswered */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ah_case(pd, v4, "192.168.1.77", ETIMEDOUT);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 +
	     (t1.tv_nsec - t0.tv_nsec) / 1000000;
	CHECK(ms >= 900, "gave up on the neighbour after %ld ms", ms);
	/* a neighbour the administrator set answers at once */
	sh("ip neigh add 192.168.1.78 lladdr 02:00:00:00:00:78 dev eth0");
	ah_case(pd, v4, "192.168.1.78", 0);
}

/* MODIFY_QP of an RC QP on RoCE: the kernel resolves its AV too, and the
 * route's hop limit replaces the caller's. */
static void check_rc_av(struct ibv_pd *pd)
{
	struct ibv_cq *cq = ibv_create_cq(ctx, 4, NULL, NULL, 0);
	struct ibv_qp *qp = cq ? qp_link_rc_qp(pd, cq, cq, 1) : NULL;
	union ibv_gid far, self;
	struct ibv_qp_init_attr qi;
	struct ibv_qp_attr qa;
	struct qp_link l;

	CHECK(qp, "RC QP: %s", strerror(errno));
	if (!qp)
		goto out;
	gid_of_ip("192.168.1.77", &far);
	gid_of_ip("192.168.1.1", &self);
	l = qp_link_default(qp->qp_num);
	l.sgid_index = (uint8_t)find_gid("192.168.1.1", IBV_GID_TYPE_ROCE_V2);
	l.hop_limit = 7;
	l.dgid = &far;
	CHECK(qp_link_up(qp, &l) == ETIMEDOUT,
	      "RC to an unanswered neighbour");
	l.dgid = &self;
	CHECK(!qp_link_up(qp, &l), "RC to RTS");
	CHECK(!ibv_query_qp(qp, &qa, IBV_QP_AV, &qi) &&
		      qa.ah_attr.grh.hop_limit == 64,
	      "RC AV hop limit %u, want the route's 64",
	      qa.ah_attr.grh.hop_limit);
	ibv_destroy_qp(qp);
out:
	if (cq)
		ibv_destroy_cq(cq);
}

struct ud {
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t buf[4096];
};

static struct ibv_qp *ud_qp(struct ibv_pd *pd, struct ibv_cq *cq)
{
	struct ibv_qp_init_attr ia = {.send_cq = cq, .recv_cq = cq,
				      .qp_type = IBV_QPT_UD,
				      .cap = {.max_send_wr = 4,
					      .max_recv_wr = 4,
					      .max_send_sge = 1,
					      .max_recv_sge = 1}};
	struct ibv_qp *qp = ibv_create_qp(pd, &ia);
	struct qp_link l = qp_link_default(0);

	l.qkey = QKEY;
	if (qp && qp_link_up(qp, &l)) {
		ibv_destroy_qp(qp);
		return NULL;
	}
	return qp;
}

static int poll_one(struct ibv_cq *cq, struct ibv_wc *wc)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (ibv_poll_cq(cq, 1, wc) == 1)
			return 0;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000 > LIMIT_MS)
			return -1;
	}
}

static uint16_t csum(const uint8_t *h)
{
	uint32_t s = 0;
	int i;

	for (i = 0; i < 20; i += 2)
		s += (uint32_t)(h[i] << 8 | h[i + 1]);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/* A datagram: its source GID (by address and type), an immediate or
 * not, its length (61: padded to 64 on the wire). */
struct ud_case {
	const char *ip;
	enum ibv_gid_type type;
	int imm;
	uint32_t len;
};

/* One datagram of case c to itself; the receive's first 40 bytes. */
static void ud_send(struct ibv_pd *pd, struct ud *u, const struct ud_case *c,
		    int sgid, uint8_t *hdr)
{
	struct ibv_ah_attr a = {.port_num = 1, .is_global = 1,
				.grh = {.sgid_index = (uint8_t)sgid,
					.hop_limit = AH_HOP,
					.flow_label = AH_FLOW,
					.traffic_class = 0x20}};
	struct ibv_sge rs = {(uintptr_t)u->buf, 40 + 64, u->mr->lkey};
	struct ibv_sge ss = {(uintptr_t)u->buf + 2048, c->len, u->mr->lkey};
	struct ibv_recv_wr rw = {.sg_list = &rs, .num_sge = 1}, *brw;
	struct ibv_send_wr sw = {.sg_list = &ss, .num_sge = 1,
				 .opcode = c->imm ? IBV_WR_SEND_WITH_IMM
						  : IBV_WR_SEND,
				 .imm_data = htonl(0x1234),
				 .send_flags = IBV_SEND_SIGNALED},
			   *bsw;
	struct ibv_ah_attr back;
	struct ibv_wc wc[2];
	struct ibv_ah *ah;

	gid_of_ip(c->ip, &a.grh.dgid);
	ah = ibv_create_ah(pd, &a);
	CHECK(ah, "create_ah sgid %d: %s", sgid, strerror(errno));
	if (!ah)
		return;
	memset(u->buf, 0xee, 40 + 64);
	memset(u->buf + 2048, 0x5a, 64);
	sw.wr.ud.ah = ah;
	sw.wr.ud.remote_qpn = u->qp->qp_num;
	sw.wr.ud.remote_qkey = QKEY;
	CHECK(!ibv_post_recv(u->qp, &rw, &brw), "post_recv");
	CHECK(!ibv_post_send(u->qp, &sw, &bsw), "post_send");
	CHECK(!poll_one(u->cq, &wc[0]) && !poll_one(u->cq, &wc[1]),
	      "two completions");
	if (wc[0].opcode != IBV_WC_RECV)
		wc[0] = wc[1];
	CHECK(wc[0].status == IBV_WC_SUCCESS && wc[0].opcode == IBV_WC_RECV &&
		      wc[0].byte_len == 40 + c->len &&
		      (wc[0].wc_flags & IBV_WC_GRH) &&
		      !!(wc[0].wc_flags & IBV_WC_WITH_IMM) == c->imm,
	      "receive: status %d len %u flags %#x", wc[0].status,
	      wc[0].byte_len, wc[0].wc_flags);
	CHECK(u->buf[40] == 0x5a && u->buf[40 + c->len - 1] == 0x5a &&
		      (c->len == 64 || u->buf[40 + c->len] == 0xee),
	      "payload");
	memcpy(hdr, u->buf, 40);
	CHECK(!ibv_init_ah_from_wc(ctx, 1, &wc[0], (struct ibv_grh *)u->buf,
				   &back),
	      "init_ah_from_wc: %s", strerror(errno));
	CHECK(back.is_global && back.grh.sgid_index == sgid &&
		      back.grh.hop_limit == wire_hop(),
	      "ah from wc: sgid %u hop %u", back.grh.sgid_index,
	      back.grh.hop_limit);
	ibv_destroy_ah(ah);
}

/* The IPv6 header (v2) or GRH (v1) case c's datagram carries: version
 * 6, the AH's class, the flow label and hop limit on the wire (wire_flow,
 * wire_hop), PayLen from the first byte after it to the ICRC (UDP 8 on
 * v2, BTH 12, DETH 8, ImmDt 4, padded payload, ICRC 4), next header UDP
 * or BTH, the SGID slot's GID, the DGID. */
static void ud_grh(const struct ud_case *c, int sgid, uint8_t *want)
{
	int v2 = c->type == IBV_GID_TYPE_ROCE_V2;
	uint32_t w0 = htonl(6u << 28 | 0x20u << 20 | wire_flow());
	uint16_t paylen = htons((uint16_t)((v2 ? 8 : 0) + 12 + 8 +
					   (c->imm ? 4 : 0) +
					   ((c->len + 3) & ~3u) + 4));
	union ibv_gid sg, dg;

	memcpy(want, &w0, 4);
	memcpy(want + 4, &paylen, 2);
	want[6] = v2 ? 17 : 0x1b;
	want[7] = wire_hop();
	CHECK(!ibv_query_gid(ctx, 1, sgid, &sg), "query_gid %d", sgid);
	gid_of_ip(c->ip, &dg);
	memcpy(want + 8, sg.raw, 16);
	memcpy(want + 24, dg.raw, 16);
}

/* v2 over IPv4: 20 bytes zero, then the IPv4 header (total length: 20
 * more than the IPv6 header's payload length) from the SGID's address. */
static void ud_ipv4(const struct ud_case *c, int sgid, const uint8_t *h)
{
	uint8_t g[40];
	uint16_t tot;

	ud_grh(c, sgid, g);
	tot = (uint16_t)(20 + (g[4] << 8 | g[5]));
	CHECK(!h[0] && !h[19] && h[20] == 0x45 && h[21] == 0x20 &&
		      h[22] == tot >> 8 && h[23] == (tot & 0xff) &&
		      h[28] == wire_hop() && h[29] == 17,
	      "IPv4 header: %02x %02x total length %u (want %u) ttl %u "
	      "proto %u",
	      h[20], h[21], h[22] << 8 | h[23], tot, h[28], h[29]);
	CHECK(!memcmp(h + 32, g + 8 + 12, 4) &&
		      !memcmp(h + 36, "\xc0\xa8\x01\x01", 4) && !csum(h + 20),
	      "IPv4 addresses and checksum");
}

static void check_ud(struct ibv_pd *pd)
{
	static const struct ud_case cases[] = {
		{"192.168.1.1", IBV_GID_TYPE_ROCE_V2, 0, 64},
		{"192.168.1.1", IBV_GID_TYPE_ROCE_V2, 1, 64},
		{"192.168.1.1", IBV_GID_TYPE_ROCE_V2, 0, 61},
		{"fd00::1", IBV_GID_TYPE_ROCE_V2, 0, 64},
		{"fd00::1", IBV_GID_TYPE_ROCE_V2, 1, 61},
		{"192.168.1.1", IBV_GID_TYPE_ROCE_V1, 0, 64},
		{"192.168.1.1", IBV_GID_TYPE_ROCE_V1, 1, 64},
		{"192.168.1.1", IBV_GID_TYPE_ROCE_V1, 0, 61},
	};
	struct ud *u = calloc(1, sizeof(*u));
	uint8_t h[40], g[40];
	unsigned int i;
	int sgid;

	u->cq = ibv_create_cq(ctx, 8, NULL, NULL, 0);
	u->mr = ibv_reg_mr(pd, u->buf, sizeof(u->buf), IBV_ACCESS_LOCAL_WRITE);
	u->qp = u->cq && u->mr ? ud_qp(pd, u->cq) : NULL;
	CHECK(u->qp, "UD QP: %s", strerror(errno));
	if (!u->qp)
		return;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct ud_case *c = &cases[i];

		if (c->type == IBV_GID_TYPE_ROCE_V1 && !has_v1)
			continue;
		sgid = find_gid(c->ip, c->type);
		ud_send(pd, u, c, sgid, h);
		if (!strchr(c->ip, ':') && c->type == IBV_GID_TYPE_ROCE_V2) {
			ud_ipv4(c, sgid, h);
			continue;
		}
		ud_grh(c, sgid, g);
		CHECK(!memcmp(h, g, 40),
		      "%s v%d imm %d len %u: header %02x%02x%02x%02x paylen "
		      "%u (want %u) next %#x hop %u, SGID %s",
		      c->ip, c->type == IBV_GID_TYPE_ROCE_V2 ? 2 : 1, c->imm,
		      c->len, h[0], h[1], h[2], h[3], h[4] << 8 | h[5],
		      g[4] << 8 | g[5], h[6], h[7],
		      memcmp(h + 8, g + 8, 16) ? "wrong" : "right");
	}
	ibv_destroy_qp(u->qp);
	ibv_dereg_mr(u->mr);
	ibv_destroy_cq(u->cq);
	free(u);
}

int main(int argc, char **argv)
{
	struct ibv_device **list;
	struct ibv_pd *pd;
	int i, n;

	if (argc < 3)
		return 2;
	has_v1 = !strcmp(argv[2], "v1");
	is_rxe = !strncmp(argv[1], "rxe", 3);
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), argv[1]))
			ctx = ibv_open_device(list[i]);
	if (!ctx) {
		fprintf(stderr, "FAIL: no device %s\n", argv[1]);
		return 1;
	}
	pd = ibv_alloc_pd(ctx);
	check_port();
	check_table();
	check_changes();
	check_ah(pd);
	check_rc_av(pd);
	if (argc > 3 && !strcmp(argv[3], "--data"))
		check_ud(pd);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	return !!failures;
}
