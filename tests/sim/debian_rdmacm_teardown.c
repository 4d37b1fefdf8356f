// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The teardown libfabric's ofi_rxm meets at the end of fi_pingpong rdm
 * (tests/sim/rdmacm_judges.sh), through Debian's librdmacm on a RoCE port:
 * the client sends two messages, sees both complete, and destroys its QP
 * and id without a DISCONNECT (as libfabric's verbs endpoint closes). The
 * server, which has polled nothing yet, then reads DISCONNECTED, and
 * both receive completions are already in its CQ: the responder wrote
 * them before its ACKs, so before the client could destroy anything. A
 * consumer that destroys its QP on DISCONNECTED before polling loses
 * what is still there: the server polls one, destroys the QP, and the
 * other is gone on mlx5 (libmlx5 drops a destroyed QP's CQEs) but still
 * there on rxe (its CQ is the kernel's, which keeps them). On mlx5 the
 * lost message's bytes went with its CQE too (scatter to CQE, on unless
 * MLX5_SCATTER_TO_CQE=0): they never reach the buffer.
 * Run under rdma-sim --link-layer eth (port 1 holds 192.168.1.1).
 * Usage: debian_rdmacm_teardown mlx5|rxe
 */
#include <arpa/inet.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <rdma/rdma_cma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"

#define PORT	20886
#define WAIT_MS 10000
#define MSG	16

struct side {
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	char buf[2][MSG];
};

/* The next event on ch: NULL (and a failure) unless it is @want. */
static struct rdma_cm_event *next_event(struct rdma_event_channel *ch,
					enum rdma_cm_event_type want)
{
	struct pollfd p = {.fd = ch->fd, .events = POLLIN};
	struct rdma_cm_event *ev = NULL;

	if (poll(&p, 1, WAIT_MS) != 1 || rdma_get_cm_event(ch, &ev)) {
		CHECK(0, "no %s within %d ms", rdma_event_str(want), WAIT_MS);
		return NULL;
	}
	CHECK(ev->event == want, "event %s, wanted %s",
	      rdma_event_str(ev->event), rdma_event_str(want));
	if (ev->event == want)
		return ev;
	rdma_ack_cm_event(ev);
	return NULL;
}

static int make_qp(struct side *s)
{
	struct ibv_qp_init_attr a = {
		.qp_type = IBV_QPT_RC,
		.cap = {.max_send_wr = 4,
			.max_recv_wr = 4,
			.max_send_sge = 1,
			.max_recv_sge = 1},
	};

	s->pd = ibv_alloc_pd(s->id->verbs);
	s->cq = s->pd ? ibv_create_cq(s->id->verbs, 8, NULL, NULL, 0) : NULL;
	s->mr = s->cq ? ibv_reg_mr(s->pd, s->buf, sizeof(s->buf),
				   IBV_ACCESS_LOCAL_WRITE)
		      : NULL;
	a.send_cq = a.recv_cq = s->cq;
	if (!s->mr || rdma_create_qp(s->id, s->pd, &a)) {
		CHECK(0, "PD, CQ, MR, QP: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int post(struct side *s, int i, int send)
{
	struct ibv_sge sge = {(uintptr_t)s->buf[i], MSG, s->mr->lkey};
	struct ibv_send_wr swr = {.wr_id = (uint64_t)i,
				  .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED};
	struct ibv_recv_wr rwr = {
		.wr_id = (uint64_t)i, .sg_list = &sge, .num_sge = 1};
	struct ibv_send_wr *bs;
	struct ibv_recv_wr *br;

	return send ? ibv_post_send(s->id->qp, &swr, &bs)
		    : ibv_post_recv(s->id->qp, &rwr, &br);
}

/* Connected: the client's id and the server's (accepted) id. */
static int connect_pair(struct rdma_event_channel *sch,
			struct rdma_event_channel *cch,
			struct rdma_cm_id *listen, struct side *sv,
			struct side *cl)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(PORT)};
	struct rdma_conn_param cp = {.retry_count = 7};
	struct rdma_cm_event *ev;

	inet_pton(AF_INET, "192.168.1.1", &a.sin_addr);
	if (rdma_bind_addr(listen, (struct sockaddr *)&a) ||
	    rdma_listen(listen, 1) ||
	    rdma_resolve_addr(cl->id, NULL, (struct sockaddr *)&a, 2000)) {
		CHECK(0, "bind, listen, resolve: %s", strerror(errno));
		return -1;
	}
	ev = next_event(cch, RDMA_CM_EVENT_ADDR_RESOLVED);
	if (!ev)
		return -1;
	rdma_ack_cm_event(ev);
	if (rdma_resolve_route(cl->id, 2000))
		return -1;
	ev = next_event(cch, RDMA_CM_EVENT_ROUTE_RESOLVED);
	if (!ev)
		return -1;
	rdma_ack_cm_event(ev);
	if (make_qp(cl) || rdma_connect(cl->id, &cp))
		return -1;
	ev = next_event(sch, RDMA_CM_EVENT_CONNECT_REQUEST);
	if (!ev)
		return -1;
	sv->id = ev->id;
	rdma_ack_cm_event(ev);
	if (make_qp(sv) || post(sv, 0, 0) || post(sv, 1, 0) ||
	    rdma_accept(sv->id, &cp))
		return -1;
	ev = next_event(cch, RDMA_CM_EVENT_ESTABLISHED);
	if (!ev)
		return -1;
	rdma_ack_cm_event(ev);
	ev = next_event(sch, RDMA_CM_EVENT_ESTABLISHED);
	if (!ev)
		return -1;
	rdma_ack_cm_event(ev);
	return 0;
}

/* One completion of cq within WAIT_MS, or a failure. */
static int poll_one(struct ibv_cq *cq, struct ibv_wc *wc)
{
	int i, n = 0;

	for (i = 0; i < WAIT_MS && !n; i++) {
		n = ibv_poll_cq(cq, 1, wc);
		if (!n)
			poll(NULL, 0, 1);
	}
	return n;
}

/* MLX5_SCATTER_TO_CQE as libmlx5 reads it: on unless "0". */
static int scatter_to_cqe(void)
{
	const char *v = getenv("MLX5_SCATTER_TO_CQE");

	return !v || strcmp(v, "0");
}

static void teardown(struct side *s)
{
	if (s->id && s->id->qp)
		rdma_destroy_qp(s->id);
	if (s->mr)
		ibv_dereg_mr(s->mr);
	if (s->cq)
		ibv_destroy_cq(s->cq);
	if (s->pd)
		ibv_dealloc_pd(s->pd);
	if (s->id)
		rdma_destroy_id(s->id);
}

int main(int argc, char **argv)
{
	struct rdma_event_channel *sch = rdma_create_event_channel();
	struct rdma_event_channel *cch = rdma_create_event_channel();
	int rxe = argc > 1 && !strcmp(argv[1], "rxe");
	struct side sv = {0}, cl = {0};
	struct rdma_cm_id *listen = NULL;
	struct rdma_cm_event *ev;
	struct ibv_wc wc[2];
	int i, n;

	if (!sch || !cch || rdma_create_id(sch, &listen, NULL, RDMA_PS_TCP) ||
	    rdma_create_id(cch, &cl.id, NULL, RDMA_PS_TCP)) {
		fprintf(stderr, "FAIL: RDMA CM: %s\n", strerror(errno));
		return 1;
	}
	if (connect_pair(sch, cch, listen, &sv, &cl))
		goto out;
	/* the client: both sends complete, then QP and id destroyed */
	memcpy(cl.buf[0], "data", 5);
	memcpy(cl.buf[1], "fin", 4);
	CHECK(!post(&cl, 0, 1) && !post(&cl, 1, 1), "post sends");
	for (i = 0; i < 2; i++) {
		n = poll_one(cl.cq, &wc[i]);
		CHECK(n == 1 && wc[i].status == IBV_WC_SUCCESS &&
			      wc[i].wr_id == (uint64_t)i,
		      "client send %d: %d, %s", i, n,
		      n == 1 ? ibv_wc_status_str(wc[i].status) : "none");
	}
	rdma_destroy_qp(cl.id);
	rdma_destroy_id(cl.id);
	cl.id = NULL;
	/* the server reads the peer's disconnect before polling anything */
	ev = next_event(sch, RDMA_CM_EVENT_DISCONNECTED);
	if (ev)
		rdma_ack_cm_event(ev);
	n = ibv_poll_cq(sv.cq, 1, &wc[0]);
	CHECK(n == 1 && wc[0].status == IBV_WC_SUCCESS &&
		      wc[0].opcode == IBV_WC_RECV && wc[0].byte_len == MSG &&
		      !strcmp(sv.buf[0], "data"),
	      "after DISCONNECTED: the first receive's completion (%d)", n);
	/* what a consumer that destroys its QP now loses (ofi_rxm) */
	rdma_destroy_qp(sv.id);
	n = ibv_poll_cq(sv.cq, 2, wc);
	if (rxe)
		CHECK(n == 1 && wc[0].status == IBV_WC_SUCCESS &&
			      wc[0].wr_id == 1 && !strcmp(sv.buf[1], "fin"),
		      "rxe keeps the destroyed QP's second completion (%d)", n);
	else
		CHECK(n == 0,
		      "libmlx5 dropped the destroyed QP's second "
		      "completion: %d left",
		      n);
	/* mlx5 with scatter to CQE (libmlx5's default): the 16 bytes were
	 * in the dropped CQE, never in the buffer */
	if (rxe || !scatter_to_cqe())
		CHECK(!strcmp(sv.buf[1], "fin"), "the second message's bytes");
	else
		CHECK(!sv.buf[1][0], "the second message's bytes are in the "
				     "buffer, not in its dropped CQE");
out:
	teardown(&sv);
	teardown(&cl);
	if (listen)
		rdma_destroy_id(listen);
	rdma_destroy_event_channel(sch);
	rdma_destroy_event_channel(cch);
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	else
		printf("PASS: CQEs before the peer's DISCONNECTED (%s)\n",
		       rxe ? "rxe" : "mlx5");
	return failures ? 1 : 0;
}
