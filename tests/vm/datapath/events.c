// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion events: a CQ on a completion channel, armed with
 * ibv_req_notify_cq, raises one event per arm (none while unarmed), read
 * with ibv_get_cq_event after poll() says the channel fd is readable, and
 * acknowledged before the CQ is destroyed.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>

#include "dp.h"

static bool readable(int fd, int ms)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};

	return poll(&p, 1, ms) == 1;
}

void dp_events(void)
{
	struct ibv_comp_channel *ch = ibv_create_comp_channel(dp.ctx);
	struct dp_end a, b;
	struct ibv_cq *ecq, *got_cq = NULL;
	struct ibv_send_wr wr;
	struct ibv_sge sge;
	struct ibv_wc wc;
	void *got_ctx = NULL;
	int tag = 7;

	if (!dp_check("events.channel", ch, "errno %d", errno))
		return;
	ecq = ibv_create_cq(dp.ctx, 16, &tag, ch, 0);
	if (!dp_check("events.cq", ecq, "errno %d", errno))
		return;
	if (!dp_check("events.setup",
		      !dp_end_create(&a, IBV_QPT_RC, NULL, 0, 0) &&
			      !dp_end_create(&b, IBV_QPT_RC, NULL, 0, 0),
		      "endpoints"))
		return;
	/* b receives on the event CQ. */
	ibv_destroy_qp(b.qp);
	{
		struct ibv_qp_init_attr qa = {
			.send_cq = b.cq,
			.recv_cq = ecq,
			.cap = {.max_send_wr = 8,
				.max_recv_wr = 8,
				.max_send_sge = 1,
				.max_recv_sge = 1},
			.qp_type = IBV_QPT_RC,
		};
		b.qp = ibv_create_qp(dp.pd, &qa);
	}
	if (!dp_check("events.connect", b.qp && !dp_connect(&a, &b), "failed"))
		goto out;
	dp_check("events.destroy_channel_busy",
		 ibv_destroy_comp_channel(ch) == EBUSY,
		 "a channel with a CQ was destroyed");

	/* Unarmed: a completion raises no event. */
	dp_post_recv(&b, 0, 64, 1);
	dp_wr(&wr, &sge, &a, IBV_WR_SEND, 0, 64, 0);
	dp_post1(&a, &wr);
	dp_expect_wc("events.unarmed.send", a.cq, &wc, IBV_WC_SUCCESS,
		     IBV_WC_SEND, 0);
	dp_expect_wc("events.unarmed.recv", ecq, &wc, IBV_WC_SUCCESS,
		     IBV_WC_RECV, 1);
	dp_check("events.unarmed.no_event", !readable(ch->fd, 100),
		 "event without arming");

	/* Armed: exactly one event for the next completion. */
	dp_check("events.arm", !ibv_req_notify_cq(ecq, 0), "req_notify");
	dp_post_recv(&b, 0, 64, 2);
	dp_post1(&a, &wr);
	dp_expect_wc("events.armed.send", a.cq, &wc, IBV_WC_SUCCESS,
		     IBV_WC_SEND, 0);
	if (dp_check("events.armed.readable", readable(ch->fd, 5000),
		     "no event in 5 s")) {
		dp_check("events.get",
			 !ibv_get_cq_event(ch, &got_cq, &got_ctx) &&
				 got_cq == ecq && got_ctx == &tag,
			 "wrong cq/context");
		dp_expect_wc("events.armed.recv", ecq, &wc, IBV_WC_SUCCESS,
			     IBV_WC_RECV, 2);
		ibv_ack_cq_events(ecq, 1);
	}
	dp_check("events.one_per_arm", !readable(ch->fd, 100),
		 "a second event without re-arming");
out:
	dp_end_destroy(&a);
	dp_end_destroy(&b);
	dp_check("events.cq_destroy", !ibv_destroy_cq(ecq), "failed");
	dp_check("events.channel_destroy", !ibv_destroy_comp_channel(ch),
		 "failed");
}
