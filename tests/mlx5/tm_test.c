// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Tag-matching SRQs under rdma-sim.
 *
 *   tm_test [NDEV]      mlx5 (IB), NDEV 1 by default: caps, every bad create's errno, list
 *                       operations and their CQEs, expected / unexpected /
 *                       no-tag messages with their bytes, the phase sync,
 *                       removal racing a match, a rendezvous (the HCA
 *                       READs the data, then sends the FIN); the sender
 *                       is a second process on device NDEV. Teardown: every
 * destroy succeeds (EBUSY while in use), and the fds and mappings of the
 * peer-less part are counted. tm_test none ERRNO  a device without tag matching
 * (rxe, mlx5 on Ethernet): tm_caps zero, a TM SRQ fails with ERRNO (named:
 * EOPNOTSUPP or EINVAL).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <infiniband/tm_types.h>

#include "check_exit.h"
#include "dm_util.h"
#include "rdma_util.h"

#define LEN	  8192
#define MSG	  200 /* payload after the TMH */
#define TMH	  16
#define NTAGS	  15
#define MAX_OPS	  16
#define SRQ_WR_ID 77
#define NO_TAG_ID 78

#define CHECK_ERRNO(call, want)                                                \
	do {                                                                   \
		errno = 0;                                                     \
		CHECK(!(call) && errno == (want), "%s: errno %d, want %d",     \
		      #call, errno, want);                                     \
	} while (0)

/* What the client sends: a TMH opcode and tag; op 0xff ends it. An RNDV
 * header points at MSG bytes of the client's at RNDV_OFF, and the client
 * waits for the FIN in its receive at FIN_OFF. */
struct order {
	uint8_t op;
	uint64_t tag;
	uint32_t app_ctx;
};

#define RNDV_OFF 2048
#define FIN_OFF	 4096
#define RNDV_HDR 64 /* tm_caps.max_rndv_hdr_size */

/* TMH (and for RNDV the RVH) at buf; the length to send. */
static uint32_t build_header(uint8_t *buf, const struct order *o,
			     const struct ibv_mr *mr)
{
	uint32_t be32 = htobe32(o->app_ctx);
	uint64_t be64 = htobe64(o->tag);

	memset(buf, 0, RNDV_HDR);
	buf[0] = o->op;
	memcpy(buf + 4, &be32, 4);
	memcpy(buf + 8, &be64, 8);
	if (o->op != IBV_TMH_RNDV) {
		fill_pattern(buf + TMH, MSG, (unsigned int)o->tag);
		return TMH + MSG;
	}
	fill_pattern(buf + RNDV_OFF, MSG, (unsigned int)o->tag);
	be64 = htobe64((uintptr_t)buf + RNDV_OFF);
	memcpy(buf + 16, &be64, 8);
	be32 = htobe32(mr->rkey);
	memcpy(buf + 24, &be32, 4);
	be32 = htobe32(MSG);
	memcpy(buf + 28, &be32, 4);
	return RNDV_HDR;
}

/* The FIN the receiving HCA sends back: a TMH naming the rendezvous. */
static void check_fin(struct rdma_ep *ep, const uint8_t *buf,
		      const struct order *o)
{
	uint32_t be32 = htobe32(o->app_ctx);
	uint64_t be64 = htobe64(o->tag);
	struct ibv_wc wc;

	CHECK(ep_poll(ep, &wc, 1) == 1 && wc.status == IBV_WC_SUCCESS &&
		      wc.opcode == IBV_WC_RECV && wc.wr_id == 99 &&
		      wc.byte_len == TMH,
	      "FIN: %s opcode %d len %u", ibv_wc_status_str(wc.status),
	      wc.opcode, wc.byte_len);
	CHECK(buf[0] == IBV_TMH_FIN && !memcmp(buf + 4, &be32, 4) &&
		      !memcmp(buf + 8, &be64, 8),
	      "FIN header");
}

struct wire {
	uint32_t lid, qpn;
};

/* ---- the sender (second process) ---- */

static int client(struct ibv_device *dev, int sock)
{
	struct ep_opts o = {.type = IBV_QPT_RC};
	struct wire mine, theirs;
	struct rdma_host h;
	struct rdma_ep ep;
	struct order ord;
	struct ibv_wc wc;
	uint32_t len;

	CHECK(!host_open(&h, dev, LEN,
			 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ),
	      "host");
	CHECK(!ep_open(&ep, h.ctx, h.pd, &o), "ep");
	mine = (struct wire){ep.lid, ep.qpn};
	CHECK(write(sock, &mine, sizeof(mine)) == sizeof(mine), "send");
	CHECK(read(sock, &theirs, sizeof(theirs)) == sizeof(theirs), "recv");
	CHECK(!ep_connect(&ep, (uint16_t)theirs.lid, theirs.qpn), "connect");
	for (;;) {
		CHECK(read(sock, &ord, sizeof(ord)) == sizeof(ord), "order");
		if (ord.op == 0xff)
			break;
		len = build_header(h.buf, &ord, h.mr);
		if (ord.op == IBV_TMH_RNDV)
			CHECK(!ep_recv(&ep, h.buf + FIN_OFF, 64, h.mr->lkey,
				       99),
			      "recv");
		CHECK(!ep_post(&ep, IBV_WR_SEND, h.buf, len, h.mr->lkey, 0, 0,
			       IBV_SEND_SIGNALED, ord.tag),
		      "send");
		CHECK(ep_poll(&ep, &wc, 1) == 1 &&
			      wc.status == IBV_WC_SUCCESS &&
			      wc.opcode == IBV_WC_SEND,
		      "send completion %s", ibv_wc_status_str(wc.status));
		if (ord.op == IBV_TMH_RNDV)
			check_fin(&ep, h.buf + FIN_OFF, &ord);
		CHECK(write(sock, "s", 1) == 1, "ack");
	}
	ep_close(&ep);
	CHECK(!host_close(&h), "host_close");
	return 0;
}

/* ---- the receiver ---- */

struct server {
	struct rdma_host h;
	struct ibv_cq_ex *cq;
	struct ibv_srq *srq;
	struct rdma_ep ep;
	int sock;
	uint32_t unexp; /* unexpected messages seen */
};

struct tm_wc {
	enum ibv_wc_status status;
	enum ibv_wc_opcode opcode;
	uint64_t wr_id;
	unsigned int flags;
	uint32_t byte_len;
	struct ibv_wc_tm_info tm;
};

static struct tm_wc next_wc(struct server *s)
{
	struct ibv_poll_cq_attr a = {};
	struct tm_wc w = {};
	int i, r = ENOENT;

	for (i = 0; i < 10000000 && r == ENOENT; i++)
		r = ibv_start_poll(s->cq, &a);
	CHECK(!r, "no completion (%d)", r);
	w.status = s->cq->status;
	w.wr_id = s->cq->wr_id;
	w.opcode = ibv_wc_read_opcode(s->cq);
	w.flags = ibv_wc_read_wc_flags(s->cq);
	w.byte_len = ibv_wc_read_byte_len(s->cq);
	ibv_wc_read_tm_info(s->cq, &w.tm);
	ibv_end_poll(s->cq);
	return w;
}

static void no_more_wc(struct server *s)
{
	struct ibv_poll_cq_attr a = {};

	CHECK(ibv_start_poll(s->cq, &a) == ENOENT, "a completion too many");
}

static void send_msg(struct server *s, uint8_t op, uint64_t tag,
		     uint32_t app_ctx)
{
	struct order o;
	char c;

	memset(&o, 0, sizeof(o)); /* padding too: it goes on the socket */
	o.op = op;
	o.tag = tag;
	o.app_ctx = app_ctx;
	CHECK(write(s->sock, &o, sizeof(o)) == sizeof(o), "order");
	CHECK(read(s->sock, &c, 1) == 1 && c == 's', "sent");
}

static int post_op(struct server *s, struct ibv_ops_wr *wr)
{
	struct ibv_ops_wr *bad = NULL;
	int err = ibv_post_srq_ops(s->srq, wr, &bad);

	CHECK(!err || bad == wr, "bad_wr %p, want %p", (void *)bad, (void *)wr);
	return err;
}

/* Add tag/mask with a buffer at off; the handle. */
static uint32_t add_tag(struct server *s, uint64_t tag, uint64_t mask,
			size_t off, uint64_t recv_wr_id, unsigned int flags)
{
	struct ibv_sge sge = {(uintptr_t)s->h.buf + off, MSG, s->h.mr->lkey};
	struct ibv_ops_wr wr = {
		.wr_id = 1000 + recv_wr_id,
		.opcode = IBV_WR_TAG_ADD,
		.flags = IBV_OPS_SIGNALED | flags,
		.tm = {.unexpected_cnt = s->unexp,
		       .add = {recv_wr_id, &sge, 1, tag, mask}},
	};

	CHECK(!post_op(s, &wr), "add");
	return wr.tm.handle;
}

static void expect_list_wc(struct server *s, enum ibv_wc_opcode op,
			   uint64_t wr_id, enum ibv_wc_status st,
			   unsigned int flags)
{
	struct tm_wc w = next_wc(s);

	CHECK(w.opcode == op && w.wr_id == wr_id && w.status == st &&
		      w.flags == flags,
	      "list wc: opcode %d wr_id %llu %s flags %#x; want %d %llu %s "
	      "%#x",
	      w.opcode, (unsigned long long)w.wr_id,
	      ibv_wc_status_str(w.status), w.flags, op,
	      (unsigned long long)wr_id, ibv_wc_status_str(st), flags);
}

/* A message that matched: wr_id, flags, tag, priv and its bytes. */
static void expect_match(struct server *s, uint64_t wr_id, uint64_t tag,
			 uint32_t app_ctx, size_t off)
{
	struct tm_wc w = next_wc(s);
	uint8_t want[MSG];

	CHECK(w.status == IBV_WC_SUCCESS && w.opcode == IBV_WC_TM_RECV &&
		      w.wr_id == wr_id &&
		      w.flags == (IBV_WC_TM_MATCH | IBV_WC_TM_DATA_VALID) &&
		      w.tm.tag == tag && w.tm.priv == app_ctx &&
		      w.byte_len == MSG,
	      "match wc: %s opcode %d wr_id %llu flags %#x tag %#llx priv %#x "
	      "len %u",
	      ibv_wc_status_str(w.status), w.opcode,
	      (unsigned long long)w.wr_id, w.flags,
	      (unsigned long long)w.tm.tag, w.tm.priv, w.byte_len);
	fill_pattern(want, MSG, (unsigned int)tag);
	CHECK(!memcmp(s->h.buf + off, want, MSG), "tagged buffer bytes");
}

/* A rendezvous: CONSUMED (match, the TMH), then EXPECTED (the data). */
static void expect_rndv(struct server *s, uint64_t wr_id, uint64_t tag,
			uint32_t app_ctx, size_t off)
{
	struct tm_wc w = next_wc(s);
	uint8_t want[MSG];

	CHECK(w.status == IBV_WC_SUCCESS && w.opcode == IBV_WC_TM_RECV &&
		      w.wr_id == wr_id && w.flags == IBV_WC_TM_MATCH &&
		      w.tm.tag == tag && w.tm.priv == app_ctx,
	      "rndv match wc: %s opcode %d wr_id %llu flags %#x tag %#llx",
	      ibv_wc_status_str(w.status), w.opcode,
	      (unsigned long long)w.wr_id, w.flags,
	      (unsigned long long)w.tm.tag);
	w = next_wc(s);
	CHECK(w.status == IBV_WC_SUCCESS && w.opcode == IBV_WC_TM_RECV &&
		      w.wr_id == wr_id && w.flags == IBV_WC_TM_DATA_VALID &&
		      w.byte_len == MSG && w.tm.tag == 0,
	      "rndv data wc: %s opcode %d wr_id %llu flags %#x len %u",
	      ibv_wc_status_str(w.status), w.opcode,
	      (unsigned long long)w.wr_id, w.flags, w.byte_len);
	fill_pattern(want, MSG, (unsigned int)tag);
	CHECK(!memcmp(s->h.buf + off, want, MSG), "rendezvous bytes");
}

/* A message in the SRQ WQE at SRQ_OFF: the whole of it, TMH included. */
#define SRQ_OFF 4096
static void expect_in_srq(struct server *s, enum ibv_wc_opcode op,
			  uint64_t wr_id, uint8_t tmh_op, uint64_t tag)
{
	struct tm_wc w = next_wc(s);
	uint8_t want[MSG];
	uint64_t be = htobe64(tag);

	CHECK(w.status == IBV_WC_SUCCESS && w.opcode == op &&
		      w.wr_id == wr_id &&
		      !(w.flags & (IBV_WC_TM_MATCH | IBV_WC_TM_DATA_VALID)) &&
		      w.byte_len == TMH + MSG && w.tm.tag == 0,
	      "srq wc: %s opcode %d wr_id %llu flags %#x len %u tag %#llx",
	      ibv_wc_status_str(w.status), w.opcode,
	      (unsigned long long)w.wr_id, w.flags, w.byte_len,
	      (unsigned long long)w.tm.tag);
	fill_pattern(want, MSG, (unsigned int)tag);
	CHECK(s->h.buf[SRQ_OFF] == tmh_op &&
		      !memcmp(s->h.buf + SRQ_OFF + 8, &be, 8) &&
		      !memcmp(s->h.buf + SRQ_OFF + TMH, want, MSG),
	      "SRQ buffer bytes");
	if (op == IBV_WC_TM_RECV)
		s->unexp++;
}

static void post_srq_buf(struct server *s, uint64_t wr_id)
{
	struct ibv_sge sge = {(uintptr_t)s->h.buf + SRQ_OFF, 1024,
			      s->h.mr->lkey};
	struct ibv_recv_wr wr = {.wr_id = wr_id, .sg_list = &sge, .num_sge = 1},
			   *bad;

	memset(s->h.buf + SRQ_OFF, 0, 1024);
	CHECK(!ibv_post_srq_recv(s->srq, &wr, &bad), "post_srq_recv");
}

static struct ibv_srq *tm_srq(struct server *s, uint32_t comp_mask,
			      struct ibv_cq *cq, uint32_t ntags)
{
	struct ibv_srq_init_attr_ex a = {
		.attr = {.max_wr = 16, .max_sge = 1},
		.comp_mask = comp_mask,
		.srq_type = IBV_SRQT_TM,
		.pd = s->h.pd,
		.cq = cq,
		.tm_cap = {.max_num_tags = ntags, .max_ops = MAX_OPS},
	};

	return ibv_create_srq_ex(s->h.ctx, &a);
}

#define TM_MASK                                                                \
	(IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD |                       \
	 IBV_SRQ_INIT_ATTR_CQ | IBV_SRQ_INIT_ATTR_TM)

static void caps(struct ibv_context *ctx, bool has_tm)
{
	struct ibv_device_attr_ex a;

	CHECK(!ibv_query_device_ex(ctx, NULL, &a), "query_device_ex");
	if (!has_tm) {
		CHECK(!a.tm_caps.max_num_tags && !a.tm_caps.flags &&
			      !a.tm_caps.max_ops && !a.tm_caps.max_sge,
		      "tm_caps on a device without TM");
		return;
	}
	CHECK(a.tm_caps.max_num_tags == 127 &&
		      a.tm_caps.flags == IBV_TM_CAP_RC &&
		      a.tm_caps.max_ops == 32768 && a.tm_caps.max_sge == 1 &&
		      a.tm_caps.max_rndv_hdr_size == RNDV_HDR,
	      "tm_caps %u %#x %u %u %u", a.tm_caps.max_num_tags,
	      a.tm_caps.flags, a.tm_caps.max_ops, a.tm_caps.max_sge,
	      a.tm_caps.max_rndv_hdr_size);
}

/* Every bad attribute with its errno; the largest list is fine. */
static void bad_creates(struct server *s)
{
	struct ibv_cq *plain = ibv_create_cq(s->h.ctx, 8, NULL, NULL, 0);
	struct ibv_cq *cq = ibv_cq_ex_to_cq(s->cq);
	struct ibv_srq_init_attr_ex a = {
		.attr = {.max_wr = 16, .max_sge = 1},
		.comp_mask = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD,
		.srq_type = (enum ibv_srq_type)3,
		.pd = s->h.pd,
	};
	struct ibv_srq *srq;

	CHECK(plain, "cq");
	CHECK_ERRNO(tm_srq(s, TM_MASK & ~IBV_SRQ_INIT_ATTR_CQ, cq, 4), EINVAL);
	CHECK_ERRNO(tm_srq(s, TM_MASK & ~IBV_SRQ_INIT_ATTR_TM, cq, 4), EINVAL);
	CHECK_ERRNO(tm_srq(s, TM_MASK, cq, 0), EINVAL);
	CHECK_ERRNO(tm_srq(s, TM_MASK, NULL, 4), EINVAL);
	/* libmlx5 reads TM CQEs through the extended API only */
	CHECK_ERRNO(tm_srq(s, TM_MASK, plain, 4), EINVAL);
	/* the kernel: ilog2(128) + 1 = 8 > log_tag_matching_list_sz 7 */
	CHECK_ERRNO(tm_srq(s, TM_MASK, cq, 128), EINVAL);
	CHECK_ERRNO(ibv_create_srq_ex(s->h.ctx, &a), EOPNOTSUPP);
	srq = tm_srq(s, TM_MASK, cq, 127);
	CHECK(srq, "127 tags");
	/* the CQ and PD are held while the SRQ lives */
	CHECK(ibv_destroy_cq(cq) == EBUSY, "CQ destroyed under a TM SRQ");
	CHECK(ibv_dealloc_pd(s->h.pd) == EBUSY, "PD freed under a TM SRQ");
	CHECK(!ibv_destroy_srq(srq), "destroy");
	CHECK(!ibv_destroy_cq(plain), "destroy cq");
}

/* post_srq_ops' own errors, a full list, a basic SRQ. */
static void bad_ops(struct server *s)
{
	struct ibv_srq_init_attr basic = {.attr = {.max_wr = 4, .max_sge = 1}};
	struct ibv_srq *small = tm_srq(s, TM_MASK, ibv_cq_ex_to_cq(s->cq), 4);
	struct ibv_sge sge[2] = {{(uintptr_t)s->h.buf, 8, s->h.mr->lkey},
				 {(uintptr_t)s->h.buf, 8, s->h.mr->lkey}};
	struct ibv_ops_wr wr = {.opcode = IBV_WR_TAG_ADD,
				.tm.add = {1, sge, 1, 5, 0xff}},
			  wr2 = wr;
	struct ibv_srq *b = ibv_create_srq(s->h.pd, &basic), *keep = s->srq;
	int i;

	CHECK(small && b, "srqs");
	s->srq = small;
	/* one entry always stays spare: 4 tags fit, the fifth does not */
	for (i = 0; i < 4; i++)
		CHECK(!post_op(s, &wr), "add %d", i);
	wr.next = &wr2;
	CHECK(post_op(s, &wr) == ENOMEM, "full list");
	wr.next = NULL;
	wr.tm.handle = NTAGS + 100; /* no such entry */
	wr.opcode = IBV_WR_TAG_DEL;
	CHECK(post_op(s, &wr) == EINVAL, "delete of no entry");
	wr.opcode = (enum ibv_ops_wr_opcode)7;
	CHECK(post_op(s, &wr) == EINVAL, "bad opcode");
	s->srq = b;
	wr.opcode = IBV_WR_TAG_SYNC;
	CHECK(post_op(s, &wr) == EINVAL, "ops on a basic SRQ");
	s->srq = keep;
	wr.opcode = IBV_WR_TAG_ADD;
	wr.tm.add.num_sge = 2;
	CHECK(post_op(s, &wr) == EINVAL, "two SGEs");
	CHECK(!ibv_destroy_srq(small) && !ibv_destroy_srq(b), "destroy");
}

static void traffic(struct server *s)
{
	struct ibv_ops_wr wr = {.wr_id = 500,
				.opcode = IBV_WR_TAG_SYNC,
				.flags = IBV_OPS_SIGNALED | IBV_OPS_TM_SYNC};
	uint32_t h[4], late;

	/* adds complete in order, each with its own handle */
	h[0] = add_tag(s, 1, ~0ull, 0, 11, 0);
	h[1] = add_tag(s, 2, ~0ull, 512, 12, 0);
	h[2] = add_tag(s, 0x10, 0xf0, 1024, 13, 0);
	h[3] = add_tag(s, 2, ~0ull, 1536, 14, 0);
	CHECK(h[0] != h[1] && h[1] != h[2] && h[2] != h[3], "handles");
	expect_list_wc(s, IBV_WC_TM_ADD, 1011, IBV_WC_SUCCESS, 0);
	expect_list_wc(s, IBV_WC_TM_ADD, 1012, IBV_WC_SUCCESS, 0);
	expect_list_wc(s, IBV_WC_TM_ADD, 1013, IBV_WC_SUCCESS, 0);
	expect_list_wc(s, IBV_WC_TM_ADD, 1014, IBV_WC_SUCCESS, 0);
	/* expected: tag 2 goes to the earlier of its two entries */
	send_msg(s, IBV_TMH_EAGER, 2, 0xabc);
	expect_match(s, 12, 2, 0xabc, 512);
	send_msg(s, IBV_TMH_EAGER, 2, 0xdef);
	expect_match(s, 14, 2, 0xdef, 1536);
	/* the mask: 0x1f & 0xf0 == 0x10 */
	send_msg(s, IBV_TMH_EAGER, 0x1f, 1);
	expect_match(s, 13, 0x1f, 1, 1024);
	/* unexpected: no entry takes tag 0x999; an SRQ WQE gets it all */
	post_srq_buf(s, SRQ_WR_ID);
	send_msg(s, IBV_TMH_EAGER, 0x999, 0);
	expect_in_srq(s, IBV_WC_TM_RECV, SRQ_WR_ID, IBV_TMH_EAGER, 0x999);
	/* no tag: the same, reported as such, not counted */
	post_srq_buf(s, NO_TAG_ID);
	send_msg(s, IBV_TMH_NO_TAG, 0x5, 0);
	expect_in_srq(s, IBV_WC_TM_NO_TAG, NO_TAG_ID, IBV_TMH_NO_TAG, 0x5);
	/* added before software caught up with the unexpected message:
	 * SYNC_REQ, and the HCA does not match it */
	late = add_tag(s, 7, ~0ull, 2048, 17, 0);
	expect_list_wc(s, IBV_WC_TM_ADD, 1017, IBV_WC_SUCCESS,
		       IBV_WC_TM_SYNC_REQ);
	post_srq_buf(s, SRQ_WR_ID + 1);
	send_msg(s, IBV_TMH_EAGER, 7, 0);
	expect_in_srq(s, IBV_WC_TM_RECV, SRQ_WR_ID + 1, IBV_TMH_EAGER, 7);
	/* sync, then replace the entry: it matches again */
	wr.tm.unexpected_cnt = s->unexp;
	CHECK(!post_op(s, &wr), "sync");
	expect_list_wc(s, IBV_WC_TM_SYNC, 500, IBV_WC_SUCCESS, 0);
	wr = (struct ibv_ops_wr){.wr_id = 501,
				 .opcode = IBV_WR_TAG_DEL,
				 .flags = IBV_OPS_SIGNALED,
				 .tm.handle = late};
	CHECK(!post_op(s, &wr), "delete");
	/* a list CQE naming an entry older than the HCA's count asks a
	 * sync, as libmlx5 compares the two */
	expect_list_wc(s, IBV_WC_TM_DEL, 501, IBV_WC_SUCCESS,
		       IBV_WC_TM_SYNC_REQ);
	add_tag(s, 7, ~0ull, 2048, 18, IBV_OPS_TM_SYNC);
	expect_list_wc(s, IBV_WC_TM_ADD, 1018, IBV_WC_SUCCESS, 0);
	send_msg(s, IBV_TMH_EAGER, 7, 3);
	expect_match(s, 18, 7, 3, 2048);
	/* a deleted entry no longer matches */
	wr = (struct ibv_ops_wr){.wr_id = 502,
				 .opcode = IBV_WR_TAG_DEL,
				 .flags = IBV_OPS_SIGNALED,
				 .tm.handle = h[0]};
	CHECK(!post_op(s, &wr), "delete");
	expect_list_wc(s, IBV_WC_TM_DEL, 502, IBV_WC_SUCCESS,
		       IBV_WC_TM_SYNC_REQ);
	post_srq_buf(s, SRQ_WR_ID + 2);
	send_msg(s, IBV_TMH_EAGER, 1, 0);
	expect_in_srq(s, IBV_WC_TM_RECV, SRQ_WR_ID + 2, IBV_TMH_EAGER, 1);
	wr = (struct ibv_ops_wr){.wr_id = 503,
				 .opcode = IBV_WR_TAG_SYNC,
				 .flags = IBV_OPS_SIGNALED | IBV_OPS_TM_SYNC,
				 .tm.unexpected_cnt = s->unexp};
	CHECK(!post_op(s, &wr), "sync");
	expect_list_wc(s, IBV_WC_TM_SYNC, 503, IBV_WC_SUCCESS, 0);
	/* removal racing a match: the HCA consumed the entry before the
	 * REMOVE ran, which fails with TM_ERR */
	late = add_tag(s, 9, ~0ull, 2560, 19, IBV_OPS_TM_SYNC);
	expect_list_wc(s, IBV_WC_TM_ADD, 1019, IBV_WC_SUCCESS, 0);
	send_msg(s, IBV_TMH_EAGER, 9, 4);
	wr = (struct ibv_ops_wr){.wr_id = 504,
				 .opcode = IBV_WR_TAG_DEL,
				 .flags = IBV_OPS_SIGNALED,
				 .tm.handle = late};
	CHECK(!post_op(s, &wr), "delete");
	expect_match(s, 19, 9, 4, 2560);
	expect_list_wc(s, IBV_WC_TM_DEL, 504, IBV_WC_TM_ERR, 0);
	/* ... and the entry is free again only once: deleting it now is
	 * refused by the library */
	wr.wr_id = 505;
	CHECK(post_op(s, &wr) == EINVAL, "second delete");
	/* rendezvous: matched at once (no data), then the HCA's READ fills
	 * the entry (data valid, no header in the CQE) */
	add_tag(s, 0x77, ~0ull, 3072, 20, IBV_OPS_TM_SYNC);
	expect_list_wc(s, IBV_WC_TM_ADD, 1020, IBV_WC_SUCCESS, 0);
	memset(s->h.buf + 3072, 0, MSG);
	send_msg(s, IBV_TMH_RNDV, 0x77, 0x5a);
	expect_rndv(s, 20, 0x77, 0x5a, 3072);
	no_more_wc(s);
}

static int run_server(struct ibv_device *dev, int sock)
{
	struct ibv_cq_init_attr_ex ca = {
		.cqe = 64,
		.wc_flags = IBV_WC_STANDARD_FLAGS | IBV_WC_EX_WITH_TM_INFO,
	};
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = {.max_send_wr = 4, .max_send_sge = 1}};
	struct server s = {.sock = sock};
	struct wire mine, theirs;
	struct ibv_port_attr port;

	CHECK(!host_open(&s.h, dev, LEN, IBV_ACCESS_LOCAL_WRITE), "host");
	s.cq = ibv_create_cq_ex(s.h.ctx, &ca);
	CHECK(s.cq, "cq_ex");
	s.srq = tm_srq(&s, TM_MASK, ibv_cq_ex_to_cq(s.cq), NTAGS);
	CHECK(s.srq, "TM SRQ");
	qa.send_cq = qa.recv_cq = ibv_cq_ex_to_cq(s.cq);
	qa.srq = s.srq;
	s.ep.qp = ibv_create_qp(s.h.pd, &qa);
	CHECK(s.ep.qp, "qp");
	s.ep.type = IBV_QPT_RC;
	CHECK(!ibv_query_port(s.h.ctx, 1, &port), "port");
	mine = (struct wire){port.lid, s.ep.qp->qp_num};
	CHECK(read(sock, &theirs, sizeof(theirs)) == sizeof(theirs), "recv");
	CHECK(write(sock, &mine, sizeof(mine)) == sizeof(mine), "send");
	CHECK(!ep_connect(&s.ep, (uint16_t)theirs.lid, theirs.qpn), "connect");
	traffic(&s);
	{
		struct order end;

		memset(&end, 0, sizeof(end));
		end.op = 0xff;
		CHECK(write(sock, &end, sizeof(end)) == sizeof(end), "end");
	}
	/* the SRQ is busy while a QP uses it; its command QP is not seen */
	CHECK(ibv_destroy_srq(s.srq) == EBUSY, "SRQ destroyed under its QP");
	CHECK(!ibv_destroy_qp(s.ep.qp), "destroy qp");
	CHECK(!ibv_destroy_srq(s.srq), "destroy srq");
	CHECK(!ibv_destroy_cq(ibv_cq_ex_to_cq(s.cq)), "destroy cq");
	CHECK(!host_close(&s.h), "host_close");
	return 0;
}

/* What needs no peer, between two counts of fds and mappings. */
static void local_checks(struct ibv_device *dev)
{
	struct ibv_cq_init_attr_ex ca = {
		.cqe = 64,
		.wc_flags = IBV_WC_STANDARD_FLAGS | IBV_WC_EX_WITH_TM_INFO,
	};
	struct server s = {};
	struct leak_mark mark;
	int fds, maps;

	leak_mark_take(&mark);
	CHECK(!host_open(&s.h, dev, LEN, IBV_ACCESS_LOCAL_WRITE), "host");
	caps(s.h.ctx, true);
	s.cq = ibv_create_cq_ex(s.h.ctx, &ca);
	CHECK(s.cq, "cq_ex");
	bad_creates(&s);
	s.srq = tm_srq(&s, TM_MASK, ibv_cq_ex_to_cq(s.cq), NTAGS);
	CHECK(s.srq, "TM SRQ");
	bad_ops(&s);
	add_tag(&s, 3, ~0ull, 0, 3, 0);
	expect_list_wc(&s, IBV_WC_TM_ADD, 1003, IBV_WC_SUCCESS, 0);
	/* the SRQ's command QP and tag list go with it */
	CHECK(!ibv_destroy_srq(s.srq), "destroy srq");
	CHECK(!ibv_destroy_cq(ibv_cq_ex_to_cq(s.cq)), "destroy cq");
	CHECK(!host_close(&s.h), "host_close");
	leak_mark_recount(&mark, &fds, &maps);
	CHECK(fds == mark.fds && maps == mark.maps,
	      "fds %d -> %d, maps %d -> %d", mark.fds, fds, mark.maps, maps);
}

static int no_tm(struct ibv_device *dev, const char *want)
{
	int err = !strcmp(want, "EINVAL") ? EINVAL : EOPNOTSUPP;
	struct ibv_cq_init_attr_ex ca = {.cqe = 8,
					 .wc_flags = IBV_WC_STANDARD_FLAGS};
	struct server s = {};
	struct ibv_cq_ex *cq;

	CHECK(!host_open(&s.h, dev, LEN, IBV_ACCESS_LOCAL_WRITE), "host");
	caps(s.h.ctx, false);
	cq = ibv_create_cq_ex(s.h.ctx, &ca);
	CHECK(cq, "cq_ex");
	CHECK_ERRNO(tm_srq(&s, TM_MASK, ibv_cq_ex_to_cq(cq), 4), err);
	CHECK(!ibv_destroy_cq(ibv_cq_ex_to_cq(cq)), "destroy cq");
	CHECK(!host_close(&s.h), "host_close");
	printf("tm: no tag matching, create: %s\n", want);
	return 0;
}

int main(int argc, char **argv)
{
	struct ibv_device **devs = ibv_get_device_list(NULL);
	int ndev, sv[2], st;
	pid_t pid;

	CHECK(devs && devs[0], "devices");
	if (argc > 1 && !strcmp(argv[1], "none")) {
		st = no_tm(devs[0], argc > 2 ? argv[2] : "EOPNOTSUPP");
		ibv_free_device_list(devs);
		return st;
	}
	ndev = argc > 1 ? atoi(argv[1]) : 1;
	CHECK(ndev < 2 || devs[1], "second device");
	sim_warm_up(devs[0]);
	local_checks(devs[0]);
	CHECK(!socketpair(AF_UNIX, SOCK_STREAM, 0, sv), "socketpair");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (!pid) {
		close(sv[0]);
		st = client(devs[ndev - 1], sv[1]);
		ibv_free_device_list(devs);
		exit(st);
	}
	close(sv[1]);
	run_server(devs[0], sv[0]);
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st),
	      "client status %#x", st);
	close(sv[0]);
	ibv_free_device_list(devs);
	printf("tm: ok (%d device%s, two processes)\n", ndev,
	       ndev > 1 ? "s" : "");
	return 0;
}
