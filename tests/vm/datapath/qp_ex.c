// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The new post API (ibv_qp_ex / ibv_wr_*) on RC, read back through an
 * extended CQ (ibv_start_poll / ibv_next_poll / ibv_end_poll).
 */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "dp.h"

#define OPS                                                                    \
	(IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_SEND |                     \
	 IBV_QP_EX_WITH_SEND_WITH_IMM | IBV_QP_EX_WITH_RDMA_READ |             \
	 IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD)

/* Batch: WRITE + SEND_WITH_IMM (inline) + FETCH_ADD in one wr_complete. */
static void batch(struct dp_end *a, struct dp_end *b, struct ibv_qp_ex *qx)
{
	uint64_t *counter = (uint64_t *)(b->buf + 7000);
	char msg[] = "new post API, inline";
	struct ibv_wc wc;
	int err;

	*counter = 10;
	dp_fill(a->buf, 2000, 5);
	dp_post_recv(b, 4096, 64, 21);
	ibv_wr_start(qx);
	qx->wr_id = 1;
	qx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_rdma_write(qx, b->mr->rkey, (uintptr_t)b->buf);
	ibv_wr_set_sge(qx, a->mr->lkey, (uintptr_t)a->buf, 2000);
	qx->wr_id = 2;
	ibv_wr_send_imm(qx, htobe32(0x5151));
	ibv_wr_set_inline_data(qx, msg, sizeof(msg));
	qx->wr_id = 3;
	ibv_wr_atomic_fetch_add(qx, b->mr->rkey, (uintptr_t)counter, 3);
	ibv_wr_set_sge(qx, a->mr->lkey, (uintptr_t)a->buf + 7000, 8);
	err = ibv_wr_complete(qx);
	dp_check("qp_ex.batch.complete", !err, "wr_complete %d", err);
	if (dp_expect_wc("qp_ex.write.wc", a->cq, &wc, IBV_WC_SUCCESS,
			 IBV_WC_RDMA_WRITE, 1))
		dp_check("qp_ex.write.bytes", !memcmp(b->buf, a->buf, 2000),
			 "remote bytes differ");
	if (dp_expect_wc("qp_ex.send_imm.req", a->cq, &wc, IBV_WC_SUCCESS,
			 IBV_WC_SEND, 2) &&
	    dp_expect_wc("qp_ex.send_imm.resp", b->cq, &wc, IBV_WC_SUCCESS,
			 IBV_WC_RECV, 21))
		dp_check("qp_ex.send_imm.bytes",
			 wc.byte_len == sizeof(msg) &&
				 wc.imm_data == htobe32(0x5151) &&
				 !memcmp(b->buf + 4096, msg, sizeof(msg)),
			 "len %u imm %#x", wc.byte_len, be32toh(wc.imm_data));
	if (dp_expect_wc("qp_ex.fetch_add.wc", a->cq, &wc, IBV_WC_SUCCESS,
			 IBV_WC_FETCH_ADD, 3))
		dp_check("qp_ex.fetch_add.values",
			 *(uint64_t *)(a->buf + 7000) == 10 && *counter == 13,
			 "old %llu new %llu",
			 (unsigned long long)*(uint64_t *)(a->buf + 7000),
			 (unsigned long long)*counter);
}

/* wr_abort publishes nothing; too much inline data fails wr_complete. */
static void abort_and_errors(struct dp_end *a, struct ibv_qp_ex *qx)
{
	static char big[4096];
	int err;

	ibv_wr_start(qx);
	qx->wr_id = 50;
	qx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_rdma_write(qx, a->peer->mr->rkey, (uintptr_t)a->peer->buf);
	ibv_wr_set_sge(qx, a->mr->lkey, (uintptr_t)a->buf, 8);
	ibv_wr_abort(qx);
	dp_check("qp_ex.abort.nothing_sent", dp_cq_idle(a->cq),
		 "an aborted WR completed");

	ibv_wr_start(qx);
	ibv_wr_send(qx);
	ibv_wr_set_inline_data(qx, big, sizeof(big));
	err = ibv_wr_complete(qx);
	dp_check("qp_ex.inline_too_big", err == ENOSPC && dp_cq_idle(a->cq),
		 "wr_complete %d", err);
}

/* The extended CQ: read two completions with start/next/end_poll. */
static void cq_ex(void)
{
	struct ibv_cq_init_attr_ex ca = {
		.cqe = 16,
		.wc_flags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_QP_NUM,
	};
	struct ibv_poll_cq_attr pa = {};
	struct ibv_cq_ex *cq = ibv_create_cq_ex(dp.ctx, &ca);
	struct dp_end a, b;
	struct ibv_send_wr wr;
	struct ibv_sge sge;
	int got = 0, ret;
	uint32_t len = 0;

	if (!dp_check("cq_ex.create", cq, "errno %d", errno))
		return;
	ca.wc_flags = IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
	dp_check("cq_ex.unsupported_flag",
		 !ibv_create_cq_ex(dp.ctx, &ca) && errno == EOPNOTSUPP,
		 "errno %d", errno);
	if (!dp_check("cq_ex.setup",
		      !dp_end_create(&a, IBV_QPT_RC, NULL, 0, 0) &&
			      !dp_end_create(&b, IBV_QPT_RC, NULL, 0, 0),
		      "endpoints"))
		return;
	/* Re-home a's QP onto the extended CQ. */
	ibv_destroy_qp(a.qp);
	{
		struct ibv_qp_init_attr qa = {
			.send_cq = ibv_cq_ex_to_cq(cq),
			.recv_cq = ibv_cq_ex_to_cq(cq),
			.cap = {.max_send_wr = 8,
				.max_recv_wr = 8,
				.max_send_sge = 1,
				.max_recv_sge = 1},
			.qp_type = IBV_QPT_RC,
			.sq_sig_all = 1,
		};
		a.qp = ibv_create_qp(dp.pd, &qa);
	}
	if (!dp_check("cq_ex.connect", a.qp && !dp_connect(&a, &b), "failed"))
		goto out;
	dp_check("cq_ex.empty", ibv_start_poll(cq, &pa) == ENOENT,
		 "start_poll on an empty CQ");
	dp_wr(&wr, &sge, &a, IBV_WR_RDMA_WRITE, 0, 100, 0);
	dp_post1(&a, &wr);
	dp_wr(&wr, &sge, &a, IBV_WR_RDMA_WRITE, 0, 200, 0);
	dp_post1(&a, &wr);
	dp_cq_idle(b.cq); /* give the kernel time to complete both */
	for (int i = 0; i < 100 && got < 2; i++) {
		ret = ibv_start_poll(cq, &pa);
		if (ret == ENOENT) {
			dp_cq_idle(b.cq);
			continue;
		}
		while (!ret) {
			if (cq->status == IBV_WC_SUCCESS &&
			    ibv_wc_read_qp_num(cq) == a.qp->qp_num &&
			    ibv_wc_read_opcode(cq) == IBV_WC_RDMA_WRITE)
				len += ibv_wc_read_byte_len(cq);
			got++;
			ret = ibv_next_poll(cq);
		}
		ibv_end_poll(cq);
	}
	dp_check("cq_ex.poll", got == 2 && len == 300,
		 "%d completions, %u bytes", got, len);
out:
	dp_end_destroy(&a);
	dp_end_destroy(&b);
	dp_check("cq_ex.destroy", !ibv_destroy_cq(ibv_cq_ex_to_cq(cq)),
		 "destroy");
}

void dp_rc_new_api(void)
{
	struct dp_end a, b;
	struct ibv_qp_ex *qx;

	if (!dp_pair("qp_ex.setup", &a, &b, IBV_QPT_RC, NULL, OPS))
		return;
	qx = ibv_qp_to_qp_ex(a.qp);
	if (dp_check("qp_ex.to_qp_ex", qx != NULL, "NULL"))
		batch(&a, &b, qx);
	if (qx)
		abort_and_errors(&a, qx);
	dp_end_destroy(&a);
	dp_end_destroy(&b);
	cq_ex();
}
