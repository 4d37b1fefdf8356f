// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The CM's timers as a ucma user sees them, through raw writes: a
 * passive side slow to accept (its CMA answers the repeated REQ with an
 * MRA, so the active side waits ~66 s per retry instead of ~4.6 s and is
 * still waiting after the 74 s a plain retry budget would take), the same
 * for an active side slow to send the RTU (its MRA for the repeated REP),
 * a late ACCEPT that still connects, and a SIDR request nobody answers:
 * UNREACHABLE -ETIMEDOUT after 16 sends of 4096 ms. About 80 s; the
 * bounds are lower bounds only, so a loaded host cannot fail them. Run
 * under rdma-sim --link-layer eth (mlx5_0 holds 192.168.1.1), or with the
 * address of an RDMA port as its argument.
 */
#include "ucma_util.h"
#include "../common/judge.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define EV_UNREACHABLE	7
#define PLAIN_BUDGET_MS 73728 /* 16 REQs x (4096 + 2 x 256) ms */
#define SIDR_BUDGET_MS	65536 /* 16 SIDR_REQs x 4096 ms */

/* A connection request from a new client to listener port `port`: the
 * client id, and the passive id in *s. */
static int request(int fd, uint64_t uid, uint16_t ps, uint16_t port, int *s)
{
	struct rdma_ucm_event_resp e;
	int c = client(fd, uid, ps, port);

	CHECK(conn(fd, RDMA_USER_CM_CMD_CONNECT, (uint32_t)c, 0, 0x40, NULL,
		   1) > 0,
	      "connect %llu", (unsigned long long)uid);
	expect_event(fd, EV_CONNECT_REQUEST, ~0u, &e, "request");
	*s = (int)e.id;
	return c;
}

int main(int argc, char **argv)
{
	struct rdma_ucm_event_resp e;
	int fd = ucma_open(), l, u, slow, slow_s, late, late_s, rtu, rtu_s;
	int sidr, sidr_s, unreachable = 0;
	long t0, t;

	if (fd < 0)
		return 1;
	if (argc > 1) /* another host's address (the real-kernel lane) */
		server_ip = argv[1];
	l = create_id(fd, 1, RDMA_PS_TCP);
	u = create_id(fd, 2, RDMA_PS_UDP);
	CHECK(bind_ip(fd, (uint32_t)l, server_ip, 7900) > 0 &&
		      listen_id(fd, (uint32_t)l, 8) > 0 &&
		      bind_ip(fd, (uint32_t)u, server_ip, 7901) > 0 &&
		      listen_id(fd, (uint32_t)u, 8) > 0,
	      "listeners");
	t0 = now_ms();
	slow = request(fd, 10, RDMA_PS_TCP, 7900, &slow_s);
	late = request(fd, 11, RDMA_PS_TCP, 7900, &late_s);
	rtu = request(fd, 12, RDMA_PS_TCP, 7900, &rtu_s);
	sidr = request(fd, 13, RDMA_PS_UDP, 7901, &sidr_s);
	/* rtu's REP is answered by no RTU: its active user sits on it */
	CHECK(conn(fd, RDMA_USER_CM_CMD_ACCEPT, (uint32_t)rtu_s, 22, 0x41, NULL,
		   1) > 0,
	      "accept rtu");
	expect_event(fd, EV_CONNECT_RESPONSE, (uint32_t)rtu, &e, "rtu's REP");
	/* late: accepted after the REQ's first wait (4.6 s) ran out */
	CHECK(get_event(fd, &e, 6000) == -ETIMEDOUT,
	      "no event in the first 6 s (event %u of id %u)", e.event, e.id);
	CHECK(conn(fd, RDMA_USER_CM_CMD_ACCEPT, (uint32_t)late_s, 21, 0x42,
		   NULL, 1) > 0,
	      "late accept");
	expect_event(fd, EV_CONNECT_RESPONSE, (uint32_t)late, &e,
		     "late accept's REP");
	CHECK(conn(fd, RDMA_USER_CM_CMD_ACCEPT, (uint32_t)late, 11, 0, NULL,
		   0) > 0,
	      "late RTU");
	expect_event(fd, EV_ESTABLISHED, (uint32_t)late_s, &e, "late RTU");
	/* until 78 s: only the SIDR request gives up. Its time is taken as
	 * it is read: a wait that began before the last SIDR_REQ's ran out
	 * returns it, later still if the host ran this process late */
	while (now_ms() - t0 < PLAIN_BUDGET_MS + 4000) {
		if (get_event(fd, &e, 500))
			continue;
		t = now_ms() - t0;
		CHECK(e.event == EV_UNREACHABLE && e.id == (uint32_t)sidr &&
			      (int)e.status == -ETIMEDOUT,
		      "at %ld ms: event %u of id %u status %d", t, e.event,
		      e.id, (int)e.status);
		CHECK(t >= SIDR_BUDGET_MS, "SIDR gave up after %ld ms", t);
		unreachable++;
	}
	CHECK(unreachable == 1, "SIDR UNREACHABLE once (%d)", unreachable);
	/* the MRA'd ones still connect */
	CHECK(conn(fd, RDMA_USER_CM_CMD_ACCEPT, (uint32_t)slow_s, 20, 0x43,
		   NULL, 1) > 0,
	      "accept after 78 s");
	expect_event(fd, EV_CONNECT_RESPONSE, (uint32_t)slow, &e, "slow REP");
	CHECK(conn(fd, RDMA_USER_CM_CMD_ACCEPT, (uint32_t)rtu, 12, 0, NULL, 0) >
		      0,
	      "RTU after 78 s");
	expect_event(fd, EV_ESTABLISHED, (uint32_t)rtu_s, &e, "late RTU");
	(void)sidr_s;
	close(fd);
	return ucma_report(failures, "ucma timers");
}
