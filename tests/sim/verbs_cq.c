// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * CQ create (ioctl, write, ex write), resize, notify and destroy: the
 * device limits of the driver, the completion-vector and flags checks,
 * event-file attributes, EBUSY while a QP uses the CQ.
 */
#include "verbs.h"

#include <errno.h>
#include <unistd.h>

#define MLX5_MAX_CQE ((1u << 22) - 1)
#define RXE_MAX_CQE  ((1u << 15) - 1)

static uint32_t max_cqe(void)
{
	return v_rxe ? RXE_MAX_CQE : MLX5_MAX_CQE;
}

static void check_limits(int fd)
{
	uint32_t h, got = 0;

	EXPECT_ERR(v_create_cq(fd, 16, 0, -1, &h, &got), 0);
	EXPECT(got >= 16, "cqe %u granted for 16", got);
	EXPECT_ERR(raw_destroy_cq(fd, h, NULL), 0);
	EXPECT_ERR(v_create_cq(fd, max_cqe(), 0, -1, &h, NULL), 0);
	EXPECT_ERR(raw_destroy_cq(fd, h, NULL), 0);
	EXPECT_ERR(v_create_cq(fd, max_cqe() + 1, 0, -1, &h, NULL), EINVAL);
	EXPECT_ERR(v_create_cq_ioctl(fd, max_cqe() + 1, 0, -1, -1, 0, &h),
		   EINVAL);
	/* rxe_cq_chk_attr refuses cqe 0; mlx5_ib takes it (one entry) */
	EXPECT_ERR(v_create_cq(fd, 0, 0, -1, &h, NULL), v_rxe ? EINVAL : 0);
	if (!v_rxe)
		EXPECT_ERR(raw_destroy_cq(fd, h, NULL), 0);
	/* two completion vectors */
	EXPECT_ERR(v_create_cq(fd, 16, 1, -1, &h, NULL), 0);
	EXPECT_ERR(raw_destroy_cq(fd, h, NULL), 0);
	EXPECT_ERR(v_create_cq(fd, 16, 2, -1, &h, NULL), EINVAL);
	EXPECT_ERR(v_create_cq_ioctl(fd, 16, 2, -1, -1, 0, &h), EINVAL);
}

static void check_flags(int fd)
{
	uint32_t h;

	/* FLAGS_IN: a bit outside the method's set */
	EXPECT_ERR(v_create_cq_ioctl(fd, 16, 0, -1, -1, 4, &h), EINVAL);
	/* timestamps: mlx5 has them, rxe takes no flags */
	EXPECT_ERR(v_create_cq_ioctl(fd, 16, 0, -1, -1,
				     IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION,
				     &h),
		   v_rxe ? EOPNOTSUPP : 0);
	if (v_rxe)
		return;
	EXPECT_ERR(
		raw_destroy(fd, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY, h),
		EINVAL); /* the mandatory RESP attr is missing */
	EXPECT_ERR(raw_destroy_cq(fd, h, NULL), 0);
}

/* EX_CREATE_CQ: comp_mask and reserved must be 0. */
static void check_ex(int fd)
{
	struct ib_uverbs_ex_create_cq_resp r;
	struct ib_uverbs_ex_create_cq c = {.cqe = 16, .comp_channel = -1};

	c.comp_mask = 1;
	EXPECT_ERR(raw_write_ex(fd, IB_USER_VERBS_EX_CMD_CREATE_CQ, &c,
				sizeof(c), &r, sizeof(r)),
		   EINVAL);
	c.comp_mask = 0;
	c.reserved = 1;
	EXPECT_ERR(raw_write_ex(fd, IB_USER_VERBS_EX_CMD_CREATE_CQ, &c,
				sizeof(c), &r, sizeof(r)),
		   EINVAL);
	c.reserved = 0;
	c.comp_vector = 2;
	EXPECT_ERR(raw_write_ex(fd, IB_USER_VERBS_EX_CMD_CREATE_CQ, &c,
				sizeof(c), &r, sizeof(r)),
		   EINVAL);
}

/* Event-file attributes name event files of this context only. */
static void check_event_fds(int fd)
{
	int ch, other = v_open(), other_ch = -1;
	uint32_t h;

	EXPECT_ERR(v_create_channel(fd, &ch), 0);
	EXPECT_ERR(v_create_channel(other, &other_ch), 0);
	EXPECT_ERR(v_create_cq_ioctl(fd, 16, 0, ch, -1, 0, &h), 0);
	EXPECT_ERR(raw_destroy_cq(fd, h, NULL), 0);
	EXPECT_ERR(v_create_cq(fd, 16, 0, ch, &h, NULL), 0);
	EXPECT_ERR(raw_destroy_cq(fd, h, NULL), 0);
	EXPECT_ERR(v_create_cq_ioctl(fd, 16, 0, fd, -1, 0, &h), EBADF);
	EXPECT_ERR(v_create_cq_ioctl(fd, 16, 0, other_ch, -1, 0, &h), EBADF);
	EXPECT_ERR(v_create_cq_ioctl(fd, 16, 0, -1, ch, 0, &h), EBADF);
	EXPECT_ERR(v_create_cq(fd, 16, 0, 0, &h, NULL), EBADF);
	EXPECT_ERR(v_create_cq(fd, 16, 0, other_ch, &h, NULL), EBADF);
	close(other_ch);
	close(other);
	close(ch);
}

static int resize(int fd, uint32_t h, uint32_t cqe, uint32_t *got)
{
	uint8_t r[sizeof(struct ib_uverbs_resize_cq_resp) + 16] = {};
	struct ib_uverbs_resize_cq_resp core;
	struct ib_uverbs_resize_cq c = {
		.response = (uintptr_t)r, .cq_handle = h, .cqe = cqe};
	int ret = raw_write(fd, IB_USER_VERBS_CMD_RESIZE_CQ, &c, sizeof(c),
			    sizeof(r));

	memcpy(&core, r, sizeof(core)); /* a driver tail follows it */
	*got = core.cqe;
	return ret;
}

static void check_resize_notify(int fd)
{
	struct ib_uverbs_req_notify_cq n = {.solicited_only = 1};
	uint32_t h, got = 0;

	EXPECT_ERR(v_create_cq(fd, 16, 0, -1, &h, NULL), 0);
	EXPECT_ERR(resize(fd, h, 0, &got), EINVAL);
	EXPECT_ERR(resize(fd, h, max_cqe() + 1, &got), EINVAL);
	EXPECT_ERR(resize(fd, 0xdead, 64, &got), ENOENT);
	if (v_rxe) { /* rxe: a new ring, slots - 1 entries */
		EXPECT_ERR(resize(fd, h, 100, &got), 0);
		EXPECT(got == 127, "resize to 100 gave %u", got);
	}
	n.cq_handle = h;
	EXPECT_ERR(raw_write(fd, IB_USER_VERBS_CMD_REQ_NOTIFY_CQ, &n, sizeof(n),
			     0),
		   0);
	n.cq_handle = 0xdead;
	EXPECT_ERR(raw_write(fd, IB_USER_VERBS_CMD_REQ_NOTIFY_CQ, &n, sizeof(n),
			     0),
		   ENOENT);
	EXPECT_ERR(raw_destroy_cq(fd, h, NULL), 0);
}

static void check_destroy(int fd)
{
	struct ib_uverbs_destroy_cq_resp r = {1, 1};
	struct v_qp_req q;
	uint32_t pd, cq, cq2, qp;

	EXPECT_ERR(raw_alloc_pd(fd, &pd), 0);
	EXPECT_ERR(v_create_cq(fd, 16, 0, -1, &cq, NULL), 0);
	EXPECT_ERR(v_create_cq(fd, 16, 0, -1, &cq2, NULL), 0);
	v_qp_req_init(&q, pd, cq, 2);
	q.recv_cq = cq2;
	EXPECT_ERR(v_create_qp(fd, &q, &qp, NULL), 0);
	/* both CQs, and the PD, are in use */
	EXPECT_ERR(raw_destroy_cq(fd, cq, NULL), EBUSY);
	EXPECT_ERR(raw_destroy_cq(fd, cq2, NULL), EBUSY);
	EXPECT_ERR(raw_destroy_pd(fd, pd), EBUSY);
	EXPECT_ERR(raw_destroy_cq(fd, pd, NULL), EINVAL); /* a PD's handle */
	EXPECT_ERR(raw_destroy_qp(fd, qp, NULL), 0);
	EXPECT_ERR(raw_destroy_cq(fd, cq, &r), 0);
	EXPECT(!r.comp_events_reported && !r.async_events_reported,
	       "fresh CQ reported %u/%u events", r.comp_events_reported,
	       r.async_events_reported);
	EXPECT_ERR(raw_destroy_cq(fd, cq, NULL), ENOENT);
	EXPECT_ERR(raw_destroy_attr(fd, UVERBS_OBJECT_CQ,
				    UVERBS_METHOD_CQ_DESTROY,
				    UVERBS_ATTR_DESTROY_CQ_HANDLE, cq2),
		   EINVAL); /* RESP is mandatory */
	EXPECT_ERR(raw_destroy_cq(fd, cq2, NULL), 0);
	EXPECT_ERR(raw_destroy_pd(fd, pd), 0);
}

void v_check_cq(void)
{
	int fd = v_open();

	if (fd < 0) {
		EXPECT(0, "no context");
		return;
	}
	check_limits(fd);
	check_flags(fd);
	check_ex(fd);
	check_event_fds(fd);
	check_resize_notify(fd);
	check_destroy(fd);
	close(fd);
}
