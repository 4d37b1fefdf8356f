// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The wire between simulated ports: one AF_UNIX datagram socket per
 * process at <dir>/p<pid>; every QP of the process is reachable at
 * <dir>/q<dev>.<qpn>, a relative symlink to it. Datagrams between two
 * sockets keep their order and are never dropped by the kernel, so loss
 * only happens where IB loses packets too: at a QP that does not exist
 * (ENOENT, ECONNREFUSED once its process is gone).
 */
#include "hca.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

int hca_fabric_fd = -1;
static pid_t fabric_pid;

static int fabric_path(struct sockaddr_un *a, const char *name)
{
	int n;

	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	n = snprintf(a->sun_path, sizeof(a->sun_path), "%s/%s", sim.dir,
		     name);
	return n < 0 || n >= (int)sizeof(a->sun_path) ? -ENAMETOOLONG : 0;
}

int hca_fabric_open(void)
{
	struct sockaddr_un a;
	char name[32];
	int fd, sz = 4 << 20, ret;

	if (hca_fabric_fd >= 0 && fabric_pid == getpid())
		return 0;
	if (hca_fabric_fd >= 0)
		sim_internal_fd_close(&hca_fabric_fd); /* inherited over fork */
	snprintf(name, sizeof(name), "p%d", (int)getpid());
	ret = fabric_path(&a, name);
	if (ret)
		return ret;
	fd = real.socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			 0);
	if (fd < 0)
		return -errno;
	unlink(a.sun_path);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a))) {
		ret = -errno;
		real.close(fd);
		return ret;
	}
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	hca_fabric_fd = fd;
	ret = sim_internal_fd_add(&hca_fabric_fd);
	if (ret)
		return ret;
	fabric_pid = getpid();
	return 0;
}

static void qp_name(char *buf, size_t len, unsigned int dev, uint32_t qpn)
{
	snprintf(buf, len, "q%u.%u", dev, qpn);
}

int hca_fabric_attach(unsigned int dev, uint32_t qpn)
{
	struct sockaddr_un a;
	char name[32], target[32];
	int ret = hca_fabric_open();

	if (ret)
		return ret;
	qp_name(name, sizeof(name), dev, qpn);
	ret = fabric_path(&a, name);
	if (ret)
		return ret;
	snprintf(target, sizeof(target), "p%d", (int)getpid());
	unlink(a.sun_path); /* a QPN reused after its process died */
	return symlink(target, a.sun_path) ? -errno : 0;
}

void hca_fabric_detach(unsigned int dev, uint32_t qpn)
{
	struct sockaddr_un a;
	char name[32];

	qp_name(name, sizeof(name), dev, qpn);
	if (!fabric_path(&a, name))
		unlink(a.sun_path);
}

int hca_fabric_send(const struct hca_pkt *p, const struct iovec *iov,
		    int iovcnt)
{
	struct iovec v[HCA_MAX_SGE + 1];
	struct sockaddr_un a;
	struct msghdr m = {};
	char name[32];
	int i;

	if (hca_fabric_open())
		return -EAGAIN;
	qp_name(name, sizeof(name), p->dst_dev, p->dst_qpn);
	if (fabric_path(&a, name))
		return -EHOSTUNREACH;
	v[0].iov_base = (void *)p;
	v[0].iov_len = sizeof(*p);
	for (i = 0; i < iovcnt && i < HCA_MAX_SGE; i++)
		v[i + 1] = iov[i];
	m.msg_name = &a;
	m.msg_namelen = sizeof(a);
	m.msg_iov = v;
	m.msg_iovlen = (size_t)i + 1;
	if (sendmsg(hca_fabric_fd, &m, MSG_DONTWAIT | MSG_NOSIGNAL) >= 0)
		return 0;
	if (errno == EAGAIN || errno == ENOBUFS || errno == EINTR)
		return -EAGAIN;
	return -EHOSTUNREACH;
}

static int taken; /* the current datagram was consumed by a handler */

int hca_fabric_take(const struct iovec *iov, int iovcnt)
{
	struct iovec v[HCA_MAX_SGE + 1];
	struct hca_pkt hdr;
	struct msghdr m = {};
	ssize_t n;
	int i;

	v[0].iov_base = &hdr;
	v[0].iov_len = sizeof(hdr);
	for (i = 0; i < iovcnt && i < HCA_MAX_SGE; i++)
		v[i + 1] = iov[i];
	m.msg_iov = v;
	m.msg_iovlen = (size_t)i + 1;
	n = recvmsg(hca_fabric_fd, &m, MSG_DONTWAIT);
	taken = 1;
	return n < 0 ? -errno : 0;
}

int hca_fabric_poll(int max)
{
	struct hca_pkt p;
	struct hca_qp *qp;
	int done = 0;
	ssize_t n;

	if (hca_fabric_fd < 0 || fabric_pid != getpid())
		return 0;
	while (done < max) {
		n = recv(hca_fabric_fd, &p, sizeof(p), MSG_PEEK | MSG_DONTWAIT);
		if (n < 0)
			break;
		taken = 0;
		done++;
		qp = n == sizeof(p) ? hca_qp_by_qpn(p.dst_dev, p.dst_qpn)
				    : NULL;
		if (qp) {
			if (p.op == HCA_PKT_ACK || p.op == HCA_PKT_NAK ||
			    p.op == HCA_PKT_READ_RESP ||
			    p.op == HCA_PKT_ATOMIC_RESP)
				hca_req_input(qp, &p, NULL);
			else
				hca_resp_input(qp, &p);
		}
		if (!taken)
			recv(hca_fabric_fd, &p, sizeof(p), MSG_DONTWAIT);
	}
	return done;
}
