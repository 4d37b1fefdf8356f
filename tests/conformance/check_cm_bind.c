// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RDMA CM addresses: BIND's size and family checks, who may share a port,
 * the ephemeral range, and address resolution's input checks.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#include "cm.h"
#include "conf.h"

#define PORT_BIND 20100 /* +0..+4 */

/* BIND with a raw address and size (reserved as given). */
static int bind_raw(int fd, uint32_t id, const void *addr, uint16_t size,
		    uint16_t reserved)
{
	struct rdma_ucm_bind c = {
		.id = id, .addr_size = size, .reserved = reserved};

	memcpy(&c.addr, addr, sizeof(c.addr));
	return cm_cmd(fd, RDMA_USER_CM_CMD_BIND, &c, sizeof(c), 0);
}

/* A fresh TCP id of fd bound to ip:port with REUSEADDR set first or not. */
static int fresh_bind(int fd, bool reuse, const char *ip, uint16_t port,
		      uint32_t *id)
{
	int one = 1, err;

	err = cm_create(fd, RDMA_PS_TCP, 0x42, id);
	if (!err && reuse)
		err = cm_set_opt(fd, *id, CM_OPT_ID, CM_OPT_ID_REUSEADDR, &one,
				 sizeof(one));
	return err ? err : cm_bind(fd, *id, ip, port);
}

/* Who may share a port (each id stays bound until the end). */
static void check_sharing(int fd)
{
	uint32_t id[9];

	conf_expect("bind.addr", 0,
		    fresh_bind(fd, false, cm_addr, PORT_BIND, &id[0]));
	conf_expect("bind.same_addr_port", EADDRINUSE,
		    fresh_bind(fd, false, cm_addr, PORT_BIND, &id[1]));
	conf_expect("bind.wildcard_over_taken_port", EADDRNOTAVAIL,
		    fresh_bind(fd, false, "0.0.0.0", PORT_BIND, &id[2]));
	conf_expect("bind.twice", EINVAL,
		    cm_bind(fd, id[0], cm_addr, PORT_BIND + 1));
	conf_expect("bind.reuseaddr.first", 0,
		    fresh_bind(fd, true, cm_addr, PORT_BIND + 2, &id[3]));
	conf_expect("bind.reuseaddr.second", 0,
		    fresh_bind(fd, true, cm_addr, PORT_BIND + 2, &id[4]));
	conf_expect("bind.reuseaddr.only_first", 0,
		    fresh_bind(fd, true, cm_addr, PORT_BIND + 3, &id[5]));
	conf_expect("bind.reuseaddr.only_second", EADDRINUSE,
		    fresh_bind(fd, false, cm_addr, PORT_BIND + 3, &id[6]));
	conf_expect(
		"bind.not_local_addr", EADDRNOTAVAIL,
		fresh_bind(fd, false, cm_addr_other, PORT_BIND + 4, &id[7]));
	conf_expect("bind.loopback", 0,
		    fresh_bind(fd, false, "127.0.0.1", PORT_BIND + 4, &id[8]));
	for (unsigned int i = 0; i < 9; i++)
		cm_destroy(fd, id[i], NULL);
}

/* Port 0: a port from the ephemeral range (32768-60999 by default). */
static void check_ephemeral(int fd)
{
	struct rdma_ucm_query_route_resp r = {};
	struct rdma_ucm_query q = {.response = (uintptr_t)&r};
	struct sockaddr_in *src = (struct sockaddr_in *)&r.src_addr;
	uint16_t port;

	conf_expect("bind.port_0", 0, fresh_bind(fd, false, cm_addr, 0, &q.id));
	conf_expect("bind.port_0.query_route", 0,
		    cm_cmd(fd, RDMA_USER_CM_CMD_QUERY_ROUTE, &q, sizeof(q),
			   sizeof(r)));
	port = ntohs(src->sin_port);
	conf_expect_u("bind.port_0.ephemeral", 1,
		      port >= 32768 && port <= 60999);
	conf_expect_u("bind.port_0.family", AF_INET, src->sin_family);
	/* A bound address names its device: rxe0's port 1. */
	conf_expect_u("bind.port_0.port_num", 1, r.port_num);
	cm_destroy(fd, q.id, NULL);
}

/* BIND's own checks of size, family and reserved bytes. */
static void check_bad_bind(int fd)
{
	struct sockaddr_storage ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
	struct rdma_ucm_bind_ip legacy = {};
	uint32_t id;

	cm_create(fd, RDMA_PS_TCP, 0x43, &id);
	cm_sin(&ss, cm_addr, PORT_BIND + 5);
	conf_expect("bind.size_0", EINVAL, bind_raw(fd, id, &ss, 0, 0));
	conf_expect("bind.size_in6_for_in", EINVAL,
		    bind_raw(fd, id, &ss, sizeof(*s6), 0));
	conf_expect("bind.reserved_set", EINVAL,
		    bind_raw(fd, id, &ss, sizeof(struct sockaddr_in), 1));
	ss.ss_family = AF_UNIX;
	conf_expect("bind.family_unix", EINVAL,
		    bind_raw(fd, id, &ss, sizeof(struct sockaddr_in), 0));
	memset(&ss, 0, sizeof(ss));
	s6->sin6_family = AF_INET6;
	inet_pton(AF_INET6, "fe80::1", &s6->sin6_addr);
	conf_expect("bind.in6_link_local_no_scope", EINVAL,
		    bind_raw(fd, id, &ss, sizeof(*s6), 0));
	/* The older BIND_IP command still binds. */
	legacy.id = id;
	cm_sin((struct sockaddr_storage *)&legacy.addr, cm_addr, PORT_BIND + 5);
	conf_expect("bind.legacy_bind_ip", 0,
		    cm_cmd(fd, RDMA_USER_CM_CMD_BIND_IP, &legacy,
			   sizeof(legacy), 0));
	cm_destroy(fd, id, NULL);
	cm_create(fd, RDMA_PS_IPOIB, 0x44, &id);
	conf_expect("bind.ps_ipoib_on_ethernet", EINVAL,
		    cm_bind(fd, id, cm_addr, PORT_BIND + 6));
	cm_destroy(fd, id, NULL);
}

/* RESOLVE_ADDR's input checks, and what an unroutable address gets. */
static void check_resolve(int fd)
{
	struct rdma_ucm_resolve_addr c = {.timeout_ms = 2000};
	struct rdma_ucm_event_resp e;
	uint32_t id;

	cm_create(fd, RDMA_PS_TCP, 0x45, &id);
	c.id = id;
	cm_sin((struct sockaddr_storage *)&c.dst_addr, cm_addr, CM_PORT_NONE);
	conf_expect(
		"resolve.dst_size_0", EINVAL,
		cm_cmd(fd, RDMA_USER_CM_CMD_RESOLVE_ADDR, &c, sizeof(c), 0));
	c.dst_size = sizeof(struct sockaddr_in);
	c.reserved = 1;
	conf_expect(
		"resolve.reserved_set", EINVAL,
		cm_cmd(fd, RDMA_USER_CM_CMD_RESOLVE_ADDR, &c, sizeof(c), 0));
	conf_expect("resolve.no_route", ENETUNREACH,
		    cm_resolve(fd, id, "10.99.0.1", CM_PORT_NONE));
	conf_expect("resolve.after_no_route", 0,
		    cm_resolve(fd, id, cm_addr, CM_PORT_NONE));
	cm_expect_event("resolve.after_no_route.event", fd, CM_EV_ADDR_RESOLVED,
			&e);
	conf_expect("resolve.after_no_route.status", 0, -(int32_t)e.status);
	conf_expect("resolve.again", EINVAL,
		    cm_resolve(fd, id, cm_addr, CM_PORT_NONE));
	conf_expect("resolve.route_timeout_0", EINVAL, cm_route(fd, id, 0));
	cm_destroy(fd, id, NULL);
}

void check_cm_bind(int fd)
{
	conf_print_header("RDMA CM bind and address resolution");
	check_sharing(fd);
	check_ephemeral(fd);
	check_bad_bind(fd);
	check_resolve(fd);
}
