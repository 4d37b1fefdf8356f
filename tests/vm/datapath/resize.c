// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Rings that move: ibv_resize_cq with completions queued, grown and shrunk
 * (the kernel copies them into a new ring the provider remaps; below the
 * number queued it refuses with EINVAL and keeps them), and growing an SRQ
 * with receives posted (same for WQEs). Nothing may be lost or reordered.
 */
#include <errno.h>
#include <string.h>

#include "dp.h"

/* n signaled RDMA WRITEs a -> b (wr_id base + i), all completed. */
static void queue_writes(struct dp_end *a, struct dp_end *b, int n,
			 uint64_t base)
{
	struct ibv_send_wr wr;
	struct ibv_sge sge;
	int i;

	for (i = 0; i < n; i++) {
		dp_wr(&wr, &sge, a, IBV_WR_RDMA_WRITE, (size_t)i * 64, 64, 0);
		wr.wr_id = base + (uint64_t)i;
		dp_post1(a, &wr);
	}
	dp_cq_idle(b->cq); /* let them all complete into the ring */
}

/* How many of the next n completions are base .. base + n - 1 in order. */
static int drain(struct ibv_cq *cq, int n, uint64_t base)
{
	struct ibv_wc wc;
	int i, in_order = 0;

	for (i = 0; i < n; i++)
		in_order += dp_poll(cq, &wc) == 1 &&
			    wc.status == IBV_WC_SUCCESS &&
			    wc.wr_id == base + (uint64_t)i;
	return in_order;
}

static void resize_cq(void)
{
	struct ibv_send_wr wr;
	struct ibv_sge sge;
	struct ibv_wc wc;
	struct dp_end a, b;
	struct ibv_cq *cq;
	int err, n;

	if (!dp_pair("resize_cq.setup", &a, &b, IBV_QPT_RC, NULL, 0))
		return;
	cq = a.cq;
	queue_writes(&a, &b, 3, 0);
	err = ibv_resize_cq(cq, 500);
	dp_check("resize_cq.grow", !err && cq->cqe >= 500, "err %d cqe %d", err,
		 cq->cqe);
	n = drain(cq, 3, 0);
	dp_check("resize_cq.kept_cqes", n == 3 && dp_cq_idle(cq),
		 "%d of 3 queued completions survived in order", n);
	/* The new ring works. */
	dp_wr(&wr, &sge, &a, IBV_WR_RDMA_WRITE, 0, 64, 0);
	wr.wr_id = 99;
	dp_post1(&a, &wr);
	dp_expect_wc("resize_cq.after", cq, &wc, IBV_WC_SUCCESS,
		     IBV_WC_RDMA_WRITE, 99);
	/* Shrink with completions queued; below them it is refused. */
	queue_writes(&a, &b, 4, 200);
	err = ibv_resize_cq(cq, 8);
	dp_check("resize_cq.shrink", !err && cq->cqe >= 8 && cq->cqe < 500,
		 "err %d cqe %d", err, cq->cqe);
	n = drain(cq, 4, 200);
	dp_check("resize_cq.shrink_kept", n == 4 && dp_cq_idle(cq),
		 "%d of 4 queued completions survived in order", n);
	queue_writes(&a, &b, 6, 300);
	err = ibv_resize_cq(cq, 3);
	dp_check("resize_cq.below_queued", err == EINVAL,
		 "resize to 3 with 6 queued: err %d", err);
	n = drain(cq, 6, 300);
	dp_check("resize_cq.below_queued_kept", n == 6 && dp_cq_idle(cq),
		 "%d of 6 queued completions survived in order", n);
	dp_check("resize_cq.too_small", ibv_resize_cq(cq, 0) == EINVAL,
		 "resize to 0 accepted");
	dp_end_destroy(&a);
	dp_end_destroy(&b);
}

static void grow_srq(void)
{
	struct ibv_srq_init_attr sa = {.attr = {.max_wr = 4, .max_sge = 1}};
	struct ibv_srq *srq = ibv_create_srq(dp.pd, &sa);
	struct ibv_srq_attr attr = {.max_wr = 64};
	struct ibv_recv_wr rwr, *bad;
	struct ibv_send_wr wr;
	struct ibv_sge sge, rsge;
	struct ibv_wc wc;
	struct dp_end s, r;
	int i, err, ok = 0;

	if (!dp_check("grow_srq.create", srq, "errno %d", errno))
		return;
	if (!dp_pair("grow_srq.setup", &s, &r, IBV_QPT_RC, srq, 0))
		return;
	rsge = (struct ibv_sge){.length = 64, .lkey = r.mr->lkey};
	rwr = (struct ibv_recv_wr){.sg_list = &rsge, .num_sge = 1};
	for (i = 0; i < 10; i++) {
		if (i == 4) {
			err = ibv_modify_srq(srq, &attr, IBV_SRQ_MAX_WR);
			dp_check("grow_srq.modify", !err, "err %d", err);
		}
		rsge.addr = (uintptr_t)r.buf + i * 64;
		rwr.wr_id = 300 + i;
		ibv_post_srq_recv(srq, &rwr, &bad);
	}
	for (i = 0; i < 10; i++) {
		dp_fill(s.buf + i * 64, 64, 40 + i);
		dp_wr(&wr, &sge, &s, IBV_WR_SEND, i * 64, 64, 0);
		dp_post1(&s, &wr);
		dp_poll(s.cq, &wc);
		ok += dp_poll(r.cq, &wc) == 1 && wc.status == IBV_WC_SUCCESS &&
		      wc.wr_id == (uint64_t)(300 + i) &&
		      !memcmp(r.buf + i * 64, s.buf + i * 64, 64);
	}
	dp_check("grow_srq.kept_wqes", ok == 10,
		 "%d of 10 receives (4 posted before the resize) right", ok);
	dp_end_destroy(&s);
	dp_end_destroy(&r);
	dp_check("grow_srq.destroy", !ibv_destroy_srq(srq), "failed");
}

void dp_resize(void)
{
	resize_cq();
	grow_srq();
}
