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
}

#define SWITCH_IFINDEX 100 /* the bridge, alone in the wire namespace */

static int set_link(int sock, const char *name, int ifindex, unsigned int up,
		    const uint8_t *mac, int master)
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
	struct rtattr *spec, *inet, *conf;
	struct ifinfomsg *ifi;
	struct rtnl_req r;
	uint32_t one = 1;

	ifi = rtnl_start(&r, RTM_NEWLINK, 0, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	spec = rtnl_nest(&r, IFLA_AF_SPEC);
	inet = rtnl_nest(&r, AF_INET);
	conf = rtnl_nest(&r, IFLA_INET_CONF);
	rtnl_put(&r, IPV4_DEVCONF_ACCEPT_LOCAL, &one, sizeof(one));
	rtnl_nest_end(&r, conf);
	rtnl_nest_end(&r, inet);
	rtnl_nest_end(&r, spec);
	return rtnl_talk(sock, &r, NULL, NULL);
}

/* The switch: a bridge in the wire namespace, up. */
static int add_switch(int sock)
{
	struct rtattr *info, *data;
	struct ifinfomsg *ifi;
	struct rtnl_req r;
	uint8_t off = 0;
	int ret;

	ifi = rtnl_start(&r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL,
			 sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = SWITCH_IFINDEX;
	rtnl_put(&r, IFLA_IFNAME, "switch", 7);
	info = rtnl_nest(&r, IFLA_LINKINFO);
	rtnl_put(&r, IFLA_INFO_KIND, "bridge", 7);
	/* a plain switch: multicast (neighbour solicitations) floods */
	data = rtnl_nest(&r, IFLA_INFO_DATA);
	rtnl_put(&r, IFLA_BR_MCAST_SNOOPING, &off, sizeof(off));
	rtnl_nest_end(&r, data);
	rtnl_nest_end(&r, info);
	ret = rtnl_talk(sock, &r, NULL, NULL);
	return ret ? ret : set_link(sock, NULL, SWITCH_IFINDEX, 1, NULL, 0);
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

static int add_port(struct sim_net_setup *ns, unsigned int d,
		    const char *const *addrs, unsigned int naddr)
{
	char name[16], peer[16], def[64];
	uint8_t mac[6];
	unsigned int i;
	int ifindex, ret;

	snprintf(name, sizeof(name), "eth%u", d);
	snprintf(peer, sizeof(peer), "sw%u", d);
	ret = add_veth(ns->world_sock, name, peer, ns->wire_fd);
	if (ret)
		return ret;
	ifindex = (int)if_nametoindex(name);
	if (!ifindex)
		return -ENODEV;
	port_mac(ns->guid_base + d, mac);
	ret = set_link(ns->world_sock, NULL, ifindex, 1, mac, 0);
	if (!ret)
		ret = accept_local(ns->world_sock, ifindex);
	if (!ret)
		ret = set_link(ns->wire_sock, peer, 0, 1, NULL, SWITCH_IFINDEX);
	for (i = 0; !ret && i < naddr; i++)
		ret = sim_net_add_addr(ns->world_sock, ifindex, addrs[i]);
	if (ret || naddr)
		return ret;
	snprintf(def, sizeof(def), "192.168.1.%u/24", d + 1);
	ret = sim_net_add_addr(ns->world_sock, ifindex, def);
	snprintf(def, sizeof(def), "fd00::%x/64", d + 1);
	return ret ? ret : sim_net_add_addr(ns->world_sock, ifindex, def);
}

int sim_net_setup(struct sim_launch *l, struct sim_net_setup *ns)
{
	unsigned int d, i, n, need = 0;
	const char *addrs[SIM_MAX_ADDRS];
	int userns = 0, ret;

	ns->wire_fd = ns->wire_sock = ns->world_sock = -1;
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
	ret = set_link(ns->world_sock, "lo", 0, 1, NULL, 0);
	if (!ret && need)
		ret = add_switch(ns->wire_sock);
	for (d = 0; !ret && d < l->cfg.ndev; d++) {
		if (!l->cfg.link_eth[d])
			continue;
		for (i = n = 0; i < l->naddr; i++)
			if (l->addr_dev[i] == d)
				addrs[n++] = l->addr[i];
		ret = add_port(ns, d, addrs, n);
	}
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
