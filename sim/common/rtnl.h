/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rtnetlink (NETLINK_ROUTE) requests the sim makes itself: the launcher's
 * netdevs and addresses, the preload's route and neighbour lookups. Build
 * a message with nested attributes, send it, read the replies and the
 * kernel's ack.
 */
#ifndef RDMA_SIM_RTNL_H
#define RDMA_SIM_RTNL_H

#include <sys/socket.h>
#include <sys/types.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stddef.h>
#include <stdint.h>

struct rtnl_req {
	struct nlmsghdr *h;
	size_t cap;
	uint8_t buf[1024] __attribute__((aligned(NLMSG_ALIGNTO)));
};

/* Start a request of type with flags (NLM_F_REQUEST|NLM_F_ACK added) and a
 * family header of hdr_len bytes; returns the header to fill. */
void *rtnl_start(struct rtnl_req *r, uint16_t type, uint16_t flags,
		 size_t hdr_len);
/* Append attribute type with len bytes of data. */
void rtnl_put(struct rtnl_req *r, uint16_t type, const void *data,
	      size_t len);
/* Open a nested attribute; close it with rtnl_nest_end(). */
struct rtattr *rtnl_nest(struct rtnl_req *r, uint16_t type);
void rtnl_nest_end(struct rtnl_req *r, struct rtattr *nest);
/* How rtnl_talk() sends and receives: libc's by default; the preload
 * library points them at its own libc table. */
struct rtnl_io {
	ssize_t (*send)(int, const void *, size_t, int);
	ssize_t (*recvmsg)(int, struct msghdr *, int);
};
extern struct rtnl_io rtnl_io;
/* Send r on sock; each reply message goes to reply (may be NULL) until
 * the kernel's ack. 0 or -errno (the kernel's error). */
int rtnl_talk(int sock, struct rtnl_req *r,
	      void (*reply)(const struct nlmsghdr *h, void *arg), void *arg);
/* A NETLINK_ROUTE socket in the caller's namespace, joined to groups. */
int rtnl_open(uint32_t groups);

#endif
