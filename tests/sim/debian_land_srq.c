// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * SENDs into QPs that receive through an SRQ (hca_land_srq.c), between a
 * process and its fork child: each side has two RC QPs sharing one SRQ
 * and one receive CQ. A ping-pong of 64-byte messages, every other one
 * with an immediate, in phases: all on QP 0, all on QP 1, then the QPs
 * taken in turn (an offer made for one QP is withdrawn when the SEND
 * comes on the other: its WQE must be the one used next), then the
 * child's SENDs in pairs, QP 0's and QP 1's posted as soon as the first
 * completed (the parent runs no pass in between: one offer for the SRQ
 * and its CQ, or two SENDs would land in one WQE and one CQE). Every receive
 * completion is checked: status, opcode, length, immediate, QP, and which
 * WQE it consumed (wr_id: an SRQ is taken in the order it was posted),
 * and the bytes in that WQE's buffer.
 * Then the parent stops posting and arms its SRQ's limit: the event must
 * be on the async fd with the completion of the receive that takes the
 * SRQ below the limit, once, and srq_limit read LIMIT before and 0 from
 * then on. In this drain the child sends only when the parent, its answer
 * complete, says so: by then the pass that sent the answer has offered
 * the next WQE, so an event raised by offering the crossing WQE (not by
 * consuming it) is on the async fd before its SEND exists. With the SRQ
 * empty, the child's next SEND waits (RNR) until the parent posts one
 * receive.
 * tests/sim/land.sh runs it with RDMA_SIM_HCA_STATS and checks that SENDs
 * landed and that the last one met an RNR NAK; with "limit", the drain
 * alone, so that the parent's "landed" counts the drain's SENDs only.
 * With "rq", the two QPs have receive queues of their own (their own
 * wr_id sequences) and share the receive CQ only, up to the pairs: one
 * offer per CQ, or two SENDs would land in one CQE slot.
 * Usage: debian_land_srq DEVICE [rq|limit] (built against Debian's
 * libibverbs)
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <arpa/inet.h>
#include <time.h>
#include <unistd.h>

#include "judge.h"
#include "qp_link.h"

#define MSG	 64
#define DEPTH	 16 /* receives posted to each SRQ (RQ) */
#define LIMIT	 4  /* the parent's SRQ limit in the last phase */
#define WAIT_SEC 60 /* wall time for one completion, however loaded */

/* rounds [phase[i], phase[i + 1]) */
enum { ON_QP0, ON_QP1, TAKEN_IN_TURN, PAIRS, DRAIN, EMPTY, END };
static const uint32_t all_phases[] = {0, 300, 600, 900, 1200, 1200 + DEPTH,
				      1200 + DEPTH + 1};
static const uint32_t limit_phases[] = {0, 0, 0, 0, 0, DEPTH, DEPTH + 1};
static const uint32_t *phase = all_phases; /* "limit": the drain alone */

static int rq_mode; /* "rq": no SRQ, an RQ per QP */

struct side {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *scq, *rcq;
	struct ibv_srq *srq;
	struct ibv_qp *qp[2];
	struct ibv_mr *mr;
	uint8_t *buf;	/* DEPTH receive slots, then the send slot */
	/* per receive queue (the SRQ: [0]) */
	uint32_t posted[2]; /* receives posted: the next one's wr_id */
	uint32_t taken[2];  /* receives completed */
	int fd;		    /* to the other side */
	int parent;
	const char *who;
};

static int phase_of(uint32_t round)
{
	int i = 0;

	while (round >= phase[i + 1])
		i++;
	return i;
}

/* The QP of both sides that round's messages go on. */
static int qp_of(uint32_t round)
{
	switch (phase_of(round)) {
	case ON_QP1:
		return 1;
	case TAKEN_IN_TURN:
		return round & 1;
	default:
		return 0;
	}
}

/* The bytes of round's message on QP q. */
static void fill(uint8_t *p, uint32_t round, int q, int from_parent)
{
	int i;

	for (i = 0; i < MSG; i++)
		p[i] = (uint8_t)(round * 5 + i * 11 + q * 3 + from_parent);
}

static uint32_t imm_of(uint32_t round, int q)
{
	return round ^ 0x5a5a ^ (uint32_t)q << 20;
}

/* The receive queue of QP q: 0, the SRQ, or its own RQ. */
static int rq_of(int q)
{
	return rq_mode ? q : 0;
}

/* The receive buffer of receive queue k's WQE wr_id. */
static uint8_t *slot(struct side *s, int k, uint64_t wr_id)
{
	return s->buf + (k * DEPTH + wr_id % DEPTH) * MSG;
}

static int post_recv(struct side *s, int q)
{
	int k = rq_of(q);
	struct ibv_sge sge = {(uintptr_t)slot(s, k, s->posted[k]), MSG,
			      s->mr->lkey};
	struct ibv_recv_wr wr = {.wr_id = s->posted[k], .sg_list = &sge,
				 .num_sge = 1};
	struct ibv_recv_wr *bad;

	s->posted[k]++;
	return rq_mode ? ibv_post_recv(s->qp[q], &wr, &bad)
		       : ibv_post_srq_recv(s->srq, &wr, &bad);
}

static struct ibv_qp *srq_qp(struct side *s)
{
	struct ibv_qp_init_attr a = {
		.send_cq = s->scq,
		.recv_cq = s->rcq,
		.srq = s->srq,
		.qp_type = IBV_QPT_RC,
		.cap = {.max_send_wr = DEPTH, .max_send_sge = 1},
	};

	if (rq_mode) {
		a.srq = NULL;
		a.cap.max_recv_wr = DEPTH;
		a.cap.max_recv_sge = 1;
	}

	return ibv_create_qp(s->pd, &a);
}

static int open_side(struct side *s, const char *dev, int parent)
{
	struct ibv_srq_init_attr sa = {.attr = {.max_wr = DEPTH, .max_sge = 1}};
	struct ibv_device **l = ibv_get_device_list(NULL);
	int i;

	s->parent = parent;
	s->who = parent ? "parent" : "child";
	for (i = 0; l && l[i] && strcmp(ibv_get_device_name(l[i]), dev); i++)
		;
	s->ctx = l && l[i] ? ibv_open_device(l[i]) : NULL;
	ibv_free_device_list(l);
	if (!s->ctx)
		return -1;
	s->buf = aligned_alloc(4096, 4096);
	s->pd = ibv_alloc_pd(s->ctx);
	s->scq = ibv_create_cq(s->ctx, 2 * DEPTH, NULL, NULL, 0);
	s->rcq = ibv_create_cq(s->ctx, 2 * DEPTH, NULL, NULL, 0);
	if (!s->buf || !s->pd || !s->scq || !s->rcq)
		return -1;
	s->mr = ibv_reg_mr(s->pd, s->buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	s->srq = rq_mode ? NULL : ibv_create_srq(s->pd, &sa);
	if (!s->mr || (!rq_mode && !s->srq))
		return -1;
	s->qp[0] = srq_qp(s);
	s->qp[1] = srq_qp(s);
	return !s->qp[0] || !s->qp[1] ? -1 : 0;
}

static void close_side(struct side *s)
{
	int i;

	for (i = 0; i < 2; i++)
		if (s->qp[i])
			ibv_destroy_qp(s->qp[i]);
	if (s->srq)
		ibv_destroy_srq(s->srq);
	if (s->mr)
		ibv_dereg_mr(s->mr);
	if (s->rcq)
		ibv_destroy_cq(s->rcq);
	if (s->scq)
		ibv_destroy_cq(s->scq);
	if (s->pd)
		ibv_dealloc_pd(s->pd);
	if (s->ctx)
		ibv_close_device(s->ctx);
	free(s->buf);
}

/* One completion of cq within WAIT_SEC of wall time. */
static int poll_one(struct ibv_cq *cq, struct ibv_wc *wc)
{
	time_t end = time(NULL) + WAIT_SEC;
	int n;

	do
		n = ibv_poll_cq(cq, 1, wc);
	while (!n && time(NULL) < end);
	return n;
}

static int send_msg(struct side *s, uint32_t round, int q)
{
	uint8_t *p = s->buf + 2 * DEPTH * MSG;
	struct ibv_sge sge = {(uintptr_t)p, MSG, s->mr->lkey};
	struct ibv_send_wr wr = {.wr_id = round, .sg_list = &sge,
				 .num_sge = 1, .send_flags = IBV_SEND_SIGNALED};
	struct ibv_send_wr *bad;
	struct ibv_wc wc;
	int n;

	fill(p, round, q, s->parent);
	wr.opcode = round & 1 ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND;
	wr.imm_data = htonl(imm_of(round, q));
	if (ibv_post_send(s->qp[q], &wr, &bad))
		return -1;
	n = poll_one(s->scq, &wc);
	CHECK(n == 1 && wc.status == IBV_WC_SUCCESS && wc.wr_id == round &&
		      wc.opcode == IBV_WC_SEND,
	      "%s: send %u: %d completions, status %s opcode %d", s->who,
	      round, n, ibv_wc_status_str(wc.status), wc.opcode);
	return n == 1 && wc.status == IBV_WC_SUCCESS ? 0 : -1;
}

/* A limit event on the async fd now (0 timeout): 1, 0 none, -1 another. */
static int limit_event(struct side *s)
{
	struct pollfd p = {.fd = s->ctx->async_fd, .events = POLLIN};
	struct ibv_async_event ev;
	int ok;

	if (poll(&p, 1, 0) != 1 || ibv_get_async_event(s->ctx, &ev))
		return 0;
	ok = ev.event_type == IBV_EVENT_SRQ_LIMIT_REACHED &&
	     ev.element.srq == s->srq;
	ibv_ack_async_event(&ev);
	return ok ? 1 : -1;
}

/* The parent draining its SRQ: the event comes with the receive that
 * leaves fewer than LIMIT posted, and only then; the limit reads LIMIT
 * until that receive, 0 (disarmed) from it on. */
static void check_limit(struct side *s, uint32_t round)
{
	uint32_t left = s->posted[0] - s->taken[0];
	int want = left == LIMIT - 1, got = limit_event(s);
	struct ibv_srq_attr a = {.srq_limit = ~0u};

	CHECK(got == want, "%s: round %u, %u receives left: limit event %d, "
			   "want %d", s->who, round, left, got, want);
	CHECK(!ibv_query_srq(s->srq, &a) &&
		      a.srq_limit == (left < LIMIT ? 0 : LIMIT),
	      "%s: round %u, %u receives left: srq_limit %u", s->who, round,
	      left, a.srq_limit);
}

/* The parent's answer in the drain completed: the pass that sent it has
 * offered the next receive, whose SEND the child has not made yet (it
 * waits for this go). No limit event may be there: not that of a receive
 * not consumed, nor a second one. */
static int drain_go(struct side *s, uint32_t round)
{
	uint32_t left = s->posted[0] - s->taken[0];

	CHECK(!limit_event(s), "%s: round %u answered, %u receives left: %s",
	      s->who, round, left,
	      left < LIMIT ? "a second limit event"
			   : "a limit event before its receive was consumed");
	CHECK(write(s->fd, "g", 1) == 1, "%s: round %u: go: %s", s->who,
	      round, strerror(errno));
	return failures ? -1 : 0;
}

/* The child in the drain: its SEND waits for the parent's go. */
static int drain_wait(struct side *s, uint32_t round)
{
	char c;

	if (!round || phase_of(round - 1) != DRAIN)
		return 0;
	CHECK(read(s->fd, &c, 1) == 1, "%s: round %u: no go", s->who, round);
	return failures ? -1 : 0;
}

/* The parent, SRQ empty: the child's SEND finds no receive (RNR) until
 * one is posted after a while. */
static void post_late(struct side *s, uint32_t round)
{
	struct timespec ts = {0, 50 * 1000 * 1000};
	struct ibv_wc wc;

	nanosleep(&ts, NULL);
	CHECK(ibv_poll_cq(s->rcq, 1, &wc) == 0,
	      "%s: round %u: a completion with the SRQ empty", s->who, round);
	CHECK(!post_recv(s, 0), "%s: post the late receive", s->who);
}

/* Receive round's message on QP q and check all of it. */
static int recv_msg(struct side *s, uint32_t round, int q)
{
	int imm = round & 1, ph = phase_of(round), k = rq_of(q);
	uint8_t want[MSG];
	struct ibv_wc wc;

	if (s->parent && ph == EMPTY)
		post_late(s, round);
	if (poll_one(s->rcq, &wc) != 1) {
		CHECK(0, "%s: round %u: no receive completion in %d s",
		      s->who, round, WAIT_SEC);
		return -1;
	}
	fill(want, round, q, !s->parent);
	CHECK(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV &&
		      wc.byte_len == MSG && wc.wr_id == s->taken[k] &&
		      !!(wc.wc_flags & IBV_WC_WITH_IMM) == imm &&
		      (!imm || ntohl(wc.imm_data) == imm_of(round, q)) &&
		      wc.qp_num == s->qp[q]->qp_num,
	      "%s: round %u: status %s opcode %d len %u wr_id %lu (want %u) "
	      "flags %#x imm %#x qp %#x",
	      s->who, round, ibv_wc_status_str(wc.status), wc.opcode,
	      wc.byte_len, (unsigned long)wc.wr_id, s->taken[k], wc.wc_flags,
	      ntohl(wc.imm_data), wc.qp_num);
	CHECK(!memcmp(slot(s, k, wc.wr_id), want, MSG),
	      "%s: round %u: the bytes received differ", s->who, round);
	s->taken[k]++;
	if (wc.status != IBV_WC_SUCCESS)
		return -1;
	if (!s->parent || ph < DRAIN)
		return post_recv(s, q);
	check_limit(s, round);
	return 0;
}

/* The parent arms its limit before the answer that starts the drain
 * (before the first SEND: the drain alone). */
static int arm_limit(struct side *s, uint32_t round)
{
	struct ibv_srq_attr a = {.srq_limit = LIMIT};

	if (!s->parent || rq_mode || round + 1 != phase[DRAIN])
		return 0;
	CHECK(!ibv_modify_srq(s->srq, &a, IBV_SRQ_LIMIT), "%s: arm the limit",
	      s->who);
	CHECK(!limit_event(s), "%s: an event as the limit was armed", s->who);
	return failures ? -1 : 0;
}

/* Exchange QP numbers and LID over fd, bring both QPs up. */
static int link_up(struct side *s, int fd)
{
	uint32_t mine[3], peer[3];
	struct ibv_port_attr pa;
	struct qp_link l;
	int i;

	if (ibv_query_port(s->ctx, 1, &pa))
		return -1;
	mine[0] = s->qp[0]->qp_num;
	mine[1] = s->qp[1]->qp_num;
	mine[2] = pa.lid;
	if (write(fd, mine, sizeof(mine)) != sizeof(mine) ||
	    read(fd, peer, sizeof(peer)) != sizeof(peer))
		return -1;
	for (i = 0; i < 2; i++) {
		l = qp_link_default(peer[i]);
		l.dlid = (uint16_t)peer[2];
		if (qp_link_up(s->qp[i], &l))
			return -1;
	}
	for (i = 0; i < (rq_mode ? 2 : 1) * DEPTH; i++)
		if (post_recv(s, i / DEPTH))
			return -1;
	if (arm_limit(s, -1u)) /* the drain alone: before round 0 */
		return -1;
	s->fd = fd;
	return write(fd, mine, 1) == 1 && read(fd, peer, 1) == 1 ? 0 : -1;
}

/* The child sends first in each round (in PAIRS, on QP 1 too), the
 * parent answers. */
static void ping_pong(struct side *s)
{
	int q, pair, drain;
	uint32_t r;

	for (r = 0; !failures && r < phase[rq_mode ? DRAIN : END]; r++) {
		q = qp_of(r);
		pair = phase_of(r) == PAIRS;
		drain = phase_of(r) == DRAIN;
		if (s->parent ? recv_msg(s, r, q) ||
					(pair && recv_msg(s, r, 1)) ||
					arm_limit(s, r) || send_msg(s, r, q) ||
					(drain && drain_go(s, r))
			      : drain_wait(s, r) || send_msg(s, r, q) ||
					(pair && send_msg(s, r, 1)) ||
					recv_msg(s, r, q))
			break;
	}
}

int main(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[1] : "mlx5_0";
	struct side s = {0};
	int fd = -1, st = 0;
	pid_t pid;

	rq_mode = argc > 2 && !strcmp(argv[2], "rq");
	if (argc > 2 && !strcmp(argv[2], "limit"))
		phase = limit_phases;
	/* the parent's context is open across the fork */
	CHECK(!open_side(&s, dev, 1), "parent: set-up: %s", strerror(errno));
	if (failures)
		return 1;
	pid = qp_link_fork(&fd);
	if (pid == 0) {
		struct side c = {0};

		CHECK(!open_side(&c, dev, 0) && !link_up(&c, fd),
		      "child: set-up: %s", strerror(errno));
		if (!failures)
			ping_pong(&c);
		close_side(&c);
		exit(failures ? 1 : 0); /* its counters at exit */
	}
	CHECK(pid > 0 && !link_up(&s, fd), "parent: link: %s",
	      strerror(errno));
	if (!failures)
		ping_pong(&s);
	if (failures)
		kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child: exit status %#x",
	      st);
	close_side(&s);
	return failures ? 1 : 0;
}
