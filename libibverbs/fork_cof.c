// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Does the kernel copy pinned pages on fork()? Since Linux 5.13 it does
 * (copy-on-fork of DMA-pinned pages), which makes MADV_DONTFORK
 * protection of registered memory unnecessary. The kernel says so in RDMA
 * netlink's SYS_GET reply (RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK). Asked on every
 * call, as the answer is cheap and a namespace change could alter it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "verbs_internal.h"

#define COF_SEQ 0x636f66u /* "cof" */

/* COPY_ON_FORK of one SYS_GET reply: 1/0, or -1 if it is not there. */
static int parse_sys_get(const uint8_t *buf, size_t len)
{
	const struct nlmsghdr *hdr = (const struct nlmsghdr *)buf;
	const struct nlattr *attr;
	size_t off;

	if (len < NLMSG_HDRLEN || hdr->nlmsg_len > len ||
	    hdr->nlmsg_type !=
		    RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_SYS_GET))
		return -1;
	for (off = NLMSG_HDRLEN; off + NLA_HDRLEN <= hdr->nlmsg_len;
	     off += NLA_ALIGN(attr->nla_len)) {
		attr = (const struct nlattr *)(buf + off);
		if (attr->nla_len < NLA_HDRLEN ||
		    off + attr->nla_len > hdr->nlmsg_len)
			return -1;
		if ((attr->nla_type & NLA_TYPE_MASK) ==
			    RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK &&
		    attr->nla_len >= NLA_HDRLEN + 1)
			return *((const uint8_t *)attr + NLA_HDRLEN) != 0;
	}
	return -1;
}

bool verbs_kernel_copies_on_fork(void)
{
	struct nlmsghdr req = {
		.nlmsg_len = NLMSG_HDRLEN,
		.nlmsg_type =
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_SYS_GET),
		.nlmsg_flags = NLM_F_REQUEST,
		.nlmsg_seq = COF_SEQ,
	};
	union {
		struct nlmsghdr hdr;
		uint8_t bytes[512];
	} reply;
	int saved = errno, fd, cof = -1;
	ssize_t len;

	/* Any failure (no RDMA netlink, an old kernel) means no copy. */
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	if (fd < 0)
		goto out;
	if (send(fd, &req, req.nlmsg_len, 0) != (ssize_t)req.nlmsg_len)
		goto out_close;
	do {
		len = recv(fd, reply.bytes, sizeof(reply), 0);
	} while (len < 0 && errno == EINTR);
	if (len >= (ssize_t)NLMSG_HDRLEN && reply.hdr.nlmsg_seq == COF_SEQ)
		cof = parse_sys_get(reply.bytes, (size_t)len);
out_close:
	close(fd);
out:
	errno = saved;
	return cof == 1;
}
