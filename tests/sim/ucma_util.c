// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Raw ucma write()s for the RDMA CM tests (ucma_abi.c, ucma_ib.c): one
 * helper per command, an event with a deadline, a resolved client id.
 */
#include "ucma_util.h"
#include "../common/judge.h"

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int ucma_open(void)
{
	int fd = open("/dev/infiniband/rdma_cm", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		perror("open rdma_cm");
	return fd;
}

int ucma_report(int own, const char *what)
{
	failures += own;
	if (failures)
		fprintf(stderr, "%s: %d check(s) failed\n", what, failures);
	else
		printf("%s: all checks passed\n", what);
	return failures ? 1 : 0;
}

const char *server_ip = "192.168.1.1";

/* One command: header + body; the write's result or -errno. */
long cmd(int fd, uint32_t op, const void *body, uint16_t in, uint16_t out)
{
	uint8_t buf[512];
	struct rdma_ucm_cmd_hdr h = {.cmd = op, .in = in, .out = out};
	ssize_t n;

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), body, in);
	n = write(fd, buf, sizeof(h) + in);
	return n < 0 ? -errno : n;
}

int create_id(int fd, uint64_t uid, uint16_t ps)
{
	struct rdma_ucm_create_id c = {.uid = uid, .ps = ps};
	struct rdma_ucm_create_id_resp r = {.id = ~0u};
	long ret;

	c.response = (uintptr_t)&r;
	ret = cmd(fd, RDMA_USER_CM_CMD_CREATE_ID, &c, sizeof(c), sizeof(r));
	return ret < 0 ? (int)ret : (int)r.id;
}

long destroy_id(int fd, uint32_t id, uint32_t *reported)
{
	struct rdma_ucm_destroy_id c = {.id = id};
	struct rdma_ucm_destroy_id_resp r = {0};
	long ret;

	c.response = (uintptr_t)&r;
	ret = cmd(fd, RDMA_USER_CM_CMD_DESTROY_ID, &c, sizeof(c), sizeof(r));
	if (reported)
		*reported = r.events_reported;
	return ret;
}

void ip4(struct sockaddr_storage *ss, const char *ip, uint16_t port)
{
	struct sockaddr_in *s = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	s->sin_family = AF_INET;
	s->sin_port = htons(port);
	inet_pton(AF_INET, ip, &s->sin_addr);
}

long bind_ip(int fd, uint32_t id, const char *ip, uint16_t port)
{
	struct rdma_ucm_bind c = {.id = id, .addr_size = 16};

	ip4((struct sockaddr_storage *)&c.addr, ip, port);
	return cmd(fd, RDMA_USER_CM_CMD_BIND, &c, sizeof(c), 0);
}

long listen_id(int fd, uint32_t id, uint32_t backlog)
{
	struct rdma_ucm_listen c = {.id = id, .backlog = backlog};

	return cmd(fd, RDMA_USER_CM_CMD_LISTEN, &c, sizeof(c), 0);
}

long resolve(int fd, uint32_t id, const char *ip, uint16_t port)
{
	struct rdma_ucm_resolve_addr c = {.id = id, .timeout_ms = 1000};

	c.dst_size = 16;
	ip4((struct sockaddr_storage *)&c.dst_addr, ip, port);
	return cmd(fd, RDMA_USER_CM_CMD_RESOLVE_ADDR, &c, sizeof(c), 0);
}

long route(int fd, uint32_t id)
{
	struct rdma_ucm_resolve_route c = {.id = id, .timeout_ms = 2000};

	return cmd(fd, RDMA_USER_CM_CMD_RESOLVE_ROUTE, &c, sizeof(c), 0);
}

/* The next event within ms milliseconds: 0, or -errno. */
long get_event(int fd, struct rdma_ucm_event_resp *e, int ms)
{
	struct rdma_ucm_get_event c = {.response = (uintptr_t)e};
	struct pollfd p = {.fd = fd, .events = POLLIN};

	memset(e, 0xa5, sizeof(*e));
	if (poll(&p, 1, ms) != 1)
		return -ETIMEDOUT;
	return cmd(fd, RDMA_USER_CM_CMD_GET_EVENT, &c, sizeof(c), sizeof(*e)) <
			       0
		       ? -errno
		       : 0;
}

long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void expect_event(int fd, uint32_t event, uint32_t id,
		  struct rdma_ucm_event_resp *e, const char *what)
{
	long ret = get_event(fd, e, 3000);

	CHECK(!ret, "%s: no event (%ld)", what, ret);
	CHECK(e->event == event, "%s: event %u, wanted %u (status %d)", what,
	      e->event, event, (int)e->status);
	if (id != ~0u)
		CHECK(e->id == id, "%s: id %u, wanted %u", what, e->id, id);
}

long conn(int fd, uint32_t op, uint32_t id, uint64_t uid, uint32_t qpn,
	  const char *pdata, uint8_t valid)
{
	union {
		struct rdma_ucm_connect c;
		struct rdma_ucm_accept a;
	} u;
	struct rdma_ucm_conn_param *p;

	memset(&u, 0, sizeof(u));
	if (op == RDMA_USER_CM_CMD_CONNECT) {
		u.c.id = id;
		p = &u.c.conn_param;
	} else {
		u.a.id = id;
		u.a.uid = uid;
		p = &u.a.conn_param;
	}
	p->qp_num = qpn;
	p->responder_resources = 4;
	p->initiator_depth = 2;
	p->retry_count = 6;
	p->rnr_retry_count = 5;
	p->valid = valid;
	if (pdata) {
		p->private_data_len = (uint8_t)strlen(pdata);
		memcpy(p->private_data, pdata, strlen(pdata));
	}
	return cmd(fd, op, &u,
		   op == RDMA_USER_CM_CMD_CONNECT ? sizeof(u.c) : sizeof(u.a),
		   0);
}

long qp_attr(int fd, uint32_t id, uint32_t state, struct ib_uverbs_qp_attr *q)
{
	struct rdma_ucm_init_qp_attr c = {.id = id, .qp_state = state};

	c.response = (uintptr_t)q;
	memset(q, 0, sizeof(*q));
	return cmd(fd, RDMA_USER_CM_CMD_INIT_QP_ATTR, &c, sizeof(c),
		   sizeof(*q));
}

long simple(int fd, uint32_t op, uint32_t id)
{
	return cmd(fd, op, &id, sizeof(id), 0);
}

/* A client id on fd resolved to server_ip:port, route included. */
int client(int fd, uint64_t uid, uint16_t ps, uint16_t port)
{
	struct rdma_ucm_event_resp e;
	int id = create_id(fd, uid, ps);

	CHECK(id >= 0, "create: %d", id);
	CHECK(resolve(fd, (uint32_t)id, server_ip, port) > 0, "resolve");
	expect_event(fd, EV_ADDR_RESOLVED, (uint32_t)id, &e, "addr");
	CHECK(e.uid == uid && !e.status, "addr event uid/status");
	CHECK(route(fd, (uint32_t)id) > 0, "route");
	expect_event(fd, EV_ROUTE_RESOLVED, (uint32_t)id, &e, "route");
	return id;
}

/* An AF_IB address: gid (NULL: any), P_Key, service id and mask. */
void sib(struct sib *s, const uint8_t *gid, uint16_t pkey, uint64_t sid,
	 uint64_t mask)
{
	memset(s, 0, sizeof(*s));
	s->family = AF_IB_FAMILY;
	s->pkey = htobe16(pkey);
	if (gid)
		memcpy(s->gid, gid, 16);
	s->sid = htobe64(sid);
	s->sid_mask = htobe64(mask);
}

long bind_ib(int fd, uint32_t id, const struct sib *s)
{
	struct rdma_ucm_bind c = {.id = id, .addr_size = sizeof(*s)};

	memcpy(&c.addr, s, sizeof(*s));
	return cmd(fd, RDMA_USER_CM_CMD_BIND, &c, sizeof(c), 0);
}

long resolve_ib(int fd, uint32_t id, const struct sib *src,
		const struct sib *dst)
{
	struct rdma_ucm_resolve_addr c = {.id = id, .timeout_ms = 1000};

	if (src) {
		c.src_size = sizeof(*src);
		memcpy(&c.src_addr, src, sizeof(*src));
	}
	c.dst_size = sizeof(*dst);
	memcpy(&c.dst_addr, dst, sizeof(*dst));
	return cmd(fd, RDMA_USER_CM_CMD_RESOLVE_ADDR, &c, sizeof(c), 0);
}
