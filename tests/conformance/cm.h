/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma-cm-conformance: the RDMA CM device (/dev/infiniband/rdma_cm) asked
 * through raw write()s of <rdma/rdma_user_cm.h>, no librdmacm in between.
 * Same table format as rdma-conformance (report.c). It runs once rxe0's
 * netdev holds cm_addr (the lane adds it; rdma-sim gets it with --addr),
 * and every connection is a loopback one through rxe0's QP1.
 */
#ifndef CONF_CM_H
#define CONF_CM_H

#include <stdbool.h>
#include <stdint.h>
#include <rdma/rdma_user_cm.h>
#include <sys/socket.h>

#define CM_DEV "/dev/infiniband/rdma_cm"
/* The address rxe0's netdev holds, the program's argument (the lane's
 * LANE_ADDR, tests/vm/run-lane.sh), and one next to it that is not this
 * host's (cm_main.c). */
extern char cm_addr[], cm_addr_other[];
/* A port nothing listens on. */
#define CM_PORT_NONE 20999
/* How long an expected event may take (TCG is slow, the host loaded). */
#define CM_WAIT_MS 10000
/* How long to watch for an event that must not come. */
#define CM_QUIET_MS 300

/* Event numbers (the kernel's enum rdma_cm_event_type). */
enum {
	CM_EV_ADDR_RESOLVED,
	CM_EV_ADDR_ERROR,
	CM_EV_ROUTE_RESOLVED,
	CM_EV_ROUTE_ERROR,
	CM_EV_CONNECT_REQUEST,
	CM_EV_CONNECT_RESPONSE,
	CM_EV_CONNECT_ERROR,
	CM_EV_UNREACHABLE,
	CM_EV_REJECTED,
	CM_EV_ESTABLISHED,
	CM_EV_DISCONNECTED,
	CM_EV_DEVICE_REMOVAL,
	CM_EV_MULTICAST_JOIN,
	CM_EV_MULTICAST_ERROR,
	CM_EV_ADDR_CHANGE,
	CM_EV_TIMEWAIT_EXIT,
	CM_EV_NONE = -1, /* no event within the wait */
};

/* SET_OPTION levels and names (the kernel's RDMA_OPTION_*). */
enum {
	CM_OPT_ID = 0,
	CM_OPT_IB = 1,
	CM_OPT_ID_TOS = 0,
	CM_OPT_ID_REUSEADDR = 1,
	CM_OPT_ID_AFONLY = 2,
	CM_OPT_ID_ACK_TIMEOUT = 3,
	CM_OPT_IB_PATH = 1,
};

/* ---- cm_raw.c: one write() per command ---- */

/* Header + body to fd; 0 or the errno. */
int cm_cmd(int fd, uint32_t op, const void *body, uint16_t in, uint16_t out);
/* Open the CM device; -1 with errno on failure. */
int cm_open(void);
/* CREATE_ID in port space ps with user id uid; 0 or the errno. */
int cm_create(int fd, uint16_t ps, uint64_t uid, uint32_t *id);
/* DESTROY_ID; events_reported in *reported when not NULL. */
int cm_destroy(int fd, uint32_t id, uint32_t *reported);
/* An AF_INET address, ip in dotted form. */
void cm_sin(struct sockaddr_storage *ss, const char *ip, uint16_t port);
/* BIND of AF_INET ip:port. */
int cm_bind(int fd, uint32_t id, const char *ip, uint16_t port);
/* RESOLVE_ADDR to ip:port from no given source. */
int cm_resolve(int fd, uint32_t id, const char *ip, uint16_t port);
int cm_route(int fd, uint32_t id, uint32_t timeout_ms);
int cm_listen(int fd, uint32_t id, uint32_t backlog);
int cm_set_opt(int fd, uint32_t id, uint32_t level, uint32_t name,
	       const void *val, uint32_t len);
/* A valid RC/UD connection parameter block with plen bytes of cm_pattern
 * (seed) as private data and the given QP number. */
void cm_param(struct rdma_ucm_conn_param *p, uint32_t qpn, uint8_t plen,
	      uint8_t seed);
int cm_connect(int fd, uint32_t id, const struct rdma_ucm_conn_param *p);
/* ACCEPT; p NULL sends no parameters (the active side's RTU). */
int cm_accept(int fd, uint32_t id, uint64_t uid,
	      const struct rdma_ucm_conn_param *p);
int cm_reject(int fd, uint32_t id, uint8_t reason, uint8_t plen, uint8_t seed);
int cm_disconnect(int fd, uint32_t id);
/* The next event within ms: its number, or CM_EV_NONE; *e filled. */
int cm_next_event(int fd, int ms, struct rdma_ucm_event_resp *e);
/* Byte i of private data pattern seed. */
uint8_t cm_pattern(uint8_t seed, unsigned int i);
/* Whether the first n bytes of pd are cm_pattern(seed). */
bool cm_pattern_ok(const uint8_t *pd, unsigned int n, uint8_t seed);
/* "CONNECT_REQUEST", ..., "none" for CM_EV_NONE. */
const char *cm_event_name(int ev);

/* ---- rows built on the above (cm_raw.c) ---- */

/* Row NAME: the next event of fd (within CM_WAIT_MS) is want. */
bool cm_expect_event(const char *name, int fd, int want,
		     struct rdma_ucm_event_resp *e);
/* Rows PREFIX.{resolve_addr,addr_event,resolve_route,route_event}: id
 * gets a route to cm_addr:port. */
bool cm_resolve_both(const char *prefix, int fd, uint32_t id, uint16_t port);
/* Row PREFIX.create, then cm_resolve_both for a new id of fd in ps. */
bool cm_client(const char *prefix, int fd, uint16_t ps, uint64_t uid,
	       uint16_t port, uint32_t *id);

/* ---- check groups ---- */
void check_cm_frame(void);
/* the two below on one file of main's */
void check_cm_bind(int fd);
void check_cm_options(int fd);
void check_cm_route(int fd);
void check_cm_rc(void);
void check_cm_ud(void);

#endif /* CONF_CM_H */
