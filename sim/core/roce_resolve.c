// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The destination MAC of a RoCE address vector, as the kernel finds it for
 * every user CREATE_AH and for MODIFY_QP of a connected QP with an AV
 * (ib_resolve_eth_dmac, rdma_addr_find_l2_eth_by_grh), in the world's own
 * network namespace:
 * - a multicast DGID maps to its MAC (01:00:5e / 33:33), hop limit kept;
 * - a link-local DGID from a RoCE v1 SGID: the MAC inside its EUI-64;
 * - else the GIDs are IP addresses again (one family, or EINVAL), the route
 *   is looked up from the SGID's netdev (route errors as they are; ::,
 *   0.0.0.0 and loopback addresses go through lo); a
 *   local destination (through lo) answers with the MAC of the netdev that
 *   holds it, any other with the neighbour of the route's device, asked
 *   for (ARP/ND through the world's switch) when unknown and waited for up
 *   to 1000 ms (else ETIMEDOUT). The AV's hop limit becomes the route's.
 */
#include "uapi.h"
#include "rtnl.h"

#include <errno.h>
#include <linux/neighbour.h>
#include <net/if.h>
#include <netinet/in.h>
#include <string.h>
#include <time.h>

#define RESOLVE_MS 1000

struct route {
	int type;	/* RTN_* */
	int oif;	/* the device it leaves by */
	uint8_t via[16]; /* the neighbour to ask: gateway or destination */
	uint8_t hop_limit;
};

struct neigh {
	int found;
	uint16_t state;
	uint8_t mac[6];
};

static int v4_mapped(const uint8_t *g)
{
	return !memcmp(g, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12);
}

/* The address bytes of gid in its family (IPv4: the last four). */
static const uint8_t *ip_of(const uint8_t *gid, int *family, size_t *len)
{
	*family = v4_mapped(gid) ? AF_INET : AF_INET6;
	*len = *family == AF_INET ? 4 : 16;
	return *family == AF_INET ? gid + 12 : gid;
}

static void on_route(const struct nlmsghdr *h, void *arg)
{
	const struct rtmsg *rt = NLMSG_DATA(h);
	const struct rtattr *a, *m;
	struct route *r = arg;
	int len = (int)RTM_PAYLOAD(h), mlen;

	if (h->nlmsg_type != RTM_NEWROUTE)
		return;
	r->type = rt->rtm_type;
	for (a = RTM_RTA(rt); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (a->rta_type == RTA_OIF)
			memcpy(&r->oif, RTA_DATA(a), 4);
		else if (a->rta_type == RTA_GATEWAY)
			memcpy(r->via, RTA_DATA(a), RTA_PAYLOAD(a));
		if (a->rta_type != RTA_METRICS)
			continue;
		mlen = (int)RTA_PAYLOAD(a);
		for (m = RTA_DATA(a); RTA_OK(m, mlen); m = RTA_NEXT(m, mlen))
			if (m->rta_type == RTAX_HOPLIMIT)
				r->hop_limit = *(const uint8_t *)RTA_DATA(m);
	}
}

static void on_neigh(const struct nlmsghdr *h, void *arg)
{
	const struct ndmsg *nd = NLMSG_DATA(h);
	const struct rtattr *a;
	struct neigh *n = arg;
	int len = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof(*nd)));

	if (h->nlmsg_type != RTM_NEWNEIGH)
		return;
	n->state = nd->ndm_state;
	for (a = (const struct rtattr *)(nd + 1); RTA_OK(a, len);
	     a = RTA_NEXT(a, len))
		if (a->rta_type == NDA_LLADDR && RTA_PAYLOAD(a) == 6) {
			memcpy(n->mac, RTA_DATA(a), 6);
			n->found = 1;
		}
}

static int get_route(int sock, const uint8_t *dgid, int oif, struct route *r)
{
	struct rtnl_req q;
	struct rtmsg *rt = rtnl_start(&q, RTM_GETROUTE, 0, sizeof(*rt));
	const uint8_t *ip;
	size_t len;
	int family;

	ip = ip_of(dgid, &family, &len);
	rt->rtm_family = (uint8_t)family;
	rt->rtm_dst_len = (uint8_t)(len * 8);
	rtnl_put(&q, RTA_DST, ip, len);
	rtnl_put(&q, RTA_OIF, &oif, sizeof(oif));
	memcpy(r->via, ip, len);
	return rtnl_talk(sock, &q, on_route, r);
}

static int get_neigh(int sock, const uint8_t *dgid, const struct route *r,
		     struct neigh *n)
{
	struct rtnl_req q;
	struct ndmsg *nd = rtnl_start(&q, RTM_GETNEIGH, 0, sizeof(*nd));
	size_t len;
	int family;

	ip_of(dgid, &family, &len);
	nd->ndm_family = (uint8_t)family;
	nd->ndm_ifindex = r->oif;
	rtnl_put(&q, NDA_DST, r->via, len);
	memset(n, 0, sizeof(*n));
	return rtnl_talk(sock, &q, on_neigh, n);
}

/* Make the kernel ask for the neighbour: a datagram to its discard port
 * out of the route's device (what the kernel's neigh_event_send does). */
static void provoke(const uint8_t *dgid, const struct route *r)
{
	struct sockaddr_in6 s6 = {.sin6_family = AF_INET6,
				  .sin6_port = htons(9)};
	struct sockaddr_in s4 = {.sin_family = AF_INET, .sin_port = htons(9)};
	char name[IF_NAMESIZE];
	size_t len;
	int family, fd;

	ip_of(dgid, &family, &len);
	fd = sys.socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || sim_internal_fd_add(&fd))
		return;
	if (if_indextoname((unsigned int)r->oif, name))
		setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, name,
			   (socklen_t)strlen(name));
	memcpy(&s4.sin_addr, r->via, 4);
	memcpy(&s6.sin6_addr, r->via, 16);
	s6.sin6_scope_id = (uint32_t)r->oif;
	if (!connect(fd, family == AF_INET ? (struct sockaddr *)&s4
					   : (struct sockaddr *)&s6,
		     family == AF_INET ? sizeof(s4) : sizeof(s6)))
		sys.send(fd, "", 1, MSG_DONTWAIT);
	sim_internal_fd_close(&fd);
}

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* The neighbour's MAC, asked for and waited for if unknown. */
static int neigh_mac(int sock, const uint8_t *dgid, const struct route *r,
		     uint8_t mac[6])
{
	const uint16_t valid = NUD_REACHABLE | NUD_STALE | NUD_DELAY |
			       NUD_PROBE | NUD_PERMANENT | NUD_NOARP;
	uint64_t end = now_ms() + RESOLVE_MS;
	struct timespec step = {.tv_nsec = 2000000};
	struct neigh n;
	int asked = 0;

	for (;;) {
		if (!get_neigh(sock, dgid, r, &n) && n.found &&
		    (n.state & valid)) {
			memcpy(mac, n.mac, 6);
			return 0;
		}
		if (now_ms() >= end)
			return -ETIMEDOUT;
		if (!asked++)
			provoke(dgid, r);
		nanosleep(&step, NULL);
	}
}

/* A local destination: the MAC of the RoCE netdev holding it; others
 * (lo's) are all zero. */
static void local_mac(const uint8_t *dgid, uint8_t mac[6])
{
	struct sim_net *net = &sim.sh->net;
	uint32_t i;

	memset(mac, 0, 6);
	sim_shared_lock(sim.sh);
	for (i = 0; i < net->nnetdev; i++)
		if (sim_gid_find(&net->nd[i], dgid, SIM_GID_ROCE_V2) >= 0 ||
		    sim_gid_find(&net->nd[i], dgid, SIM_GID_ROCE_V1) >= 0) {
			memcpy(mac, net->nd[i].mac, 6);
			break;
		}
	sim_shared_unlock(sim.sh);
}

static int resolve_ip(const struct sim_gid_slot *sg, struct sim_ah_attr *a)
{
	struct route r = {.hop_limit = 64}; /* ip_default_ttl, hop_limit */
	int sock, ret;

	if (v4_mapped(sg->gid) != v4_mapped(a->dgid))
		return -EINVAL;
	if (sim_roce_is_lo_gid(a->dgid)) { /* the kernel routes it via lo */
		memset(a->dmac, 0, 6);
		a->hop_limit = r.hop_limit;
		return 0;
	}
	rtnl_io.send = sys.send;
	rtnl_io.recvmsg = sys.recvmsg;
	sock = sys.socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (sock < 0)
		return -errno;
	ret = sim_internal_fd_add(&sock);
	if (ret)
		return ret;
	ret = get_route(sock, a->dgid, sg->ifindex, &r);
	if (!ret && r.type == RTN_LOCAL)
		local_mac(a->dgid, a->dmac);
	else if (!ret && r.type == RTN_UNICAST)
		ret = neigh_mac(sock, a->dgid, &r, a->dmac);
	else if (!ret)
		ret = -EHOSTUNREACH;
	if (!ret)
		a->hop_limit = r.hop_limit;
	sim_internal_fd_close(&sock);
	return ret;
}

int sim_resolve_ah_dmac(unsigned int dev, struct sim_ah_attr *a)
{
	struct sim_netdev *nd = sim_netdev_of(sim.sh, dev, 1);
	const uint8_t *g = a->dgid;
	struct sim_gid_slot sg;
	int ret;

	if (!nd)
		return 0;
	ret = sim_gid_get(sim.sh, nd, a->sgid_index, &sg);
	if (ret)
		return ret;
	if (!sim_roce_mcast_mac(g, a->dmac))
		return 0;
	if (sg.type == SIM_GID_ROCE_V1 && g[0] == 0xfe && (g[1] & 0xc0) == 0x80) {
		a->dmac[0] = g[8] ^ 2;
		a->dmac[1] = g[9];
		a->dmac[2] = g[10];
		a->dmac[3] = g[13];
		a->dmac[4] = g[14];
		a->dmac[5] = g[15];
		return 0;
	}
	return resolve_ip(&sg, a);
}
