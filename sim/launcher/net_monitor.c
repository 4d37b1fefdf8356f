// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The kernel's roce_gid_mgmt for the world: the launcher listens to
 * rtnetlink (links, IPv4 and IPv6 addresses, neighbours for the RDMA CM:
 * net_neigh.c) in the world's namespace and
 * keeps each Ethernet port's GID table, link state and MTU in the shared
 * state. A new address adds one entry per GID type (v1 before v2), a
 * removed one deletes them; the bound netdev going from running to not (or
 * back) is PORT_ERR (PORT_ACTIVE). Admin-down removes IPv6 addresses in
 * the kernel itself, which arrives here as their RTM_DELADDR. The first
 * pass dumps links and addresses through the same handler, so addresses
 * land in the kernel's registration order (IPv4, then IPv6).
 */
#include "launcher.h"
#include "device_model.h"
#include "rtnl.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <unistd.h>

enum {
	IBV_EVENT_PORT_ACTIVE = 9,
	IBV_EVENT_PORT_ERR = 10,
	IBV_EVENT_GID_CHANGE = 18
};

static struct {
	struct sim_shared *sh;
	const char *dir;
	int sock;
	int stop_fd; /* an eventfd: the launcher is done */
	int reg_fd;  /* <dir>/register, read end: devices to register */
	pthread_t thread;
	int running;
	int rescan; /* a MAC changed: its addresses are added again */
} mon = {.sock = -1, .stop_fd = -1, .reg_fd = -1};

static struct sim_netdev *netdev_by_ifindex(int ifindex)
{
	struct sim_net *net = &mon.sh->net;
	uint32_t i;

	for (i = 0; i < net->nnetdev; i++)
		if (net->nd[i].ifindex == ifindex)
			return &net->nd[i];
	return NULL;
}

static struct sim_ipoib *ipoib_by_ifindex(int ifindex)
{
	struct sim_net *net = &mon.sh->net;
	uint32_t i;

	for (i = 0; i < net->nipoib; i++)
		if (net->ib[i].ifindex == ifindex)
			return &net->ib[i];
	return NULL;
}

/* An IPoIB link's state (nothing else follows from it: an IB port's
 * state is the SM's, not its IPoIB netdev's). */
static void on_ipoib_link(struct sim_ipoib *ib, const struct ifinfomsg *ifi)
{
	ib->up = !!(ifi->ifi_flags & IFF_UP);
	ib->running = ib->up && (ifi->ifi_flags & IFF_RUNNING);
}

/* An address of an IPoIB netdev added or removed. */
static void on_ipoib_addr(struct sim_ipoib *ib, const uint8_t a[16], int add)
{
	uint32_t k;

	for (k = 0; k < ib->naddr; k++)
		if (!memcmp(ib->addr[k], a, 16))
			break;
	if (add && k == ib->naddr && k < SIM_IPOIB_ADDRS)
		memcpy(ib->addr[ib->naddr++], a, 16);
	if (add || k == ib->naddr)
		return;
	memmove(ib->addr[k], ib->addr[k + 1], (ib->naddr - k - 1) * 16);
	ib->naddr--;
}

/* CHANGEADDR: every GID of the netdev goes, defaults and addresses come
 * back from the new MAC. */
static void new_mac(struct sim_netdev *nd, const uint8_t *mac)
{
	uint32_t i;

	for (i = 0; i < nd->gid_tbl_len; i++) {
		if (nd->gids[i].state != SIM_GID_VALID)
			continue;
		nd->gids[i].state = SIM_GID_EMPTY;
		sim_net_event(nd, IBV_EVENT_GID_CHANGE);
	}
	memcpy(nd->mac, mac, 6);
	sim_gid_add_defaults(nd);
	mon.rescan = 1;
}

static void on_link(struct nlmsghdr *h)
{
	struct ifinfomsg *ifi = NLMSG_DATA(h);
	struct sim_netdev *nd = netdev_by_ifindex(ifi->ifi_index);
	int len = (int)IFLA_PAYLOAD(h);
	uint8_t running;
	struct rtattr *a;

	if (!nd && h->nlmsg_type == RTM_NEWLINK &&
	    ipoib_by_ifindex(ifi->ifi_index))
		on_ipoib_link(ipoib_by_ifindex(ifi->ifi_index), ifi);
	if (!nd || h->nlmsg_type != RTM_NEWLINK)
		return;
	for (a = IFLA_RTA(ifi); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (a->rta_type == IFLA_MTU)
			memcpy(&nd->mtu, RTA_DATA(a), 4);
		if (a->rta_type == IFLA_ADDRESS && RTA_PAYLOAD(a) == 6 &&
		    memcmp(nd->mac, RTA_DATA(a), 6))
			new_mac(nd, RTA_DATA(a));
	}
	running = (ifi->ifi_flags & IFF_UP) && (ifi->ifi_flags & IFF_RUNNING);
	nd->up = !!(ifi->ifi_flags & IFF_UP);
	if (running != nd->running)
		sim_net_event(nd, running ? IBV_EVENT_PORT_ACTIVE
					  : IBV_EVENT_PORT_ERR);
	nd->running = running;
}

static void on_addr(struct nlmsghdr *h)
{
	struct ifaddrmsg *ifa = NLMSG_DATA(h);
	struct sim_netdev *nd = netdev_by_ifindex((int)ifa->ifa_index);
	int len = (int)IFA_PAYLOAD(h);
	uint8_t gid[16] = {0};
	struct rtattr *a;
	unsigned int t;
	int found = 0;

	if (!nd && !ipoib_by_ifindex((int)ifa->ifa_index))
		return;
	for (a = IFA_RTA(ifa); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (ifa->ifa_family == AF_INET && a->rta_type == IFA_LOCAL) {
			gid[10] = gid[11] = 0xff;
			memcpy(gid + 12, RTA_DATA(a), 4);
			found = 1;
		} else if (ifa->ifa_family == AF_INET6 &&
			   a->rta_type == IFA_ADDRESS) {
			memcpy(gid, RTA_DATA(a), 16);
			found = 1;
		}
	}
	if (!found)
		return;
	if (!nd) {
		on_ipoib_addr(ipoib_by_ifindex((int)ifa->ifa_index), gid,
			      h->nlmsg_type == RTM_NEWADDR);
		return;
	}
	for (t = SIM_GID_ROCE_V1; t <= SIM_GID_ROCE_V2; t++) {
		if (!(nd->types & (1u << t)))
			continue;
		if (h->nlmsg_type == RTM_NEWADDR)
			sim_gid_add(nd, gid, (uint8_t)t, nd->ifindex, -1);
		else
			sim_gid_del(nd, gid, (uint8_t)t, nd->ifindex);
	}
}

/* A neighbour of a RoCE port's netdev (IPoIB's are not RoCE's). */
static void on_neigh(struct nlmsghdr *h)
{
	const struct ndmsg *ndm = NLMSG_DATA(h);
	struct sim_netdev *nd;

	if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*ndm)))
		return;
	nd = netdev_by_ifindex(ndm->ndm_ifindex);
	if (nd)
		sim_neigh_msg(nd, h);
}

/* Apply one datagram of rtnetlink messages. 1 when a dump ended. */
static int handle(uint8_t *buf, ssize_t n)
{
	struct nlmsghdr *h;
	uint32_t i;
	int done = 0;

	sim_shared_lock(mon.sh);
	for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
	     h = NLMSG_NEXT(h, n)) {
		if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR)
			done = 1;
		else if (h->nlmsg_type == RTM_NEWLINK ||
			 h->nlmsg_type == RTM_DELLINK)
			on_link(h);
		else if (h->nlmsg_type == RTM_NEWADDR ||
			 h->nlmsg_type == RTM_DELADDR)
			on_addr(h);
		else if (h->nlmsg_type == RTM_NEWNEIGH ||
			 h->nlmsg_type == RTM_DELNEIGH)
			on_neigh(h);
	}
	sim_shared_unlock(mon.sh);
	for (i = 0; i < mon.sh->net.nnetdev; i++)
		sim_sysfs_write_roce_port(mon.dir, mon.sh, i);
	sim_net_wake(mon.sh);
	return done;
}

static int dump(uint16_t type)
{
	uint8_t buf[16384] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct rtnl_req r;
	struct rtgenmsg *g = rtnl_start(&r, type, NLM_F_DUMP, sizeof(*g));
	ssize_t n;

	g->rtgen_family = AF_UNSPEC;
	r.h->nlmsg_flags &= (uint16_t)~NLM_F_ACK;
	if (send(mon.sock, r.buf, r.h->nlmsg_len, 0) < 0)
		return -errno;
	do {
		n = recv(mon.sock, buf, sizeof(buf), 0);
		if (n < 0)
			return -errno;
	} while (!handle(buf, n));
	return 0;
}

/*
 * `rdma link add` of a gone rxe device (core/netlink_link.c) marked it
 * REGISTERING and wrote a byte to the FIFO: its sysfs directory, uverbs
 * and MAD nodes and GID files come back as at start-up, then it is live
 * (the request waits for that).
 */
static void register_devices(void)
{
	char tok[64];
	uint32_t d;

	while (read(mon.reg_fd, tok, sizeof(tok)) > 0)
		;
	for (d = 0; d < mon.sh->cfg.ndev; d++) {
		if (__atomic_load_n(&mon.sh->dev_state[d], __ATOMIC_ACQUIRE) !=
		    SIM_DEV_REGISTERING)
			continue;
		/* files only, as handle() writes them: no lock */
		if (sim_sysfs_register_device(mon.dir, mon.sh, d))
			fprintf(stderr, "rdma-sim: device %u: sysfs not "
					"written again\n", d);
		__atomic_store_n(&mon.sh->dev_state[d], SIM_DEV_LIVE,
				 __ATOMIC_RELEASE);
	}
	sim_net_wake(mon.sh);
}

static void *monitor_main(void *arg)
{
	uint8_t buf[16384] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct pollfd p[3] = {{.fd = mon.sock, .events = POLLIN},
			      {.fd = mon.stop_fd, .events = POLLIN},
			      {.fd = mon.reg_fd, .events = POLLIN}};
	ssize_t n;

	(void)arg;
	for (;;) {
		if (poll(p, 3, -1) < 0 && errno != EINTR)
			break;
		if (p[1].revents)
			break;
		if (p[2].revents)
			register_devices();
		if (!p[0].revents)
			continue;
		n = recv(mon.sock, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;
		handle(buf, n);
		if (mon.rescan) {
			mon.rescan = 0;
			dump(RTM_GETADDR);
		}
	}
	return NULL;
}

/*
 * A port is usable once the kernel's link watch has run for its carrier
 * (until then its queue drops what is sent: ARP requests, for one). PROGRAM
 * starts when every port is running, as on a host whose links are up.
 */
static void on_wire_link(const struct nlmsghdr *h, void *arg)
{
	const struct ifinfomsg *ifi = NLMSG_DATA(h);

	if (h->nlmsg_type == RTM_NEWLINK && (ifi->ifi_flags & IFF_UP) &&
	    !(ifi->ifi_flags & IFF_RUNNING))
		*(int *)arg = 0;
}

/* Every link up in the wire namespace (the switch, its ports) running. */
static int wire_running(int sock)
{
	struct rtnl_req r;
	struct rtgenmsg *g = rtnl_start(&r, RTM_GETLINK, NLM_F_DUMP,
					sizeof(*g));
	int all = 1;

	g->rtgen_family = AF_UNSPEC;
	if (rtnl_talk(sock, &r, on_wire_link, &all))
		return 1; /* cannot tell: do not wait */
	return all;
}

static void wait_running(int wire_sock)
{
	uint8_t buf[16384] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct pollfd p = {.fd = mon.sock, .events = POLLIN};
	int tries = 0;
	uint32_t i;
	ssize_t n;

	for (;;) {
		for (i = 0; i < mon.sh->net.nnetdev; i++)
			if (!mon.sh->net.nd[i].running)
				break;
		if ((i == mon.sh->net.nnetdev && wire_running(wire_sock)) ||
		    tries++ == 50)
			return;
		if (poll(&p, 1, 100) != 1)
			continue;
		n = recv(mon.sock, buf, sizeof(buf), MSG_DONTWAIT);
		if (n > 0)
			handle(buf, n);
	}
}

/* A datagram from port a's netdev to address gid (discard port): the
 * kernel asks for the neighbour, as traffic seen on a switch would. */
static void greet(const struct sim_netdev *a, const uint8_t *gid)
{
	struct sockaddr_in6 s6 = {.sin6_family = AF_INET6,
				  .sin6_port = htons(9)};
	struct sockaddr_in s4 = {.sin_family = AF_INET, .sin_port = htons(9)};
	int v4 = !memcmp(gid, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12);
	int fd = socket(v4 ? AF_INET : AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	memcpy(&s4.sin_addr, gid + 12, 4);
	memcpy(&s6.sin6_addr, gid, 16);
	if (!setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, a->ifname,
			(socklen_t)strlen(a->ifname)))
		sendto(fd, "", 1, MSG_DONTWAIT,
		       v4 ? (struct sockaddr *)&s4 : (struct sockaddr *)&s6,
		       v4 ? sizeof(s4) : sizeof(s6));
	close(fd);
}

/* Ports of one world have talked before PROGRAM starts: each has asked
 * for the others' addresses, so their first address vectors resolve at
 * once instead of waiting for ARP behind a busy host. */
static void introduce_ports(void)
{
	struct sim_net *net = &mon.sh->net;
	const struct sim_gid_slot *g;
	uint32_t a, b, i;

	for (a = 0; a < net->nnetdev; a++)
		for (b = 0; b < net->nnetdev; b++)
			for (i = net->nd[b].ndefault;
			     a != b && i < net->nd[b].gid_tbl_len; i++) {
				g = &net->nd[b].gids[i];
				if (g->state == SIM_GID_VALID &&
				    g->type == SIM_GID_ROCE_V2)
					greet(&net->nd[a], g->gid);
			}
}

static void port_of(struct sim_netdev *nd, unsigned int d, unsigned int drv)
{
	nd->dev = d;
	nd->port = 1;
	snprintf(nd->ifname, sizeof(nd->ifname), "eth%u", d);
	nd->ifindex = (int32_t)if_nametoindex(nd->ifname);
	if (drv == SIM_DRIVER_RXE) {
		nd->gid_tbl_len = 1024; /* RXE_PORT_GID_TBL_LEN */
		nd->types = 1u << SIM_GID_ROCE_V2;
		nd->ndefault = 1;
	} else {
		nd->gid_tbl_len = SIM_MLX5_ROCE_GIDS;
		nd->types = (1u << SIM_GID_ROCE_V1) | (1u << SIM_GID_ROCE_V2);
		nd->ndefault = 2;
	}
}

static int map_state(const char *dir)
{
	char path[SIM_PATH_LEN + 16];
	void *p;
	int fd;

	sim_state_path(path, sizeof(path), dir);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	p = mmap(NULL, sizeof(*mon.sh), PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -errno;
	mon.sh = p;
	return 0;
}

/* The FIFO rdma link add writes to (a world without it: no re-adding). */
static int open_register_fifo(const char *dir)
{
	char path[SIM_PATH_LEN + 16];

	snprintf(path, sizeof(path), "%s/%s", dir, SIM_REGISTER_FIFO);
	if (mkfifo(path, 0600) && errno != EEXIST)
		return -1;
	return open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
}

int sim_net_monitor_start(const char *dir, const struct sim_launch *l,
			  const struct sim_net_setup *ns)
{
	struct sim_net *net;
	uint32_t d;
	int ret;

	ret = map_state(dir);
	if (ret)
		return ret;
	mon.dir = dir;
	net = &mon.sh->net;
	net->netns = (uint32_t)ns->netns;
	for (d = 0; d < SIM_MAX_DEVICES; d++)
		net->netdev_of[d] = -1;
	for (d = 0; d < l->cfg.ndev; d++) {
		if (!l->cfg.link_eth[d])
			continue;
		if (net->nnetdev == SIM_MAX_NETDEVS)
			return -ENOSPC;
		net->netdev_of[d] = (int16_t)net->nnetdev;
		port_of(&net->nd[net->nnetdev++], d, l->cfg.driver);
	}
	for (d = 0; d < ns->nipoib; d++) {
		struct sim_ipoib *ib = &net->ib[net->nipoib++];

		ib->dev = ns->ipoib[d];
		snprintf(ib->ifname, sizeof(ib->ifname), "ib%u", ib->dev);
		ib->ifindex = (int32_t)if_nametoindex(ib->ifname);
	}
	if (!net->nnetdev && !net->nipoib)
		return 0;
	mon.sock = rtnl_open(RTMGRP_LINK | RTMGRP_IPV4_IFADDR |
			     RTMGRP_IPV6_IFADDR | RTMGRP_NEIGH);
	if (mon.sock < 0)
		return mon.sock;
	/* the link dump gives each port its MAC, and with it its defaults */
	ret = dump(RTM_GETLINK);
	if (!ret)
		ret = dump(RTM_GETADDR);
	if (!ret)
		ret = dump(RTM_GETNEIGH);
	if (ret)
		return ret;
	mon.rescan = 0;
	wait_running(ns->wire_sock);
	introduce_ports();
	mon.stop_fd = eventfd(0, EFD_CLOEXEC);
	if (mon.stop_fd < 0)
		return -errno;
	mon.reg_fd = open_register_fifo(dir);
	mon.running = 1;
	ret = -pthread_create(&mon.thread, NULL, monitor_main, NULL);
	if (ret)
		mon.running = 0;
	return ret;
}

void sim_net_monitor_stop(void)
{
	uint64_t one = 1;

	if (mon.running) {
		mon.running = 0;
		if (write(mon.stop_fd, &one, sizeof(one)) == sizeof(one))
			pthread_join(mon.thread, NULL);
	}
	if (mon.stop_fd >= 0)
		close(mon.stop_fd);
	if (mon.reg_fd >= 0)
		close(mon.reg_fd);
	mon.reg_fd = -1;
	if (mon.sock >= 0)
		close(mon.sock);
	mon.sock = mon.stop_fd = -1;
}
