// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The simulated HCA as Debian's libibverbs + libmlx5 (rdma-core 44) see
 * it: RC loopback pairs on mlx5_0 execute SEND/IMM, RDMA WRITE/READ,
 * atomics and DM (MEMIC) MRs with the bytes checked, and each error
 * completion arrives with its status: remote access (bad rkey, MR without
 * REMOTE_WRITE), local protection (bad lkey), local length at the
 * responder with remote invalid request at the requester, RNR retry
 * exceeded, transport retry exceeded (no peer), then flushes; the
 * responder's QP_ACCESS_ERR and an SRQ's SRQ_LIMIT_REACHED arrive on the
 * async fd. UD checks the Q_Key, the 40-byte GRH room and the MTU.
 * Usage: debian_engine
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <infiniband/verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "judge.h"
#include "qp_link.h"

#define BUF 4096
#define ACC_ALL                                                                \
	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |                    \
	 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)

struct side {
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;
};

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static uint16_t lid;

static int open_dev(void)
{
	ctx = qp_link_open("mlx5_0", &lid);
	if (!ctx)
		return -1;
	pd = ibv_alloc_pd(ctx);
	return pd ? 0 : -1;
}

static int side_init(struct side *s, enum ibv_qp_type type, int access)
{
	struct ibv_qp_init_attr ia = {
		.qp_type = type,
		.cap = {.max_send_wr = 16,
			.max_recv_wr = 16,
			.max_send_sge = 2,
			.max_recv_sge = 2,
			.max_inline_data = 64},
	};

	memset(s, 0, sizeof(*s));
	s->buf = aligned_alloc(4096, BUF);
	s->cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	if (!s->buf || !s->cq)
		return -1;
	memset(s->buf, 0, BUF);
	s->mr = ibv_reg_mr(pd, s->buf, BUF, access);
	ia.send_cq = ia.recv_cq = s->cq;
	s->qp = ibv_create_qp(pd, &ia);
	return s->mr && s->qp ? 0 : -1;
}

static void side_fini(struct side *s)
{
	if (s->qp)
		ibv_destroy_qp(s->qp);
	if (s->mr)
		ibv_dereg_mr(s->mr);
	if (s->cq)
		ibv_destroy_cq(s->cq);
	free(s->buf);
}

/* RESET -> INIT -> RTR -> RTS towards dest_qpn on this port. */
static int connect_rc(struct ibv_qp *qp, uint32_t dest_qpn, uint8_t timeout,
		      uint8_t retry, uint8_t rnr_retry)
{
	struct qp_link l = qp_link_default(dest_qpn);

	l.dlid = lid;
	l.mtu = IBV_MTU_4096;
	l.psn = 100;
	l.rd_atomic = 4;
	l.min_rnr_timer = 1; /* 0.01 ms */
	l.timeout = timeout;
	l.retry_cnt = retry;
	l.rnr_retry = rnr_retry;
	return qp_link_up(qp, &l);
}

static int pair(struct side *a, struct side *b, uint8_t rnr_retry)
{
	if (side_init(a, IBV_QPT_RC, ACC_ALL) ||
	    side_init(b, IBV_QPT_RC, ACC_ALL))
		return -1;
	if (connect_rc(a->qp, b->qp->qp_num, 14, 7, rnr_retry) ||
	    connect_rc(b->qp, a->qp->qp_num, 14, 7, rnr_retry))
		return -1;
	return 0;
}

/* One completion within 5 s; status -1 if none came. */
static int poll_one(struct ibv_cq *cq, struct ibv_wc *wc)
{
	struct timespec t0, t;
	int n;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		n = ibv_poll_cq(cq, 1, wc);
		if (n)
			return n < 0 ? -1 : (int)wc->status;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec < 5);
	wc->status = -1;
	return -1;
}

/* Nothing completes within 200 ms. */
static int quiet(struct ibv_cq *cq)
{
	struct ibv_wc wc;
	int i;

	for (i = 0; i < 200; i++) {
		if (ibv_poll_cq(cq, 1, &wc))
			return 0;
		usleep(1000);
	}
	return 1;
}

static int post_send(struct ibv_qp *qp, enum ibv_wr_opcode op, uint64_t wr_id,
		     void *addr, uint32_t len, uint32_t lkey, uint64_t raddr,
		     uint32_t rkey)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)addr, .length = len, .lkey = lkey};
	struct ibv_send_wr wr =
				   {
					   .wr_id = wr_id,
					   .sg_list = &sge,
					   .num_sge = 1,
					   .opcode = op,
					   .send_flags = IBV_SEND_SIGNALED,
				   },
			   *bad;

	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	if (op == IBV_WR_SEND_WITH_IMM || op == IBV_WR_RDMA_WRITE_WITH_IMM)
		wr.imm_data = htonl(0x12345678u);
	return ibv_post_send(qp, &wr, &bad);
}

static int post_recv(struct ibv_qp *qp, uint64_t wr_id, void *addr,
		     uint32_t len, uint32_t lkey)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)addr, .length = len, .lkey = lkey};
	struct ibv_recv_wr wr = {.wr_id = wr_id, .sg_list = &sge, .num_sge = 1},
			   *bad;

	return ibv_post_recv(qp, &wr, &bad);
}

/* The next async event within 2 s (the async fd made non-blocking). */
static int async_event(enum ibv_event_type *type, void **obj)
{
	struct ibv_async_event ev;
	struct pollfd p = {.fd = ctx->async_fd, .events = POLLIN};
	int fl = fcntl(ctx->async_fd, F_GETFL);

	fcntl(ctx->async_fd, F_SETFL, fl | O_NONBLOCK);
	if (poll(&p, 1, 2000) != 1 || ibv_get_async_event(ctx, &ev))
		return -1;
	*type = ev.event_type;
	*obj = ev.element.qp; /* the union's pointer, whichever it is */
	ibv_ack_async_event(&ev);
	return 0;
}

static void test_good_ops(void)
{
	struct side a, b;
	struct ibv_send_wr wr = {}, *bad;
	struct ibv_sge sge;
	struct ibv_wc wc;
	uint64_t v;

	if (pair(&a, &b, 7)) {
		CHECK(0, "setup");
		goto out;
	}
	/* SEND with immediate into a posted receive */
	memcpy(a.buf, "hello, hca", 11);
	CHECK(!post_recv(b.qp, 7, b.buf, 64, b.mr->lkey), "post_recv");
	CHECK(!post_send(a.qp, IBV_WR_SEND_WITH_IMM, 1, a.buf, 11, a.mr->lkey,
			 0, 0),
	      "post_send");
	CHECK(poll_one(a.cq, &wc) == IBV_WC_SUCCESS && wc.wr_id == 1 &&
		      wc.opcode == IBV_WC_SEND,
	      "send wc %d op %d", wc.status, wc.opcode);
	CHECK(poll_one(b.cq, &wc) == IBV_WC_SUCCESS && wc.wr_id == 7 &&
		      wc.opcode == IBV_WC_RECV && wc.byte_len == 11 &&
		      (wc.wc_flags & IBV_WC_WITH_IMM) &&
		      wc.imm_data == htonl(0x12345678u) &&
		      wc.src_qp == a.qp->qp_num,
	      "recv wc %d len %u imm %#x", wc.status, wc.byte_len, wc.imm_data);
	CHECK(!memcmp(b.buf, "hello, hca", 11), "payload");
	/* RDMA WRITE, then READ it back into another place */
	memset(a.buf, 0xab, 1000);
	CHECK(!post_send(a.qp, IBV_WR_RDMA_WRITE, 2, a.buf, 1000, a.mr->lkey,
			 (uintptr_t)b.buf + 100, b.mr->rkey),
	      "write");
	CHECK(poll_one(a.cq, &wc) == IBV_WC_SUCCESS &&
		      wc.opcode == IBV_WC_RDMA_WRITE,
	      "write wc %d", wc.status);
	CHECK(b.buf[100] == 0xab && b.buf[1099] == 0xab && b.buf[1100] == 0,
	      "written bytes");
	CHECK(!post_send(a.qp, IBV_WR_RDMA_READ, 3, a.buf + 2000, 1000,
			 a.mr->lkey, (uintptr_t)b.buf + 100, b.mr->rkey),
	      "read");
	CHECK(poll_one(a.cq, &wc) == IBV_WC_SUCCESS &&
		      wc.opcode == IBV_WC_RDMA_READ && wc.byte_len == 1000,
	      "read wc %d len %u", wc.status, wc.byte_len);
	CHECK(a.buf[2000] == 0xab && a.buf[2999] == 0xab, "read bytes");
	/* atomics: fetch-add then compare-and-swap on b.buf+8 */
	v = 40;
	memcpy(b.buf + 8, &v, 8);
	sge = (struct ibv_sge){.addr = (uintptr_t)a.buf + 3000,
			       .length = 8,
			       .lkey = a.mr->lkey};
	wr.wr_id = 4;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.atomic.remote_addr = (uintptr_t)b.buf + 8;
	wr.wr.atomic.rkey = b.mr->rkey;
	wr.wr.atomic.compare_add = 2;
	CHECK(!ibv_post_send(a.qp, &wr, &bad), "fetch-add");
	CHECK(poll_one(a.cq, &wc) == IBV_WC_SUCCESS &&
		      wc.opcode == IBV_WC_FETCH_ADD && wc.byte_len == 8,
	      "fa wc %d", wc.status);
	memcpy(&v, a.buf + 3000, 8);
	CHECK(v == 40, "fetch-add returned %llu", (unsigned long long)v);
	wr.opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
	wr.wr.atomic.compare_add = 42;
	wr.wr.atomic.swap = 7;
	CHECK(!ibv_post_send(a.qp, &wr, &bad), "cmp-swap");
	CHECK(poll_one(a.cq, &wc) == IBV_WC_SUCCESS &&
		      wc.opcode == IBV_WC_COMP_SWAP,
	      "cs wc %d", wc.status);
	memcpy(&v, b.buf + 8, 8);
	CHECK(v == 7, "swapped value %llu", (unsigned long long)v);
out:
	side_fini(&a);
	side_fini(&b);
}

/* One failing WQE and one behind it: the error, then a flush. */
static void expect_error(struct side *a, int st, const char *what)
{
	struct ibv_wc wc;

	CHECK(poll_one(a->cq, &wc) == st, "%s: status %d, want %d", what,
	      wc.status, st);
	CHECK(poll_one(a->cq, &wc) == IBV_WC_WR_FLUSH_ERR, "%s: flush %d", what,
	      wc.status);
}

static void test_remote_access(void)
{
	struct side a, b;

	if (pair(&a, &b, 7)) {
		CHECK(0, "setup");
		goto out;
	}
	post_send(a.qp, IBV_WR_RDMA_WRITE, 1, a.buf, 64, a.mr->lkey,
		  (uintptr_t)b.buf, b.mr->rkey ^ 0x5500);
	post_send(a.qp, IBV_WR_RDMA_WRITE, 2, a.buf, 64, a.mr->lkey,
		  (uintptr_t)b.buf, b.mr->rkey);
	expect_error(&a, IBV_WC_REM_ACCESS_ERR, "bad rkey");
	{
		enum ibv_event_type t = 0;
		void *o = NULL;

		CHECK(!async_event(&t, &o) && t == IBV_EVENT_QP_ACCESS_ERR &&
			      o == b.qp,
		      "responder event %d", t);
	}
out:
	side_fini(&a);
	side_fini(&b);
}

static void test_remote_access_flags(void)
{
	struct side a, b;

	/* b's MR may be written locally only */
	if (side_init(&a, IBV_QPT_RC, ACC_ALL) ||
	    side_init(&b, IBV_QPT_RC, IBV_ACCESS_LOCAL_WRITE) ||
	    connect_rc(a.qp, b.qp->qp_num, 14, 7, 7) ||
	    connect_rc(b.qp, a.qp->qp_num, 14, 7, 7)) {
		CHECK(0, "setup");
		goto out;
	}
	post_send(a.qp, IBV_WR_RDMA_WRITE, 1, a.buf, 64, a.mr->lkey,
		  (uintptr_t)b.buf, b.mr->rkey);
	post_send(a.qp, IBV_WR_RDMA_READ, 2, a.buf, 64, a.mr->lkey,
		  (uintptr_t)b.buf, b.mr->rkey);
	expect_error(&a, IBV_WC_REM_ACCESS_ERR, "no REMOTE_WRITE");
	CHECK(b.buf[0] == 0, "the write must not land");
out:
	side_fini(&a);
	side_fini(&b);
}

static void test_local_protection(void)
{
	struct side a, b;

	if (pair(&a, &b, 7)) {
		CHECK(0, "setup");
		goto out;
	}
	post_recv(b.qp, 1, b.buf, 64, b.mr->lkey);
	post_send(a.qp, IBV_WR_SEND, 1, a.buf, 64, a.mr->lkey + 0x1000, 0, 0);
	post_send(a.qp, IBV_WR_SEND, 2, a.buf, 64, a.mr->lkey, 0, 0);
	expect_error(&a, IBV_WC_LOC_PROT_ERR, "bad lkey");
	/* outside the MR with the right key */
	side_fini(&a);
	side_fini(&b);
	if (pair(&a, &b, 7)) {
		CHECK(0, "setup");
		goto out;
	}
	post_send(a.qp, IBV_WR_RDMA_WRITE, 1, a.buf + BUF - 32, 64, a.mr->lkey,
		  (uintptr_t)b.buf, b.mr->rkey);
	post_send(a.qp, IBV_WR_SEND, 2, a.buf, 64, a.mr->lkey, 0, 0);
	expect_error(&a, IBV_WC_LOC_PROT_ERR, "beyond the MR");
out:
	side_fini(&a);
	side_fini(&b);
}

static void test_length(void)
{
	struct side a, b;
	struct ibv_wc wc;

	if (pair(&a, &b, 7)) {
		CHECK(0, "setup");
		goto out;
	}
	post_recv(b.qp, 9, b.buf, 32, b.mr->lkey);
	post_recv(b.qp, 10, b.buf, 32, b.mr->lkey);
	post_send(a.qp, IBV_WR_SEND, 1, a.buf, 128, a.mr->lkey, 0, 0);
	post_send(a.qp, IBV_WR_SEND, 2, a.buf, 8, a.mr->lkey, 0, 0);
	CHECK(poll_one(b.cq, &wc) == IBV_WC_LOC_LEN_ERR && wc.wr_id == 9,
	      "responder: status %d", wc.status);
	CHECK(poll_one(b.cq, &wc) == IBV_WC_WR_FLUSH_ERR && wc.wr_id == 10,
	      "responder flush: status %d", wc.status);
	expect_error(&a, IBV_WC_REM_INV_REQ_ERR, "requester");
out:
	side_fini(&a);
	side_fini(&b);
}

static void test_rnr(void)
{
	struct side a, b;

	if (pair(&a, &b, 1)) { /* one RNR retry, no receive posted */
		CHECK(0, "setup");
		goto out;
	}
	post_send(a.qp, IBV_WR_SEND, 1, a.buf, 8, a.mr->lkey, 0, 0);
	post_send(a.qp, IBV_WR_SEND, 2, a.buf, 8, a.mr->lkey, 0, 0);
	expect_error(&a, IBV_WC_RNR_RETRY_EXC_ERR, "no receive");
out:
	side_fini(&a);
	side_fini(&b);
}

static void test_rnr_then_recv(void)
{
	struct side a, b;
	struct ibv_wc wc;

	if (pair(&a, &b, 7)) { /* retry forever: a late receive wins */
		CHECK(0, "setup");
		goto out;
	}
	memcpy(a.buf, "late", 4);
	post_send(a.qp, IBV_WR_SEND, 1, a.buf, 4, a.mr->lkey, 0, 0);
	CHECK(quiet(a.cq), "completed before a receive was posted");
	post_recv(b.qp, 5, b.buf, 64, b.mr->lkey);
	CHECK(poll_one(a.cq, &wc) == IBV_WC_SUCCESS, "send: %d", wc.status);
	CHECK(poll_one(b.cq, &wc) == IBV_WC_SUCCESS && wc.byte_len == 4 &&
		      !memcmp(b.buf, "late", 4),
	      "recv: %d", wc.status);
out:
	side_fini(&a);
	side_fini(&b);
}

static void test_retry_exceeded(void)
{
	struct side a, b;
	uint32_t gone;

	/* connect a to b, then b disappears: nobody answers */
	if (side_init(&a, IBV_QPT_RC, ACC_ALL) ||
	    side_init(&b, IBV_QPT_RC, ACC_ALL)) {
		CHECK(0, "setup");
		goto out;
	}
	gone = b.qp->qp_num;
	ibv_destroy_qp(b.qp);
	b.qp = NULL;
	if (connect_rc(a.qp, gone, 1, 2, 7)) { /* 8 us timeout, 2 retries */
		CHECK(0, "connect");
		goto out;
	}
	post_send(a.qp, IBV_WR_RDMA_WRITE, 1, a.buf, 8, a.mr->lkey, 0x1000,
		  0x100);
	post_send(a.qp, IBV_WR_SEND, 2, a.buf, 8, a.mr->lkey, 0, 0);
	expect_error(&a, IBV_WC_RETRY_EXC_ERR, "peer gone");
out:
	side_fini(&a);
	side_fini(&b);
}

static void test_dm(void)
{
	struct ibv_alloc_dm_attr da = {.length = 4096};
	uint8_t out[256];
	struct side a, b;
	struct ibv_mr *dmr;
	struct ibv_dm *dm;
	struct ibv_wc wc;

	if (pair(&a, &b, 7)) {
		CHECK(0, "setup");
		goto out;
	}
	dm = ibv_alloc_dm(ctx, &da);
	if (!dm) {
		CHECK(0, "alloc_dm: %s", strerror(errno));
		goto out;
	}
	dmr = ibv_reg_dm_mr(pd, dm, 0, 4096,
			    IBV_ACCESS_ZERO_BASED | IBV_ACCESS_LOCAL_WRITE |
				    IBV_ACCESS_REMOTE_WRITE |
				    IBV_ACCESS_REMOTE_READ);
	CHECK(dmr, "reg_dm_mr: %s", strerror(errno));
	if (dmr) {
		/* host -> device memory by RDMA WRITE, back by the CPU */
		memset(a.buf, 0x5c, 256);
		post_send(a.qp, IBV_WR_RDMA_WRITE, 1, a.buf, 256, a.mr->lkey,
			  64, dmr->rkey);
		CHECK(poll_one(a.cq, &wc) == IBV_WC_SUCCESS, "dm write %d",
		      wc.status);
		CHECK(!ibv_memcpy_from_dm(out, dm, 64, 256) && out[0] == 0x5c &&
			      out[255] == 0x5c,
		      "bytes in MEMIC");
		/* device memory as the gather list of a SEND */
		post_recv(b.qp, 3, b.buf, 256, b.mr->lkey);
		post_send(a.qp, IBV_WR_SEND, 2, (void *)64, 256, dmr->lkey, 0,
			  0);
		CHECK(poll_one(a.cq, &wc) == IBV_WC_SUCCESS, "dm send %d",
		      wc.status);
		CHECK(poll_one(b.cq, &wc) == IBV_WC_SUCCESS &&
			      b.buf[0] == 0x5c && b.buf[255] == 0x5c,
		      "dm payload %d", wc.status);
		ibv_dereg_mr(dmr);
	}
	ibv_free_dm(dm);
out:
	side_fini(&a);
	side_fini(&b);
}

static void test_srq_limit(void)
{
	struct ibv_srq_init_attr sa = {.attr = {.max_wr = 16, .max_sge = 1}};
	struct ibv_qp_init_attr ia = {
		.qp_type = IBV_QPT_RC,
		.cap = {.max_send_wr = 8, .max_send_sge = 1}};
	struct ibv_srq_attr lim = {.srq_limit = 3};
	struct ibv_recv_wr wr, *bad;
	enum ibv_event_type t = 0;
	struct side a, b;
	struct ibv_sge sge;
	struct ibv_srq *srq;
	struct ibv_wc wc;
	void *o = NULL;
	int i;

	memset(&b, 0, sizeof(b));
	if (side_init(&a, IBV_QPT_RC, ACC_ALL)) {
		CHECK(0, "setup");
		goto out;
	}
	b.buf = aligned_alloc(4096, BUF);
	b.cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	b.mr = ibv_reg_mr(pd, b.buf, BUF, ACC_ALL);
	srq = ibv_create_srq(pd, &sa);
	if (!b.cq || !b.mr || !srq) {
		CHECK(0, "srq setup");
		goto out;
	}
	ia.send_cq = ia.recv_cq = b.cq;
	ia.srq = srq;
	b.qp = ibv_create_qp(pd, &ia);
	if (!b.qp || connect_rc(a.qp, b.qp->qp_num, 14, 7, 7) ||
	    connect_rc(b.qp, a.qp->qp_num, 14, 7, 7)) {
		CHECK(0, "connect");
		goto out;
	}
	sge = (struct ibv_sge){
		.addr = (uintptr_t)b.buf, .length = 64, .lkey = b.mr->lkey};
	wr = (struct ibv_recv_wr){.sg_list = &sge, .num_sge = 1};
	for (i = 0; i < 4; i++) {
		wr.wr_id = 100 + i;
		CHECK(!ibv_post_srq_recv(srq, &wr, &bad), "post_srq_recv");
	}
	CHECK(!ibv_modify_srq(srq, &lim, IBV_SRQ_LIMIT), "arm the limit");
	/* 4 -> 3 WQEs: not below the limit yet; 3 -> 2: the event */
	post_send(a.qp, IBV_WR_SEND, 1, a.buf, 8, a.mr->lkey, 0, 0);
	CHECK(poll_one(b.cq, &wc) == IBV_WC_SUCCESS && wc.wr_id == 100,
	      "srq recv %d id %llu", wc.status, (unsigned long long)wc.wr_id);
	CHECK(async_event(&t, &o), "limit event too early (%d)", t);
	post_send(a.qp, IBV_WR_SEND, 2, a.buf, 8, a.mr->lkey, 0, 0);
	CHECK(poll_one(b.cq, &wc) == IBV_WC_SUCCESS && wc.wr_id == 101,
	      "srq recv %d", wc.status);
	CHECK(!async_event(&t, &o) && t == IBV_EVENT_SRQ_LIMIT_REACHED &&
		      o == srq,
	      "limit event %d", t);
	CHECK(!ibv_query_srq(srq, &lim) && lim.srq_limit == 0,
	      "limit after the event %u", lim.srq_limit);
	ibv_destroy_qp(b.qp);
	b.qp = NULL;
	ibv_destroy_srq(srq);
out:
	side_fini(&a);
	side_fini(&b);
}

static int ud_ready(struct ibv_qp *qp, uint32_t qkey)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = 1, .qkey = qkey};

	if (ibv_modify_qp(qp, &a,
			  IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				  IBV_QP_QKEY))
		return -1;
	a.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE))
		return -1;
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN);
}

static void test_ud(void)
{
	struct ibv_ah_attr aa = {.dlid = lid, .port_num = 1};
	struct ibv_send_wr wr = {}, *bad;
	struct ibv_sge sge, two[2];
	struct side a, b;
	struct ibv_ah *ah;
	struct ibv_wc wc;

	if (side_init(&a, IBV_QPT_UD, ACC_ALL) ||
	    side_init(&b, IBV_QPT_UD, ACC_ALL) || ud_ready(a.qp, 0x11) ||
	    ud_ready(b.qp, 0x22) || !(ah = ibv_create_ah(pd, &aa))) {
		CHECK(0, "setup");
		goto out;
	}
	memcpy(a.buf, "datagram", 8);
	sge = (struct ibv_sge){
		.addr = (uintptr_t)a.buf, .length = 8, .lkey = a.mr->lkey};
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_SEND;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = b.qp->qp_num;
	post_recv(b.qp, 1, b.buf, 40 + 64, b.mr->lkey);
	/* wrong Q_Key: sent, and dropped by the receiving port */
	wr.wr.ud.remote_qkey = 0x33;
	CHECK(!ibv_post_send(a.qp, &wr, &bad), "post");
	CHECK(poll_one(a.cq, &wc) == IBV_WC_SUCCESS, "ud send %d", wc.status);
	CHECK(quiet(b.cq), "a datagram with a wrong Q_Key was received");
	wr.wr.ud.remote_qkey = 0x22;
	CHECK(!ibv_post_send(a.qp, &wr, &bad), "post");
	CHECK(poll_one(a.cq, &wc) == IBV_WC_SUCCESS, "ud send %d", wc.status);
	CHECK(poll_one(b.cq, &wc) == IBV_WC_SUCCESS && wc.byte_len == 48 &&
		      wc.src_qp == a.qp->qp_num,
	      "ud recv %d len %u", wc.status, wc.byte_len);
	CHECK(!memcmp(b.buf + 40, "datagram", 8), "payload after the GRH");
	/* 6000 bytes in one datagram: more than the 4096-byte MTU */
	two[0] = two[1] = sge;
	two[0].length = two[1].length = 3000;
	wr.sg_list = two;
	wr.num_sge = 2;
	CHECK(!ibv_post_send(a.qp, &wr, &bad), "post");
	CHECK(poll_one(a.cq, &wc) == IBV_WC_LOC_LEN_ERR,
	      "ud beyond the MTU: %d", wc.status);
	ibv_destroy_ah(ah);
out:
	side_fini(&a);
	side_fini(&b);
}

int main(void)
{
	if (open_dev()) {
		fprintf(stderr, "no mlx5_0\n");
		return 1;
	}
	test_good_ops();
	test_remote_access();
	test_remote_access_flags();
	test_local_protection();
	test_length();
	test_rnr();
	test_rnr_then_recv();
	test_retry_exceeded();
	test_dm();
	test_srq_limit();
	test_ud();
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	if (failures) {
		fprintf(stderr, "debian_engine: %d failure(s)\n", failures);
		return 1;
	}
	printf("debian_engine: ok\n");
	return 0;
}
