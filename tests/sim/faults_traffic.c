// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Traffic that checks every byte, for runs under `rdma-sim --fault`.
 * One process, QP A on mlx5_0 towards QP B on the last device.
 *
 *   rc ROUNDS [TIMEOUT]
 *                 RC (local ACK timeout TIMEOUT, default 14): each round
 *                 posts an RDMA WRITE (200 KiB), a READ
 *                 back of it, a FETCH_ADD and a CMP_SWAP on B's counters
 *                 and a SEND (70 KiB), all in flight together; every
 *                 completion must be a success and every byte right. An
 *                 atomic executed twice (a duplicate not answered from the
 *                 responder's resources) shows in the counters.
 *   rc2 ROUNDS TIMEOUT
 *                 RC between two processes (B forked after it opened its
 *                 device): per round an RDMA WRITE, a READ back of it and
 *                 a SEND that B checks and answers over a pipe. With a
 *                 short TIMEOUT on a busy host it is the peer's scheduling
 *                 the ACK timer must not count.
 *   rc2 0 TIMEOUT B dies (SIGKILL) once connected and stays unreaped: A's
 *                 WRITEs, which fill B's packet ring, and SEND end in
 *                 RETRY_EXC_ERR (the first) and WR_FLUSH_ERR all the same.
 *   ud COUNT      UD: COUNT numbered messages to B, with a receive posted
 *                 for each; prints "ud received R of COUNT" (R: what the
 *                 wire delivered, each intact and in order).
 *   flap ok|exc   RC SENDs while the port goes down at 300 ms for 300 ms
 *                 (--fault link-flap:at=300,for=300): PORT_ERR and
 *                 PORT_ACTIVE arrive, the port reads DOWN in between; with
 *                 "ok" (timeout 17, 537 ms) everything completes, with
 *                 "exc" (timeout 10, 4 ms) a SEND ends in RETRY_EXC_ERR.
 *   event         (--fault event:type=QP_FATAL,at=1500) the QP_FATAL event
 *                 names A's QP, which is in ERR: a SEND posted then
 *                 completes WR_FLUSH_ERR.
 *   cqe           (--fault cqe-error:wqe=3,status=REM_ACCESS_ERR) the 3rd
 *                 SEND completes REM_ACCESS_ERR, the 4th WR_FLUSH_ERR.
 *   midmsg        (--fault drop:packet=2,dev=1) a two-packet SEND loses
 *                 its second packet; A (retry_cnt 0) fails RETRY_EXC_ERR;
 *                 B, moved to ERR while its receive WQE holds half a
 *                 message, completes that WQE WR_FLUSH_ERR.
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "judge.h"
#include "qp_link.h"

#define WRITE_LEN (200 * 1024)
#define SEND_LEN  (70 * 1024)
#define BUF	  (1024 * 1024)
/* WRITEs to a dead peer: more bytes than its packet ring (1 MiB) holds */
#define GONE_WRITES 6
/* offsets in each side's buffer */
#define W_OFF	 0	       /* WRITE target (B), source (A) */
#define R_OFF	 (256 * 1024)  /* READ destination (A) */
#define S_OFF	 (512 * 1024)  /* SEND source (A), receive (B) */
#define FA_OFF	 (768 * 1024)  /* B: fetch-add counter */
#define CS_OFF	 (FA_OFF + 8)  /* B: compare-swap counter */
#define OLD_OFF	 (FA_OFF + 64) /* A: atomic results */
#define LIMIT_NS (60ull * 1000000000ull)

struct end {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	uint8_t *buf;
	uint16_t lid;
	int gidx; /* RoCE: the IPv4 RoCE v2 GID's index; -1 on IB */
	union ibv_gid gid;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint8_t pattern(unsigned int round, unsigned int i)
{
	return (uint8_t)(round * 131 + i * 7 + (i >> 11));
}

static struct ibv_context *open_dev(int which)
{
	struct ibv_device **l;
	struct ibv_context *c = NULL;
	int n;

	l = ibv_get_device_list(&n);
	if (l && n)
		c = ibv_open_device(l[which < 0 ? n - 1 : which]);
	ibv_free_device_list(l);
	return c;
}

/* RoCE (rxe, mlx5 --link-layer eth): the first RoCE v2 GID of an IPv4
 * address, for a GRH to it. */
static int roce_gid(struct end *e)
{
	static const uint8_t v4[12] = {[10] = 0xff, [11] = 0xff};
	struct ibv_gid_entry g;
	int i;

	for (i = 0; i < 16; i++) {
		if (ibv_query_gid_ex(e->ctx, 1, i, &g, 0) ||
		    g.gid_type != IBV_GID_TYPE_ROCE_V2 ||
		    memcmp(g.gid.raw, v4, sizeof(v4)))
			continue;
		e->gidx = i;
		e->gid = g.gid;
		return 0;
	}
	return -1;
}

/* l's address of peer: its LID, or on RoCE its GID from our index. */
static void link_addr(struct qp_link *l, const struct end *me, uint16_t lid,
		      const union ibv_gid *gid)
{
	l->dlid = lid;
	if (me->gidx < 0)
		return;
	l->dgid = gid;
	l->sgid_index = (uint8_t)me->gidx;
}

static int end_open(struct end *e, int which, enum ibv_qp_type type)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = type,
		.cap = {.max_send_wr = 64,
			.max_recv_wr = 1024,
			.max_send_sge = 1,
			.max_recv_sge = 1},
	};
	struct ibv_port_attr pa;

	e->gidx = -1;
	e->ctx = open_dev(which);
	if (!e->ctx)
		return -1;
	e->pd = ibv_alloc_pd(e->ctx);
	e->buf = calloc(1, BUF);
	e->cq = ibv_create_cq(e->ctx, 2048, NULL, NULL, 0);
	if (!e->pd || !e->buf || !e->cq)
		return -1;
	e->mr = ibv_reg_mr(e->pd, e->buf, BUF,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ |
				   IBV_ACCESS_REMOTE_ATOMIC);
	qa.send_cq = qa.recv_cq = e->cq;
	e->qp = ibv_create_qp(e->pd, &qa);
	if (!e->mr || !e->qp || ibv_query_port(e->ctx, 1, &pa))
		return -1;
	e->lid = pa.lid;
	return pa.link_layer == IBV_LINK_LAYER_ETHERNET ? roce_gid(e) : 0;
}

static void end_close(struct end *e)
{
	if (!e->ctx)
		return;
	ibv_destroy_qp(e->qp);
	ibv_dereg_mr(e->mr);
	ibv_destroy_cq(e->cq);
	ibv_dealloc_pd(e->pd);
	ibv_close_device(e->ctx);
	free(e->buf);
}

static int link_pair(struct end *a, struct end *b, uint8_t timeout)
{
	struct qp_link la = qp_link_default(b->qp->qp_num);
	struct qp_link lb = qp_link_default(a->qp->qp_num);

	link_addr(&la, a, b->lid, &b->gid);
	link_addr(&lb, b, a->lid, &a->gid);
	la.rd_atomic = lb.rd_atomic = 4;
	la.qkey = lb.qkey = 0x1234;
	if (timeout)
		la.timeout = lb.timeout = timeout;
	return qp_link_up(a->qp, &la) || qp_link_up(b->qp, &lb);
}

/* Wait for n completions on cq into wc; the number got before the limit. */
static int wait_wc(struct ibv_cq *cq, struct ibv_wc *wc, int n)
{
	uint64_t end = now_ns() + LIMIT_NS;
	int got = 0, r;

	while (got < n && now_ns() < end) {
		r = ibv_poll_cq(cq, n - got, wc + got);
		if (r < 0)
			break;
		got += r;
	}
	return got;
}

static void sge_of(struct ibv_sge *s, struct end *e, size_t off, uint32_t len)
{
	s->addr = (uintptr_t)(e->buf + off);
	s->length = len;
	s->lkey = e->mr->lkey;
}

static int post_recv(struct end *e, size_t off, uint32_t len, uint64_t id)
{
	struct ibv_recv_wr wr = {.wr_id = id, .num_sge = 1}, *bad;
	struct ibv_sge s;

	sge_of(&s, e, off, len);
	wr.sg_list = &s;
	return ibv_post_recv(e->qp, &wr, &bad);
}

static int post_one(struct end *a, struct end *b, enum ibv_wr_opcode op,
		    size_t off, uint32_t len, size_t roff, uint64_t add,
		    uint64_t swap)
{
	struct ibv_send_wr wr = {.wr_id = op,
				 .num_sge = 1,
				 .opcode = op,
				 .send_flags = IBV_SEND_SIGNALED},
			   *bad;
	struct ibv_sge s;

	sge_of(&s, a, off, len);
	wr.sg_list = &s;
	if (op == IBV_WR_ATOMIC_FETCH_AND_ADD ||
	    op == IBV_WR_ATOMIC_CMP_AND_SWP) {
		wr.wr.atomic.remote_addr = (uintptr_t)(b->buf + roff);
		wr.wr.atomic.rkey = b->mr->rkey;
		wr.wr.atomic.compare_add = add;
		wr.wr.atomic.swap = swap;
	} else {
		wr.wr.rdma.remote_addr = (uintptr_t)(b->buf + roff);
		wr.wr.rdma.rkey = b->mr->rkey;
	}
	return ibv_post_send(a->qp, &wr, &bad);
}

static int check_ok(const struct ibv_wc *wc, int n, const char *what)
{
	int i, bad = 0;

	for (i = 0; i < n; i++)
		if (wc[i].status != IBV_WC_SUCCESS) {
			CHECK(0, "%s: wr %llu status %s", what,
			      (unsigned long long)wc[i].wr_id,
			      ibv_wc_status_str(wc[i].status));
			bad = 1;
		}
	return bad;
}

static int rc_round(struct end *a, struct end *b, unsigned int r)
{
	uint64_t *old = (uint64_t *)(a->buf + OLD_OFF);
	uint64_t *fa = (uint64_t *)(b->buf + FA_OFF);
	struct ibv_wc wc[8];
	unsigned int i;

	for (i = 0; i < WRITE_LEN; i++)
		a->buf[W_OFF + i] = pattern(r, i);
	for (i = 0; i < SEND_LEN; i++)
		a->buf[S_OFF + i] = pattern(r + 1000, i);
	memset(a->buf + R_OFF, 0, WRITE_LEN);
	if (post_recv(b, S_OFF, SEND_LEN, r) ||
	    post_one(a, b, IBV_WR_RDMA_WRITE, W_OFF, WRITE_LEN, W_OFF, 0, 0) ||
	    post_one(a, b, IBV_WR_RDMA_READ, R_OFF, WRITE_LEN, W_OFF, 0, 0) ||
	    post_one(a, b, IBV_WR_ATOMIC_FETCH_AND_ADD, OLD_OFF, 8, FA_OFF, 1,
		     0) ||
	    post_one(a, b, IBV_WR_ATOMIC_CMP_AND_SWP, OLD_OFF + 8, 8, CS_OFF, r,
		     r + 1) ||
	    post_one(a, b, IBV_WR_SEND, S_OFF, SEND_LEN, 0, 0, 0)) {
		CHECK(0, "round %u: post failed", r);
		return -1;
	}
	/* A's five, B's receive: one CQ each */
	if (wait_wc(a->cq, wc, 5) != 5 || check_ok(wc, 5, "requester") ||
	    wait_wc(b->cq, wc + 5, 1) != 1 || check_ok(wc + 5, 1, "receive")) {
		CHECK(0, "round %u: completions missing or in error", r);
		return -1;
	}
	CHECK(wc[5].byte_len == SEND_LEN, "round %u: received %u bytes", r,
	      wc[5].byte_len);
	CHECK(!memcmp(b->buf + W_OFF, a->buf + W_OFF, WRITE_LEN),
	      "round %u: WRITE bytes differ", r);
	CHECK(!memcmp(a->buf + R_OFF, a->buf + W_OFF, WRITE_LEN),
	      "round %u: READ bytes differ", r);
	CHECK(!memcmp(b->buf + S_OFF, a->buf + S_OFF, SEND_LEN),
	      "round %u: SEND bytes differ", r);
	CHECK(old[0] == r && *fa == r + 1,
	      "round %u: FETCH_ADD returned %llu, counter %llu", r,
	      (unsigned long long)old[0], (unsigned long long)*fa);
	CHECK(old[1] == r, "round %u: CMP_SWAP returned %llu", r,
	      (unsigned long long)old[1]);
	return failures ? -1 : 0;
}

static void run_rc(struct end *a, struct end *b, unsigned int rounds,
		   uint8_t timeout)
{
	unsigned int r;

	if (link_pair(a, b, timeout)) {
		CHECK(0, "connect: %s", strerror(errno));
		return;
	}
	for (r = 0; r < rounds && !rc_round(a, b, r); r++)
		;
	printf("rc ok: %u rounds\n", r);
}

struct wire {
	uint32_t qpn, rkey;
	uint16_t lid;
	uint64_t addr;
	union ibv_gid gid;
};

/* B's side of rc2: each SEND checked, its round number back on a pipe. */
static int rc2_target(struct end *b, unsigned int rounds, int rd, int wr)
{
	struct ibv_wc wc;
	unsigned int r, i;

	for (r = 0; r < rounds; r++) {
		if (post_recv(b, S_OFF, SEND_LEN, r) ||
		    wait_wc(b->cq, &wc, 1) != 1 ||
		    wc.status != IBV_WC_SUCCESS || wc.byte_len != SEND_LEN) {
			CHECK(0, "B: round %u receive", r);
			return 1;
		}
		for (i = 0; i < SEND_LEN; i++)
			if (b->buf[S_OFF + i] != pattern(r + 1000, i)) {
				CHECK(0, "B: round %u SEND byte %u", r, i);
				return 1;
			}
		if (write(wr, &r, sizeof(r)) != sizeof(r))
			return 1;
	}
	return read(rd, &r, 1) < 0; /* until A is done */
}

static void run_rc2(struct end *a, unsigned int rounds, uint8_t timeout)
{
	int a2b[2], b2a[2], st;
	struct ibv_mr rmr = {};
	struct end b = {}, rb = {.mr = &rmr};
	struct qp_link l;
	struct wire me, peer;
	struct ibv_wc wc[GONE_WRITES + 1];
	unsigned int r, i, got;
	pid_t pid;

	if (pipe(a2b) || pipe(b2a))
		return;
	pid = fork();
	if (pid == 0) { /* B: a process of its own, with its own device */
		if (end_open(&b, -1, IBV_QPT_RC))
			_exit(1);
		me = (struct wire){b.qp->qp_num, b.mr->rkey, b.lid,
				   (uintptr_t)b.buf, b.gid};
		if (write(b2a[1], &me, sizeof(me)) != sizeof(me) ||
		    read(a2b[0], &peer, sizeof(peer)) != sizeof(peer))
			_exit(1);
		l = qp_link_default(peer.qpn);
		link_addr(&l, &b, peer.lid, &peer.gid);
		l.timeout = timeout;
		if (qp_link_up(b.qp, &l) || write(b2a[1], "r", 1) != 1)
			_exit(1); /* ready: A may send (before, it is lost) */
		close(a2b[1]);
		if (!rounds) /* "gone": die without a word, unreaped */
			kill(getpid(), SIGKILL);
		st = rc2_target(&b, rounds, a2b[0], b2a[1]);
		end_close(&b);
		exit(st); /* with the sim's counters line */
	}
	close(b2a[1]); /* B's end: its death is our EOF */
	me = (struct wire){a->qp->qp_num, a->mr->rkey, a->lid,
			   (uintptr_t)a->buf, a->gid};
	if (pid < 0 || read(b2a[0], &peer, sizeof(peer)) != sizeof(peer) ||
	    write(a2b[1], &me, sizeof(me)) != sizeof(me)) {
		CHECK(0, "fork or exchange");
		return;
	}
	rb.buf = (uint8_t *)(uintptr_t)peer.addr;
	rmr.rkey = peer.rkey;
	l = qp_link_default(peer.qpn);
	link_addr(&l, a, peer.lid, &peer.gid);
	l.timeout = timeout;
	CHECK(!qp_link_up(a->qp, &l), "connect A");
	CHECK(read(b2a[0], &got, 1) == 1, "B did not get ready");
	if (!rounds) {
		/* B is dead (a zombie until we reap it): its ring is still
		 * there, nobody reads it, and the WRITEs (more than its ring
		 * holds: it fills) and the SEND must run out of retries
		 * rather than wait for B's engine to make room */
		while (read(b2a[0], &got, 1) > 0)
			;
		for (i = 0; i < GONE_WRITES; i++)
			CHECK(!post_one(a, &rb, IBV_WR_RDMA_WRITE, W_OFF,
					WRITE_LEN, W_OFF, 0, 0),
			      "WRITE %u to a dead peer", i);
		CHECK(!post_one(a, &rb, IBV_WR_SEND, S_OFF, 64, 0, 0, 0) &&
			      wait_wc(a->cq, wc, GONE_WRITES + 1) ==
				      GONE_WRITES + 1 &&
			      wc[0].status == IBV_WC_RETRY_EXC_ERR &&
			      wc[GONE_WRITES].status == IBV_WC_WR_FLUSH_ERR,
		      "WRITEs and SEND to a dead peer: %s",
		      ibv_wc_status_str(wc[0].status));
		waitpid(pid, &st, 0);
		printf("gone: RETRY_EXC_ERR\n");
		return;
	}
	for (r = 0; r < rounds && !failures; r++) {
		for (i = 0; i < WRITE_LEN; i++)
			a->buf[W_OFF + i] = pattern(r, i);
		for (i = 0; i < SEND_LEN; i++)
			a->buf[S_OFF + i] = pattern(r + 1000, i);
		memset(a->buf + R_OFF, 0, WRITE_LEN);
		if (post_one(a, &rb, IBV_WR_RDMA_WRITE, W_OFF, WRITE_LEN, W_OFF,
			     0, 0) ||
		    post_one(a, &rb, IBV_WR_RDMA_READ, R_OFF, WRITE_LEN, W_OFF,
			     0, 0) ||
		    wait_wc(a->cq, wc, 2) != 2 || check_ok(wc, 2, "A") ||
		    memcmp(a->buf + R_OFF, a->buf + W_OFF, WRITE_LEN)) {
			CHECK(0, "round %u: WRITE/READ back", r);
			break;
		}
		if (post_one(a, &rb, IBV_WR_SEND, S_OFF, SEND_LEN, 0, 0, 0) ||
		    wait_wc(a->cq, wc, 1) != 1 || check_ok(wc, 1, "A SEND") ||
		    read(b2a[0], &got, sizeof(got)) != sizeof(got) || got != r)
			CHECK(0, "round %u: SEND not confirmed by B", r);
	}
	close(a2b[1]);
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st),
	      "B failed");
	printf("rc2 %s: %u rounds\n", failures ? "FAILED" : "ok", r);
}

static void run_ud(struct end *a, struct end *b, unsigned int count)
{
	struct ibv_ah_attr aa = {.dlid = b->lid, .port_num = 1};
	struct ibv_send_wr wr = {.num_sge = 1,
				 .opcode = IBV_WR_SEND,
				 .send_flags = IBV_SEND_SIGNALED},
			   *bad;
	struct ibv_wc wc[16];
	unsigned int i, got = 0, last = 0;
	struct ibv_sge s;
	struct ibv_ah *ah;
	uint64_t quiet;
	int n, k;

	if (a->gidx >= 0) { /* RoCE: a GRH to B's GID */
		aa.is_global = 1;
		aa.grh.dgid = b->gid;
		aa.grh.sgid_index = (uint8_t)a->gidx;
		aa.grh.hop_limit = 64;
	}
	ah = ibv_create_ah(a->pd, &aa);
	if (!ah || link_pair(a, b, 0)) {
		CHECK(0, "UD set-up: %s", strerror(errno));
		return;
	}
	for (i = 0; i < count; i++)
		if (post_recv(b, (size_t)i * 64 % (BUF - 64), 64, i)) {
			CHECK(0, "post_recv %u", i);
			return;
		}
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = b->qp->qp_num;
	wr.wr.ud.remote_qkey = 0x1234;
	for (i = 1; i <= count; i++) {
		memcpy(a->buf, &i, sizeof(i));
		memset(a->buf + 4, (int)i, 20);
		sge_of(&s, a, 0, 24);
		wr.sg_list = &s;
		wr.wr_id = i;
		if (ibv_post_send(a->qp, &wr, &bad) ||
		    wait_wc(a->cq, wc, 1) != 1 || check_ok(wc, 1, "UD send"))
			return;
	}
	/* what arrives, until 300 ms pass without anything */
	for (quiet = now_ns() + 300000000ull; now_ns() < quiet;) {
		n = ibv_poll_cq(b->cq, 16, wc);
		for (k = 0; k < n; k++) {
			const uint8_t *p =
				b->buf + wc[k].wr_id * 64 % (BUF - 64) + 40;
			uint32_t seq;

			memcpy(&seq, p, 4);
			CHECK(wc[k].status == IBV_WC_SUCCESS &&
				      wc[k].byte_len == 64,
			      "UD receive: %s, %u bytes",
			      ibv_wc_status_str(wc[k].status), wc[k].byte_len);
			CHECK(seq > last && seq <= count &&
				      p[4] == (uint8_t)seq &&
				      p[23] == (uint8_t)seq,
			      "UD message %u after %u, or its bytes are wrong",
			      seq, last);
			last = seq;
			got++;
			quiet = now_ns() + 300000000ull;
		}
	}
	printf("ud received %u of %u\n", got, count);
	ibv_destroy_ah(ah);
}

/* The async events of ctx until want arrives (or 5 s pass). */
static int wait_event(struct ibv_context *ctx, enum ibv_event_type want,
		      struct ibv_qp *qp)
{
	struct pollfd p = {.fd = ctx->async_fd, .events = POLLIN};
	struct ibv_async_event ev;
	int found = 0;

	while (!found && poll(&p, 1, 5000) == 1 &&
	       !ibv_get_async_event(ctx, &ev)) {
		found = ev.event_type == want && (!qp || ev.element.qp == qp);
		ibv_ack_async_event(&ev);
	}
	return found;
}

static void run_flap(struct end *a, struct end *b, int expect_ok)
{
	struct ibv_port_attr pa;
	struct ibv_wc wc[64];
	unsigned int i, sent = 0, done = 0, errs = 0, exc = 0;
	uint64_t end;
	int n, k;

	if (link_pair(a, b, expect_ok ? 17 : 10)) {
		CHECK(0, "connect: %s", strerror(errno));
		return;
	}
	CHECK(wait_event(a->ctx, IBV_EVENT_PORT_ERR, NULL), "no PORT_ERR");
	CHECK(!ibv_query_port(a->ctx, 1, &pa) && pa.state == IBV_PORT_DOWN,
	      "port state %d while down", pa.state);
	for (i = 0; i < 8; i++) {
		post_recv(b, S_OFF + i * 64, 64, i);
		if (!post_one(a, b, IBV_WR_SEND, S_OFF, 64, 0, 0, 0))
			sent++;
	}
	CHECK(wait_event(a->ctx, IBV_EVENT_PORT_ACTIVE, NULL),
	      "no PORT_ACTIVE");
	CHECK(!ibv_query_port(a->ctx, 1, &pa) && pa.state == IBV_PORT_ACTIVE,
	      "port state %d once up", pa.state);
	for (end = now_ns() + LIMIT_NS; done < sent && now_ns() < end;) {
		n = ibv_poll_cq(a->cq, 64, wc);
		for (k = 0; k < n; k++, done++) {
			errs += wc[k].status != IBV_WC_SUCCESS;
			exc += wc[k].status == IBV_WC_RETRY_EXC_ERR;
		}
	}
	CHECK(done == sent, "%u of %u SENDs completed", done, sent);
	if (expect_ok)
		CHECK(!errs, "%u SENDs failed across the flap", errs);
	else
		CHECK(exc == 1 && errs == sent,
		      "RETRY_EXC_ERR %u times, %u errors of %u", exc, errs,
		      sent);
	printf("flap: %u SENDs, %u errors, %u RETRY_EXC_ERR\n", sent, errs,
	       exc);
}

static void run_event(struct end *a, struct end *b)
{
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr qa;
	struct ibv_wc wc;

	if (link_pair(a, b, 0)) {
		CHECK(0, "connect: %s", strerror(errno));
		return;
	}
	CHECK(wait_event(a->ctx, IBV_EVENT_QP_FATAL, a->qp),
	      "no QP_FATAL for A's QP");
	CHECK(!ibv_query_qp(a->qp, &qa, IBV_QP_STATE, &ia) &&
		      qa.qp_state == IBV_QPS_ERR,
	      "QP state %d after QP_FATAL", qa.qp_state);
	CHECK(!post_one(a, b, IBV_WR_SEND, S_OFF, 64, 0, 0, 0) &&
		      wait_wc(a->cq, &wc, 1) == 1 &&
		      wc.status == IBV_WC_WR_FLUSH_ERR,
	      "a SEND after QP_FATAL did not flush");
	printf("event: QP_FATAL, QP in ERR, SEND flushed\n");
}

static void run_cqe(struct end *a, struct end *b)
{
	static const enum ibv_wc_status want[4] = {
		IBV_WC_SUCCESS, IBV_WC_SUCCESS, IBV_WC_REM_ACCESS_ERR,
		IBV_WC_WR_FLUSH_ERR};
	struct ibv_wc wc;
	unsigned int i;

	if (link_pair(a, b, 0)) {
		CHECK(0, "connect: %s", strerror(errno));
		return;
	}
	for (i = 0; i < 4; i++) {
		post_recv(b, S_OFF + i * 64, 64, i);
		CHECK(!post_one(a, b, IBV_WR_SEND, S_OFF, 64, 0, 0, 0) &&
			      wait_wc(a->cq, &wc, 1) == 1 &&
			      wc.status == want[i],
		      "SEND %u: %s, want %s", i + 1,
		      ibv_wc_status_str(wc.status), ibv_wc_status_str(want[i]));
	}
	printf("cqe: SEND 3 %s\n", ibv_wc_status_str(want[2]));
}

static void run_midmsg(struct end *a, struct end *b)
{
	struct qp_link la = qp_link_default(b->qp->qp_num);
	struct qp_link lb = qp_link_default(a->qp->qp_num);
	struct ibv_qp_attr qa = {.qp_state = IBV_QPS_ERR};
	struct ibv_wc wc;

	link_addr(&la, a, b->lid, &b->gid);
	link_addr(&lb, b, a->lid, &a->gid);
	la.retry_cnt = 0;
	la.timeout = 10;
	if (qp_link_up(a->qp, &la) || qp_link_up(b->qp, &lb) ||
	    post_recv(b, S_OFF, SEND_LEN, 77) ||
	    post_one(a, b, IBV_WR_SEND, S_OFF, SEND_LEN, 0, 0, 0)) {
		CHECK(0, "set-up: %s", strerror(errno));
		return;
	}
	CHECK(wait_wc(a->cq, &wc, 1) == 1 && wc.status == IBV_WC_RETRY_EXC_ERR,
	      "A's SEND: %s", ibv_wc_status_str(wc.status));
	CHECK(!ibv_modify_qp(b->qp, &qa, IBV_QP_STATE), "B to ERR");
	CHECK(wait_wc(b->cq, &wc, 1) == 1 && wc.wr_id == 77 &&
		      wc.status == IBV_WC_WR_FLUSH_ERR,
	      "B's receive in use did not flush");
	printf("midmsg: receive in use flushed\n");
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "rc";
	unsigned int n = argc > 2 ? (unsigned int)atoi(argv[2]) : 20;
	enum ibv_qp_type t = !strcmp(mode, "ud") ? IBV_QPT_UD : IBV_QPT_RC;
	struct end a = {}, b = {};

	if (end_open(&a, 0, t) ||
	    (strcmp(mode, "rc2") && end_open(&b, -1, t))) {
		fprintf(stderr, "FAIL: set-up: %s\n", strerror(errno));
		return 1;
	}
	if (!strcmp(mode, "rc"))
		run_rc(&a, &b, n, argc > 3 ? (uint8_t)atoi(argv[3]) : 0);
	else if (!strcmp(mode, "rc2"))
		run_rc2(&a, n, argc > 3 ? (uint8_t)atoi(argv[3]) : 14);
	else if (!strcmp(mode, "ud"))
		run_ud(&a, &b, n);
	else if (!strcmp(mode, "flap"))
		run_flap(&a, &b, argc > 2 && !strcmp(argv[2], "ok"));
	else if (!strcmp(mode, "event"))
		run_event(&a, &b);
	else if (!strcmp(mode, "cqe"))
		run_cqe(&a, &b);
	else if (!strcmp(mode, "midmsg"))
		run_midmsg(&a, &b);
	else
		CHECK(0, "unknown mode %s", mode);
	end_close(&a);
	end_close(&b);
	return failures ? 1 : 0;
}
