// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RDMA CM ids and their addresses: create/destroy, bind (ports global per
 * port space across the world's processes), address resolution over the
 * namespace's own routing (a UDP socket's connect() picks the source
 * address, then netdev.h maps it to device, port and GID index), route
 * resolution, listen, options and the QUERY answers librdmacm reads.
 */
#include "ib_gid.h"
#include "sim.h"
#include "ucma.h"

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PORT_LO	    32768 /* net.ipv4.ip_local_port_range */
#define PORT_HI	    60999
#define MAX_BACKLOG 1024

int ucma_is_ip_ps(uint16_t ps)
{
	return ps == RDMA_PS_TCP || ps == RDMA_PS_UDP || ps == RDMA_PS_IPOIB;
}

socklen_t ucma_sa_len(const struct sockaddr_storage *ss)
{
	switch (ss->ss_family) {
	case AF_INET:
		return sizeof(struct sockaddr_in);
	case AF_INET6:
		return sizeof(struct sockaddr_in6);
	case UCMA_AF_IB:
		return sizeof(struct ucma_sib);
	}
	return 0;
}

/* An AF_IB address's service id and its mask, host order. */
static uint64_t sib_sid(const struct sockaddr_storage *ss)
{
	return be64toh(((const struct ucma_sib *)ss)->sib_sid);
}

uint16_t ucma_sa_port(const struct sockaddr_storage *ss)
{
	const struct ucma_sib *sib = (const struct ucma_sib *)ss;

	if (ss->ss_family == UCMA_AF_IB) /* the low 16 bits of the SID */
		return (uint16_t)(sib_sid(ss) & be64toh(sib->sib_sid_mask));
	if (ss->ss_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)ss)->sin_port);
	if (ss->ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
	return 0;
}

static void set_port(struct sockaddr_storage *ss, uint16_t port)
{
	struct ucma_sib *sib = (struct ucma_sib *)ss;

	if (ss->ss_family == UCMA_AF_IB)
		sib->sib_sid = htobe64((sib_sid(ss) & ~0xffffull) | port);
	else if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons(port);
	else if (ss->ss_family == AF_INET6)
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
}

static int zero_addr(const struct sockaddr_storage *ss)
{
	static const struct in6_addr any6;

	if (ss->ss_family == AF_INET)
		return !((const struct sockaddr_in *)ss)->sin_addr.s_addr;
	return !memcmp(&((const struct sockaddr_in6 *)ss)->sin6_addr, &any6,
		       16);
}

static int loopback_addr(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)ss)
				      ->sin_addr.s_addr) >>
			24) == 127;
	return IN6_IS_ADDR_LOOPBACK(
		&((const struct sockaddr_in6 *)ss)->sin6_addr);
}

/* The kernel's cma_any_addr: a loopback address binds, listens and
 * shares ports like the wildcard (no device is acquired for it). */
static int any_addr(const struct sockaddr_storage *ss)
{
	return zero_addr(ss) || loopback_addr(ss);
}

/* 224.0.0.0/4, ff00::/8: no neighbour to ask, the MAC is mapped */
static int multicast_addr(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return IN_MULTICAST(ntohl(
			((const struct sockaddr_in *)ss)->sin_addr.s_addr));
	return IN6_IS_ADDR_MULTICAST(
		&((const struct sockaddr_in6 *)ss)->sin6_addr);
}

static int same_ip(const struct sockaddr_storage *a,
		   const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return 0;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		       &((const struct sockaddr_in6 *)b)->sin6_addr, 16);
}

const char *ucma_sa_str(const struct sockaddr_storage *ss, char *buf,
			size_t len)
{
	char ip[INET6_ADDRSTRLEN] = "?";
	const void *a = &((const struct sockaddr_in *)ss)->sin_addr;

	if (ss->ss_family != AF_INET) /* sib_addr sits where sin6_addr does */
		a = &((const struct sockaddr_in6 *)ss)->sin6_addr;
	if (ss->ss_family == AF_INET || ss->ss_family == AF_INET6)
		inet_ntop(ss->ss_family, a, ip, sizeof(ip));
	if (ss->ss_family == UCMA_AF_IB) {
		inet_ntop(AF_INET6, a, ip, sizeof(ip));
		snprintf(buf, len, "ib[%s] sid %#llx", ip,
			 (unsigned long long)sib_sid(ss));
		return buf;
	}
	snprintf(buf, len, ss->ss_family == AF_INET6 ? "[%s]:%u" : "%s:%u", ip,
		 ucma_sa_port(ss));
	return buf;
}

uint64_t ucma_service_id(const struct ucma_id *id)
{
	if (id->src.ss_family == UCMA_AF_IB)
		return be64toh(((const struct ucma_sib *)&id->src)->sib_sid);
	return (uint64_t)id->ps << 16 | ucma_sa_port(&id->src);
}

/* ---- ids ---- */

int ucma_id_alloc(void)
{
	int i;

	for (i = 0; i < UCMA_MAX_IDS; i++) {
		struct ucma_id *id = &ucma_w->ids[i];
		uint32_t gen = id->gen + 1, psn;

		if (id->used)
			continue;
		memset(id, 0, sizeof(*id));
		id->used = 1;
		id->gen = gen;
		id->peer = -1;
		id->listener = -1;
		if (getrandom(&psn, sizeof(psn), 0) != sizeof(psn))
			psn = (uint32_t)ucma_now_ns();
		id->psn = psn & 0xffffff;
		return i;
	}
	return -ENOMEM;
}

/* id idn of file f, also one the CM closed (its destroy still works). */
static int id_of_file(int f, uint32_t idn)
{
	if (idn >= UCMA_MAX_IDS || !ucma_w->ids[idn].used)
		return -ENOENT;
	if (ucma_w->ids[idn].file != f)
		return -EINVAL;
	return (int)idn;
}

int ucma_id_find(int f, uint32_t idn)
{
	int i = id_of_file(f, idn);

	/* ucma_close_id dropped the context's reference: ucma_get_ctx */
	return i >= 0 && ucma_w->ids[i].removed ? -ENXIO : i;
}

struct ucma_id *ucma_id_live(int i, uint32_t gen)
{
	if (i < 0 || i >= UCMA_MAX_IDS || !ucma_w->ids[i].used ||
	    ucma_w->ids[i].gen != gen)
		return NULL;
	return &ucma_w->ids[i];
}

static int create_id(int f, const struct rdma_ucm_create_id *c, uint16_t out)
{
	struct rdma_ucm_create_id_resp r = {0};
	uint8_t qpt;
	int i;

	if (out < sizeof(r))
		return -ENOSPC;
	switch (c->ps) {
	case RDMA_PS_TCP:
		qpt = IB_QPT_RC;
		break;
	case RDMA_PS_UDP:
	case RDMA_PS_IPOIB:
		qpt = IB_QPT_UD;
		break;
	case RDMA_PS_IB:
		qpt = c->qp_type;
		break;
	default:
		return -EINVAL;
	}
	i = ucma_id_alloc();
	if (i < 0)
		return i;
	ucma_w->ids[i].file = f;
	ucma_w->ids[i].uid = c->uid;
	ucma_w->ids[i].ps = c->ps;
	ucma_w->ids[i].qp_type = qpt;
	r.id = (uint32_t)i;
	if (sim_copy_to_user((void *)(uintptr_t)c->response, &r, sizeof(r))) {
		ucma_w->ids[i].used = 0;
		return -EFAULT;
	}
	return 0;
}

static int destroy_id(int f, const struct rdma_ucm_destroy_id *c, uint16_t out)
{
	struct rdma_ucm_destroy_id_resp r = {0};
	int i;

	if (out < sizeof(r))
		return -ENOSPC;
	i = id_of_file(f, c->id);
	if (i < 0)
		return i;
	ucma_events_purge(i, -1);
	r.events_reported = ucma_w->ids[i].events_reported;
	ucma_id_destroy(i);
	return sim_copy_to_user((void *)(uintptr_t)c->response, &r, sizeof(r));
}

/* ---- device lookup ---- */

/* The port holding IP address ss: a RoCE port with it as a RoCE v2 GID,
 * or an IB port whose IPoIB netdev has it (GID 0, the port GID). Needs
 * the lock. */
static int port_of(const struct sockaddr_storage *ss, uint32_t *dev,
		   uint32_t *gid_index)
{
	uint8_t gid[16];
	uint32_t n;
	int idx;

	if (sim_gid_from_sockaddr((const struct sockaddr *)ss, gid))
		return -ENODEV;
	for (n = 0; n < sim.sh->net.nnetdev; n++) {
		if (!sim_dev_live(sim.sh, sim.sh->net.nd[n].dev))
			continue; /* unregistered: no RDMA device on it */
		idx = sim_gid_find(&sim.sh->net.nd[n], gid, SIM_GID_ROCE_V2);
		if (idx >= 0) {
			*dev = sim.sh->net.nd[n].dev;
			*gid_index = (uint32_t)idx;
			return 0;
		}
	}
	*gid_index = 0;
	return sim_ipoib_find_ip(sim.sh, (const struct sockaddr *)ss, dev);
}

uint16_t ucma_lid(uint32_t dev)
{
	return (uint16_t)(dev + 1);
}

int ucma_id_ib(const struct ucma_id *id)
{
	return id->has_dev && !sim_netdev_of(sim.sh, id->dev, id->port);
}

uint8_t ucma_path_life(const struct ucma_id *id)
{
	if (ucma_id_ib(id))
		return IB_LIFE;
	return id->ack_timeout ? id->ack_timeout - 1 : ucma_roce_life();
}

/* GID index of device dev's port 1. Needs the lock. */
static void port_gid(uint32_t dev, uint32_t index, uint8_t gid[16])
{
	struct sim_netdev *nd = sim_netdev_of(sim.sh, dev, 1);

	if (nd)
		memcpy(gid, nd->gids[index].gid, 16);
	else
		sim_ib_gid(dev, index, gid);
}

static void set_dev(struct ucma_id *id, uint32_t dev, uint32_t gid_index)
{
	id->has_dev = 1;
	id->dev = dev;
	id->port = 1;
	id->sgid_index = gid_index;
	port_gid(dev, gid_index, id->sgid);
}

/* Is ss an address of this host at all (on any netdev)? */
static int local_addr(const struct sockaddr_storage *ss)
{
	struct sockaddr_storage a = *ss;
	int s = sys.socket(ss->ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0), ok;

	if (s < 0)
		return 0;
	set_port(&a, 0);
	ok = !bind(s, (struct sockaddr *)&a, ucma_sa_len(&a));
	sys.close(s);
	return ok;
}

/* ---- ports ---- */

/* Why id cannot share its port with the other owners of it: the kernel's
 * cma_check_port (reuse only when both ask for it; AFONLY ids of two
 * families never clash; a wildcard clashes with everything). */
static int port_conflict(const struct ucma_id *id, uint16_t port, int reuse)
{
	int i;

	for (i = 0; i < UCMA_MAX_IDS; i++) {
		const struct ucma_id *o = &ucma_w->ids[i];

		if (o == id || !o->used || !o->bound || o->space != id->space ||
		    ucma_sa_port(&o->src) != port)
			continue;
		/* a listener's REUSEADDR no longer counts */
		if (reuse && o->reuseaddr && o->state != UCMA_LISTEN)
			continue;
		if (id->afonly && o->afonly &&
		    id->src.ss_family != o->src.ss_family)
			continue;
		if (any_addr(&id->src) || any_addr(&o->src))
			return -EADDRNOTAVAIL;
		if (same_ip(&id->src, &o->src))
			return -EADDRINUSE;
	}
	return 0;
}

/* capable(CAP_NET_BIND_SERVICE): the capability in the initial user
 * namespace, which a process in a user namespace of its own never has. */
static int may_bind_service(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct d[2] = {0};
	char map[64] = "";
	unsigned long in = 1, out = 1, n = 0;
	FILE *f;

	if (syscall(SYS_capget, &h, d) ||
	    !(d[0].effective & (1u << CAP_NET_BIND_SERVICE)))
		return 0;
	f = fopen("/proc/self/uid_map", "re");
	if (!f)
		return 0;
	if (!fgets(map, sizeof(map), f) ||
	    sscanf(map, "%lu %lu %lu", &in, &out, &n) != 3)
		n = 0;
	fclose(f);
	return !in && !out && n == 4294967295ul;
}

static int take_port(struct ucma_id *id)
{
	uint16_t port = ucma_sa_port(&id->src), start;
	uint32_t r;

	if (port) {
		if (port < 1024 && !may_bind_service())
			return -EACCES;
		return port_conflict(id, port, id->reuseaddr);
	}
	if (getrandom(&r, sizeof(r), 0) != sizeof(r))
		r = (uint32_t)ucma_now_ns();
	start = (uint16_t)(PORT_LO + r % (PORT_HI - PORT_LO + 1));
	port = start;
	do {
		if (!port_conflict(id, port, 0)) {
			set_port(&id->src, port);
			return 0;
		}
		port = port == PORT_HI ? PORT_LO : port + 1;
	} while (port != start);
	return -EADDRNOTAVAIL;
}

/* ---- bind ---- */

/*
 * The port space of an AF_IB bind (cma_select_ib_ps): the IP space its
 * SID names under its mask, if the id's own ps allows it (PS_IB takes
 * any), else 0; the SID and mask are rewritten to that space's.
 */
static uint16_t select_ib_ps(struct ucma_id *id)
{
	static const struct {
		uint64_t sid;
		uint16_t ps;
	} spaces[] = {{UCMA_IB_PS_IB, RDMA_PS_IB},
		      {UCMA_IB_PS_TCP, RDMA_PS_TCP},
		      {UCMA_IB_PS_UDP, RDMA_PS_UDP}};
	struct ucma_sib *sib = (struct ucma_sib *)&id->src;
	uint64_t mask = be64toh(sib->sib_sid_mask) & UCMA_IB_PS_MASK;
	uint64_t sid = sib_sid(&id->src) & mask;
	unsigned int k;

	for (k = 0; k < sizeof(spaces) / sizeof(spaces[0]); k++) {
		if (sid != (spaces[k].sid & mask) ||
		    (id->ps != RDMA_PS_IB && id->ps != spaces[k].ps))
			continue;
		sib->sib_sid = htobe64(spaces[k].sid | ucma_sa_port(&id->src));
		sib->sib_sid_mask =
			htobe64(UCMA_IB_PS_MASK | be64toh(sib->sib_sid_mask));
		return spaces[k].ps;
	}
	return 0;
}

/* The IB port whose port GID (index 0) is gid. Needs the lock. */
static int ib_port_by_gid(const uint8_t gid[16], uint32_t *dev)
{
	uint8_t g[16];
	uint32_t d;

	for (d = 0; d < sim.sh->cfg.ndev; d++) {
		if (sim_netdev_of(sim.sh, d, 1))
			continue; /* AF_IB needs an IB port */
		port_gid(d, 0, g);
		if (!memcmp(g, gid, 16)) {
			*dev = d;
			return 0;
		}
	}
	return -ENODEV;
}

/* The device a specific source address names: an IP address's port, or
 * the IB port an AF_IB GID is of. */
static int bind_dev(const struct sockaddr_storage *sa, uint32_t *dev,
		    uint32_t *gi)
{
	if (sa->ss_family == UCMA_AF_IB) {
		*gi = 0;
		return ib_port_by_gid(((const struct ucma_sib *)sa)->sib_addr,
				      dev);
	}
	if (!port_of(sa, dev, gi))
		return 0;
	return local_addr(sa) ? -ENODEV : -EADDRNOTAVAIL;
}

static int bind_addr(struct ucma_id *id, const struct sockaddr_storage *sa)
{
	char buf[64];
	uint32_t dev, gi;
	int ret;

	if (sa->ss_family != AF_INET && sa->ss_family != AF_INET6 &&
	    sa->ss_family != UCMA_AF_IB)
		return -EAFNOSUPPORT;
	if (id->state != UCMA_IDLE)
		return -EINVAL;
	if (sa->ss_family == AF_INET6 &&
	    IN6_IS_ADDR_LINKLOCAL(
		    &((const struct sockaddr_in6 *)sa)->sin6_addr) &&
	    !((const struct sockaddr_in6 *)sa)->sin6_scope_id)
		return -EINVAL;
	id->src = *sa;
	if (!any_addr(sa)) {
		ret = bind_dev(sa, &dev, &gi);
		if (ret)
			goto undo;
		/* IPoIB's port space needs an IPoIB netdev, not a RoCE one */
		ret = id->ps == RDMA_PS_IPOIB && sim_netdev_of(sim.sh, dev, 1)
			      ? -EINVAL
			      : 0;
		if (ret)
			goto undo;
		set_dev(id, dev, gi);
	}
	if (sa->ss_family == AF_INET)
		id->afonly = 1;
	id->space = sa->ss_family == UCMA_AF_IB ? select_ib_ps(id) : id->ps;
	ret = id->space ? take_port(id) : -EPROTONOSUPPORT;
	if (ret)
		goto undo;
	id->bound = 1;
	id->state = UCMA_ADDR_BOUND;
	sim_trace("ucma: id %d bound to %s", (int)(id - ucma_w->ids),
		  ucma_sa_str(&id->src, buf, sizeof(buf)));
	return 0;
undo:
	id->has_dev = 0;
	memset(&id->src, 0, sizeof(id->src));
	return ret;
}

static int addr_ok(const struct sockaddr_storage *ss, size_t size)
{
	return size && size == ucma_sa_len(ss);
}

static int cmd_bind(int f, const struct rdma_ucm_bind *c)
{
	struct sockaddr_storage ss;
	int i = ucma_id_find(f, c->id);

	if (i < 0)
		return i;
	memcpy(&ss, &c->addr, sizeof(ss));
	if (c->reserved || !addr_ok(&ss, c->addr_size))
		return -EINVAL;
	return bind_addr(&ucma_w->ids[i], &ss);
}

static int cmd_bind_ip(int f, const struct rdma_ucm_bind_ip *c)
{
	struct sockaddr_storage ss = {0};
	int i = ucma_id_find(f, c->id);

	if (i < 0)
		return i;
	memcpy(&ss, &c->addr, sizeof(c->addr));
	if (!ucma_sa_len(&ss))
		return -EINVAL;
	return bind_addr(&ucma_w->ids[i], &ss);
}

/* ---- address resolution ---- */

/* The source address the kernel's routing picks for dst (port 0). */
static int route_src(const struct sockaddr_storage *dst,
		     struct sockaddr_storage *src)
{
	struct sockaddr_storage d = *dst;
	socklen_t len = sizeof(*src);
	int s, ret = 0;

	set_port(&d, 4791);
	s = sys.socket(dst->ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -errno;
	if (connect(s, (struct sockaddr *)&d, ucma_sa_len(&d)) ||
	    getsockname(s, (struct sockaddr *)src, &len))
		ret = -errno;
	sys.close(s);
	return ret;
}

static void addr_error(int i, int status)
{
	ucma_w->ids[i].state = UCMA_ADDR_BOUND;
	ucma_event(i, RDMA_CM_EVENT_ADDR_ERROR, status, NULL);
}

/* Destinations 0.0.0.0, ::, 127.x, ::1: the first device, GID 0 both
 * ends, the source the loopback address. */
static void resolve_loopback(struct ucma_id *id)
{
	uint16_t port = ucma_sa_port(&id->src);

	if (!id->has_dev)
		set_dev(id, 0, 0);
	memcpy(id->dgid, id->sgid, 16);
	id->dlid = ucma_id_ib(id) ? ucma_lid(id->dev) : 0;
	if (zero_addr(&id->src)) {
		if (id->src.ss_family == AF_INET)
			((struct sockaddr_in *)&id->src)->sin_addr.s_addr =
				htonl(INADDR_LOOPBACK);
		else
			((struct sockaddr_in6 *)&id->src)->sin6_addr =
				in6addr_loopback;
		set_port(&id->src, port);
	}
	id->via_netdev = 0;
}

/*
 * An AF_IB destination (cma_resolve_ib_addr): no ARP, the DGID is given.
 * An id without a device takes the first IB port whose GID is the DGID,
 * else the first ACTIVE one on its subnet, whose P_Key table has the
 * address's P_Key (only 0xffff here, matched on its low 15 bits), and its
 * port GID becomes the source; none → ENODEV from the write itself.
 * ADDR_RESOLVED follows from the work queue either way.
 */
static int resolve_ib(int i, const struct sockaddr_storage *dst)
{
	const struct ucma_sib *d = (const struct ucma_sib *)dst;
	struct ucma_id *id = &ucma_w->ids[i];
	uint32_t dev, ddev;
	uint8_t g[16];

	if (!id->has_dev) {
		if ((be16toh(d->sib_pkey) & 0x7fff) != 0x7fff)
			return -ENODEV;
		if (ib_port_by_gid(d->sib_addr, &dev)) {
			for (dev = 0; dev < sim.sh->cfg.ndev; dev++) {
				port_gid(dev, 0, g);
				if (!sim_netdev_of(sim.sh, dev, 1) &&
				    !memcmp(g, d->sib_addr, 8))
					break;
			}
			if (dev == sim.sh->cfg.ndev)
				return -ENODEV;
		}
		set_dev(id, dev, 0);
		memcpy(((struct ucma_sib *)&id->src)->sib_addr, id->sgid, 16);
	}
	id->dst = *dst;
	memcpy(id->dgid, d->sib_addr, 16);
	/* the SA knows the LID of a port GID of this subnet only */
	id->dlid = ib_port_by_gid(id->dgid, &ddev) ? 0 : ucma_lid(ddev);
	id->via_netdev = 0;
	id->state = UCMA_ADDR_RESOLVED;
	ucma_event(i, RDMA_CM_EVENT_ADDR_RESOLVED, 0, NULL);
	return 0;
}

/* Is device dev's port netdev (Ethernet or IPoIB) up with carrier? */
static int netdev_running(uint32_t dev)
{
	struct sim_netdev *nd = sim_netdev_of(sim.sh, dev, 1);
	struct sim_ipoib *ib = sim_ipoib_of(sim.sh, dev);

	return nd ? nd->running : ib && ib->running;
}

/* Does a port answer ARP for dst on the fabric of device dev's port (an
 * Ethernet port's switch, or the IB fabric of IPoIB)? Only while its
 * netdev runs. Its device then. */
static int neighbour(uint32_t dev, const struct sockaddr_storage *dst,
		     uint32_t *ddev)
{
	uint32_t dgi;

	return !port_of(dst, ddev, &dgi) &&
	       !sim_netdev_of(sim.sh, dev, 1) ==
		       !sim_netdev_of(sim.sh, *ddev, 1) &&
	       netdev_running(*ddev);
}

/* The destination MAC a RoCE id resolved (dst_dev_addr): the group's
 * mapped MAC, else that of the port that answered ARP. */
static void roce_dmac(struct ucma_id *id, uint32_t ddev)
{
	struct sim_netdev *nd;

	if (!sim_roce_mcast_mac(id->dgid, id->dmac))
		return;
	nd = sim_netdev_of(sim.sh, ddev, 1);
	if (nd)
		memcpy(id->dmac, nd->mac, 6);
}

static int resolve_addr(int i, const struct sockaddr_storage *src,
			const struct sockaddr_storage *dst, uint32_t timeout)
{
	struct ucma_id *id = &ucma_w->ids[i];
	struct sockaddr_storage from = {0};
	uint32_t dev, gi, ddev = 0;
	uint16_t port;
	char buf[64];
	int ret;

	if (id->state == UCMA_IDLE) {
		if (src->ss_family) {
			ret = bind_addr(id, src);
		} else {
			/* a wildcard of dst's family (AF_IB: with its P_Key) */
			from.ss_family = dst->ss_family;
			if (dst->ss_family == UCMA_AF_IB)
				memcpy(&from, dst,
				       offsetof(struct ucma_sib, sib_flowinfo));
			ret = bind_addr(id, &from);
		}
		if (ret)
			return ret;
	}
	if (id->state != UCMA_ADDR_BOUND || id->src.ss_family != dst->ss_family)
		return -EINVAL;
	if (!any_addr(dst) && dst->ss_family == UCMA_AF_IB)
		return resolve_ib(i, dst);
	id->dst = *dst;
	id->state = UCMA_ADDR_QUERY;
	if (any_addr(dst)) {
		resolve_loopback(id);
		id->state = UCMA_ADDR_RESOLVED;
		ucma_event(i, RDMA_CM_EVENT_ADDR_RESOLVED, 0, NULL);
		return 0;
	}
	if (!zero_addr(&id->src)) {
		from = id->src;
	} else {
		/* no route: the write fails and the id stays bound */
		ret = route_src(dst, &from);
		if (ret) {
			id->state = UCMA_ADDR_BOUND;
			return ret;
		}
	}
	if (port_of(&from, &dev, &gi)) {
		addr_error(i, -ENODEV);
		return 0;
	}
	if (!multicast_addr(dst) && !neighbour(dev, dst, &ddev)) {
		/* nobody answers ARP on the wire: the resolver times out */
		id->timer = TIMER_ADDR;
		id->addr_err = -ETIMEDOUT;
		id->deadline_ns = ucma_now_ns() + timeout * 1000000ull;
		return 0;
	}
	port = ucma_sa_port(&id->src);
	if (zero_addr(&id->src)) {
		id->src = from;
		set_port(&id->src, port);
	}
	set_dev(id, dev, gi);
	id->dlid = 0;
	if (!ucma_id_ib(id)) {
		sim_gid_from_sockaddr((const struct sockaddr *)dst, id->dgid);
		roce_dmac(id, ddev);
	} else if (!multicast_addr(dst)) {
		/* IPoIB's neighbour: the GID in its hardware address */
		port_gid(ddev, 0, id->dgid);
		id->dlid = ucma_lid(ddev);
	}
	id->via_netdev = 1;
	id->state = UCMA_ADDR_RESOLVED;
	sim_trace("ucma: id %d resolved %s on device %u (%s), dlid %u", i,
		  ucma_sa_str(dst, buf, sizeof(buf)), dev,
		  ucma_id_ib(id) ? "IPoIB" : "RoCE", id->dlid);
	ucma_event(i, RDMA_CM_EVENT_ADDR_RESOLVED, 0, NULL);
	return 0;
}

static int cmd_resolve_ip(int f, const struct rdma_ucm_resolve_ip *c)
{
	struct sockaddr_storage src = {0}, dst = {0};
	int i = ucma_id_find(f, c->id);

	if (i < 0)
		return i;
	memcpy(&src, &c->src_addr, sizeof(c->src_addr));
	memcpy(&dst, &c->dst_addr, sizeof(c->dst_addr));
	if ((src.ss_family && !ucma_sa_len(&src)) || !ucma_sa_len(&dst))
		return -EINVAL;
	return resolve_addr(i, &src, &dst, c->timeout_ms);
}

static int cmd_resolve_addr(int f, const struct rdma_ucm_resolve_addr *c)
{
	struct sockaddr_storage src, dst;
	int i = ucma_id_find(f, c->id);

	if (i < 0)
		return i;
	memcpy(&src, &c->src_addr, sizeof(src));
	memcpy(&dst, &c->dst_addr, sizeof(dst));
	if (c->reserved || (c->src_size && !addr_ok(&src, c->src_size)) ||
	    !addr_ok(&dst, c->dst_size))
		return -EINVAL;
	if (!c->src_size)
		memset(&src, 0, sizeof(src));
	return resolve_addr(i, &src, &dst, c->timeout_ms);
}

static int cmd_resolve_route(int f, const struct rdma_ucm_resolve_route *c)
{
	struct sim_netdev *nd;
	struct ucma_id *id;
	int i = ucma_id_find(f, c->id);

	if (i < 0)
		return i;
	id = &ucma_w->ids[i];
	if (!id->has_dev || !c->timeout_ms || id->state != UCMA_ADDR_RESOLVED)
		return -EINVAL;
	nd = sim_netdev_of(sim.sh, id->dev, id->port);
	if (nd && !id->via_netdev)
		return -ENODEV; /* RoCE needs the bound netdev */
	if (!nd && !id->dlid) {
		/* no PathRecord to that GID: a MAD status, -EINVAL */
		id->state = UCMA_ADDR_RESOLVED;
		ucma_event(i, RDMA_CM_EVENT_ROUTE_ERROR, -EINVAL, NULL);
		return 0;
	}
	id->mtu = nd ? (uint8_t)sim_roce_active_mtu(nd->mtu) : 5;
	/* an SA path within the subnet has hop limit 0: no GRH */
	id->hop_limit = nd ? 64 : 0;
	id->route = 1;
	id->in_tree = !!nd; /* cma_add_id_to_tree */
	id->state = UCMA_ROUTE_RESOLVED;
	ucma_event(i, RDMA_CM_EVENT_ROUTE_RESOLVED, 0, NULL);
	return 0;
}

/* ---- listen and options ---- */

static int cmd_listen(int f, const struct rdma_ucm_listen *c)
{
	struct sockaddr_storage any = {.ss_family = AF_INET};
	struct ucma_id *id;
	int i = ucma_id_find(f, c->id), ret;

	if (i < 0)
		return i;
	id = &ucma_w->ids[i];
	if (id->state == UCMA_IDLE) {
		ret = bind_addr(id, &any);
		if (ret)
			return ret;
	}
	/* a listener cannot listen again (not even for a new backlog) */
	if (id->state != UCMA_ADDR_BOUND)
		return -EINVAL;
	if (id->reuseaddr) {
		/* a listener holds its port alone (cma_bind_listen) */
		ret = port_conflict(id, ucma_sa_port(&id->src), 0);
		if (ret)
			return ret;
	}
	id->backlog = c->backlog && c->backlog <= MAX_BACKLOG ? c->backlog
							      : MAX_BACKLOG;
	id->state = UCMA_LISTEN;
	return 0;
}

static int set_option(struct ucma_id *id, int i, uint32_t level, uint32_t name,
		      const uint8_t *v, uint32_t len)
{
	int on;

	if (level == RDMA_OPTION_IB && name == RDMA_OPTION_IB_PATH) {
		if (len % sizeof(struct ib_path_rec_data) || !len)
			return -EINVAL;
		if (((const struct ib_path_rec_data *)v)->flags != 0x2b)
			return -EINVAL;
		if (!id->has_dev || id->state != UCMA_ADDR_RESOLVED)
			return -EINVAL;
		id->route = 1;
		id->state = UCMA_ROUTE_RESOLVED;
		ucma_event(i, RDMA_CM_EVENT_ROUTE_RESOLVED, 0, NULL);
		return 0;
	}
	if (level != RDMA_OPTION_ID)
		return -ENOSYS;
	switch (name) {
	case RDMA_OPTION_ID_TOS:
		if (len != 1)
			return -EINVAL;
		id->tos = v[0];
		id->tos_set = 1;
		return 0;
	case RDMA_OPTION_ID_REUSEADDR:
	case RDMA_OPTION_ID_AFONLY:
		if (len != sizeof(int))
			return -EINVAL;
		memcpy(&on, v, sizeof(on));
		if (name == RDMA_OPTION_ID_REUSEADDR) {
			if (id->state != UCMA_IDLE &&
			    (!on || id->state == UCMA_LISTEN))
				return -EINVAL;
			id->reuseaddr = !!on;
			return 0;
		}
		if (id->state != UCMA_IDLE && id->state != UCMA_ADDR_BOUND)
			return -EINVAL;
		id->afonly = !!on;
		return 0;
	case RDMA_OPTION_ID_ACK_TIMEOUT:
		if (len != 1)
			return -EINVAL;
		if (id->qp_type != IB_QPT_RC)
			return -EINVAL;
		id->ack_timeout = v[0];
		return 0;
	}
	return -ENOSYS;
}

static int cmd_set_option(int f, const struct rdma_ucm_set_option *c)
{
	uint8_t *v;
	int i = ucma_id_find(f, c->id), ret;

	if (i < 0)
		return i;
	if (c->optlen > (1u << 22))
		return -EINVAL;
	v = malloc(c->optlen ? c->optlen : 1);
	if (!v)
		return -ENOMEM;
	ret = sim_copy_from_user(v, (const void *)(uintptr_t)c->optval,
				 c->optlen);
	if (!ret)
		ret = set_option(&ucma_w->ids[i], i, c->level, c->optname, v,
				 c->optlen);
	free(v);
	return ret;
}

/* ---- queries ---- */

uint8_t ucma_roce_life(void)
{
	return sim.sh->cfg.kernel_61 ? 18 : 16;
}

/* The address's P_Key (ib_addr_get_pkey): bytes 8-9 of the netdev's
 * broadcast address, which an Ethernet one does not reach (0 on RoCE). */
static uint16_t pkey_of(const struct ucma_id *id)
{
	return id->has_dev && !sim_port_is_eth(sim.sh, id->dev) ? 0xffff : 0;
}

static void user_path(const struct ucma_id *id, struct ib_user_path_rec *p)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->dgid, id->dgid, 16);
	memcpy(p->sgid, id->sgid, 16);
	p->pkey = htobe16(0xffff);
	p->hop_limit = id->hop_limit;
	p->traffic_class = id->tos;
	p->numb_path = 1;
	p->reversible = 1;
	p->mtu = id->mtu;
	p->mtu_selector = 2;
	p->rate_selector = 2;
	p->rate = 7; /* 40 Gb/s */
	p->packet_life_time_selector = 2;
	p->packet_life_time = ucma_path_life(id);
	if (ucma_id_ib(id)) {
		p->dlid = htobe16(id->dlid);
		p->slid = htobe16(ucma_lid(id->dev));
	}
}

static int query_route(const struct ucma_id *id, uint64_t resp, uint16_t out)
{
	struct rdma_ucm_query_route_resp r;

	if (out < offsetof(struct rdma_ucm_query_route_resp, ibdev_index))
		return -ENOSPC;
	memset(&r, 0, sizeof(r));
	memcpy(&r.src_addr, &id->src, sizeof(r.src_addr));
	memcpy(&r.dst_addr, &id->dst, sizeof(r.dst_addr));
	if (id->has_dev) {
		r.node_guid = htobe64(sim_guid(id->dev));
		r.port_num = id->port;
		r.ibdev_index = id->dev;
		r.num_paths = id->route;
		/* without a path: the GIDs from the addresses */
		user_path(id, &r.ib_route[0]);
	}
	return sim_copy_to_user((void *)(uintptr_t)resp, &r,
				out < sizeof(r) ? out : sizeof(r));
}

static void to_sib(const struct ucma_id *id, const uint8_t gid[16],
		   uint64_t sid, struct ucma_sib *s)
{
	memset(s, 0, sizeof(*s));
	s->sib_family = UCMA_AF_IB;
	s->sib_pkey = htobe16(pkey_of(id));
	memcpy(s->sib_addr, gid, 16);
	s->sib_sid = htobe64(sid);
	s->sib_sid_mask = ~0ull;
}

static int query_addr(const struct ucma_id *id, int gid, uint64_t resp,
		      uint16_t out)
{
	struct rdma_ucm_query_addr_resp r;
	struct ucma_sib s;

	if (out < offsetof(struct rdma_ucm_query_addr_resp, ibdev_index))
		return -ENOSPC;
	memset(&r, 0, sizeof(r));
	if (id->has_dev) {
		r.node_guid = htobe64(sim_guid(id->dev));
		r.port_num = id->port;
		r.ibdev_index = id->dev;
	}
	r.pkey = htobe16(pkey_of(id));
	if (gid) {
		to_sib(id, id->sgid, ucma_service_id(id), &s);
		memcpy(&r.src_addr, &s, sizeof(s));
		to_sib(id, id->dgid,
		       (uint64_t)id->ps << 16 | ucma_sa_port(&id->dst), &s);
		memcpy(&r.dst_addr, &s, sizeof(s));
		r.src_size = r.dst_size = sizeof(s);
	} else {
		memcpy(&r.src_addr, &id->src, sizeof(r.src_addr));
		memcpy(&r.dst_addr, &id->dst, sizeof(r.dst_addr));
		r.src_size = (uint16_t)ucma_sa_len(&id->src);
		r.dst_size = (uint16_t)ucma_sa_len(&id->dst);
	}
	return sim_copy_to_user((void *)(uintptr_t)resp, &r,
				out < sizeof(r) ? out : sizeof(r));
}

/* The 64-byte PathRecord as the SA sends it (ib_sa_pack_path). */
static void pack_path(const struct ucma_id *id, uint8_t rec[64])
{
	uint64_t sid = htobe64(ucma_service_id(id));
	uint32_t fl = htobe32(id->hop_limit);
	uint16_t pkey = htobe16(0xffff);

	memset(rec, 0, 64);
	memcpy(rec, &sid, 8);
	memcpy(rec + 8, id->dgid, 16);
	memcpy(rec + 24, id->sgid, 16);
	memcpy(rec + 44, &fl, 4);
	rec[48] = id->tos;
	rec[49] = 0x80 | 1; /* reversible, one path */
	memcpy(rec + 50, &pkey, 2);
	rec[54] = (uint8_t)(2 << 6 | id->mtu);
	rec[55] = 2 << 6 | 7;
	rec[56] = (uint8_t)(2 << 6 | ucma_path_life(id));
	if (ucma_id_ib(id)) {
		uint16_t lid[2] = {htobe16(id->dlid),
				   htobe16(ucma_lid(id->dev))};

		memcpy(rec + 40, lid, 4);
	}
}

static int query_path(const struct ucma_id *id, uint64_t resp, uint16_t out)
{
	/* rdma_ucm_query_path_resp, then one ib_path_rec_data */
	uint8_t r[sizeof(struct rdma_ucm_query_path_resp) +
		  sizeof(struct ib_path_rec_data)] __attribute__((aligned(8)));
	struct rdma_ucm_query_path_resp *h = (void *)r;
	struct ib_path_rec_data *p = (void *)(r + sizeof(*h));
	size_t len;

	if (out < sizeof(*h))
		return -ENOSPC;
	memset(r, 0, sizeof(r));
	if (id->route) {
		h->num_paths = 1;
		p->flags = 0x2b; /* GMP | PRIMARY | BIDIRECTIONAL */
		pack_path(id, (uint8_t *)p->path_rec);
	}
	len = sizeof(*h) + h->num_paths * sizeof(*p);
	if (len > out)
		len = out;
	return sim_copy_to_user((void *)(uintptr_t)resp, r, len);
}

static int cmd_query(int f, uint32_t cmd, const struct rdma_ucm_query *c,
		     uint16_t out)
{
	const struct ucma_id *id;
	int i = ucma_id_find(f, c->id);

	if (i < 0)
		return i;
	id = &ucma_w->ids[i];
	if (cmd == RDMA_USER_CM_CMD_QUERY_ROUTE)
		return query_route(id, c->response, out);
	switch (c->option) {
	case RDMA_USER_CM_QUERY_ADDR:
		return query_addr(id, 0, c->response, out);
	case RDMA_USER_CM_QUERY_PATH:
		return query_path(id, c->response, out);
	case RDMA_USER_CM_QUERY_GID:
		return query_addr(id, 1, c->response, out);
	}
	return -ENOSYS;
}

/* ---- the passive side of a request ---- */

/* Does listener l take a REQ from AF_IB id a? Its service id is the one
 * a's destination names, and l is AF_IB itself. */
static int ib_listener(const struct ucma_id *l, const struct ucma_id *a)
{
	return l->src.ss_family == UCMA_AF_IB &&
	       ucma_service_id(l) == sib_sid(&a->dst);
}

int ucma_listener_for(const struct ucma_id *a, uint32_t *dev, uint32_t *gi)
{
	uint16_t port = ucma_sa_port(&a->dst);
	int i, best = -1, ib = a->dst.ss_family == UCMA_AF_IB;

	if (ib ? ib_port_by_gid(a->dgid, dev) : port_of(&a->dst, dev, gi)) {
		*dev = a->dev; /* loopback: the same device, GID 0 */
		*gi = 0;
	}
	if (ib)
		*gi = 0;
	for (i = 0; i < UCMA_MAX_IDS; i++) {
		const struct ucma_id *l = &ucma_w->ids[i];

		if (!l->used || l->state != UCMA_LISTEN)
			continue;
		if (ib ? !ib_listener(l, a)
		       : l->ps != a->ps || ucma_sa_port(&l->src) != port)
			continue;
		if (l->has_dev && l->dev != *dev)
			continue;
		if (same_ip(&l->src, &a->dst))
			return i; /* a bound listener wins */
		if (best < 0 && any_addr(&l->src) &&
		    (l->src.ss_family == a->dst.ss_family ||
		     (l->src.ss_family == AF_INET6 && !l->afonly)))
			best = i;
	}
	return best;
}

void ucma_id_set_dev(struct ucma_id *id, uint32_t dev, uint32_t gid_index)
{
	set_dev(id, dev, gid_index);
}

/* ---- migrate ---- */

static int cmd_migrate(int f, const struct rdma_ucm_migrate_id *c, uint16_t out)
{
	struct rdma_ucm_migrate_resp r = {0};
	struct ucma_fpriv *old;
	struct sim_fd *sf;
	int i;

	if (out < sizeof(r))
		return -ENOSPC;
	sf = sim_fd_get((int)c->fd);
	if (!sf)
		return sim_fd_of_program((int)c->fd) ? -EINVAL : -ENOENT;
	if (sf->kind != SIM_FD_DEVNODE || !ucma_is_file(sf->dev))
		return -EINVAL;
	old = sf->dev->priv;
	i = ucma_id_find(old->slot, c->id);
	if (i < 0)
		return i;
	if (old->slot != f) {
		ucma_events_move(i, f);
		ucma_drain_stale(old->slot, old->rfd);
		ucma_w->ids[i].file = f;
	}
	r.events_reported = ucma_w->ids[i].events_reported;
	return sim_copy_to_user((void *)(uintptr_t)c->response, &r, sizeof(r));
}

int ucma_cmd_id(int f, uint32_t cmd, const uint8_t *in, uint16_t out)
{
	switch (cmd) {
	case RDMA_USER_CM_CMD_CREATE_ID:
		return create_id(f, (const void *)in, out);
	case RDMA_USER_CM_CMD_DESTROY_ID:
		return destroy_id(f, (const void *)in, out);
	case RDMA_USER_CM_CMD_BIND_IP:
		return cmd_bind_ip(f, (const void *)in);
	case RDMA_USER_CM_CMD_BIND:
		return cmd_bind(f, (const void *)in);
	case RDMA_USER_CM_CMD_RESOLVE_IP:
		return cmd_resolve_ip(f, (const void *)in);
	case RDMA_USER_CM_CMD_RESOLVE_ADDR:
		return cmd_resolve_addr(f, (const void *)in);
	case RDMA_USER_CM_CMD_RESOLVE_ROUTE:
		return cmd_resolve_route(f, (const void *)in);
	case RDMA_USER_CM_CMD_QUERY_ROUTE:
	case RDMA_USER_CM_CMD_QUERY:
		return cmd_query(f, cmd, (const void *)in, out);
	case RDMA_USER_CM_CMD_LISTEN:
		return cmd_listen(f, (const void *)in);
	case RDMA_USER_CM_CMD_SET_OPTION:
		return cmd_set_option(f, (const void *)in);
	case RDMA_USER_CM_CMD_MIGRATE_ID:
		return cmd_migrate(f, (const void *)in, out);
	}
	return -EINVAL;
}
