/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * RDMA netlink inside the sim: the message builder every NLDEV command
 * shares (netlink.c) and the commands, by topic: devices, ports, chardevs
 * and the system (netlink_dev.c), resources (netlink_res.c), counters
 * (netlink_stat.c).
 *
 * A doit writes its one reply message into o and returns 0, or -errno
 * (sent as NLMSG_ERROR). A dumpit is called once per reply datagram with
 * the dump's cursor; it writes whole messages while o->len stays within
 * limit and returns the bytes it wrote (0: the dump is over, NLMSG_DONE
 * follows) or -errno (NLMSG_DONE carrying it), as the kernel's dumpit.
 */
#ifndef RDMA_SIM_NETLINK_H
#define RDMA_SIM_NETLINK_H

#include "uapi.h"

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#define NL_DUMP_MAX  32768 /* netlink_recvmsg caps max_recvmsg_len here */
#define NL_MSG_SLACK 4096  /* one message written past the limit, undone */

struct nl_out {
	uint8_t buf[NL_DUMP_MAX + NL_MSG_SLACK];
	size_t len;
	struct nlmsghdr *cur;
};

/* The attributes of a request, indexed by type (last one wins). */
#define NL_MAX_ATTR RDMA_NLDEV_ATTR_MAX
typedef const struct nlattr *nl_attrs[NL_MAX_ATTR];

/* Start a message of NLDEV command op echoing req's seq and pid. */
struct nlmsghdr *nl_msg_begin(struct nl_out *o, uint16_t type, uint16_t flags,
			      uint32_t seq, uint32_t pid);
void nl_msg_end(struct nl_out *o);
/* Drop everything written from mark on (nlmsg_cancel/nla_nest_cancel). */
void nl_cancel(struct nl_out *o, size_t mark);
void nl_put(struct nl_out *o, uint16_t type, const void *data, size_t len);
void nl_put_u8(struct nl_out *o, uint16_t type, uint8_t v);
void nl_put_u32(struct nl_out *o, uint16_t type, uint32_t v);
void nl_put_u64(struct nl_out *o, uint16_t type, uint64_t v);
void nl_put_str(struct nl_out *o, uint16_t type, const char *s);
/* A nested attribute: open it, put its members, close it. type carries
 * NLA_F_NESTED where the kernel sets it (nla_nest_start, not _noflag). */
size_t nl_nest_begin(struct nl_out *o, uint16_t type);
void nl_nest_end(struct nl_out *o, size_t at);

/* A u32 attribute of the request, or -1 if absent or short. */
int64_t nl_get_u32(const struct nlattr *const *tb, uint16_t type);
/* A string attribute into buf (cut to size - 1, as nla_strscpy), or -1
 * if absent. */
int nl_get_str(const struct nlattr *const *tb, uint16_t type, char *buf,
	       size_t size);
/* DEV_INDEX of the request names a device: its index, else -EINVAL. */
int nl_req_dev(const struct nlattr *const *tb);
/* The DEV_INDEX and DEV_NAME every reply opens with. */
void nl_put_dev(struct nl_out *o, unsigned int dev);
/* Ports of each simulated device: 1. */
static inline unsigned int nl_nports(void)
{
	return 1;
}

/*
 * Messages of op, one per index from d->next up to end, while whole ones
 * fit (ib_enum_all_devs and the port dump stop at EMSGSIZE); fill puts
 * the attributes of index i. Returns the bytes written.
 */
int nl_dump_each(struct sim_nl_dump *d, struct nl_out *o, size_t limit,
		 uint16_t op, unsigned int end,
		 void (*fill)(struct nl_out *o, const struct sim_nl_dump *d,
			      unsigned int i));
/* The same over the devices still registered (index = device). */
int nl_dump_devs(struct sim_nl_dump *d, struct nl_out *o, size_t limit,
		 uint16_t op,
		 void (*fill)(struct nl_out *o, const struct sim_nl_dump *d,
			      unsigned int dev));

struct nl_req {
	const struct nlmsghdr *h;
	nl_attrs tb;
};

/* The one reply of a doit about the request's device (DEV_INDEX, else
 * EINVAL): a message of op that fill fills for it (d is NULL). */
int nl_dev_doit(struct nl_out *o, const struct nl_req *r, uint16_t op,
		void (*fill)(struct nl_out *o, const struct sim_nl_dump *d,
			     unsigned int dev));

/* devices, ports, char devices, the system (netlink_dev.c) */
int nl_get_doit(struct nl_out *o, const struct nl_req *r);
int nl_get_dumpit(struct sim_nl_dump *d, struct nl_out *o, size_t limit);
int nl_port_get_doit(struct nl_out *o, const struct nl_req *r);
int nl_port_get_dumpit(struct sim_nl_dump *d, struct nl_out *o, size_t limit);
int nl_get_chardev(struct nl_out *o, const struct nl_req *r);
int nl_sys_get(struct nl_out *o, const struct nl_req *r);
/* rdma link add / delete (netlink_link.c) */
int nl_newlink(struct nl_out *o, const struct nl_req *r);
int nl_dellink(struct nl_out *o, const struct nl_req *r);
/* resources (netlink_res.c) */
int nl_res_get_doit(struct nl_out *o, const struct nl_req *r);
int nl_res_get_dumpit(struct sim_nl_dump *d, struct nl_out *o, size_t limit);
int nl_res_obj_dumpit(struct sim_nl_dump *d, struct nl_out *o, size_t limit);
/* counters (netlink_stat.c) */
int nl_stat_get_doit(struct nl_out *o, const struct nl_req *r);
int nl_stat_get_dumpit(struct sim_nl_dump *d, struct nl_out *o, size_t limit);

/*
 * The netdev bound to a port: 1 with its name and ifindex, 0 if none. The
 * sim has no netdevs of its own (a weak definition says so); the network
 * namespace work gives the strong one once ports have real interfaces.
 */
int sim_port_netdev(unsigned int dev, unsigned int port, char *name, size_t len,
		    uint32_t *ifindex);

/* Message type of an NLDEV reply. */
static inline uint16_t nl_type(uint16_t op)
{
	return RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, op);
}

#endif
