/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Raw ucma write()s shared by the RDMA CM tests (ucma_util.c). */
#ifndef RDMA_TEST_UCMA_UTIL_H
#define RDMA_TEST_UCMA_UTIL_H

#include <rdma/rdma_user_cm.h>
#include <stdint.h>
#include <sys/socket.h>

#define EV_ADDR_RESOLVED    0
#define EV_ADDR_ERROR	    1
#define EV_ROUTE_RESOLVED   2
#define EV_CONNECT_REQUEST  4
#define EV_CONNECT_RESPONSE 5
#define EV_REJECTED	    8
#define EV_ESTABLISHED	    9
#define EV_DISCONNECTED	    10
#define EV_MULTICAST_JOIN   12
#define EV_TIMEWAIT_EXIT    15

#define AF_IB_FAMILY 27
/* AF_IB service ids of the IP port spaces, and their mask */
#define PS_TCP_SID 0x0000000001060000ull
#define PS_UDP_SID 0x0000000001110000ull
#define PS_MASK	   0xffffffffffff0000ull

/* librdmacm's struct sockaddr_ib (48 bytes). */
struct sib {
	uint16_t family;
	uint16_t pkey; /* BE */
	uint32_t flowinfo;
	uint8_t gid[16];
	uint64_t sid, sid_mask; /* BE */
	uint64_t scope_id;
};

/* the address client() resolves */
extern const char *server_ip;

/* /dev/infiniband/rdma_cm opened (an error printed if not), or -1. */
int ucma_open(void);
/* The exit status of a test with `failures` failed CHECKs of its own and
 * those of these helpers, reported on stderr/stdout as `what`. */
int ucma_report(int failures, const char *what);
long cmd(int fd, uint32_t op, const void *body, uint16_t in, uint16_t out);
int create_id(int fd, uint64_t uid, uint16_t ps);
long destroy_id(int fd, uint32_t id, uint32_t *reported);
void ip4(struct sockaddr_storage *ss, const char *ip, uint16_t port);
long bind_ip(int fd, uint32_t id, const char *ip, uint16_t port);
long listen_id(int fd, uint32_t id, uint32_t backlog);
long resolve(int fd, uint32_t id, const char *ip, uint16_t port);
long route(int fd, uint32_t id);
long get_event(int fd, struct rdma_ucm_event_resp *e, int ms);
long now_ms(void);
void expect_event(int fd, uint32_t event, uint32_t id,
		  struct rdma_ucm_event_resp *e, const char *what);
long conn(int fd, uint32_t op, uint32_t id, uint64_t uid, uint32_t qpn,
	  const char *pdata, uint8_t valid);
long qp_attr(int fd, uint32_t id, uint32_t state, struct ib_uverbs_qp_attr *q);
long simple(int fd, uint32_t op, uint32_t id);
int client(int fd, uint64_t uid, uint16_t ps, uint16_t port);

/* An AF_IB address: gid (NULL: any), P_Key, service id and mask. */
void sib(struct sib *s, const uint8_t *gid, uint16_t pkey, uint64_t sid,
	 uint64_t mask);
long bind_ib(int fd, uint32_t id, const struct sib *s);
/* RESOLVE_ADDR with AF_IB addresses (src NULL: none given). */
long resolve_ib(int fd, uint32_t id, const struct sib *src,
		const struct sib *dst);

#endif
