// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Neighbour updates of the RoCE ports' netdevs, for the RDMA CM. The
 * kernel's cma listens to NETEVENT_NEIGH_UPDATE (cma_netevent_callback);
 * neigh_update_notify() and neigh_cleanup_and_release() raise it together
 * with the RTM_NEWNEIGH or RTM_DELNEIGH that rtnetlink shows, so each such
 * message of a port's netdev is one update here: its IP address and the
 * hardware address the entry holds (neigh->ha). A message carries
 * NDA_LLADDR only while the entry is valid; otherwise the entry keeps the
 * address it had, which the launcher remembers (zeros if it never had
 * one, as a new entry's ha is). A dump's entries (NLM_F_MULTI) are only
 * remembered: they are no update.
 */
#include "launcher.h"

#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <string.h>

#define KNOWN 512

static struct known {
	int32_t ifindex;
	uint8_t used;
	uint8_t addr[16];
	uint8_t ha[6];
} known[KNOWN];

static struct known *known_of(int32_t ifindex, const uint8_t addr[16],
			      int add)
{
	struct known *free_slot = NULL;
	unsigned int i;

	for (i = 0; i < KNOWN; i++) {
		if (!known[i].used) {
			if (!free_slot)
				free_slot = &known[i];
			continue;
		}
		if (known[i].ifindex == ifindex &&
		    !memcmp(known[i].addr, addr, 16))
			return &known[i];
	}
	if (!add || !free_slot)
		return NULL;
	memset(free_slot, 0, sizeof(*free_slot));
	free_slot->used = 1;
	free_slot->ifindex = ifindex;
	memcpy(free_slot->addr, addr, 16);
	return free_slot;
}

void sim_neigh_msg(struct sim_netdev *nd, const struct nlmsghdr *h)
{
	const struct ndmsg *ndm = NLMSG_DATA(h);
	int len = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof(*ndm)));
	const uint8_t *lladdr = NULL;
	struct sim_neigh_update *u;
	uint8_t addr[16] = {0};
	const struct rtattr *a;
	struct known *k;
	int have = 0;

	if (len < 0 || (ndm->ndm_flags & NTF_PROXY))
		return;
	for (a = (const struct rtattr *)((const uint8_t *)ndm +
					 NLMSG_ALIGN(sizeof(*ndm)));
	     RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (a->rta_type == NDA_LLADDR && RTA_PAYLOAD(a) == 6)
			lladdr = RTA_DATA(a);
		if (a->rta_type != NDA_DST)
			continue;
		if (ndm->ndm_family == AF_INET && RTA_PAYLOAD(a) == 4) {
			addr[10] = addr[11] = 0xff;
			memcpy(addr + 12, RTA_DATA(a), 4);
			have = 1;
		} else if (ndm->ndm_family == AF_INET6 &&
			   RTA_PAYLOAD(a) == 16) {
			memcpy(addr, RTA_DATA(a), 16);
			have = 1;
		}
	}
	if (!have)
		return;
	k = known_of(nd->ifindex, addr, 1);
	if (k && lladdr)
		memcpy(k->ha, lladdr, 6);
	if (!(h->nlmsg_flags & NLM_F_MULTI)) {
		u = &nd->neigh[nd->nneigh % SIM_NEIGH_UPDATES];
		memcpy(u->addr, addr, 16);
		if (lladdr)
			memcpy(u->ha, lladdr, 6);
		else if (k)
			memcpy(u->ha, k->ha, 6);
		else
			memset(u->ha, 0, 6);
		__atomic_add_fetch(&nd->nneigh, 1, __ATOMIC_RELEASE);
	}
	if (k && h->nlmsg_type == RTM_DELNEIGH)
		k->used = 0;
}
