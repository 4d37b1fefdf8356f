// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The RDMA CM device's framing and id table: short writes, commands past
 * the table, short responses, ids of another file, and the commands that
 * need a device refused on an id that has none yet.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "cm.h"
#include "conf.h"

/* A command on an idle (unbound) id; the id and, where the command has
 * them, a response pointer and conn_param.valid are filled in. */
struct idle_cmd {
	const char *name;
	uint32_t op;
	uint16_t in, out;
	uint16_t id_off;
	int16_t resp_off;  /* -1: none */
	int16_t valid_off; /* -1: none */
	uint32_t timeout_ms;
};

static const struct idle_cmd idle_cmds[] = {
	{"frame.idle.resolve_route", RDMA_USER_CM_CMD_RESOLVE_ROUTE,
	 sizeof(struct rdma_ucm_resolve_route), 0,
	 offsetof(struct rdma_ucm_resolve_route, id), -1, -1, 2000},
	{"frame.idle.connect", RDMA_USER_CM_CMD_CONNECT,
	 sizeof(struct rdma_ucm_connect), 0,
	 offsetof(struct rdma_ucm_connect, id), -1,
	 offsetof(struct rdma_ucm_connect, conn_param.valid), 0},
	{"frame.idle.accept", RDMA_USER_CM_CMD_ACCEPT,
	 sizeof(struct rdma_ucm_accept), 0,
	 offsetof(struct rdma_ucm_accept, id), -1,
	 offsetof(struct rdma_ucm_accept, conn_param.valid), 0},
	{"frame.idle.reject", RDMA_USER_CM_CMD_REJECT,
	 sizeof(struct rdma_ucm_reject), 0,
	 offsetof(struct rdma_ucm_reject, id), -1, -1, 0},
	{"frame.idle.disconnect", RDMA_USER_CM_CMD_DISCONNECT,
	 sizeof(struct rdma_ucm_disconnect), 0,
	 offsetof(struct rdma_ucm_disconnect, id), -1, -1, 0},
	{"frame.idle.init_qp_attr", RDMA_USER_CM_CMD_INIT_QP_ATTR,
	 sizeof(struct rdma_ucm_init_qp_attr), sizeof(struct ib_uverbs_qp_attr),
	 offsetof(struct rdma_ucm_init_qp_attr, id),
	 offsetof(struct rdma_ucm_init_qp_attr, response), -1, 0},
	{"frame.idle.notify", RDMA_USER_CM_CMD_NOTIFY,
	 sizeof(struct rdma_ucm_notify), 0,
	 offsetof(struct rdma_ucm_notify, id), -1, -1, 0},
};

static int run_idle(int fd, uint32_t id, const struct idle_cmd *c)
{
	uint8_t body[512] = {0}, resp[512];
	uint64_t rp = (uintptr_t)resp;

	memcpy(body + c->id_off, &id, sizeof(id));
	if (c->resp_off >= 0)
		memcpy(body + c->resp_off, &rp, sizeof(rp));
	if (c->valid_off >= 0)
		body[c->valid_off] = 1;
	if (c->timeout_ms)
		memcpy(body + c->id_off + sizeof(id), &c->timeout_ms,
		       sizeof(c->timeout_ms));
	return cm_cmd(fd, c->op, body, c->in, c->out);
}

/* QUERY with an option and response room; 0 or the errno. */
static int query(int fd, uint32_t op, uint32_t id, uint32_t option,
		 uint16_t out)
{
	uint8_t resp[512];
	struct rdma_ucm_query q = {
		.response = (uintptr_t)resp, .id = id, .option = option};

	return cm_cmd(fd, op, &q, sizeof(q), out);
}

static int get_event(int fd, uint16_t out)
{
	struct rdma_ucm_event_resp e;
	struct rdma_ucm_get_event c = {.response = (uintptr_t)&e};

	return cm_cmd(fd, RDMA_USER_CM_CMD_GET_EVENT, &c, sizeof(c), out);
}

static int migrate(int fd, uint32_t id, int from)
{
	struct rdma_ucm_migrate_resp resp;
	struct rdma_ucm_migrate_id c = {
		.response = (uintptr_t)&resp, .id = id, .fd = (uint32_t)from};

	return cm_cmd(fd, RDMA_USER_CM_CMD_MIGRATE_ID, &c, sizeof(c),
		      sizeof(resp));
}

static void check_writes(int fd)
{
	struct rdma_ucm_cmd_hdr hdr = {.cmd = RDMA_USER_CM_CMD_CREATE_ID};
	uint8_t buf[64] = {0};
	struct rdma_ucm_create_id c = {.ps = RDMA_PS_TCP};

	conf_expect("frame.read", EINVAL,
		    read(fd, buf, sizeof(buf)) < 0 ? errno : 0);
	conf_expect("frame.write_4_bytes", EINVAL,
		    write(fd, &hdr, 4) < 0 ? errno : 0);
	/* A header that claims more input than the write carries. */
	hdr.in = sizeof(c) + 8;
	hdr.out = 4;
	memcpy(buf, &hdr, sizeof(hdr));
	memcpy(buf + sizeof(hdr), &c, sizeof(c));
	conf_expect("frame.in_past_write", EINVAL,
		    write(fd, buf, sizeof(hdr) + sizeof(c)) < 0 ? errno : 0);
	conf_expect("frame.cmd_past_table", EINVAL, cm_cmd(fd, 99, buf, 8, 0));
	conf_expect("frame.get_option", ENOSYS,
		    cm_cmd(fd, RDMA_USER_CM_CMD_GET_OPTION, buf, 8, 0));
	conf_expect("frame.create.out_0", ENOSPC,
		    cm_cmd(fd, RDMA_USER_CM_CMD_CREATE_ID, &c, sizeof(c), 0));
}

static void check_ids(int fd, int other)
{
	uint32_t a, b, c, mine;

	conf_expect("frame.create.ps_0x9999", EINVAL,
		    cm_create(fd, 0x9999, 1, &a));
	conf_expect("frame.create.ps_tcp", 0,
		    cm_create(fd, RDMA_PS_TCP, 1, &a));
	conf_expect("frame.create.ps_udp", 0,
		    cm_create(fd, RDMA_PS_UDP, 2, &b));
	/* The id table hands out the lowest free id. */
	cm_destroy(fd, a, NULL);
	conf_expect("frame.create.ps_ib", 0, cm_create(fd, RDMA_PS_IB, 3, &c));
	conf_expect_u("frame.create.lowest_free_id", a, c);
	conf_expect("frame.create.ps_ipoib", 0,
		    cm_create(fd, RDMA_PS_IPOIB, 4, &a));
	conf_expect("frame.destroy.unknown_id", ENOENT,
		    cm_destroy(fd, 1000, NULL));
	cm_create(other, RDMA_PS_TCP, 5, &mine);
	conf_expect("frame.destroy.other_files_id", EINVAL,
		    cm_destroy(fd, mine, NULL));
	{
		struct rdma_ucm_destroy_id d = {.id = mine};

		conf_expect("frame.destroy.out_0", ENOSPC,
			    cm_cmd(other, RDMA_USER_CM_CMD_DESTROY_ID, &d,
				   sizeof(d), 0));
	}
	conf_expect("frame.destroy.ok", 0, cm_destroy(other, mine, NULL));
	conf_expect("frame.destroy.twice", ENOENT,
		    cm_destroy(other, mine, NULL));
	cm_destroy(fd, a, NULL);
	cm_destroy(fd, b, NULL);
	cm_destroy(fd, c, NULL);
}

static void check_idle(int fd, int other)
{
	uint32_t id;
	unsigned int i;
	int devnull;

	cm_create(fd, RDMA_PS_TCP, 6, &id);
	for (i = 0; i < sizeof(idle_cmds) / sizeof(*idle_cmds); i++)
		conf_expect(idle_cmds[i].name, EINVAL,
			    run_idle(fd, id, &idle_cmds[i]));
	/* QUERY needs no device; a short response room is refused. */
	conf_expect("frame.idle.query_route", 0,
		    query(fd, RDMA_USER_CM_CMD_QUERY_ROUTE, id, 0,
			  sizeof(struct rdma_ucm_query_route_resp)));
	conf_expect("frame.query_route.out_100", ENOSPC,
		    query(fd, RDMA_USER_CM_CMD_QUERY_ROUTE, id, 0, 100));
	conf_expect("frame.query.addr", 0,
		    query(fd, RDMA_USER_CM_CMD_QUERY, id, 0,
			  sizeof(struct rdma_ucm_query_addr_resp)));
	conf_expect("frame.query.option_3", ENOSYS,
		    query(fd, RDMA_USER_CM_CMD_QUERY, id, 3, 256));
	conf_expect("frame.migrate.bad_fd", ENOENT, migrate(other, id, 999));
	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	conf_expect("frame.migrate.not_cm_fd", EINVAL,
		    migrate(other, id, devnull));
	close(devnull);
	conf_expect("frame.destroy.idle", 0, cm_destroy(fd, id, NULL));
}

static void check_events(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	int flags = fcntl(fd, F_GETFL);

	conf_expect_u("frame.poll.no_event", 0, poll(&p, 1, 0));
	conf_expect("frame.get_event.out_100", ENOSPC, get_event(fd, 100));
	fcntl(fd, F_SETFL, flags | O_NONBLOCK);
	conf_expect("frame.get_event.empty_nonblock", EAGAIN,
		    get_event(fd, sizeof(struct rdma_ucm_event_resp)));
	fcntl(fd, F_SETFL, flags);
}

void check_cm_frame(void)
{
	int fd = cm_open(), other = cm_open();

	conf_print_header("RDMA CM framing and ids (" CM_DEV ")");
	conf_expect("frame.open", 0, fd < 0 || other < 0 ? errno : 0);
	if (fd < 0 || other < 0)
		return;
	check_writes(fd);
	check_ids(fd, other);
	check_idle(fd, other);
	check_events(fd);
	close(fd);
	close(other);
}
