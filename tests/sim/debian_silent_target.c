// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * One-sided RDMA reaches a target that calls no verb, as on hardware.
 * Two processes on mlx5_0, an RC pair. The target B registers a buffer,
 * connects, then only spins on that memory (no poll, no post) until the
 * initiator's RDMA WRITE lands, and afterwards sleeps in read() on a pipe
 * while the initiator's RDMA READ and atomics are answered. The initiator
 * A uses the extended API: ibv_create_qp_ex with send_ops_flags and
 * ibv_wr_* (the WRITE unsignaled, then no verb call until B has seen the
 * bytes), and an ibv_create_cq_ex CQ read with ibv_start_poll /
 * ibv_next_poll. Every wait has a generous 30 s limit: the test proves
 * delivery, it does not time it.
 * Usage: debian_silent_target (built against Debian's libibverbs; run it
 * on rdma-dm's libraries too with LD_LIBRARY_PATH)
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "judge.h"
#include "qp_link.h"

#define BUF	  4096
#define WRITE_OFF 0 /* A writes WRITE_LEN bytes here in B */
#define WRITE_LEN 256
#define ATOM_OFF  1024 /* the atomic word in B */
#define READ_OFF  2048 /* A reads READ_LEN bytes from here in B */
#define READ_LEN  2048
#define LIMIT_S	  30
#define ATOM_INIT 5u

struct peer {
	uint32_t qpn;
	uint16_t lid;
	uint64_t addr;
	uint32_t rkey;
};

struct end {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	struct ibv_cq_ex *cqx; /* A: its CQ is an extended one */
	struct ibv_qp *qp;
	uint8_t *buf;
	uint16_t lid;
};

static uint8_t write_byte(unsigned int i)
{
	return (uint8_t)(i * 7 + 1);
}

static uint8_t read_byte(unsigned int i)
{
	return (uint8_t)(i * 13 + 5);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Exactly len bytes from fd, waiting at most LIMIT_S; 0 or -1. */
static int get(int fd, void *p, size_t len)
{
	struct pollfd pfd = {.fd = fd, .events = POLLIN};

	if (poll(&pfd, 1, LIMIT_S * 1000) != 1)
		return -1;
	return read(fd, p, len) == (ssize_t)len ? 0 : -1;
}

static int put(int fd, const void *p, size_t len)
{
	return write(fd, p, len) == (ssize_t)len ? 0 : -1;
}

static int open_end(struct end *e, int extended)
{
	struct ibv_cq_init_attr_ex cqa = {.cqe = 16,
					  .wc_flags = IBV_WC_STANDARD_FLAGS};
	struct ibv_qp_init_attr_ex qa = {
		.qp_type = IBV_QPT_RC,
		.cap = {.max_send_wr = 16,
			.max_recv_wr = 1,
			.max_send_sge = 1,
			.max_recv_sge = 1},
		.comp_mask = IBV_QP_INIT_ATTR_PD,
	};

	e->ctx = qp_link_open("mlx5_0", &e->lid);
	if (!e->ctx)
		return -1;
	e->pd = ibv_alloc_pd(e->ctx);
	e->buf = aligned_alloc(4096, BUF);
	if (!e->pd || !e->buf)
		return -1;
	memset(e->buf, 0, BUF);
	e->mr = ibv_reg_mr(e->pd, e->buf, BUF,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ |
				   IBV_ACCESS_REMOTE_ATOMIC);
	if (extended) {
		e->cqx = ibv_create_cq_ex(e->ctx, &cqa);
		e->cq = e->cqx ? ibv_cq_ex_to_cq(e->cqx) : NULL;
		qa.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		qa.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE |
				    IBV_QP_EX_WITH_RDMA_READ |
				    IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD |
				    IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP;
	} else {
		e->cq = ibv_create_cq(e->ctx, 16, NULL, NULL, 0);
	}
	if (!e->mr || !e->cq)
		return -1;
	qa.pd = e->pd;
	qa.send_cq = qa.recv_cq = e->cq;
	e->qp = ibv_create_qp_ex(e->ctx, &qa);
	return e->qp ? 0 : -1;
}

static void close_end(struct end *e)
{
	const char *failed;

	failed = qp_link_close(e->qp, e->mr, e->cq, e->cq, e->pd, e->ctx);
	CHECK(!failed, "%s", failed);
	free(e->buf);
}

/* Both sides: open, swap addresses over the pipes, connect. */
static int setup(struct end *e, int extended, int rfd, int wfd,
		 struct peer *other)
{
	struct qp_link link;
	struct peer me;
	int ret;

	if (open_end(e, extended))
		return -1;
	me = (struct peer){.qpn = e->qp->qp_num,
			   .lid = e->lid,
			   .addr = (uintptr_t)e->buf,
			   .rkey = e->mr->rkey};
	if (put(wfd, &me, sizeof(me)) || get(rfd, other, sizeof(*other)))
		return -1;
	link = qp_link_default(other->qpn);
	link.dlid = other->lid;
	ret = qp_link_up(e->qp, &link);
	CHECK(!ret, "connect: %s", strerror(ret));
	return ret ? -1 : 0;
}

/* The target: after connecting it calls no verb until the very end. */
static int target(int rfd, int wfd)
{
	volatile uint8_t *v;
	struct end e = {0};
	struct peer a;
	unsigned int i;
	uint64_t word;
	double until;
	char c = 0;

	if (setup(&e, 0, rfd, wfd, &a))
		goto out;
	for (i = 0; i < READ_LEN; i++)
		e.buf[READ_OFF + i] = read_byte(i);
	word = ATOM_INIT;
	memcpy(e.buf + ATOM_OFF, &word, 8);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	CHECK(!put(wfd, &c, 1), "ready");
	/* spin on memory until the last byte, then all of them, are there */
	v = e.buf;
	until = now_s() + LIMIT_S;
	while (v[WRITE_OFF + WRITE_LEN - 1] != write_byte(WRITE_LEN - 1) &&
	       now_s() < until)
		;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	for (i = 0; i < WRITE_LEN && v[WRITE_OFF + i] == write_byte(i); i++)
		;
	CHECK(i == WRITE_LEN, "RDMA WRITE seen by a spinning target: %u of "
			      "%u bytes",
	      i, WRITE_LEN);
	CHECK(!put(wfd, &c, 1), "seen");
	/* asleep in read() while the READ and the atomics are answered */
	CHECK(!get(rfd, &c, 1), "initiator done");
	memcpy(&word, e.buf + ATOM_OFF, 8);
	CHECK(word == 100, "atomic word after FA +3 and CS 8->100: %llu",
	      (unsigned long long)word);
out:
	close_end(&e);
	return failures ? 1 : 0;
}

/* One completion through the extended CQ API, waiting LIMIT_S at most. */
static int poll_ex(struct ibv_cq_ex *cq, uint64_t wr_id,
		   enum ibv_wc_opcode op)
{
	struct ibv_poll_cq_attr pa = {0};
	double until = now_s() + LIMIT_S;
	int ret;

	while ((ret = ibv_start_poll(cq, &pa)) == ENOENT && now_s() < until)
		;
	CHECK(!ret, "start_poll: %d", ret);
	if (ret)
		return -1;
	CHECK(cq->wr_id == wr_id && cq->status == IBV_WC_SUCCESS &&
		      ibv_wc_read_opcode(cq) == op,
	      "completion wr_id %llu status %s opcode %d (want %llu, %d)",
	      (unsigned long long)cq->wr_id, ibv_wc_status_str(cq->status),
	      ibv_wc_read_opcode(cq), (unsigned long long)wr_id, op);
	ret = ibv_next_poll(cq);
	CHECK(ret == ENOENT, "one completion only: next_poll %d", ret);
	ibv_end_poll(cq);
	return 0;
}

static void initiator(int rfd, int wfd)
{
	struct ibv_qp_ex *qpx;
	struct end e = {0};
	struct peer b;
	unsigned int i;
	uint64_t got;
	char c;

	if (setup(&e, 1, rfd, wfd, &b) || get(rfd, &c, 1))
		goto out;
	qpx = ibv_qp_to_qp_ex(e.qp);
	CHECK(qpx, "qp_to_qp_ex: %s", strerror(errno));
	if (!qpx)
		goto out;
	for (i = 0; i < WRITE_LEN; i++)
		e.buf[WRITE_OFF + i] = write_byte(i);
	/* unsignaled, and no verb call after wr_complete until B saw it */
	ibv_wr_start(qpx);
	qpx->wr_id = 1;
	qpx->wr_flags = 0;
	ibv_wr_rdma_write(qpx, b.rkey, b.addr + WRITE_OFF);
	ibv_wr_set_sge(qpx, e.mr->lkey, (uintptr_t)e.buf + WRITE_OFF,
		       WRITE_LEN);
	CHECK(!ibv_wr_complete(qpx), "wr_complete WRITE");
	CHECK(!get(rfd, &c, 1), "target saw the WRITE within %d s", LIMIT_S);

	ibv_wr_start(qpx);
	qpx->wr_id = 2;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_rdma_read(qpx, b.rkey, b.addr + READ_OFF);
	ibv_wr_set_sge(qpx, e.mr->lkey, (uintptr_t)e.buf + READ_OFF,
		       READ_LEN);
	CHECK(!ibv_wr_complete(qpx), "wr_complete READ");
	if (!poll_ex(e.cqx, 2, IBV_WC_RDMA_READ)) {
		for (i = 0; i < READ_LEN &&
			    e.buf[READ_OFF + i] == read_byte(i);
		     i++)
			;
		CHECK(i == READ_LEN, "READ from a sleeping target: %u of %u "
				     "bytes",
		      i, READ_LEN);
	}

	ibv_wr_start(qpx);
	qpx->wr_id = 3;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_atomic_fetch_add(qpx, b.rkey, b.addr + ATOM_OFF, 3);
	ibv_wr_set_sge(qpx, e.mr->lkey, (uintptr_t)e.buf + ATOM_OFF, 8);
	CHECK(!ibv_wr_complete(qpx), "wr_complete FA");
	if (!poll_ex(e.cqx, 3, IBV_WC_FETCH_ADD)) {
		memcpy(&got, e.buf + ATOM_OFF, 8);
		CHECK(got == ATOM_INIT, "FA returned %llu",
		      (unsigned long long)got);
	}

	ibv_wr_start(qpx);
	qpx->wr_id = 4;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_atomic_cmp_swp(qpx, b.rkey, b.addr + ATOM_OFF, ATOM_INIT + 3,
			      100);
	ibv_wr_set_sge(qpx, e.mr->lkey, (uintptr_t)e.buf + ATOM_OFF, 8);
	CHECK(!ibv_wr_complete(qpx), "wr_complete CS");
	if (!poll_ex(e.cqx, 4, IBV_WC_COMP_SWAP)) {
		memcpy(&got, e.buf + ATOM_OFF, 8);
		CHECK(got == ATOM_INIT + 3, "CS returned %llu",
		      (unsigned long long)got);
	}
out:
	c = 0;
	CHECK(!put(wfd, &c, 1), "done");
	close_end(&e);
}

int main(void)
{
	int a2b[2], b2a[2], st = 0;
	pid_t pid;

	if (pipe(a2b) || pipe(b2a))
		return 2;
	pid = fork();
	if (pid < 0)
		return 2;
	if (!pid) {
		close(a2b[1]);
		close(b2a[0]);
		_exit(target(a2b[0], b2a[1]));
	}
	close(a2b[0]);
	close(b2a[1]);
	initiator(b2a[0], a2b[1]);
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
		      !WEXITSTATUS(st),
	      "target exit status %#x", st);
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
