/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A few rtnetlink requests of the launcher's own (NETLINK_ROUTE): build a
 * message with nested attributes, send it, read the kernel's ack.
 */
#ifndef RDMA_SIM_RTNL_H
#define RDMA_SIM_RTNL_H

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
/* Send r on sock and wait for its ack. 0 or -errno. */
int rtnl_talk(int sock, struct rtnl_req *r);
/* A NETLINK_ROUTE socket in the caller's namespace, joined to groups. */
int rtnl_open(uint32_t groups);

#endif
