// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Judge program: built against Debian's own libibverbs-dev (rdma-core 44),
 * run under rdma-sim with Debian's provider (libmlx5, or librxe with
 * --driver rxe). The data-path objects through the real library: channel,
 * CQ, PD, MR, SRQ, QP bring-up to RTS, AH, EBUSY, async events, and (mlx5,
 * whose engine executes work) a completion channel fd that poll sees
 * readable exactly when an armed CQ gets a completion.
 * Usage: debian_verbs DEVICE
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge.h"
#include "qp_link.h"

struct env {
	struct ibv_context *ctx;
	struct ibv_comp_channel *ch;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	struct ibv_qp *qp;
	char buf[4096];
	int roce;
};

static int readable(int fd, int ms)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};

	return poll(&p, 1, ms) == 1;
}

/* RESET -> INIT -> RTR -> RTS, connected to itself (loopback). */
static int bring_up(struct env *e, struct ibv_qp *qp)
{
	struct qp_link l = qp_link_default(qp->qp_num);
	struct ibv_port_attr port;
	union ibv_gid gid;

	if (ibv_query_port(e->ctx, 1, &port))
		return -1;
	l.dlid = port.lid;
	if (e->roce) {
		ibv_query_gid(e->ctx, 1, 0, &gid);
		l.dgid = &gid;
		l.hop_limit = 1;
	}
	l.access = IBV_ACCESS_REMOTE_WRITE;
	return qp_link_up(qp, &l);
}

static struct ibv_qp *make_qp(struct env *e, struct ibv_srq *srq)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = e->cq,
		.recv_cq = e->cq,
		.srq = srq,
		.cap = {.max_send_wr = 8,
			.max_recv_wr = 8,
			.max_send_sge = 1,
			.max_recv_sge = 1},
		.qp_type = IBV_QPT_RC,
	};

	return ibv_create_qp(e->pd, &ia);
}

/* One signaled RDMA write to ourselves; the channel must wake for it
 * only when the CQ was armed. */
static void check_channel_wakes(struct env *e, int armed)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)e->buf, .length = 64, .lkey = e->mr->lkey};
	struct ibv_send_wr wr = {.sg_list = &sge,
				 .num_sge = 1,
				 .opcode = IBV_WR_RDMA_WRITE,
				 .send_flags = IBV_SEND_SIGNALED,
				 .wr.rdma = {.remote_addr =
						     (uintptr_t)e->buf + 2048,
					     .rkey = e->mr->rkey}},
			   *bad;
	struct ibv_cq *ev_cq = NULL;
	struct ibv_wc wc;
	void *ev_ctx;
	int n = 0, i, woke;

	if (armed)
		CHECK(!ibv_req_notify_cq(e->cq, 0), "req_notify");
	CHECK(!readable(e->ch->fd, 0), "channel readable before any work");
	CHECK(!ibv_post_send(e->qp, &wr, &bad), "post_send");
	woke = readable(e->ch->fd, armed ? 2000 : 200);
	CHECK(woke == armed, "channel readable %d for an %s CQ", woke,
	      armed ? "armed" : "unarmed");
	if (armed && woke) {
		CHECK(!ibv_get_cq_event(e->ch, &ev_cq, &ev_ctx) &&
			      ev_cq == e->cq,
		      "get_cq_event");
		ibv_ack_cq_events(e->cq, 1);
		CHECK(!readable(e->ch->fd, 0), "channel still readable");
	}
	for (i = 0; i < 2000 && !n; i++) {
		n = ibv_poll_cq(e->cq, 1, &wc);
		if (!n)
			usleep(1000);
	}
	CHECK(n == 1 && wc.status == IBV_WC_SUCCESS, "completion: %d %s", n,
	      n == 1 ? ibv_wc_status_str(wc.status) : "none");
}

/*
 * mlx5_ib answers QUERY_QP with the receive queue it was given (libmlx5
 * rounds 5 up to 8 WQEs), not with what was asked for; libmlx5 44 passes
 * the kernel's receive caps on.
 */
static void check_query_rq_size(struct env *e)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = e->cq,
		.recv_cq = e->cq,
		.cap = {.max_send_wr = 1, .max_recv_wr = 5, .max_recv_sge = 1},
		.qp_type = IBV_QPT_RC,
	};
	struct ibv_qp_attr a;
	struct ibv_qp *qp = ibv_create_qp(e->pd, &ia);

	CHECK(qp, "create_qp: %s", strerror(errno));
	if (!qp)
		return;
	memset(&ia, 0, sizeof(ia));
	CHECK(!ibv_query_qp(qp, &a, IBV_QP_CAP, &ia), "query_qp");
	CHECK(ia.cap.max_recv_wr == 8, "query_qp max_recv_wr %u, want 8",
	      ia.cap.max_recv_wr);
	CHECK(!ibv_destroy_qp(qp), "destroy_qp");
}

/* A CQ that overflows reports CQ_ERR on the async fd (mlx5 engine). */
static void check_cq_overrun(struct env *e)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)e->buf, .length = 8, .lkey = e->mr->lkey};
	struct ibv_send_wr wr = {.sg_list = &sge,
				 .num_sge = 1,
				 .opcode = IBV_WR_RDMA_WRITE,
				 .send_flags = IBV_SEND_SIGNALED,
				 .wr.rdma = {.remote_addr =
						     (uintptr_t)e->buf + 1024,
					     .rkey = e->mr->rkey}},
			   *bad;
	struct ibv_cq *cq = ibv_create_cq(e->ctx, 1, NULL, NULL, 0);
	struct ibv_async_event ev = {};
	struct ibv_qp *qp = NULL;
	struct env small = *e;
	int i;

	CHECK(cq, "create_cq(1): %s", strerror(errno));
	small.cq = cq;
	if (cq)
		qp = make_qp(&small, NULL);
	CHECK(qp && !bring_up(&small, qp), "QP on the small CQ");
	for (i = 0; qp && i < 8; i++)
		ibv_post_send(qp, &wr, &bad);
	CHECK(readable(e->ctx->async_fd, 2000), "no CQ_ERR event");
	if (readable(e->ctx->async_fd, 0)) {
		CHECK(!ibv_get_async_event(e->ctx, &ev) &&
			      ev.event_type == IBV_EVENT_CQ_ERR &&
			      ev.element.cq == cq,
		      "async event %d, want CQ_ERR", ev.event_type);
		ibv_ack_async_event(&ev);
	}
	if (qp)
		CHECK(!ibv_destroy_qp(qp), "destroy_qp");
	if (cq)
		CHECK(!ibv_destroy_cq(cq), "destroy_cq");
}

/* Objects that others use refuse to go; a QP's SQD raises (rxe). */
static void check_objects(struct env *e)
{
	struct ibv_srq_init_attr sa = {.attr = {.max_wr = 16, .max_sge = 1}};
	struct ibv_ah_attr aa = {.port_num = 1, .dlid = 1};
	struct ibv_async_event ev;
	struct ibv_srq *srq;
	struct ibv_qp *qp;
	struct ibv_ah *ah;

	srq = ibv_create_srq(e->pd, &sa);
	CHECK(srq, "create_srq: %s", strerror(errno));
	qp = srq ? make_qp(e, srq) : NULL;
	CHECK(qp, "create_qp on the SRQ: %s", strerror(errno));
	if (srq)
		CHECK(ibv_destroy_srq(srq) == EBUSY, "SRQ in use destroyed");
	CHECK(ibv_destroy_cq(e->cq) == EBUSY, "CQ in use destroyed");
	if (qp)
		CHECK(!ibv_destroy_qp(qp), "destroy_qp");
	if (srq)
		CHECK(!ibv_destroy_srq(srq), "destroy_srq");
	if (e->roce) {
		aa.is_global = 1;
		aa.grh.hop_limit = 1;
		ibv_query_gid(e->ctx, 1, 0, &aa.grh.dgid);
	}
	ah = ibv_create_ah(e->pd, &aa);
	CHECK(ah, "create_ah: %s", strerror(errno));
	CHECK(ibv_dealloc_pd(e->pd) == EBUSY, "PD in use deallocated");
	if (ah)
		CHECK(!ibv_destroy_ah(ah), "destroy_ah");
	if (!e->roce)
		return;
	/* rxe raises SQ_DRAINED on entering SQD */
	{
		struct ibv_qp_attr a = {.qp_state = IBV_QPS_SQD};

		CHECK(!ibv_modify_qp(e->qp, &a, IBV_QP_STATE), "to SQD");
		CHECK(readable(e->ctx->async_fd, 1000), "no async event");
		CHECK(!ibv_get_async_event(e->ctx, &ev) &&
			      ev.event_type == IBV_EVENT_SQ_DRAINED &&
			      ev.element.qp == e->qp,
		      "async event %d", ev.event_type);
		ibv_ack_async_event(&ev);
	}
}

int main(int argc, char **argv)
{
	struct env e = {};

	e.ctx = qp_link_open(argc > 1 ? argv[1] : "mlx5_0", NULL);
	if (!e.ctx) {
		fprintf(stderr, "debian_verbs: no device %s\n", argv[1]);
		return 1;
	}
	e.roce = !strncmp(ibv_get_device_name(e.ctx->device), "rxe", 3);
	e.ch = ibv_create_comp_channel(e.ctx);
	e.pd = ibv_alloc_pd(e.ctx);
	e.cq = e.ch ? ibv_create_cq(e.ctx, 64, NULL, e.ch, 0) : NULL;
	e.mr = e.pd ? ibv_reg_mr(e.pd, e.buf, sizeof(e.buf),
				 IBV_ACCESS_LOCAL_WRITE |
					 IBV_ACCESS_REMOTE_WRITE)
		    : NULL;
	CHECK(e.ch && e.pd && e.cq && e.mr, "channel/pd/cq/mr: %s",
	      strerror(errno));
	if (failures)
		return 1;
	CHECK(ibv_create_cq(e.ctx, 1 << 23, NULL, NULL, 0) == NULL,
	      "a CQ past max_cqe");
	e.qp = make_qp(&e, NULL);
	CHECK(e.qp && !bring_up(&e, e.qp), "QP to RTS: %s", strerror(errno));
	if (e.qp && e.roce) { /* librxe rings its doorbell with write() */
		struct ibv_sge sge = {.addr = (uintptr_t)e.buf,
				      .length = 8,
				      .lkey = e.mr->lkey};
		struct ibv_send_wr wr = {.sg_list = &sge,
					 .num_sge = 1,
					 .opcode = IBV_WR_SEND},
				   *bad;

		CHECK(!ibv_post_send(e.qp, &wr, &bad), "post_send: %s",
		      strerror(errno));
	}
	if (e.qp && !e.roce) { /* the rxe model executes no work */
		check_channel_wakes(&e, 0);
		check_channel_wakes(&e, 1);
		check_cq_overrun(&e);
		check_query_rq_size(&e);
	}
	if (e.qp)
		check_objects(&e);
	CHECK(ibv_destroy_comp_channel(e.ch) == EBUSY, "channel in use");
	CHECK(!ibv_destroy_qp(e.qp) && !ibv_dereg_mr(e.mr) &&
		      !ibv_destroy_cq(e.cq) &&
		      !ibv_destroy_comp_channel(e.ch) &&
		      !ibv_dealloc_pd(e.pd) && !ibv_close_device(e.ctx),
	      "teardown");
	if (failures) {
		fprintf(stderr, "debian_verbs: %d failure(s)\n", failures);
		return 1;
	}
	printf("debian_verbs %s: all checks passed\n",
	       argc > 1 ? argv[1] : "mlx5_0");
	return 0;
}
