// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RDMA CM multicast: JOIN_IP_MCAST/JOIN_MCAST and LEAVE_MCAST with the
 * kernel's second id table, the MGID as the kernel derives it (RoCE v2:
 * the IPv4 group as ::ffff:a.b.c.d; IB: the IPoIB mapping), and the
 * MULTICAST_JOIN event queued at once as on RoCE. On IB the join is the
 * SA's (cma_join_ib_multicast through core/umad_sa.c: full member, or
 * send-only full member for JOIN_MCAST's flag 1), answered at once (the
 * SA is this world's own); the event's address vector is the group's
 * (ib_init_ah_from_mcmember: MLID, SL, rate, GRH to the MGID with its
 * flow label, hop limit and traffic class), an SA error is
 * MULTICAST_ERROR -EINVAL. The port leaves the JoinState bits its last
 * join needing them held, when that join is left or its id destroyed
 * (the kernel's ib_sa multicast keeps one membership per port).
 */
#include "sim.h"
#include "ucma.h"
#include "mad.h"

#include <endian.h>

#include <errno.h>
#include <string.h>

#define ENOTSUPP_KERNEL 524 /* the kernel's ENOTSUPP, seen by userspace */
#define MC_QPN		0xffffff

static int mgid_of(const struct ucma_id *id, const struct sockaddr_storage *ss,
		   uint8_t mgid[16])
{
	const struct sockaddr_in *s4 = (const struct sockaddr_in *)ss;
	static const uint8_t zero[16];

	if (ss->ss_family == AF_INET6) {
		memcpy(mgid, &((const struct sockaddr_in6 *)ss)->sin6_addr, 16);
		if (!memcmp(mgid, zero, 16))
			return -EINVAL;
		/* RoCE v2 carries IPv6 groups only with IPv4 ones mapped */
		return sim_netdev_of(sim.sh, id->dev, id->port)
			       ? -ENOTSUPP_KERNEL
			       : 0;
	}
	if (ss->ss_family != AF_INET || !s4->sin_addr.s_addr)
		return -EINVAL;
	memset(mgid, 0, 16);
	if (sim_netdev_of(sim.sh, id->dev, id->port)) {
		mgid[10] = mgid[11] = 0xff;
	} else { /* IPoIB: ff12:401b:ffff::a.b.c.d, the UDP space's own */
		mgid[0] = 0xff;
		mgid[1] = 0x12;
		mgid[2] = 0x40;
		mgid[3] = id->ps == RDMA_PS_UDP ? 0x01 : 0x1b;
		mgid[4] = mgid[5] = 0xff;
	}
	memcpy(mgid + 12, &s4->sin_addr, 4);
	return 0;
}

/* MCMemberRecord offsets the answer is read at (IBA 15.2.5.17) */
enum { REC_MLID = 36, REC_TCLASS = 39, REC_RATE = 42, REC_SL_FLOW = 44 };

/* IB: the SA's answer to the join, as cma_ib_mc_handler makes it. */
static void ib_join(const struct ucma_id *id, const uint8_t mgid[16],
		    uint8_t js, struct rdma_ucm_event_resp *r)
{
	struct ib_uverbs_ah_attr *ah = &r->param.ud.ah_attr;
	uint8_t rec[SIM_SA_MCM_LEN];
	uint32_t sfh;
	uint16_t mlid;

	if (sim_sa_cm_join(id->dev, id->sgid, mgid, UCMA_UDP_QKEY, js, rec)) {
		r->event = RDMA_CM_EVENT_MULTICAST_ERROR;
		r->status = (uint32_t)-EINVAL;
		return;
	}
	memcpy(&mlid, rec + REC_MLID, 2);
	memcpy(&sfh, rec + REC_SL_FLOW, 4);
	sfh = be32toh(sfh);
	ah->dlid = be16toh(mlid);
	ah->sl = (uint8_t)(sfh >> 28);
	ah->static_rate = rec[REC_RATE] & 0x3f;
	ah->grh.flow_label = (sfh >> 8) & 0xfffff;
	ah->grh.hop_limit = (uint8_t)sfh;
	ah->grh.traffic_class = rec[REC_TCLASS];
	sim_trace("ucma: device %u joined MLID %#x through the SA, join "
		  "state %#x", id->dev, ah->dlid, js);
}

/* The JoinState bits of dev's port that no join but mc still needs. */
static uint8_t only_mine(int mc)
{
	const struct ucma_mc *m = &ucma_w->mc[mc];
	uint32_t dev = ucma_w->ids[m->id].dev;
	uint8_t js = m->join_state;
	int k;

	for (k = 0; k < UCMA_MAX_MCS; k++)
		if (k != mc && ucma_w->mc[k].used &&
		    ucma_w->ids[ucma_w->mc[k].id].dev == dev &&
		    !memcmp(ucma_w->mc[k].mgid, m->mgid, 16))
			js &= (uint8_t)~ucma_w->mc[k].join_state;
	return js;
}

/* Join mc goes: on IB its port leaves what only it held. */
static void mc_gone(int mc)
{
	struct ucma_mc *m = &ucma_w->mc[mc];
	uint8_t js = m->join_state ? only_mine(mc) : 0;

	if (js)
		sim_sa_cm_leave(ucma_w->ids[m->id].dev, m->mgid, js);
	m->used = 0;
}

static int join(int f, uint32_t idn, uint64_t uid, uint64_t resp_ptr,
		const struct sockaddr_storage *ss, uint8_t js, uint16_t out)
{
	struct rdma_ucm_create_id_resp resp = {0};
	struct rdma_ucm_event_resp r;
	struct ib_uverbs_ah_attr *ah = &r.param.ud.ah_attr;
	struct ucma_id *id;
	uint8_t mgid[16];
	int i = ucma_id_find(f, idn), m, ret;

	if (out < sizeof(resp))
		return -ENOSPC;
	if (i < 0)
		return i;
	id = &ucma_w->ids[i];
	if (!id->has_dev || id->qp_type != IB_QPT_UD ||
	    (id->state != UCMA_ADDR_BOUND && id->state != UCMA_ADDR_RESOLVED))
		return -EINVAL;
	ret = mgid_of(id, ss, mgid);
	if (ret)
		return ret;
	for (m = 0; m < UCMA_MAX_MCS && ucma_w->mc[m].used; m++)
		;
	if (m == UCMA_MAX_MCS)
		return -ENOMEM;
	resp.id = (uint32_t)m;
	if (sim_copy_to_user((void *)(uintptr_t)resp_ptr, &resp, sizeof(resp)))
		return -EFAULT;
	memset(&ucma_w->mc[m], 0, sizeof(ucma_w->mc[m]));
	ucma_w->mc[m].used = 1;
	ucma_w->mc[m].id = i;
	ucma_w->mc[m].uid = uid;
	memcpy(ucma_w->mc[m].mgid, mgid, 16);
	memset(&r, 0, sizeof(r));
	r.uid = uid;
	r.id = (uint32_t)m;
	r.event = RDMA_CM_EVENT_MULTICAST_JOIN;
	if (!sim_netdev_of(sim.sh, id->dev, id->port)) {
		ucma_w->mc[m].join_state = js;
		ib_join(id, mgid, js, &r);
		if (r.status) { /* no membership to leave */
			ucma_w->mc[m].join_state = 0;
			ucma_event_raw(id->file, i, &r);
			return 0;
		}
	} else {
		ah->grh.hop_limit = ss->ss_family == AF_INET ? 64 : 1;
		ah->grh.traffic_class = id->tos;
	}
	r.param.ud.qp_num = MC_QPN;
	r.param.ud.qkey = UCMA_UDP_QKEY;
	memcpy(ah->grh.dgid, mgid, 16);
	ah->grh.sgid_index = (uint8_t)id->sgid_index;
	ah->is_global = 1;
	ah->port_num = id->port;
	ucma_event_raw(id->file, i, &r);
	return 0;
}

static int leave(int f, const struct rdma_ucm_destroy_id *c, uint16_t out)
{
	struct rdma_ucm_destroy_id_resp r = {0};
	struct ucma_mc *mc;

	if (out < sizeof(r))
		return -ENOSPC;
	if (c->id >= UCMA_MAX_MCS || !ucma_w->mc[c->id].used)
		return -ENOENT;
	mc = &ucma_w->mc[c->id];
	if (ucma_w->ids[mc->id].file != f)
		return -EINVAL;
	ucma_events_purge(mc->id, (int)c->id);
	r.events_reported = mc->events_reported;
	mc_gone((int)c->id);
	return sim_copy_to_user((void *)(uintptr_t)c->response, &r, sizeof(r));
}

void ucma_mc_drop(int i)
{
	int m;

	for (m = 0; m < UCMA_MAX_MCS; m++)
		if (ucma_w->mc[m].used && ucma_w->mc[m].id == i)
			mc_gone(m);
}

int ucma_cmd_mcast(int f, uint32_t cmd, const uint8_t *in, uint16_t out)
{
	const struct rdma_ucm_join_ip_mcast *ji = (const void *)in;
	const struct rdma_ucm_join_mcast *jm = (const void *)in;
	struct sockaddr_storage ss = {0};

	switch (cmd) {
	case RDMA_USER_CM_CMD_JOIN_IP_MCAST:
		memcpy(&ss, &ji->addr, sizeof(ji->addr));
		if (!ucma_sa_len(&ss) || ss.ss_family == UCMA_AF_IB)
			return -EINVAL;
		return join(f, ji->id, ji->uid, ji->response, &ss,
			    SIM_SA_FULL, out);
	case RDMA_USER_CM_CMD_JOIN_MCAST:
		memcpy(&ss, &jm->addr, sizeof(ss));
		if (jm->join_flags > RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER ||
		    !jm->addr_size || jm->addr_size != ucma_sa_len(&ss))
			return -EINVAL;
		return join(f, jm->id, jm->uid, jm->response, &ss,
			    jm->join_flags ? SIM_SA_SENDONLY_FULL : SIM_SA_FULL,
			    out);
	}
	return leave(f, (const void *)in, out);
}
