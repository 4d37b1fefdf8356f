// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The ibv_wr_* post API. wr_start takes the SQ lock and opens a cursor at
 * the producer index; each builder starts a WQE at the cursor and moves it,
 * the setters complete the WQE behind the cursor; wr_complete publishes all
 * of them at once and rings the doorbell, wr_abort publishes nothing. The
 * first error sticks until wr_complete reports it.
 */
#include <errno.h>
#include <string.h>

#include "rxe.h"

#define OPS_COMMON (IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM)
#define OPS_UC                                                                 \
	(OPS_COMMON | IBV_QP_EX_WITH_RDMA_WRITE |                              \
	 IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM | IBV_QP_EX_WITH_LOCAL_INV |       \
	 IBV_QP_EX_WITH_SEND_WITH_INV | IBV_QP_EX_WITH_BIND_MW)
#define OPS_RC                                                                 \
	(OPS_UC | IBV_QP_EX_WITH_RDMA_READ |                                   \
	 IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |                                   \
	 IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD)

int rxe_qp_ex_check(enum ibv_qp_type type, uint64_t send_ops)
{
	uint64_t ok;

	switch (type) {
	case IBV_QPT_RC:
		ok = OPS_RC;
		break;
	case IBV_QPT_UC:
		ok = OPS_UC;
		break;
	case IBV_QPT_UD:
		ok = OPS_COMMON;
		break;
	default:
		return EOPNOTSUPP;
	}
	return send_ops & ~ok ? EOPNOTSUPP : 0;
}

static inline struct rxe_qp *ex_qp(struct ibv_qp_ex *ibqp)
{
	return (struct rxe_qp *)ibqp;
}

/* Start a WQE at the cursor, or NULL once an error is pending. */
static struct rxe_send_wqe *begin(struct ibv_qp_ex *ibqp, uint32_t opcode)
{
	struct rxe_qp *qp = ex_qp(ibqp);
	struct rxe_send_wqe *wqe;

	if (qp->wr_err)
		return NULL;
	if (rxe_queue_full_at(&qp->sq.q, qp->wr_index)) {
		qp->wr_err = ENOSPC;
		return NULL;
	}
	wqe = rxe_wqe_start(qp, qp->wr_index, ibqp->wr_id, opcode,
			    ibqp->wr_flags);
	qp->wr_index++;
	return wqe;
}

/* The WQE the setters act on, or NULL once an error is pending. */
static struct rxe_send_wqe *last(struct rxe_qp *qp)
{
	if (qp->wr_err)
		return NULL;
	return rxe_slot(&qp->sq.q, qp->wr_index - 1);
}

static void wr_rdma_write(struct ibv_qp_ex *ibqp, uint32_t rkey, uint64_t raddr)
{
	struct rxe_send_wqe *wqe = begin(ibqp, IBV_WR_RDMA_WRITE);

	if (wqe)
		rxe_wqe_rdma(wqe, rkey, raddr);
}

static void wr_rdma_write_imm(struct ibv_qp_ex *ibqp, uint32_t rkey,
			      uint64_t raddr, __be32 imm)
{
	struct rxe_send_wqe *wqe = begin(ibqp, IBV_WR_RDMA_WRITE_WITH_IMM);

	if (!wqe)
		return;
	rxe_wqe_rdma(wqe, rkey, raddr);
	wqe->wr.ex.imm_data = imm;
}

static void wr_rdma_read(struct ibv_qp_ex *ibqp, uint32_t rkey, uint64_t raddr)
{
	struct rxe_send_wqe *wqe = begin(ibqp, IBV_WR_RDMA_READ);

	if (wqe)
		rxe_wqe_rdma(wqe, rkey, raddr);
}

static void atomic(struct ibv_qp_ex *ibqp, uint32_t opcode, uint32_t rkey,
		   uint64_t raddr, uint64_t compare_add, uint64_t swap)
{
	struct rxe_send_wqe *wqe;

	if (raddr & 7) {
		if (!ex_qp(ibqp)->wr_err)
			ex_qp(ibqp)->wr_err = EINVAL;
		return;
	}
	wqe = begin(ibqp, opcode);
	if (wqe)
		rxe_wqe_atomic(wqe, rkey, raddr, compare_add, swap);
}

static void wr_atomic_cmp_swp(struct ibv_qp_ex *ibqp, uint32_t rkey,
			      uint64_t raddr, uint64_t compare, uint64_t swap)
{
	atomic(ibqp, IBV_WR_ATOMIC_CMP_AND_SWP, rkey, raddr, compare, swap);
}

static void wr_atomic_fetch_add(struct ibv_qp_ex *ibqp, uint32_t rkey,
				uint64_t raddr, uint64_t add)
{
	atomic(ibqp, IBV_WR_ATOMIC_FETCH_AND_ADD, rkey, raddr, add, 0);
}

static void wr_send(struct ibv_qp_ex *ibqp)
{
	begin(ibqp, IBV_WR_SEND);
}

static void wr_send_imm(struct ibv_qp_ex *ibqp, __be32 imm)
{
	struct rxe_send_wqe *wqe = begin(ibqp, IBV_WR_SEND_WITH_IMM);

	if (wqe)
		wqe->wr.ex.imm_data = imm;
}

static void wr_send_inv(struct ibv_qp_ex *ibqp, uint32_t rkey)
{
	struct rxe_send_wqe *wqe = begin(ibqp, IBV_WR_SEND_WITH_INV);

	if (wqe)
		wqe->wr.ex.invalidate_rkey = rkey;
}

static void wr_local_inv(struct ibv_qp_ex *ibqp, uint32_t rkey)
{
	struct rxe_send_wqe *wqe = begin(ibqp, IBV_WR_LOCAL_INV);

	if (wqe)
		wqe->wr.ex.invalidate_rkey = rkey;
}

static void wr_bind_mw(struct ibv_qp_ex *ibqp, struct ibv_mw *mw,
		       uint32_t rkey, const struct ibv_mw_bind_info *info)
{
	struct rxe_send_wqe *wqe = begin(ibqp, IBV_WR_BIND_MW);

	if (wqe)
		rxe_wqe_bind(wqe, mw, rkey, info);
}

static void wr_set_ud_addr(struct ibv_qp_ex *ibqp, struct ibv_ah *ah,
			   uint32_t qpn, uint32_t qkey)
{
	struct rxe_send_wqe *wqe = last(ex_qp(ibqp));

	if (wqe)
		rxe_wqe_ud(wqe, ah, qpn, qkey);
}

static void fail(struct rxe_qp *qp, int err)
{
	if (err && !qp->wr_err)
		qp->wr_err = err;
}

static void wr_set_sge(struct ibv_qp_ex *ibqp, uint32_t lkey, uint64_t addr,
		       uint32_t length)
{
	struct rxe_qp *qp = ex_qp(ibqp);
	struct rxe_send_wqe *wqe = last(qp);
	struct ibv_sge sge = {.addr = addr, .length = length, .lkey = lkey};

	/* A zero-length message carries no SGE at all. */
	if (wqe && length)
		fail(qp, rxe_wqe_add_sge(qp, wqe, &sge) ? ENOSPC : 0);
}

static void wr_set_sge_list(struct ibv_qp_ex *ibqp, size_t n,
			    const struct ibv_sge *sg)
{
	struct rxe_qp *qp = ex_qp(ibqp);
	struct rxe_send_wqe *wqe = last(qp);
	size_t i;

	if (!wqe)
		return;
	if (n > qp->sq.max_sge) {
		fail(qp, ENOSPC);
		return;
	}
	for (i = 0; i < n; i++)
		rxe_wqe_add_sge(qp, wqe, &sg[i]);
}

/*
 * The kernel takes payload from the WQE only when IBV_SEND_INLINE is in
 * its flags, so the inline setters set it: data given inline is sent
 * inline whatever wr_flags said.
 */
static void wr_set_inline_data(struct ibv_qp_ex *ibqp, void *addr,
			       size_t length)
{
	struct ibv_data_buf buf = {.addr = addr, .length = length};

	ibqp->wr_set_inline_data_list(ibqp, 1, &buf);
}

static void wr_set_inline_data_list(struct ibv_qp_ex *ibqp, size_t n,
				    const struct ibv_data_buf *list)
{
	struct rxe_qp *qp = ex_qp(ibqp);
	struct rxe_send_wqe *wqe = last(qp);
	size_t i;

	if (!wqe)
		return;
	wqe->wr.send_flags |= IBV_SEND_INLINE;
	for (i = 0; i < n && !qp->wr_err; i++)
		fail(qp,
		     rxe_wqe_add_inline(qp, wqe, list[i].addr, list[i].length)
			     ? ENOSPC
			     : 0);
}

static void wr_start(struct ibv_qp_ex *ibqp)
{
	struct rxe_qp *qp = ex_qp(ibqp);

	pthread_spin_lock(&qp->sq.lock);
	qp->wr_err = 0;
	qp->wr_index = rxe_producer(&qp->sq.q);
}

static int wr_complete(struct ibv_qp_ex *ibqp)
{
	struct rxe_qp *qp = ex_qp(ibqp);
	int err = qp->wr_err;

	if (!err) {
		rxe_publish_producer(&qp->sq.q, qp->wr_index);
		err = rxe_ring_doorbell(qp);
	}
	pthread_spin_unlock(&qp->sq.lock);
	return err;
}

static void wr_abort(struct ibv_qp_ex *ibqp)
{
	pthread_spin_unlock(&ex_qp(ibqp)->sq.lock);
}

void rxe_qp_ex_set_ops(struct rxe_qp *qp)
{
	struct ibv_qp_ex *ex = &qp->vqp.qp_ex;

	ex->wr_rdma_write = wr_rdma_write;
	ex->wr_rdma_write_imm = wr_rdma_write_imm;
	ex->wr_rdma_read = wr_rdma_read;
	ex->wr_atomic_cmp_swp = wr_atomic_cmp_swp;
	ex->wr_atomic_fetch_add = wr_atomic_fetch_add;
	ex->wr_send = wr_send;
	ex->wr_send_imm = wr_send_imm;
	ex->wr_send_inv = wr_send_inv;
	ex->wr_local_inv = wr_local_inv;
	ex->wr_bind_mw = wr_bind_mw;
	ex->wr_set_ud_addr = wr_set_ud_addr;
	ex->wr_set_sge = wr_set_sge;
	ex->wr_set_sge_list = wr_set_sge_list;
	ex->wr_set_inline_data = wr_set_inline_data;
	ex->wr_set_inline_data_list = wr_set_inline_data_list;
	ex->wr_start = wr_start;
	ex->wr_complete = wr_complete;
	ex->wr_abort = wr_abort;
}
