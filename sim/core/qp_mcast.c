// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Multicast groups: ATTACH_MCAST/DETACH_MCAST of UD QPs, kept in one
 * table of the shared state so that the HCA of any process can fan a
 * datagram sent to a group's GID out to every QP attached to it (its
 * lookup: common/mc_attach.c).
 */
#include "sim.h"
#include "uapi.h"

#include <errno.h>
#include <string.h>

#define MCAST_LID_BASE 0xc000
#define PERMISSIVE_LID 0xffff

static struct sim_mc_attach *find(const uint8_t gid[16], uint16_t mlid,
				  uint32_t dev, uint32_t qpn)
{
	struct sim_mc_attach *m = sim.sh->mc;
	int i;

	for (i = 0; i < SIM_MAX_MC_ATTACH; i++)
		if (m[i].used && m[i].dev == dev && m[i].qpn == qpn &&
		    m[i].mlid == mlid && !memcmp(m[i].gid, gid, 16))
			return &m[i];
	return NULL;
}

static int mcast(struct sim_wcall *w, int attach)
{
	const struct ib_uverbs_attach_mcast *req = w->in;
	struct sim_mc_attach *m;
	struct sim_obj *o;
	struct sim_qp *qp;
	int ret = 0, i;

	o = sim_obj_get(w->uv, req->qp_handle, &sim_type_qp, &ret);
	if (!o)
		return ret;
	qp = sim_qp(o);
	if (attach && (qp->qp_type != IB_QPT_UD || !sim_gid_is_mcast(req->gid)))
		return -EINVAL;
	if (attach && !sim_port_is_eth(sim.sh, w->uv->dev) &&
	    (req->mlid < MCAST_LID_BASE || req->mlid == PERMISSIVE_LID))
		return -EINVAL;
	sim_shared_lock(sim.sh);
	m = find(req->gid, req->mlid, w->uv->dev, qp->qpn);
	if (!attach) {
		if (m)
			m->used = 0;
		else
			ret = -EINVAL;
	} else if (!m) { /* attaching twice is one attachment */
		for (i = 0; i < SIM_MAX_MC_ATTACH && sim.sh->mc[i].used; i++)
			;
		if (i == SIM_MAX_MC_ATTACH) {
			ret = -ENOMEM;
		} else {
			m = &sim.sh->mc[i];
			memcpy(m->gid, req->gid, 16);
			m->mlid = req->mlid;
			m->dev = w->uv->dev;
			m->qpn = qp->qpn;
			m->used = 1;
		}
	}
	sim_shared_unlock(sim.sh);
	return ret;
}

int sim_w_attach_mcast(struct sim_wcall *w)
{
	return mcast(w, 1);
}

int sim_w_detach_mcast(struct sim_wcall *w)
{
	return mcast(w, 0);
}

void sim_mcast_qp_gone(uint32_t dev, uint32_t qpn)
{
	int i;

	sim_shared_lock(sim.sh);
	for (i = 0; i < SIM_MAX_MC_ATTACH; i++)
		if (sim.sh->mc[i].used && sim.sh->mc[i].dev == dev &&
		    sim.sh->mc[i].qpn == qpn)
			sim.sh->mc[i].used = 0;
	sim_shared_unlock(sim.sh);
}
