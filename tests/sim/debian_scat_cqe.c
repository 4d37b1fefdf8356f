// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Scatter to CQE, as a program sees it through libmlx5: a process (the
 * initiator) and its fork child (the target), each with its own context,
 * an RC pair with sq_sig_all, once with 64-byte and once with 128-byte
 * CQEs (mlx5dv_create_cq). The initiator SENDs 1, 31, 32, 33 and 64
 * bytes; the target peeks at each raw CQE (mlx5dv_init_obj) before it
 * polls: a message that fits (32 bytes in a 64-byte CQE, 64 in a 128-byte
 * one) must be in the CQE with MLX5_INLINE_SCATTER_32 (at the CQE) or _64
 * (in the 64 bytes before it) set in op_own and the receive buffer still
 * untouched; a larger one must be in the buffer, no bit set. After
 * ibv_poll_cq the buffer holds the message either way, the bytes past it
 * untouched. Then the initiator READs the same sizes and does a
 * fetch-and-add: the requester's CQE carries the answer the same way (the
 * initiator's QP signals every WR) and the poll puts it in the local
 * buffer. With MLX5_SCATTER_TO_CQE=0 in the environment no CQE carries
 * data. The SENDs may land (hca_land.c): the CQE is then written by the
 * initiator's HCA pass, the same bytes.
 * Usage: debian_scat_cqe [req64-shifted] (built against Debian's
 * libibverbs and libmlx5; run it on rdma-dm's libraries too with
 * LD_LIBRARY_PATH)
 */
#include <errno.h>
#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "judge.h"
#include "judge_end.h"

#define BUF	  4096
#define RECV_OFF  0    /* the target's receive buffer (64 + guard) */
#define SEND_OFF  512  /* the initiator's SEND source */
#define SRC_OFF	  1024 /* READ source in the target */
#define DST_OFF	  2048 /* READ destination in the initiator (+ guard) */
#define ATOM_OFF  3072 /* the target's atomic word; initiator: result */
#define UNTOUCHED 0xa5
#define LIMIT_S	  30

static const uint32_t lens[] = {1, 31, 32, 33, 64};
/*
 * Debian 12's libmlx5 (rdma-core 44) copies a requester's
 * MLX5_INLINE_SCATTER_64 data from one byte before the 128-byte CQE (a
 * void pointer less one; fixed upstream by rdma-core PR #1743): with
 * "req64-shifted" the READ and atomic answers of 128-byte CQEs must
 * arrive shifted so, which only the right CQE layout gives.
 */
static int req_64_shifted;
#define NLENS (sizeof(lens) / sizeof(lens[0]))

struct end {
	struct rc_end j;
	struct mlx5dv_cq dv;
	uint32_t polled; /* CQEs consumed: the next one's index */
};

static uint8_t pat(uint32_t len, uint32_t i)
{
	return (uint8_t)(len * 13 + i * 7 + 1);
}

/* MLX5_SCATTER_TO_CQE as libmlx5 reads it: on unless "0". */
static int scatter_on(void)
{
	const char *v = getenv("MLX5_SCATTER_TO_CQE");

	return !v || strcmp(v, "0");
}

/* The op_own bit a message of len bytes must have in a CQE of cqe_size
 * bytes (0: it goes to memory). */
static uint8_t want_bit(uint32_t len, int cqe_size)
{
	if (!scatter_on() || len > (uint32_t)(cqe_size == 128 ? 64 : 32))
		return 0;
	return cqe_size == 128 ? MLX5_INLINE_SCATTER_64
			       : MLX5_INLINE_SCATTER_32;
}

/* One side with its CQ of cqe_size-byte CQEs and an RC QP signalling
 * every WR, connected to the other over the pipes. */
static int setup(struct end *e, int cqe_size, int rfd, int wfd,
		 struct judge_peer *other)
{
	struct mlx5dv_cq_init_attr dva = {
		.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE,
		.cqe_size = (uint32_t)cqe_size,
	};
	struct ibv_cq_init_attr_ex cqa = {.cqe = 16};
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.sq_sig_all = 1,
		.cap = {.max_send_wr = 16,
			.max_recv_wr = 16,
			.max_send_sge = 1,
			.max_recv_sge = 1},
	};
	struct rc_end *j = &e->j;
	struct mlx5dv_obj obj;
	struct ibv_cq_ex *cqx;
	int ret;

	if (judge_end_open(j, BUF, UNTOUCHED,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
				   IBV_ACCESS_REMOTE_ATOMIC))
		return -1;
	cqx = mlx5dv_create_cq(j->ctx, &cqa, &dva);
	j->cq = cqx ? ibv_cq_ex_to_cq(cqx) : NULL;
	CHECK(j->cq, "mlx5dv_create_cq with %d-byte CQEs: %s", cqe_size,
	      strerror(errno));
	if (!j->cq)
		return -1;
	obj.cq.in = j->cq;
	obj.cq.out = &e->dv;
	if (mlx5dv_init_obj(&obj, MLX5DV_OBJ_CQ))
		return -1;
	CHECK(e->dv.cqe_size == (uint32_t)cqe_size, "dv cqe_size %u",
	      e->dv.cqe_size);
	qa.send_cq = qa.recv_cq = j->cq;
	j->qp = ibv_create_qp(j->pd, &qa);
	if (!j->qp)
		return -1;
	ret = judge_end_connect(j, rfd, wfd, other);
	CHECK(!ret, "connect: %s", strerror(ret));
	return ret ? -1 : 0;
}

static void close_end(struct end *e)
{
	CHECK(!judge_end_close(&e->j), "a destroy verb failed");
}

/* The next CQE of e's CQ once the HCA has written it (the owner bit of
 * this pass), without consuming it; NULL after LIMIT_S. */
static volatile struct mlx5_cqe64 *peek(struct end *e)
{
	uint32_t n = e->polled, cnt = e->dv.cqe_cnt, sz = e->dv.cqe_size;
	volatile struct mlx5_cqe64 *c =
		(volatile struct mlx5_cqe64 *)((uint8_t *)e->dv.buf +
					       (size_t)(n & (cnt - 1)) * sz +
					       sz - 64);
	double until = judge_now_s() + LIMIT_S;
	uint8_t op;

	do {
		op = c->op_own;
		if (op >> 4 != MLX5_CQE_INVALID &&
		    (op & MLX5_CQE_OWNER_MASK) == !!(n & cnt)) {
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			return c;
		}
	} while (judge_now_s() < until);
	return NULL;
}

/* Where a CQE with scatter bit @bit holds its data. */
static const uint8_t *cqe_data(volatile struct mlx5_cqe64 *c, uint8_t bit)
{
	const uint8_t *p = (const uint8_t *)(uintptr_t)c;

	return bit == MLX5_INLINE_SCATTER_64 ? p - 64 : p;
}

/* Check the peeked CQE against what must be there, then poll it. */
static void check_cqe(struct end *e, uint32_t len, const uint8_t *dst,
		      const uint8_t *expect, enum ibv_wc_opcode op,
		      const char *what)
{
	int cqe_size = (int)e->dv.cqe_size;
	uint8_t bit = want_bit(len, cqe_size), got;
	volatile struct mlx5_cqe64 *c = peek(e);
	struct ibv_wc wc;
	uint32_t i;
	int n;

	CHECK(c, "%s %u B (%d-byte CQE): no CQE in %d s", what, len, cqe_size,
	      LIMIT_S);
	if (!c)
		return;
	got = c->op_own & (MLX5_INLINE_SCATTER_32 | MLX5_INLINE_SCATTER_64);
	CHECK(got == bit,
	      "%s %u B (%d-byte CQE): op_own scatter bits %#x, "
	      "want %#x",
	      what, len, cqe_size, got, bit);
	if (got == bit && bit) {
		CHECK(!memcmp(cqe_data(c, bit), expect, len),
		      "%s %u B: the CQE does not hold the data", what, len);
		for (i = 0; i < len && dst[i] == UNTOUCHED; i++)
			;
		CHECK(i == len, "%s %u B: the HCA wrote the buffer (byte %u)",
		      what, len, i);
	} else if (got == bit) {
		CHECK(!memcmp(dst, expect, len),
		      "%s %u B: not in the buffer before the poll", what, len);
	}
	n = ibv_poll_cq(e->j.cq, 1, &wc);
	CHECK(n == 1, "%s %u B: poll %d", what, len, n);
	if (n != 1)
		return;
	e->polled++;
	CHECK(wc.status == IBV_WC_SUCCESS && wc.opcode == op &&
		      (op == IBV_WC_FETCH_ADD || wc.byte_len == len),
	      "%s %u B: status %s opcode %d byte_len %u", what, len,
	      ibv_wc_status_str(wc.status), wc.opcode, wc.byte_len);
	if (req_64_shifted && op != IBV_WC_RECV &&
	    bit == MLX5_INLINE_SCATTER_64)
		CHECK(!memcmp(dst + 1, expect, len - 1),
		      "%s %u B: not libmlx5 44's copy from the byte before "
		      "the CQE",
		      what, len);
	else
		CHECK(!memcmp(dst, expect, len),
		      "%s %u B (%d-byte CQE): bytes read back wrong: %02x "
		      "%02x, want %02x %02x",
		      what, len, cqe_size, dst[0], dst[len - 1], expect[0],
		      expect[len - 1]);
	CHECK(dst[len] == UNTOUCHED, "%s %u B: the byte past it written", what,
	      len);
}

/* Consume the next completion of e (a SEND's, not looked into). */
static void reap(struct end *e, const char *what)
{
	struct ibv_wc wc;
	double until = judge_now_s() + LIMIT_S;
	int n;

	while (!(n = ibv_poll_cq(e->j.cq, 1, &wc)) && judge_now_s() < until)
		;
	CHECK(n == 1 && wc.status == IBV_WC_SUCCESS, "%s: poll %d status %s",
	      what, n, n == 1 ? ibv_wc_status_str(wc.status) : "-");
	e->polled += n == 1;
}

static int post_send(struct end *e, enum ibv_wr_opcode op, uint32_t off,
		     uint32_t len, const struct judge_peer *p, uint64_t raddr)
{
	struct ibv_sge sge = {(uintptr_t)(e->j.buf + off), len, e->j.mr->lkey};
	struct ibv_send_wr wr = {.sg_list = &sge, .num_sge = 1, .opcode = op},
			   *bad;

	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = p->rkey;
	if (op == IBV_WR_ATOMIC_FETCH_AND_ADD) {
		wr.wr.atomic.remote_addr = raddr;
		wr.wr.atomic.rkey = p->rkey;
		wr.wr.atomic.compare_add = 3;
	}
	return ibv_post_send(e->j.qp, &wr, &bad);
}

/* The target: receives each SEND, peeking at its CQE first. */
static void target(int cqe_size, int rfd, int wfd)
{
	uint8_t expect[64], *dst;
	struct end e = {0};
	struct ibv_sge sge;
	struct ibv_recv_wr wr = {.sg_list = &sge, .num_sge = 1}, *bad;
	uint64_t word = 40;
	struct judge_peer a;
	unsigned int k;
	uint32_t i;
	char c = 0;

	if (setup(&e, cqe_size, rfd, wfd, &a))
		goto out;
	for (i = 0; i < 64; i++)
		e.j.buf[SRC_OFF + i] = pat(1000, i);
	memcpy(e.j.buf + ATOM_OFF, &word, 8);
	dst = e.j.buf + RECV_OFF;
	sge = (struct ibv_sge){(uintptr_t)dst, 64, e.j.mr->lkey};
	for (k = 0; k < NLENS; k++) {
		memset(dst, UNTOUCHED, 128);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		CHECK(!ibv_post_recv(e.j.qp, &wr, &bad), "post_recv");
		CHECK(!judge_put(wfd, &c, 1), "ready");
		for (i = 0; i < lens[k]; i++)
			expect[i] = pat(lens[k], i);
		check_cqe(&e, lens[k], dst, expect, IBV_WC_RECV, "SEND");
	}
	/* the READs and the atomic: until the initiator is done */
	CHECK(!judge_get(rfd, &c, 1), "initiator done");
	memcpy(&word, e.j.buf + ATOM_OFF, 8);
	CHECK(word == 43, "the atomic word is %llu, want 43",
	      (unsigned long long)word);
out:
	close_end(&e);
}

static void initiator(int cqe_size, int rfd, int wfd)
{
	uint8_t expect[64], *dst;
	struct end e = {0};
	uint64_t orig = 40;
	struct judge_peer b;
	unsigned int k;
	uint32_t i;
	char c;

	if (setup(&e, cqe_size, rfd, wfd, &b))
		goto out;
	for (k = 0; k < NLENS; k++) {
		for (i = 0; i < lens[k]; i++)
			e.j.buf[SEND_OFF + i] = pat(lens[k], i);
		CHECK(!judge_get(rfd, &c, 1), "target ready");
		CHECK(!post_send(&e, IBV_WR_SEND, SEND_OFF, lens[k], &b, 0),
		      "post SEND");
		reap(&e, "SEND");
	}
	for (i = 0; i < 64; i++)
		expect[i] = pat(1000, i);
	dst = e.j.buf + DST_OFF;
	for (k = 0; k < NLENS; k++) {
		memset(dst, UNTOUCHED, 128);
		CHECK(!post_send(&e, IBV_WR_RDMA_READ, DST_OFF, lens[k], &b,
				 b.addr + SRC_OFF),
		      "post READ");
		check_cqe(&e, lens[k], dst, expect, IBV_WC_RDMA_READ, "READ");
	}
	dst = e.j.buf + ATOM_OFF;
	memset(dst, UNTOUCHED, 16);
	CHECK(!post_send(&e, IBV_WR_ATOMIC_FETCH_AND_ADD, ATOM_OFF, 8, &b,
			 b.addr + ATOM_OFF),
	      "post FETCH_ADD");
	check_cqe(&e, 8, dst, (const uint8_t *)&orig, IBV_WC_FETCH_ADD,
		  "FETCH_ADD");
	CHECK(!judge_put(wfd, &c, 1), "done");
out:
	close_end(&e);
}

/* One CQE size: the target in a fork child. */
static void run(int cqe_size)
{
	int to_child[2], to_parent[2], st;
	pid_t pid;

	if (pipe(to_child) || pipe(to_parent)) {
		CHECK(0, "pipe");
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(to_child[1]);
		close(to_parent[0]);
		target(cqe_size, to_child[0], to_parent[1]);
		exit(failures ? 1 : 0);
	}
	close(to_child[0]);
	close(to_parent[1]);
	initiator(cqe_size, to_parent[0], to_child[1]);
	close(to_child[1]);
	close(to_parent[0]);
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
		      !WEXITSTATUS(st),
	      "the target (%d-byte CQEs) failed", cqe_size);
}

int main(int argc, char **argv)
{
	req_64_shifted = argc > 1 && !strcmp(argv[1], "req64-shifted");
	run(64);
	run(128);
	printf("scatter to CQE %s: %s\n", scatter_on() ? "on" : "off",
	       failures ? "FAIL" : "PASS");
	return failures ? 1 : 0;
}
