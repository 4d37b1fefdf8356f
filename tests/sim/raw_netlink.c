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

/* The name attribute of every device in a dump; count of devices. */
static int dump_devices(int fd, char *first, size_t len)
{
	struct nl_req r = {.h = {.nlmsg_len = NLMSG_HDRLEN,
				 .nlmsg_type = RDMA_NL_GET_TYPE(
					 RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET),
				 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
				 .nlmsg_seq = 7}};
	uint8_t buf[8192];
	ssize_t n = roundtrip(fd, &r, buf, sizeof(buf));
	struct nlmsghdr *h;
	int devs = 0, done = 0;

	for (h = (void *)buf; n > 0 && NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
		struct nlattr *a = (void *)NLMSG_DATA(h);

		EXPECT(h->nlmsg_seq == 7, "seq %u", h->nlmsg_seq);
		if (h->nlmsg_type == NLMSG_DONE) {
			done = 1;
			break;
		}
		for (; (uint8_t *)a < (uint8_t *)h + h->nlmsg_len;
		     a = (void *)((uint8_t *)a + NLA_ALIGN(a->nla_len)))
			if (a->nla_type == RDMA_NLDEV_ATTR_DEV_NAME && !devs)
				snprintf(first, len, "%s", (char *)(a + 1));
		devs++;
	}
	EXPECT(done, "dump without NLMSG_DONE");
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
	char name[64] = "";
	int fd, err;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	EXPECT(fd >= 0, "NETLINK_RDMA socket: %s", strerror(errno));
	if (fd < 0)
		return;
	EXPECT(!bind(fd, (struct sockaddr *)&sa, sizeof(sa)), "bind");
	EXPECT(!getsockname(fd, (struct sockaddr *)&sa, &len) &&
		       len == sizeof(sa) && sa.nl_family == AF_NETLINK,
	       "getsockname");
	EXPECT(dump_devices(fd, name, sizeof(name)) == 1 &&
		       !strcmp(name, "mlx5_0"),
	       "dump: first device '%s'", name);
	EXPECT(chardev_error(fd, 0, &err) > 0 && err == 0,
	       "GET_CHARDEV 0 ack: %d", err);
	EXPECT(chardev_error(fd, 5, &err) > 0 && err == -EINVAL,
	       "GET_CHARDEV 5: %d", err);
	close(fd);
}
