// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A resolved RoCE route as librdmacm reads it back: QUERY_ROUTE's path
 * (GIDs from the IPv4 addresses, P_Key, MTU of the netdev, hop limit,
 * traffic class from TOS, packet life), QUERY ADDR and QUERY PATH.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "cm.h"
#include "conf.h"

#define TOS 32

/* QUERY of one option into resp; 0 or the errno. */
static int query(int fd, uint32_t op, uint32_t id, uint32_t option, void *resp,
		 uint16_t out)
{
	struct rdma_ucm_query q = {
		.response = (uintptr_t)resp, .id = id, .option = option};

	return cm_cmd(fd, op, &q, sizeof(q), out);
}

static void check_route_resp(int fd, uint32_t id, const uint8_t gid[16])
{
	struct rdma_ucm_query_route_resp r = {};
	const struct ib_user_path_rec *p = &r.ib_route[0];

	conf_expect(
		"route.query_route", 0,
		query(fd, RDMA_USER_CM_CMD_QUERY_ROUTE, id, 0, &r, sizeof(r)));
	conf_expect_u("route.num_paths", 1, r.num_paths);
	conf_expect_u("route.port_num", 1, r.port_num);
	conf_expect_u("route.dgid", 1, !memcmp(p->dgid, gid, 16));
	conf_expect_u("route.sgid", 1, !memcmp(p->sgid, gid, 16));
	conf_expect_u("route.pkey", 0xffff, ntohs(p->pkey));
	/* dummy0's MTU 1500 holds IB MTU 1024 (enum value 3) */
	conf_expect_u("route.mtu", 3, p->mtu);
	conf_expect_u("route.hop_limit", 64, p->hop_limit);
	conf_expect_u("route.traffic_class", TOS, p->traffic_class);
	/* 6.12 lowered the RoCE packet life time from 18 to 16 */
	conf_expect_u_kmod("route.packet_life_time", 18, 16,
			   p->packet_life_time);
	conf_expect_u("route.dlid", 0, p->dlid);
}

static void check_addr_path(int fd, uint32_t id, const uint8_t gid[16])
{
	struct rdma_ucm_query_addr_resp a = {};
	/* the header and room for two paths */
	uint64_t buf[(sizeof(struct rdma_ucm_query_path_resp) +
		      2 * sizeof(struct ib_path_rec_data)) /
		     sizeof(uint64_t)] = {};
	const struct rdma_ucm_query_path_resp *pr = (const void *)buf;
	/* PathRecord wire format: DGID at byte 8, SGID at 24 */
	const uint8_t *rec = (const uint8_t *)pr->path_data[0].path_rec;

	conf_expect("route.query_addr", 0,
		    query(fd, RDMA_USER_CM_CMD_QUERY, id, 0, &a, sizeof(a)));
	/* ib_addr_get_pkey reads past an Ethernet broadcast address */
	conf_expect_u("route.addr.pkey", 0, ntohs(a.pkey));
	conf_expect_u("route.addr.src_size", sizeof(struct sockaddr_in),
		      a.src_size);
	conf_expect("route.query_path", 0,
		    query(fd, RDMA_USER_CM_CMD_QUERY, id, 1, buf, sizeof(buf)));
	conf_expect_u("route.path.num_paths", 1, pr->num_paths);
	conf_expect_u("route.path.flags", 0x2b, pr->path_data[0].flags);
	conf_expect_u("route.path.dgid", 1, !memcmp(rec + 8, gid, 16));
	conf_expect("route.query_path.out_4", ENOSPC,
		    query(fd, RDMA_USER_CM_CMD_QUERY, id, 1, buf, 4));
}

void check_cm_route(int fd)
{
	uint8_t gid[16] = {[10] = 0xff, [11] = 0xff};
	uint8_t tos = TOS;
	uint32_t id;

	conf_print_header("RDMA CM route on RoCE (QUERY_ROUTE, QUERY)");
	inet_pton(AF_INET, cm_addr, gid + 12);
	conf_expect("route.create", 0, cm_create(fd, RDMA_PS_TCP, 0x49, &id));
	conf_expect("route.tos", 0,
		    cm_set_opt(fd, id, CM_OPT_ID, CM_OPT_ID_TOS, &tos, 1));
	if (!cm_resolve_both("route", fd, id, CM_PORT_NONE))
		return;
	check_route_resp(fd, id, gid);
	check_addr_path(fd, id, gid);
	cm_destroy(fd, id, NULL);
}
