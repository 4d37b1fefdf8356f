// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * SENDs between a process and its fork child, each with a context of its
 * own (the parent's was open across the fork): a ping-pong of ROUNDS
 * 64-byte messages, every other one with an immediate. Each side checks
 * every receive completion (status, opcode, length, immediate, which
 * receive it was) and the bytes in its buffer, and every send completion.
 * tests/sim/land.sh runs it with RDMA_SIM_HCA_STATS and checks that the
 * SENDs landed (hca_land.c) in both processes.
 * With "die", the child kills itself after its SEND of round DIE_AT, as
 * the parent's answer is about to land: that SEND must complete with
 * RETRY_EXC_ERR (the peer is gone), not hang or succeed.
 * Usage: debian_land DEVICE [die] (built against Debian's libibverbs)
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <arpa/inet.h>
#include <unistd.h>

#include "judge.h"
#include "qp_link.h"

#define ROUNDS	 2000
#define DIE_AT	 10
#define MSG	 64
#define DEPTH	 16
#define WAIT_SEC 60 /* wall time for one completion, however loaded */

struct side {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *scq, *rcq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf; /* DEPTH receive slots, then the send slot */
	uint32_t posted;
	const char *who;
};

static void fill(uint8_t *p, uint32_t round, int from_child)
{
	int i;

	for (i = 0; i < MSG; i++)
		p[i] = (uint8_t)(round * 7 + i * 3 + from_child);
}

static int post_recv(struct side *s)
{
	uint32_t slot = s->posted % DEPTH;
	struct ibv_sge sge = {(uintptr_t)(s->buf + slot * MSG), MSG,
			      s->mr->lkey};
	struct ibv_recv_wr wr = {.wr_id = s->posted, .sg_list = &sge,
				 .num_sge = 1};
	struct ibv_recv_wr *bad;

	s->posted++;
	return ibv_post_recv(s->qp, &wr, &bad);
}

static int open_side(struct side *s, const char *dev, const char *who)
{
	s->who = who;
	s->ctx = qp_link_open(dev, NULL);
	if (!s->ctx)
		return -1;
	if (qp_link_side(s->ctx, DEPTH, &s->buf, &s->pd, &s->scq, &s->rcq,
			 &s->mr))
		return -1;
	s->qp = qp_link_rc_qp(s->pd, s->scq, s->rcq, DEPTH);
	return !s->mr || !s->qp ? -1 : 0;
}

/* Everything open_side made, in reverse (a sanitized build counts what is
 * left at exit as leaked). */
static void close_side(struct side *s)
{
	qp_link_close(s->qp, s->mr, s->scq, s->rcq, s->pd, s->ctx);
	free(s->buf);
}

static int post_send(struct side *s, uint32_t round, int from_child)
{
	uint8_t *p = s->buf + DEPTH * MSG;
	struct ibv_sge sge = {(uintptr_t)p, MSG, s->mr->lkey};
	struct ibv_send_wr wr = {.wr_id = round, .sg_list = &sge,
				 .num_sge = 1, .send_flags = IBV_SEND_SIGNALED};
	struct ibv_send_wr *bad;

	fill(p, round, from_child);
	wr.opcode = round & 1 ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND;
	wr.imm_data = htonl(round);
	return ibv_post_send(s->qp, &wr, &bad);
}

/* Send round's message; its completion has status want. */
static int send_msg(struct side *s, uint32_t round, int from_child,
		    enum ibv_wc_status want)
{
	struct ibv_wc wc;
	int n;

	if (post_send(s, round, from_child))
		return -1;
	n = qp_link_poll(s->scq, &wc, WAIT_SEC);
	CHECK(n == 1 && wc.status == want && wc.wr_id == round &&
		      (want || wc.opcode == IBV_WC_SEND),
	      "%s: send %u: %d completions, status %s (want %s) opcode %d "
	      "wr_id %lu",
	      s->who, round, n, ibv_wc_status_str(wc.status),
	      ibv_wc_status_str(want), wc.opcode, (unsigned long)wc.wr_id);
	return n == 1 && wc.status == IBV_WC_SUCCESS ? 0 : -1;
}

/* Receive round's message from the other side and check all of it. */
static int recv_msg(struct side *s, uint32_t round, int from_child)
{
	uint8_t want[MSG];
	struct ibv_wc wc;
	int imm = round & 1;

	if (qp_link_poll(s->rcq, &wc, WAIT_SEC) != 1) {
		CHECK(0, "%s: round %u: no receive completion in %d s",
		      s->who, round, WAIT_SEC);
		return -1;
	}
	fill(want, round, from_child);
	CHECK(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV &&
		      wc.byte_len == MSG && wc.wr_id == round &&
		      !!(wc.wc_flags & IBV_WC_WITH_IMM) == imm &&
		      (!imm || ntohl(wc.imm_data) == round) &&
		      wc.qp_num == s->qp->qp_num,
	      "%s: round %u: status %s opcode %d len %u wr_id %lu flags %#x "
	      "imm %u",
	      s->who, round, ibv_wc_status_str(wc.status), wc.opcode,
	      wc.byte_len, (unsigned long)wc.wr_id, wc.wc_flags,
	      ntohl(wc.imm_data));
	CHECK(!memcmp(s->buf + (wc.wr_id % DEPTH) * MSG, want, MSG),
	      "%s: round %u: the bytes received differ", s->who, round);
	return wc.status == IBV_WC_SUCCESS ? post_recv(s) : -1;
}

/* Exchange QP number and LID over fd, then bring the QP up. */
static int link_up(struct side *s, int fd)
{
	struct ibv_port_attr pa;
	uint32_t mine[2], peer[2];
	struct qp_link l;
	int i;

	if (ibv_query_port(s->ctx, 1, &pa))
		return -1;
	mine[0] = s->qp->qp_num;
	mine[1] = pa.lid;
	if (write(fd, mine, sizeof(mine)) != sizeof(mine) ||
	    read(fd, peer, sizeof(peer)) != sizeof(peer))
		return -1;
	l = qp_link_default(peer[0]);
	l.dlid = (uint16_t)peer[1];
	if (qp_link_up(s->qp, &l))
		return -1;
	for (i = 0; i < DEPTH; i++)
		if (post_recv(s))
			return -1;
	/* both sides' receives are up before either sends */
	return write(fd, mine, 1) == 1 && read(fd, peer, 1) == 1 ? 0 : -1;
}

static int child(const char *dev, int fd, int die)
{
	struct side s = {0};
	uint32_t r;

	if (open_side(&s, dev, "child") || link_up(&s, fd))
		return 2;
	for (r = 0; r < ROUNDS; r++) {
		if (send_msg(&s, r, 1, IBV_WC_SUCCESS))
			break;
		/* mid-transfer: its answer was to land here */
		if (die && r == DIE_AT)
			raise(SIGKILL);
		if (recv_msg(&s, r, 0))
			break;
	}
	close_side(&s);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[1] : "mlx5_0";
	int die = argc > 2 && !strcmp(argv[2], "die"), fd = -1, st = 0;
	struct side s = {0};
	uint32_t r;
	pid_t pid;

	/* the parent's context is open across the fork */
	CHECK(!open_side(&s, dev, "parent"), "parent: set-up: %s",
	      strerror(errno));
	if (failures)
		return 1;
	pid = qp_link_fork(&fd);
	if (pid == 0)
		exit(child(dev, fd, die)); /* its counters at exit */
	CHECK(pid > 0 && !link_up(&s, fd), "parent: link: %s",
	      strerror(errno));
	for (r = 0; !failures && r < ROUNDS; r++)
		if (recv_msg(&s, r, 1) || (die && r == DIE_AT) ||
		    send_msg(&s, r, 0, IBV_WC_SUCCESS))
			break;
	waitpid(pid, &st, 0);
	if (die) {
		CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
		      "child: status %#x, not killed", st);
		/* the receiver is gone: the SEND fails, in bounded time */
		send_msg(&s, DIE_AT, 0, IBV_WC_RETRY_EXC_ERR);
	} else {
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "child: exit status %#x", st);
	}
	close_side(&s);
	return failures ? 1 : 0;
}
