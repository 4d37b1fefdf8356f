// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* RDMA CM commands as single write()s, and the rows every group shares. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cm.h"
#include "conf.h"

int cm_cmd(int fd, uint32_t op, const void *body, uint16_t in, uint16_t out)
{
	struct rdma_ucm_cmd_hdr hdr = {.cmd = op, .in = in, .out = out};
	uint8_t buf[sizeof(hdr) + 512];

	if (in > sizeof(buf) - sizeof(hdr))
		return E2BIG;
	memcpy(buf, &hdr, sizeof(hdr));
	memcpy(buf + sizeof(hdr), body, in);
	return write(fd, buf, sizeof(hdr) + in) < 0 ? errno : 0;
}

int cm_open(void)
{
	return open(CM_DEV, O_RDWR | O_CLOEXEC);
}

int cm_create(int fd, uint16_t ps, uint64_t uid, uint32_t *id)
{
	struct rdma_ucm_create_id_resp resp = {.id = ~0u};
	struct rdma_ucm_create_id c = {
		.uid = uid, .response = (uintptr_t)&resp, .ps = ps};
	int err;

	err = cm_cmd(fd, RDMA_USER_CM_CMD_CREATE_ID, &c, sizeof(c),
		     sizeof(resp));
	*id = resp.id;
	return err;
}

int cm_destroy(int fd, uint32_t id, uint32_t *reported)
{
	struct rdma_ucm_destroy_id_resp resp = {};
	struct rdma_ucm_destroy_id c = {.response = (uintptr_t)&resp, .id = id};
	int err;

	err = cm_cmd(fd, RDMA_USER_CM_CMD_DESTROY_ID, &c, sizeof(c),
		     sizeof(resp));
	if (reported)
		*reported = resp.events_reported;
	return err;
}

void cm_sin(struct sockaddr_storage *ss, const char *ip, uint16_t port)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	inet_pton(AF_INET, ip, &sin->sin_addr);
}

int cm_bind(int fd, uint32_t id, const char *ip, uint16_t port)
{
	struct rdma_ucm_bind c = {.id = id,
				  .addr_size = sizeof(struct sockaddr_in)};

	cm_sin((struct sockaddr_storage *)&c.addr, ip, port);
	return cm_cmd(fd, RDMA_USER_CM_CMD_BIND, &c, sizeof(c), 0);
}

int cm_resolve(int fd, uint32_t id, const char *ip, uint16_t port)
{
	struct rdma_ucm_resolve_addr c = {
		.id = id,
		.timeout_ms = 2000,
		.dst_size = sizeof(struct sockaddr_in),
	};

	cm_sin((struct sockaddr_storage *)&c.dst_addr, ip, port);
	return cm_cmd(fd, RDMA_USER_CM_CMD_RESOLVE_ADDR, &c, sizeof(c), 0);
}

int cm_route(int fd, uint32_t id, uint32_t timeout_ms)
{
	struct rdma_ucm_resolve_route c = {.id = id, .timeout_ms = timeout_ms};

	return cm_cmd(fd, RDMA_USER_CM_CMD_RESOLVE_ROUTE, &c, sizeof(c), 0);
}

int cm_listen(int fd, uint32_t id, uint32_t backlog)
{
	struct rdma_ucm_listen c = {.id = id, .backlog = backlog};

	return cm_cmd(fd, RDMA_USER_CM_CMD_LISTEN, &c, sizeof(c), 0);
}

int cm_set_opt(int fd, uint32_t id, uint32_t level, uint32_t name,
	       const void *val, uint32_t len)
{
	struct rdma_ucm_set_option c = {
		.optval = (uintptr_t)val,
		.id = id,
		.level = level,
		.optname = name,
		.optlen = len,
	};

	return cm_cmd(fd, RDMA_USER_CM_CMD_SET_OPTION, &c, sizeof(c), 0);
}

uint8_t cm_pattern(uint8_t seed, unsigned int i)
{
	return (uint8_t)(seed + i * 7);
}

bool cm_pattern_ok(const uint8_t *pd, unsigned int n, uint8_t seed)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (pd[i] != cm_pattern(seed, i))
			return false;
	return true;
}

void cm_param(struct rdma_ucm_conn_param *p, uint32_t qpn, uint8_t plen,
	      uint8_t seed)
{
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->qp_num = qpn;
	for (i = 0; i < plen; i++)
		p->private_data[i] = cm_pattern(seed, i);
	p->private_data_len = plen;
	/* Unequal on purpose: the receiver sees them swapped. */
	p->responder_resources = 3;
	p->initiator_depth = 2;
	p->retry_count = 7;
	p->rnr_retry_count = 7;
	p->valid = 1;
}

int cm_connect(int fd, uint32_t id, const struct rdma_ucm_conn_param *p)
{
	struct rdma_ucm_connect c = {.conn_param = *p, .id = id};

	return cm_cmd(fd, RDMA_USER_CM_CMD_CONNECT, &c, sizeof(c), 0);
}

int cm_accept(int fd, uint32_t id, uint64_t uid,
	      const struct rdma_ucm_conn_param *p)
{
	struct rdma_ucm_accept c = {.uid = uid, .id = id};

	if (p)
		c.conn_param = *p;
	return cm_cmd(fd, RDMA_USER_CM_CMD_ACCEPT, &c, sizeof(c), 0);
}

int cm_reject(int fd, uint32_t id, uint8_t reason, uint8_t plen, uint8_t seed)
{
	struct rdma_ucm_reject c = {
		.id = id, .private_data_len = plen, .reason = reason};
	unsigned int i;

	for (i = 0; i < plen; i++)
		c.private_data[i] = cm_pattern(seed, i);
	return cm_cmd(fd, RDMA_USER_CM_CMD_REJECT, &c, sizeof(c), 0);
}

int cm_disconnect(int fd, uint32_t id)
{
	struct rdma_ucm_disconnect c = {.id = id};

	return cm_cmd(fd, RDMA_USER_CM_CMD_DISCONNECT, &c, sizeof(c), 0);
}

int cm_next_event(int fd, int ms, struct rdma_ucm_event_resp *e)
{
	struct rdma_ucm_get_event c = {.response = (uintptr_t)e};
	struct pollfd p = {.fd = fd, .events = POLLIN};

	memset(e, 0, sizeof(*e));
	if (poll(&p, 1, ms) != 1)
		return CM_EV_NONE;
	if (cm_cmd(fd, RDMA_USER_CM_CMD_GET_EVENT, &c, sizeof(c), sizeof(*e)))
		return CM_EV_NONE;
	return (int)e->event;
}

static const char *const event_names[] = {
	[CM_EV_ADDR_RESOLVED] = "ADDR_RESOLVED",
	[CM_EV_ADDR_ERROR] = "ADDR_ERROR",
	[CM_EV_ROUTE_RESOLVED] = "ROUTE_RESOLVED",
	[CM_EV_ROUTE_ERROR] = "ROUTE_ERROR",
	[CM_EV_CONNECT_REQUEST] = "CONNECT_REQUEST",
	[CM_EV_CONNECT_RESPONSE] = "CONNECT_RESPONSE",
	[CM_EV_CONNECT_ERROR] = "CONNECT_ERROR",
	[CM_EV_UNREACHABLE] = "UNREACHABLE",
	[CM_EV_REJECTED] = "REJECTED",
	[CM_EV_ESTABLISHED] = "ESTABLISHED",
	[CM_EV_DISCONNECTED] = "DISCONNECTED",
	[CM_EV_DEVICE_REMOVAL] = "DEVICE_REMOVAL",
	[CM_EV_MULTICAST_JOIN] = "MULTICAST_JOIN",
	[CM_EV_MULTICAST_ERROR] = "MULTICAST_ERROR",
	[CM_EV_ADDR_CHANGE] = "ADDR_CHANGE",
	[CM_EV_TIMEWAIT_EXIT] = "TIMEWAIT_EXIT",
};

const char *cm_event_name(int ev)
{
	static char other[16];

	if (ev == CM_EV_NONE)
		return "none";
	if (ev >= 0 && ev < (int)(sizeof(event_names) / sizeof(*event_names)))
		return event_names[ev];
	snprintf(other, sizeof(other), "event%d", ev);
	return other;
}

bool cm_expect_event(const char *name, int fd, int want,
		     struct rdma_ucm_event_resp *e)
{
	int got = cm_next_event(
		fd, want == CM_EV_NONE ? CM_QUIET_MS : CM_WAIT_MS, e);
	char expected[24];

	/* cm_event_name's buffer serves one name at a time. */
	snprintf(expected, sizeof(expected), "%s", cm_event_name(want));
	conf_row("all", name, expected, cm_event_name(got));
	return got == want;
}

/* One row PREFIX.STEP comparing errnos, false when it failed. */
static bool step(const char *prefix, const char *what, int expected, int got)
{
	char name[64];

	snprintf(name, sizeof(name), "%s.%s", prefix, what);
	conf_expect(name, expected, got);
	return got == expected;
}

bool cm_resolve_both(const char *prefix, int fd, uint32_t id, uint16_t port)
{
	struct rdma_ucm_event_resp e;
	char name[64];

	if (!step(prefix, "resolve_addr", 0, cm_resolve(fd, id, cm_addr, port)))
		return false;
	snprintf(name, sizeof(name), "%s.addr_event", prefix);
	if (!cm_expect_event(name, fd, CM_EV_ADDR_RESOLVED, &e))
		return false;
	if (!step(prefix, "resolve_route", 0, cm_route(fd, id, 2000)))
		return false;
	snprintf(name, sizeof(name), "%s.route_event", prefix);
	return cm_expect_event(name, fd, CM_EV_ROUTE_RESOLVED, &e);
}

bool cm_client(const char *prefix, int fd, uint16_t ps, uint64_t uid,
	       uint16_t port, uint32_t *id)
{
	return step(prefix, "create", 0, cm_create(fd, ps, uid, id)) &&
	       cm_resolve_both(prefix, fd, *id, port);
}
