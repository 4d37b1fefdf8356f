// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A completion that finds its CQ full: the CQ reports IBV_EVENT_CQ_ERR and
 * the QP whose completion it was takes a local catastrophic error, goes to
 * the Error state and reports IBV_EVENT_QP_FATAL. Requester side: a QP's
 * signaled RDMA WRITEs to itself complete into a two-entry send CQ nobody
 * polls. Responder side: another QP's SENDs land in receives whose CQ is
 * that small. The async events are read in full: these two, nothing else.
 * The same on Debian's libraries and on ours (LD_LIBRARY_PATH), mlx5.
 * Usage: debian_cq_overrun (built against Debian's libibverbs)
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <string.h>

#include "judge.h"
#include "qp_link.h"

#define NWR 8

struct env {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *big;
	uint16_t lid;
	char buf[4096];
};

static int link_to(struct env *e, struct ibv_qp *qp, uint32_t dest)
{
	struct qp_link l = qp_link_default(dest);

	l.dlid = e->lid;
	return qp_link_up(qp, &l);
}

static void post(struct ibv_qp *qp, struct env *e, enum ibv_wr_opcode op)
{
	struct ibv_sge sge = {(uintptr_t)e->buf, 8, e->mr->lkey};
	struct ibv_send_wr wr = {.sg_list = &sge,
				 .num_sge = 1,
				 .opcode = op,
				 .send_flags = IBV_SEND_SIGNALED,
				 .wr.rdma = {(uintptr_t)e->buf + 1024,
					     e->mr->rkey}},
			   *bad;
	int i;

	for (i = 0; i < NWR; i++)
		CHECK(!ibv_post_send(qp, &wr, &bad), "post_send %d", i);
}

/* The next async event within ms, or -1 with none. */
static int next_event(struct env *e, int ms, struct ibv_async_event *ev)
{
	struct pollfd p = {.fd = e->ctx->async_fd, .events = POLLIN};

	if (poll(&p, 1, ms) != 1 || ibv_get_async_event(e->ctx, ev))
		return -1;
	ibv_ack_async_event(ev);
	return 0;
}

/* Exactly CQ_ERR on cq, then QP_FATAL on qp, which is in ERR. */
static void expect_fatal(struct env *e, struct ibv_cq *cq, struct ibv_qp *qp,
			 const char *side)
{
	struct ibv_async_event ev;
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;

	CHECK(!next_event(e, 5000, &ev) && ev.event_type == IBV_EVENT_CQ_ERR &&
		      ev.element.cq == cq,
	      "%s: first event %d, want CQ_ERR on the full CQ", side,
	      ev.event_type);
	CHECK(!next_event(e, 5000, &ev) &&
		      ev.event_type == IBV_EVENT_QP_FATAL &&
		      ev.element.qp == qp,
	      "%s: second event %d, want QP_FATAL on its QP", side,
	      ev.event_type);
	CHECK(next_event(e, 300, &ev), "%s: a further event %d", side,
	      ev.event_type);
	CHECK(!ibv_query_qp(qp, &attr, IBV_QP_STATE, &init) &&
		      attr.qp_state == IBV_QPS_ERR,
	      "%s: QP state %d, want ERR (%d)", side, (int)attr.qp_state,
	      IBV_QPS_ERR);
}

static void requester(struct env *e)
{
	struct ibv_cq *small = ibv_create_cq(e->ctx, 1, NULL, NULL, 0);
	struct ibv_qp *qp =
		small ? qp_link_rc_qp(e->pd, small, e->big, NWR) : NULL;

	CHECK(qp && !link_to(e, qp, qp->qp_num), "requester QP: %s",
	      strerror(errno));
	if (qp) {
		post(qp, e, IBV_WR_RDMA_WRITE);
		expect_fatal(e, small, qp, "requester");
		CHECK(!ibv_destroy_qp(qp), "destroy_qp");
	}
	if (small)
		CHECK(!ibv_destroy_cq(small), "destroy_cq");
}

static void responder(struct env *e)
{
	struct ibv_cq *small = ibv_create_cq(e->ctx, 1, NULL, NULL, 0);
	struct ibv_qp *a = qp_link_rc_qp(e->pd, e->big, e->big, NWR);
	struct ibv_qp *b =
		small ? qp_link_rc_qp(e->pd, e->big, small, NWR) : NULL;
	struct ibv_sge sge = {(uintptr_t)e->buf + 2048, 64, e->mr->lkey};
	struct ibv_recv_wr rw = {.sg_list = &sge, .num_sge = 1}, *bad;
	int i;

	CHECK(a && b && !link_to(e, a, b->qp_num) && !link_to(e, b, a->qp_num),
	      "responder pair: %s", strerror(errno));
	if (a && b) {
		for (i = 0; i < NWR; i++)
			CHECK(!ibv_post_recv(b, &rw, &bad), "post_recv %d", i);
		post(a, e, IBV_WR_SEND);
		expect_fatal(e, small, b, "responder");
	}
	if (a)
		CHECK(!ibv_destroy_qp(a), "destroy_qp a");
	if (b)
		CHECK(!ibv_destroy_qp(b), "destroy_qp b");
	if (small)
		CHECK(!ibv_destroy_cq(small), "destroy_cq");
}

int main(void)
{
	struct env e = {0};

	e.ctx = qp_link_open("mlx5_0", &e.lid);
	CHECK(e.ctx, "open mlx5_0");
	if (!e.ctx)
		return 1;
	e.pd = ibv_alloc_pd(e.ctx);
	e.big = ibv_create_cq(e.ctx, 256, NULL, NULL, 0);
	e.mr = e.pd ? ibv_reg_mr(e.pd, e.buf, sizeof(e.buf),
				 IBV_ACCESS_LOCAL_WRITE |
					 IBV_ACCESS_REMOTE_WRITE)
		    : NULL;
	CHECK(e.pd && e.big && e.mr, "pd/cq/mr: %s", strerror(errno));
	if (!failures) {
		requester(&e);
		responder(&e);
	}
	if (e.mr)
		CHECK(!ibv_dereg_mr(e.mr), "dereg_mr");
	if (e.big)
		CHECK(!ibv_destroy_cq(e.big), "destroy_cq");
	if (e.pd)
		CHECK(!ibv_dealloc_pd(e.pd), "dealloc_pd");
	CHECK(!ibv_close_device(e.ctx), "close_device");
	fprintf(stderr, "debian_cq_overrun: %d failure(s)\n", failures);
	return failures ? 1 : 0;
}
