// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RDMA netlink (NETLINK_RDMA) for the simulated devices. The socket is one
 * end of an AF_UNIX datagram pair; a request sent on it is answered at
 * once by queueing the kernel's reply datagrams on the other end, so
 * recvmsg/poll on the user's end behave as on a real netlink socket.
 * Answers: NLDEV GET (dump), GET_CHARDEV, SYS_GET; others -> EOPNOTSUPP.
 *
 * A dump is sent as the kernel's netlink_dump() sends it: one datagram
 * when the request arrives and one more after each recvmsg that returned
 * data, each holding the whole messages that fit in max(NLMSG_GOODSIZE,
 * the largest recv buffer seen, capped at 32 KiB), then NLMSG_DONE alone
 * (the nldev dumpit returns the bytes it wrote, so DONE never shares).
 */
#include "uapi.h"
#include "ucma.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <string.h>
#include <sys/socket.h>

/* SKB_WITH_OVERHEAD(4096): the smallest dump skb of x86-64 kernels. */
#define NL_GOODSIZE  3776
#define NL_DUMP_MAX  32768 /* netlink_recvmsg caps max_recvmsg_len here */
#define NL_MSG_SLACK 512   /* one message written past the limit, undone */

struct nl_out {
	uint8_t buf[NL_DUMP_MAX + NL_MSG_SLACK];
	size_t len;
	struct nlmsghdr *cur;
};

static struct nlmsghdr *msg_begin(struct nl_out *o, uint16_t type,
				  uint16_t flags, const struct nlmsghdr *req)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(o->buf + o->len);

	memset(h, 0, sizeof(*h));
	h->nlmsg_len = NLMSG_HDRLEN;
	h->nlmsg_type = type;
	h->nlmsg_flags = flags;
	h->nlmsg_seq = req->nlmsg_seq;
	h->nlmsg_pid = req->nlmsg_pid;
	o->cur = h;
	return h;
}

static void msg_end(struct nl_out *o)
{
	o->len += NLMSG_ALIGN(o->cur->nlmsg_len);
}

static void put(struct nl_out *o, uint16_t type, const void *data, size_t len)
{
	struct nlattr *a =
		(struct nlattr *)((uint8_t *)o->cur + o->cur->nlmsg_len);

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	memcpy((uint8_t *)a + NLA_HDRLEN, data, len);
	memset((uint8_t *)a + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	o->cur->nlmsg_len += NLA_ALIGN(a->nla_len);
}

static void put_u8(struct nl_out *o, uint16_t t, uint8_t v)
{
	put(o, t, &v, sizeof(v));
}

static void put_u32(struct nl_out *o, uint16_t t, uint32_t v)
{
	put(o, t, &v, sizeof(v));
}

static void put_u64(struct nl_out *o, uint16_t t, uint64_t v)
{
	put(o, t, &v, sizeof(v));
}

static void put_str(struct nl_out *o, uint16_t t, const char *s)
{
	put(o, t, s, strlen(s) + 1);
}

/* NLMSG_ERROR: error 0 is an ACK. */
static void put_error(struct nl_out *o, const struct nlmsghdr *req, int err)
{
	struct nlmsgerr e = {.error = err, .msg = *req};
	struct nlmsghdr *h = msg_begin(o, NLMSG_ERROR, 0, req);

	memcpy((uint8_t *)h + NLMSG_HDRLEN, &e, sizeof(e));
	h->nlmsg_len += sizeof(e);
	msg_end(o);
}

static void dev_name(char *buf, size_t len, unsigned int dev)
{
	snprintf(buf, len, "%s%u", sim.model->ibdev_prefix, dev);
}

static void put_device(struct nl_out *o, const struct nlmsghdr *req,
		       unsigned int i)
{
	uint16_t type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET);
	char name[64];

	dev_name(name, sizeof(name), i);
	msg_begin(o, type, NLM_F_MULTI, req);
	put_u32(o, RDMA_NLDEV_ATTR_DEV_INDEX, i);
	put_str(o, RDMA_NLDEV_ATTR_DEV_NAME, name);
	put_u32(o, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	put_str(o, RDMA_NLDEV_ATTR_FW_VERSION, sim.model->fw_ver);
	put_u64(o, RDMA_NLDEV_ATTR_NODE_GUID, sim_guid(i));
	put_u64(o, RDMA_NLDEV_ATTR_SYS_IMAGE_GUID, sim_guid(i));
	put_u8(o, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, (uint8_t)sim.model->node_type);
	put_str(o, RDMA_NLDEV_ATTR_DEV_PROTOCOL,
		sim_port_is_eth(sim.sh, i) ? "roce" : "ib");
	msg_end(o);
}

/* One datagram of the running dump of nl. Called with sim_lock held. */
static void dump_part(struct sim_nlsock *nl, struct nl_out *o)
{
	struct nlmsghdr req = {.nlmsg_seq = nl->dump_req.seq,
			       .nlmsg_pid = nl->dump_req.pid};
	size_t limit = nl->max_recvmsg_len > NL_GOODSIZE ? nl->max_recvmsg_len
							 : NL_GOODSIZE;
	unsigned int first = nl->dump_next;
	size_t mark;

	while (nl->dump_next < sim.sh->cfg.ndev) {
		mark = o->len;
		put_device(o, &req, nl->dump_next);
		if (o->len > limit) {
			o->len = mark; /* nlmsg_cancel: it opens the next one */
			break;
		}
		nl->dump_next++;
	}
	nl->dump_parts++;
	if (nl->dump_next > first) {
		sim_trace("netlink NLDEV_GET dump part %u: devices %u..%u, "
			  "%zu bytes",
			  nl->dump_parts, first, nl->dump_next - 1, o->len);
		return;
	}
	msg_begin(o, NLMSG_DONE, NLM_F_MULTI, &req);
	memset((uint8_t *)o->cur + NLMSG_HDRLEN, 0, sizeof(int));
	o->cur->nlmsg_len += sizeof(int); /* payload: int 0 */
	msg_end(o);
	nl->dumping = 0;
	sim_trace("netlink NLDEV_GET dump part %u: NLMSG_DONE", nl->dump_parts);
}

static int nldev_dump_start(struct sim_nlsock *nl, struct nl_out *o,
			    const struct nlmsghdr *req)
{
	if (nl->dumping)
		return -EBUSY; /* netlink_dump_start: one dump per socket */
	nl->dumping = 1;
	nl->dump_next = 0;
	nl->dump_parts = 0;
	nl->dump_req.seq = req->nlmsg_seq;
	nl->dump_req.pid = req->nlmsg_pid;
	sim_trace("netlink NLDEV_GET dump -> %u device(s)", sim.sh->cfg.ndev);
	dump_part(nl, o);
	return 0;
}

/* The attrs of a request: index by type, last one wins. */
static void parse_attrs(const struct nlmsghdr *h, const struct nlattr **tb,
			unsigned int max)
{
	const uint8_t *p = (const uint8_t *)h + NLMSG_HDRLEN;
	const uint8_t *end = (const uint8_t *)h + h->nlmsg_len;

	memset(tb, 0, max * sizeof(*tb));
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const void *)p;

		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) < max)
			tb[a->nla_type & NLA_TYPE_MASK] = a;
		p += NLA_ALIGN(a->nla_len);
	}
}

/* huge_encode_dev: major in bits 8-19, minor low byte in 0-7 */
static uint64_t huge_dev(unsigned int major, unsigned int minor)
{
	return ((uint64_t)major << 8) | (minor & 0xff) |
	       ((uint64_t)(minor & ~0xffu) << 12);
}

/* The RDMA CM's misc device: a global chardev, no device index. */
static int get_chardev_ucma(struct nl_out *o, const struct nlmsghdr *req)
{
	msg_begin(o,
		  RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET_CHARDEV),
		  0, req);
	put_u64(o, RDMA_NLDEV_ATTR_CHARDEV, huge_dev(UCMA_MAJOR, UCMA_MINOR));
	put_u64(o, RDMA_NLDEV_ATTR_CHARDEV_ABI, RDMA_USER_CM_ABI_VERSION);
	put_str(o, RDMA_NLDEV_ATTR_CHARDEV_NAME, "rdma_cm");
	msg_end(o);
	sim_trace("netlink GET_CHARDEV rdma_cm -> %u:%u", UCMA_MAJOR,
		  UCMA_MINOR);
	return 0;
}

static int get_chardev(struct nl_out *o, const struct nlmsghdr *req)
{
	uint16_t type =
		RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET_CHARDEV);
	const struct nlattr *tb[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID + 1];
	unsigned int minor;
	uint32_t dev;
	char name[32];

	parse_attrs(req, tb, RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID + 1);
	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX] &&
	    tb[RDMA_NLDEV_ATTR_CHARDEV_TYPE] &&
	    !strncmp((const char *)tb[RDMA_NLDEV_ATTR_CHARDEV_TYPE] +
			     NLA_HDRLEN,
		     "rdma_cm", 8))
		return get_chardev_ucma(o, req);
	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX] || !tb[RDMA_NLDEV_ATTR_CHARDEV_TYPE])
		return -EINVAL;
	memcpy(&dev,
	       (const uint8_t *)tb[RDMA_NLDEV_ATTR_DEV_INDEX] + NLA_HDRLEN, 4);
	if (dev >= sim.sh->cfg.ndev)
		return -EINVAL;
	if (strncmp((const char *)tb[RDMA_NLDEV_ATTR_CHARDEV_TYPE] + NLA_HDRLEN,
		    "uverbs", 7))
		return -EINVAL;
	minor = SIM_UVERBS_MINOR_BASE + dev;
	snprintf(name, sizeof(name), "uverbs%u", dev);
	msg_begin(o, type, 0, req);
	put_u64(o, RDMA_NLDEV_ATTR_CHARDEV, huge_dev(SIM_UVERBS_MAJOR, minor));
	put_u64(o, RDMA_NLDEV_ATTR_CHARDEV_ABI, sim.model->uverbs_abi);
	put_str(o, RDMA_NLDEV_ATTR_CHARDEV_NAME, name);
	put_u32(o, RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID, sim.model->driver_id);
	msg_end(o);
	sim_trace("netlink GET_CHARDEV dev %u uverbs -> %s %u:%u", dev, name,
		  SIM_UVERBS_MAJOR, minor);
	return 0;
}

static void sys_get(struct nl_out *o, const struct nlmsghdr *req)
{
	msg_begin(o, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_SYS_GET), 0,
		  req);
	put_u8(o, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 1);
	put_u8(o, RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK, 1);
	msg_end(o);
	sim_trace("netlink SYS_GET -> copy_on_fork 1");
}

/* Answer one request message into o. Called with sim_lock held. */
static void answer(struct sim_nlsock *nl, struct nl_out *o,
		   const struct nlmsghdr *req)
{
	int err = 0;

	if (RDMA_NL_GET_CLIENT(req->nlmsg_type) != RDMA_NL_NLDEV) {
		err = -EINVAL;
	} else {
		switch (RDMA_NL_GET_OP(req->nlmsg_type)) {
		case RDMA_NLDEV_CMD_GET:
			if (!(req->nlmsg_flags & NLM_F_DUMP)) {
				err = -EOPNOTSUPP;
				break;
			}
			err = nldev_dump_start(nl, o, req);
			if (!err)
				return;
			break;
		case RDMA_NLDEV_CMD_GET_CHARDEV:
			err = get_chardev(o, req);
			break;
		case RDMA_NLDEV_CMD_SYS_GET:
			sys_get(o, req);
			break;
		default:
			err = -EOPNOTSUPP;
		}
	}
	if (err || (req->nlmsg_flags & NLM_F_ACK))
		put_error(o, req, err);
	if (err)
		sim_trace("netlink type %#x -> %s", req->nlmsg_type,
			  strerrorname_np(-err));
}

/* Every byte sent is written first: no need to clear 33 KiB per request. */
static struct nl_out *nl_out_new(void)
{
	struct nl_out *o = malloc(sizeof(*o));

	if (o) {
		o->len = 0;
		o->cur = NULL;
	}
	return o;
}

static int queue(struct sim_nlsock *nl, const struct nl_out *o)
{
	if (o->len && sys.send(nl->peer, o->buf, o->len, MSG_DONTWAIT) < 0)
		return -ENOBUFS;
	return 0;
}

/*
 * Every message of the datagram is answered in turn, each reply queued as
 * a datagram of its own, as netlink_rcv_skb() and nlmsg_unicast() do.
 */
ssize_t sim_netlink_send(struct sim_nlsock *nl, const void *buf, size_t len)
{
	const struct nlmsghdr *h = buf;
	ssize_t left = (ssize_t)len;
	int ret = 0;
	struct nl_out *o;

	if (len < NLMSG_HDRLEN || h->nlmsg_len < NLMSG_HDRLEN ||
	    h->nlmsg_len > len)
		return -EINVAL;
	o = nl_out_new();
	if (!o)
		return -ENOMEM;
	pthread_mutex_lock(&sim_lock);
	for (; !ret && NLMSG_OK(h, left); h = NLMSG_NEXT(h, left)) {
		o->len = 0;
		answer(nl, o, h);
		ret = queue(nl, o);
	}
	pthread_mutex_unlock(&sim_lock);
	free(o);
	return ret ? ret : (ssize_t)len;
}

void sim_netlink_received(struct sim_nlsock *nl, size_t len)
{
	struct nl_out *o;

	pthread_mutex_lock(&sim_lock);
	if (len > nl->max_recvmsg_len)
		nl->max_recvmsg_len =
			len > NL_DUMP_MAX ? NL_DUMP_MAX : (uint32_t)len;
	if (nl->dumping) {
		o = nl_out_new();
		if (o) {
			dump_part(nl, o);
			queue(nl, o);
			free(o);
		}
	}
	pthread_mutex_unlock(&sim_lock);
}
