// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * IB multicast reaches only the ports the SA made members that receive,
 * under `rdma-sim --netns --devices 2` (InfiniBand ports). Receiver UD
 * QPs on both ports attach to the group of 239.1.1.1 (the IPoIB mapping
 * of the UDP port space, MLID 0xc000), a third QP sends to it; the
 * memberships come from RDMA CM joins (raw ucma writes), which on IB are
 * the SA's. Each step sends one datagram and looks for exactly the
 * copies it must give: none before any join; a full member's port
 * receives; a send-only full member's does not; a port with both
 * receives, and again not once its full join is left; nobody once the
 * last receiving member left. The MULTICAST_JOIN events carry the SA's
 * group: MLID, SL 0, Q_Key, QPN 0xffffff, a GRH to the MGID. Every copy
 * received has the GRH the sender's AV makes, byte for byte: version 6,
 * PayLen (BTH, DETH, ImmDt on every other datagram, payload, ICRC), next
 * header BTH, the AV's hop limit, the sender's GID as it queries it, the
 * MGID.
 */
#include "ucma_util.h"
#include "../common/judge.h"
#include "../common/qp_link.h"

#include <arpa/inet.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define EV_MULTICAST_ERROR 13
#define QKEY		   0x01234567u
#define MLID		   0xc000
#define GRH		   40
#define LEN		   64
#define HOP_LIMIT	   1 /* ibv_ud_pingpong's */

static const uint8_t mgid[16] = {0xff, 0x12, 0x40, 0x01, 0xff, 0xff, [12] = 239,
				 1, 1, 1};

/* One UD QP of a device: a receiver, or the sender. */
struct end {
	uint8_t buf[GRH + LEN]; /* a datagram and the GRH before it */
	struct ibv_mr *mr;
	struct ibv_qp *qp;
	struct ibv_cq *cq; /* both directions */
	struct ibv_pd *pd;
	struct ibv_context *ctx;
};

static int end_open(struct end *e, struct ibv_device *dev)
{
	struct ibv_qp_init_attr a = {.qp_type = IBV_QPT_UD,
				     .cap = {.max_send_wr = 4,
					     .max_recv_wr = 4,
					     .max_send_sge = 1,
					     .max_recv_sge = 1}};
	struct qp_link l = qp_link_default(0);

	e->ctx = ibv_open_device(dev);
	e->pd = e->ctx ? ibv_alloc_pd(e->ctx) : NULL;
	e->cq = e->pd ? ibv_create_cq(e->ctx, 8, NULL, NULL, 0) : NULL;
	if (!e->cq)
		return -1;
	a.send_cq = a.recv_cq = e->cq;
	e->qp = ibv_create_qp(e->pd, &a);
	e->mr = ibv_reg_mr(e->pd, e->buf, sizeof(e->buf),
			   IBV_ACCESS_LOCAL_WRITE);
	l.qkey = QKEY;
	return e->qp && e->mr && !qp_link_up(e->qp, &l) ? 0 : -1;
}

static void end_close(struct end *e)
{
	CHECK(!ibv_destroy_qp(e->qp) && !ibv_dereg_mr(e->mr) &&
		      !ibv_destroy_cq(e->cq) && !ibv_dealloc_pd(e->pd) &&
		      !ibv_close_device(e->ctx),
	      "close an end");
}

static union ibv_gid sender_gid; /* device 0's GID 0 */

/* The GRH a copy of datagram tag (an immediate when tag is odd) has. */
static int grh_ok(const uint8_t *g, char tag)
{
	uint16_t paylen = htons(12 + 8 + (tag & 1 ? 4 : 0) + LEN + 4);
	uint8_t want[GRH] = {0x60, 0, 0, 0};

	memcpy(want + 4, &paylen, 2);
	want[6] = 0x1b;
	want[7] = HOP_LIMIT;
	memcpy(want + 8, sender_gid.raw, 16);
	memcpy(want + 24, mgid, 16);
	return !memcmp(g, want, GRH);
}

static int post_recv(struct end *e)
{
	struct ibv_sge s = {(uintptr_t)e->buf, sizeof(e->buf), e->mr->lkey};
	struct ibv_recv_wr w = {.sg_list = &s, .num_sge = 1}, *bad;

	memset(e->buf, 0, sizeof(e->buf));
	return ibv_post_recv(e->qp, &w, &bad);
}

/* One completion of e within ms: 1 (in wc), 0 none, -1 error. */
static int poll_one(struct end *e, struct ibv_wc *wc, int ms)
{
	const struct timespec tick = {.tv_nsec = 1000 * 1000};
	int i, n = 0;

	for (i = 0; i < ms && !n; i++) {
		n = ibv_poll_cq(e->cq, 1, wc);
		if (!n)
			nanosleep(&tick, NULL);
	}
	return n;
}

/* Send datagram `tag` from s to the group; then each receiver r[k] got
 * it exactly when want[k]. */
static void send_expect(struct end *s, struct ibv_ah *ah, struct end *r,
			const int *want, char tag, const char *what)
{
	struct ibv_sge sg = {(uintptr_t)s->buf, LEN, s->mr->lkey};
	struct ibv_send_wr w = {.sg_list = &sg,
				.num_sge = 1,
				.opcode = tag & 1 ? IBV_WR_SEND_WITH_IMM
						  : IBV_WR_SEND,
				.imm_data = htonl((uint32_t)tag),
				.send_flags = IBV_SEND_SIGNALED},
			   *bad;
	struct ibv_wc wc;
	int k;

	memset(s->buf, tag, LEN);
	w.wr.ud.ah = ah;
	w.wr.ud.remote_qpn = 0xffffff;
	w.wr.ud.remote_qkey = QKEY;
	CHECK(!ibv_post_send(s->qp, &w, &bad), "%s: post send", what);
	CHECK(poll_one(s, &wc, 3000) == 1 && wc.status == IBV_WC_SUCCESS &&
		      wc.opcode == IBV_WC_SEND,
	      "%s: send completes", what);
	for (k = 0; k < 2; k++) {
		int n = poll_one(&r[k], &wc, want[k] ? 3000 : 500);

		CHECK(n == !!want[k], "%s: port %d received %d, wanted %d",
		      what, k, n, want[k]);
		if (n != 1)
			continue;
		CHECK(wc.status == IBV_WC_SUCCESS &&
			      wc.opcode == IBV_WC_RECV &&
			      wc.byte_len == GRH + LEN &&
			      wc.src_qp == s->qp->qp_num &&
			      (wc.wc_flags & IBV_WC_GRH) &&
			      r[k].buf[GRH] == tag &&
			      r[k].buf[GRH + LEN - 1] == tag &&
			      grh_ok(r[k].buf, tag),
		      "%s: port %d: the datagram, its GRH to the MGID (hop "
		      "limit %u, PayLen %u)",
		      what, k, r[k].buf[7], r[k].buf[4] << 8 | r[k].buf[5]);
		CHECK(!post_recv(&r[k]), "repost");
	}
}

/* JOIN_MCAST of 239.1.1.1 on id with join_flags: the write's result. */
static long join(int fd, uint32_t id, uint64_t uid, uint16_t flags,
		 uint32_t *mc)
{
	struct rdma_ucm_join_mcast c = {.uid = uid, .id = id,
					.join_flags = flags};
	struct rdma_ucm_create_id_resp r = {.id = ~0u};

	c.response = (uintptr_t)&r;
	c.addr_size = sizeof(struct sockaddr_in);
	ip4((struct sockaddr_storage *)&c.addr, "239.1.1.1", 0);
	*mc = r.id;
	if (cmd(fd, RDMA_USER_CM_CMD_JOIN_MCAST, &c, sizeof(c), sizeof(r)) <
	    0)
		return -errno;
	*mc = r.id;
	return 0;
}

static void expect_join(int fd, uint32_t mc, uint64_t uid, const char *what)
{
	struct rdma_ucm_event_resp e;
	const struct ib_uverbs_ah_attr *ah = &e.param.ud.ah_attr;

	expect_event(fd, EV_MULTICAST_JOIN, mc, &e, what);
	CHECK(e.uid == uid && !e.status && e.param.ud.qp_num == 0xffffff &&
		      e.param.ud.qkey == QKEY,
	      "%s: uid %llu status %d QPN %#x Q_Key %#x", what,
	      (unsigned long long)e.uid, (int)e.status, e.param.ud.qp_num,
	      e.param.ud.qkey);
	CHECK(ah->dlid == MLID && ah->sl == 0 && ah->is_global &&
		      ah->port_num == 1 && ah->grh.sgid_index == 0 &&
		      ah->grh.hop_limit == 0 &&
		      !memcmp(ah->grh.dgid, mgid, 16),
	      "%s: the group's AV (MLID %#x, SL %u, GRH %u, hop limit %u)",
	      what, ah->dlid, ah->sl, ah->is_global, ah->grh.hop_limit);
}

static long leave(int fd, uint32_t mc)
{
	struct rdma_ucm_destroy_id_resp r;
	struct rdma_ucm_destroy_id c = {.id = mc, .response = (uintptr_t)&r};

	return cmd(fd, RDMA_USER_CM_CMD_LEAVE_MCAST, &c, sizeof(c), sizeof(r));
}

int main(void)
{
	static const int none[2], one[2] = {0, 1}, both[2] = {1, 1};
	struct ibv_ah_attr aa = {.dlid = MLID, .is_global = 1, .port_num = 1};
	struct end r[2] = {0}, s = {0};
	struct ibv_device **list;
	uint32_t full1, sendonly0, full0, extra;
	int n = 0, fd, id0, id1, k;
	struct ibv_ah *ah;

	list = ibv_get_device_list(&n);
	if (!list || n != 2) {
		fprintf(stderr, "needs two IB devices (rdma-sim --netns "
				"--devices 2)\n");
		return 1;
	}
	for (k = 0; k < 2; k++)
		CHECK(!end_open(&r[k], list[k]), "receiver on device %d", k);
	CHECK(!end_open(&s, list[0]) &&
		      !ibv_query_gid(s.ctx, 1, 0, &sender_gid),
	      "sender on device 0");
	ibv_free_device_list(list);
	fd = ucma_open();
	if (failures || fd < 0)
		return ucma_report(failures, "sim_mcast_ib_member");
	memcpy(aa.grh.dgid.raw, mgid, 16);
	aa.grh.hop_limit = HOP_LIMIT;
	ah = ibv_create_ah(s.pd, &aa);
	CHECK(ah, "AH to MLID %#x", MLID);
	for (k = 0; k < 2; k++)
		CHECK(!ibv_attach_mcast(r[k].qp, (const union ibv_gid *)mgid,
					MLID) &&
			      !post_recv(&r[k]),
		      "port %d: attach (the kernel asks no SA)", k);

	send_expect(&s, ah, r, none, 'a', "no member yet");

	id1 = create_id(fd, 11, RDMA_PS_UDP);
	id0 = create_id(fd, 10, RDMA_PS_UDP);
	CHECK(bind_ip(fd, (uint32_t)id1, "192.168.2.2", 0) > 0 &&
		      bind_ip(fd, (uint32_t)id0, "192.168.2.1", 0) > 0,
	      "UD ids bound to the IPoIB addresses of ports 1 and 0");
	CHECK(join(fd, (uint32_t)id1, 21, 0, &full1) == 0, "full join, port 1");
	expect_join(fd, full1, 21, "port 1 full member");
	send_expect(&s, ah, r, one, 'b', "port 1 a full member");

	CHECK(join(fd, (uint32_t)id0, 20, 1, &sendonly0) == 0,
	      "send-only join, port 0");
	expect_join(fd, sendonly0, 20, "port 0 send-only full member");
	send_expect(&s, ah, r, one, 'c', "port 0 send-only");

	CHECK(join(fd, (uint32_t)id0, 22, 0, &full0) == 0, "full join, port 0");
	expect_join(fd, full0, 22, "port 0 also a full member");
	send_expect(&s, ah, r, both, 'd', "both full members");

	CHECK(join(fd, (uint32_t)id0, 23, 2, &extra) == -EINVAL,
	      "join flags 2: EINVAL");
	CHECK(leave(fd, full0) > 0, "leave port 0's full join");
	send_expect(&s, ah, r, one, 'e', "port 0 send-only again");

	CHECK(leave(fd, full1) > 0, "leave port 1's join");
	send_expect(&s, ah, r, none, 'f', "no receiving member left");

	/* a full join again; the id's destroy leaves it */
	CHECK(join(fd, (uint32_t)id1, 24, 0, &full1) == 0, "join again");
	expect_join(fd, full1, 24, "port 1 full member again");
	send_expect(&s, ah, r, one, 'g', "port 1 again");
	CHECK(destroy_id(fd, (uint32_t)id1, NULL) > 0, "destroy port 1's id");
	send_expect(&s, ah, r, none, 'h', "port 1's id destroyed");

	CHECK(destroy_id(fd, (uint32_t)id0, NULL) > 0, "destroy port 0's id");
	for (k = 0; k < 2; k++)
		CHECK(!ibv_detach_mcast(r[k].qp, (const union ibv_gid *)mgid,
					MLID),
		      "detach %d", k);
	CHECK(!ibv_destroy_ah(ah), "destroy AH");
	for (k = 0; k < 2; k++)
		end_close(&r[k]);
	end_close(&s);
	close(fd);
	return ucma_report(failures, "sim_mcast_ib_member");
}
