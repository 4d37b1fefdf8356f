// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Send WQEs. Both post APIs build a struct rxe_send_wqe in the SQ slot
 * with the helpers below; ibv_post_send() publishes each WR as it goes and
 * then rings the doorbell: a POST_SEND write() with no WR, which makes the
 * kernel run this QP's requester over the ring (6.1 runs the task inline,
 * 6.12 schedules it; both refuse with EINVAL before RTS, leaving the WQEs
 * queued).
 */
#include <errno.h>
#include <string.h>

#include "rxe.h"

struct rxe_send_wqe *rxe_wqe_start(struct rxe_qp *qp, uint32_t idx,
				   uint64_t wr_id, uint32_t opcode,
				   uint32_t flags)
{
	struct rxe_send_wqe *wqe = rxe_slot(&qp->sq.q, idx);

	memset(wqe, 0, sizeof(*wqe));
	wqe->wr.wr_id = wr_id;
	wqe->wr.opcode = opcode;
	wqe->wr.send_flags = flags;
	return wqe;
}

void rxe_wqe_rdma(struct rxe_send_wqe *wqe, uint32_t rkey, uint64_t raddr)
{
	wqe->wr.wr.rdma.remote_addr = raddr;
	wqe->wr.wr.rdma.rkey = rkey;
	wqe->iova = raddr;
}

void rxe_wqe_atomic(struct rxe_send_wqe *wqe, uint32_t rkey, uint64_t raddr,
		    uint64_t compare_add, uint64_t swap)
{
	wqe->wr.wr.atomic.remote_addr = raddr;
	wqe->wr.wr.atomic.compare_add = compare_add;
	wqe->wr.wr.atomic.swap = swap;
	wqe->wr.wr.atomic.rkey = rkey;
	wqe->iova = raddr;
}

/* The kernel resolves the AV from ah_num (6.1 and 6.12 both return one). */
void rxe_wqe_ud(struct rxe_send_wqe *wqe, struct ibv_ah *ah, uint32_t qpn,
		uint32_t qkey)
{
	wqe->wr.wr.ud.remote_qpn = qpn;
	wqe->wr.wr.ud.remote_qkey = qkey;
	wqe->wr.wr.ud.ah_num = ah ? to_rah(ah)->ah_num : 0;
}

int rxe_wqe_add_sge(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
		    const struct ibv_sge *sge)
{
	struct rxe_sge *dst;

	if (wqe->dma.num_sge >= qp->sq.max_sge)
		return EINVAL;
	dst = &wqe->dma.sge[wqe->dma.num_sge++];
	dst->addr = sge->addr;
	dst->length = sge->length;
	dst->lkey = sge->lkey;
	wqe->dma.length += sge->length;
	wqe->dma.resid = wqe->dma.length;
	return 0;
}

/* Inline bytes are copied now; the kernel reads them only with INLINE. */
int rxe_wqe_add_inline(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
		       const void *addr, size_t len)
{
	if (len > qp->sq.max_inline - wqe->dma.length)
		return EINVAL;
	memcpy(wqe->dma.inline_data + wqe->dma.length, addr, len);
	wqe->dma.length += (uint32_t)len;
	wqe->dma.resid = wqe->dma.length;
	return 0;
}

int rxe_ring_doorbell(struct rxe_qp *qp)
{
	struct ibv_send_wr *bad = NULL;

	return ibv_cmd_post_send(&qp->vqp.qp, NULL, &bad);
}

static int wr_payload(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
		      const struct ibv_send_wr *wr)
{
	uint64_t total = 0;
	int i, err = 0;

	if (wr->num_sge < 0 || (uint32_t)wr->num_sge > qp->sq.max_sge)
		return EINVAL;
	for (i = 0; i < wr->num_sge; i++)
		total += wr->sg_list[i].length;
	if (wr->send_flags & IBV_SEND_INLINE) {
		if (total > qp->sq.max_inline)
			return EINVAL;
		for (i = 0; i < wr->num_sge && !err; i++)
			err = rxe_wqe_add_inline(
				qp, wqe,
				(const void *)(uintptr_t)wr->sg_list[i].addr,
				wr->sg_list[i].length);
	} else {
		for (i = 0; i < wr->num_sge && !err; i++)
			err = rxe_wqe_add_sge(qp, wqe, &wr->sg_list[i]);
	}
	return err;
}

static int wr_fields(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
		     const struct ibv_send_wr *wr)
{
	switch (wr->opcode) {
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		wqe->wr.ex.imm_data = wr->imm_data;
		/* fallthrough */
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_READ:
		rxe_wqe_rdma(wqe, wr->wr.rdma.rkey, wr->wr.rdma.remote_addr);
		return 0;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		if (wr->num_sge < 1 || wr->sg_list[0].length < 8 ||
		    wr->wr.atomic.remote_addr & 7)
			return EINVAL;
		rxe_wqe_atomic(wqe, wr->wr.atomic.rkey,
			       wr->wr.atomic.remote_addr,
			       wr->wr.atomic.compare_add, wr->wr.atomic.swap);
		return 0;
	case IBV_WR_SEND_WITH_IMM:
		wqe->wr.ex.imm_data = wr->imm_data;
		/* fallthrough */
	case IBV_WR_SEND:
		if (qp->vqp.qp.qp_type != IBV_QPT_UD)
			return 0;
		if (!wr->wr.ud.ah)
			return EINVAL;
		rxe_wqe_ud(wqe, wr->wr.ud.ah, wr->wr.ud.remote_qpn,
			   wr->wr.ud.remote_qkey);
		return 0;
	case IBV_WR_SEND_WITH_INV:
	case IBV_WR_LOCAL_INV:
		wqe->wr.ex.invalidate_rkey = wr->invalidate_rkey;
		return 0;
	case IBV_WR_BIND_MW:
		/* RC and UC; a bind carries no data */
		if (qp->vqp.qp.qp_type == IBV_QPT_UD || wr->num_sge)
			return EINVAL;
		rxe_wqe_bind(wqe, wr->bind_mw.mw, wr->bind_mw.rkey,
			     &wr->bind_mw.bind_info);
		return 0;
	default:
		/* The newer opcodes are not provided. */
		return EINVAL;
	}
}

static int post_one_send(struct rxe_qp *qp, uint32_t idx,
			 const struct ibv_send_wr *wr)
{
	struct rxe_send_wqe *wqe;
	int err;

	if (rxe_queue_full_at(&qp->sq.q, idx))
		return ENOMEM;
	wqe = rxe_wqe_start(qp, idx, wr->wr_id, wr->opcode, wr->send_flags);
	err = wr_fields(qp, wqe, wr);
	if (!err)
		err = wr_payload(qp, wqe, wr);
	return err;
}

int rxe_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
		  struct ibv_send_wr **bad_wr)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	uint32_t idx;
	int err = 0, db;

	if (!bad_wr || !wr || !qp->sq.q.buf) {
		if (bad_wr)
			*bad_wr = wr;
		return EINVAL;
	}
	pthread_spin_lock(&qp->sq.lock);
	idx = rxe_producer(&qp->sq.q);
	for (; wr; wr = wr->next) {
		err = post_one_send(qp, idx, wr);
		if (err) {
			*bad_wr = wr;
			break;
		}
		rxe_publish_producer(&qp->sq.q, ++idx);
	}
	/* Kick even after a failure: the WRs before it are posted. */
	db = rxe_ring_doorbell(qp);
	pthread_spin_unlock(&qp->sq.lock);
	return db ? db : err;
}
