// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5 data-path cost per operation, for callgrind: one RC QP looped back
 * to a second one on the same device, posting one 64-byte RDMA WRITE per
 * call. Built against the public headers only, so the same binary runs on
 * rdma-dm and (LD_LIBRARY_PATH) on Debian's rdma-core, under rdma-sim.
 *
 * usage: mlx5_dp_bench MODE N
 *   post-sig | post-unsig   N ibv_post_send calls (bench_post)
 *   wr-sig | wr-unsig       N wr_start/rdma_write/set_sge/complete
 *                           (bench_wr)
 *   poll                    N completions, each polled once they are all
 *                           in the CQ (bench_poll)
 * callgrind --toggle-collect=bench_post (or bench_wr, bench_poll) then
 * gives the library instructions of exactly those calls.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "qp_link.h"

#define DEPTH 256
#define MSG 64

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cq, *tcq;
static struct ibv_qp *qp, *tqp;
static struct ibv_qp_ex *qpx;
static struct ibv_mr *mr;
static uint8_t buf[2 * MSG];

#define DIE(...)                                                               \
	do {                                                                   \
		fprintf(stderr, __VA_ARGS__);                                  \
		fprintf(stderr, " (errno %d)\n", errno);                       \
		exit(1);                                                       \
	} while (0)

static struct ibv_qp *make_qp(struct ibv_cq *c, bool ex)
{
	struct ibv_qp_init_attr_ex a = {
		.send_cq = c,
		.recv_cq = c,
		.cap = { .max_send_wr = DEPTH, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = pd,
	};

	if (ex) {
		a.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		a.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE;
	}
	return ibv_create_qp_ex(ctx, &a);
}

static void to_rts(struct ibv_qp *q, uint32_t dqpn, uint16_t lid)
{
	struct qp_link l = qp_link_default(dqpn);

	l.dlid = lid;
	l.access = IBV_ACCESS_REMOTE_WRITE;
	l.min_rnr_timer = 1;
	if (qp_link_up(q, &l))
		DIE("RESET -> RTS");
}

static void setup(bool ex)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_port_attr port;

	if (!list || !list[0])
		DIE("no device");
	ctx = ibv_open_device(list[0]);
	ibv_free_device_list(list);
	if (!ctx)
		DIE("open");
	pd = ibv_alloc_pd(ctx);
	mr = ibv_reg_mr(pd, buf, sizeof(buf),
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	cq = ibv_create_cq(ctx, 2 * DEPTH, NULL, NULL, 0);
	tcq = ibv_create_cq(ctx, 2, NULL, NULL, 0);
	if (!pd || !mr || !cq || !tcq)
		DIE("setup");
	qp = make_qp(cq, ex);
	tqp = make_qp(tcq, false);
	if (!qp || !tqp)
		DIE("qp");
	if (ibv_query_port(ctx, 1, &port))
		DIE("port");
	to_rts(qp, tqp->qp_num, port.lid);
	to_rts(tqp, qp->qp_num, port.lid);
	if (ex)
		qpx = ibv_qp_to_qp_ex(qp);
}

__attribute__((noinline)) int bench_post(unsigned int flags);
__attribute__((noinline)) int bench_post(unsigned int flags)
{
	struct ibv_sge sge = { (uintptr_t)buf, MSG, mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = flags }, *bad;

	wr.wr.rdma.remote_addr = (uintptr_t)buf + MSG;
	wr.wr.rdma.rkey = mr->rkey;
	return ibv_post_send(qp, &wr, &bad);
}

__attribute__((noinline)) int bench_wr(unsigned int flags);
__attribute__((noinline)) int bench_wr(unsigned int flags)
{
	ibv_wr_start(qpx);
	qpx->wr_flags = flags;
	ibv_wr_rdma_write(qpx, mr->rkey, (uintptr_t)buf + MSG);
	ibv_wr_set_sge(qpx, mr->lkey, (uintptr_t)buf, MSG);
	return ibv_wr_complete(qpx);
}

__attribute__((noinline)) int bench_poll(struct ibv_wc *wc);
__attribute__((noinline)) int bench_poll(struct ibv_wc *wc)
{
	return ibv_poll_cq(cq, 1, wc);
}

/* Wait for @n completions outside the measured functions. */
static void drain(int n)
{
	struct ibv_wc wc[16];
	time_t end = time(NULL) + 30;
	int r;

	while (n > 0) {
		r = ibv_poll_cq(cq, n < 16 ? n : 16, wc);
		if (r < 0 || (r && wc[0].status) || time(NULL) > end)
			DIE("drain");
		n -= r;
	}
}

/* Unsignaled modes still signal one WR in DEPTH/2, outside the count. */
static void run_post(unsigned long n, bool sig, bool wr_api)
{
	unsigned long i, batch = DEPTH / 2;
	int err;

	for (i = 0; i < n; i++) {
		bool last = (i % batch) == batch - 1;
		unsigned int f = sig || last ? IBV_SEND_SIGNALED : 0;

		err = wr_api ? bench_wr(f) : bench_post(f);
		if (err)
			DIE("post %lu: %d", i, err);
		if (sig && i % batch == batch - 1)
			drain((int)batch);
		else if (!sig && last)
			drain(1);
	}
	if (sig)
		drain((int)(n % batch));
}

static void run_poll(unsigned long n)
{
	unsigned long i, got = 0, batch = DEPTH / 2, k;
	struct ibv_wc wc;
	int r;

	while (got < n) {
		k = n - got < batch ? n - got : batch;
		for (i = 0; i < k; i++)
			if (bench_post(IBV_SEND_SIGNALED))
				DIE("post");
		usleep(200000); /* let the HCA write every CQE first */
		for (i = 0; i < k;) {
			r = bench_poll(&wc);
			if (r < 0 || (r && wc.status))
				DIE("poll");
			i += (unsigned long)r;
		}
		got += k;
	}
}

int main(int argc, char **argv)
{
	unsigned long n;
	const char *mode;

	if (argc != 3)
		DIE("usage: %s post-sig|post-unsig|wr-sig|wr-unsig|poll N",
		    argv[0]);
	mode = argv[1];
	n = strtoul(argv[2], NULL, 0);
	setup(!strncmp(mode, "wr-", 3));
	if (!strcmp(mode, "poll"))
		run_poll(n);
	else
		run_post(n, !strstr(mode, "unsig"), !strncmp(mode, "wr-", 3));
	ibv_destroy_qp(qp);
	ibv_destroy_qp(tqp);
	ibv_destroy_cq(cq);
	ibv_destroy_cq(tcq);
	ibv_dereg_mr(mr);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	printf("%s %lu done\n", mode, n);
	return 0;
}
