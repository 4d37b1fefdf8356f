// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A RoCE neighbour's MAC changes under the RDMA CM (`ip neigh replace`, as
 * a user or a failover would change it), raw ucma writes, under
 * `rdma-sim --devices 2 --link-layer eth`. As 6.12's (and 6.1's) cma
 * netevent handler does: each id whose route was resolved over eth0 to the
 * changed address hears UNREACHABLE with status -ETIMEDOUT, whatever its
 * state (resolved only, connected, disconnected); an id only
 * address-resolved, the passive side, a listener, an id on the other
 * netdev or to another address hears nothing; putting the right MAC back
 * is no news; the connection carries on, and a later update that still
 * differs from the MAC the id resolved says UNREACHABLE again.
 */
#include "ucma_util.h"
#include "../common/judge.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EV_UNREACHABLE 7
#define PORT 7481

static const char *dev0 = "192.168.1.1", *dev1 = "192.168.1.2";

static int sh(const char *fmt, const char *arg)
{
	char line[256];

	snprintf(line, sizeof(line), fmt, arg);
	/* iproute2 leaves buffers at exit, which a sanitized sim preloaded
	 * into it would report: not this test's leaks */
	setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
	return system(line);
}

/* RESOLVE_ADDR from fd00::1 to fd00::2 */
static long resolve6(int fd, uint32_t id)
{
	struct rdma_ucm_resolve_addr c = {.id = id, .timeout_ms = 1000};
	struct sockaddr_in6 s = {.sin6_family = AF_INET6}, d = s;

	inet_pton(AF_INET6, "fd00::1", &s.sin6_addr);
	inet_pton(AF_INET6, "fd00::2", &d.sin6_addr);
	d.sin6_port = htons(PORT);
	c.src_size = c.dst_size = sizeof(s);
	memcpy(&c.src_addr, &s, sizeof(s));
	memcpy(&c.dst_addr, &d, sizeof(d));
	return cmd(fd, RDMA_USER_CM_CMD_RESOLVE_ADDR, &c, sizeof(c), 0);
}

/* An id of uid bound to src, address (and route) resolved to dst:PORT;
 * src NULL: fd00::1 to fd00::2. */
static int id_to(int fd, uint64_t uid, const char *src, const char *dst,
		 int with_route)
{
	struct rdma_ucm_event_resp e;
	int id = create_id(fd, uid, RDMA_PS_TCP);

	CHECK(id >= 0, "create id %llu", (unsigned long long)uid);
	if (src)
		CHECK(bind_ip(fd, (uint32_t)id, src, 0) > 0 &&
			      resolve(fd, (uint32_t)id, dst, PORT) > 0,
		      "id %d: bind %s, resolve %s", id, src, dst);
	else
		CHECK(resolve6(fd, (uint32_t)id) > 0, "id %d: resolve v6", id);
	expect_event(fd, EV_ADDR_RESOLVED, (uint32_t)id, &e, "addr");
	if (!with_route)
		return id;
	CHECK(route(fd, (uint32_t)id) > 0, "id %d: route", id);
	expect_event(fd, EV_ROUTE_RESOLVED, (uint32_t)id, &e, "route");
	return id;
}

/* Exactly the UNREACHABLE events of ids want[0..n) (any order), then
 * nothing else for 600 ms. */
static void expect_unreachable(int fd, const int *want, const uint64_t *uid,
			       int n, const char *what)
{
	struct rdma_ucm_event_resp e;
	int seen[8] = {0}, i, k;

	for (k = 0; k < n; k++) {
		CHECK(!get_event(fd, &e, 5000), "%s: event %d of %d", what,
		      k + 1, n);
		for (i = 0; i < n; i++)
			if (e.id == (uint32_t)want[i] && !seen[i])
				break;
		CHECK(i < n && e.event == EV_UNREACHABLE &&
			      (int)e.status == -ETIMEDOUT && e.uid == uid[i],
		      "%s: event %u of id %u uid %llu status %d, wanted "
		      "UNREACHABLE -ETIMEDOUT of an awaited id",
		      what, e.event, e.id, (unsigned long long)e.uid,
		      (int)e.status);
		if (i < n)
			seen[i] = 1;
	}
	CHECK(get_event(fd, &e, 600) == -ETIMEDOUT,
	      "%s: no further event (got event %u of id %u)", what, e.event,
	      e.id);
}

static void read_mac(const char *ifname, char *mac, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/address", ifname);
	f = fopen(path, "r");
	mac[0] = 0;
	if (f) {
		if (!fgets(mac, (int)len, f))
			mac[0] = 0;
		fclose(f);
	}
	mac[strcspn(mac, "\n")] = 0;
}

int main(void)
{
	struct rdma_ucm_event_resp e;
	int fd = ucma_open(), l, a, b, c, d, v6, s, ids[2];
	uint64_t uids[2];
	char mac1[32];

	if (fd < 0)
		return 1;
	read_mac("eth1", mac1, sizeof(mac1));
	CHECK(strlen(mac1) == 17, "eth1's MAC (%s)", mac1);

	l = create_id(fd, 1, RDMA_PS_TCP);
	CHECK(bind_ip(fd, (uint32_t)l, dev1, PORT) > 0 &&
		      listen_id(fd, (uint32_t)l, 4) > 0,
	      "listener on %s:%d", dev1, PORT);
	a = id_to(fd, 2, dev0, dev1, 1);
	b = id_to(fd, 3, dev0, dev1, 0);
	c = id_to(fd, 4, dev0, dev1, 1);
	d = id_to(fd, 5, dev1, dev0, 1);
	v6 = id_to(fd, 6, NULL, NULL, 1);

	/* a connected: the passive id s is not in the CM's table */
	CHECK(conn(fd, RDMA_USER_CM_CMD_CONNECT, (uint32_t)a, 0, 0x11, NULL,
		   1) > 0,
	      "connect");
	expect_event(fd, EV_CONNECT_REQUEST, (uint32_t)~0u, &e, "request");
	s = (int)e.id;
	CHECK(conn(fd, RDMA_USER_CM_CMD_ACCEPT, (uint32_t)s, 7, 0x22, NULL,
		   1) > 0,
	      "accept");
	expect_event(fd, EV_CONNECT_RESPONSE, (uint32_t)a, &e, "response");
	CHECK(conn(fd, RDMA_USER_CM_CMD_ACCEPT, (uint32_t)a, 2, 0, NULL, 0) > 0,
	      "RTU");
	expect_event(fd, EV_ESTABLISHED, (uint32_t)s, &e, "established");

	CHECK(!sh("ip neigh replace %s lladdr 02:00:00:00:00:01 dev eth0",
		  dev1),
	      "ip neigh replace %s on eth0", dev1);
	ids[0] = a, ids[1] = c, uids[0] = 2, uids[1] = 4;
	expect_unreachable(fd, ids, uids, 2, "eth0's neighbour changed");

	CHECK(!sh("ip neigh replace 192.168.1.2 lladdr %s dev eth0", mac1),
	      "ip neigh replace back to %s", mac1);
	expect_unreachable(fd, NULL, NULL, 0, "the resolved MAC back");

	CHECK(!sh("ip -6 neigh replace fd00::2 lladdr %s dev eth0",
		  "02:00:00:00:00:02"),
	      "ip -6 neigh replace fd00::2");
	ids[0] = v6, uids[0] = 6;
	expect_unreachable(fd, ids, uids, 1, "IPv6 neighbour changed");

	/* the connection is as it was: a disconnect goes through */
	CHECK(simple(fd, RDMA_USER_CM_CMD_DISCONNECT, (uint32_t)a) > 0, "DREQ");
	expect_event(fd, EV_DISCONNECTED, (uint32_t)s, &e, "DREQ received");
	CHECK(simple(fd, RDMA_USER_CM_CMD_DISCONNECT, (uint32_t)s) > 0, "DREP");
	expect_event(fd, EV_DISCONNECTED, (uint32_t)a, &e, "DREP received");
	expect_event(fd, EV_TIMEWAIT_EXIT, (uint32_t)~0u, &e, "timewait 1");
	expect_event(fd, EV_TIMEWAIT_EXIT, (uint32_t)~0u, &e, "timewait 2");

	/* still in the table, still the MAC resolved: news again */
	CHECK(!sh("ip neigh replace %s lladdr 02:00:00:00:00:03 dev eth0",
		  dev1),
	      "ip neigh replace %s again", dev1);
	ids[0] = a, ids[1] = c, uids[0] = 2, uids[1] = 4;
	expect_unreachable(fd, ids, uids, 2, "changed again");

	/* c was not disturbed: it connects */
	CHECK(conn(fd, RDMA_USER_CM_CMD_CONNECT, (uint32_t)c, 0, 0x33, NULL,
		   1) > 0,
	      "connect c after UNREACHABLE");
	expect_event(fd, EV_CONNECT_REQUEST, (uint32_t)~0u, &e, "request c");
	CHECK(e.uid == 1, "request c: the listener's");
	CHECK(destroy_id(fd, e.id, NULL) > 0, "reject by destroy");
	expect_event(fd, EV_REJECTED, (uint32_t)c, &e, "c rejected");

	sh("ip neigh replace 192.168.1.2 lladdr %s dev eth0", mac1);
	CHECK(destroy_id(fd, (uint32_t)a, NULL) > 0 &&
		      destroy_id(fd, (uint32_t)b, NULL) > 0 &&
		      destroy_id(fd, (uint32_t)c, NULL) > 0 &&
		      destroy_id(fd, (uint32_t)d, NULL) > 0 &&
		      destroy_id(fd, (uint32_t)v6, NULL) > 0 &&
		      destroy_id(fd, (uint32_t)s, NULL) > 0 &&
		      destroy_id(fd, (uint32_t)l, NULL) > 0,
	      "destroy every id");
	/* a destroyed id is out of the table */
	CHECK(!sh("ip neigh replace %s lladdr 02:00:00:00:00:04 dev eth0",
		  dev1),
	      "ip neigh replace after destroy");
	expect_unreachable(fd, NULL, NULL, 0, "no id left");
	close(fd);
	return ucma_report(failures, "sim_ucma_neigh");
}
