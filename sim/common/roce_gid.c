// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RoCE GID tables as the kernel's core/cache.c keeps them: default GIDs in
 * reserved slots 0..n-1 (one per supported type), every other entry in the
 * lowest free slot, keyed by (GID, type, netdev) so re-adding a key is a
 * no-op, zero GIDs never stored, one GID_CHANGE per add and per delete.
 */
#include "netdev.h"
#include "sim_shared.h"

#include <errno.h>
#include <linux/futex.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { IBV_EVENT_GID_CHANGE = 18 };

struct sim_netdev *sim_netdev_of(struct sim_shared *sh, unsigned int dev,
				 unsigned int port)
{
	int i;

	if (dev >= SIM_MAX_DEVICES || port != 1 || !sh->net.nnetdev)
		return NULL;
	i = sh->net.netdev_of[dev];
	return i < 0 ? NULL : &sh->net.nd[i];
}

int sim_port_is_eth(struct sim_shared *sh, unsigned int dev)
{
	return dev < SIM_MAX_DEVICES && sh->cfg.link_eth[dev];
}

int sim_gid_get(struct sim_shared *sh, struct sim_netdev *nd, uint32_t index,
		struct sim_gid_slot *out)
{
	int ret = 0;

	if (index >= nd->gid_tbl_len)
		return -EINVAL;
	sim_shared_lock(sh);
	if (nd->gids[index].state != SIM_GID_VALID)
		ret = -ENODATA;
	else
		*out = nd->gids[index];
	sim_shared_unlock(sh);
	return ret;
}

static int same_key(const struct sim_gid_slot *s, const uint8_t gid[16],
		    uint8_t type, int32_t ifindex)
{
	return s->state == SIM_GID_VALID && s->type == type &&
	       s->ifindex == ifindex && !memcmp(s->gid, gid, 16);
}

int sim_gid_find(struct sim_netdev *nd, const uint8_t gid[16], uint8_t type)
{
	uint32_t i;

	for (i = 0; i < nd->gid_tbl_len; i++)
		if (nd->gids[i].state == SIM_GID_VALID &&
		    nd->gids[i].type == type && !memcmp(nd->gids[i].gid, gid, 16))
			return (int)i;
	return -ENOENT;
}

int sim_gid_from_sockaddr(const struct sockaddr *sa, uint8_t gid[16])
{
	memset(gid, 0, 16);
	if (sa->sa_family == AF_INET) {
		gid[10] = gid[11] = 0xff;
		memcpy(gid + 12, &((const struct sockaddr_in *)sa)->sin_addr, 4);
		return 0;
	}
	if (sa->sa_family == AF_INET6) {
		memcpy(gid, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
		return 0;
	}
	return -EAFNOSUPPORT;
}

int sim_roce_find_ip(struct sim_shared *sh, const struct sockaddr *sa,
		     uint8_t type, unsigned int *dev, unsigned int *port,
		     unsigned int *index)
{
	uint8_t gid[16];
	uint32_t i;
	int idx = -ENODEV;

	if (sim_gid_from_sockaddr(sa, gid))
		return -ENODEV;
	sim_shared_lock(sh);
	for (i = 0; i < sh->net.nnetdev; i++) {
		if (!sim_dev_live(sh, sh->net.nd[i].dev))
			continue; /* unregistered: its GID table went with it */
		idx = sim_gid_find(&sh->net.nd[i], gid, type);
		if (idx >= 0) {
			*dev = sh->net.nd[i].dev;
			*port = sh->net.nd[i].port;
			*index = (unsigned int)idx;
			break;
		}
	}
	sim_shared_unlock(sh);
	return idx < 0 ? -ENODEV : 0;
}

void sim_net_event(struct sim_netdev *nd, uint8_t event)
{
	nd->events[nd->nevents % SIM_NET_EVENTS] = event;
	__atomic_add_fetch(&nd->nevents, 1, __ATOMIC_RELEASE);
}

int sim_gid_add(struct sim_netdev *nd, const uint8_t gid[16], uint8_t type,
		int32_t ifindex, int reserved_slot)
{
	static const uint8_t zero[16];
	uint32_t i, first = nd->ndefault;

	if (!memcmp(gid, zero, 16))
		return 0;
	for (i = 0; i < nd->gid_tbl_len; i++)
		if (same_key(&nd->gids[i], gid, type, ifindex))
			return 0;
	if (reserved_slot >= 0) {
		i = (uint32_t)reserved_slot;
	} else {
		for (i = first; i < nd->gid_tbl_len; i++)
			if (nd->gids[i].state == SIM_GID_EMPTY)
				break;
		if (i == nd->gid_tbl_len)
			return -ENOSPC;
	}
	memcpy(nd->gids[i].gid, gid, 16);
	nd->gids[i].type = type;
	nd->gids[i].ifindex = ifindex;
	nd->gids[i].holders = 0;
	nd->gids[i].state = SIM_GID_VALID;
	sim_net_event(nd, IBV_EVENT_GID_CHANGE);
	return 1;
}

int sim_gid_del(struct sim_netdev *nd, const uint8_t gid[16], uint8_t type,
		int32_t ifindex)
{
	uint32_t i;

	/* an address never deletes a default GID (GID_ATTR_FIND_MASK_DEFAULT) */
	for (i = nd->ndefault; i < nd->gid_tbl_len; i++) {
		if (!same_key(&nd->gids[i], gid, type, ifindex))
			continue;
		/* a RoCE slot stays taken while a QP or AH holds it */
		nd->gids[i].state =
			nd->gids[i].holders ? SIM_GID_PENDING : SIM_GID_EMPTY;
		sim_net_event(nd, IBV_EVENT_GID_CHANGE);
		return 1;
	}
	return 0;
}

void sim_gid_add_defaults(struct sim_netdev *nd)
{
	uint8_t gid[16] = {0xfe, 0x80};
	unsigned int t, slot = 0;

	/* modified EUI-64 of the MAC (addrconf_ifid_eui48) */
	gid[8] = nd->mac[0] ^ 2;
	gid[9] = nd->mac[1];
	gid[10] = nd->mac[2];
	gid[11] = 0xff;
	gid[12] = 0xfe;
	gid[13] = nd->mac[3];
	gid[14] = nd->mac[4];
	gid[15] = nd->mac[5];
	for (t = SIM_GID_ROCE_V1; t <= SIM_GID_ROCE_V2; t++)
		if (nd->types & (1u << t))
			sim_gid_add(nd, gid, (uint8_t)t, nd->ifindex,
				    (int)slot++);
}

void sim_net_wake(struct sim_shared *sh)
{
	__atomic_add_fetch(&sh->net.seq, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &sh->net.seq, FUTEX_WAKE, 0x7fffffff, NULL, NULL,
		0);
}

struct sim_netdev *sim_netdev_by_mac(struct sim_shared *sh,
				     const uint8_t mac[6])
{
	uint32_t i;

	for (i = 0; i < sh->net.nnetdev; i++)
		if (!memcmp(sh->net.nd[i].mac, mac, 6))
			return &sh->net.nd[i];
	return NULL;
}

int sim_roce_is_lo_gid(const uint8_t g[16])
{
	static const uint8_t zero[16];

	if (!memcmp(g, zero, 15))
		return g[15] <= 1;
	return !memcmp(g, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12) &&
	       (g[12] == 127 || !memcmp(g + 12, zero, 4));
}

int sim_roce_mcast_mac(const uint8_t dgid[16], uint8_t dmac[6])
{
	if (dgid[0] == 0xff) { /* IPv6 multicast: 33:33 + last 4 bytes */
		dmac[0] = dmac[1] = 0x33;
		memcpy(dmac + 2, dgid + 12, 4);
		return 0;
	}
	if (!memcmp(dgid, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12) &&
	    (dgid[12] & 0xf0) == 0xe0) { /* IPv4: 01:00:5e + low 23 bits */
		dmac[0] = 0x01;
		dmac[1] = 0x00;
		dmac[2] = 0x5e;
		dmac[3] = dgid[13] & 0x7f;
		dmac[4] = dgid[14];
		dmac[5] = dgid[15];
		return 0;
	}
	return -1;
}

/* iboe_get_mtu: the largest IB MTU whose RoCE packet fits the netdev MTU
 * (GRH 40, UDP 8, BTH 12, XRC 4, AtomicETH 28, ICRC 4 = 96 bytes). */
unsigned int sim_roce_active_mtu(uint32_t mtu)
{
	static const uint32_t need[] = {4096, 2048, 1024, 512, 256};
	unsigned int i;

	for (i = 0; i < 5; i++)
		if (mtu >= need[i] + 96)
			return 5 - i;
	return 0;
}
