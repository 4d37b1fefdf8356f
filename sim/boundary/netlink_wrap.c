// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Socket interposers for simulated NETLINK_RDMA sockets (see netlink.c). */
#include "sim.h"

#include <errno.h>
#include <linux/netlink.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef NETLINK_RDMA
#define NETLINK_RDMA 20
#endif
#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

static int fail_errno(int err)
{
	errno = err;
	return -1;
}

void sim_nlsock_put(struct sim_nlsock *nl)
{
	if (--nl->refs > 0)
		return;
	sim_internal_fd_close(&nl->peer);
	free(nl);
}

/* The socket's open file, or NULL if fd is not a simulated netlink fd. */
static struct sim_nlsock *nl_of(int fd)
{
	struct sim_nlsock *nl = NULL;

	if (sim_fd_kind(fd) != SIM_FD_NETLINK)
		return NULL;
	sim_lock_take();
	if (sim_fds[fd].kind == SIM_FD_NETLINK)
		nl = sim_fds[fd].nl;
	sim_lock_drop();
	return nl;
}

static int nl_socket(int type)
{
	int sv[2], cloexec = type & SOCK_CLOEXEC, err;
	struct sim_nlsock *nl = calloc(1, sizeof(*nl));

	if (!nl)
		return fail_errno(ENOMEM);
	if (socketpair(AF_UNIX, SOCK_DGRAM | cloexec | (type & SOCK_NONBLOCK),
		       0, sv)) {
		free(nl);
		return -1;
	}
	nl->peer = sv[1];
	nl->portid = (uint32_t)getpid();
	sim_lock_take();
	err = sim_internal_fd_add(&nl->peer);
	if (!err)
		err = sim_fd_set(sv[0], SIM_FD_NETLINK, nl);
	if (err) {
		sim_internal_fd_close(&nl->peer);
		sim_lock_drop();
		real.close(sv[0]);
		free(nl);
		return fail_errno(-err);
	}
	sim_lock_drop();
	sim_trace("socket AF_NETLINK NETLINK_RDMA -> fd %d (netlink)", sv[0]);
	return sv[0];
}

int socket(int domain, int type, int protocol)
{
	sim_real_init();
	if (!sim.active || domain != AF_NETLINK || protocol != NETLINK_RDMA)
		return real.socket(domain, type, protocol);
	if (sim.sh->cfg.no_netlink) {
		sim_trace("socket AF_NETLINK NETLINK_RDMA -> EPROTONOSUPPORT "
			  "(--no-netlink; userspace falls back to sysfs)");
		return fail_errno(EPROTONOSUPPORT);
	}
	return nl_socket(type);
}

int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	static int (*next)(int, const struct sockaddr *, socklen_t);

	if (!nl_of(fd)) {
		if (!next)
			*(void **)&next = dlsym_next("bind");
		return next(fd, addr, len);
	}
	if (len < sizeof(struct sockaddr_nl) || addr->sa_family != AF_NETLINK)
		return fail_errno(EINVAL);
	return 0;
}

int getsockname(int fd, struct sockaddr *addr, socklen_t *len)
{
	static int (*next)(int, struct sockaddr *, socklen_t *);
	struct sim_nlsock *nl = nl_of(fd);
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};

	if (!nl) {
		if (!next)
			*(void **)&next = dlsym_next("getsockname");
		return next(fd, addr, len);
	}
	sa.nl_pid = nl->portid;
	memcpy(addr, &sa, *len < sizeof(sa) ? *len : sizeof(sa));
	*len = sizeof(sa);
	return 0;
}

/* Netlink-level options are accepted; socket-level ones are real. */
int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	static int (*next)(int, int, int, const void *, socklen_t);

	if (!next)
		*(void **)&next = dlsym_next("setsockopt");
	if (level == SOL_NETLINK && nl_of(fd))
		return 0;
	return next(fd, level, name, val, len);
}

int getsockopt(int fd, int level, int name, void *val, socklen_t *len)
{
	static int (*next)(int, int, int, void *, socklen_t *);

	if (!next)
		*(void **)&next = dlsym_next("getsockopt");
	if (level == SOL_NETLINK && nl_of(fd)) {
		memset(val, 0, *len);
		return 0;
	}
	return next(fd, level, name, val, len);
}

static ssize_t nl_send_iov(struct sim_nlsock *nl, const struct iovec *iov,
			   size_t n)
{
	size_t total = 0, i;
	uint8_t *buf;
	ssize_t ret;

	for (i = 0; i < n; i++)
		total += iov[i].iov_len;
	buf = malloc(total ? total : 1);
	if (!buf)
		return fail_errno(ENOMEM);
	for (total = 0, i = 0; i < n; i++) {
		memcpy(buf + total, iov[i].iov_base, iov[i].iov_len);
		total += iov[i].iov_len;
	}
	ret = sim_netlink_send(nl, buf, total);
	free(buf);
	return ret < 0 ? fail_errno((int)-ret) : ret;
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	static ssize_t (*next)(int, const struct msghdr *, int);
	struct sim_nlsock *nl = nl_of(fd);

	if (!nl) {
		if (!next)
			*(void **)&next = dlsym_next("sendmsg");
		return next(fd, msg, flags);
	}
	return nl_send_iov(nl, msg->msg_iov, msg->msg_iovlen);
}

ssize_t sendto(int fd, const void *buf, size_t len, int flags,
	       const struct sockaddr *to, socklen_t tolen)
{
	static ssize_t (*next)(int, const void *, size_t, int,
			       const struct sockaddr *, socklen_t);
	struct iovec iov = {.iov_base = (void *)buf, .iov_len = len};
	struct sim_nlsock *nl = nl_of(fd);

	if (!nl) {
		if (!next)
			*(void **)&next = dlsym_next("sendto");
		return next(fd, buf, len, flags, to, tolen);
	}
	return nl_send_iov(nl, &iov, 1);
}

ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	return sendto(fd, buf, len, flags, NULL, 0);
}

/* dma-buf fds passed over a unix socket are dma-bufs here too. */
static void adopt_rights(struct msghdr *msg)
{
	struct cmsghdr *c;
	size_t i, n;
	int fd;

	for (c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < n; i++) {
			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(fd));
			sim_lock_take();
			sim_dmabuf_adopt(fd);
			sim_lock_drop();
		}
	}
}

static size_t iov_total(const struct msghdr *msg)
{
	size_t total = 0, i;

	for (i = 0; i < msg->msg_iovlen; i++)
		total += msg->msg_iov[i].iov_len;
	return total;
}

/* Replies come from the kernel: port 0. */
ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	struct sim_nlsock *nl;
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};
	void *name = msg->msg_name;
	socklen_t namelen = msg->msg_namelen;
	ssize_t ret;

	sim_real_init();
	nl = nl_of(fd);
	if (!nl) {
		ret = real.recvmsg(fd, msg, flags);
		if (ret >= 0 && sim.active)
			adopt_rights(msg);
		return ret;
	}
	msg->msg_name = NULL;
	msg->msg_namelen = 0;
	ret = real.recvmsg(fd, msg, flags);
	if (ret >= 0)
		sim_netlink_received(nl, iov_total(msg));
	msg->msg_name = name;
	msg->msg_namelen = 0;
	if (ret >= 0 && name) {
		memcpy(name, &sa, namelen < sizeof(sa) ? namelen : sizeof(sa));
		msg->msg_namelen = sizeof(sa);
	}
	return ret;
}

/*
 * recvmmsg on a simulated socket: datagram by datagram through recvmsg()
 * above, so each gets the kernel's address and a running dump its next
 * part. MSG_WAITFORONE: only the first may block.
 */
int recvmmsg(int fd, struct mmsghdr *vec, unsigned int vlen, int flags,
	     struct timespec *timeout)
{
	static int (*next)(int, struct mmsghdr *, unsigned int, int,
			   struct timespec *);
	int one = flags & MSG_WAITFORONE;
	unsigned int i;
	ssize_t ret;

	if (!nl_of(fd)) {
		if (!next)
			*(void **)&next = dlsym_next("recvmmsg");
		return next(fd, vec, vlen, flags, timeout);
	}
	flags &= ~MSG_WAITFORONE;
	for (i = 0; i < vlen; i++) {
		ret = recvmsg(fd, &vec[i].msg_hdr,
			      i && one ? flags | MSG_DONTWAIT : flags);
		if (ret < 0)
			return i ? (int)i : -1;
		vec[i].msg_len = (unsigned int)ret;
	}
	return (int)i;
}

/*
 * recv() and recvfrom() share this body: a wrapper calling the other one
 * cannot be built with _FORTIFY_SOURCE and -fno-semantic-interposition
 * (glibc's always_inline recvfrom would inline our own definition).
 */
static ssize_t recv_one(int fd, void *buf, size_t len, int flags,
			struct sockaddr *from, socklen_t *fromlen)
{
	struct iovec iov = {.iov_base = buf, .iov_len = len};
	struct msghdr m = {.msg_name = from,
			   .msg_namelen = fromlen ? *fromlen : 0,
			   .msg_iov = &iov,
			   .msg_iovlen = 1};
	ssize_t ret = recvmsg(fd, &m, flags);

	if (ret >= 0 && fromlen)
		*fromlen = m.msg_namelen;
	return ret;
}

ssize_t recvfrom(int fd, void *buf, size_t len, int flags,
		 struct sockaddr *from, socklen_t *fromlen)
{
	return recv_one(fd, buf, len, flags, from, fromlen);
}

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	return recv_one(fd, buf, len, flags, NULL, NULL);
}
