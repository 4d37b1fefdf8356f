/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The RDMA connection manager (the kernel's ucma + cma + ib_cm) as one
 * table shared by every process of the world, in <dir>/ucma behind the
 * world's shared lock: ids come from one global table as in the kernel,
 * event queues are per open file, and the CM messages (REQ, REP, RTU, REJ,
 * DREQ, DREP, SIDR) are applied straight to the peer id's entry under the
 * lock, queueing the peer's event. Each open file is a FIFO in the world
 * directory holding one byte per queued event, so poll/select/epoll on the
 * program's fd see it readable exactly while events wait, whichever
 * process queued them.
 */
#ifndef RDMA_SIM_UCMA_H
#define RDMA_SIM_UCMA_H

#include "netdev.h"

#include <netinet/in.h>
#include <rdma/rdma_user_cm.h>
#include <stdint.h>
#include <sys/socket.h>

/* misc device 10 with a minor of its own, as the kernel registers it */
#define UCMA_MAJOR 10
#define UCMA_MINOR 58

#define UCMA_MAX_IDS	1024
#define UCMA_MAX_FILES	256
#define UCMA_MAX_EVENTS 4096
#define UCMA_MAGIC	0x55434d41u /* "UCMA" */

/* Event numbers (librdmacm's enum rdma_cm_event_type, the kernel's). */
enum {
	RDMA_CM_EVENT_ADDR_RESOLVED,
	RDMA_CM_EVENT_ADDR_ERROR,
	RDMA_CM_EVENT_ROUTE_RESOLVED,
	RDMA_CM_EVENT_ROUTE_ERROR,
	RDMA_CM_EVENT_CONNECT_REQUEST,
	RDMA_CM_EVENT_CONNECT_RESPONSE,
	RDMA_CM_EVENT_CONNECT_ERROR,
	RDMA_CM_EVENT_UNREACHABLE,
	RDMA_CM_EVENT_REJECTED,
	RDMA_CM_EVENT_ESTABLISHED,
	RDMA_CM_EVENT_DISCONNECTED,
	RDMA_CM_EVENT_DEVICE_REMOVAL,
	RDMA_CM_EVENT_MULTICAST_JOIN,
	RDMA_CM_EVENT_MULTICAST_ERROR,
	RDMA_CM_EVENT_ADDR_CHANGE,
	RDMA_CM_EVENT_TIMEWAIT_EXIT,
};

/* The rdma_cm state of an id (the kernel's enum rdma_cm_state). */
enum ucma_state {
	UCMA_IDLE,
	UCMA_ADDR_QUERY,
	UCMA_ADDR_RESOLVED,
	UCMA_ROUTE_QUERY,
	UCMA_ROUTE_RESOLVED,
	UCMA_CONNECT,
	UCMA_DISCONNECT,
	UCMA_ADDR_BOUND,
	UCMA_LISTEN,
};

/* The IB CM state of the id's connection. */
enum ucma_cm {
	CM_NONE,
	CM_REQ_SENT,
	CM_REQ_RCVD,
	CM_REP_SENT,
	CM_REP_RCVD,
	CM_ESTABLISHED,
	CM_DREQ_SENT,
	CM_DREQ_RCVD,
	CM_TIMEWAIT,
	CM_SIDR_REQ_SENT,
	CM_SIDR_REQ_RCVD,
};

/* What an id's timer does when it expires. */
enum ucma_timer {
	TIMER_NONE,
	TIMER_ADDR,	/* address resolution: ADDR_ERROR -ETIMEDOUT */
	TIMER_REQ,	/* REQ/SIDR_REQ unanswered: send again, or give up */
	TIMER_REP,	/* REP without its RTU: send again, or give up */
	TIMER_TIMEWAIT, /* the CM leaves timewait: TIMEWAIT_EXIT */
};

#define IB_LIFE 18 /* the SA's subnet packet life time (OpenSM's 0x12) */

struct ucma_id {
	uint8_t used;
	uint8_t state; /* enum ucma_state */
	uint8_t cm;    /* enum ucma_cm */
	uint8_t qp_type;
	uint16_t ps;
	uint16_t space; /* port space its port is taken from (AF_IB: by SID) */
	uint8_t has_dev;
	uint8_t port;
	uint32_t dev;
	uint32_t gen; /* bumped at every reuse of the slot */
	int32_t file; /* owning file slot */
	uint64_t uid;
	struct sockaddr_storage src, dst;
	/* route */
	uint32_t sgid_index;
	uint8_t sgid[16], dgid[16];
	uint8_t mtu; /* IB enum */
	uint8_t hop_limit;
	uint16_t dlid;	    /* IB: the destination port's LID (0 on RoCE) */
	uint8_t route;	    /* route resolved (a path exists) */
	uint8_t bound;	    /* holds its port (an explicit or implicit bind) */
	uint8_t via_netdev; /* resolved over a RoCE netdev (not loopback) */
	uint8_t removed;    /* DEVICE_REMOVAL queued: the CM closed the id */
	uint8_t in_tree;    /* RoCE route resolved: hears neighbour updates */
	uint8_t dmac[6];    /* RoCE: the destination's MAC (dst_dev_addr) */
	/* options */
	uint8_t reuseaddr, afonly, tos, tos_set, ack_timeout;
	/* listener */
	uint32_t backlog, pending;
	int32_t listener; /* new passive id: its listener until retrieved */
	/* connection */
	int32_t peer;
	uint32_t peer_gen;
	uint32_t psn, peer_psn, qpn, peer_qpn, qkey;
	uint8_t resp_res, init_depth, retry, rnr_retry, srq, flow;
	uint8_t req_mtu; /* path MTU the REQ carried (passive side) */
	uint8_t pdata_len;
	uint8_t pdata[RDMA_MAX_PRIVATE_DATA]; /* REQ's, kept for retries */
	uint32_t events_reported;
	/* timer */
	uint8_t timer;
	uint8_t tries;
	uint8_t mra; /* the peer's MRA stretched the wait for an answer */
	uint64_t deadline_ns;
	int32_t addr_err; /* TIMER_ADDR: status of the ADDR_ERROR */
};

struct ucma_event {
	int32_t next;
	int32_t id;
	uint32_t id_gen;
	struct rdma_ucm_event_resp resp;
};

struct ucma_file {
	uint8_t used;
	int32_t pid;
	uint32_t gen;
	int32_t head, tail;
	uint32_t count;
	uint32_t stale; /* FIFO bytes of events dropped unread */
};

/* A multicast join (the kernel's second table: its own ids). */
struct ucma_mc {
	uint8_t used;
	int32_t id; /* the cm id that joined */
	uint64_t uid;
	uint8_t mgid[16];
	uint8_t join_state; /* IB: the JoinState bit asked of the SA */
	uint32_t events_reported;
};

#define UCMA_MAX_MCS 1024

struct ucma_world {
	uint32_t magic;
	int32_t free_ev;
	uint32_t file_gen;
	struct ucma_file files[UCMA_MAX_FILES];
	struct ucma_id ids[UCMA_MAX_IDS];
	struct ucma_event ev[UCMA_MAX_EVENTS];
	struct ucma_mc mc[UCMA_MAX_MCS];
	/* neighbour updates of each RoCE netdev already applied */
	uint32_t neigh_seen[SIM_MAX_NETDEVS];
};

/* Per open file, in the process (the devfile's priv). */
struct ucma_fpriv {
	int32_t slot;
	uint32_t gen;
	/* the sim's own O_NONBLOCK read end of the FIFO: tokens are read
	 * under the locks, where a blocking read would hang the world */
	int rfd;
};

/* librdmacm's AF_IB address (48 bytes). */
struct ucma_sib {
	uint16_t sib_family;
	uint16_t sib_pkey; /* BE */
	uint32_t sib_flowinfo;
	uint8_t sib_addr[16];
	uint64_t sib_sid; /* BE */
	uint64_t sib_sid_mask;
	uint64_t sib_scope_id;
};

#define UCMA_AF_IB    27
/* AF_IB service ids of the IP port spaces (rdma_cma.h's RDMA_IB_IP_PS_*) */
#define UCMA_IB_PS_MASK 0xffffffffffff0000ull
#define UCMA_IB_PS_TCP	0x0000000001060000ull
#define UCMA_IB_PS_UDP	0x0000000001110000ull
#define UCMA_IB_PS_IB	0x00000000013f0000ull
#define UCMA_UDP_QKEY 0x01234567u

extern struct ucma_world *ucma_w;

/* ---- ucma_id.c ---- */
/* The RoCE path's packet life time: 18 on 6.1, 16 since 6.12. */
uint8_t ucma_roce_life(void);

/* ---- ucma_file.c: world, files, event queues ---- */
/* Map (creating on first use) <dir>/ucma. 0 or -errno. */
int ucma_world_map(void);
void ucma_lock(void);
void ucma_unlock(void);
/* Queue an event of id i (caller fills resp except uid/id); needs lock.
 * Dropped for an id whose uid is 0 unless it is a CONNECT_REQUEST. */
void ucma_event(int i, uint32_t event, int32_t status,
		const struct rdma_ucm_event_resp *param);
/* Queue on file f an event with exactly resp; id i is whose it is. */
void ucma_event_raw(int f, int i, const struct rdma_ucm_event_resp *resp);
/* Drop the undelivered events of id i (its destroy), or only those of
 * its multicast join mc (mc >= 0: the leave). */
void ucma_events_purge(int i, int mc);
/* Move the undelivered events of id i to file `to`'s tail (MIGRATE_ID). */
void ucma_events_move(int i, int to);
/* Read from fd (file f's FIFO, non-blocking) the bytes of events dropped
 * unread; a missing byte is left for later. */
void ucma_drain_stale(int f, int fd);
/* The FIFO of file slot f. */
void ucma_fifo_path(char *buf, size_t len, int f, uint32_t gen);
struct sim_devfile;
/* Whether df is an open /dev/infiniband/rdma_cm (not another node). */
int ucma_is_file(const struct sim_devfile *df);
/* Files whose process is gone: close them (destroy their ids). Lock. */
void ucma_reap(void);
uint64_t ucma_now_ns(void);

/* ---- ucma_id.c: ids, addresses, routes, options, queries ---- */
int ucma_id_alloc(void);
/* Look up id for file f: index or -ENOENT, -EINVAL (another file's),
 * -ENXIO (closed by the CM on DEVICE_REMOVAL). Needs lock. */
int ucma_id_find(int f, uint32_t id);
struct ucma_id *ucma_id_live(int i, uint32_t gen);
int ucma_is_ip_ps(uint16_t ps);
socklen_t ucma_sa_len(const struct sockaddr_storage *ss);
uint16_t ucma_sa_port(const struct sockaddr_storage *ss);
/* "a.b.c.d:port" or "[v6]:port", for the trace */
const char *ucma_sa_str(const struct sockaddr_storage *ss, char *buf,
			size_t len);
int ucma_cmd_id(int f, uint32_t cmd, const uint8_t *in, uint16_t out);
/* The listener a REQ from active id a reaches (-1: none), and the device
 * and GID index that hold a's destination. Needs lock. */
int ucma_listener_for(const struct ucma_id *a, uint32_t *dev, uint32_t *gi);
void ucma_id_set_dev(struct ucma_id *id, uint32_t dev, uint32_t gid_index);
/* Is id's port InfiniBand (its addresses on an IPoIB netdev)? */
int ucma_id_ib(const struct ucma_id *id);
/* The LID of device dev's IB port (the fabric routes by it). */
uint16_t ucma_lid(uint32_t dev);
/* The path's packet life time: the SA's on IB; on RoCE 16, or the
 * ACK_TIMEOUT option less one. */
uint8_t ucma_path_life(const struct ucma_id *id);
/* The service id of id (ps << 16 | port), host order. */
uint64_t ucma_service_id(const struct ucma_id *id);

/* ---- ucma_conn.c: the connection state machine and CM messages ---- */
int ucma_cmd_conn(int f, uint32_t cmd, const uint8_t *in, uint16_t out);
/* Tear down id i as the kernel's destroy does (REJ/DREQ/DREP to the peer,
 * pending requests of a listener). Needs lock. */
void ucma_id_destroy(int i);
/* Run expired timers of file f's ids; nanoseconds to the next, or 0. */
uint64_t ucma_timers(int f);
/* The CONNECT_REQUEST of new id n was retrieved (or n is going): its
 * listener's backlog credit returns. */
void ucma_credit_return(int n);

/* ---- ucma_neigh.c: neighbour updates (cma_netevent_callback) ---- */
/* Apply the RoCE netdevs' new neighbour updates: UNREACHABLE to the ids
 * whose neighbour's MAC is no longer theirs. Needs lock. */
void ucma_neigh_updates(void);
/* Start reading the logs at their present end (a new world). Lock. */
void ucma_neigh_start(void);

/* ---- ucma_mcast.c: multicast joins ---- */
int ucma_cmd_mcast(int f, uint32_t cmd, const uint8_t *in, uint16_t out);
/* Leave every group id i joined (its destroy). Needs lock. */
void ucma_mc_drop(int i);
/* Event r of id i was delivered: count it where the kernel does. */
void ucma_reported(const struct rdma_ucm_event_resp *r, int i);

#endif
