// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Event files: an async fd and a completion channel are readable for
 * poll/epoll exactly while events wait; read gives one descriptor
 * (EINVAL for a short buffer, EAGAIN when empty and non-blocking), write
 * is EINVAL; the QP's own EVENT_FD gets its events; destroy reports how
 * many were read and drops the unread ones. The events: SQ_DRAINED on
 * entering SQD (rxe always, mlx5 when asked) and mlx5's LAST_WQE_REACHED
 * for a QP on an SRQ entering ERR.
 */
#include "verbs.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/epoll.h>
#include <unistd.h>

enum { EV_SQ_DRAINED = 5, EV_LAST_WQE = 16 };
enum { RC = 2, RTS = 3, SQD = 4, ERR = 6 };

/* Non-blocking, so that a missing event fails instead of hanging. */
static int async_fd(int fd)
{
	struct raw_ioctl c;
	int efd;

	raw_init(&c, UVERBS_OBJECT_ASYNC_EVENT,
		 UVERBS_METHOD_ASYNC_EVENT_ALLOC);
	raw_attr(&c, UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, 0, 0);
	if (raw_call(fd, &c))
		return -1;
	efd = (int)c.attrs[0].data;
	fcntl(efd, F_SETFL, fcntl(efd, F_GETFL) | O_NONBLOCK);
	return efd;
}

static int readable(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

static int epoll_ready(int ep)
{
	struct epoll_event ev;

	return epoll_wait(ep, &ev, 1, 0);
}

/* An empty event file: not readable, EAGAIN, no write. */
static void check_empty(int efd, size_t desc)
{
	uint8_t buf[16];

	EXPECT(!readable(efd), "empty event fd %d is readable", efd);
	fcntl(efd, F_SETFL, fcntl(efd, F_GETFL) | O_NONBLOCK);
	EXPECT(read(efd, buf, desc) < 0 && errno == EAGAIN,
	       "empty non-blocking read: %s", strerrorname_np(errno));
	EXPECT(write(efd, buf, 8) < 0 && errno == EINVAL,
	       "write on an event fd: %s", strerrorname_np(errno));
}

/* The QP goes to SQD (RTS first) or ERR; the state change raises. */
static void raise_event(int fd, uint32_t qp, uint8_t to)
{
	struct ib_uverbs_modify_qp m;

	if (to == SQD) {
		EXPECT_ERR(v_drive(fd, qp, RC, SQD), 0);
		return;
	}
	EXPECT_ERR(v_drive(fd, qp, RC, RTS), 0);
	v_modify_base(&m, qp, to, 1);
	EXPECT_ERR(raw_modify_qp(fd, &m), 0);
}

static void expect_event(int efd, int ep, uint32_t type)
{
	struct ib_uverbs_async_event_desc d = {}, big[2];

	EXPECT(readable(efd), "no event is waiting");
	EXPECT(epoll_ready(ep) == 1, "epoll does not see the event");
	/* too short a buffer: EINVAL, and the event stays */
	EXPECT(read(efd, &d, 8) < 0 && errno == EINVAL, "short read: %s",
	       strerrorname_np(errno));
	/* a longer buffer still gets one descriptor */
	EXPECT(read(efd, big, sizeof(big)) == sizeof(d), "read the event");
	d = big[0];
	EXPECT(d.element == 0x5678 && d.event_type == type && !d.reserved,
	       "event %u element %#llx, want %u", d.event_type,
	       (unsigned long long)d.element, type);
	EXPECT(!readable(efd) && epoll_ready(ep) == 0,
	       "still readable after its one event");
}

/* One QP, its event on the context's default async fd (efd). */
static void check_async(int fd, int efd, uint32_t pd, uint32_t cq)
{
	struct epoll_event ev = {.events = EPOLLIN};
	uint32_t qp, srq = ~0u, seen = 9;
	int ep = epoll_create1(0);
	uint8_t to = v_rxe ? SQD : ERR;
	struct v_qp_req r;

	EXPECT(efd >= 0, "no async fd");
	epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev);
	check_empty(efd, sizeof(struct ib_uverbs_async_event_desc));
	v_qp_req_init(&r, pd, cq, RC);
	if (!v_rxe) { /* mlx5: a QP on an SRQ reports its last WQE */
		EXPECT_ERR(v_create_srq(fd, pd, 16, 1, &srq), 0);
		r.srq = srq;
	}
	EXPECT_ERR(v_create_qp(fd, &r, &qp, NULL), 0);
	raise_event(fd, qp, to);
	expect_event(efd, ep, v_rxe ? EV_SQ_DRAINED : EV_LAST_WQE);
	EXPECT_ERR(raw_destroy_qp(fd, qp, &seen), 0);
	EXPECT(seen == 1, "destroy reports %u events read", seen);
	/* an unread event goes with its QP */
	EXPECT_ERR(v_create_qp(fd, &r, &qp, NULL), 0);
	raise_event(fd, qp, to);
	EXPECT(readable(efd), "second event not queued");
	EXPECT_ERR(raw_destroy_qp(fd, qp, &seen), 0);
	EXPECT(seen == 0 && !readable(efd) && epoll_ready(ep) == 0,
	       "destroy left its unread event (reported %u)", seen);
	if (srq != ~0u)
		EXPECT_ERR(raw_destroy_srq(fd, srq), 0);
	close(ep);
}

/* mlx5 raises SQ_DRAINED only when asked (en_sqd_async_notify); a QP
 * created with its own EVENT_FD reports there, not on the default. */
static void check_sqd_notify(int fd, int dflt, uint32_t pd, uint32_t cq)
{
	struct ib_uverbs_modify_qp m;
	int efd = async_fd(fd);
	struct v_qp_req r;
	uint32_t qp;

	v_qp_req_init(&r, pd, cq, RC);
	r.event_fd = efd;
	EXPECT_ERR(v_create_qp_ioctl(fd, &r, 0, &qp, NULL), 0);
	EXPECT_ERR(v_drive(fd, qp, RC, RTS), 0);
	v_modify_base(&m, qp, SQD, 1); /* no EN_SQD_ASYNC_NOTIFY */
	EXPECT_ERR(raw_modify_qp(fd, &m), 0);
	EXPECT(readable(efd) == v_rxe, "SQ_DRAINED unasked: %d (rxe %d)",
	       readable(efd), v_rxe);
	EXPECT(!readable(dflt), "the QP's event went to the default fd");
	raw_destroy_qp(fd, qp, NULL);
	r.event_fd = fd; /* not an event file */
	EXPECT_ERR(v_create_qp_ioctl(fd, &r, 0, &qp, NULL), EBADF);
	close(efd);
}

/* A completion channel: 8-byte events, the same file rules. */
static void check_channel(int fd)
{
	uint32_t cq;
	int ch;

	EXPECT_ERR(v_create_channel(fd, &ch), 0);
	EXPECT(fcntl(ch, F_GETFD) & FD_CLOEXEC, "channel fd not O_CLOEXEC");
	check_empty(ch, sizeof(struct ib_uverbs_comp_event_desc));
	EXPECT_ERR(v_create_cq(fd, 16, 0, ch, &cq, NULL), 0);
	EXPECT(!readable(ch), "a CQ without completions made it readable");
	/* the CQ keeps the channel's queue after the fd is closed */
	close(ch);
	EXPECT_ERR(raw_destroy_cq(fd, cq, NULL), 0);
}

void v_check_events(void)
{
	struct ib_uverbs_async_event_desc desc[1];
	uint32_t pd, cq;
	int fd = v_env(&pd, &cq), efd;

	if (fd < 0)
		return;
	efd = async_fd(fd); /* the first: the context's default */
	check_async(fd, efd, pd, cq);
	check_sqd_notify(fd, efd, pd, cq);
	check_channel(fd);
	close(fd);
	/* the context is gone: an empty async file reads EIO */
	EXPECT(read(efd, desc, sizeof(desc)) < 0 && errno == EIO,
	       "read after the context closed: %s", strerrorname_np(errno));
	close(efd);
}
