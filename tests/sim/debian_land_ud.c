// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UD SENDs between a process and its fork child (hca_land_ud.c): a
 * ping-pong of ROUNDS datagrams of MSG bytes (two rounds in four 3 bytes
 * fewer: the packet pads them), every other one with an immediate, every
 * third one through an AH with a GRH, every fifth one sent with a
 * privileged Q_Key (high bit: the sender's QP's own is used). Each side
 * checks every receive completion (status, opcode, length with the
 * 40-byte GRH area, immediate, which receive it was, source QP, SLID, GRH
 * flag, P_Key index), the GRH byte for byte (version, traffic class and
 * flow label, PayLen with the immediate and the pad, next header, the
 * AV's hop limit, the sender's GID as it queries it, the receiver's) or
 * the untouched GRH area without one, the payload, and every send
 * completion. Every seventh round a datagram with a wrong
 * Q_Key goes first: it must be dropped, neither landed nor delivered
 * (the next receive takes the right one). At the end the parent sends
 * one byte more than the child's receive buffer holds: the child's
 * receive completes with LOC_LEN_ERR, as the ring path completes it.
 * Each receive completion is printed (no time stamps) for land.sh to
 * compare a run with landings and one without.
 * Usage: debian_land_ud DEVICE [CHILD_DEVICE] (the child's: DEVICE too
 * without one; built against Debian's libibverbs)
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <arpa/inet.h>
#include <unistd.h>

#include "judge.h"
#include "qp_link.h"

#define ROUNDS	 2000
#define MSG	 64
#define GRH	 40
#define SLOT	 (GRH + MSG) /* a receive buffer: GRH area, payload */
#define DEPTH	 16
#define QKEY	 0x11111111u
#define WAIT_SEC 60 /* wall time for one completion, however loaded */
#define AREA	 0xa5 /* what a GRH area without a GRH keeps */
/* the AH's GRH: ibv_ud_pingpong's hop limit, a class and a flow label */
#define HOP_LIMIT 1
#define TCLASS	  0x28
#define FLOW	  0x5a5a5

struct side {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *scq, *rcq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	struct ibv_ah *ah[2]; /* to the peer: without, with a GRH */
	union ibv_gid gid, peer_gid; /* as each side's query_gid says */
	uint32_t peer_qpn;
	uint16_t lid, peer_lid;
	uint8_t *buf; /* DEPTH receive slots, then the send buffer */
	uint32_t posted;
	const char *who;
};

static void fill(uint8_t *p, uint32_t len, uint32_t round, int from_child)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(round * 7 + i * 3 + from_child);
}

static int post_recv(struct side *s)
{
	uint8_t *slot = s->buf + (s->posted % DEPTH) * SLOT;
	struct ibv_sge sge = {(uintptr_t)slot, SLOT, s->mr->lkey};
	struct ibv_recv_wr wr = {.wr_id = s->posted, .sg_list = &sge,
				 .num_sge = 1};
	struct ibv_recv_wr *bad;

	memset(slot, AREA, SLOT);
	s->posted++;
	return ibv_post_recv(s->qp, &wr, &bad);
}

static int open_side(struct side *s, const char *dev, const char *who)
{
	struct ibv_qp_init_attr ia = {
		.qp_type = IBV_QPT_UD,
		.cap = {.max_send_wr = DEPTH, .max_recv_wr = DEPTH,
			.max_send_sge = 1, .max_recv_sge = 1},
	};

	s->who = who;
	s->ctx = qp_link_open(dev, &s->lid);
	if (!s->ctx || ibv_query_gid(s->ctx, 1, 0, &s->gid))
		return -1;
	if (qp_link_side(s->ctx, DEPTH, &s->buf, &s->pd, &s->scq, &s->rcq,
			 &s->mr))
		return -1;
	ia.send_cq = s->scq;
	ia.recv_cq = s->rcq;
	s->qp = ibv_create_qp(s->pd, &ia);
	return !s->mr || !s->qp ? -1 : 0;
}

/* Everything open_side and link_up made, in reverse (a sanitized build
 * counts what is left at exit as leaked). */
static void close_side(struct side *s)
{
	int i;

	for (i = 0; i < 2; i++)
		if (s->ah[i])
			ibv_destroy_ah(s->ah[i]);
	qp_link_close(s->qp, s->mr, s->scq, s->rcq, s->pd, s->ctx);
	free(s->buf);
}

static int use_grh(uint32_t round)
{
	return round % 3 == 0;
}

/* The GRH rounds (every third) meet each of: with or without an
 * immediate (odd rounds), padded or not. */
static uint32_t msg_len(uint32_t round)
{
	return round & 2 ? MSG - 3 : MSG;
}

/* Send len bytes of round's message with Q_Key qkey; its completion is
 * checked. */
static int send_msg(struct side *s, uint32_t round, int from_child,
		    uint32_t len, uint32_t qkey)
{
	uint8_t *p = s->buf + DEPTH * SLOT;
	struct ibv_sge sge = {(uintptr_t)p, len, s->mr->lkey};
	struct ibv_send_wr wr = {.wr_id = round, .sg_list = &sge,
				 .num_sge = 1, .send_flags = IBV_SEND_SIGNALED};
	struct ibv_send_wr *bad;
	struct ibv_wc wc;
	int n;

	fill(p, len, round, from_child);
	wr.opcode = round & 1 ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND;
	wr.imm_data = htonl(round);
	wr.wr.ud.ah = s->ah[use_grh(round)];
	wr.wr.ud.remote_qpn = s->peer_qpn;
	wr.wr.ud.remote_qkey = qkey;
	if (ibv_post_send(s->qp, &wr, &bad))
		return -1;
	n = qp_link_poll(s->scq, &wc, WAIT_SEC);
	CHECK(n == 1 && wc.status == IBV_WC_SUCCESS && wc.wr_id == round &&
		      wc.opcode == IBV_WC_SEND,
	      "%s: send %u: %d completions, status %s opcode %d wr_id %lu",
	      s->who, round, n, ibv_wc_status_str(wc.status), wc.opcode,
	      (unsigned long)wc.wr_id);
	return n == 1 && wc.status == IBV_WC_SUCCESS ? 0 : -1;
}

/* What both paths must agree on (no time stamp), and a sum of the
 * receive buffer, for land.sh's comparison. */
static void print_wc(const struct side *s, uint32_t round,
		     const struct ibv_wc *wc)
{
	const uint8_t *b = s->buf + (wc->wr_id % DEPTH) * SLOT;
	uint32_t sum = 0, i;

	for (i = 0; i < SLOT; i++)
		sum = sum * 31 + b[i];
	printf("%s %u: status %d opcode %d len %u wr_id %lu qp %#x src_qp %#x "
	       "slid %u sl %u path %u pkey %u flags %#x imm %#x sum %#x\n",
	       s->who, round, wc->status, wc->opcode, wc->byte_len,
	       (unsigned long)wc->wr_id, wc->qp_num, wc->src_qp, wc->slid,
	       wc->sl, wc->dlid_path_bits, wc->pkey_index, wc->wc_flags,
	       ntohl(wc->imm_data), sum);
}

/* The GRH area of round's receive: the GRH the peer's datagram carried
 * (PayLen: BTH 12, DETH 8, ImmDt 4, the payload padded to 4 bytes, ICRC
 * 4), or untouched. */
static int grh_ok(const struct side *s, const uint8_t *g, uint32_t round)
{
	uint32_t len = (msg_len(round) + 3) & ~3u;
	uint32_t w0 = 6u << 28 | TCLASS << 20 | FLOW;
	uint16_t paylen = (uint16_t)(12 + 8 + (round & 1 ? 4 : 0) + len + 4);
	uint8_t want[GRH];
	int i;

	memset(want, AREA, GRH);
	if (use_grh(round)) {
		w0 = htonl(w0);
		paylen = htons(paylen);
		memcpy(want, &w0, 4);
		memcpy(want + 4, &paylen, 2);
		want[6] = 0x1b; /* next header: BTH */
		want[7] = HOP_LIMIT;
		memcpy(want + 8, &s->peer_gid, 16);
		memcpy(want + 24, &s->gid, 16);
	}
	if (!memcmp(g, want, GRH))
		return 1;
	fprintf(stderr, "%s: round %u: GRH area, byte (wanted):", s->who,
		round);
	for (i = 0; i < GRH; i++)
		fprintf(stderr, " %02x(%02x)", g[i], want[i]);
	fprintf(stderr, "\n");
	return 0;
}

/* Receive round's message from the other side and check all of it (the
 * P_Key index without an immediate: the CQE holds one or the other). */
static int recv_msg(struct side *s, uint32_t round, int from_child)
{
	uint8_t want[MSG], *b;
	uint32_t len = msg_len(round);
	int imm = round & 1, grh = use_grh(round);
	struct ibv_wc wc = {0}; /* printed: fields a CQE does not set are 0 */

	if (qp_link_poll(s->rcq, &wc, WAIT_SEC) != 1) {
		CHECK(0, "%s: round %u: no receive completion in %d s",
		      s->who, round, WAIT_SEC);
		return -1;
	}
	print_wc(s, round, &wc);
	fill(want, len, round, from_child);
	b = s->buf + (wc.wr_id % DEPTH) * SLOT;
	CHECK(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV &&
		      wc.byte_len == GRH + len && wc.wr_id == round &&
		      !!(wc.wc_flags & IBV_WC_WITH_IMM) == imm &&
		      (!imm || ntohl(wc.imm_data) == round) &&
		      !!(wc.wc_flags & IBV_WC_GRH) == grh &&
		      wc.qp_num == s->qp->qp_num &&
		      wc.src_qp == s->peer_qpn && wc.slid == s->peer_lid &&
		      (imm || wc.pkey_index == 0),
	      "%s: round %u: status %s opcode %d len %u wr_id %lu flags %#x "
	      "imm %u src_qp %#x (want %#x) slid %u (want %u) pkey %u",
	      s->who, round, ibv_wc_status_str(wc.status), wc.opcode,
	      wc.byte_len, (unsigned long)wc.wr_id, wc.wc_flags,
	      ntohl(wc.imm_data), wc.src_qp, s->peer_qpn, wc.slid,
	      s->peer_lid, wc.pkey_index);
	CHECK(grh_ok(s, b, round), "%s: round %u: the GRH area is wrong",
	      s->who, round);
	CHECK(!memcmp(b + GRH, want, len),
	      "%s: round %u: the bytes received differ", s->who, round);
	return wc.status == IBV_WC_SUCCESS ? post_recv(s) : -1;
}

/* Exchange QP number, LID and GID over fd, bring the QP up, make the
 * AHs. */
static int link_up(struct side *s, int fd)
{
	struct {
		uint32_t qpn;
		uint16_t lid;
		union ibv_gid gid;
	} mine = {s->qp->qp_num, s->lid, s->gid}, peer;
	struct ibv_ah_attr aa = {.port_num = 1};
	struct qp_link l;
	int i;

	if (write(fd, &mine, sizeof(mine)) != sizeof(mine) ||
	    read(fd, &peer, sizeof(peer)) != sizeof(peer))
		return -1;
	s->peer_qpn = peer.qpn;
	s->peer_lid = peer.lid;
	s->peer_gid = peer.gid;
	l = qp_link_default(0);
	l.qkey = QKEY;
	if (qp_link_up(s->qp, &l))
		return -1;
	aa.dlid = peer.lid;
	s->ah[0] = ibv_create_ah(s->pd, &aa);
	aa.is_global = 1;
	aa.grh.dgid = peer.gid;
	aa.grh.hop_limit = HOP_LIMIT;
	aa.grh.traffic_class = TCLASS;
	aa.grh.flow_label = FLOW;
	s->ah[1] = ibv_create_ah(s->pd, &aa);
	if (!s->ah[0] || !s->ah[1])
		return -1;
	for (i = 0; i < DEPTH; i++)
		if (post_recv(s))
			return -1;
	/* both sides' receives are up before either sends */
	return write(fd, &mine, 1) == 1 && read(fd, &peer, 1) == 1 ? 0 : -1;
}

/* Round r's datagram: after a wrong Q_Key's every seventh round, with a
 * privileged Q_Key every fifth. */
static int send_round(struct side *s, uint32_t r, int from_child)
{
	if (r % 7 == 3 && send_msg(s, r, from_child, MSG, QKEY ^ 1))
		return -1;
	return send_msg(s, r, from_child, msg_len(r),
			r % 5 == 4 ? 0x80000000u : QKEY);
}

/* The child's last receive: a datagram too long for it. */
static void too_long(struct side *s)
{
	struct ibv_wc wc = {0};
	int n = qp_link_poll(s->rcq, &wc, WAIT_SEC);

	if (n == 1)
		print_wc(s, ROUNDS, &wc);
	CHECK(n == 1 && wc.status == IBV_WC_LOC_LEN_ERR &&
		      wc.wr_id == ROUNDS && wc.qp_num == s->qp->qp_num,
	      "%s: too long: %d completions, status %s wr_id %lu", s->who, n,
	      ibv_wc_status_str(wc.status), (unsigned long)wc.wr_id);
}

static int child(const char *dev, int fd)
{
	struct side s = {0};
	uint32_t r;

	if (open_side(&s, dev, "child") || link_up(&s, fd))
		return 2;
	for (r = 0; !failures && r < ROUNDS; r++)
		if (send_round(&s, r, 1) || recv_msg(&s, r, 0))
			break;
	if (!failures)
		too_long(&s);
	fflush(stdout);
	close_side(&s);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[1] : "mlx5_0";
	const char *child_dev = argc > 2 ? argv[2] : dev;
	int fd = -1, st = 0;
	struct side s = {0};
	uint32_t r;
	pid_t pid;

	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	/* the parent's context is open across the fork */
	CHECK(!open_side(&s, dev, "parent"), "parent: set-up: %s",
	      strerror(errno));
	if (failures)
		return 1;
	pid = qp_link_fork(&fd);
	if (pid == 0)
		exit(child(child_dev, fd)); /* its counters at exit */
	CHECK(pid > 0 && !link_up(&s, fd), "parent: link: %s",
	      strerror(errno));
	for (r = 0; !failures && r < ROUNDS; r++)
		if (recv_msg(&s, r, 1) || send_round(&s, r, 0))
			break;
	if (!failures)
		send_msg(&s, ROUNDS, 0, MSG + 1, QKEY);
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child: exit status %#x",
	      st);
	fflush(stdout);
	close_side(&s);
	return failures ? 1 : 0;
}
