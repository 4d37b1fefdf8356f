// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The RDMA CM hears a RoCE neighbour change (6.12's and 6.1's cma.c:
 * cma_netevent_callback, cma_netevent_work_handler). An id enters the
 * CM's table of (netdev, destination address) when RESOLVE_ROUTE succeeds
 * on a RoCE port (cma_add_id_to_tree, active ids only: a listener and the
 * ids of its requests never do) and leaves it only when destroyed. Every
 * update of the neighbour entry of that destination on that netdev whose
 * hardware address differs from the MAC the id resolved (dst_dev_addr)
 * queues the id's net work, which gives it UNREACHABLE with status
 * -ETIMEDOUT, whatever its state, unless the CM is removing it
 * (DEVICE_REMOVAL). Nothing else follows: its state, connection, QP and
 * the MAC it knows stay, so a later update that still differs gives it
 * UNREACHABLE again. One pending work per id: updates that come before it
 * ran give one event. The launcher logs the updates (launcher/net_neigh.c);
 * whichever process runs the CM's work next (a command, GET_EVENT, the
 * reaper every 100 ms) applies them under the shared lock.
 */
#include "sim.h"
#include "ucma.h"

#include <errno.h>
#include <string.h>

/* Is update u of RoCE netdev k news for id? */
static int hits(const struct ucma_id *id, int k,
		const struct sim_neigh_update *u)
{
	uint8_t dst[16];

	if (!id->used || !id->in_tree || id->removed ||
	    sim.sh->net.netdev_of[id->dev] != k ||
	    sim_gid_from_sockaddr((const struct sockaddr *)&id->dst, dst))
		return 0;
	return !memcmp(dst, u->addr, 16) && memcmp(id->dmac, u->ha, 6);
}

void ucma_neigh_updates(void)
{
	static uint8_t queued[UCMA_MAX_IDS]; /* under the lock */
	struct sim_net *net = &sim.sh->net;
	const struct sim_neigh_update *u;
	uint32_t k, end, seen;
	int i, any = 0;

	for (k = 0; k < net->nnetdev && k < SIM_MAX_NETDEVS; k++) {
		end = __atomic_load_n(&net->nd[k].nneigh, __ATOMIC_ACQUIRE);
		seen = ucma_w->neigh_seen[k];
		if (end - seen > SIM_NEIGH_UPDATES)
			seen = end - SIM_NEIGH_UPDATES;
		for (; seen != end; seen++) {
			u = &net->nd[k].neigh[seen % SIM_NEIGH_UPDATES];
			for (i = 0; i < UCMA_MAX_IDS; i++)
				if (hits(&ucma_w->ids[i], (int)k, u))
					any = queued[i] = 1;
		}
		ucma_w->neigh_seen[k] = end;
	}
	for (i = 0; any && i < UCMA_MAX_IDS; i++) {
		if (!queued[i])
			continue;
		queued[i] = 0;
		sim_trace("ucma: id %d neighbour changed: UNREACHABLE", i);
		ucma_event(i, RDMA_CM_EVENT_UNREACHABLE, -ETIMEDOUT, NULL);
	}
}

void ucma_neigh_start(void)
{
	uint32_t k;

	for (k = 0; k < sim.sh->net.nnetdev && k < SIM_MAX_NETDEVS; k++)
		ucma_w->neigh_seen[k] = sim.sh->net.nd[k].nneigh;
}
