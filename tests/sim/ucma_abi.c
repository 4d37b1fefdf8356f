// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The RDMA CM device as the kernel's ucma answers it, through raw write()s
 * of <rdma/rdma_user_cm.h> (no librdmacm): framing and id errnos, bind
 * rules, the event order of an RC connection (private data sizes, the
 * responder/initiator swap, PSN pairing in INIT_QP_ATTR), REJ reasons,
 * a full backlog dropping a REQ without a REJ, UD (SIDR) answers, and a
 * peer process that dies (its ids closed: DISCONNECTED here), AF_IB
 * without an IB port. Run under
 * rdma-sim --link-layer eth (port 1 of mlx5_0 holds 192.168.1.1).
 */
#include "../common/judge.h"

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <pthread.h>
#include <rdma/rdma_user_cm.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ucma_util.h"

static void test_framing(int fd)
{
	struct rdma_ucm_create_id c = {.ps = RDMA_PS_TCP};
	struct rdma_ucm_event_resp e;
	struct stat st;
	uint8_t small[4] = {0};
	char b;
	int id;

	CHECK(!fstat(fd, &st) && S_ISCHR(st.st_mode) && major(st.st_rdev) == 10,
	      "rdma_cm is a misc char device");
	CHECK(read(fd, &b, 1) < 0 && errno == EINVAL, "read: EINVAL");
	CHECK(write(fd, small, sizeof(small)) < 0 && errno == EINVAL,
	      "short write: EINVAL");
	CHECK(cmd(fd, 99, &c, sizeof(c), 4) == -EINVAL, "cmd 99: EINVAL");
	CHECK(cmd(fd, RDMA_USER_CM_CMD_GET_OPTION, &c, 8, 0) == -ENOSYS,
	      "GET_OPTION: ENOSYS");
	CHECK(cmd(fd, RDMA_USER_CM_CMD_CREATE_ID, &c, sizeof(c), 2) == -ENOSPC,
	      "create out 2: ENOSPC");
	c.ps = 0x77;
	CHECK(cmd(fd, RDMA_USER_CM_CMD_CREATE_ID, &c, sizeof(c), 4) == -EINVAL,
	      "create ps 0x77: EINVAL");
	CHECK(destroy_id(fd, 1000, NULL) == -ENOENT, "unknown id: ENOENT");
	{
		struct rdma_ucm_migrate_resp r;
		struct rdma_ucm_migrate_id m = {.response = (uintptr_t)&r};
		int other = open("/dev/infiniband/umad0", O_RDWR | O_CLOEXEC);

		CHECK(other >= 0, "open umad0");
		m.fd = (uint32_t)other;
		CHECK(cmd(fd, RDMA_USER_CM_CMD_MIGRATE_ID, &m, sizeof(m),
			  sizeof(r)) == -EINVAL,
		      "MIGRATE_ID from a umad fd: EINVAL");
		close(other);
	}
	CHECK(fcntl(fd, F_SETFL, O_NONBLOCK) == 0, "nonblock");
	{
		struct rdma_ucm_get_event g = {.response = (uintptr_t)&e};

		CHECK(cmd(fd, RDMA_USER_CM_CMD_GET_EVENT, &g, sizeof(g),
			  sizeof(e)) == -EAGAIN,
		      "empty queue, O_NONBLOCK: EAGAIN");
		CHECK(cmd(fd, RDMA_USER_CM_CMD_GET_EVENT, &g, sizeof(g), 300) ==
			      -ENOSPC,
		      "GET_EVENT out 300: ENOSPC");
	}
	CHECK(fcntl(fd, F_SETFL, 0) == 0, "block");
	id = create_id(fd, 7, RDMA_PS_TCP);
	CHECK(id >= 0, "create");
	CHECK(route(fd, (uint32_t)id) == -EINVAL, "route without address");
	CHECK(simple(fd, RDMA_USER_CM_CMD_DISCONNECT, (uint32_t)id) == -EINVAL,
	      "disconnect without device");
	{
		struct ib_uverbs_qp_attr q;

		CHECK(qp_attr(fd, (uint32_t)id, 2, &q) == -EINVAL,
		      "INIT_QP_ATTR without device");
		CHECK(qp_attr(fd, (uint32_t)id, 9, &q) == -EINVAL,
		      "INIT_QP_ATTR state 9");
	}
	{
		uint8_t tos[4] = {1};
		struct rdma_ucm_set_option o = {.id = (uint32_t)id,
						.optval = (uintptr_t)tos,
						.optlen = 4};

		CHECK(cmd(fd, RDMA_USER_CM_CMD_SET_OPTION, &o, sizeof(o), 0) ==
			      -EINVAL,
		      "TOS of 4 bytes: EINVAL");
		o.optlen = 1;
		CHECK(cmd(fd, RDMA_USER_CM_CMD_SET_OPTION, &o, sizeof(o), 0) >
			      0,
		      "TOS");
		o.optname = 77;
		CHECK(cmd(fd, RDMA_USER_CM_CMD_SET_OPTION, &o, sizeof(o), 0) ==
			      -ENOSYS,
		      "unknown option: ENOSYS");
	}
	CHECK(destroy_id(fd, (uint32_t)id, NULL) > 0, "destroy");
}

/* Drop CAP_NET_BIND_SERVICE from this process's effective set. */
static void drop_bind_service(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct d[2];

	CHECK(!syscall(SYS_capget, &h, d), "capget");
	d[0].effective &= ~(1u << CAP_NET_BIND_SERVICE);
	CHECK(!syscall(SYS_capset, &h, d), "capset");
}

static void test_bind(int fd)
{
	int a = create_id(fd, 1, RDMA_PS_TCP),
	    b = create_id(fd, 2, RDMA_PS_TCP);
	struct rdma_ucm_bind c = {.id = (uint32_t)a, .addr_size = 12};
	int on = 1;
	struct rdma_ucm_set_option o = {.optval = (uintptr_t)&on,
					.optname = RDMA_OPTION_ID_REUSEADDR,
					.optlen = sizeof(on)};

	ip4((struct sockaddr_storage *)&c.addr, server_ip, 7000);
	CHECK(cmd(fd, RDMA_USER_CM_CMD_BIND, &c, sizeof(c), 0) == -EINVAL,
	      "addr_size 12: EINVAL");
	CHECK(bind_ip(fd, (uint32_t)a, "10.9.9.9", 7000) == -EADDRNOTAVAIL,
	      "not ours: EADDRNOTAVAIL");
	CHECK(bind_ip(fd, (uint32_t)a, server_ip, 7000) > 0, "bind");
	CHECK(bind_ip(fd, (uint32_t)a, server_ip, 7001) == -EINVAL,
	      "bind twice: EINVAL");
	CHECK(bind_ip(fd, (uint32_t)b, server_ip, 7000) == -EADDRINUSE,
	      "same address and port: EADDRINUSE");
	CHECK(bind_ip(fd, (uint32_t)b, "0.0.0.0", 7000) == -EADDRNOTAVAIL,
	      "wildcard over it: EADDRNOTAVAIL");
	/* the kernel's cma_any_addr: loopback binds as a wildcard does, on
	 * no device (libfabric's verbs provider binds 127.0.0.1 so) */
	CHECK(bind_ip(fd, (uint32_t)b, "127.0.0.1", 7000) == -EADDRNOTAVAIL,
	      "loopback over it: EADDRNOTAVAIL");
	CHECK(bind_ip(fd, (uint32_t)b, "127.0.0.1", 7003) > 0,
	      "loopback: bound without an RDMA port");
	destroy_id(fd, (uint32_t)a, NULL);
	destroy_id(fd, (uint32_t)b, NULL);
	/* REUSEADDR on both ids shares the port */
	a = create_id(fd, 1, RDMA_PS_TCP);
	b = create_id(fd, 2, RDMA_PS_TCP);
	o.id = (uint32_t)a;
	CHECK(cmd(fd, RDMA_USER_CM_CMD_SET_OPTION, &o, sizeof(o), 0) > 0,
	      "reuseaddr a");
	o.id = (uint32_t)b;
	CHECK(cmd(fd, RDMA_USER_CM_CMD_SET_OPTION, &o, sizeof(o), 0) > 0,
	      "reuseaddr b");
	CHECK(bind_ip(fd, (uint32_t)a, server_ip, 7002) > 0, "bind a");
	CHECK(bind_ip(fd, (uint32_t)b, server_ip, 7002) > 0,
	      "bind b, both REUSEADDR");
	/* a listener holds its port alone */
	CHECK(listen_id(fd, (uint32_t)a, 1) == -EADDRINUSE,
	      "listen on a shared port: EADDRINUSE");
	destroy_id(fd, (uint32_t)b, NULL);
	CHECK(listen_id(fd, (uint32_t)a, 1) > 0, "listen once alone");
	destroy_id(fd, (uint32_t)a, NULL);
	/* ports below 1024 need CAP_NET_BIND_SERVICE (in the initial user
	 * namespace): without it in the effective set, EACCES */
	b = create_id(fd, 2, RDMA_PS_TCP);
	drop_bind_service();
	CHECK(bind_ip(fd, (uint32_t)b, server_ip, 100) == -EACCES,
	      "port 100 without CAP_NET_BIND_SERVICE: EACCES");
	CHECK(bind_ip(fd, (uint32_t)b, server_ip, 0) > 0,
	      "port 0 (a free one) still binds");
	destroy_id(fd, (uint32_t)b, NULL);
}

/* Address errors: no neighbour answers on the wire (ADDR_ERROR after the
 * timeout), no route (the write fails); the id is back in ADDR_BOUND and
 * may try again. */
static void test_addr_errors(int fd)
{
	struct rdma_ucm_event_resp e;
	struct timespec t0, t1;
	int id = create_id(fd, 800, RDMA_PS_TCP);
	long ms;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK(resolve(fd, (uint32_t)id, "192.168.1.77", 1) > 0, "resolve");
	expect_event(fd, EV_ADDR_ERROR, (uint32_t)id, &e, "no neighbour");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 +
	     (t1.tv_nsec - t0.tv_nsec) / 1000000;
	CHECK((int)e.status == -ETIMEDOUT && ms >= 1000,
	      "ADDR_ERROR -ETIMEDOUT after the timeout (%d, %ld ms)",
	      (int)e.status, ms);
	/* the kernel's route lookup fails the write itself */
	CHECK(resolve(fd, (uint32_t)id, "10.200.1.1", 1) == -ENETUNREACH,
	      "no route: the write fails with ENETUNREACH");
	CHECK(resolve(fd, (uint32_t)id, "192.168.1.1", 1) > 0,
	      "resolve again once bound");
	expect_event(fd, EV_ADDR_RESOLVED, (uint32_t)id, &e, "after no route");
	destroy_id(fd, (uint32_t)id, NULL);
}

static void test_rc(int fd)
{
	struct ib_uverbs_qp_attr sq, cq;
	struct rdma_ucm_event_resp e;
	struct rdma_ucm_query_addr_resp qa;
	struct rdma_ucm_query q = {.response = (uintptr_t)&qa};
	int l = create_id(fd, 100, RDMA_PS_TCP), c, s, i, seen = 0;
	uint32_t reported = 0;
	static const uint8_t zeros[256];
	long t0;

	CHECK(bind_ip(fd, (uint32_t)l, server_ip, 7471) > 0, "bind listener");
	CHECK(listen_id(fd, (uint32_t)l, 8) > 0, "listen");
	c = client(fd, 200, RDMA_PS_TCP, 7471);
	q.id = (uint32_t)c;
	CHECK(cmd(fd, RDMA_USER_CM_CMD_QUERY, &q, sizeof(q), sizeof(qa)) > 0,
	      "query addr");
	CHECK(qa.src_size == 16 && qa.dst_size == 16 && qa.port_num == 1 &&
		      qa.ibdev_index == 0 && qa.pkey == 0 && qa.node_guid,
	      "query addr answer (P_Key 0 on RoCE, as 6.1 and 6.12 answer)");
	CHECK(conn(fd, RDMA_USER_CM_CMD_CONNECT, (uint32_t)c, 0, 0x1234,
		   "hello", 0) == -EINVAL,
	      "conn_param not valid: EINVAL");
	CHECK(conn(fd, RDMA_USER_CM_CMD_CONNECT, (uint32_t)c, 0, 0x1234,
		   "hello", 1) > 0,
	      "connect");
	expect_event(fd, EV_CONNECT_REQUEST, ~0u, &e, "request");
	s = (int)e.id;
	CHECK(e.uid == 100 && s != l && s != c,
	      "request: listener uid, new id");
	CHECK(e.param.conn.private_data_len == 56 &&
		      !memcmp(e.param.conn.private_data, "hello", 5) &&
		      !memcmp(e.param.conn.private_data + 5, zeros, 51),
	      "request: 56 bytes, the sender's first");
	CHECK(e.param.conn.qp_num == 0x1234 &&
		      e.param.conn.responder_resources == 2 &&
		      e.param.conn.initiator_depth == 4 &&
		      e.param.conn.retry_count == 6 &&
		      e.param.conn.rnr_retry_count == 5,
	      "request: QPN and swapped resources (%u %u %u)",
	      e.param.conn.qp_num, e.param.conn.responder_resources,
	      e.param.conn.initiator_depth);
	CHECK(qp_attr(fd, (uint32_t)s, 2, &sq) > 0, "server RTR attrs");
	CHECK(sq.dest_qp_num == 0x1234 && sq.ah_attr.is_global &&
		      sq.ah_attr.grh.hop_limit == 64 && sq.path_mtu >= 1,
	      "server RTR: dest QPN, GRH");
	CHECK(conn(fd, RDMA_USER_CM_CMD_ACCEPT, (uint32_t)s, 300, 0x5678,
		   "world", 1) > 0,
	      "accept");
	expect_event(fd, EV_CONNECT_RESPONSE, (uint32_t)c, &e, "response");
	CHECK(e.uid == 200 && e.param.conn.private_data_len == 196 &&
		      !memcmp(e.param.conn.private_data, "world", 5) &&
		      e.param.conn.qp_num == 0x5678,
	      "response: 196 bytes, server QPN");
	CHECK(qp_attr(fd, (uint32_t)c, 2, &cq) > 0, "client RTR attrs");
	CHECK(cq.dest_qp_num == 0x5678, "client RTR dest QPN");
	/* PSN pairing: what one side sends with, the other expects */
	{
		uint32_t c_rq = cq.rq_psn, s_rq = sq.rq_psn;

		CHECK(qp_attr(fd, (uint32_t)c, 3, &cq) > 0, "client RTS");
		CHECK(qp_attr(fd, (uint32_t)s, 3, &sq) > 0, "server RTS");
		CHECK(cq.sq_psn == s_rq && sq.sq_psn == c_rq,
		      "PSN pairing (%#x/%#x, %#x/%#x)", cq.sq_psn, s_rq,
		      sq.sq_psn, c_rq);
		CHECK(cq.timeout == 18 && cq.retry_cnt == 6,
		      "client RTS timeout %u retry %u", cq.timeout,
		      cq.retry_cnt);
	}
	CHECK(conn(fd, RDMA_USER_CM_CMD_ACCEPT, (uint32_t)c, 200, 0, NULL, 0) >
		      0,
	      "RTU");
	expect_event(fd, EV_ESTABLISHED, (uint32_t)s, &e, "established");
	CHECK(e.uid == 300, "established: accepted uid");
	CHECK(simple(fd, RDMA_USER_CM_CMD_DISCONNECT, (uint32_t)c) > 0, "DREQ");
	expect_event(fd, EV_DISCONNECTED, (uint32_t)s, &e, "DREQ received");
	CHECK(simple(fd, RDMA_USER_CM_CMD_DISCONNECT, (uint32_t)s) > 0, "DREP");
	expect_event(fd, EV_DISCONNECTED, (uint32_t)c, &e, "DREP received");
	/* nothing left to send, yet 6.1 and 6.12 answer 0 (tests/vm
	 * rc.disconnect.again) */
	CHECK(simple(fd, RDMA_USER_CM_CMD_DISCONNECT, (uint32_t)c) > 0,
	      "disconnect again succeeds");
	/* both CMs leave timewait 2^(17-8) ms later (packet life 16 + 1) */
	t0 = now_ms();
	for (i = 0; i < 2; i++) {
		expect_event(fd, EV_TIMEWAIT_EXIT, ~0u, &e, "timewait exit");
		seen |= e.id == (uint32_t)c ? 1 : e.id == (uint32_t)s ? 2 : 4;
	}
	CHECK(seen == 3, "TIMEWAIT_EXIT once for each id (%#x)", seen);
	CHECK(now_ms() - t0 >= 400, "timewait lasted %ld ms, not ~512",
	      now_ms() - t0);
	CHECK(get_event(fd, &e, 200) == -ETIMEDOUT, "nothing more queued");
	CHECK(destroy_id(fd, (uint32_t)c, &reported) > 0 && reported == 5,
	      "client reported 5 events (%u)", reported);
	destroy_id(fd, (uint32_t)s, NULL);

	/* REJECT: reason 28 and the private data; other reasons EINVAL */
	c = client(fd, 201, RDMA_PS_TCP, 7471);
	conn(fd, RDMA_USER_CM_CMD_CONNECT, (uint32_t)c, 0, 0x99, NULL, 1);
	expect_event(fd, EV_CONNECT_REQUEST, ~0u, &e, "request 2");
	s = (int)e.id;
	{
		struct rdma_ucm_reject r = {.id = (uint32_t)s, .reason = 5};

		CHECK(cmd(fd, RDMA_USER_CM_CMD_REJECT, &r, sizeof(r), 0) ==
			      -EINVAL,
		      "reject reason 5: EINVAL");
		r.reason = 0;
		r.private_data_len = 3;
		memcpy(r.private_data, "no!", 3);
		CHECK(cmd(fd, RDMA_USER_CM_CMD_REJECT, &r, sizeof(r), 0) > 0,
		      "reject");
	}
	expect_event(fd, EV_REJECTED, (uint32_t)c, &e, "rejected");
	CHECK(e.status == 28 && e.param.conn.private_data_len == 148 &&
		      !memcmp(e.param.conn.private_data, "no!", 3),
	      "rejected: consumer reason 28, 148 bytes");
	destroy_id(fd, (uint32_t)c, NULL);
	destroy_id(fd, (uint32_t)s, NULL);

	/* no listener on the port: REJ 8 */
	c = client(fd, 202, RDMA_PS_TCP, 7999);
	conn(fd, RDMA_USER_CM_CMD_CONNECT, (uint32_t)c, 0, 0x99, NULL, 1);
	expect_event(fd, EV_REJECTED, (uint32_t)c, &e, "no listener");
	CHECK(e.status == 8, "no listener: status 8 (%u)", e.status);
	destroy_id(fd, (uint32_t)c, NULL);
	destroy_id(fd, (uint32_t)l, NULL);
}

/* Backlog 1: a second REQ is dropped without a REJ while the first
 * CONNECT_REQUEST is unread; destroying the listener destroys that
 * request's new id, which rejects it (28). */
static void test_backlog(int fd)
{
	struct rdma_ucm_event_resp e;
	int l = create_id(fd, 400, RDMA_PS_TCP), a, b, cfd;

	cfd = open("/dev/infiniband/rdma_cm", O_RDWR | O_CLOEXEC);
	CHECK(cfd >= 0, "second file");
	bind_ip(fd, (uint32_t)l, server_ip, 7600);
	CHECK(listen_id(fd, (uint32_t)l, 1) > 0, "listen backlog 1");
	a = client(cfd, 1, RDMA_PS_TCP, 7600);
	b = client(cfd, 2, RDMA_PS_TCP, 7600);
	conn(cfd, RDMA_USER_CM_CMD_CONNECT, (uint32_t)a, 0, 0x11, NULL, 1);
	conn(cfd, RDMA_USER_CM_CMD_CONNECT, (uint32_t)b, 0, 0x22, NULL, 1);
	CHECK(get_event(cfd, &e, 500) == -ETIMEDOUT,
	      "full backlog: no REJ (got event %u)", e.event);
	destroy_id(fd, (uint32_t)l, NULL);
	expect_event(cfd, EV_REJECTED, (uint32_t)a, &e, "listener gone");
	CHECK(e.status == 28, "pending request destroyed: 28 (%u)", e.status);
	CHECK(get_event(cfd, &e, 300) == -ETIMEDOUT,
	      "b's REQ was dropped, nothing answered it yet");
	CHECK(get_event(fd, &e, 100) == -ETIMEDOUT,
	      "the listener's unread request went with it");
	close(cfd);
}

static void test_ud(int fd)
{
	struct rdma_ucm_event_resp e;
	int l = create_id(fd, 500, RDMA_PS_UDP), c, s;

	bind_ip(fd, (uint32_t)l, server_ip, 7700);
	listen_id(fd, (uint32_t)l, 4);
	c = client(fd, 501, RDMA_PS_UDP, 7700);
	{
		uint8_t t = 14;
		struct rdma_ucm_set_option o = {
			.id = (uint32_t)c,
			.optval = (uintptr_t)&t,
			.optname = RDMA_OPTION_ID_ACK_TIMEOUT,
			.optlen = 1};

		CHECK(cmd(fd, RDMA_USER_CM_CMD_SET_OPTION, &o, sizeof(o), 0) ==
			      -EINVAL,
		      "ack timeout on UD: EINVAL");
	}
	conn(fd, RDMA_USER_CM_CMD_CONNECT, (uint32_t)c, 0, 0x77, "sidr", 1);
	expect_event(fd, EV_CONNECT_REQUEST, ~0u, &e, "SIDR request");
	s = (int)e.id;
	CHECK(e.param.ud.private_data_len == 180 &&
		      !memcmp(e.param.ud.private_data, "sidr", 4),
	      "SIDR request: 180 bytes (%u)", e.param.ud.private_data_len);
	CHECK(conn(fd, RDMA_USER_CM_CMD_ACCEPT, (uint32_t)s, 502, 0x88, NULL,
		   1) > 0,
	      "SIDR accept");
	expect_event(fd, EV_ESTABLISHED, (uint32_t)c, &e, "SIDR reply");
	CHECK(e.param.ud.qp_num == 0x88 && e.param.ud.qkey == 0x01234567 &&
		      e.param.ud.ah_attr.is_global &&
		      e.param.ud.private_data_len == 136,
	      "SIDR reply: QPN, qkey, AH");
	{
		struct ib_uverbs_qp_attr q;

		CHECK(qp_attr(fd, (uint32_t)c, 1, &q) > 0 &&
			      q.qkey == 0x01234567 &&
			      q.qp_attr_mask == (1 | 16 | 32 | 64),
		      "UD INIT attrs (mask %#x)", q.qp_attr_mask);
	}
	destroy_id(fd, (uint32_t)s, NULL);
	CHECK(conn(fd, RDMA_USER_CM_CMD_CONNECT, (uint32_t)c, 0, 0x77, NULL,
		   1) == -EINVAL,
	      "connect twice: EINVAL");
	destroy_id(fd, (uint32_t)c, NULL);
	destroy_id(fd, (uint32_t)l, NULL);
}

static long join(int fd, uint32_t id, uint64_t uid, const char *group,
		 uint32_t *mc)
{
	struct rdma_ucm_join_mcast c = {.id = id, .uid = uid};
	struct rdma_ucm_create_id_resp r = {.id = ~0u};
	long ret;

	c.response = (uintptr_t)&r;
	if (strchr(group, ':')) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&c.addr;

		s6->sin6_family = AF_INET6;
		inet_pton(AF_INET6, group, &s6->sin6_addr);
		c.addr_size = sizeof(*s6);
	} else {
		ip4((struct sockaddr_storage *)&c.addr, group, 0);
		c.addr_size = 16;
	}
	ret = cmd(fd, RDMA_USER_CM_CMD_JOIN_MCAST, &c, sizeof(c), sizeof(r));
	*mc = r.id;
	return ret;
}

/* AF_IB on a host with RoCE ports only: librdmacm's probe binds (no
 * device needed), a RoCE port's GID is no IB port's (ENODEV), a TCP id
 * cannot take a UDP service id (EPROTONOSUPPORT), an AF_IB destination
 * finds no IB port (ENODEV, the id stays bound), an AF_INET id takes no
 * AF_IB destination (EINVAL). */
static void test_af_ib(int fd)
{
	static const uint8_t v4gid[16] = {[10] = 0xff, [11] = 0xff, 192,
					  168,	       1,	    1};
	int a = create_id(fd, 1, RDMA_PS_IB), b = create_id(fd, 2, RDMA_PS_TCP);
	struct sib s, d;

	sib(&s, NULL, 0, PS_TCP_SID, PS_MASK);
	CHECK(bind_ib(fd, (uint32_t)a, &s) > 0, "librdmacm's AF_IB probe");
	sib(&s, v4gid, 0xffff, PS_TCP_SID | 7300, ~0ull);
	CHECK(bind_ib(fd, (uint32_t)b, &s) == -ENODEV,
	      "AF_IB bind to a RoCE GID: ENODEV");
	sib(&s, NULL, 0xffff, PS_UDP_SID | 7300, ~0ull);
	CHECK(bind_ib(fd, (uint32_t)b, &s) == -EPROTONOSUPPORT,
	      "TCP id, UDP service id: EPROTONOSUPPORT");
	sib(&d, v4gid, 0xffff, PS_TCP_SID | 7300, ~0ull);
	CHECK(resolve_ib(fd, (uint32_t)b, NULL, &d) == -ENODEV,
	      "AF_IB destination without an IB port: ENODEV");
	CHECK(resolve_ib(fd, (uint32_t)b, NULL, &d) == -ENODEV,
	      "again from ADDR_BOUND: ENODEV");
	destroy_id(fd, (uint32_t)b, NULL);
	b = create_id(fd, 2, RDMA_PS_TCP);
	CHECK(bind_ip(fd, (uint32_t)b, server_ip, 0) > 0 &&
		      resolve_ib(fd, (uint32_t)b, NULL, &d) == -EINVAL,
	      "AF_INET id, AF_IB destination: EINVAL");
	destroy_id(fd, (uint32_t)a, NULL);
	destroy_id(fd, (uint32_t)b, NULL);
}

/* Multicast on RoCE: the join's event and MGID, the IPv6 group RoCE v2
 * cannot carry, leave. */
static void test_mcast(int fd)
{
	static const uint8_t mgid[16] = {[10] = 0xff, [11] = 0xff, 239,
					 1,	      1,	   1};
	struct rdma_ucm_event_resp e;
	struct rdma_ucm_destroy_id_resp lr = {0};
	struct rdma_ucm_destroy_id l = {.response = (uintptr_t)&lr};
	int u = create_id(fd, 700, RDMA_PS_UDP),
	    t = create_id(fd, 701, RDMA_PS_TCP);
	uint32_t mc;

	CHECK(join(fd, (uint32_t)u, 1, "239.1.1.1", &mc) == -EINVAL,
	      "join without a device: EINVAL");
	bind_ip(fd, (uint32_t)u, server_ip, 0);
	bind_ip(fd, (uint32_t)t, server_ip, 0);
	CHECK(join(fd, (uint32_t)t, 1, "239.1.1.1", &mc) == -EINVAL,
	      "join on an RC id: EINVAL");
	CHECK(join(fd, (uint32_t)u, 1, "ff0e::1", &mc) == -524,
	      "IPv6 group on RoCE v2: the kernel's ENOTSUPP");
	CHECK(join(fd, (uint32_t)u, 77, "239.1.1.1", &mc) > 0, "join");
	expect_event(fd, EV_MULTICAST_JOIN, mc, &e, "joined");
	CHECK(e.uid == 77 && e.param.ud.qp_num == 0xffffff &&
		      e.param.ud.qkey == 0x01234567 &&
		      !memcmp(e.param.ud.ah_attr.grh.dgid, mgid, 16) &&
		      e.param.ud.ah_attr.grh.hop_limit == 64,
	      "join event: MGID ::ffff:239.1.1.1, qpn, qkey");
	l.id = mc;
	CHECK(cmd(fd, RDMA_USER_CM_CMD_LEAVE_MCAST, &l, sizeof(l), sizeof(lr)) >
			      0 &&
		      lr.events_reported == 1,
	      "leave: 1 event reported");
	CHECK(cmd(fd, RDMA_USER_CM_CMD_LEAVE_MCAST, &l, sizeof(l),
		  sizeof(lr)) == -ENOENT,
	      "leave again: ENOENT");
	destroy_id(fd, (uint32_t)u, NULL);
	destroy_id(fd, (uint32_t)t, NULL);
}

/* A process that dies holding an established id: its kernel file closes
 * and its CM sends DREQ. */
static void test_death(int fd)
{
	struct rdma_ucm_event_resp e;
	int l = create_id(fd, 600, RDMA_PS_TCP), s, st;
	int go[2], done[2];
	pid_t pid;
	char x;

	CHECK(!pipe(go) && !pipe(done), "pipes");
	bind_ip(fd, (uint32_t)l, server_ip, 7800);
	listen_id(fd, (uint32_t)l, 4);
	pid = fork();
	if (!pid) {
		int cfd = open("/dev/infiniband/rdma_cm", O_RDWR), c;

		c = client(cfd, 601, RDMA_PS_TCP, 7800);
		conn(cfd, RDMA_USER_CM_CMD_CONNECT, (uint32_t)c, 0, 0x31, NULL,
		     1);
		expect_event(cfd, EV_CONNECT_RESPONSE, (uint32_t)c, &e,
			     "child response");
		conn(cfd, RDMA_USER_CM_CMD_ACCEPT, (uint32_t)c, 601, 0, NULL,
		     0);
		if (write(done[1], "k", 1) != 1 || read(go[0], &x, 1) != 1)
			_exit(3);
		raise(SIGKILL);
	}
	expect_event(fd, EV_CONNECT_REQUEST, ~0u, &e, "child's request");
	s = (int)e.id;
	conn(fd, RDMA_USER_CM_CMD_ACCEPT, (uint32_t)s, 602, 0x32, NULL, 1);
	expect_event(fd, EV_ESTABLISHED, (uint32_t)s, &e, "child's RTU");
	CHECK(read(done[0], &x, 1) == 1, "child ready");
	CHECK(write(go[1], "g", 1) == 1, "go");
	CHECK(waitpid(pid, &st, 0) == pid && WIFSIGNALED(st), "child killed");
	expect_event(fd, EV_DISCONNECTED, (uint32_t)s, &e, "peer died");
	destroy_id(fd, (uint32_t)s, NULL);
	destroy_id(fd, (uint32_t)l, NULL);
}

struct waiter {
	int fd;
	long ret;
	int done;
};

static void *wait_event_thread(void *arg)
{
	struct waiter *w = arg;
	struct rdma_ucm_event_resp e;
	struct rdma_ucm_get_event c = {.response = (uintptr_t)&e};

	w->ret = cmd(w->fd, RDMA_USER_CM_CMD_GET_EVENT, &c, sizeof(c),
		     sizeof(e));
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Another thread closes the fd a GET_EVENT waits on: the kernel's call
 * holds the file and goes on waiting (no EBADF, no EAGAIN; rping's CM
 * thread met both). The thread ends with the process. */
static void test_close_while_waiting(void)
{
	static struct waiter w;
	pthread_t t;

	w.fd = open("/dev/infiniband/rdma_cm", O_RDWR | O_CLOEXEC);
	CHECK(w.fd >= 0, "open rdma_cm: %s", strerror(errno));
	if (w.fd < 0)
		return;
	CHECK(create_id(w.fd, 9, RDMA_PS_TCP) >= 0, "create id");
	if (pthread_create(&t, NULL, wait_event_thread, &w)) {
		CHECK(0, "pthread_create");
		return;
	}
	usleep(200000);
	close(w.fd);
	usleep(400000);
	CHECK(!__atomic_load_n(&w.done, __ATOMIC_ACQUIRE),
	      "GET_EVENT returned %ld after its fd was closed", w.ret);
	pthread_detach(t);
}

int main(int argc, char **argv)
{
	int fd;

	if (argc > 1)
		server_ip = argv[1];
	fd = ucma_open();
	if (fd < 0)
		return 1;
	test_framing(fd);
	test_bind(fd);
	test_addr_errors(fd);
	test_rc(fd);
	test_backlog(fd);
	test_ud(fd);
	test_af_ib(fd);
	test_mcast(fd);
	test_death(fd);
	test_close_while_waiting();
	close(fd);
	return ucma_report(failures, "ucma ABI");
}
