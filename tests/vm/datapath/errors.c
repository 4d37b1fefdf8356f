// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Error completions: an RDMA WRITE with a wrong rkey completes with
 * IBV_WC_REM_ACCESS_ERR, the QP is then in ERR (query says so), and WRs
 * posted afterwards complete with IBV_WC_WR_FLUSH_ERR; receives on the
 * peer are untouched. Also posting before RTS and bad arguments.
 */
#include <errno.h>
#include <string.h>

#include "dp.h"

static void bad_rkey(void)
{
	struct dp_end a, b;
	struct ibv_qp_attr qa;
	struct ibv_qp_init_attr ia;
	struct ibv_send_wr wr;
	struct ibv_sge sge;
	struct ibv_wc wc;
	int i, flushed = 0;

	if (!dp_pair("err.setup", &a, &b, IBV_QPT_RC, NULL, 0))
		return;
	memset(b.buf, 0xab, 64);
	dp_wr(&wr, &sge, &a, IBV_WR_RDMA_WRITE, 0, 64, 0);
	wr.wr.rdma.rkey ^= 0x5a5a00;
	dp_post1(&a, &wr);
	dp_expect_wc("err.bad_rkey.status", a.cq, &wc, IBV_WC_REM_ACCESS_ERR,
		     IBV_WC_RDMA_WRITE, 0);
	dp_check("err.bad_rkey.untouched",
		 b.buf[0] == 0xab && b.buf[63] == 0xab,
		 "the target was written");
	dp_check("err.qp_in_err",
		 !ibv_query_qp(a.qp, &qa, IBV_QP_STATE, &ia) &&
			 qa.qp_state == IBV_QPS_ERR,
		 "state %d", qa.qp_state);

	/* Later WRs flush, signaled or not. */
	for (i = 0; i < 3; i++) {
		dp_wr(&wr, &sge, &a, IBV_WR_RDMA_WRITE, 0, 64, 0);
		wr.wr_id = 200 + i;
		wr.send_flags = 0;
		dp_post1(&a, &wr);
	}
	for (i = 0; i < 3; i++)
		flushed += dp_poll(a.cq, &wc) == 1 &&
			   wc.status == IBV_WC_WR_FLUSH_ERR &&
			   wc.wr_id == (uint64_t)(200 + i);
	dp_check("err.flush", flushed == 3, "%d of 3 flushed in order",
		 flushed);
	dp_end_destroy(&a);
	dp_end_destroy(&b);
}

static void bad_args(void)
{
	struct dp_end a;
	struct ibv_send_wr wr, *bad = NULL;
	struct ibv_sge sge[40];
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr qa;
	int err, i;

	if (!dp_check("err.args.setup",
		      !dp_end_create(&a, IBV_QPT_RC, NULL, 0, 0), "create"))
		return;
	/* RESET: receives are refused (C10-97.2.1). */
	dp_check("err.recv_in_reset", dp_post_recv(&a, 0, 8, 0) == EINVAL,
		 "accepted");
	/* Sends before RTS: the kernel refuses the doorbell. */
	dp_wr(&wr, &sge[0], &a, IBV_WR_SEND, 0, 8, 0);
	err = dp_post1(&a, &wr);
	dp_check("err.send_before_rts", err == EINVAL, "post %d", err);
	dp_check("err.send_before_rts.no_cqe", dp_cq_idle(a.cq), "completed");
	/* One SGE more than the kernel granted (it rounds the request up). */
	if (ibv_query_qp(a.qp, &qa, IBV_QP_CAP, &ia) ||
	    ia.cap.max_send_sge >= 40) {
		dp_check("err.too_many_sge", false, "query_qp cap");
		goto out;
	}
	dp_wr(&wr, &sge[0], &a, IBV_WR_SEND, 0, 8, 0);
	for (i = 1; i < 40; i++)
		sge[i] = sge[0];
	wr.num_sge = (int)ia.cap.max_send_sge + 1;
	bad = NULL;
	err = ibv_post_send(a.qp, &wr, &bad);
	dp_check("err.too_many_sge", err == EINVAL && bad == &wr,
		 "post %d with %d SGEs (granted %u)", err, wr.num_sge,
		 ia.cap.max_send_sge);
out:
	dp_end_destroy(&a);
}

void dp_errors(void)
{
	bad_rkey();
	bad_args();
}
