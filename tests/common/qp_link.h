/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * One QP walked RESET -> INIT -> RTR -> RTS towards its peer: the set-up
 * every data-path test and benchmark does. What differs from one to the
 * next (the address, MTU, PSN, retry budget) is a field of struct qp_link;
 * qp_link_default() fills the common values and the caller changes the
 * few it needs. Public verbs only, so programs built against Debian's
 * libibverbs use it too.
 */
#ifndef RDMA_TEST_QP_LINK_H
#define RDMA_TEST_QP_LINK_H

#include <stdint.h>
#include <sys/types.h>

#include <infiniband/verbs.h>

struct qp_link {
	uint32_t dest_qpn;
	uint16_t dlid;		   /* the peer's LID (IB link layer) */
	const union ibv_gid *dgid; /* non-NULL: a GRH to this GID (RoCE) */
	uint8_t sgid_index;	   /* with dgid */
	uint8_t hop_limit;	   /* with dgid */
	unsigned int access;	   /* INIT's qp_access_flags (UC: write only) */
	enum ibv_mtu mtu;	   /* connected QPs */
	uint32_t psn;		   /* sq_psn and rq_psn */
	uint32_t qkey;		   /* UD */
	uint8_t rd_atomic;	   /* RC: max_rd_atomic = max_dest_rd_atomic */
	uint8_t min_rnr_timer;	   /* RC, IB encoding (12: 0.64 ms) */
	uint8_t timeout;	   /* RC, 4.096 us << timeout */
	uint8_t retry_cnt;	   /* RC */
	uint8_t rnr_retry;	   /* RC, 7: for ever */
};

/*
 * Towards @dest_qpn: remote write, read and atomic access, MTU 1024,
 * PSN 0, one read/atomic in flight, RNR timer 12, timeout 14 (67 ms),
 * 7 retries of each kind, hop limit 64; no address (set dlid or dgid).
 */
struct qp_link qp_link_default(uint32_t dest_qpn);

/*
 * Move @qp (in RESET; RC, UC, UD or either half of XRC) to RTS along @l:
 * each transition carries only the attributes its QP type takes. 0, or
 * the errno of the first ibv_modify_qp that failed (the QP stays in the
 * state before it).
 */
int qp_link_up(struct ibv_qp *qp, const struct qp_link *l);

/* An RC QP on @pd (in RESET): @depth WRs and one SGE each way. */
struct ibv_qp *qp_link_rc_qp(struct ibv_pd *pd, struct ibv_cq *send_cq,
			     struct ibv_cq *recv_cq, uint32_t depth);

/*
 * The device named @name opened from the device list, as a program picks
 * its HCA; NULL when there is none or it does not open. With @lid, port
 * 1's LID there too (NULL, the device closed again, when the port cannot
 * be queried).
 */
struct ibv_context *qp_link_open(const char *name, uint16_t *lid);

/*
 * What an RC end made, released in reverse: @qp, @mr, @recv_cq (unless it
 * is @send_cq), @send_cq, @pd, @ctx; NULL ones are skipped. Every one is
 * released; NULL, or the name of the first verb that failed.
 */
const char *qp_link_close(struct ibv_qp *qp, struct ibv_mr *mr,
			  struct ibv_cq *send_cq, struct ibv_cq *recv_cq,
			  struct ibv_pd *pd, struct ibv_context *ctx);

/*
 * What one side of a two-process judge needs before its QP: a 4096-byte
 * page-aligned buffer registered for local write, a PD, and a send and a
 * receive CQ of @depth entries. 0, or -1 with what was made set.
 */
int qp_link_side(struct ibv_context *ctx, int depth, uint8_t **buf,
		 struct ibv_pd **pd, struct ibv_cq **scq, struct ibv_cq **rcq,
		 struct ibv_mr **mr);

/*
 * One completion of @cq into @wc, polling for up to @sec seconds of wall
 * time (however loaded the machine); 1, 0 when none came, or ibv_poll_cq's
 * error.
 */
int qp_link_poll(struct ibv_cq *cq, struct ibv_wc *wc, int sec);

/*
 * A two-process judge's fork: a socket pair between parent and child,
 * each keeping its own end in *@fd. Like fork(): 0 in the child, the
 * child's pid in the parent, -1 (nothing left open) when either failed.
 */
pid_t qp_link_fork(int *fd);

#endif /* RDMA_TEST_QP_LINK_H */
