// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Address handles, including building one that answers a completion. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
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

/* What the 40 bytes in front of a received UD payload say. */
struct grh_view {
	union ibv_gid remote;
	union ibv_gid local;
	uint32_t flow_label;
	uint8_t traffic_class;
	uint8_t hop_limit; /* the GRH's hop limit or the IPv4 TTL */
	enum ibv_gid_type gid_type;
};

#define IPPROTO_UDP_NUM 17

/*
 * An IB GRH or, on RoCE, an IPv6 header (same layout; RoCE v2 when the
 * next header is UDP), or 20 unused bytes and then an IPv4 header (RoCE
 * v2): version 6 in the first nibble decides, then an option-less IPv4
 * header (0x45) at byte 20.
 */
static int parse_grh(const struct ibv_grh *grh, bool ethernet,
		     struct grh_view *v)
{
	const uint8_t *ipv4 = (const uint8_t *)grh + 20;
	uint32_t vtf = ntohl(grh->version_tclass_flow);

	if (vtf >> 28 == 6) {
		v->remote = grh->sgid;
		v->local = grh->dgid;
		v->flow_label = vtf & 0xfffff;
		v->traffic_class = (vtf >> 20) & 0xff;
		v->hop_limit = grh->hop_limit;
		v->gid_type = !ethernet ? IBV_GID_TYPE_IB :
			      grh->next_hdr == IPPROTO_UDP_NUM ?
						  IBV_GID_TYPE_ROCE_V2 :
						  IBV_GID_TYPE_ROCE_V1;
		return 0;
	}
	if (!ethernet || ipv4[0] != 0x45)
		return EINVAL;
	ipv4_mapped_gid(&v->remote, ipv4 + 12);
	ipv4_mapped_gid(&v->local, ipv4 + 16);
	v->flow_label = 0;
	v->traffic_class = ipv4[1];
	v->hop_limit = ipv4[8];
	v->gid_type = IBV_GID_TYPE_ROCE_V2;
	return 0;
}

/* The index of @gid with @type in the port's table, or -1. */
static int find_gid_index(struct ibv_context *context, uint8_t port_num,
			  int table_len, const union ibv_gid *gid,
			  enum ibv_gid_type type)
{
	struct ibv_gid_entry entry;
	int i;

	for (i = 0; i < table_len; i++) {
		if (_ibv_query_gid_ex(context, port_num, (uint32_t)i, &entry,
				      0, sizeof(entry)))
			continue;
		if (entry.gid_type == type &&
		    !memcmp(&entry.gid, gid, sizeof(*gid)))
			return i;
	}
	return -1;
}

static int fail_minus_one(int err)
{
	errno = err;
	return -1;
}

int ibv_init_ah_from_wc(struct ibv_context *context, uint8_t port_num,
			struct ibv_wc *wc, struct ibv_grh *grh,
			struct ibv_ah_attr *ah_attr)
{
	bool has_grh = wc && (wc->wc_flags & IBV_WC_GRH);
	struct ibv_port_attr port;
	struct grh_view v;
	bool ethernet;
	int index, ret;

	if (!context || !wc || !ah_attr || (has_grh && !grh))
		return fail_minus_one(EINVAL);
	ret = ibv_query_port(context, port_num, &port);
	if (ret)
		return fail_minus_one(ret);
	ethernet = port.link_layer == IBV_LINK_LAYER_ETHERNET;

	memset(ah_attr, 0, sizeof(*ah_attr));
	ah_attr->port_num = port_num;
	ah_attr->dlid = wc->slid;
	ah_attr->sl = wc->sl;
	ah_attr->src_path_bits = wc->dlid_path_bits;
	if (!has_grh)
		/* RoCE has no LIDs: an answer needs the GIDs. */
		return ethernet ? fail_minus_one(EINVAL) : 0;

	ret = parse_grh(grh, ethernet, &v);
	if (ret)
		return fail_minus_one(ret);
	index = find_gid_index(context, port_num, port.gid_tbl_len, &v.local,
			       v.gid_type);
	if (index < 0)
		return fail_minus_one(ENOENT);
	ah_attr->is_global = 1;
	ah_attr->grh.dgid = v.remote;
	ah_attr->grh.sgid_index = (uint8_t)index;
	ah_attr->grh.flow_label = v.flow_label;
	ah_attr->grh.hop_limit = v.hop_limit;
	ah_attr->grh.traffic_class = v.traffic_class;
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

	if (!context || !attr || !eth_mac || !attr->is_global)
		return verbs_einval();
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
