// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The RDMA CM on InfiniBand ports, through raw ucma write()s: IP
 * addresses of the IPoIB netdevs resolve to the peer port's GID and LID,
 * the route is the path an SA answers within one subnet (SLID/DLID, hop
 * limit 0, packet life 18), INIT_QP_ATTR gives LID-routed AVs; and AF_IB
 * (struct sockaddr_ib): BIND and RESOLVE_ADDR with their errnos, the port
 * space a service id selects, a route and a connection between AF_IB
 * ids; an IPoIB netdev going down. Run under rdma-sim --netns --devices 2 (IB
 * ports: ib0 holds 192.168.2.1, ib1 192.168.2.2).
 */
#include "ucma_util.h"
#include "../common/judge.h"

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EV_ROUTE_ERROR 3

/* Node GUID of mlx5_<d> from sysfs, host order. */
static uint64_t node_guid(int d)
{
	char path[96];
	unsigned int g[4] = {0};
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/infiniband/mlx5_%d/node_guid",
		 d);
	f = fopen(path, "re");
	CHECK(f && fscanf(f, "%x:%x:%x:%x", &g[0], &g[1], &g[2], &g[3]) == 4,
	      "read %s", path);
	if (f)
		fclose(f);
	return (uint64_t)g[0] << 48 | (uint64_t)g[1] << 32 |
	       (uint64_t)g[2] << 16 | g[3];
}

/* The port GID of mlx5_<d>: fe80:: + its GUID. */
static void port_gid(int d, uint8_t gid[16])
{
	uint64_t g = htobe64(node_guid(d));

	memset(gid, 0, 16);
	gid[0] = 0xfe;
	gid[1] = 0x80;
	memcpy(gid + 8, &g, 8);
}

static long query(int fd, uint32_t id, uint32_t option, void *resp,
		  uint16_t out)
{
	struct rdma_ucm_query q = {
		.response = (uintptr_t)resp, .id = id, .option = option};

	return cmd(fd, RDMA_USER_CM_CMD_QUERY, &q, sizeof(q), out);
}

/* The id's PathRecord (QUERY PATH): 0, or -1 when there is none. */
static int path_of(int fd, uint32_t id, uint8_t rec[64])
{
	uint8_t r[sizeof(struct rdma_ucm_query_path_resp) +
		  sizeof(struct ib_path_rec_data)] __attribute__((aligned(8)));
	struct rdma_ucm_query_path_resp *h = (void *)r;
	struct ib_path_rec_data *p = (void *)(r + sizeof(*h));

	memset(r, 0, sizeof(r));
	CHECK(query(fd, id, RDMA_USER_CM_QUERY_PATH, r, sizeof(r)) > 0,
	      "query path");
	if (h->num_paths != 1 || p->flags != 0x2b)
		return -1;
	memcpy(rec, p->path_rec, 64);
	return 0;
}

static uint16_t be16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* The path an SA answers within the subnet: SGID/DGID of the two ports,
 * DLID/SLID, hop limit 0, P_Key 0xffff, MTU 4096, packet life 18. */
static void check_path(int fd, uint32_t id, int from, int to)
{
	uint8_t rec[64], sg[16], dg[16];

	port_gid(from, sg);
	port_gid(to, dg);
	CHECK(!path_of(fd, id, rec), "one primary path");
	CHECK(!memcmp(rec + 8, dg, 16) && !memcmp(rec + 24, sg, 16),
	      "path: DGID/SGID of the ports");
	CHECK(be16_at(rec + 40) == to + 1 && be16_at(rec + 42) == from + 1,
	      "path: DLID %u SLID %u", be16_at(rec + 40), be16_at(rec + 42));
	CHECK(rec[47] == 0, "path: hop limit 0 (%u)", rec[47]);
	CHECK(be16_at(rec + 50) == 0xffff && (rec[54] & 0x3f) == 5 &&
		      (rec[56] & 0x3f) == 18,
	      "path: pkey %#x, mtu %u, packet life %u", be16_at(rec + 50),
	      rec[54] & 0x3f, rec[56] & 0x3f);
}

/* An RC exchange between a (active) and the listener's new id: the AVs
 * are LID-routed (no GRH), the RTS timeout cm_ack_timeout(16, 18) = 19. */
static void connect_pair(int fd, int c, uint16_t c_lid, uint16_t s_lid,
			 const char *what)
{
	struct rdma_ucm_event_resp e;
	struct ib_uverbs_qp_attr q;
	int s;

	CHECK(conn(fd, RDMA_USER_CM_CMD_CONNECT, (uint32_t)c, 0, 0x1234, "ib",
		   1) > 0,
	      "%s: connect", what);
	expect_event(fd, EV_CONNECT_REQUEST, ~0u, &e, what);
	s = (int)e.id;
	CHECK(e.param.conn.qp_num == 0x1234, "%s: request QPN", what);
	CHECK(qp_attr(fd, (uint32_t)s, 2, &q) > 0 && !q.ah_attr.is_global &&
		      q.ah_attr.dlid == c_lid && q.ah_attr.port_num == 1 &&
		      q.dest_qp_num == 0x1234 && q.path_mtu == 5,
	      "%s: server RTR AV to LID %u, no GRH (dlid %u global %u)", what,
	      c_lid, q.ah_attr.dlid, q.ah_attr.is_global);
	CHECK(conn(fd, RDMA_USER_CM_CMD_ACCEPT, (uint32_t)s, 300, 0x5678, NULL,
		   1) > 0,
	      "%s: accept", what);
	expect_event(fd, EV_CONNECT_RESPONSE, (uint32_t)c, &e, what);
	CHECK(qp_attr(fd, (uint32_t)c, 2, &q) > 0 && !q.ah_attr.is_global &&
		      q.ah_attr.dlid == s_lid && q.dest_qp_num == 0x5678,
	      "%s: client RTR AV to LID %u (dlid %u)", what, s_lid,
	      q.ah_attr.dlid);
	CHECK(qp_attr(fd, (uint32_t)c, 3, &q) > 0 && q.timeout == 19,
	      "%s: RTS timeout 19 (%u)", what, q.timeout);
	CHECK(conn(fd, RDMA_USER_CM_CMD_ACCEPT, (uint32_t)c, 200, 0, NULL, 0) >
		      0,
	      "%s: RTU", what);
	expect_event(fd, EV_ESTABLISHED, (uint32_t)s, &e, what);
	destroy_id(fd, (uint32_t)s, NULL);
	expect_event(fd, EV_DISCONNECTED, (uint32_t)c, &e, what);
}

/* IP over the IPoIB netdevs: device 0's address to device 1's. */
static void test_ipoib(int fd)
{
	struct rdma_ucm_query_addr_resp qa;
	struct rdma_ucm_event_resp e;
	int l = create_id(fd, 100, RDMA_PS_TCP),
	    c = create_id(fd, 200, RDMA_PS_TCP);
	const struct sib *d;
	uint8_t g[16];

	CHECK(bind_ip(fd, (uint32_t)l, "192.168.2.2", 7471) > 0,
	      "bind listener on ib1's address");
	CHECK(listen_id(fd, (uint32_t)l, 4) > 0, "listen");
	CHECK(bind_ip(fd, (uint32_t)c, "192.168.2.1", 0) > 0,
	      "bind client on ib0's address");
	CHECK(query(fd, (uint32_t)c, RDMA_USER_CM_QUERY_ADDR, &qa, sizeof(qa)) >
			      0 &&
		      qa.ibdev_index == 0 && qa.port_num == 1 &&
		      be64toh(qa.node_guid) == node_guid(0) &&
		      qa.pkey == 0xffff,
	      "bound to mlx5_0 port 1 (dev %u)", qa.ibdev_index);
	CHECK(resolve(fd, (uint32_t)c, "192.168.2.2", 7471) > 0, "resolve");
	expect_event(fd, EV_ADDR_RESOLVED, (uint32_t)c, &e, "addr");
	CHECK(query(fd, (uint32_t)c, RDMA_USER_CM_QUERY_GID, &qa, sizeof(qa)) >
		      0,
	      "query gid");
	d = (const struct sib *)&qa.dst_addr;
	port_gid(1, g);
	CHECK(d->family == AF_IB_FAMILY && !memcmp(d->gid, g, 16),
	      "DGID: mlx5_1's port GID (IPoIB's neighbour)");
	CHECK(route(fd, (uint32_t)c) > 0, "route");
	expect_event(fd, EV_ROUTE_RESOLVED, (uint32_t)c, &e, "route");
	check_path(fd, (uint32_t)c, 0, 1);
	connect_pair(fd, c, 1, 2, "IPoIB");
	destroy_id(fd, (uint32_t)c, NULL);
	/* IPoIB's port space binds on an IPoIB address (on RoCE: EINVAL) */
	c = create_id(fd, 202, RDMA_PS_IPOIB);
	CHECK(bind_ip(fd, (uint32_t)c, "192.168.2.1", 0) > 0,
	      "PS_IPOIB binds on ib0's address");
	destroy_id(fd, (uint32_t)c, NULL);
	/* nobody on the IB fabric has 192.168.2.77: ARP times out */
	c = create_id(fd, 201, RDMA_PS_TCP);
	CHECK(resolve(fd, (uint32_t)c, "192.168.2.77", 1) > 0, "resolve .77");
	expect_event(fd, EV_ADDR_ERROR, (uint32_t)c, &e, "no neighbour");
	CHECK((int)e.status == -ETIMEDOUT, "no neighbour: -ETIMEDOUT (%d)",
	      (int)e.status);
	destroy_id(fd, (uint32_t)c, NULL);
	destroy_id(fd, (uint32_t)l, NULL);
}

/* BIND with a sockaddr_ib: errnos, the port space, the port. */
static void test_af_ib_bind(int fd)
{
	int a = create_id(fd, 1, RDMA_PS_TCP), b = create_id(fd, 2, RDMA_PS_IB);
	struct rdma_ucm_bind c = {.id = (uint32_t)a, .addr_size = 28};
	struct rdma_ucm_query_addr_resp qa;
	static const uint8_t other[16] = {0xfe, 0x80, [15] = 0x99};
	const struct sib *q = (const struct sib *)&qa.src_addr;
	struct sib s;
	uint8_t g[16];

	sib(&s, NULL, 0xffff, PS_TCP_SID | 7000, ~0ull);
	memcpy(&c.addr, &s, sizeof(s));
	CHECK(cmd(fd, RDMA_USER_CM_CMD_BIND, &c, sizeof(c), 0) == -EINVAL,
	      "AF_IB with addr_size 28: EINVAL");
	sib(&s, other, 0xffff, PS_TCP_SID | 7000, ~0ull);
	CHECK(bind_ib(fd, (uint32_t)a, &s) == -ENODEV,
	      "a GID no port has: ENODEV");
	sib(&s, NULL, 0xffff, PS_UDP_SID | 7000, ~0ull);
	CHECK(bind_ib(fd, (uint32_t)a, &s) == -EPROTONOSUPPORT,
	      "TCP id, UDP service id: EPROTONOSUPPORT");
	port_gid(1, g);
	sib(&s, g, 0xffff, PS_TCP_SID | 7000, ~0ull);
	CHECK(bind_ib(fd, (uint32_t)a, &s) > 0, "bind to mlx5_1's GID");
	CHECK(query(fd, (uint32_t)a, RDMA_USER_CM_QUERY_ADDR, &qa, sizeof(qa)) >
			      0 &&
		      qa.ibdev_index == 1 && qa.src_size == sizeof(s) &&
		      q->family == AF_IB_FAMILY &&
		      be64toh(q->sid) == (PS_TCP_SID | 7000),
	      "bound on mlx5_1, the SID kept (dev %u sid %#llx)",
	      qa.ibdev_index, (unsigned long long)be64toh(q->sid));
	CHECK(bind_ib(fd, (uint32_t)a, &s) == -EINVAL, "bind twice: EINVAL");
	/* PS_IB id with a TCP service id: TCP's port space, port taken */
	CHECK(bind_ib(fd, (uint32_t)b, &s) == -EADDRINUSE,
	      "same GID and TCP port from a PS_IB id: EADDRINUSE");
	destroy_id(fd, (uint32_t)b, NULL);
	/* one TCP port space for both families; a PS_IB id's IP bind is in
	 * the IB space */
	b = create_id(fd, 2, RDMA_PS_TCP);
	CHECK(bind_ip(fd, (uint32_t)b, "0.0.0.0", 7000) == -EADDRNOTAVAIL,
	      "IP wildcard on the TCP port AF_IB holds: EADDRNOTAVAIL");
	destroy_id(fd, (uint32_t)b, NULL);
	b = create_id(fd, 2, RDMA_PS_IB);
	CHECK(bind_ip(fd, (uint32_t)b, "0.0.0.0", 7000) > 0,
	      "the same port in the IB space binds");
	destroy_id(fd, (uint32_t)b, NULL);
	/* librdmacm's AF_IB probe: PS_IB, any GID, TCP SID, port 0 */
	b = create_id(fd, 3, RDMA_PS_IB);
	sib(&s, NULL, 0, PS_TCP_SID, PS_MASK);
	CHECK(bind_ib(fd, (uint32_t)b, &s) > 0, "AF_IB probe binds");
	CHECK(query(fd, (uint32_t)b, RDMA_USER_CM_QUERY_ADDR, &qa, sizeof(qa)) >
			      0 &&
		      (be64toh(q->sid) & PS_MASK) == PS_TCP_SID &&
		      (be64toh(q->sid) & 0xffff) >= 32768 &&
		      be64toh(q->sid_mask) == PS_MASK,
	      "a free TCP port in the SID (%#llx)",
	      (unsigned long long)be64toh(q->sid));
	destroy_id(fd, (uint32_t)a, NULL);
	destroy_id(fd, (uint32_t)b, NULL);
}

/* RESOLVE_ADDR with AF_IB: the DGID is given (no ARP), the source port
 * found by it; a route and a connection between AF_IB ids. */
static void test_af_ib_resolve(int fd)
{
	struct rdma_ucm_event_resp e;
	struct rdma_ucm_query_addr_resp qa;
	const struct sib *q = (const struct sib *)&qa.src_addr;
	static const uint8_t stranger[16] = {0xfe, 0x80, [15] = 0x77};
	static const uint8_t elsewhere[16] = {0xfe, 0x81, [15] = 0x77};
	int l = create_id(fd, 10, RDMA_PS_TCP),
	    c = create_id(fd, 11, RDMA_PS_TCP);
	struct sib s, d;
	uint8_t g0[16], g1[16];

	port_gid(0, g0);
	port_gid(1, g1);
	sib(&s, g1, 0xffff, PS_TCP_SID | 7100, ~0ull);
	CHECK(bind_ib(fd, (uint32_t)l, &s) > 0 &&
		      listen_id(fd, (uint32_t)l, 4) > 0,
	      "AF_IB listener on mlx5_1");
	sib(&d, g1, 0xffff, PS_TCP_SID | 7100, ~0ull);
	CHECK(resolve(fd, (uint32_t)c, "192.168.2.2", 7100) > 0,
	      "IP resolve binds the id AF_INET");
	expect_event(fd, EV_ADDR_RESOLVED, (uint32_t)c, &e, "IP first");
	CHECK(resolve_ib(fd, (uint32_t)c, NULL, &d) == -EINVAL,
	      "AF_IB destination for an AF_INET id: EINVAL");
	destroy_id(fd, (uint32_t)c, NULL);
	c = create_id(fd, 11, RDMA_PS_TCP);
	sib(&d, g1, 0, PS_TCP_SID | 7100, ~0ull);
	CHECK(resolve_ib(fd, (uint32_t)c, NULL, &d) == -ENODEV,
	      "P_Key 0 no port has: ENODEV");
	sib(&d, elsewhere, 0xffff, PS_TCP_SID | 7100, ~0ull);
	CHECK(resolve_ib(fd, (uint32_t)c, NULL, &d) == -ENODEV,
	      "a DGID of another subnet: ENODEV");
	/* a DGID on the subnet that no port has: resolved, no path */
	sib(&d, stranger, 0xffff, PS_TCP_SID | 7100, ~0ull);
	CHECK(resolve_ib(fd, (uint32_t)c, NULL, &d) > 0, "resolve stranger");
	expect_event(fd, EV_ADDR_RESOLVED, (uint32_t)c, &e, "stranger");
	CHECK(route(fd, (uint32_t)c) > 0, "route to a stranger");
	expect_event(fd, EV_ROUTE_ERROR, (uint32_t)c, &e, "no PathRecord");
	CHECK((int)e.status == -EINVAL, "ROUTE_ERROR -EINVAL (%d)",
	      (int)e.status);
	destroy_id(fd, (uint32_t)c, NULL);
	/* from mlx5_0's GID to the listener's */
	c = create_id(fd, 12, RDMA_PS_TCP);
	sib(&s, g0, 0xffff, PS_TCP_SID, PS_MASK);
	sib(&d, g1, 0xffff, PS_TCP_SID | 7100, ~0ull);
	CHECK(resolve_ib(fd, (uint32_t)c, &s, &d) > 0, "resolve AF_IB");
	expect_event(fd, EV_ADDR_RESOLVED, (uint32_t)c, &e, "AF_IB addr");
	CHECK(query(fd, (uint32_t)c, RDMA_USER_CM_QUERY_ADDR, &qa, sizeof(qa)) >
			      0 &&
		      qa.ibdev_index == 0 && !memcmp(q->gid, g0, 16) &&
		      qa.src_size == 48 && qa.dst_size == 48,
	      "AF_IB addresses, on mlx5_0");
	CHECK(route(fd, (uint32_t)c) > 0, "route AF_IB");
	expect_event(fd, EV_ROUTE_RESOLVED, (uint32_t)c, &e, "AF_IB route");
	check_path(fd, (uint32_t)c, 0, 1);
	{
		struct rdma_ucm_connect cc = {.id = (uint32_t)c};

		cc.conn_param.valid = 1;
		cc.conn_param.private_data_len = 93;
		CHECK(cmd(fd, RDMA_USER_CM_CMD_CONNECT, &cc, sizeof(cc), 0) ==
			      -EINVAL,
		      "93 bytes of private data (AF_IB: 92): EINVAL");
	}
	connect_pair(fd, c, 1, 2, "AF_IB");
	destroy_id(fd, (uint32_t)c, NULL);
	destroy_id(fd, (uint32_t)l, NULL);
}

/*
 * ib1 taken down: a new resolution of its address finds no neighbour
 * (ADDR_ERROR -ETIMEDOUT), and an id bound to that address hears nothing
 * (6.12 queues ADDR_CHANGE only on a bond's failover); back up, it
 * resolves again from ADDR_BOUND. Last: the kernel drops ib1's IPv6
 * addresses on the way down.
 */
/* `ip link set ib1 UPDOWN`, then wait (up to 10 s) until its operstate
 * says so, and the launcher's watcher a little longer. */
static void ib1_link(const char *updown)
{
	char cmd_line[96], state[16] = "";
	int i;
	FILE *f;

	/* ip leaves a buffer at exit, which the sanitized sim (preloaded
	 * into every program) would report as a leak */
	snprintf(cmd_line, sizeof(cmd_line),
		 "ASAN_OPTIONS=detect_leaks=0 ip link set ib1 %s", updown);
	CHECK(!system(cmd_line), "%s", cmd_line);
	for (i = 0; i < 100 && strncmp(state, updown, strlen(updown)); i++) {
		usleep(100000);
		f = fopen("/sys/class/net/ib1/operstate", "re");
		if (f && !fgets(state, sizeof(state), f))
			state[0] = 0;
		if (f)
			fclose(f);
	}
	CHECK(!strncmp(state, updown, strlen(updown)), "ib1 operstate %s",
	      state);
	usleep(300000);
}

static void test_link_down(int fd)
{
	struct rdma_ucm_event_resp e;
	int b = create_id(fd, 50, RDMA_PS_TCP),
	    c = create_id(fd, 51, RDMA_PS_TCP);

	CHECK(bind_ip(fd, (uint32_t)b, "192.168.2.2", 7200) > 0 &&
		      bind_ip(fd, (uint32_t)c, "192.168.2.1", 0) > 0,
	      "bind on ib1 and ib0");
	ib1_link("down");
	CHECK(resolve(fd, (uint32_t)c, "192.168.2.2", 7200) > 0, "resolve");
	expect_event(fd, EV_ADDR_ERROR, (uint32_t)c, &e, "ib1 down");
	CHECK((int)e.status == -ETIMEDOUT, "ib1 down: -ETIMEDOUT (%d)",
	      (int)e.status);
	CHECK(get_event(fd, &e, 300) == -ETIMEDOUT,
	      "no event for the id bound on ib1 (event %u)", e.event);
	ib1_link("up");
	CHECK(resolve(fd, (uint32_t)c, "192.168.2.2", 7200) > 0,
	      "resolve again");
	expect_event(fd, EV_ADDR_RESOLVED, (uint32_t)c, &e, "ib1 up");
	destroy_id(fd, (uint32_t)b, NULL);
	destroy_id(fd, (uint32_t)c, NULL);
}

int main(void)
{
	int fd = ucma_open();

	if (fd < 0)
		return 1;
	test_ipoib(fd);
	test_af_ib_bind(fd);
	test_af_ib_resolve(fd);
	test_link_down(fd);
	close(fd);
	return ucma_report(failures, "ucma on IB");
}
