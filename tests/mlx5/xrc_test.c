// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * XRC on rdma-sim through our libibverbs + libmlx5, checked from the
 * receiving side:
 *  - ibv_open_xrcd's rules (comp_mask, EBADF, EAGAIN, O_CREAT, O_EXCL, a
 *    private domain), XRC SRQs and their numbers, XRC_RECV QPs created and
 *    opened (ibv_open_qp's errnos), ibv_close_xrcd while in use (EBUSY);
 *  - traffic: one XRC_SEND QP reaching two XRC SRQs behind one XRC_RECV
 *    QP by SRQ number (ibv_post_send and ibv_wr_set_xrc_srqn): the bytes
 *    in each SRQ's buffer, the completion on each SRQ's CQ with the TGT
 *    QP's number; RDMA WRITE and FETCH_ADD through the TGT QP; a number no
 *    SRQ of the domain has → IBV_WC_REM_INV_REQ_ERR;
 *  - two processes: the child opens the parent's domain through the same
 *    file without O_CREAT (it exists), O_EXCL there is EINVAL, and its TGT
 *    QP and SRQ receive what the parent's INI QP sends;
 *  - an XRC SRQ in another process than the TGT QP: SENDs alternating
 *    between the parent's SRQs and the child's through one TGT QP, and an
 *    RDMA WRITE into the child's memory naming its SRQ;
 *  - fds and mappings after teardown, and the domain gone with its last
 *    handle (EAGAIN without O_CREAT).
 *
 * usage: xrc_test NDEV
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "dm_util.h"
#include "rdma_util.h"
#include "check_exit.h"
#include "qp_link.h"

#define MSG   8192
#define DEPTH 16

#define CHECK_ERRNO(call, want)                                                \
	do {                                                                   \
		errno = 0;                                                     \
		CHECK(!(call) && errno == (want), "%s: want errno %d", #call,  \
		      (want));                                                 \
	} while (0)

static char xrcd_path[] = "/tmp/rdma-dm-xrc-XXXXXX";
static struct ibv_device *dev0; /* the initiator's device */

/* The receiving end: a domain, an XRC SRQ with its CQ, a TGT QP. */
struct target {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_xrcd *xrcd;
	int fd;
	struct ibv_cq *cq[2];
	struct ibv_srq *srq[2];
	uint32_t srqn[2];
	struct ibv_qp *tgt;
	uint8_t *buf; /* [0, MSG) SRQ 0, [MSG, 2 MSG) SRQ 1, then RDMA */
	struct ibv_mr *mr;
};

/* The sending end: an XRC_SEND QP with its CQ. */
struct initiator {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_qp_ex *qpx;
	uint8_t *buf;
	struct ibv_mr *mr;
};

static struct ibv_xrcd *open_xrcd(struct ibv_context *ctx, int fd, int oflags)
{
	struct ibv_xrcd_init_attr a = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
		.fd = fd,
		.oflags = oflags,
	};

	return ibv_open_xrcd(ctx, &a);
}

static struct ibv_srq *xrc_srq(struct target *t, struct ibv_cq *cq)
{
	struct ibv_srq_init_attr_ex a = {
		.attr = {.max_wr = DEPTH, .max_sge = 1},
		.comp_mask = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD |
			     IBV_SRQ_INIT_ATTR_XRCD | IBV_SRQ_INIT_ATTR_CQ,
		.srq_type = IBV_SRQT_XRC,
		.pd = t->pd,
		.xrcd = t->xrcd,
		.cq = cq,
	};

	return ibv_create_srq_ex(t->ctx, &a);
}

static struct ibv_qp *tgt_qp(struct ibv_context *ctx, struct ibv_xrcd *xrcd)
{
	struct ibv_qp_init_attr_ex a = {
		.qp_type = IBV_QPT_XRC_RECV,
		.comp_mask = IBV_QP_INIT_ATTR_XRCD,
		.xrcd = xrcd,
	};

	return ibv_create_qp_ex(ctx, &a);
}

static void target_open(struct target *t, struct ibv_device *dev, int oflags)
{
	int i;

	memset(t, 0, sizeof(*t));
	t->ctx = ibv_open_device(dev);
	CHECK(t->ctx, "open device");
	t->pd = ibv_alloc_pd(t->ctx);
	CHECK(t->pd, "alloc pd");
	t->fd = open(xrcd_path, O_RDONLY);
	CHECK(t->fd >= 0, "open %s", xrcd_path);
	t->xrcd = open_xrcd(t->ctx, t->fd, oflags);
	CHECK(t->xrcd, "open xrcd");
	t->buf = aligned_alloc(4096, 4 * MSG);
	CHECK(t->buf, "alloc");
	memset(t->buf, 0, 4 * MSG);
	t->mr = ibv_reg_mr(t->pd, t->buf, 4 * MSG,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ |
				   IBV_ACCESS_REMOTE_ATOMIC);
	CHECK(t->mr, "reg mr");
	for (i = 0; i < 2; i++) {
		t->cq[i] = ibv_create_cq(t->ctx, DEPTH, NULL, NULL, 0);
		CHECK(t->cq[i], "cq");
		t->srq[i] = xrc_srq(t, t->cq[i]);
		CHECK(t->srq[i], "xrc srq");
		CHECK(!ibv_get_srq_num(t->srq[i], &t->srqn[i]), "srq num");
	}
	CHECK(t->srqn[0] != t->srqn[1], "two SRQs, one number %u", t->srqn[0]);
	t->tgt = tgt_qp(t->ctx, t->xrcd);
	CHECK(t->tgt, "tgt qp");
	CHECK(!t->tgt->pd && !t->tgt->send_cq && !t->tgt->recv_cq &&
		      !t->tgt->srq,
	      "a TGT QP has none of PD, CQs, SRQ");
}

static void target_close(struct target *t)
{
	int i;

	CHECK(!t->tgt || !ibv_destroy_qp(t->tgt), "destroy tgt");
	for (i = 0; i < 2; i++) {
		CHECK(!ibv_destroy_srq(t->srq[i]), "destroy srq");
		CHECK(!ibv_destroy_cq(t->cq[i]), "destroy cq");
	}
	CHECK(!ibv_dereg_mr(t->mr), "dereg");
	CHECK(!ibv_close_xrcd(t->xrcd), "close xrcd");
	CHECK(!ibv_dealloc_pd(t->pd), "dealloc pd");
	CHECK(!ibv_close_device(t->ctx), "close device");
	close(t->fd);
	free(t->buf);
}

static void post_srq_recv(struct target *t, int i, uint64_t wr_id)
{
	struct ibv_sge s = {(uintptr_t)t->buf + (size_t)i * MSG, MSG,
			    t->mr->lkey};
	struct ibv_recv_wr wr = {.wr_id = wr_id, .sg_list = &s, .num_sge = 1};
	struct ibv_recv_wr *bad;

	CHECK(!ibv_post_srq_recv(t->srq[i], &wr, &bad), "post srq recv");
}

static void initiator_open(struct initiator *n, struct ibv_device *dev)
{
	struct ibv_qp_init_attr_ex a = {
		.qp_type = IBV_QPT_XRC_SEND,
		/* an INI QP has no RQ: max_recv_wr must not move the SQ */
		.cap = {.max_send_wr = DEPTH, .max_send_sge = 1,
			.max_recv_wr = 4, .max_recv_sge = 1},
		.comp_mask =
			IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.send_ops_flags =
			IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_RDMA_WRITE,
	};

	memset(n, 0, sizeof(*n));
	n->ctx = ibv_open_device(dev);
	CHECK(n->ctx, "open device");
	n->pd = ibv_alloc_pd(n->ctx);
	CHECK(n->pd, "pd");
	n->cq = ibv_create_cq(n->ctx, 2 * DEPTH, NULL, NULL, 0);
	CHECK(n->cq, "cq");
	n->buf = aligned_alloc(4096, 2 * MSG);
	CHECK(n->buf, "alloc");
	n->mr = ibv_reg_mr(n->pd, n->buf, 2 * MSG, IBV_ACCESS_LOCAL_WRITE);
	CHECK(n->mr, "mr");
	a.pd = n->pd;
	a.send_cq = n->cq;
	n->qp = ibv_create_qp_ex(n->ctx, &a);
	CHECK(n->qp, "xrc send qp");
	CHECK(!n->qp->recv_cq && !n->qp->srq, "an INI QP does not receive");
	n->qpx = ibv_qp_to_qp_ex(n->qp);
	CHECK(n->qpx && n->qpx->wr_set_xrc_srqn, "wr_set_xrc_srqn");
}

static void initiator_close(struct initiator *n)
{
	CHECK(!ibv_destroy_qp(n->qp), "destroy qp");
	CHECK(!ibv_dereg_mr(n->mr), "dereg");
	CHECK(!ibv_destroy_cq(n->cq), "destroy cq");
	CHECK(!ibv_dealloc_pd(n->pd), "dealloc pd");
	CHECK(!ibv_close_device(n->ctx), "close");
	free(n->buf);
}

static uint16_t lid_of(struct ibv_context *ctx)
{
	struct ibv_port_attr pa;

	CHECK(!ibv_query_port(ctx, 1, &pa), "query port");
	return pa.lid;
}

static void link_up(struct ibv_qp *qp, uint32_t dest, uint16_t lid)
{
	struct qp_link l = qp_link_default(dest);

	l.dlid = lid;
	CHECK(!qp_link_up(qp, &l), "qp %#x to RTS", qp->qp_num);
}

static struct ibv_wc wait_one(struct ibv_cq *cq)
{
	struct ibv_wc wc;

	CHECK(cq_wait(cq, &wc), "no completion");
	return wc;
}

/* SEND len bytes from the INI buffer to SRQ number srqn (post_send). */
static void send_to(struct initiator *n, uint32_t srqn, uint32_t len,
		    uint64_t wr_id)
{
	struct ibv_sge s = {(uintptr_t)n->buf, len, n->mr->lkey};
	struct ibv_send_wr wr =
				   {
					   .wr_id = wr_id,
					   .sg_list = &s,
					   .num_sge = 1,
					   .opcode = IBV_WR_SEND,
					   .send_flags = IBV_SEND_SIGNALED,
				   },
			   *bad;

	wr.qp_type.xrc.remote_srqn = srqn;
	CHECK(!ibv_post_send(n->qp, &wr, &bad), "post send");
}

static void expect_recv(struct target *t, int i, uint64_t wr_id,
			const uint8_t *want, uint32_t len)
{
	struct ibv_wc wc = wait_one(t->cq[i]);

	CHECK(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV,
	      "srq %d: status %d opcode %d", i, wc.status, wc.opcode);
	CHECK(wc.wr_id == wr_id && wc.byte_len == len, "wr_id %llu len %u",
	      (unsigned long long)wc.wr_id, wc.byte_len);
	CHECK(wc.qp_num == t->tgt->qp_num, "qp_num %#x, TGT %#x", wc.qp_num,
	      t->tgt->qp_num);
	CHECK(!memcmp(t->buf + (size_t)i * MSG, want, len),
	      "SRQ %d's buffer holds other bytes", i);
}

static void expect_send_ok(struct initiator *n, uint64_t wr_id)
{
	struct ibv_wc wc = wait_one(n->cq);

	CHECK(wc.status == IBV_WC_SUCCESS && wc.wr_id == wr_id,
	      "send status %d wr_id %llu", wc.status,
	      (unsigned long long)wc.wr_id);
}

/* A SEND of MSG pattern bytes (seed) to our SRQ i: the receive posted,
 * both completions and the bytes checked. */
static void send_here(struct initiator *n, struct target *t, int i,
		      uint64_t send_id, uint64_t recv_id, int seed)
{
	post_srq_recv(t, i, recv_id);
	fill_pattern(n->buf, MSG, seed);
	send_to(n, t->srqn[i], MSG, send_id);
	expect_send_ok(n, send_id);
	expect_recv(t, i, recv_id, n->buf, MSG);
}

/* Both SRQs by number, with ibv_post_send and with ibv_wr_*. */
static void traffic(struct initiator *n, struct target *t)
{
	uint64_t *word = (uint64_t *)(t->buf + 3 * MSG);
	int i;

	for (i = 0; i < 2; i++)
		send_here(n, t, i, 10 + i, 100 + i, 7 + i);
	/* the other send API: the SRQ number is a setter of its own */
	post_srq_recv(t, 1, 200);
	fill_pattern(n->buf, 300, 99);
	ibv_wr_start(n->qpx);
	n->qpx->wr_id = 20;
	n->qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send(n->qpx);
	ibv_wr_set_sge(n->qpx, n->mr->lkey, (uintptr_t)n->buf, 300);
	ibv_wr_set_xrc_srqn(n->qpx, t->srqn[1]);
	CHECK(!ibv_wr_complete(n->qpx), "wr_complete");
	expect_send_ok(n, 20);
	expect_recv(t, 1, 200, n->buf, 300);
	/* RDMA WRITE through the TGT QP: the SRQ number still names the
	 * domain's SRQ (and its PD) */
	fill_pattern(n->buf, MSG, 41);
	ibv_wr_start(n->qpx);
	n->qpx->wr_id = 21;
	n->qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_rdma_write(n->qpx, t->mr->rkey, (uintptr_t)t->buf + 2 * MSG);
	ibv_wr_set_xrc_srqn(n->qpx, t->srqn[0]);
	ibv_wr_set_sge(n->qpx, n->mr->lkey, (uintptr_t)n->buf, MSG);
	CHECK(!ibv_wr_complete(n->qpx), "wr_complete");
	expect_send_ok(n, 21);
	CHECK(!memcmp(t->buf + 2 * MSG, n->buf, MSG), "RDMA WRITE bytes");
	/* an atomic: the old value comes back, the new one stays */
	*word = 40;
	{
		struct ibv_sge s = {(uintptr_t)n->buf, 8, n->mr->lkey};
		struct ibv_send_wr
			wr =
				{
					.wr_id = 22,
					.sg_list = &s,
					.num_sge = 1,
					.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
					.send_flags = IBV_SEND_SIGNALED,
				},
			*bad;

		wr.wr.atomic.remote_addr = (uintptr_t)word;
		wr.wr.atomic.rkey = t->mr->rkey;
		wr.wr.atomic.compare_add = 2;
		wr.qp_type.xrc.remote_srqn = t->srqn[1];
		CHECK(!ibv_post_send(n->qp, &wr, &bad), "post FA");
	}
	expect_send_ok(n, 22);
	CHECK(*(uint64_t *)n->buf == 40 && *word == 42, "FA %llu -> %llu",
	      (unsigned long long)*(uint64_t *)n->buf,
	      (unsigned long long)*word);
}

static void domain_rules(struct ibv_context *ctx, struct ibv_pd *pd)
{
	struct ibv_xrcd_init_attr a = {.fd = -1, .oflags = O_CREAT};
	char path[] = "/tmp/rdma-dm-xrc-new-XXXXXX";
	struct ibv_xrcd *x, *y;
	int fd = mkstemp(path);

	CHECK(fd >= 0, "mkstemp");
	a.comp_mask = IBV_XRCD_INIT_ATTR_RESERVED | IBV_XRCD_INIT_ATTR_FD |
		      IBV_XRCD_INIT_ATTR_OFLAGS;
	CHECK_ERRNO(ibv_open_xrcd(ctx, &a), EOPNOTSUPP);
	a.comp_mask = IBV_XRCD_INIT_ATTR_FD;
	CHECK_ERRNO(ibv_open_xrcd(ctx, &a), EINVAL);
	CHECK_ERRNO(open_xrcd(ctx, 999, O_CREAT), EBADF);
	/* a file nobody opened a domain on */
	CHECK_ERRNO(open_xrcd(ctx, fd, 0), EAGAIN);
	x = open_xrcd(ctx, fd, O_CREAT);
	CHECK(x, "O_CREAT");
	CHECK_ERRNO(open_xrcd(ctx, fd, O_CREAT | O_EXCL), EINVAL);
	CHECK_ERRNO(open_xrcd(ctx, fd, O_EXCL), EINVAL);
	y = open_xrcd(ctx, fd, 0); /* the same domain, a second handle */
	CHECK(y, "open existing");
	CHECK(!ibv_close_xrcd(y) && !ibv_close_xrcd(x), "close both");
	/* the last handle took the domain with it */
	CHECK_ERRNO(open_xrcd(ctx, fd, 0), EAGAIN);
	/* fd -1: a private domain, whatever oflags say */
	x = open_xrcd(ctx, -1, O_EXCL);
	CHECK(x, "private xrcd");
	CHECK(!ibv_close_xrcd(x), "close private");
	(void)pd;
	close(fd);
	unlink(path);
}

static void object_rules(struct target *t)
{
	struct ibv_srq_init_attr_ex sa = {
		.attr = {.max_wr = 4, .max_sge = 1},
		.comp_mask = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD |
			     IBV_SRQ_INIT_ATTR_XRCD,
		.srq_type = IBV_SRQT_XRC,
		.pd = t->pd,
		.xrcd = t->xrcd,
	};
	struct ibv_qp_init_attr_ex qa = {
		.qp_type = IBV_QPT_XRC_RECV,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = t->pd,
	};
	struct ibv_qp_open_attr oa = {
		.comp_mask = IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_XRCD |
			     IBV_QP_OPEN_ATTR_TYPE,
		.qp_num = t->tgt->qp_num,
		.xrcd = t->xrcd,
		.qp_type = IBV_QPT_XRC_RECV,
	};
	struct ibv_qp_attr attr;
	struct ibv_qp_init_attr init;
	struct ibv_qp *opened;

	CHECK_ERRNO(ibv_create_srq_ex(t->ctx, &sa), EINVAL); /* no CQ */
	CHECK_ERRNO(ibv_create_qp_ex(t->ctx, &qa), EINVAL);  /* no XRCD */
	/* the domain is in use by SRQs and the TGT QP */
	CHECK(ibv_close_xrcd(t->xrcd) == EBUSY, "close in use");
	oa.comp_mask |= IBV_QP_OPEN_ATTR_RESERVED;
	CHECK_ERRNO(ibv_open_qp(t->ctx, &oa), EOPNOTSUPP);
	oa.comp_mask = IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_TYPE;
	CHECK_ERRNO(ibv_open_qp(t->ctx, &oa), EINVAL);
	oa.comp_mask |= IBV_QP_OPEN_ATTR_XRCD;
	oa.qp_type = IBV_QPT_RC;
	CHECK_ERRNO(ibv_open_qp(t->ctx, &oa), EINVAL);
	oa.qp_type = IBV_QPT_XRC_RECV;
	oa.qp_num = t->tgt->qp_num + 1000;
	CHECK_ERRNO(ibv_open_qp(t->ctx, &oa), EINVAL);
	oa.qp_num = t->tgt->qp_num;
	opened = ibv_open_qp(t->ctx, &oa);
	CHECK(opened, "open qp");
	CHECK(opened->qp_num == t->tgt->qp_num &&
		      opened->state == IBV_QPS_UNKNOWN && !opened->pd,
	      "opened: qpn %#x state %d", opened->qp_num, opened->state);
	/* query through the opened handle reaches the QP itself */
	CHECK(!ibv_query_qp(opened, &attr, IBV_QP_STATE, &init), "query");
	CHECK(attr.qp_state == IBV_QPS_RTS, "state %d", attr.qp_state);
	CHECK(!ibv_destroy_qp(opened), "close the open");
	CHECK(!ibv_query_qp(t->tgt, &attr, IBV_QP_STATE, &init) &&
		      attr.qp_state == IBV_QPS_RTS,
	      "the QP outlives its opener");
}

/* A number no SRQ of the domain has: the TGT QP NAKs the request. */
static void bad_srqn(struct initiator *n, struct target *t)
{
	struct ibv_wc wc;

	send_to(n, t->srqn[0] ^ 0x5a5a, 64, 30);
	wc = wait_one(n->cq);
	CHECK(wc.status == IBV_WC_REM_INV_REQ_ERR, "status %d", wc.status);
}

static struct ibv_qp *open_tgt(struct ibv_context *ctx, struct ibv_xrcd *xrcd,
			       uint32_t qpn)
{
	struct ibv_qp_open_attr oa = {
		.comp_mask = IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_XRCD |
			     IBV_QP_OPEN_ATTR_TYPE,
		.qp_num = qpn,
		.xrcd = xrcd,
		.qp_type = IBV_QPT_XRC_RECV,
	};

	return ibv_open_qp(ctx, &oa);
}

static void expect_state(struct ibv_qp *qp, enum ibv_qp_state want)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;

	CHECK(!ibv_query_qp(qp, &attr, IBV_QP_STATE, &init) &&
		      attr.qp_state == want,
	      "qp %#x: state %d, want %d", qp->qp_num, attr.qp_state, want);
}

/* The next async event of ctx (5 s at most): its type and QP. */
static void expect_event(struct ibv_context *ctx, enum ibv_event_type type,
			 struct ibv_qp *qp)
{
	struct pollfd pfd = {.fd = ctx->async_fd, .events = POLLIN};
	struct ibv_async_event ev;

	CHECK(poll(&pfd, 1, 5000) == 1, "no async event");
	CHECK(!ibv_get_async_event(ctx, &ev), "get async event");
	CHECK(ev.event_type == type && ev.element.qp == qp,
	      "event %d on %p, want %d on %p", ev.event_type,
	      (void *)ev.element.qp, type, (void *)qp);
	ibv_ack_async_event(&ev);
}

/*
 * The TGT QP belongs to its domain: with handles opened on two contexts,
 * the creator's handle goes (no EBUSY) and the QP lives on through them,
 * still receiving; its async event reaches every handle; it is destroyed
 * with the last one (OPEN_QP of its number is EINVAL then).
 */
static void shared_qp(struct initiator *n, struct target *t)
{
	struct ibv_context *ctx2 = ibv_open_device(t->ctx->device);
	uint32_t qpn = t->tgt->qp_num;
	struct ibv_qp *h1, *h2;
	struct ibv_xrcd *x2;

	CHECK(ctx2, "second context");
	x2 = open_xrcd(ctx2, t->fd, 0);
	CHECK(x2, "the domain on the second context");
	h1 = open_tgt(t->ctx, t->xrcd, qpn);
	h2 = open_tgt(ctx2, x2, qpn);
	CHECK(h1 && h2, "open on both contexts");
	CHECK(!ibv_destroy_qp(t->tgt), "destroy the creator's handle");
	t->tgt = h1;
	expect_state(h2, IBV_QPS_RTS);
	send_here(n, t, 0, 70, 500, 800);
	/* an error of the QP: its event on each handle, the QP in ERR */
	bad_srqn(n, t);
	expect_event(t->ctx, IBV_EVENT_QP_REQ_ERR, h1);
	expect_event(ctx2, IBV_EVENT_QP_REQ_ERR, h2);
	expect_state(h1, IBV_QPS_ERR);
	CHECK(!ibv_destroy_qp(h1), "destroy h1");
	t->tgt = NULL;
	expect_state(h2, IBV_QPS_ERR);
	CHECK(!ibv_destroy_qp(h2), "destroy the last handle");
	CHECK_ERRNO(open_tgt(t->ctx, t->xrcd, qpn), EINVAL);
	CHECK(!ibv_close_xrcd(x2), "close xrcd 2");
	CHECK(!ibv_close_device(ctx2), "close context 2");
}

/* The child: a target in another process on the parent's domain. */
static int child(struct ibv_device *dev, int sock)
{
	struct target t;
	uint32_t msg[3];
	int fd;

	fd = open(xrcd_path, O_RDONLY);
	CHECK(fd >= 0, "open");
	/* the parent's domain exists: no O_CREAT needed, O_EXCL refused */
	target_open(&t, dev, 0);
	CHECK_ERRNO(open_xrcd(t.ctx, fd, O_CREAT | O_EXCL), EINVAL);
	close(fd);
	post_srq_recv(&t, 1, 77);
	msg[0] = t.tgt->qp_num;
	msg[1] = t.srqn[1];
	msg[2] = lid_of(t.ctx);
	CHECK(write(sock, msg, sizeof(msg)) == sizeof(msg), "send info");
	CHECK(read(sock, msg, sizeof(msg)) == sizeof(msg), "peer info");
	link_up(t.tgt, msg[0], (uint16_t)msg[2]);
	CHECK(write(sock, msg, 4) == 4, "ready");
	{
		uint8_t want[MSG];

		fill_pattern(want, MSG, 1234);
		expect_recv(&t, 1, 77, want, MSG);
	}
	CHECK(write(sock, msg, 4) == 4, "done");
	CHECK(read(sock, msg, 4) == 4, "parent finished");
	target_close(&t);
	return 0;
}

/* The child runs this program again (a fresh process, as perftest's
 * server and client are): xrc_test MODE NDEV SOCKET PATH; sv[0] is our
 * end of the socket to it. */
static pid_t spawn(const char *mode, int ndev, int sv[2])
{
	pid_t pid;

	CHECK(!socketpair(AF_UNIX, SOCK_STREAM, 0, sv), "socketpair");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (!pid) {
		char nd[16], sock[16];

		close(sv[0]);
		snprintf(nd, sizeof(nd), "%d", ndev);
		snprintf(sock, sizeof(sock), "%d", sv[1]);
		execl("/proc/self/exe", "xrc_test", mode, nd, sock, xrcd_path,
		      (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	return pid;
}

/* A target in a child process on our domain, our INI QP sending to it. */
static void two_processes(int ndev)
{
	struct initiator n;
	uint32_t msg[3], srqn;
	int sv[2], status;
	pid_t pid;

	pid = spawn("child", ndev, sv);
	initiator_open(&n, dev0);
	CHECK(read(sv[0], msg, sizeof(msg)) == sizeof(msg), "child info");
	srqn = msg[1];
	link_up(n.qp, msg[0], (uint16_t)msg[2]);
	{
		uint32_t mine[3] = {n.qp->qp_num, 0, lid_of(n.ctx)};

		CHECK(write(sv[0], mine, sizeof(mine)) == sizeof(mine), "info");
	}
	CHECK(read(sv[0], msg + 1, 4) == 4, "child ready");
	fill_pattern(n.buf, MSG, 1234);
	send_to(&n, srqn, MSG, 5);
	expect_send_ok(&n, 5);
	CHECK(read(sv[0], msg, 4) == 4, "child got it");
	CHECK(write(sv[0], msg, 4) == 4, "bye");
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		      !WEXITSTATUS(status),
	      "child status %#x", status);
	initiator_close(&n);
	close(sv[0]);
}

/*
 * The SRQ child: only an XRC SRQ (and its CQ, PD, MR) on the parent's
 * domain and a handle OPEN_QP gave it on the parent's TGT QP; the QP
 * hands it the messages that name its SRQ. It checks two SENDs (bytes,
 * CQE with the TGT QP's number), lets the parent RDMA WRITE into its
 * memory, sees the QP's access error event on its handle, and closes the
 * last handle of the QP.
 */
static int srq_child(struct ibv_device *dev, int sock)
{
	struct target t;
	uint32_t msg[3], tgtn;
	uint8_t want[MSG];
	int i;

	memset(&t, 0, sizeof(t));
	t.ctx = ibv_open_device(dev);
	CHECK(t.ctx, "open device");
	t.pd = ibv_alloc_pd(t.ctx);
	CHECK(t.pd, "pd");
	t.fd = open(xrcd_path, O_RDONLY);
	CHECK(t.fd >= 0, "open");
	t.xrcd = open_xrcd(t.ctx, t.fd, 0);
	CHECK(t.xrcd, "the parent's domain");
	t.buf = aligned_alloc(4096, 4 * MSG);
	CHECK(t.buf, "alloc");
	memset(t.buf, 0, 4 * MSG);
	t.mr = ibv_reg_mr(t.pd, t.buf, 4 * MSG,
			  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	CHECK(t.mr, "mr");
	t.cq[0] = ibv_create_cq(t.ctx, DEPTH, NULL, NULL, 0);
	CHECK(t.cq[0], "cq");
	t.srq[0] = xrc_srq(&t, t.cq[0]);
	CHECK(t.srq[0] && !ibv_get_srq_num(t.srq[0], &t.srqn[0]), "srq");
	post_srq_recv(&t, 0, 300);
	msg[0] = t.srqn[0];
	msg[1] = t.mr->rkey;
	msg[2] = 0;
	CHECK(write(sock, msg, sizeof(msg)) == sizeof(msg), "info");
	CHECK(write(sock, &t.buf, sizeof(t.buf)) == sizeof(t.buf), "addr");
	CHECK(read(sock, &tgtn, 4) == 4, "TGT QP number");
	/* the QP another process made: opened through the domain */
	t.tgt = open_tgt(t.ctx, t.xrcd, tgtn);
	CHECK(t.tgt && t.tgt->qp_num == tgtn, "open the parent's TGT QP");
	expect_state(t.tgt, IBV_QPS_RTS);
	CHECK(write(sock, msg, 4) == 4, "opened");
	for (i = 0; i < 2; i++) {
		fill_pattern(want, MSG, 500 + i);
		expect_recv(&t, 0, 300 + i, want, MSG);
		post_srq_recv(&t, 0, 301 + i);
		CHECK(write(sock, msg, 4) == 4, "got it");
	}
	CHECK(read(sock, msg, 4) == 4, "written");
	fill_pattern(want, MSG, 600);
	CHECK(!memcmp(t.buf + 2 * MSG, want, MSG), "RDMA WRITE bytes");
	/* a WRITE outside the MR, found here: the event on our handle */
	expect_event(t.ctx, IBV_EVENT_QP_ACCESS_ERR, t.tgt);
	expect_state(t.tgt, IBV_QPS_ERR);
	CHECK(read(sock, msg, 4) == 4, "parent heard");
	CHECK(!ibv_destroy_qp(t.tgt), "close our handle");
	CHECK(!ibv_destroy_srq(t.srq[0]), "destroy srq");
	CHECK(!ibv_destroy_cq(t.cq[0]), "destroy cq");
	CHECK(!ibv_dereg_mr(t.mr), "dereg");
	CHECK(!ibv_close_xrcd(t.xrcd), "close xrcd");
	CHECK(!ibv_dealloc_pd(t.pd), "dealloc pd");
	CHECK(!ibv_close_device(t.ctx), "close");
	close(t.fd);
	free(t.buf);
	CHECK(write(sock, msg, 4) == 4, "bye");
	return 0;
}

/* RDMA WRITE len bytes of the INI buffer to raddr under rkey, through the
 * TGT QP to XRC SRQ srqn's domain side (ibv_wr_*). */
static void write_to(struct initiator *n, uint32_t srqn, uint32_t rkey,
		     uint8_t *raddr, uint32_t len, uint64_t wr_id)
{
	ibv_wr_start(n->qpx);
	n->qpx->wr_id = wr_id;
	n->qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_rdma_write(n->qpx, rkey, (uintptr_t)raddr);
	ibv_wr_set_xrc_srqn(n->qpx, srqn);
	ibv_wr_set_sge(n->qpx, n->mr->lkey, (uintptr_t)n->buf, len);
	CHECK(!ibv_wr_complete(n->qpx), "wr_complete");
}

/*
 * The open child: nothing but a handle OPEN_QP gave it on the parent's
 * TGT QP (no queue, no SRQ); the QP's async event reaches it too.
 */
static int open_child(struct ibv_device *dev, int sock)
{
	struct ibv_context *ctx = ibv_open_device(dev);
	struct ibv_xrcd *x;
	struct ibv_qp *h;
	uint32_t tgtn;
	int fd;

	CHECK(ctx, "open device");
	fd = open(xrcd_path, O_RDONLY);
	CHECK(fd >= 0, "open");
	x = open_xrcd(ctx, fd, 0);
	CHECK(x, "the parent's domain");
	CHECK(read(sock, &tgtn, 4) == 4, "TGT QP number");
	h = open_tgt(ctx, x, tgtn);
	CHECK(h, "open the parent's TGT QP");
	CHECK(write(sock, &tgtn, 4) == 4, "opened");
	expect_event(ctx, IBV_EVENT_QP_ACCESS_ERR, h);
	CHECK(write(sock, &tgtn, 4) == 4, "heard");
	CHECK(read(sock, &tgtn, 4) == 4, "bye");
	CHECK(!ibv_destroy_qp(h), "close the handle");
	CHECK(!ibv_close_xrcd(x), "close xrcd");
	CHECK(!ibv_close_device(ctx), "close");
	close(fd);
	return 0;
}

/*
 * One TGT QP made here, an XRC SRQ of the domain and an OPEN_QP handle of
 * the QP in another process. The creator's handle goes first (the QP
 * lives on in both processes' handles). SENDs alternate between this
 * process's SRQs and the child's through the QP (one PSN sequence across
 * both), an RDMA WRITE naming the child's SRQ lands in the child's memory
 * under its PD, and one beyond its MR puts the QP in ERR: the access
 * error event reaches the handles of both processes, and of a third that
 * only opened the QP. Once the children closed their handles, the QP is
 * gone with ours.
 */
static void srq_elsewhere(struct initiator *n, struct target *t, int ndev)
{
	uint32_t msg[3], tgtn = t->tgt->qp_num;
	struct ibv_qp *h;
	struct ibv_wc wc;
	uint8_t *raddr;
	int sv[2], ov[2], status, i;
	pid_t pid, opener;

	pid = spawn("srqchild", ndev, sv);
	CHECK(read(sv[0], msg, sizeof(msg)) == sizeof(msg), "child info");
	CHECK(read(sv[0], &raddr, sizeof(raddr)) == sizeof(raddr), "addr");
	CHECK(write(sv[0], &tgtn, 4) == 4, "TGT number");
	CHECK(read(sv[0], &status, 4) == 4, "child opened");
	opener = spawn("openchild", ndev, ov);
	CHECK(write(ov[0], &tgtn, 4) == 4 && read(ov[0], &status, 4) == 4,
	      "the open child opened");
	h = open_tgt(t->ctx, t->xrcd, tgtn);
	CHECK(h, "open here too");
	CHECK(!ibv_destroy_qp(t->tgt), "destroy the creator's handle");
	t->tgt = h;
	for (i = 0; i < 2; i++) {
		send_here(n, t, i, 40 + i, 400 + i, 700 + i);
		fill_pattern(n->buf, MSG, 500 + i);
		send_to(n, msg[0], MSG, 50 + i);
		expect_send_ok(n, 50 + i);
		CHECK(read(sv[0], &status, 4) == 4, "child got it");
	}
	fill_pattern(n->buf, MSG, 600);
	write_to(n, msg[0], msg[1], raddr + 2 * MSG, MSG, 60);
	expect_send_ok(n, 60);
	CHECK(write(sv[0], msg, 4) == 4, "written");
	/* beyond the child's MR (4 MSG long) */
	write_to(n, msg[0], msg[1], raddr + 8 * MSG, 64, 61);
	wc = wait_one(n->cq);
	CHECK(wc.wr_id == 61 && wc.status == IBV_WC_REM_ACCESS_ERR,
	      "bad WRITE: status %d", wc.status);
	expect_event(t->ctx, IBV_EVENT_QP_ACCESS_ERR, h);
	CHECK(write(sv[0], msg, 4) == 4, "heard");
	CHECK(read(sv[0], msg, 4) == 4, "child done");
	CHECK(read(ov[0], msg, 4) == 4 && write(ov[0], msg, 4) == 4,
	      "the open child heard");
	CHECK(waitpid(opener, &status, 0) == opener && WIFEXITED(status) &&
		      !WEXITSTATUS(status),
	      "open child status %#x", status);
	close(ov[0]);
	expect_state(h, IBV_QPS_ERR);
	CHECK(!ibv_destroy_qp(h), "destroy the last handle");
	t->tgt = NULL;
	CHECK_ERRNO(open_tgt(t->ctx, t->xrcd, tgtn), EINVAL);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		      !WEXITSTATUS(status),
	      "child status %#x", status);
	close(sv[0]);
}

int main(int argc, char **argv)
{
	int ndev, fd, fds, maps;
	struct ibv_device **devs;
	struct leak_mark mark;
	struct initiator n;
	struct target t;

	devs = ibv_get_device_list(NULL);
	if (argc == 5 && strstr(argv[1], "child")) {
		snprintf(xrcd_path, sizeof(xrcd_path), "%s", argv[4]);
		ndev = (!strcmp(argv[1], "child")      ? child
			: !strcmp(argv[1], "srqchild") ? srq_child
						       : open_child)(
			devs[atoi(argv[2]) - 1], atoi(argv[3]));
		ibv_free_device_list(devs);
		return ndev;
	}
	ndev = argc > 1 ? atoi(argv[1]) : 1;
	CHECK(devs && devs[0] && (ndev < 2 || devs[1]), "devices");
	dev0 = devs[0];
	fd = mkstemp(xrcd_path);
	CHECK(fd >= 0, "mkstemp");
	close(fd);
	sim_warm_up(devs[0]);
	/* first the second process (its packet ring stays mapped here, as
	 * the fabric keeps a peer's ring: not counted below) */
	target_open(&t, devs[ndev - 1], O_CREAT);
	two_processes(ndev); /* the parent holds the domain meanwhile */
	initiator_open(&n, devs[0]);
	link_up(t.tgt, n.qp->qp_num, lid_of(n.ctx));
	link_up(n.qp, t.tgt->qp_num, lid_of(t.ctx));
	srq_elsewhere(&n, &t, ndev);
	initiator_close(&n);
	target_close(&t);
	leak_mark_take(&mark);

	target_open(&t, devs[ndev - 1], O_CREAT);
	domain_rules(t.ctx, t.pd);
	initiator_open(&n, devs[0]);
	link_up(t.tgt, n.qp->qp_num, lid_of(n.ctx));
	link_up(n.qp, t.tgt->qp_num, lid_of(t.ctx));
	object_rules(&t);
	traffic(&n, &t);
	shared_qp(&n, &t);
	initiator_close(&n);
	target_close(&t);
	/* the domain went with the last handle of either process */
	fd = open(xrcd_path, O_RDONLY);
	{
		struct ibv_context *ctx = ibv_open_device(devs[ndev - 1]);

		CHECK(ctx, "open");
		CHECK_ERRNO(open_xrcd(ctx, fd, 0), EAGAIN);
		ibv_close_device(ctx);
	}
	close(fd);
	unlink(xrcd_path);
	leak_mark_recount(&mark, &fds, &maps);
	CHECK(fds == mark.fds && maps == mark.maps,
	      "fds %d -> %d, maps %d -> %d", mark.fds, fds, mark.maps, maps);
	ibv_free_device_list(devs);
	printf("xrc: ok (%d device%s)\n", ndev, ndev > 1 ? "s" : "");
	return 0;
}
