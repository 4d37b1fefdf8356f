// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Address handles, including building one that answers a completion. */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "ibverbs.h"
#include "verbs_internal.h"

struct ibv_ah *ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct ibv_ah *ah;

	if (!pd || !attr)
		return verbs_null_einval();
	ah = get_ops(pd->context)->create_ah(pd, attr);
	if (ah) {
		ah->context = pd->context;
		ah->pd = pd;
	}
	return ah;
}

int ibv_destroy_ah(struct ibv_ah *ah)
{
	if (!ah)
		return verbs_einval();
	return verbs_set_errno(get_ops(ah->context)->destroy_ah(ah));
}

/* ::ffff:a.b.c.d, the GID form of an IPv4 address (network order). */
static void ipv4_mapped_gid(union ibv_gid *gid, const uint8_t *ipv4)
{
	memset(gid, 0, sizeof(*gid));
	gid->raw[10] = 0xff;
	gid->raw[11] = 0xff;
	memcpy(&gid->raw[12], ipv4, 4);
}

/*
 * The 40 bytes in front of a received UD payload hold an IB GRH or, on
 * RoCE v2, an IPv6 header (same layout), or 20 unused bytes followed by
 * an IPv4 header. Extract the sender's and our own GID from either.
 */
static void grh_gids(const struct ibv_grh *grh, union ibv_gid *remote,
		     union ibv_gid *local)
{
	const uint8_t *ipv4 = (const uint8_t *)grh + 20;

	if ((ipv4[0] >> 4) == 4) {
		ipv4_mapped_gid(remote, ipv4 + 12);
		ipv4_mapped_gid(local, ipv4 + 16);
		return;
	}
	*remote = grh->sgid;
	*local = grh->dgid;
}

/* The index of @gid in the port's table, or -1. */
static int find_gid_index(struct ibv_context *context, uint8_t port_num,
			  const union ibv_gid *gid)
{
	struct ibv_port_attr port;
	union ibv_gid cur;
	int i;

	if (ibv_query_port(context, port_num, &port))
		return -1;
	for (i = 0; i < port.gid_tbl_len; i++) {
		if (ibv_query_gid(context, port_num, i, &cur))
			continue;
		if (!memcmp(&cur, gid, sizeof(cur)))
			return i;
	}
	return -1;
}

int ibv_init_ah_from_wc(struct ibv_context *context, uint8_t port_num,
			struct ibv_wc *wc, struct ibv_grh *grh,
			struct ibv_ah_attr *ah_attr)
{
	union ibv_gid local;
	uint32_t flow_class;
	int index;

	memset(ah_attr, 0, sizeof(*ah_attr));
	ah_attr->port_num = port_num;
	ah_attr->dlid = wc->slid;
	ah_attr->sl = wc->sl;
	ah_attr->src_path_bits = wc->dlid_path_bits;
	if (!(wc->wc_flags & IBV_WC_GRH))
		return 0;

	ah_attr->is_global = 1;
	grh_gids(grh, &ah_attr->grh.dgid, &local);
	index = find_gid_index(context, port_num, &local);
	if (index < 0) {
		errno = ENOENT;
		return -1;
	}
	ah_attr->grh.sgid_index = (uint8_t)index;
	flow_class = ntohl(grh->version_tclass_flow);
	ah_attr->grh.flow_label = flow_class & 0xFFFFF;
	ah_attr->grh.hop_limit = 0xFF;
	ah_attr->grh.traffic_class = (flow_class >> 20) & 0xFF;
	return 0;
}

struct ibv_ah *ibv_create_ah_from_wc(struct ibv_pd *pd, struct ibv_wc *wc,
				     struct ibv_grh *grh, uint8_t port_num)
{
	struct ibv_ah_attr ah_attr;

	if (!pd)
		return verbs_null_einval();
	if (ibv_init_ah_from_wc(pd->context, port_num, wc, grh, &ah_attr))
		return NULL;
	return ibv_create_ah(pd, &ah_attr);
}

/*
 * Only what the GID itself tells: an IPv6 multicast GID maps to
 * 33:33:<last 4 bytes>, a link-local GID built from a MAC (EUI-64, with
 * ff:fe in the middle) gives that MAC back. Anything else would need a
 * neighbour lookup, which this library does not do: EOPNOTSUPP.
 * No VLAN is reported (*vid = 0xffff).
 */
int ibv_resolve_eth_l2_from_gid(struct ibv_context *context,
				struct ibv_ah_attr *attr,
				uint8_t eth_mac[ETHERNET_LL_SIZE],
				uint16_t *vid)
{
	const uint8_t *g;

	if (!attr || !eth_mac || !attr->is_global)
		return EINVAL;
	g = attr->grh.dgid.raw;
	if (g[0] == 0xff) {
		eth_mac[0] = 0x33;
		eth_mac[1] = 0x33;
		memcpy(&eth_mac[2], &g[12], 4);
	} else if (g[0] == 0xfe && (g[1] & 0xc0) == 0x80 && g[11] == 0xff &&
		   g[12] == 0xfe) {
		eth_mac[0] = g[8] ^ 0x02;
		memcpy(&eth_mac[1], &g[9], 2);
		memcpy(&eth_mac[3], &g[13], 3);
	} else {
		return EOPNOTSUPP;
	}
	if (vid)
		*vid = 0xffff;
	return 0;
}
