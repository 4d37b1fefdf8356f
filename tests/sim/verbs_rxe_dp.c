// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The rxe model's data path through its rings, as librxe drives the
 * kernel: send WQEs written at the SQ's producer slot and announced by
 * an empty POST_SEND write, receive WQEs only written to the RQ ring,
 * struct ib_uverbs_wc read from the CQ ring. RC (SEND with immediate over
 * several MTU-sized packets, WRITE with immediate, READ, fetch-and-add,
 * compare-and-swap, an unsignaled SEND), a bad rkey (REM_ACCESS_ERR, both
 * QPs to ERR, flushes), RNR and transport retries exhausted, memory
 * windows (bind, WRITE through, SEND_WITH_INV), and a UD datagram with its
 * IPv4 header in the first 40 bytes of the receive buffer. Bytes read
 * back, every completion's status, opcode, length and flags checked.
 */
#include "verbs.h"

#include <errno.h>
#include <poll.h>
#include <rdma/rdma_user_rxe.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define BUF_BYTES 131072 /* the first half: MR 1, the second: a window's */
#define ACC_ALL	  0xf	 /* local write, remote write, read, atomic */

struct ring {
	struct rxe_queue_buf *q;
	size_t len;
};

struct dp_qp {
	uint32_t handle, qpn;
	struct ring sq, rq;
};

struct dp {
	int fd;
	uint32_t pd, cq_handle, lkey, rkey;
	struct ring cq;
	uint8_t *buf;
	int channel;
};

static void *slot(struct ring *r, uint32_t i)
{
	return r->q->data +
	       ((size_t)(i & r->q->index_mask) << r->q->log2_elem_size);
}

static int map_ring(int fd, const struct mminfo *mi, struct ring *r)
{
	void *p = mmap(NULL, mi->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       (off_t)mi->offset);

	if (p == MAP_FAILED)
		return -1;
	r->q = p;
	r->len = mi->size;
	return 0;
}

static void unmap_ring(struct ring *r)
{
	if (r->q)
		munmap(r->q, r->len);
	r->q = NULL;
}

/* An MR over [buf, buf+len): 0 and its keys, or the errno. */
static int reg_mr(struct dp *d, uint8_t *buf, uint32_t len, uint32_t access,
		  uint32_t *lkey, uint32_t *rkey)
{
	struct ib_uverbs_reg_mr_resp resp;
	int err = raw_reg_mr_access(d->fd, d->pd, buf, len, access, &resp);

	*lkey = resp.lkey;
	*rkey = resp.rkey;
	return err;
}

static int dp_open(struct dp *d)
{
	struct ib_uverbs_create_cq_resp r = {};
	struct ib_uverbs_create_cq c = {.cqe = 64};
	struct rxe_create_cq_resp drv;
	struct v_udata u;

	memset(d, 0, sizeof(*d));
	d->fd = v_open();
	d->buf = aligned_alloc(4096, BUF_BYTES);
	if (d->fd < 0 || !d->buf || raw_alloc_pd(d->fd, &d->pd) ||
	    reg_mr(d, d->buf, BUF_BYTES / 2, ACC_ALL, &d->lkey, &d->rkey) ||
	    v_create_channel(d->fd, &d->channel))
		return -1;
	c.comp_channel = d->channel;
	v_cq_udata(&u, 64);
	if (v_write_udata(d->fd, IB_USER_VERBS_CMD_CREATE_CQ, &c, sizeof(c), &r,
			  sizeof(r), &u))
		return -1;
	memcpy(&drv, u.out, sizeof(drv));
	d->cq_handle = r.cq_handle;
	return map_ring(d->fd, &drv.mi, &d->cq);
}

static int dp_qp(struct dp *d, uint8_t type, struct dp_qp *q)
{
	struct ib_uverbs_create_qp_resp resp = {};
	struct ib_uverbs_create_qp c = {
		.pd_handle = d->pd,
		.send_cq_handle = d->cq_handle,
		.recv_cq_handle = d->cq_handle,
		.max_send_wr = 16,
		.max_recv_wr = 16,
		.max_send_sge = 2,
		.max_recv_sge = 2,
		.qp_type = type,
	};
	struct rxe_create_qp_resp drv;
	struct v_udata u;

	memset(q, 0, sizeof(*q));
	v_qp_udata(&u, 16, 1);
	if (v_write_udata(d->fd, IB_USER_VERBS_CMD_CREATE_QP, &c, sizeof(c),
			  &resp, sizeof(resp), &u))
		return -1;
	memcpy(&drv, u.out, sizeof(drv));
	q->handle = resp.qp_handle;
	q->qpn = resp.qpn;
	if (map_ring(d->fd, &drv.sq_mi, &q->sq) ||
	    map_ring(d->fd, &drv.rq_mi, &q->rq))
		return -1;
	return 0;
}

/* device 0's IPv4 RoCE v2 GID (index 1): ::ffff:192.168.1.1 */
static void set_av(struct ib_uverbs_modify_qp *m)
{
	static const uint8_t gid[16] = {[10] = 0xff, [11] = 0xff, 192,
					168,	     1,		  1};

	m->dest.is_global = 1;
	m->dest.sgid_index = 1;
	m->dest.hop_limit = 64;
	memcpy(m->dest.dgid, gid, 16);
}

/* RESET -> INIT -> RTR -> RTS towards dqpn (UD: no peer). */
static int connect_qp(struct dp *d, struct dp_qp *q, uint8_t type,
		      uint32_t dqpn, uint8_t rnr_retry)
{
	struct ib_uverbs_modify_qp m;
	uint32_t init = 1 | 16 | 32 | (type == 4 ? 64 : 8);
	uint32_t rtr =
		type == 4 ? 1
			  : 1 | 128 | 256 | 4096 | (1 << 20) |
				    (type == 2 ? (1 << 17) | (1 << 15) : 0);
	uint32_t rts = 1 | 65536 | (type == 2 ? 512 | 1024 | 2048 | 8192 : 0);

	raw_modify_qp_init(&m, q->handle, 1, init);
	m.qp_access_flags = 0xe; /* remote write, read, atomic */
	if (raw_modify_qp(d->fd, &m))
		return -1;
	raw_modify_qp_init(&m, q->handle, 2, rtr);
	set_av(&m);
	m.dest_qp_num = dqpn;
	m.rq_psn = 0x100;
	if (raw_modify_qp(d->fd, &m))
		return -1;
	raw_modify_qp_init(&m, q->handle, 3, rts);
	m.sq_psn = 0x100;
	m.rnr_retry = rnr_retry;
	if (rnr_retry == 1) { /* the retry checks: one retry each, soon */
		m.retry_cnt = 1;
		m.timeout = 1;
	}
	m.min_rnr_timer = 1;
	return raw_modify_qp(d->fd, &m);
}

/* librxe's doorbell: an empty POST_SEND write. */
static int kick(struct dp *d, struct dp_qp *q)
{
	uint32_t bad = 0;
	struct ib_uverbs_post_send c = {
		.response = (uintptr_t)&bad,
		.qp_handle = q->handle,
		.wqe_size = 128,
	};

	return raw_write(d->fd, IB_USER_VERBS_CMD_POST_SEND, &c, sizeof(c), 4);
}

static void produce(struct ring *r)
{
	__atomic_store_n(&r->q->producer_index,
			 (r->q->producer_index + 1) & r->q->index_mask,
			 __ATOMIC_RELEASE);
}

/* A send WQE at the producer slot (SGE at buf+off, len bytes). */
static struct rxe_send_wqe *wqe(struct dp *d, struct dp_qp *q, uint32_t op,
				uint64_t wr_id, uint32_t off, uint32_t len)
{
	struct rxe_send_wqe *w = slot(&q->sq, q->sq.q->producer_index);

	memset(w, 0, sizeof(*w));
	w->wr.wr_id = wr_id;
	w->wr.opcode = op;
	w->wr.send_flags = 2; /* signaled */
	w->dma.length = w->dma.resid = len;
	w->dma.num_sge = 1;
	w->dma.sge[0].addr = (uintptr_t)d->buf + off;
	w->dma.sge[0].length = len;
	w->dma.sge[0].lkey = d->lkey;
	return w;
}

static int post(struct dp *d, struct dp_qp *q)
{
	produce(&q->sq);
	return kick(d, q);
}

static void post_recv(struct dp *d, struct dp_qp *q, uint64_t wr_id,
		      uint32_t off, uint32_t len)
{
	struct rxe_recv_wqe *r = slot(&q->rq, q->rq.q->producer_index);

	memset(r, 0, sizeof(*r));
	r->wr_id = wr_id;
	r->dma.length = r->dma.resid = len;
	r->dma.num_sge = 1;
	r->dma.sge[0].addr = (uintptr_t)d->buf + off;
	r->dma.sge[0].length = len;
	r->dma.sge[0].lkey = d->lkey;
	produce(&q->rq);
}

/* The next CQE within 5 s: 0, or -1. */
static int poll_cq(struct dp *d, struct ib_uverbs_wc *wc)
{
	struct rxe_queue_buf *q = d->cq.q;
	struct timespec ts = {0, 1000000};
	int i;

	for (i = 0; i < 5000; i++) {
		if (__atomic_load_n(&q->producer_index, __ATOMIC_ACQUIRE) !=
		    q->consumer_index) {
			memcpy(wc, slot(&d->cq, q->consumer_index),
			       sizeof(*wc));
			__atomic_store_n(&q->consumer_index,
					 (q->consumer_index + 1) &
						 q->index_mask,
					 __ATOMIC_RELEASE);
			return 0;
		}
		nanosleep(&ts, NULL);
	}
	return -1;
}

/* The next CQE must be (wr_id, status, opcode, byte_len, flags). */
static void expect_wc(struct dp *d, const char *what, uint64_t wr_id,
		      uint32_t status, uint32_t opcode, uint32_t len,
		      uint32_t flags)
{
	struct ib_uverbs_wc wc = {};

	if (poll_cq(d, &wc)) {
		EXPECT(0, "%s: no completion", what);
		return;
	}
	EXPECT(wc.wr_id == wr_id && wc.status == status,
	       "%s: wr_id %llu status %u, want %llu %u", what,
	       (unsigned long long)wc.wr_id, wc.status,
	       (unsigned long long)wr_id, status);
	if (status)
		return;
	EXPECT(wc.opcode == opcode && wc.byte_len == len &&
		       wc.wc_flags == flags,
	       "%s: opcode %u len %u flags %#x, want %u %u %#x", what,
	       wc.opcode, wc.byte_len, wc.wc_flags, opcode, len, flags);
}

static void fill(uint8_t *p, uint32_t len, uint8_t seed)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(seed + i * 7);
}

/* An atomic on *word (wr_id = op), its result to word[1]. */
static void atomic(struct dp *d, struct dp_qp *a, uint32_t op,
		   uint64_t compare_add, uint64_t swap, uint64_t *word)
{
	struct rxe_send_wqe *w;

	w = wqe(d, a, op, op, (uint32_t)((uint8_t *)(word + 1) - d->buf), 8);
	w->wr.wr.atomic.remote_addr = (uintptr_t)word;
	w->wr.wr.atomic.compare_add = compare_add;
	w->wr.wr.atomic.swap = swap;
	w->wr.wr.atomic.rkey = d->rkey;
	EXPECT_ERR(post(d, a), 0);
}

/* SEND+imm (3 packets), WRITE+imm, READ, FA, CS, an unsignaled SEND. */
static void check_rc(struct dp *d, struct dp_qp *a, struct dp_qp *b)
{
	uint64_t *word = (uint64_t *)(d->buf + 40000);
	struct rxe_send_wqe *w;
	uint32_t cons;

	fill(d->buf, 3000, 1);
	post_recv(d, b, 11, 8192, 4096);
	w = wqe(d, a, 3 /* SEND_WITH_IMM */, 1, 0, 3000);
	w->wr.ex.imm_data = htobe32(0xabcd);
	EXPECT_ERR(post(d, a), 0);
	expect_wc(d, "recv", 11, 0, 128, 3000, 1 | 2);
	expect_wc(d, "send", 1, 0, 0, 3000, 2);
	EXPECT(!memcmp(d->buf, d->buf + 8192, 3000), "SEND bytes differ");

	fill(d->buf + 16384, 5000, 2);
	post_recv(d, b, 12, 0, 0);
	w = wqe(d, a, 1 /* WRITE_WITH_IMM */, 2, 16384, 5000);
	w->wr.wr.rdma.remote_addr = (uintptr_t)d->buf + 24576;
	w->wr.wr.rdma.rkey = d->rkey;
	EXPECT_ERR(post(d, a), 0);
	expect_wc(d, "recv write imm", 12, 0, 129, 5000, 1 | 2);
	expect_wc(d, "write imm", 2, 0, 1, 5000, 2);
	EXPECT(!memcmp(d->buf + 16384, d->buf + 24576, 5000),
	       "WRITE bytes differ");

	memset(d->buf + 32768, 0, 4000);
	w = wqe(d, a, 4 /* READ */, 3, 32768, 4000);
	w->wr.wr.rdma.remote_addr = (uintptr_t)d->buf + 16384;
	w->wr.wr.rdma.rkey = d->rkey;
	EXPECT_ERR(post(d, a), 0);
	expect_wc(d, "read", 3, 0, 2, 4000, 0);
	EXPECT(!memcmp(d->buf + 16384, d->buf + 32768, 4000),
	       "READ bytes differ");

	*word = 40;
	atomic(d, a, 6 /* FETCH_ADD */, 2, 0, word);
	expect_wc(d, "fetch add", 6, 0, 4, 8, 0);
	EXPECT(*word == 42 && word[1] == 40, "FA: %llu, returned %llu",
	       (unsigned long long)*word, (unsigned long long)word[1]);
	atomic(d, a, 5 /* CMP_AND_SWP */, 42, 7, word);
	expect_wc(d, "cmp swap", 5, 0, 3, 8, 0);
	EXPECT(*word == 7 && word[1] == 42, "CS: %llu, returned %llu",
	       (unsigned long long)*word, (unsigned long long)word[1]);

	/* unsignaled: no CQE of its own, yet it leaves the ring */
	cons = a->sq.q->producer_index;
	post_recv(d, b, 13, 8192, 64);
	w = wqe(d, a, 2 /* SEND */, 6, 0, 64);
	w->wr.send_flags = 0;
	EXPECT_ERR(post(d, a), 0);
	expect_wc(d, "recv unsignaled", 13, 0, 128, 64, 1);
	cons = (cons + 1) & a->sq.q->index_mask;
	for (int i = 0; i < 1000 && a->sq.q->consumer_index != cons; i++)
		usleep(1000);
	EXPECT(a->sq.q->consumer_index == cons, "SQ consumer %u, want %u",
	       a->sq.q->consumer_index, cons);
}

/*
 * A type 2 window over the second half of the buffer (its own MR, with
 * MW_BIND), bound through the responder's QP: a WRITE through it lands,
 * a SEND_WITH_INV of its rkey frees it (the receive says WITH_INV, as the
 * kernel's IB_WC_WITH_INVALIDATE bit 4). Returns the dead rkey, or 0.
 */
static uint32_t check_mw(struct dp *d, struct dp_qp *a, struct dp_qp *b)
{
	struct ib_uverbs_alloc_mw_resp r = {};
	struct ib_uverbs_alloc_mw c = {
		.response = (uintptr_t)&r, .pd_handle = d->pd, .mw_type = 2};
	uint8_t *win = d->buf + BUF_BYTES / 2;
	struct ib_uverbs_wc wc = {};
	uint32_t lkey, rkey, key;
	struct rxe_send_wqe *w;

	if (reg_mr(d, win, BUF_BYTES / 2, ACC_ALL | 16, &lkey, &rkey) ||
	    raw_write(d->fd, IB_USER_VERBS_CMD_ALLOC_MW, &c, sizeof(c),
		      sizeof(r))) {
		EXPECT(0, "no window: %s", strerrorname_np(errno));
		return 0;
	}
	key = (r.rkey & ~0xffu) | 0x5a;
	w = wqe(d, b, 8 /* BIND_MW */, 51, 0, 0);
	w->dma.num_sge = 0;
	w->wr.wr.mw.addr = (uintptr_t)win;
	w->wr.wr.mw.length = 4096;
	w->wr.wr.mw.mr_lkey = lkey;
	w->wr.wr.mw.mw_rkey = r.rkey;
	w->wr.wr.mw.rkey = key;
	w->wr.wr.mw.access = 2; /* remote write */
	EXPECT_ERR(post(d, b), 0);
	expect_wc(d, "bind", 51, 0, 5 /* BIND_MW */, 0, 0);
	fill(d->buf, 64, 5);
	w = wqe(d, a, 0 /* WRITE */, 52, 0, 64);
	w->wr.wr.rdma.remote_addr = (uintptr_t)win + 100;
	w->wr.wr.rdma.rkey = key;
	EXPECT_ERR(post(d, a), 0);
	expect_wc(d, "write to the window", 52, 0, 1, 64, 0);
	EXPECT(!memcmp(win + 100, d->buf, 64), "window bytes differ");
	post_recv(d, b, 53, 8192, 64);
	w = wqe(d, a, 9 /* SEND_WITH_INV */, 54, 0, 16);
	w->wr.ex.invalidate_rkey = key;
	EXPECT_ERR(post(d, a), 0);
	if (poll_cq(d, &wc) || wc.wr_id != 53 || wc.status ||
	    wc.wc_flags != (1 | 4) || wc.ex.invalidate_rkey != key)
		EXPECT(0,
		       "send with inv: wr_id %llu status %u flags %#x "
		       "rkey %#x, want 53 0 0x5 %#x",
		       (unsigned long long)wc.wr_id, wc.status, wc.wc_flags,
		       wc.ex.invalidate_rkey, key);
	expect_wc(d, "send with inv", 54, 0, 0, 16, 0);
	return key;
}

/* A WRITE through the invalidated window: REM_ACCESS_ERR, both QPs in ERR, the
 * WQE after it and the receive waiting at the responder flushed. */
static void check_rkey(struct dp *d, struct dp_qp *a, struct dp_qp *b,
		       uint32_t dead)
{
	uint32_t status[3] = {~0u, ~0u, ~0u};
	struct ib_uverbs_wc wc;
	struct rxe_send_wqe *w;
	uint8_t st = 0;
	int i;

	post_recv(d, b, 21, 0, 64);
	w = wqe(d, a, 0 /* WRITE */, 22, 0, 64);
	/* inside the range the window had */
	w->wr.wr.rdma.remote_addr = (uintptr_t)d->buf + BUF_BYTES / 2 + 100;
	w->wr.wr.rdma.rkey = dead;
	produce(&a->sq);
	wqe(d, a, 2, 23, 0, 64);
	EXPECT_ERR(post(d, a), 0);
	/* the two QPs complete in the order their engines run */
	for (i = 0; i < 3; i++) {
		if (poll_cq(d, &wc)) {
			EXPECT(0, "bad rkey: completion %d missing", i);
			return;
		}
		if (wc.wr_id >= 21 && wc.wr_id <= 23)
			status[wc.wr_id - 21] = wc.status;
	}
	/* REM_ACCESS_ERR, then WR_FLUSH_ERR for what follows it and for
	 * the receive the responder held */
	EXPECT(status[1] == 10 && status[2] == 5 && status[0] == 5,
	       "bad rkey: statuses %u %u %u", status[1], status[2], status[0]);
	EXPECT(!v_query_state(d->fd, a->handle, &st) && st == 6,
	       "requester state %u", st);
	EXPECT(!v_query_state(d->fd, b->handle, &st) && st == 6,
	       "responder state %u", st);
}

/* No receive and rnr_retry 1: one RNR NAK waited out, then the error. */
static void check_rnr(struct dp *d, struct dp_qp *a)
{
	wqe(d, a, 2, 31, 0, 16);
	EXPECT_ERR(post(d, a), 0);
	expect_wc(d, "rnr", 31, 13 /* RNR_RETRY_EXC_ERR */, 0, 0, 0);
}

/* Towards a QP number no one has: the packets are lost, the ACK timer
 * sends again retry_cnt (1) times, then RETRY_EXC_ERR. */
static void check_retry(struct dp *d, struct dp_qp *f)
{
	wqe(d, f, 2, 61, 0, 16);
	EXPECT_ERR(post(d, f), 0);
	expect_wc(d, "no peer", 61, 12 /* RETRY_EXC_ERR */, 0, 0, 0);
}

/* A UD datagram: the IPv4 header, the payload after it, src_qp. */
static void check_ud(struct dp *d, struct dp_qp *a, struct dp_qp *b)
{
	/* ib_uverbs_create_ah_resp (4 bytes), then rxe_create_ah_resp */
	uint32_t r[3] = {};
	struct ib_uverbs_create_ah c = {.response = (uintptr_t)r,
					.pd_handle = d->pd};
	static const uint8_t ip[4] = {192, 168, 1, 1};
	struct ib_uverbs_wc wc[3] = {};
	struct ib_uverbs_modify_qp m;
	struct rxe_send_wqe *w;
	uint8_t *h = d->buf + 49152;
	int i;

	set_av(&m);
	memcpy(&c.attr.grh, &m.dest.dgid, 16);
	c.attr.grh.sgid_index = 1;
	c.attr.grh.hop_limit = 64;
	c.attr.is_global = 1;
	c.attr.port_num = 1;
	EXPECT_ERR(raw_write(d->fd, IB_USER_VERBS_CMD_CREATE_AH, &c, sizeof(c),
			     sizeof(r)),
		   0);
	fill(d->buf, 200, 3);
	memset(h, 0xee, 256);
	post_recv(d, b, 41, 49152, 256);
	w = wqe(d, a, 2, 42, 0, 200);
	w->wr.wr.ud.remote_qpn = b->qpn;
	w->wr.wr.ud.remote_qkey = 0x11111111;
	w->wr.wr.ud.ah_num = r[1];
	EXPECT_ERR(post(d, a), 0);
	for (i = 0; i < 2; i++) {
		if (poll_cq(d, &wc[i])) {
			EXPECT(0, "ud: completion %d missing", i);
			return;
		}
	}
	if (wc[0].wr_id == 42) /* the order of the two is the engine's */
		wc[2] = wc[0], wc[0] = wc[1], wc[1] = wc[2];
	EXPECT(wc[1].wr_id == 42 && !wc[1].status && !wc[1].opcode,
	       "ud send %llu %u", (unsigned long long)wc[1].wr_id,
	       wc[1].status);
	EXPECT(wc[0].wr_id == 41 && !wc[0].status && wc[0].opcode == 128 &&
		       wc[0].byte_len == 240 && wc[0].src_qp == a->qpn &&
		       wc[0].wc_flags == 1,
	       "ud recv %llu status %u len %u src_qp %#x flags %#x",
	       (unsigned long long)wc[0].wr_id, wc[0].status, wc[0].byte_len,
	       wc[0].src_qp, wc[0].wc_flags);
	EXPECT(h[0] == 0 && h[19] == 0 && h[20] == 0x45 && h[29] == 17 &&
		       !memcmp(h + 32, ip, 4) && !memcmp(h + 36, ip, 4),
	       "ud: no IPv4 header at 20: %02x %02x", h[20], h[29]);
	EXPECT(h[22] == 0 && h[23] == 20 + 8 + 12 + 8 + 200 + 4,
	       "ud: IPv4 total length %u", h[22] << 8 | h[23]);
	EXPECT(!memcmp(h + 40, d->buf, 200), "ud payload differs");
}

static void unmap_qp(struct dp_qp *q)
{
	unmap_ring(&q->sq);
	unmap_ring(&q->rq);
}

void v_check_rxe_dp(void)
{
	struct dp_qp a = {}, b = {}, c = {}, e = {}, f = {}, u1 = {}, u2 = {};
	struct dp d;

	if (!v_rxe)
		return;
	if (dp_open(&d) || dp_qp(&d, 2, &a) || dp_qp(&d, 2, &b) ||
	    connect_qp(&d, &a, 2, b.qpn, 7) ||
	    connect_qp(&d, &b, 2, a.qpn, 7)) {
		EXPECT(0, "rxe data path: no RC pair: %s",
		       strerrorname_np(errno));
		return;
	}
	check_rc(&d, &a, &b);
	check_rkey(&d, &a, &b, check_mw(&d, &a, &b));
	if (!dp_qp(&d, 2, &c) && !dp_qp(&d, 2, &e) &&
	    !connect_qp(&d, &c, 2, e.qpn, 1) &&
	    !connect_qp(&d, &e, 2, c.qpn, 1))
		check_rnr(&d, &c);
	else
		EXPECT(0, "rxe data path: no second RC pair");
	if (!dp_qp(&d, 2, &f) && !connect_qp(&d, &f, 2, 0xabcde, 1))
		check_retry(&d, &f);
	else
		EXPECT(0, "rxe data path: no QP towards nowhere");
	if (!dp_qp(&d, 4, &u1) && !dp_qp(&d, 4, &u2) &&
	    !connect_qp(&d, &u1, 4, 0, 0) && !connect_qp(&d, &u2, 4, 0, 0))
		check_ud(&d, &u1, &u2);
	else
		EXPECT(0, "rxe data path: no UD QPs");
	close(d.fd); /* the rings' pages stay until unmapped */
	free(d.buf);
	unmap_ring(&d.cq);
	unmap_qp(&a);
	unmap_qp(&b);
	unmap_qp(&c);
	unmap_qp(&e);
	unmap_qp(&f);
	unmap_qp(&u1);
	unmap_qp(&u2);
}
