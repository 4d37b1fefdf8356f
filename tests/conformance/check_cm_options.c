// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* RDMA CM SET_OPTION: option sizes, levels and names, and which options an
 * id may still change in each state (idle, bound, listening, resolved). */
#include <errno.h>

#include "cm.h"
#include "conf.h"

#define PORT_OPT 20110

static int set_int(int fd, uint32_t id, uint32_t name, int val)
{
	return cm_set_opt(fd, id, CM_OPT_ID, name, &val, sizeof(val));
}

static int set_u8(int fd, uint32_t id, uint32_t name, uint8_t val)
{
	return cm_set_opt(fd, id, CM_OPT_ID, name, &val, sizeof(val));
}

static void check_opt_idle(int fd)
{
	uint8_t path[71] = {0};
	uint32_t id, ud;

	cm_create(fd, RDMA_PS_TCP, 0x46, &id);
	cm_create(fd, RDMA_PS_UDP, 0x47, &ud);
	conf_expect("opt.tos", 0, set_u8(fd, id, CM_OPT_ID_TOS, 32));
	conf_expect("opt.tos.len_4", EINVAL,
		    set_int(fd, id, CM_OPT_ID_TOS, 32));
	conf_expect("opt.reuseaddr.idle", 0,
		    set_int(fd, id, CM_OPT_ID_REUSEADDR, 1));
	conf_expect("opt.reuseaddr.len_1", EINVAL,
		    set_u8(fd, id, CM_OPT_ID_REUSEADDR, 1));
	conf_expect("opt.afonly.idle", 0, set_int(fd, id, CM_OPT_ID_AFONLY, 1));
	conf_expect("opt.ack_timeout.tcp", 0,
		    set_u8(fd, id, CM_OPT_ID_ACK_TIMEOUT, 14));
	conf_expect("opt.ack_timeout.udp", EINVAL,
		    set_u8(fd, ud, CM_OPT_ID_ACK_TIMEOUT, 14));
	conf_expect("opt.level_99", ENOSYS, cm_set_opt(fd, id, 99, 0, path, 4));
	conf_expect("opt.name_99", ENOSYS,
		    cm_set_opt(fd, id, CM_OPT_ID, 99, path, 4));
	conf_expect("opt.ib_path.len_71", EINVAL,
		    cm_set_opt(fd, id, CM_OPT_IB, CM_OPT_IB_PATH, path,
			       sizeof(path)));
	conf_expect("opt.ib_path.idle", EINVAL,
		    cm_set_opt(fd, id, CM_OPT_IB, CM_OPT_IB_PATH, path, 0));
	conf_expect("opt.afonly.bound", 0,
		    cm_bind(fd, id, cm_addr, PORT_OPT)
			    ?: set_int(fd, id, CM_OPT_ID_AFONLY, 0));
	conf_expect("opt.reuseaddr.listening", EINVAL,
		    cm_listen(fd, id, 1)
			    ?: set_int(fd, id, CM_OPT_ID_REUSEADDR, 1));
	conf_expect("opt.reuseaddr.off_listening", EINVAL,
		    set_int(fd, id, CM_OPT_ID_REUSEADDR, 0));
	cm_destroy(fd, id, NULL);
	cm_destroy(fd, ud, NULL);
}

static void check_opt_resolved(int fd)
{
	uint32_t id;

	if (!cm_client("opt.client", fd, RDMA_PS_TCP, 0x48, CM_PORT_NONE, &id))
		return;
	conf_expect("opt.afonly.route_resolved", EINVAL,
		    set_int(fd, id, CM_OPT_ID_AFONLY, 1));
	conf_expect("opt.reuseaddr.route_resolved", 0,
		    set_int(fd, id, CM_OPT_ID_REUSEADDR, 1));
	conf_expect("opt.tos.route_resolved", 0,
		    set_u8(fd, id, CM_OPT_ID_TOS, 0));
	cm_destroy(fd, id, NULL);
}

void check_cm_options(int fd)
{
	conf_print_header("RDMA CM options (SET_OPTION)");
	check_opt_idle(fd);
	check_opt_resolved(fd);
}
