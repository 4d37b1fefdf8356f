// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The world's network: its own network namespace (inside a new user
 * namespace when we are not root), lo up, and per Ethernet port a veth
 * named eth<D> whose peer sw<D> sits in a second, private "wire" namespace
 * on a bridge there (the switch every port is cabled to), so the world sees
 * only its ports, ARP and neighbour discovery between ports are the
 * kernel's own, carrier follows `ip link set`, and both namespaces and
 * every netdev go away with the launcher's last process. Each port gets the
 * configured addresses (default 192.168.1.<D+1>/24 and fd00::<D+1>/64, one
 * subnet as ports on one switch, without DAD).
 */
#include "launcher.h"
#include "rtnl.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <net/if.h>
#include <linux/if_addr.h>
#include <linux/ip.h>
#include <linux/veth.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -EPERM;
}

/* Keep our uid and gid inside the new user namespace. */
static int map_ids(uid_t uid, gid_t gid)
{
	char line[64];
	int ret;

	snprintf(line, sizeof(line), "%u %u 1\n", uid, uid);
	ret = write_file("/proc/self/uid_map", line);
	if (!ret)
		ret = write_file("/proc/self/setgroups", "deny");
	snprintf(line, sizeof(line), "%u %u 1\n", gid, gid);
	if (!ret)
		ret = write_file("/proc/self/gid_map", line);
	return ret;
}

/*
 * The program administers its world's network as root would (ip addr,
 * ip link): CAP_NET_ADMIN and CAP_NET_RAW in the new user namespace stay
 * across exec as ambient capabilities.
 */
static void keep_net_caps(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];
	static const int caps[] = {CAP_NET_ADMIN, CAP_NET_RAW};
	unsigned int i;

	if (syscall(SYS_capget, &h, d))
		return;
	for (i = 0; i < 2; i++)
		d[0].inheritable |= 1u << caps[i];
	if (syscall(SYS_capset, &h, d))
		return;
	for (i = 0; i < 2; i++)
		prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, caps[i], 0, 0);
}

/* Enter new network and mount namespaces, with a user namespace where
 * needed; our mounts never propagate back. */
static int new_netns(int *userns)
{
	uid_t uid = getuid();
	gid_t gid = getgid();
	int ret = 0;

	if (unshare(CLONE_NEWNET | CLONE_NEWNS)) {
		if (unshare(CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWNS))
			return -errno;
		*userns = 1;
		ret = map_ids(uid, gid);
	}
	if (!ret && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		ret = -errno;
	return ret;
}

/* Lay file `name` with text over the attribute of ib<d> in sysfs. */
static void overlay(const char *dir, unsigned int d, const char *name,
		    const char *text)
{
	char src[4200], dst[128];
	int fd;

	snprintf(src, sizeof(src), "%s/ipoib%u.%s", dir, d, name);
	snprintf(dst, sizeof(dst), "/sys/devices/virtual/net/ib%u/%s", d, name);
	fd = open(src, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0444);
	if (fd < 0)
		return;
	if (write(fd, text, strlen(text)) == (ssize_t)strlen(text))
		mount(src, dst, NULL, MS_BIND, NULL);
	close(fd);
}

/* The IPoIB QPN in the hardware address (no such QP is ever used). */
#define IPOIB_QPN 0x000048
/* Connected mode supported: the flag byte of the hardware address. */
#define IPOIB_FLAGS_RC 0x80

/*
 * What sysfs says of an IPoIB netdev that a veth cannot: type 32
 * (ARPHRD_INFINIBAND), 20-byte addresses: flags + QPN, then the port GID
 * (fe80:: + port GUID); broadcast = QPN 0xffffff + the IPv4 broadcast
 * MGID of P_Key 0xffff. rtnetlink (`ip link`) still shows the veth's.
 */
static void ipoib_sysfs(const struct sim_net_setup *ns, const char *dir,
			unsigned int d)
{
	static const uint8_t bcast[20] = {
		0x00, 0xff, 0xff, 0xff, 0xff, 0x12, 0x40, 0x1b, 0xff, 0xff,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff};
	uint64_t guid = ns->guid_base + d;
	uint8_t hw[20] = {IPOIB_FLAGS_RC,
			  (IPOIB_QPN >> 16) & 0xff,
			  (IPOIB_QPN >> 8) & 0xff,
			  IPOIB_QPN & 0xff,
			  0xfe,
			  0x80};
	char addr[64], brd[64];
	unsigned int i;

	for (i = 0; i < 8; i++)
		hw[12 + i] = (uint8_t)(guid >> (56 - 8 * i));
	for (i = 0; i < 20; i++) {
		snprintf(addr + 3 * i, 4, i < 19 ? "%02x:" : "%02x\n", hw[i]);
		snprintf(brd + 3 * i, 4, i < 19 ? "%02x:" : "%02x\n", bcast[i]);
	}
	overlay(dir, d, "address", addr);
	overlay(dir, d, "broadcast", brd);
	overlay(dir, d, "type", "32\n");
	overlay(dir, d, "addr_len", "20\n");
}

/*
 * /sys/class/net shows the network namespace of whoever mounted sysfs: a
 * sysfs of the world's own, mounted at dir/netsys, lends its net class and
 * its virtual net devices to /sys, so a program reads its own netdevs
 * there (best effort: without it the world still works).
 */
void sim_net_mount_sysfs(const struct sim_net_setup *ns, const char *dir)
{
	static const char *const parts[] = {"class/net", "devices/virtual/net"};
	char mnt[4096], src[4200], dst[64];
	unsigned int i;

	if (!ns->netns)
		return;
	snprintf(mnt, sizeof(mnt), "%s/netsys", dir);
	if (mkdir(mnt, 0755) || mount("sysfs", mnt, "sysfs", 0, NULL))
		return;
	for (i = 0; i < 2; i++) {
		snprintf(src, sizeof(src), "%s/%s", mnt, parts[i]);
		snprintf(dst, sizeof(dst), "/sys/%s", parts[i]);
		mount(src, dst, NULL, MS_BIND, NULL);
	}
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);
	for (i = 0; i < ns->nipoib; i++)
		ipoib_sysfs(ns, dir, ns->ipoib[i]);
}

/*
 * The two kinds of port netdev: an Ethernet port's, and the IPoIB
 * interface of an InfiniBand port (a veth too, on a switch of its own: the
 * IB fabric; MTU of IPoIB's datagram mode). One subnet per fabric.
 */
struct port_kind {
	const char *name, *peer, *sw; /* netdev, its peer, the switch */
	int sw_ifindex;
	uint32_t mtu;
	const char *v4, *v6; /* default addresses, %u = D + 1 */
	int ipoib;
};

static const struct port_kind kinds[2] = {
	{"eth", "sw", "switch", 100, 1500, "192.168.1.%u/24", "fd00::%x/64", 0},
	{"ib", "ibsw", "ibswitch", 101, SIM_IPOIB_MTU, "192.168.2.%u/24",
	 "fd02::%x/64", 1},
};

static int set_link(int sock, const char *name, int ifindex, unsigned int up,
		    const uint8_t *mac, int master, uint32_t mtu)
{
	struct rtnl_req r;
	struct ifinfomsg *ifi =
		rtnl_start(&r, RTM_NEWLINK, 0, sizeof(*ifi));

	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	ifi->ifi_change = IFF_UP;
	ifi->ifi_flags = up ? IFF_UP : 0;
	if (name)
		rtnl_put(&r, IFLA_IFNAME, name, strlen(name) + 1);
	if (mac)
		rtnl_put(&r, IFLA_ADDRESS, mac, 6);
	if (master)
		rtnl_put(&r, IFLA_MASTER, &master, sizeof(master));
	if (mtu)
		rtnl_put(&r, IFLA_MTU, &mtu, sizeof(mtu));
	return rtnl_talk(sock, &r, NULL, NULL);
}

/* One attribute of address family fam in a link's IFLA_AF_SPEC, inside
 * nest `conf` of it unless conf is 0. */
static int set_af_spec(int sock, int ifindex, int fam, int conf, int type,
		       const void *data, size_t len)
{
	struct rtattr *spec, *af, *c = NULL;
	struct ifinfomsg *ifi;
	struct rtnl_req r;

	ifi = rtnl_start(&r, RTM_NEWLINK, 0, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	spec = rtnl_nest(&r, IFLA_AF_SPEC);
	af = rtnl_nest(&r, (uint16_t)fam);
	if (conf)
		c = rtnl_nest(&r, (uint16_t)conf);
	rtnl_put(&r, (uint16_t)type, data, len);
	if (c)
		rtnl_nest_end(&r, c);
	rtnl_nest_end(&r, af);
	rtnl_nest_end(&r, spec);
	return rtnl_talk(sock, &r, NULL, NULL);
}

/*
 * Ports of one host on one switch answer each other's ARP only when a
 * packet from an address of this host is welcome (the kernel drops it as
 * a martian otherwise): accept_local on the port, as a host whose ports
 * talk RoCE to each other is configured.
 */
static int accept_local(int sock, int ifindex)
{
	uint32_t one = 1;

	return set_af_spec(sock, ifindex, AF_INET, IFLA_INET_CONF,
			   IPV4_DEVCONF_ACCEPT_LOCAL, &one, sizeof(one));
}

/*
 * IPoIB's IPv6 link-local address comes from the port GUID (the last 8
 * bytes of its hardware address, universal/local bit flipped), not from
 * a MAC: the kernel's own EUI-64 address is turned off before the link
 * goes up and this one added.
 */
static int ipoib_link_local(int sock, int ifindex, uint64_t guid)
{
	uint8_t none = IN6_ADDR_GEN_MODE_NONE;
	char ll[64];
	int ret;

	ret = set_af_spec(sock, ifindex, AF_INET6, 0, IFLA_INET6_ADDR_GEN_MODE,
			  &none, sizeof(none));
	snprintf(ll, sizeof(ll), "fe80::%x:%x:%x:%x/64",
		 (unsigned int)(guid >> 48 ^ 0x0200),
		 (unsigned int)(guid >> 32 & 0xffff),
		 (unsigned int)(guid >> 16 & 0xffff),
		 (unsigned int)(guid & 0xffff));
	return ret ? ret : sim_net_add_addr(sock, ifindex, ll);
}

/* The switch of kind k: a bridge in the wire namespace, up. */
static int add_switch(int sock, const struct port_kind *k)
{
	struct rtattr *info, *data;
	struct ifinfomsg *ifi;
	struct rtnl_req r;
	uint8_t off = 0;
	int ret;

	ifi = rtnl_start(&r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL,
			 sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = k->sw_ifindex;
	rtnl_put(&r, IFLA_IFNAME, k->sw, strlen(k->sw) + 1);
	info = rtnl_nest(&r, IFLA_LINKINFO);
	rtnl_put(&r, IFLA_INFO_KIND, "bridge", 7);
	/* a plain switch: multicast (neighbour solicitations) floods */
	data = rtnl_nest(&r, IFLA_INFO_DATA);
	rtnl_put(&r, IFLA_BR_MCAST_SNOOPING, &off, sizeof(off));
	rtnl_nest_end(&r, data);
	rtnl_nest_end(&r, info);
	ret = rtnl_talk(sock, &r, NULL, NULL);
	return ret ? ret : set_link(sock, NULL, k->sw_ifindex, 1, NULL, 0, 0);
}

/* veth `name` here, its peer `peer` in the namespace of wire_fd. */
static int add_veth(int sock, const char *name, const char *peer,
		    int wire_fd)
{
	struct rtattr *info, *data, *pinfo;
	struct ifinfomsg *ifi, *pifi;
	struct rtnl_req r;

	ifi = rtnl_start(&r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL,
			 sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	rtnl_put(&r, IFLA_IFNAME, name, strlen(name) + 1);
	info = rtnl_nest(&r, IFLA_LINKINFO);
	rtnl_put(&r, IFLA_INFO_KIND, "veth", 5);
	data = rtnl_nest(&r, IFLA_INFO_DATA);
	pinfo = rtnl_nest(&r, VETH_INFO_PEER);
	pifi = (struct ifinfomsg *)(r.buf + r.h->nlmsg_len);
	memset(pifi, 0, sizeof(*pifi));
	r.h->nlmsg_len += sizeof(*pifi);
	rtnl_put(&r, IFLA_IFNAME, peer, strlen(peer) + 1);
	rtnl_put(&r, IFLA_NET_NS_FD, &wire_fd, sizeof(wire_fd));
	rtnl_nest_end(&r, pinfo);
	rtnl_nest_end(&r, data);
	rtnl_nest_end(&r, info);
	return rtnl_talk(sock, &r, NULL, NULL);
}

int sim_net_add_addr(int sock, int ifindex, const char *cidr)
{
	char buf[INET6_ADDRSTRLEN + 8], *slash;
	struct ifaddrmsg *ifa;
	struct rtnl_req r;
	uint8_t a[16];
	uint32_t flags = IFA_F_NODAD;
	int fam, plen;

	snprintf(buf, sizeof(buf), "%s", cidr);
	slash = strchr(buf, '/');
	if (slash)
		*slash = 0;
	fam = strchr(buf, ':') ? AF_INET6 : AF_INET;
	if (inet_pton(fam, buf, a) != 1)
		return -EINVAL;
	plen = slash ? atoi(slash + 1) : (fam == AF_INET ? 24 : 64);
	if (plen < 0 || plen > (fam == AF_INET ? 32 : 128))
		return -EINVAL;
	ifa = rtnl_start(&r, RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL,
			 sizeof(*ifa));
	ifa->ifa_family = (uint8_t)fam;
	ifa->ifa_prefixlen = (uint8_t)plen;
	ifa->ifa_index = (uint32_t)ifindex;
	rtnl_put(&r, IFA_LOCAL, a, fam == AF_INET ? 4 : 16);
	rtnl_put(&r, IFA_ADDRESS, a, fam == AF_INET ? 4 : 16);
	rtnl_put(&r, IFA_FLAGS, &flags, sizeof(flags));
	return rtnl_talk(sock, &r, NULL, NULL);
}

/* The port's MAC: the node GUID with its EUI-64 undone. */
static void port_mac(uint64_t guid, uint8_t mac[6])
{
	mac[0] = (uint8_t)(guid >> 56) ^ 2;
	mac[1] = (uint8_t)(guid >> 48);
	mac[2] = (uint8_t)(guid >> 40);
	mac[3] = (uint8_t)(guid >> 16);
	mac[4] = (uint8_t)(guid >> 8);
	mac[5] = (uint8_t)guid;
}

static int add_port(struct sim_net_setup *ns, const struct port_kind *k,
		    unsigned int d, const char *const *addrs,
		    unsigned int naddr)
{
	char name[16], peer[16], def[64];
	uint8_t mac[6];
	unsigned int i;
	int ifindex, ret;

	snprintf(name, sizeof(name), "%s%u", k->name, d);
	snprintf(peer, sizeof(peer), "%s%u", k->peer, d);
	ret = add_veth(ns->world_sock, name, peer, ns->wire_fd);
	if (ret)
		return ret;
	ifindex = (int)if_nametoindex(name);
	if (!ifindex)
		return -ENODEV;
	port_mac(ns->guid_base + d, mac);
	ret = k->ipoib ? ipoib_link_local(ns->world_sock, ifindex,
					  ns->guid_base + d)
		       : 0;
	if (!ret)
		ret = set_link(ns->world_sock, NULL, ifindex, 1, mac, 0,
			       k->mtu);
	if (!ret)
		ret = accept_local(ns->world_sock, ifindex);
	if (!ret)
		ret = set_link(ns->wire_sock, peer, 0, 1, NULL, k->sw_ifindex,
			       k->mtu);
	for (i = 0; !ret && i < naddr; i++)
		if (strcmp(addrs[i], "none")) /* --addr D=none: no defaults */
			ret = sim_net_add_addr(ns->world_sock, ifindex,
					       addrs[i]);
	if (ret || naddr)
		return ret;
	snprintf(def, sizeof(def), k->v4, d + 1);
	ret = sim_net_add_addr(ns->world_sock, ifindex, def);
	snprintf(def, sizeof(def), k->v6, d + 1);
	return ret ? ret : sim_net_add_addr(ns->world_sock, ifindex, def);
}

/*
 * A veth's carrier reaches the kernel's link watch some time after `ip
 * link set up` returned (up to a second, more under load), and IPv6 sets
 * up the link (its fe80::/64 route: the way to every link-local default
 * GID) only then. A program started before would find no route to a
 * peer's default GID (ENETUNREACH at RTR), so the world waits for each
 * port's link-local route; a port whose IPv6 is off never gets one, so
 * the wait is bounded.
 */
#define LINK_READY_MS 5000

static int link_routed(int sock, int ifindex)
{
	static const uint8_t ll[16] = {0xfe, 0x80, [15] = 1};
	struct rtnl_req r;
	struct rtmsg *rt = rtnl_start(&r, RTM_GETROUTE, 0, sizeof(*rt));

	rt->rtm_family = AF_INET6;
	rt->rtm_dst_len = 128;
	rtnl_put(&r, RTA_DST, ll, sizeof(ll));
	rtnl_put(&r, RTA_OIF, &ifindex, sizeof(ifindex));
	return !rtnl_talk(sock, &r, NULL, NULL);
}

static void wait_links(const struct sim_net_setup *ns,
		       const struct sim_launch *l)
{
	const struct timespec step = {.tv_nsec = 2000000};
	unsigned int d, waited = 0;
	char name[16];
	int ifindex;

	for (d = 0; d < l->cfg.ndev; d++) {
		snprintf(name, sizeof(name), "%s%u",
			 kinds[!l->cfg.link_eth[d]].name, d);
		ifindex = (int)if_nametoindex(name);
		while (ifindex && !link_routed(ns->world_sock, ifindex) &&
		       waited < LINK_READY_MS / 2) {
			nanosleep(&step, NULL);
			waited++;
		}
	}
}

int sim_net_setup(struct sim_launch *l, struct sim_net_setup *ns)
{
	unsigned int d, i, n, need = 0;
	const char *addrs[SIM_MAX_ADDRS];
	int userns = 0, ret;

	ns->wire_fd = ns->wire_sock = ns->world_sock = -1;
	ns->nipoib = 0;
	for (d = 0; d < l->cfg.ndev; d++)
		need += l->cfg.link_eth[d];
	if (l->cfg.netns == SIM_NETNS_NEVER)
		return need ? -EOPNOTSUPP : 0;
	/* an IB-only world stays in ours unless asked: programs that look
	 * up this host's name find its address there */
	if (!need && l->cfg.netns == SIM_NETNS_AUTO)
		return 0;
	/* the wire first, then the world inside the same user namespace */
	ret = new_netns(&userns);
	if (ret)
		return need ? ret : 0; /* an IB-only world can do without */
	ns->wire_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	ns->wire_sock = rtnl_open(0);
	if (ns->wire_fd < 0 || ns->wire_sock < 0 || unshare(CLONE_NEWNET))
		return -errno;
	if (userns)
		keep_net_caps();
	ns->world_sock = rtnl_open(0);
	if (ns->world_sock < 0)
		return ns->world_sock;
	ns->netns = 1;
	/* no DAD in the world: addresses (link-local too) are usable, and
	 * their GIDs resolvable, from the start (a network administrator
	 * may write net sysctls in its namespace) */
	write_file("/proc/sys/net/ipv6/conf/all/accept_dad", "0");
	write_file("/proc/sys/net/ipv6/conf/default/accept_dad", "0");
	ret = set_link(ns->world_sock, "lo", 0, 1, NULL, 0, 0);
	if (!ret && need)
		ret = add_switch(ns->wire_sock, &kinds[0]);
	if (!ret && need < l->cfg.ndev)
		ret = add_switch(ns->wire_sock, &kinds[1]);
	for (d = 0; !ret && d < l->cfg.ndev; d++) {
		/* IB ports past the netdev table have no IPoIB interface */
		if (!l->cfg.link_eth[d] && ns->nipoib == SIM_MAX_NETDEVS)
			continue;
		for (i = n = 0; i < l->naddr; i++)
			if (l->addr_dev[i] == d)
				addrs[n++] = l->addr[i];
		ret = add_port(ns, &kinds[!l->cfg.link_eth[d]], d, addrs, n);
		if (!l->cfg.link_eth[d])
			ns->ipoib[ns->nipoib++] = d;
	}
	if (!ret)
		wait_links(ns, l);
	return ret;
}

void sim_net_teardown(struct sim_net_setup *ns)
{
	if (ns->world_sock >= 0)
		close(ns->world_sock);
	if (ns->wire_sock >= 0)
		close(ns->wire_sock);
	if (ns->wire_fd >= 0)
		close(ns->wire_fd);
}
