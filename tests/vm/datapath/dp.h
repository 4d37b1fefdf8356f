/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rxe-datapath: our libibverbs + rxe provider moving bytes on a real
 * kernel's rxe0 (the VM lane). Every check prints "DP <name> ok" or
 * "DP <name> FAIL: why"; the exit code is the number of failures.
 */
#ifndef DP_H
#define DP_H

#include <stdbool.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#define DP_BUF 8192
#define DP_PSN 0x1234

struct dp_env {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	int gid_index;
	union ibv_gid gid;
};

/* One side of a connection: its QP, CQs and a registered buffer. */
struct dp_end {
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;
	struct dp_end *peer; /* set by dp_connect */
};

extern struct dp_env dp;

/* Record a check; returns ok so callers can stop early. */
bool dp_check(const char *name, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

int dp_failures(void);
/*
 * Poll one completion of @cq and check its status, opcode and wr_id;
 * false (and a FAIL row for @name) when any differs or none arrives.
 */
bool dp_expect_wc(const char *name, struct ibv_cq *cq, struct ibv_wc *wc,
		  enum ibv_wc_status status, enum ibv_wc_opcode opcode,
		  uint64_t wr_id);
/* No completion within 50 ms. */
bool dp_cq_idle(struct ibv_cq *cq);

/* Endpoints: create (type RC/UC/UD, optional SRQ, send_ops for qp_ex, 0 =
 * the plain ibv_create_qp), connect two of them, destroy. */
int dp_end_create(struct dp_end *e, enum ibv_qp_type type, struct ibv_srq *srq,
		  uint64_t send_ops, int sig_all);
int dp_connect(struct dp_end *a, struct dp_end *b);
/*
 * Create @a (send ops @a_ops) and @b (on @b_srq if not NULL), both of
 * @type, and connect them; a "<@name> ok" or FAIL row, true when all
 * three worked.
 */
bool dp_pair(const char *name, struct dp_end *a, struct dp_end *b,
	     enum ibv_qp_type type, struct ibv_srq *b_srq, uint64_t a_ops);
void dp_end_destroy(struct dp_end *e);

/* Poll one completion with a 2 s timeout: 1, 0 on timeout, -1 on error. */
int dp_poll(struct ibv_cq *cq, struct ibv_wc *wc);
/*
 * Fill @wr/@sge for @op from @e's buffer at @loff (len bytes) to its
 * peer's buffer at @roff (RDMA and atomics), signaled, wr_id @loff.
 */
void dp_wr(struct ibv_send_wr *wr, struct ibv_sge *sge, struct dp_end *e,
	   enum ibv_wr_opcode op, size_t loff, uint32_t len, size_t roff);
/* Post @wr alone; 0 or errno. */
int dp_post1(struct dp_end *e, struct ibv_send_wr *wr);
int dp_post_recv(struct dp_end *e, size_t off, uint32_t len, uint64_t wr_id);
/* Fill @n bytes of @p with a pattern derived from @seed. */
void dp_fill(void *p, size_t n, unsigned int seed);

/* The check groups. */
void dp_rc_ops(void);
void dp_rc_new_api(void);
void dp_mw(void);
void dp_srq(void);
void dp_ud(void);
void dp_events(void);
void dp_errors(void);
void dp_resize(void);

#endif /* DP_H */
