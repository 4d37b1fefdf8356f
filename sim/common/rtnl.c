// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "rtnl.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void *rtnl_start(struct rtnl_req *r, uint16_t type, uint16_t flags,
		 size_t hdr_len)
{
	memset(r->buf, 0, sizeof(r->buf));
	r->h = (struct nlmsghdr *)r->buf;
	r->cap = sizeof(r->buf);
	r->h->nlmsg_type = type;
	r->h->nlmsg_flags = flags | NLM_F_REQUEST | NLM_F_ACK;
	r->h->nlmsg_len = NLMSG_LENGTH(hdr_len);
	return NLMSG_DATA(r->h);
}

void rtnl_put(struct rtnl_req *r, uint16_t type, const void *data, size_t len)
{
	struct rtattr *a =
		(struct rtattr *)(r->buf + NLMSG_ALIGN(r->h->nlmsg_len));

	if (NLMSG_ALIGN(r->h->nlmsg_len) + RTA_SPACE(len) > r->cap)
		return; /* the kernel then refuses the short request */
	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(a), data, len);
	r->h->nlmsg_len = NLMSG_ALIGN(r->h->nlmsg_len) + RTA_SPACE(len);
}

struct rtattr *rtnl_nest(struct rtnl_req *r, uint16_t type)
{
	struct rtattr *a =
		(struct rtattr *)(r->buf + NLMSG_ALIGN(r->h->nlmsg_len));

	rtnl_put(r, type, NULL, 0);
	return a;
}

void rtnl_nest_end(struct rtnl_req *r, struct rtattr *nest)
{
	nest->rta_len = (unsigned short)(r->buf + r->h->nlmsg_len -
					 (uint8_t *)nest);
}

struct rtnl_io rtnl_io = {.send = send, .recvmsg = recvmsg};

int rtnl_talk(int sock, struct rtnl_req *r,
	      void (*reply)(const struct nlmsghdr *h, void *arg), void *arg)
{
	uint8_t buf[8192] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct iovec iov = {.iov_base = buf, .iov_len = sizeof(buf)};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
	static uint32_t seq;
	struct nlmsghdr *h;
	uint32_t my_seq;
	ssize_t n;

	my_seq = __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED);
	r->h->nlmsg_seq = my_seq;
	if (rtnl_io.send(sock, r->buf, r->h->nlmsg_len, 0) < 0)
		return -errno;
	for (;;) {
		n = rtnl_io.recvmsg(sock, &msg, 0);
		if (n < 0)
			return -errno;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != my_seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR)
				return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (reply)
				reply(h, arg);
		}
	}
}

int rtnl_open(uint32_t groups)
{
	struct sockaddr_nl a = {.nl_family = AF_NETLINK, .nl_groups = groups};
	int s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (s < 0)
		return -errno;
	if (bind(s, (struct sockaddr *)&a, sizeof(a))) {
		close(s);
		return -errno;
	}
	return s;
}
