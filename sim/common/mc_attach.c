// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The world's multicast attachments as a sender's port reads them: which
 * GIDs are groups, and the QPs attached to one (the table is written by
 * the kernel's ATTACH_MCAST/DETACH_MCAST, core/qp_mcast.c). Shared by
 * the HCA and the rxe driver, which fan a datagram out to the members.
 * An Ethernet port hands a group's frames to every QP attached to it (the
 * switch floods them: the world's bridge snoops no IGMP or MLD). An
 * InfiniBand switch forwards a group's MLID only to the ports the SA made
 * members, and of them only to those that receive: FullMember or
 * NonMember, not a send-only member (IBA 15.2.5.17); a QP attached on any
 * other port hears nothing, as on a real fabric.
 */
#include "sim_shared.h"

#include <string.h>

/* ff00::/8, or an IPv4 group mapped into a RoCE v2 GID (224/4). */
int sim_gid_is_mcast(const uint8_t gid[16])
{
	static const uint8_t v4[12] = {[10] = 0xff, [11] = 0xff};

	return gid[0] == 0xff ||
	       (!memcmp(gid, v4, 12) && (gid[12] & 0xf0) == 0xe0);
}

/* Does device dev's port receive group gid? Lock held. */
static int port_receives(const struct sim_shared *sh, uint32_t dev,
			 const uint8_t gid[16])
{
	const struct sim_sa_group *g = sh->sa_groups;
	int i;

	if (dev >= SIM_MAX_DEVICES || sh->cfg.link_eth[dev])
		return 1;
	for (i = 0; i < SIM_MAX_SA_GROUPS; i++)
		if (g[i].used && !memcmp(g[i].rec, gid, 16))
			return !!(g[i].join[dev] & (SIM_SA_FULL | SIM_SA_NON));
	return 0;
}

int sim_mcast_members(struct sim_shared *sh, const uint8_t gid[16],
		      uint32_t *devs, uint32_t *qpns, int max)
{
	int i, n = 0;

	sim_shared_lock(sh);
	for (i = 0; i < SIM_MAX_MC_ATTACH && n < max; i++)
		if (sh->mc[i].used && !memcmp(sh->mc[i].gid, gid, 16) &&
		    port_receives(sh, sh->mc[i].dev, gid)) {
			devs[n] = sh->mc[i].dev;
			qpns[n++] = sh->mc[i].qpn;
		}
	sim_shared_unlock(sh);
	return n;
}
