// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Endpoints, connection set-up and polling shared by the check groups. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dp.h"
#include "qp_link.h"

static int failures;

bool dp_check(const char *name, bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("DP %s ok\n", name);
		return true;
	}
	failures++;
	printf("DP %s FAIL: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	return false;
}

int dp_failures(void)
{
	return failures;
}

void dp_fill(void *p, size_t n, unsigned int seed)
{
	uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 8));
}

int dp_end_create(struct dp_end *e, enum ibv_qp_type type, struct ibv_srq *srq,
		  uint64_t send_ops, int sig_all)
{
	struct ibv_qp_init_attr_ex attr = {
		.qp_type = type,
		.sq_sig_all = sig_all,
		.srq = srq,
		.cap = {.max_send_wr = 64,
			.max_recv_wr = 64,
			.max_send_sge = 2,
			.max_recv_sge = 2,
			.max_inline_data = 64},
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = dp.pd,
	};

	memset(e, 0, sizeof(*e));
	e->buf = aligned_alloc(4096, DP_BUF);
	e->cq = ibv_create_cq(dp.ctx, 128, NULL, NULL, 0);
	if (!e->buf || !e->cq)
		return errno ? errno : ENOMEM;
	memset(e->buf, 0, DP_BUF);
	e->mr = ibv_reg_mr(dp.pd, e->buf, DP_BUF,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ |
				   IBV_ACCESS_REMOTE_ATOMIC);
	if (!e->mr)
		return errno;
	attr.send_cq = e->cq;
	attr.recv_cq = e->cq;
	if (send_ops) {
		attr.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		attr.send_ops_flags = send_ops;
		e->qp = ibv_create_qp_ex(dp.ctx, &attr);
	} else {
		e->qp = ibv_create_qp(dp.pd, (struct ibv_qp_init_attr *)&attr);
	}
	return e->qp ? 0 : errno;
}

void dp_end_destroy(struct dp_end *e)
{
	if (e->qp)
		ibv_destroy_qp(e->qp);
	if (e->mr)
		ibv_dereg_mr(e->mr);
	if (e->cq)
		ibv_destroy_cq(e->cq);
	free(e->buf);
	memset(e, 0, sizeof(*e));
}

/* RESET -> INIT -> RTR -> RTS towards @dest_qpn on our own GID. */
static int bring_up(struct ibv_qp *qp, uint32_t dest_qpn)
{
	struct qp_link l = qp_link_default(dest_qpn);

	l.dgid = &dp.gid;
	l.sgid_index = (uint8_t)dp.gid_index;
	l.psn = DP_PSN;
	l.qkey = 0x11111111;
	l.rd_atomic = 4;
	l.min_rnr_timer = 1;
	return qp_link_up(qp, &l);
}

int dp_connect(struct dp_end *a, struct dp_end *b)
{
	int err = bring_up(a->qp, b->qp->qp_num);

	if (!err)
		err = bring_up(b->qp, a->qp->qp_num);
	a->peer = b;
	b->peer = a;
	return err;
}

bool dp_pair(const char *name, struct dp_end *a, struct dp_end *b,
	     enum ibv_qp_type type, struct ibv_srq *b_srq, uint64_t a_ops)
{
	return dp_check(name,
			!dp_end_create(a, type, NULL, a_ops, 0) &&
				!dp_end_create(b, type, b_srq, 0, 0) &&
				!dp_connect(a, b),
			"create/connect failed");
}

int dp_poll(struct ibv_cq *cq, struct ibv_wc *wc)
{
	struct timespec t0, t;
	int n;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		n = ibv_poll_cq(cq, 1, wc);
		if (n)
			return n < 0 ? -1 : 1;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 2)
			return 0;
	}
}

bool dp_expect_wc(const char *name, struct ibv_cq *cq, struct ibv_wc *wc,
		  enum ibv_wc_status status, enum ibv_wc_opcode opcode,
		  uint64_t wr_id)
{
	int n = dp_poll(cq, wc);

	if (n != 1)
		return dp_check(name, false, "no completion (poll %d)", n);
	if (wc->status != status)
		return dp_check(name, false, "status %s, want %s",
				ibv_wc_status_str(wc->status),
				ibv_wc_status_str(status));
	/* The opcode of an error completion is undefined. */
	if (status == IBV_WC_SUCCESS && wc->opcode != opcode)
		return dp_check(name, false, "opcode %d, want %d", wc->opcode,
				opcode);
	if (wc->wr_id != wr_id)
		return dp_check(name, false, "wr_id %llu, want %llu",
				(unsigned long long)wc->wr_id,
				(unsigned long long)wr_id);
	return true;
}

bool dp_cq_idle(struct ibv_cq *cq)
{
	struct timespec d = {.tv_nsec = 50 * 1000 * 1000};
	struct ibv_wc wc;

	nanosleep(&d, NULL);
	return ibv_poll_cq(cq, 1, &wc) == 0;
}

void dp_wr(struct ibv_send_wr *wr, struct ibv_sge *sge, struct dp_end *e,
	   enum ibv_wr_opcode op, size_t loff, uint32_t len, size_t roff)
{
	memset(wr, 0, sizeof(*wr));
	sge->addr = (uintptr_t)e->buf + loff;
	sge->length = len;
	sge->lkey = e->mr->lkey;
	wr->wr_id = loff;
	wr->sg_list = sge;
	wr->num_sge = 1;
	wr->opcode = op;
	wr->send_flags = IBV_SEND_SIGNALED;
	if (!e->peer)
		return;
	if (op == IBV_WR_ATOMIC_CMP_AND_SWP ||
	    op == IBV_WR_ATOMIC_FETCH_AND_ADD) {
		wr->wr.atomic.remote_addr = (uintptr_t)e->peer->buf + roff;
		wr->wr.atomic.rkey = e->peer->mr->rkey;
	} else {
		wr->wr.rdma.remote_addr = (uintptr_t)e->peer->buf + roff;
		wr->wr.rdma.rkey = e->peer->mr->rkey;
	}
}

int dp_post1(struct dp_end *e, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad = NULL;

	return ibv_post_send(e->qp, wr, &bad);
}

int dp_post_recv(struct dp_end *e, size_t off, uint32_t len, uint64_t wr_id)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)e->buf + off,
		.length = len,
		.lkey = e->mr->lkey,
	};
	struct ibv_recv_wr wr = {.wr_id = wr_id, .sg_list = &sge, .num_sge = 1};
	struct ibv_recv_wr *bad = NULL;

	return ibv_post_recv(e->qp, &wr, &bad);
}
