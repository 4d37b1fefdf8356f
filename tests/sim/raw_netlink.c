// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* RDMA netlink as libibverbs and rdma-core's netlink helpers use it. */
#include "raw.h"

#include <errno.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct nl_req {
	struct nlmsghdr h;
	uint8_t attrs[64];
};

static void add_attr(struct nl_req *r, uint16_t type, const void *d,
		     uint16_t len)
{
	struct nlattr *a = (struct nlattr *)((uint8_t *)r + r->h.nlmsg_len);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy(a + 1, d, len);
	r->h.nlmsg_len += NLA_ALIGN(a->nla_len);
}

static ssize_t roundtrip(int fd, struct nl_req *r, uint8_t *buf, size_t len)
{
	struct sockaddr_nl from;
	socklen_t flen = sizeof(from);
	ssize_t n;

	if (send(fd, r, r->h.nlmsg_len, 0) != (ssize_t)r->h.nlmsg_len)
		return -1;
	n = recvfrom(fd, buf, len, 0, (struct sockaddr *)&from, &flen);
	EXPECT(n < 0 || (flen == sizeof(from) && from.nl_family == AF_NETLINK &&
			 from.nl_pid == 0),
	       "reply not from the kernel's netlink port");
	return n;
}

/* The smallest dump datagram and its cap (sim/core/netlink.c). */
#define NL_GOODSIZE 3776
#define NL_DUMP_MAX 32768

static int send_dump(int fd, uint32_t seq)
{
	struct nl_req r = {.h = {.nlmsg_len = NLMSG_HDRLEN,
				 .nlmsg_type = RDMA_NL_GET_TYPE(
					 RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET),
				 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
				 .nlmsg_seq = seq}};

	return send(fd, &r, r.h.nlmsg_len, 0) == (ssize_t)r.h.nlmsg_len ? 0
									: -1;
}

/* Check one device message: index @want, name mlx5_<want>. */
static void check_device_msg(struct nlmsghdr *h, uint32_t want)
{
	struct nlattr *a = (void *)NLMSG_DATA(h);
	char name[32] = "", expect[32];
	uint32_t index = UINT32_MAX;

	for (; (uint8_t *)a < (uint8_t *)h + h->nlmsg_len;
	     a = (void *)((uint8_t *)a + NLA_ALIGN(a->nla_len))) {
		if (a->nla_type == RDMA_NLDEV_ATTR_DEV_NAME)
			snprintf(name, sizeof(name), "%s", (char *)(a + 1));
		if (a->nla_type == RDMA_NLDEV_ATTR_DEV_INDEX)
			memcpy(&index, a + 1, 4);
	}
	snprintf(expect, sizeof(expect), "mlx5_%u", want);
	EXPECT(index == want && !strcmp(name, expect),
	       "dump message %u: index %u name '%s'", want, index, name);
}

/*
 * Read a whole NLDEV GET dump, @bufsize bytes per recv, checking what the
 * kernel guarantees: every datagram holds whole messages and fits
 * max(NLMSG_GOODSIZE, the largest recv buffer the socket has seen before
 * it was queued, @seen, at most 32 KiB), the devices come
 * in index order, NLMSG_DONE arrives alone last. Returns the devices.
 */
static int dump_devices(int fd, size_t bufsize, size_t *seen, int *parts)
{
	static uint8_t buf[65536];
	size_t limit;
	int devs = 0, done = 0;
	struct nlmsghdr *h;
	ssize_t n, left;

	*parts = 0;
	if (send_dump(fd, 7))
		return -1;
	while (!done) {
		limit = *seen > NL_GOODSIZE ? *seen : NL_GOODSIZE;
		limit = limit > NL_DUMP_MAX ? NL_DUMP_MAX : limit;
		n = recv(fd, buf, bufsize, 0);
		EXPECT(n > 0, "dump recv: %zd (%s)", n, strerror(errno));
		if (n <= 0)
			return -1;
		(*parts)++;
		EXPECT((size_t)n <= limit, "datagram %d: %zd bytes > %zu",
		       *parts, n, limit);
		*seen = bufsize > *seen ? bufsize : *seen;
		left = n;
		for (h = (void *)buf; NLMSG_OK(h, left);
		     h = NLMSG_NEXT(h, left)) {
			EXPECT(h->nlmsg_seq == 7, "seq %u", h->nlmsg_seq);
			EXPECT(h->nlmsg_flags & NLM_F_MULTI, "no NLM_F_MULTI");
			if (h->nlmsg_type == NLMSG_DONE) {
				EXPECT(h == (void *)buf,
				       "NLMSG_DONE shares a datagram");
				done = 1;
				continue;
			}
			check_device_msg(h, (uint32_t)devs++);
		}
		EXPECT(left == 0, "datagram %d: %zd bytes of a cut message",
		       *parts, left);
	}
	return devs;
}

static int chardev_error(int fd, uint32_t index, int *err)
{
	struct nl_req r = {
		.h = {.nlmsg_len = NLMSG_HDRLEN,
		      .nlmsg_type = RDMA_NL_GET_TYPE(
			      RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET_CHARDEV),
		      .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK}};
	uint8_t buf[4096];
	ssize_t n, got;
	struct nlmsghdr *h;

	add_attr(&r, RDMA_NLDEV_ATTR_DEV_INDEX, &index, 4);
	add_attr(&r, RDMA_NLDEV_ATTR_CHARDEV_TYPE, "uverbs", 7);
	got = n = roundtrip(fd, &r, buf, sizeof(buf));
	*err = 1;
	for (h = (void *)buf; n > 0 && NLMSG_OK(h, n); h = NLMSG_NEXT(h, n))
		if (h->nlmsg_type == NLMSG_ERROR)
			*err = ((struct nlmsgerr *)NLMSG_DATA(h))->error;
	return (int)got;
}

void raw_check_netlink(void)
{
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};
	socklen_t len = sizeof(sa);
	int fd, err, parts;
	size_t seen = 0;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	EXPECT(fd >= 0, "NETLINK_RDMA socket: %s", strerror(errno));
	if (fd < 0)
		return;
	EXPECT(!bind(fd, (struct sockaddr *)&sa, sizeof(sa)), "bind");
	EXPECT(!getsockname(fd, (struct sockaddr *)&sa, &len) &&
		       len == sizeof(sa) && sa.nl_family == AF_NETLINK,
	       "getsockname");
	EXPECT(dump_devices(fd, 8192, &seen, &parts) == 1 && parts == 2,
	       "dump of one device: %d datagrams", parts);
	EXPECT(chardev_error(fd, 0, &err) > 0 && err == 0,
	       "GET_CHARDEV 0 ack: %d", err);
	EXPECT(chardev_error(fd, 5, &err) > 0 && err == -EINVAL,
	       "GET_CHARDEV 5: %d", err);
	close(fd);
}

/* Append GET_CHARDEV of device @index with sequence @seq to @buf. */
static size_t put_chardev_req(uint8_t *buf, size_t off, uint32_t index,
			      uint32_t seq)
{
	struct nl_req r = {
		.h = {.nlmsg_len = NLMSG_HDRLEN,
		      .nlmsg_type = RDMA_NL_GET_TYPE(
			      RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET_CHARDEV),
		      .nlmsg_flags = NLM_F_REQUEST,
		      .nlmsg_seq = seq}};

	add_attr(&r, RDMA_NLDEV_ATTR_DEV_INDEX, &index, 4);
	add_attr(&r, RDMA_NLDEV_ATTR_CHARDEV_TYPE, "uverbs", 7);
	memcpy(buf + off, &r, r.h.nlmsg_len);
	return off + NLMSG_ALIGN(r.h.nlmsg_len);
}

/*
 * Three requests in one datagram get three reply datagrams, in order
 * (netlink_rcv_skb answers each message); recvmmsg with MSG_WAITFORONE
 * takes what is queued and does not wait for more.
 */
static void check_batch(int fd, unsigned int ndev)
{
	static const char *const want[] = {"uverbs0", NULL, NULL};
	uint8_t req[512], reply[8][512];
	struct mmsghdr vec[8] = {};
	struct iovec iov[8];
	char last[32];
	size_t len = 0;
	int n, i;

	len = put_chardev_req(req, len, 0, 101);
	len = put_chardev_req(req, len, ndev - 1, 102);
	len = put_chardev_req(req, len, ndev + 5, 103);
	EXPECT(send(fd, req, len, 0) == (ssize_t)len, "batch send");
	for (i = 0; i < 8; i++) {
		iov[i] = (struct iovec){reply[i], sizeof(reply[i])};
		vec[i].msg_hdr.msg_iov = &iov[i];
		vec[i].msg_hdr.msg_iovlen = 1;
	}
	n = recvmmsg(fd, vec, 8, MSG_WAITFORONE, NULL);
	EXPECT(n == 3, "batch: %d reply datagrams, want 3", n);
	snprintf(last, sizeof(last), "uverbs%u", ndev - 1);
	for (i = 0; i < n && i < 3; i++) {
		struct nlmsghdr *h = (void *)reply[i];
		struct nlattr *a = (void *)NLMSG_DATA(h);
		const char *name = "";

		EXPECT(h->nlmsg_seq == 101u + (unsigned int)i,
		       "reply %d seq %u", i, h->nlmsg_seq);
		if (i == 2) {
			EXPECT(h->nlmsg_type == NLMSG_ERROR &&
				       ((struct nlmsgerr *)NLMSG_DATA(h))
						       ->error == -EINVAL,
			       "reply 2: not EINVAL");
			continue;
		}
		for (; (uint8_t *)a < (uint8_t *)h + h->nlmsg_len;
		     a = (void *)((uint8_t *)a + NLA_ALIGN(a->nla_len)))
			if (a->nla_type == RDMA_NLDEV_ATTR_CHARDEV_NAME)
				name = (const char *)(a + 1);
		EXPECT(!strcmp(name, i ? last : want[0]), "reply %d: '%s'", i,
		       name);
	}
}

/*
 * --devices N: the dump of N devices comes in several datagrams cut at
 * message boundaries, whatever the reader's buffer; a second dump while
 * one runs is EBUSY, as netlink_dump_start answers.
 */
int raw_check_netlink_many(unsigned int ndev)
{
	static const size_t bufsizes[] = {4096, 8192, 65536};
	int fd, parts, err = 0;
	size_t seen = 0;
	uint8_t buf[4096];
	ssize_t n;
	size_t i;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	EXPECT(fd >= 0, "NETLINK_RDMA socket: %s", strerror(errno));
	if (fd < 0)
		return 1;
	for (i = 0; i < sizeof(bufsizes) / sizeof(bufsizes[0]); i++) {
		EXPECT(dump_devices(fd, bufsizes[i], &seen, &parts) ==
			       (int)ndev,
		       "dump with %zu-byte reads: wrong device count",
		       bufsizes[i]);
		EXPECT(parts > 2, "%u devices in only %d datagrams", ndev,
		       parts);
	}
	EXPECT(!send_dump(fd, 8) && !send_dump(fd, 9), "send two dumps");
	n = recv(fd, buf, sizeof(buf), 0);
	EXPECT(n > 0, "first part of dump 8");
	n = recv(fd, buf, sizeof(buf), 0);
	if (n > 0 && NLMSG_OK((struct nlmsghdr *)buf, n) &&
	    ((struct nlmsghdr *)buf)->nlmsg_type == NLMSG_ERROR)
		err = ((struct nlmsgerr *)NLMSG_DATA((struct nlmsghdr *)buf))
			      ->error;
	EXPECT(err == -EBUSY, "second dump while one runs: %d", err);
	close(fd);
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	EXPECT(fd >= 0, "NETLINK_RDMA socket: %s", strerror(errno));
	if (fd >= 0)
		check_batch(fd, ndev);
	close(fd);
	return raw_failures ? 1 : 0;
}
