// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The subnet administrator of the SM this world starts swept by (SM LID
 * 1, on InfiniBand ports): MCMemberRecord (attribute 0x38, SA class
 * version 2) joins and leaves, as a user's umad agent sends them to QP1
 * of the SM LID (perftest's ib_send_bw -g) and as opensm answers them:
 *   SubnAdmSet     join (creating the group): MGID, PortGID and
 *                  JoinState are required (else ERR_INSUFFICIENT_COMPONENTS);
 *                  a new group also needs Q_Key, TClass, P_Key, SL and
 *                  FlowLabel, and the FullMember bit (else ERR_REQ_INVALID)
 *                  and gets the lowest free MLID from 0xc000
 *                  (ERR_NO_RESOURCES when none is left); joining an
 *                  existing group with a Q_Key, P_Key base, TClass, SL,
 *                  FlowLabel or HopLimit that differs from the group's
 *                  is ERR_REQ_INVALID. The answer (GetResp) is the group's
 *                  record with the port's JoinState.
 *   SubnAdmDelete  leave: the group must exist and the port hold every
 *                  JoinState bit asked to leave (else ERR_REQ_INVALID);
 *                  the group goes with its last member (DeleteResp).
 * A PortGID outside the subnet prefix fe80::/64 is ERR_INVALID_GID, one
 * whose GUID names no port of the world ERR_REQ_INVALID; an MGID that is
 * not multicast (0xff...) ERR_REQ_INVALID. The group's MTU and rate are
 * the ports' (4096, 100 Gb/s), with selector "exactly". Other methods of
 * MCMemberRecord are status 0x000C; other SA attributes go unanswered.
 * The RDMA CM joins and leaves through the same table
 * (sim_sa_cm_join/leave), and the fabric forwards a group's datagrams only
 * to the ports that joined it to receive (common/mc_attach.c). Not
 * modelled: SA-assigned MGIDs (a zero MGID is ERR_REQ_INVALID), MTU and
 * rate selectors in a join, ProxyJoin rules.
 */
#include "mad.h"
#include "uapi.h"

#include <endian.h>
#include <string.h>

/* The SA header after the common MAD header and the RMPP header. */
#define SA_ATTR_OFFSET 44 /* u16: the record's length in 8-byte words */
#define SA_COMP_MASK   48 /* u64 */
#define SA_DATA	       56

/* MCMemberRecord (IBA 15.2.5.17), offsets in the SA data */
enum {
	MCM_MGID = 0,
	MCM_PORT_GID = 16,
	MCM_QKEY = 32,
	MCM_MLID = 36,
	MCM_MTU = 38, /* selector:2, MTU:6 */
	MCM_TCLASS = 39,
	MCM_PKEY = 40,
	MCM_RATE = 42,	    /* selector:2, rate:6 */
	MCM_PKT_LIFE = 43,  /* selector:2, life:6 */
	MCM_SL_FLOW = 44,   /* SL:4, FlowLabel:20, then HopLimit */
	MCM_SCOPE_JOIN = 48 /* Scope:4, JoinState:4 */
};

/* ComponentMask bits of MCMemberRecord */
enum {
	CM_MGID = 1 << 0,
	CM_PORT_GID = 1 << 1,
	CM_QKEY = 1 << 2,
	CM_TCLASS = 1 << 6,
	CM_PKEY = 1 << 7,
	CM_SL = 1 << 12,
	CM_FLOW = 1 << 13,
	CM_HOP = 1 << 14,
	CM_JOIN_STATE = 1 << 16,
};

#define JOIN_MASK (CM_MGID | CM_PORT_GID | CM_JOIN_STATE)
#define CREATE_MASK                                                            \
	(JOIN_MASK | CM_QKEY | CM_TCLASS | CM_PKEY | CM_SL | CM_FLOW)

/* SA status codes (class-specific, bits 8..15 of the MAD status) */
enum {
	SA_NO_RESOURCES = 1 << 8,
	SA_REQ_INVALID = 2 << 8,
	SA_INVALID_GID = 5 << 8,
	SA_INSUF_COMPS = 6 << 8,
	MAD_BAD_VERSION = 0x0004,
	MAD_UNSUPPORTED = 0x000c,
};

#define SA_CLASS_VERSION 2
#define ATTR_MCMEMBER	 0x0038
#define METHOD_DELETE	 0x15
#define MLID_BASE	 0xc000
#define MCM_WORDS	 (SIM_SA_MCM_LEN / 8)
#define SELECT_EXACTLY	 (2 << 6)
#define RATE_100G	 16 /* 4X EDR */

static uint32_t be32_of(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return be32toh(v);
}

/* The world's device whose port GUID is the PortGID's low half, or -1. */
static int port_of(const uint8_t *gid)
{
	uint64_t guid;

	memcpy(&guid, gid + 8, sizeof(guid));
	guid = be64toh(guid) - sim_guid(0);
	return guid < sim.sh->cfg.ndev ? (int)guid : -1;
}

static struct sim_sa_group *group_of(const uint8_t *mgid)
{
	struct sim_sa_group *g = sim.sh->sa_groups;
	int i;

	for (i = 0; i < SIM_MAX_SA_GROUPS; i++)
		if (g[i].used && !memcmp(g[i].rec + MCM_MGID, mgid, 16))
			return &g[i];
	return NULL;
}

/* The group's fields a join names (comp) differ from the request's. */
static int differs(const struct sim_sa_group *g, const uint8_t *r,
		   uint64_t comp)
{
	static const struct {
		uint64_t bit;
		uint32_t off, mask;
	} f[] = {
		{CM_QKEY, MCM_QKEY, 0xffffffff},
		{CM_PKEY, MCM_PKEY - 2, 0x7fff}, /* the base, not membership */
		{CM_TCLASS, MCM_TCLASS - 3, 0xff},
		{CM_SL, MCM_SL_FLOW, 0xf0000000},
		{CM_FLOW, MCM_SL_FLOW, 0x0fffff00},
		{CM_HOP, MCM_SL_FLOW, 0x000000ff},
	};
	unsigned int i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if ((comp & f[i].bit) &&
		    ((be32_of(g->rec + f[i].off) ^ be32_of(r + f[i].off)) &
		     f[i].mask))
			return 1;
	return 0;
}

/* The lowest MLID no group has. */
static uint16_t free_mlid(void)
{
	uint16_t mlid, v;
	int i, taken;

	for (mlid = MLID_BASE; mlid < MLID_BASE + SIM_MAX_SA_GROUPS; mlid++) {
		for (i = 0, taken = 0; i < SIM_MAX_SA_GROUPS && !taken; i++) {
			memcpy(&v, sim.sh->sa_groups[i].rec + MCM_MLID, 2);
			taken = sim.sh->sa_groups[i].used && be16toh(v) == mlid;
		}
		if (!taken)
			return mlid;
	}
	return 0;
}

static uint16_t create(const uint8_t *r, uint64_t comp, uint8_t join,
		       struct sim_sa_group **out)
{
	struct sim_sa_group *g = sim.sh->sa_groups;
	uint16_t mlid;
	int i;

	/* only a full member creates (o15-0.1.9), or since IBA 1.3 a
	 * send-only full member (what the kernel's send-only joins use) */
	if (!(join & (SIM_SA_FULL | SIM_SA_SENDONLY_FULL)))
		return SA_REQ_INVALID;
	if ((comp & CREATE_MASK) != CREATE_MASK)
		return SA_INSUF_COMPS;
	for (i = 0; i < SIM_MAX_SA_GROUPS && g[i].used; i++)
		;
	mlid = free_mlid();
	if (i == SIM_MAX_SA_GROUPS || !mlid)
		return SA_NO_RESOURCES;
	memset(&g[i], 0, sizeof(g[i]));
	memcpy(g[i].rec, r, SIM_SA_MCM_LEN);
	memset(g[i].rec + MCM_PORT_GID, 0, 16);
	mlid = htobe16(mlid);
	memcpy(g[i].rec + MCM_MLID, &mlid, 2);
	g[i].rec[MCM_MTU] = SELECT_EXACTLY | 5; /* 4096, the ports' MTU */
	g[i].rec[MCM_RATE] = SELECT_EXACTLY | RATE_100G;
	g[i].rec[MCM_PKT_LIFE] = SELECT_EXACTLY | (r[MCM_PKT_LIFE] & 0x3f);
	/* Scope is the MGID's (its second byte's low nibble) */
	g[i].rec[MCM_SCOPE_JOIN] = (uint8_t)(r[MCM_MGID + 1] << 4);
	g[i].used = 1;
	*out = &g[i];
	return 0;
}

static uint16_t join(int port, const uint8_t *r, uint64_t comp, uint8_t js,
		     uint8_t *rec)
{
	struct sim_sa_group *g = group_of(r + MCM_MGID);
	uint16_t st;

	if ((comp & JOIN_MASK) != JOIN_MASK)
		return SA_INSUF_COMPS;
	if (!js)
		return SA_REQ_INVALID;
	if (!g) {
		st = create(r, comp, js, &g);
		if (st)
			return st;
	} else if (differs(g, r, comp)) {
		return SA_REQ_INVALID;
	}
	g->join[port] |= js;
	memcpy(rec, g->rec, SIM_SA_MCM_LEN);
	rec[MCM_SCOPE_JOIN] =
		(uint8_t)((g->rec[MCM_SCOPE_JOIN] & 0xf0) | g->join[port]);
	return 0;
}

static uint16_t leave(int port, const uint8_t *r, uint8_t js, uint8_t *rec)
{
	struct sim_sa_group *g = group_of(r + MCM_MGID);
	unsigned int d;

	/* o15-0.1.14: the port holds every bit it leaves, and one at least */
	if (!g || !js || (g->join[port] & js) != js)
		return SA_REQ_INVALID;
	g->join[port] &= (uint8_t)~js;
	memcpy(rec, g->rec, SIM_SA_MCM_LEN);
	rec[MCM_SCOPE_JOIN] = (uint8_t)((g->rec[MCM_SCOPE_JOIN] & 0xf0) | js);
	for (d = 0; d < sim.sh->cfg.ndev && !g->join[d]; d++)
		;
	if (d == sim.sh->cfg.ndev)
		g->used = 0; /* the last member left */
	return 0;
}

/* Join or leave for the record r: 0 with the answer's record in rec. */
static uint16_t mcmember(uint8_t method, const uint8_t *r, uint64_t comp,
			 uint8_t *rec)
{
	static const uint8_t prefix[8] = {0xfe, 0x80};
	uint8_t js = r[MCM_SCOPE_JOIN] & 0x0f;
	int port;

	if (memcmp(r + MCM_PORT_GID, prefix, 8))
		return SA_INVALID_GID;
	port = port_of(r + MCM_PORT_GID);
	if (port < 0 || r[MCM_MGID] != 0xff)
		return SA_REQ_INVALID;
	if (method == SIM_MAD_SET)
		return join(port, r, comp, js, rec);
	return leave(port, r, js, rec);
}

int sim_sa_process(const uint8_t *in, uint8_t *out)
{
	uint8_t method = in[3] & 0x7f, rec[SIM_SA_MCM_LEN];
	uint16_t attr, status, words = htobe16(MCM_WORDS);
	uint64_t comp;

	memcpy(&attr, in + 16, sizeof(attr));
	if (in[1] != SIM_MAD_CLASS_SA || be16toh(attr) != ATTR_MCMEMBER)
		return 0; /* only multicast membership is answered */
	memcpy(&comp, in + SA_COMP_MASK, sizeof(comp));
	comp = be64toh(comp);
	memcpy(out, in, SIM_MAD_SIZE);
	memcpy(rec, in + SA_DATA, SIM_SA_MCM_LEN);
	if (in[2] != SA_CLASS_VERSION) {
		status = MAD_BAD_VERSION;
	} else if (method != SIM_MAD_SET && method != METHOD_DELETE) {
		status = MAD_UNSUPPORTED;
	} else {
		sim_shared_lock(sim.sh);
		status = mcmember(method, in + SA_DATA, comp, rec);
		sim_shared_unlock(sim.sh);
	}
	/* SubnAdmSet is answered by GetResp, SubnAdmDelete by DeleteResp */
	out[3] =
		SIM_MAD_RESP | (method == METHOD_DELETE ? method : SIM_MAD_GET);
	status = htobe16(status);
	memcpy(out + 4, &status, sizeof(status));
	memcpy(out + SA_ATTR_OFFSET, &words, sizeof(words));
	memcpy(out + SA_DATA, rec, SIM_SA_MCM_LEN);
	return 1;
}

uint16_t sim_sa_cm_join(unsigned int dev, const uint8_t port_gid[16],
			const uint8_t mgid[16], uint32_t qkey, uint8_t js,
			uint8_t *rec)
{
	uint8_t r[SIM_SA_MCM_LEN] = {0};
	uint16_t pkey = htobe16(0xffff);

	/* SL, FlowLabel, TClass and HopLimit: the IPoIB broadcast group's
	 * (ib_sa_get_mcmember_rec), all 0 as a lone opensm makes it */
	memcpy(r + MCM_MGID, mgid, 16);
	memcpy(r + MCM_PORT_GID, port_gid, 16);
	qkey = htobe32(qkey);
	memcpy(r + MCM_QKEY, &qkey, 4);
	memcpy(r + MCM_PKEY, &pkey, 2);
	r[MCM_SCOPE_JOIN] = js;
	if (port_of(port_gid) != (int)dev)
		return SA_REQ_INVALID;
	return join((int)dev, r, CREATE_MASK, js, rec);
}

void sim_sa_cm_leave(unsigned int dev, const uint8_t mgid[16], uint8_t js)
{
	struct sim_sa_group *g = group_of(mgid);
	uint8_t rec[SIM_SA_MCM_LEN], r[SIM_SA_MCM_LEN] = {0};

	if (!g || !(js &= g->join[dev]))
		return;
	memcpy(r + MCM_MGID, mgid, 16);
	leave((int)dev, r, js, rec);
}
