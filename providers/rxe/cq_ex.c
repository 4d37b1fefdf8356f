// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The extended poll API on the CQ ring: start_poll takes the CQ lock and
 * points at the oldest CQE, next_poll retires it and moves on, end_poll
 * retires the current one and unlocks. The read_* accessors read the
 * current CQE in place (the kernel cannot reuse a slot we have not
 * retired).
 */
#include <errno.h>

#include "rxe.h"

static inline struct rxe_cq *ex_to_rcq(struct ibv_cq_ex *cq)
{
	return (struct rxe_cq *)cq;
}

static inline struct ib_uverbs_wc *cur_wc(struct ibv_cq_ex *cq)
{
	return ex_to_rcq(cq)->cur;
}

/* Load the oldest CQE into the ibv_cq_ex, or ENOENT when there is none. */
static int load_current(struct rxe_cq *cq)
{
	struct ib_uverbs_wc *wc;

	if (rxe_queue_empty(&cq->q)) {
		cq->cur = NULL;
		return ENOENT;
	}
	wc = rxe_consumer_slot(&cq->q);
	cq->cur = wc;
	cq->vcq.cq_ex.wr_id = wc->wr_id;
	cq->vcq.cq_ex.status = (enum ibv_wc_status)wc->status;
	return 0;
}

static int start_poll(struct ibv_cq_ex *ibcq, struct ibv_poll_cq_attr *attr)
{
	struct rxe_cq *cq = ex_to_rcq(ibcq);
	int err;

	if (attr && attr->comp_mask)
		return EINVAL;
	pthread_spin_lock(&cq->lock);
	err = load_current(cq);
	if (err)
		pthread_spin_unlock(&cq->lock);
	return err;
}

static int next_poll(struct ibv_cq_ex *ibcq)
{
	struct rxe_cq *cq = ex_to_rcq(ibcq);

	rxe_advance_consumer(&cq->q);
	return load_current(cq);
}

static void end_poll(struct ibv_cq_ex *ibcq)
{
	struct rxe_cq *cq = ex_to_rcq(ibcq);

	/* After next_poll said ENOENT there is no current CQE to retire. */
	if (cq->cur)
		rxe_advance_consumer(&cq->q);
	cq->cur = NULL;
	pthread_spin_unlock(&cq->lock);
}

static enum ibv_wc_opcode read_opcode(struct ibv_cq_ex *cq)
{
	return (enum ibv_wc_opcode)cur_wc(cq)->opcode;
}

static uint32_t read_vendor_err(struct ibv_cq_ex *cq)
{
	return cur_wc(cq)->vendor_err;
}

static uint32_t read_byte_len(struct ibv_cq_ex *cq)
{
	return cur_wc(cq)->byte_len;
}

static __be32 read_imm_data(struct ibv_cq_ex *cq)
{
	return (__be32)cur_wc(cq)->ex.imm_data;
}

static uint32_t read_qp_num(struct ibv_cq_ex *cq)
{
	return cur_wc(cq)->qp_num;
}

static uint32_t read_src_qp(struct ibv_cq_ex *cq)
{
	return cur_wc(cq)->src_qp;
}

static unsigned int read_wc_flags(struct ibv_cq_ex *cq)
{
	return cur_wc(cq)->wc_flags;
}

static uint32_t read_slid(struct ibv_cq_ex *cq)
{
	return cur_wc(cq)->slid;
}

static uint8_t read_sl(struct ibv_cq_ex *cq)
{
	return cur_wc(cq)->sl;
}

static uint8_t read_dlid_path_bits(struct ibv_cq_ex *cq)
{
	return cur_wc(cq)->dlid_path_bits;
}

void rxe_cq_ex_set_ops(struct rxe_cq *cq)
{
	struct ibv_cq_ex *ex = &cq->vcq.cq_ex;

	ex->start_poll = start_poll;
	ex->next_poll = next_poll;
	ex->end_poll = end_poll;
	ex->read_opcode = read_opcode;
	ex->read_vendor_err = read_vendor_err;
	ex->read_byte_len = read_byte_len;
	ex->read_imm_data = read_imm_data;
	ex->read_qp_num = read_qp_num;
	ex->read_src_qp = read_src_qp;
	ex->read_wc_flags = read_wc_flags;
	ex->read_slid = read_slid;
	ex->read_sl = read_sl;
	ex->read_dlid_path_bits = read_dlid_path_bits;
}
