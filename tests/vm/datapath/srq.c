// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * SRQ: two RC QPs share one SRQ on the receiving side; sends from two
 * senders consume its WQEs in order, and query reports the granted size.
 */
#include <errno.h>
#include <string.h>

#include "dp.h"

void dp_srq(void)
{
	struct ibv_srq_init_attr sa = {.attr = {.max_wr = 16, .max_sge = 1}};
	struct dp_end s1, s2, r1, r2;
	struct ibv_srq_attr q = {};
	struct ibv_recv_wr rwr[4], *bad = NULL;
	struct ibv_sge rsge[4];
	struct ibv_send_wr wr;
	struct ibv_sge sge;
	struct ibv_wc wc;
	struct ibv_srq *srq = ibv_create_srq(dp.pd, &sa);
	uint8_t *rbuf;
	int i, ok = 0;

	if (!dp_check("srq.create", srq && sa.attr.max_wr >= 16, "errno %d",
		      errno))
		return;
	dp_check("srq.query", !ibv_query_srq(srq, &q) && q.max_wr >= 16,
		 "max_wr %u", q.max_wr);
	if (!dp_check("srq.setup",
		      !dp_end_create(&s1, IBV_QPT_RC, NULL, 0, 0) &&
			      !dp_end_create(&s2, IBV_QPT_RC, NULL, 0, 0) &&
			      !dp_end_create(&r1, IBV_QPT_RC, srq, 0, 0) &&
			      !dp_end_create(&r2, IBV_QPT_RC, srq, 0, 0) &&
			      !dp_connect(&s1, &r1) && !dp_connect(&s2, &r2),
		      "create/connect failed"))
		return;
	dp_check("srq.qp_post_recv_einval",
		 dp_post_recv(&r1, 0, 8, 0) == EINVAL,
		 "a QP on an SRQ took a receive of its own");

	/* Receive buffers live in r1's MR (same PD as the SRQ). */
	rbuf = r1.buf;
	for (i = 0; i < 4; i++) {
		rsge[i] = (struct ibv_sge){.addr = (uintptr_t)rbuf + i * 1024,
					   .length = 1024,
					   .lkey = r1.mr->lkey};
		rwr[i] = (struct ibv_recv_wr){.wr_id = 100 + i,
					      .sg_list = &rsge[i],
					      .num_sge = 1,
					      .next = i < 3 ? &rwr[i + 1]
							    : NULL};
	}
	dp_check("srq.post", !ibv_post_srq_recv(srq, rwr, &bad), "failed");
	for (i = 0; i < 4; i++) {
		struct dp_end *s = (i & 1) ? &s2 : &s1;

		dp_fill(s->buf, 512, 10 + i);
		dp_wr(&wr, &sge, s, IBV_WR_SEND, 0, 512, 0);
		dp_post1(s, &wr);
		if (!dp_expect_wc("srq.send", s->cq, &wc, IBV_WC_SUCCESS,
				  IBV_WC_SEND, 0))
			continue;
		if (!dp_expect_wc("srq.recv", (i & 1) ? r2.cq : r1.cq, &wc,
				  IBV_WC_SUCCESS, IBV_WC_RECV, 100 + i))
			continue;
		ok += wc.byte_len == 512 &&
		      wc.qp_num == ((i & 1) ? r2.qp : r1.qp)->qp_num &&
		      !memcmp(rbuf + i * 1024, s->buf, 512);
	}
	dp_check("srq.bytes", ok == 4, "%d of 4 receives right", ok);

	rsge[0].length = 8;
	rwr[0].num_sge = 3; /* more than max_sge */
	rwr[0].next = NULL;
	dp_check("srq.too_many_sge",
		 ibv_post_srq_recv(srq, rwr, &bad) == EINVAL && bad == rwr,
		 "accepted");
	dp_check("srq.destroy_busy", ibv_destroy_srq(srq) == EBUSY,
		 "an SRQ in use was destroyed");
	dp_end_destroy(&s1);
	dp_end_destroy(&s2);
	dp_end_destroy(&r1);
	dp_end_destroy(&r2);
	dp_check("srq.destroy", !ibv_destroy_srq(srq), "failed");
}
