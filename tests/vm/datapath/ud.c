// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UD over RoCE v2: an AH with a GRH to our own GID, a SEND that arrives
 * with the 40-byte GRH area in front, the source QP, the Q_Key check, and
 * ibv_init_ah_from_wc/ibv_create_ah_from_wc on the received completion.
 */
#include <errno.h>
#include <string.h>

#include "dp.h"

#define QKEY 0x11111111

static int ud_send(struct dp_end *a, struct ibv_ah *ah, uint32_t qpn,
		   uint32_t qkey, uint32_t len)
{
	struct ibv_send_wr wr;
	struct ibv_sge sge;

	dp_wr(&wr, &sge, a, IBV_WR_SEND, 0, len, 0);
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = qpn;
	wr.wr.ud.remote_qkey = qkey;
	return dp_post1(a, &wr);
}

void dp_ud(void)
{
	struct ibv_ah_attr aa = {
		.is_global = 1,
		.grh = {.dgid = dp.gid,
			.sgid_index = (uint8_t)dp.gid_index,
			.hop_limit = 64},
		.port_num = 1,
	};
	struct dp_end a, b;
	struct ibv_ah *ah, *ah2;
	struct ibv_wc wc;

	if (!dp_pair("ud.setup", &a, &b, IBV_QPT_UD, NULL, 0))
		return;
	ah = ibv_create_ah(dp.pd, &aa);
	if (!dp_check("ud.create_ah", ah, "errno %d", errno))
		goto out;

	memset(b.buf, 0, DP_BUF);
	dp_fill(a.buf, 900, 20);
	dp_post_recv(&b, 0, 40 + 1024, 31);
	dp_check("ud.post", !ud_send(&a, ah, b.qp->qp_num, QKEY, 900),
		 "post failed");
	if (dp_expect_wc("ud.send.req", a.cq, &wc, IBV_WC_SUCCESS, IBV_WC_SEND,
			 0) &&
	    dp_expect_wc("ud.send.resp", b.cq, &wc, IBV_WC_SUCCESS, IBV_WC_RECV,
			 31)) {
		dp_check("ud.grh_and_bytes",
			 wc.byte_len == 40 + 900 && wc.wc_flags & IBV_WC_GRH &&
				 wc.src_qp == a.qp->qp_num &&
				 !memcmp(b.buf + 40, a.buf, 900),
			 "len %u flags %#x src_qp %#x", wc.byte_len,
			 wc.wc_flags, wc.src_qp);
		ah2 = ibv_create_ah_from_wc(dp.pd, &wc, (void *)b.buf, 1);
		if (dp_check("ud.ah_from_wc", ah2, "errno %d", errno)) {
			/* Reply on the AH built from the received GRH. */
			dp_post_recv(&a, 4096, 40 + 64, 32);
			ud_send(&b, ah2, a.qp->qp_num, QKEY, 64);
			dp_check("ud.reply",
				 dp_expect_wc("ud.reply.req", b.cq, &wc,
					      IBV_WC_SUCCESS, IBV_WC_SEND, 0) &&
					 dp_expect_wc("ud.reply.recv", a.cq,
						      &wc, IBV_WC_SUCCESS,
						      IBV_WC_RECV, 32),
				 "no reply");
			ibv_destroy_ah(ah2);
		}
	}

	/* A wrong Q_Key is dropped silently: nothing on the receive CQ. */
	dp_post_recv(&b, 0, 40 + 1024, 33);
	ud_send(&a, ah, b.qp->qp_num, QKEY + 1, 16);
	dp_expect_wc("ud.bad_qkey.req", a.cq, &wc, IBV_WC_SUCCESS, IBV_WC_SEND,
		     0);
	dp_check("ud.bad_qkey.dropped", dp_cq_idle(b.cq),
		 "a datagram with the wrong Q_Key was received");
	dp_check("ud.destroy_ah", !ibv_destroy_ah(ah), "failed");
out:
	dp_end_destroy(&a);
	dp_end_destroy(&b);
}
