// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RDMA WRITEs from a process into its fork child (hca_land_write.c lands
 * them with the parent's pass). The child registers SLOTS slots, the
 * parent writes them and, after each batch, tells the child by a SEND
 * with immediate behind the WRITEs; the child checks every byte of the
 * batch and answers on a socket. tests/sim/land_write.sh runs each mode
 * with RDMA_SIM_HCA_STATS and checks the child's "landed-writes".
 *   stream  ROUNDS WRITEs of 64 KiB, every tenth of BIG (four packets)
 *   mixed   per round WRITE, READ back, SEND posted at once: the READ
 *           sees the WRITE's bytes, the SEND's completion comes after
 *   badkey  good WRITEs, then one naming a wrong rkey: REM_ACCESS_ERR,
 *           and the child's QP is in ERR
 *   range   ... one past the end of the child's MR: the same
 *   die     the child kills itself after batch DIE_AT: no WRITE posted
 *           once it is dead lands; the first fails RETRY_EXC_ERR
 * Usage: debian_land_write DEVICE MODE (built against Debian's libibverbs)
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <arpa/inet.h>
#include <time.h>
#include <unistd.h>

#include "judge.h"
#include "qp_link.h"
#include "rc_end.h"

#define SLOTS	 16
#define SLOT	 (256 * 1024)
#define MSG	 65536
#define BIG	 200000 /* 4 packets of 64 KiB */
#define ROUNDS	 1000
#define MIXED	 200
#define GOOD	 20 /* badkey/range: WRITEs before the bad one */
#define DIE_AT	 5
#define WAIT_SEC 60 /* wall time for one completion, however loaded */
#define DEPTH	 (2 * SLOTS) /* WRs, CQEs */
#define ACCESS                                                                 \
	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |                    \
	 IBV_ACCESS_REMOTE_READ)

enum mode { STREAM, MIXED_OPS, BADKEY, RANGE, DIE };
static const char *const modes[] = {"stream", "mixed", "badkey", "range",
				    "die"};

/* What each side tells the other over the socket. */
struct hello {
	uint32_t qpn;
	uint16_t lid;
	uint64_t addr;
	uint32_t rkey;
};

static uint32_t msg_len(uint32_t round)
{
	return round % 10 == 9 ? BIG : MSG;
}

/* mixed: small WRITEs too */
static uint32_t mixed_len(uint32_t round)
{
	return round % 3 == 2 ? 100 + round : msg_len(round);
}

static uint8_t pat(uint32_t round, uint32_t i)
{
	return (uint8_t)(round * 251u + i * 13u + (i >> 12));
}

static void fill(uint8_t *p, uint32_t len, uint32_t round)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		p[i] = pat(round, i);
}

/* The first byte of p[0, len) that is not round's pattern, or -1. */
static long differs(const uint8_t *p, uint32_t len, uint32_t round)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		if (p[i] != pat(round, i))
			return (long)i;
	return -1;
}

/* Swap hello messages over fd, bring the QP up towards the peer. */
static int connect_end(struct rc_end *e, int fd, struct hello *peer)
{
	struct hello me = {0};
	struct qp_link l;

	me.qpn = e->qp->qp_num;
	me.lid = e->lid;
	me.addr = (uintptr_t)e->buf;
	me.rkey = e->mr->rkey;
	if (write(fd, &me, sizeof(me)) != sizeof(me) ||
	    read(fd, peer, sizeof(*peer)) != sizeof(*peer))
		return -1;
	l = qp_link_default(peer->qpn);
	l.dlid = peer->lid;
	return qp_link_up(e->qp, &l) ? -1 : 0;
}

/* One completion, WAIT_SEC of wall time at most; 0 if none came. */
static int one_wc(struct ibv_cq *cq, struct ibv_wc *wc)
{
	time_t end = time(NULL) + WAIT_SEC;
	int n;

	do
		n = ibv_poll_cq(cq, 1, wc);
	while (!n && time(NULL) < end);
	return n == 1;
}

static int post(struct rc_end *e, enum ibv_wr_opcode op, uint64_t wr_id,
		void *local, uint32_t len, uint64_t raddr, uint32_t rkey)
{
	struct ibv_sge sge = {(uintptr_t)local, len, e->mr->lkey};
	struct ibv_send_wr wr = {
		.wr_id = wr_id,
		.sg_list = &sge,
		.num_sge = len ? 1 : 0,
		.opcode = op,
		.send_flags = IBV_SEND_SIGNALED,
		.imm_data = htonl((uint32_t)wr_id),
	}, *bad;

	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	return ibv_post_send(e->qp, &wr, &bad);
}

static int post_recv(struct rc_end *e)
{
	struct ibv_recv_wr wr = {.wr_id = 0}, *bad;

	return ibv_post_recv(e->qp, &wr, &bad);
}

/*
 * The next n send completions: each successful, in order of wr_id from
 * first, opcodes as posted (ops, cycled). 0 if all were so; else 1 with
 * the first that was not in *bad (no completion in WAIT_SEC: status
 * IBV_WC_GENERAL_ERR, wr_id UINT64_MAX).
 */
static int expect(struct rc_end *e, uint32_t n, uint64_t first,
		  const enum ibv_wc_opcode *ops, uint32_t nops,
		  struct ibv_wc *bad)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (!one_wc(e->cq, bad)) {
			bad->status = IBV_WC_GENERAL_ERR;
			bad->wr_id = UINT64_MAX;
			return 1;
		}
		if (bad->status || bad->wr_id != first + i ||
		    bad->opcode != ops[i % nops])
			return 1;
	}
	return 0;
}

/* The same, each failure CHECKed; 0 if all were right. */
static int expect_ok(struct rc_end *e, uint32_t n, uint64_t first,
		     const enum ibv_wc_opcode *ops, uint32_t nops)
{
	struct ibv_wc wc;
	int bad = expect(e, n, first, ops, nops, &wc);

	CHECK(!bad, "wr %lu: status %s opcode %d (want wr %lu of %lu+%u)",
	      (unsigned long)wc.wr_id, ibv_wc_status_str(wc.status),
	      wc.opcode, (unsigned long)first, (unsigned long)first, n);
	return bad;
}

/* One more completion: its status must be want. */
static void expect_fail(struct rc_end *e, uint64_t wr_id,
			enum ibv_wc_status want)
{
	struct ibv_wc wc;

	CHECK(one_wc(e->cq, &wc) && wc.wr_id == wr_id && wc.status == want,
	      "wr %lu: status %s (want %s for wr %lu)",
	      (unsigned long)wc.wr_id, ibv_wc_status_str(wc.status),
	      ibv_wc_status_str(want), (unsigned long)wr_id);
}

static const enum ibv_wc_opcode w_op[] = {IBV_WC_RDMA_WRITE};
static const enum ibv_wc_opcode s_op[] = {IBV_WC_SEND};

/*
 * The parent's stream: batches of SLOTS WRITEs, then the SEND that
 * tells the child which rounds to check; its answer on fd. In die mode
 * the child kills itself once it answered batch DIE_AT; when its socket
 * has closed, it is dead, and a batch of WRITEs posted then must not
 * land in its pinned pages: the first completes RETRY_EXC_ERR, the rest
 * are flushed.
 */
static void stream(struct rc_end *e, const struct hello *p, int fd, int die)
{
	uint32_t r, b0 = 0, len, last = die ? (DIE_AT + 1) * SLOTS : ROUNDS;
	uint8_t *src;
	char ok;

	for (r = 0; r < last; r++) {
		len = msg_len(r);
		src = e->buf + (r % SLOTS) * SLOT;
		fill(src, len, r);
		CHECK(!post(e, IBV_WR_RDMA_WRITE, r, src, len,
			    p->addr + (r % SLOTS) * SLOT, p->rkey),
		      "post write %u", r);
		if (r % SLOTS != SLOTS - 1 && r != last - 1)
			continue;
		CHECK(!post(e, IBV_WR_SEND_WITH_IMM, r, NULL, 0, 0, 0),
		      "post send %u", r);
		if (expect_ok(e, r + 1 - b0, b0, w_op, 1) ||
		    expect_ok(e, 1, r, s_op, 1) || failures ||
		    read(fd, &ok, 1) != 1)
			break;
		b0 = r + 1;
	}
	CHECK(r == last, "stream stopped at round %u", r);
	if (!die || failures)
		return;
	CHECK(read(fd, &ok, 1) == 0, "the child's socket is still open");
	for (r = 0; r < SLOTS; r++)
		CHECK(!post(e, IBV_WR_RDMA_WRITE, ROUNDS + r, e->buf, MSG,
			    p->addr + r * SLOT, p->rkey),
		      "post write %u after the child died", r);
	expect_fail(e, ROUNDS, IBV_WC_RETRY_EXC_ERR);
	for (r = 1; r < SLOTS; r++)
		expect_fail(e, ROUNDS + r, IBV_WC_WR_FLUSH_ERR);
}

/* The child's side of stream: check each batch the SEND announces. */
static void check_stream(struct rc_end *e, int fd, int die)
{
	uint32_t r, b0 = 0, k;
	struct ibv_wc wc;
	long at;

	for (r = 0; r < ROUNDS; r = b0) {
		if (!one_wc(e->cq, &wc)) {
			CHECK(0, "child: no SEND after round %u", b0);
			return;
		}
		CHECK(wc.status == IBV_WC_SUCCESS &&
			      wc.opcode == IBV_WC_RECV &&
			      (wc.wc_flags & IBV_WC_WITH_IMM) &&
			      ntohl(wc.imm_data) >= b0 &&
			      ntohl(wc.imm_data) < ROUNDS,
		      "child: status %s opcode %d imm %u after round %u",
		      ibv_wc_status_str(wc.status), wc.opcode,
		      ntohl(wc.imm_data), b0);
		if (failures)
			return;
		for (k = b0; k <= ntohl(wc.imm_data); k++) {
			at = differs(e->buf + (k % SLOTS) * SLOT, msg_len(k),
				     k);
			CHECK(at < 0, "child: round %u: byte %ld differs", k,
			      at);
		}
		b0 = ntohl(wc.imm_data) + 1;
		if (failures || post_recv(e) || write(fd, "k", 1) != 1)
			return;
		if (die && b0 / SLOTS == DIE_AT + 1)
			raise(SIGKILL); /* the parent writes on */
	}
}

/* WRITE, READ back, SEND per round, posted together: in order. */
static void mixed(struct rc_end *e, const struct hello *p, int fd)
{
	static const enum ibv_wc_opcode ops[] = {
		IBV_WC_RDMA_WRITE, IBV_WC_RDMA_READ, IBV_WC_SEND};
	uint32_t r, len, s;
	uint8_t *src, *back;
	char ok;
	long at;

	for (r = 0; r < MIXED && !failures; r++) {
		len = mixed_len(r);
		s = r % SLOTS;
		src = e->buf + s * SLOT;
		back = e->buf + (SLOTS + s) * SLOT;
		fill(src, len, r);
		memset(back, 0, len);
		CHECK(!post(e, IBV_WR_RDMA_WRITE, 3 * r, src, len,
			    p->addr + s * SLOT, p->rkey) &&
			      !post(e, IBV_WR_RDMA_READ, 3 * r + 1, back, len,
				    p->addr + s * SLOT, p->rkey) &&
			      !post(e, IBV_WR_SEND_WITH_IMM, 3 * r + 2, NULL,
				    0, 0, 0),
		      "post round %u", r);
		if (expect_ok(e, 3, 3 * r, ops, 3))
			break;
		at = differs(back, len, r);
		CHECK(at < 0, "round %u: byte %ld read back differs", r, at);
		CHECK(read(fd, &ok, 1) == 1 && ok == 'k',
		      "round %u: the child found the bytes wrong", r);
	}
}

/* The child's side of mixed: the SEND comes after the WRITE's bytes. */
static void check_mixed(struct rc_end *e, int fd)
{
	struct ibv_wc wc;
	uint32_t r, len;
	long at;

	for (r = 0; r < MIXED; r++) {
		CHECK(one_wc(e->cq, &wc) && wc.status == IBV_WC_SUCCESS &&
			      ntohl(wc.imm_data) == 3 * r + 2,
		      "child: round %u: status %s imm %u", r,
		      ibv_wc_status_str(wc.status), ntohl(wc.imm_data));
		len = mixed_len(r);
		at = failures ? 0
			      : differs(e->buf + (r % SLOTS) * SLOT, len, r);
		CHECK(at < 0, "child: round %u: byte %ld differs", r, at);
		if (post_recv(e) || write(fd, failures ? "x" : "k", 1) != 1 ||
		    failures)
			return;
	}
}

/* GOOD WRITEs, then a bad one: the NAK completes it REM_ACCESS_ERR. */
static void bad_write(struct rc_end *e, const struct hello *p, int fd,
		      int badkey)
{
	uint32_t r;

	for (r = 0; r < GOOD; r++) {
		fill(e->buf, MSG, r);
		if (post(e, IBV_WR_RDMA_WRITE, r, e->buf, MSG, p->addr,
			 p->rkey) ||
		    expect_ok(e, 1, r, w_op, 1))
			break;
	}
	CHECK(r == GOOD, "good writes: %u of %u", r, GOOD);
	CHECK(!post(e, IBV_WR_RDMA_WRITE, r, e->buf, MSG,
		    badkey ? p->addr : p->addr + SLOTS * SLOT - MSG / 2,
		    badkey ? p->rkey ^ 0x1 : p->rkey),
	      "post the bad write");
	expect_fail(e, r, IBV_WC_REM_ACCESS_ERR);
	CHECK(write(fd, "k", 1) == 1, "tell the child");
}

/* The child's side: the last good WRITE is there; its QP is in ERR. */
static void check_bad(struct rc_end *e, int fd)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr a;
	char ok;
	long at;

	CHECK(read(fd, &ok, 1) == 1, "child: no word from the parent");
	at = differs(e->buf, MSG, GOOD - 1);
	CHECK(at < 0, "child: the last good WRITE: byte %ld differs", at);
	CHECK(!ibv_query_qp(e->qp, &a, IBV_QP_STATE, &init) &&
		      a.qp_state == IBV_QPS_ERR,
	      "child: QP state %d, not ERR", a.qp_state);
}

static int child(const char *dev, int fd, enum mode m)
{
	struct hello peer;
	struct rc_end e = {0};
	int i;

	if (rc_end_open(&e, dev, (size_t)SLOTS * SLOT, ACCESS, DEPTH) ||
	    connect_end(&e, fd, &peer))
		return 2;
	for (i = 0; i < DEPTH; i++)
		if (post_recv(&e))
			return 2;
	if (write(fd, "r", 1) != 1)
		return 2;
	if (m == STREAM || m == DIE)
		check_stream(&e, fd, m == DIE);
	else if (m == MIXED_OPS)
		check_mixed(&e, fd);
	else
		check_bad(&e, fd);
	rc_end_close(&e);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[1] : "mlx5_0";
	enum mode m = STREAM;
	struct hello peer;
	struct rc_end e = {0};
	int fd = -1, st = 0;
	pid_t pid;
	char ok;

	while (argc > 2 && m < DIE && strcmp(argv[2], modes[m]))
		m++;
	if (argc > 2 && strcmp(argv[2], modes[m])) {
		fprintf(stderr, "usage: %s DEVICE MODE\n", argv[0]);
		return 2;
	}
	pid = qp_link_fork(&fd);
	if (pid == 0)
		exit(child(dev, fd, m)); /* its counters at exit */
	CHECK(pid > 0 &&
		      !rc_end_open(&e, dev, (size_t)2 * SLOTS * SLOT, ACCESS,
				   DEPTH) &&
		      !connect_end(&e, fd, &peer) &&
		      read(fd, &ok, 1) == 1,
	      "parent: set-up: %s", strerror(errno));
	if (!failures && (m == STREAM || m == DIE))
		stream(&e, &peer, fd, m == DIE);
	else if (!failures && m == MIXED_OPS)
		mixed(&e, &peer, fd);
	else if (!failures)
		bad_write(&e, &peer, fd, m == BADKEY);
	if (fd >= 0)
		close(fd);
	waitpid(pid, &st, 0);
	if (m == DIE)
		CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
		      "child: status %#x, not killed", st);
	else
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "child: exit status %#x", st);
	rc_end_close(&e);
	return failures ? 1 : 0;
}
