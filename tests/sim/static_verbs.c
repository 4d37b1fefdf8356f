// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A statically linked verbs program (our libibverbs.a with the mlx5
 * provider inside, static glibc): no dynamic loader, no LD_PRELOAD, every
 * system call made by its own code. Under rdma-sim it must still find
 * mlx5_0 in sysfs, open the uverbs device, run the control path, map
 * MEMIC and move data: an RC QP connected to itself writes one buffer
 * into another, the bytes and the completion are checked; the DM's bytes
 * read back; a PD with an MR on it is EBUSY; threads query the port at
 * once (each trap runs the sim on the helper's thread block, one at a
 * time); a thread blocked in ibv_get_cq_event does not hold the sim while
 * another makes the QP whose completion wakes it; every fd is closed at
 * the end.
 */
#include <dirent.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "judge.h"
#include "qp_link.h"

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

static struct ibv_context *open_mlx5_0(void)
{
	struct ibv_context *ctx = NULL;
	struct ibv_device **list;
	int n = 0;

	list = ibv_get_device_list(&n);
	CHECK(list && n == 1, "device list: %d device(s): %m", n);
	if (list && n == 1) {
		CHECK(!strcmp(ibv_get_device_name(list[0]), "mlx5_0"),
		      "device %s", ibv_get_device_name(list[0]));
		ctx = ibv_open_device(list[0]);
		CHECK(ctx, "ibv_open_device: %m");
	}
	if (list)
		ibv_free_device_list(list);
	return ctx;
}

/* Up to 5 s for one completion. */
static int poll_one(struct ibv_cq *cq, struct ibv_wc *wc)
{
	time_t end = time(NULL) + 5;
	int n;

	while (!(n = ibv_poll_cq(cq, 1, wc)) && time(NULL) < end)
		;
	return n;
}

static void check_write(struct ibv_pd *pd, struct ibv_cq *cq, uint16_t lid)
{
	static char src[4096], dst[4096];
	struct ibv_mr *ms, *md;
	struct ibv_qp *qp;
	struct qp_link l;
	struct ibv_wc wc = {};
	struct ibv_sge sge;
	struct ibv_send_wr wr = {}, *bad;

	memset(src, 0, sizeof(src));
	snprintf(src, sizeof(src), "written by a static program");
	ms = ibv_reg_mr(pd, src, sizeof(src), IBV_ACCESS_LOCAL_WRITE);
	md = ibv_reg_mr(pd, dst, sizeof(dst),
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	qp = qp_link_rc_qp(pd, cq, cq, 4);
	CHECK(ms && md && qp, "MRs and QP: %m");
	if (!ms || !md || !qp)
		return;
	l = qp_link_default(qp->qp_num);
	l.dlid = lid;
	l.access = IBV_ACCESS_REMOTE_WRITE;
	CHECK(!qp_link_up(qp, &l), "QP to RTS");
	CHECK(ibv_dealloc_pd(pd) == EBUSY, "PD with MRs: want EBUSY");
	sge = (struct ibv_sge){(uintptr_t)src, sizeof(src), ms->lkey};
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.wr_id = 0x5717;
	wr.wr.rdma.remote_addr = (uintptr_t)dst;
	wr.wr.rdma.rkey = md->rkey;
	CHECK(!ibv_post_send(qp, &wr, &bad), "post RDMA WRITE");
	CHECK(poll_one(cq, &wc) == 1 && wc.status == IBV_WC_SUCCESS &&
		      wc.opcode == IBV_WC_RDMA_WRITE && wc.wr_id == 0x5717,
	      "completion: status %d opcode %d wr_id %#llx", wc.status,
	      wc.opcode, (unsigned long long)wc.wr_id);
	CHECK(!memcmp(src, dst, sizeof(src)), "destination: '%.32s'", dst);
	CHECK(!ibv_destroy_qp(qp) && !ibv_dereg_mr(ms) && !ibv_dereg_mr(md),
	      "teardown");
}

/*
 * Eight SENDs rung and their QP destroyed at once: all eight arrive. A
 * static program's doorbells are watched by the engine thread, which
 * after 50 ms idle looks every 10 ms: DESTROY_QP sends what was rung
 * first, as hardware has long done it by the time its firmware command
 * runs (mckey's sender destroys its QP right after posting).
 */
static void check_destroy_after_post(struct ibv_pd *pd, struct ibv_cq *cq,
				     uint16_t lid)
{
	enum { N = 8 };
	static char buf[N][64];
	struct ibv_cq *rcq = ibv_create_cq(pd->context, N, NULL, NULL, 0);
	struct ibv_mr *mr =
		ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	struct ibv_qp *a = qp_link_rc_qp(pd, cq, cq, N);
	struct ibv_qp *b = qp_link_rc_qp(pd, rcq, rcq, N);
	struct ibv_recv_wr rr = {.num_sge = 1}, *rbad;
	struct ibv_send_wr wr = {.opcode = IBV_WR_SEND, .num_sge = 1}, *bad;
	struct ibv_sge sge;
	struct ibv_wc wc;
	struct qp_link l;
	int i, got = 0;

	CHECK(rcq && mr && a && b, "CQ, MR and two QPs: %m");
	if (!rcq || !mr || !a || !b)
		goto out;
	l = qp_link_default(b->qp_num);
	l.dlid = lid;
	CHECK(!qp_link_up(a, &l), "A to RTS");
	l.dest_qpn = a->qp_num;
	CHECK(!qp_link_up(b, &l), "B to RTS");
	for (i = 0; i < N; i++) {
		sge = (struct ibv_sge){(uintptr_t)buf[i], 64, mr->lkey};
		rr.sg_list = &sge;
		rr.wr_id = i;
		CHECK(!ibv_post_recv(b, &rr, &rbad), "post receive %d", i);
	}
	usleep(100000); /* the engine thread goes to its long sleep */
	wr.sg_list = &sge;
	for (i = 0; i < N; i++) {
		sge = (struct ibv_sge){(uintptr_t)buf[i], 64, mr->lkey};
		CHECK(!ibv_post_send(a, &wr, &bad), "post SEND %d", i);
	}
	CHECK(!ibv_destroy_qp(a), "destroy A right after posting");
	a = NULL;
	while (got < N && poll_one(rcq, &wc) == 1 &&
	       wc.status == IBV_WC_SUCCESS)
		got++;
	CHECK(got == N, "%d of %d SENDs arrived", got, N);
out:
	if (a)
		ibv_destroy_qp(a);
	if (b)
		ibv_destroy_qp(b);
	if (mr)
		ibv_dereg_mr(mr);
	if (rcq)
		ibv_destroy_cq(rcq);
}

static void check_dm(struct ibv_context *ctx)
{
	struct ibv_alloc_dm_attr a = {.length = 4096};
	char in[64] = "device memory of a static program", out[64] = {};
	struct ibv_dm *dm = ibv_alloc_dm(ctx, &a);

	CHECK(dm, "ibv_alloc_dm: %m");
	if (!dm)
		return;
	CHECK(!ibv_memcpy_to_dm(dm, 128, in, sizeof(in)) &&
		      !ibv_memcpy_from_dm(out, dm, 128, sizeof(out)) &&
		      !memcmp(in, out, sizeof(in)),
	      "DM bytes: '%s'", out);
	CHECK(!ibv_free_dm(dm), "ibv_free_dm");
}

struct ev_wait {
	struct ibv_comp_channel *ch;
	struct ibv_cq *cq; /* the CQ the event names */
	int ret;
};

static void *wait_event(void *arg)
{
	struct ev_wait *w = arg;
	void *cq_ctx;

	w->ret = ibv_get_cq_event(w->ch, &w->cq, &cq_ctx);
	return NULL;
}

/*
 * One thread blocks in ibv_get_cq_event (a read the sim serves and that
 * must wait) while this one makes the MRs and the QP (ioctls and writes
 * the sim serves) whose completion wakes it. The waiting thread must not
 * keep the sim: before, every trap here waited behind its read forever.
 */
static void check_cq_event(struct ibv_context *ctx, struct ibv_pd *pd,
			   uint16_t lid)
{
	struct ibv_comp_channel *ch = ibv_create_comp_channel(ctx);
	struct ibv_cq *cq = ch ? ibv_create_cq(ctx, 16, NULL, ch, 0) : NULL;
	struct timespec pause = {0, 100000000};
	struct ev_wait w = {.ch = ch, .ret = -1};
	pthread_t t;

	CHECK(cq && !ibv_req_notify_cq(cq, 0), "channel and CQ: %m");
	if (!cq || pthread_create(&t, NULL, wait_event, &w)) {
		CHECK(0, "no waiting thread");
		return;
	}
	nanosleep(&pause, NULL); /* it is in read() by now */
	check_write(pd, cq, lid);
	CHECK(!pthread_join(t, NULL) && !w.ret && w.cq == cq,
	      "ibv_get_cq_event: %d, CQ %p (want %p)", w.ret, (void *)w.cq,
	      (void *)cq);
	ibv_ack_cq_events(cq, 1);
	CHECK(!ibv_destroy_cq(cq) && !ibv_destroy_comp_channel(ch),
	      "CQ and channel");
}

static void *query_loop(void *ctx)
{
	struct ibv_port_attr port;
	long bad = 0;
	int i;

	for (i = 0; i < 200; i++)
		bad += ibv_query_port(ctx, 1, &port) ||
		       port.state != IBV_PORT_ACTIVE;
	return (void *)bad;
}

static void check_threads(struct ibv_context *ctx)
{
	void *bad[4] = {};
	pthread_t t[4];
	int i;

	for (i = 0; i < 4; i++)
		CHECK(!pthread_create(&t[i], NULL, query_loop, ctx),
		      "pthread_create");
	for (i = 0; i < 4; i++)
		CHECK(!pthread_join(t[i], &bad[i]) && !bad[i],
		      "thread %d: %ld failed queries", i, (long)bad[i]);
}

int main(void)
{
	int fds = count_fds();
	struct ibv_port_attr port;
	struct ibv_context *ctx = open_mlx5_0();
	struct ibv_pd *pd;
	struct ibv_cq *cq;

	if (!ctx)
		return 1;
	CHECK(!ibv_query_port(ctx, 1, &port) && port.state == IBV_PORT_ACTIVE,
	      "port 1 state %d", port.state);
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	CHECK(pd && cq, "PD and CQ: %m");
	if (pd && cq) {
		check_destroy_after_post(pd, cq, port.lid);
		check_write(pd, cq, port.lid);
	}
	check_dm(ctx);
	check_threads(ctx);
	if (pd)
		check_cq_event(ctx, pd, port.lid);
	CHECK(!ibv_destroy_cq(cq) && !ibv_dealloc_pd(pd), "CQ and PD");
	CHECK(!ibv_close_device(ctx), "ibv_close_device");
	CHECK(count_fds() == fds, "fds: %d at start, %d at the end", fds,
	      count_fds());
	if (failures)
		fprintf(stderr, "static_verbs: %d failure(s)\n", failures);
	else
		printf("static_verbs: all checks passed\n");
	return failures ? 1 : 0;
}
