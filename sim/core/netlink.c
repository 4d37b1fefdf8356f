// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RDMA netlink (NETLINK_RDMA) for the simulated devices. The socket is one
 * end of an AF_UNIX datagram pair; a request sent on it is answered at
 * once by queueing the kernel's reply datagrams on the other end, so
 * recvmsg/poll on the user's end behave as on a real netlink socket.
 * This file is the netlink layer: message building, the NLDEV command
 * table, doit/dumpit dispatch and errors as rdma_nl_rcv_msg() gives them
 * (netlink.h says where each command is answered).
 *
 * A dump is sent as the kernel's netlink_dump() sends it: one datagram
 * when the request arrives and one more after each recvmsg that returned
 * data, each holding the whole messages that fit in max(NLMSG_GOODSIZE,
 * the largest recv buffer seen, capped at 32 KiB), then NLMSG_DONE alone
 * (the nldev dumpits return the bytes they wrote, so DONE never shares).
 */
#include "netlink.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/socket.h>

/* SKB_WITH_OVERHEAD(4096): the smallest dump skb of x86-64 kernels. */
#define NL_GOODSIZE 3776

struct nlmsghdr *nl_msg_begin(struct nl_out *o, uint16_t type, uint16_t flags,
			      uint32_t seq, uint32_t pid)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(o->buf + o->len);

	memset(h, 0, sizeof(*h));
	h->nlmsg_len = NLMSG_HDRLEN;
	h->nlmsg_type = type;
	h->nlmsg_flags = flags;
	h->nlmsg_seq = seq;
	h->nlmsg_pid = pid;
	o->cur = h;
	return h;
}

void nl_msg_end(struct nl_out *o)
{
	o->len += NLMSG_ALIGN(o->cur->nlmsg_len);
}

/* Where the next attribute of the open message goes, as an offset. */
static size_t tail(const struct nl_out *o)
{
	return (size_t)((uint8_t *)o->cur - o->buf) + o->cur->nlmsg_len;
}

void nl_cancel(struct nl_out *o, size_t mark)
{
	size_t msg = (size_t)((uint8_t *)o->cur - o->buf);

	if (mark <= msg) {
		o->len = mark; /* the whole message */
		return;
	}
	o->cur->nlmsg_len = (uint32_t)(mark - msg);
}

void nl_put(struct nl_out *o, uint16_t type, const void *data, size_t len)
{
	struct nlattr *a = (struct nlattr *)(o->buf + tail(o));

	if (tail(o) + NLA_HDRLEN + NLA_ALIGN(len) > sizeof(o->buf))
		return; /* past any limit: the caller cancels it */
	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	if (len) /* a nest opens with no payload (data NULL) */
		memcpy((uint8_t *)a + NLA_HDRLEN, data, len);
	memset((uint8_t *)a + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	o->cur->nlmsg_len += NLA_ALIGN(a->nla_len);
}

void nl_put_u8(struct nl_out *o, uint16_t t, uint8_t v)
{
	nl_put(o, t, &v, sizeof(v));
}

void nl_put_u32(struct nl_out *o, uint16_t t, uint32_t v)
{
	nl_put(o, t, &v, sizeof(v));
}

/* x86-64 has efficient unaligned access: the kernel adds no PAD. */
void nl_put_u64(struct nl_out *o, uint16_t t, uint64_t v)
{
	nl_put(o, t, &v, sizeof(v));
}

void nl_put_str(struct nl_out *o, uint16_t t, const char *s)
{
	nl_put(o, t, s, strlen(s) + 1);
}

size_t nl_nest_begin(struct nl_out *o, uint16_t type)
{
	size_t at = tail(o);

	nl_put(o, type, NULL, 0);
	return at;
}

void nl_nest_end(struct nl_out *o, size_t at)
{
	struct nlattr *a = (struct nlattr *)(o->buf + at);

	a->nla_len = (uint16_t)(tail(o) - at);
}

int64_t nl_get_u32(const struct nlattr *const *tb, uint16_t type)
{
	uint32_t v;

	if (!tb[type] || tb[type]->nla_len < NLA_HDRLEN + sizeof(v))
		return -1;
	memcpy(&v, (const uint8_t *)tb[type] + NLA_HDRLEN, sizeof(v));
	return v;
}

int nl_get_str(const struct nlattr *const *tb, uint16_t type, char *buf,
	       size_t size)
{
	size_t len;

	if (!tb[type] || tb[type]->nla_len < NLA_HDRLEN)
		return -1;
	len = (size_t)tb[type]->nla_len - NLA_HDRLEN;
	if (len > size - 1)
		len = size - 1;
	memcpy(buf, (const uint8_t *)tb[type] + NLA_HDRLEN, len);
	buf[len] = 0;
	return 0;
}

int nl_req_dev(const struct nlattr *const *tb)
{
	int64_t dev = nl_get_u32(tb, RDMA_NLDEV_ATTR_DEV_INDEX);

	return dev < 0 || !sim_dev_live(sim.sh, (unsigned int)dev) ? -EINVAL
								   : (int)dev;
}

void nl_put_dev(struct nl_out *o, unsigned int dev)
{
	char name[64];

	snprintf(name, sizeof(name), "%s%u", sim.model->ibdev_prefix, dev);
	nl_put_u32(o, RDMA_NLDEV_ATTR_DEV_INDEX, dev);
	nl_put_str(o, RDMA_NLDEV_ATTR_DEV_NAME, name);
}

static int dump_each(struct sim_nl_dump *d, struct nl_out *o, size_t limit,
		     uint16_t op, unsigned int end, int devs,
		     void (*fill)(struct nl_out *o, const struct sim_nl_dump *d,
				  unsigned int i))
{
	size_t mark;

	while (d->next < end) {
		if (devs && !sim_dev_live(sim.sh, d->next)) {
			d->next++; /* unregistered: no longer listed */
			continue;
		}
		mark = o->len;
		nl_msg_begin(o, nl_type(op), NLM_F_MULTI, d->seq, d->pid);
		fill(o, d, d->next);
		nl_msg_end(o);
		if (o->len > limit) {
			o->len = mark; /* nlmsg_cancel: it opens the next one */
			break;
		}
		d->next++;
	}
	return (int)o->len;
}

int nl_dump_each(struct sim_nl_dump *d, struct nl_out *o, size_t limit,
		 uint16_t op, unsigned int end,
		 void (*fill)(struct nl_out *o, const struct sim_nl_dump *d,
			      unsigned int i))
{
	return dump_each(d, o, limit, op, end, 0, fill);
}

int nl_dump_devs(struct sim_nl_dump *d, struct nl_out *o, size_t limit,
		 uint16_t op,
		 void (*fill)(struct nl_out *o, const struct sim_nl_dump *d,
			      unsigned int dev))
{
	return dump_each(d, o, limit, op, sim.sh->cfg.ndev, 1, fill);
}

/* NLMSG_ERROR: error 0 is an ACK; NETLINK_CAP_ACK echoes the header only. */
static void put_error(struct nl_out *o, const struct nlmsghdr *req, int err)
{
	struct nlmsgerr e = {.error = err, .msg = *req};

	nl_msg_begin(o, NLMSG_ERROR, 0, req->nlmsg_seq, req->nlmsg_pid);
	memcpy((uint8_t *)o->cur + NLMSG_HDRLEN, &e, sizeof(e));
	o->cur->nlmsg_len += sizeof(e);
	nl_msg_end(o);
}

/* The attrs of a request: index by type, last one wins. */
static void parse_attrs(const struct nlmsghdr *h, nl_attrs tb)
{
	const uint8_t *p = (const uint8_t *)h + NLMSG_HDRLEN;
	const uint8_t *end = (const uint8_t *)h + h->nlmsg_len;

	memset(tb, 0, sizeof(nl_attrs));
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const void *)p;

		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) < NL_MAX_ATTR)
			tb[a->nla_type & NLA_TYPE_MASK] = a;
		p += NLA_ALIGN(a->nla_len);
	}
}

/* The NLDEV commands answered, as nldev_cb_table lists them. */
static const struct nl_cmd {
	uint16_t op;
	const char *name;
	int (*doit)(struct nl_out *o, const struct nl_req *r);
	int (*dumpit)(struct sim_nl_dump *d, struct nl_out *o, size_t limit);
} cmds[] = {
	{RDMA_NLDEV_CMD_GET, "GET", nl_get_doit, nl_get_dumpit},
	{RDMA_NLDEV_CMD_PORT_GET, "PORT_GET", nl_port_get_doit,
	 nl_port_get_dumpit},
	{RDMA_NLDEV_CMD_NEWLINK, "NEWLINK", nl_newlink, NULL},
	{RDMA_NLDEV_CMD_DELLINK, "DELLINK", nl_dellink, NULL},
	{RDMA_NLDEV_CMD_SYS_GET, "SYS_GET", nl_sys_get, NULL},
	{RDMA_NLDEV_CMD_RES_GET, "RES_GET", nl_res_get_doit, nl_res_get_dumpit},
	{RDMA_NLDEV_CMD_RES_QP_GET, "RES_QP_GET", NULL, nl_res_obj_dumpit},
	{RDMA_NLDEV_CMD_RES_CM_ID_GET, "RES_CM_ID_GET", NULL,
	 nl_res_obj_dumpit},
	{RDMA_NLDEV_CMD_RES_CQ_GET, "RES_CQ_GET", NULL, nl_res_obj_dumpit},
	{RDMA_NLDEV_CMD_RES_MR_GET, "RES_MR_GET", NULL, nl_res_obj_dumpit},
	{RDMA_NLDEV_CMD_RES_PD_GET, "RES_PD_GET", NULL, nl_res_obj_dumpit},
	{RDMA_NLDEV_CMD_RES_CTX_GET, "RES_CTX_GET", NULL, nl_res_obj_dumpit},
	{RDMA_NLDEV_CMD_RES_SRQ_GET, "RES_SRQ_GET", NULL, nl_res_obj_dumpit},
	{RDMA_NLDEV_CMD_GET_CHARDEV, "GET_CHARDEV", nl_get_chardev, NULL},
	{RDMA_NLDEV_CMD_STAT_GET, "STAT_GET", nl_stat_get_doit,
	 nl_stat_get_dumpit},
};

static const struct nl_cmd *cmd_of(uint16_t op)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (cmds[i].op == op)
			return &cmds[i];
	return NULL;
}

/* One datagram of the running dump of nl. Called with sim_lock held. */
static void dump_part(struct sim_nlsock *nl, struct nl_out *o)
{
	struct sim_nl_dump *d = &nl->dump;
	const struct nl_cmd *c = cmd_of(d->op);
	size_t limit = nl->max_recvmsg_len > NL_GOODSIZE ? nl->max_recvmsg_len
							 : NL_GOODSIZE;
	int ret = c->dumpit(d, o, limit);

	d->parts++;
	if (ret > 0) {
		sim_trace("netlink NLDEV_%s dump part %u: %zu bytes", c->name,
			  d->parts, o->len);
		return;
	}
	o->len = 0;
	nl_msg_begin(o, NLMSG_DONE, NLM_F_MULTI, d->seq, d->pid);
	memcpy((uint8_t *)o->cur + NLMSG_HDRLEN, &ret, sizeof(ret));
	o->cur->nlmsg_len += sizeof(int); /* payload: int 0 or -errno */
	nl_msg_end(o);
	nl->dumping = 0;
	sim_trace("netlink NLDEV_%s dump part %u: NLMSG_DONE%s%s", c->name,
		  d->parts, ret ? " " : "", ret ? strerrorname_np(-ret) : "");
}

static int dump_start(struct sim_nlsock *nl, struct nl_out *o,
		      const struct nl_req *r)
{
	struct sim_nl_dump *d = &nl->dump;
	int64_t port = nl_get_u32(r->tb, RDMA_NLDEV_ATTR_PORT_INDEX);

	if (nl->dumping)
		return -EBUSY; /* netlink_dump_start: one dump per socket */
	memset(d, 0, sizeof(*d));
	nl->dumping = 1;
	d->seq = r->h->nlmsg_seq;
	d->pid = r->h->nlmsg_pid;
	d->op = RDMA_NL_GET_OP(r->h->nlmsg_type);
	d->dev = nl_get_u32(r->tb, RDMA_NLDEV_ATTR_DEV_INDEX);
	d->port = port < 0 ? 0 : (uint32_t)port;
	d->last_id = -1;
	/* a STAT_GET dump lists bound counters: it needs STAT_RES */
	if (d->op == RDMA_NLDEV_CMD_STAT_GET &&
	    nl_get_u32(r->tb, RDMA_NLDEV_ATTR_STAT_RES) < 0)
		d->dev = -2;
	sim_trace("netlink NLDEV_%s dump -> %u device(s)", cmd_of(d->op)->name,
		  sim.sh->cfg.ndev);
	dump_part(nl, o);
	return 0;
}

/* The admin ops (SET, NEWLINK, DELLINK, SYS_SET, STAT_SET/DEL, the raw
 * dumps) need CAP_NET_ADMIN before anything else (RDMA_NL_ADMIN_PERM). */
static int admin_denied(uint16_t type)
{
	static const uint8_t admin[] = {
		RDMA_NLDEV_CMD_SET,
		RDMA_NLDEV_CMD_NEWLINK,
		RDMA_NLDEV_CMD_DELLINK,
		RDMA_NLDEV_CMD_SYS_SET,
		RDMA_NLDEV_CMD_STAT_SET,
		RDMA_NLDEV_CMD_STAT_DEL,
		RDMA_NLDEV_CMD_RES_QP_GET_RAW,
		RDMA_NLDEV_CMD_RES_CQ_GET_RAW,
		RDMA_NLDEV_CMD_RES_MR_GET_RAW,
	};
	unsigned int i;

	if (RDMA_NL_GET_CLIENT(type) != RDMA_NL_NLDEV)
		return 0;
	for (i = 0; i < ARRAY_SIZE(admin); i++)
		if (admin[i] == RDMA_NL_GET_OP(type) &&
		    !sim_has_cap(CAP_NET_ADMIN))
			return -EPERM;
	return 0;
}

/* An op without an answer here: one the kernel does not have is EINVAL,
 * the rest are not modelled. */
static int unanswered(uint16_t type)
{
	unsigned int op = RDMA_NL_GET_OP(type);

	if (RDMA_NL_GET_CLIENT(type) != RDMA_NL_NLDEV || !op || op == 8 ||
	    op >= RDMA_NLDEV_NUM_OPS)
		return -EINVAL;
	return -EOPNOTSUPP;
}

int nl_dev_doit(struct nl_out *o, const struct nl_req *r, uint16_t op,
		void (*fill)(struct nl_out *o, const struct sim_nl_dump *d,
			     unsigned int dev))
{
	int dev = nl_req_dev(r->tb);

	if (dev < 0)
		return dev;
	nl_msg_begin(o, nl_type(op), 0, r->h->nlmsg_seq, r->h->nlmsg_pid);
	fill(o, NULL, (unsigned int)dev);
	nl_msg_end(o);
	sim_trace("netlink NLDEV_%s dev %d", cmd_of(op)->name, dev);
	return 0;
}

/* Answer one request message into o. Called with sim_lock held. */
static void answer(struct sim_nlsock *nl, struct nl_out *o,
		   const struct nlmsghdr *h)
{
	const struct nl_cmd *c = NULL;
	struct nl_req r = {.h = h};
	int err;

	if (RDMA_NL_GET_CLIENT(h->nlmsg_type) == RDMA_NL_NLDEV)
		c = cmd_of(RDMA_NL_GET_OP(h->nlmsg_type));
	parse_attrs(h, r.tb);
	err = admin_denied(h->nlmsg_type);
	if (err) {
		/* answered below */
	} else if (!c) {
		err = unanswered(h->nlmsg_type);
	} else if (h->nlmsg_flags & NLM_F_DUMP) {
		err = c->dumpit ? dump_start(nl, o, &r) : -EINVAL;
		if (!err)
			return;
	} else {
		err = c->doit ? c->doit(o, &r) : -EINVAL;
		if (err)
			o->len = 0;
	}
	if (err || (h->nlmsg_flags & NLM_F_ACK))
		put_error(o, h, err);
	if (err)
		sim_trace("netlink NLDEV_%s (type %#x) -> %s",
			  c ? c->name : "?", h->nlmsg_type,
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
	sim_lock_take();
	for (; !ret && NLMSG_OK(h, left); h = NLMSG_NEXT(h, left)) {
		o->len = 0;
		o->cur = NULL;
		answer(nl, o, h);
		ret = queue(nl, o);
	}
	sim_lock_drop();
	free(o);
	return ret ? ret : (ssize_t)len;
}

void sim_netlink_received(struct sim_nlsock *nl, size_t len)
{
	struct nl_out *o;

	sim_lock_take();
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
	sim_lock_drop();
}
