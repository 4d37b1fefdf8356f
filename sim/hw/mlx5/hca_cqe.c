// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5 CQEs: 64-byte struct mlx5_cqe64 (the second half of a 128-byte
 * entry), written field by field and published by the op_own byte last,
 * whose owner bit flips on every pass over the ring. The arm word of the
 * doorbell record holds what libmlx5's last arm wrote; the HCA replaces it
 * with HCA_CQ_ARM_IDLE (a value no arm can have) when the event fires, so
 * "armed" is "the word is not idle". A resize leaves a RESIZE_CQ CQE in
 * the old ring at the point where the HCA moved to the new one. A CQE
 * that finds the CQ full is lost: CQ_ERR, and its QP takes a local
 * catastrophic error (QP_FATAL, ERR).
 */
#include "hca.h"
#include "hca_cmd.h"

#include <endian.h>
#include <string.h>

static void put16(uint8_t *p, uint16_t v)
{
	v = htobe16(v);
	memcpy(p, &v, 2);
}

static void put32(uint8_t *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, 8);
}

static int is_error(uint8_t op)
{
	return op == HCA_CQE_REQ_ERR || op == HCA_CQE_RESP_ERR;
}

/* Write the CQE at the producer count; 0 if the CQ overran instead. */
static int put_cqe(struct hca_cq *cq, const struct hca_cqe_info *ci)
{
	uint32_t set_ci = be32toh(cq->dbrec[0]) & 0xffffff;
	int landed = hca_rx_landing() && !is_error(ci->opcode);
	uint8_t *e;

	/* a SEND that landed had its slot (the program may have read it) */
	if (((cq->pi - set_ci) & 0xffffff) >= cq->ncqe && !cq->ignore_overrun &&
	    !landed) {
		if (!cq->overrun)
			hca_eq_post(HCA_EQE_CQ_ERROR, 0, cq->dev, cq->cqn);
		cq->overrun = 1;
		return 0;
	}
	e = cq->buf + (size_t)(cq->pi & (cq->ncqe - 1)) * cq->cqe_size;
	if (cq->cqe_size == 128)
		e += 64;
	/* a SEND that landed: its sender wrote this CQE (hca_land.c) */
	if (!landed)
		hca_cqe_render(e, ci, (cq->pi & cq->ncqe) ? 1 : 0);
	cq->pi++;
	hca_trace_cqe(cq, ci);
	return 1;
}

void hca_cqe_render(uint8_t *e, const struct hca_cqe_info *ci, int owner)
{
	memset(e, 0, 63);
	if (is_error(ci->opcode)) {
		e[54] = ci->vendor;
		e[55] = ci->syndrome;
	} else {
		put16(e + 22, ci->slid);
		put32(e + 24, (ci->src_qp & 0xffffff) |
				      ((uint32_t)(ci->sl & 0xf) << 24) |
				      (ci->grh ? 2u << 28 : 0) |
				      ((uint32_t)(ci->l3_type & 3) << 24));
		memcpy(e + 36, &ci->imm, 4); /* raw, as libmlx5 reads it */
		put32(e + 44, ci->byte_cnt);
		/* the completion time, in cycles of the HCA clock */
		put64(e + 48, hca_clock_now());
	}
	if (ci->app) {
		e[40] = ci->app;
		e[41] = ci->app_op;
		put16(e + 42, ci->app_info);
		if (ci->has_head)
			memcpy(e, ci->head, sizeof(ci->head));
	}
	put32(e + 32, ci->uidx & 0xffffff);
	put32(e + 56, ((uint32_t)ci->wqe_opcode << 24) | (ci->qpn & 0xffffff));
	put16(e + 60, ci->wqe_counter);
	/* scatter to CQE: the payload over the CQE's first half, or in the
	 * 64 bytes before it (hca_scat_cqe.c) */
	if (ci->scat == HCA_INLINE_SCATTER_64)
		memset(e - 64, 0, 64);
	if (ci->scat)
		memcpy(ci->scat == HCA_INLINE_SCATTER_64 ? e - 64 : e,
		       ci->scat_data, ci->scat_len);
	__atomic_store_n(&e[63],
			 (uint8_t)(ci->opcode << 4 | ci->scat |
				   (ci->solicited ? 2 : 0) | (owner ? 1 : 0)),
			 __ATOMIC_RELEASE);
}

/*
 * The QP whose completion found cq full. Its error is taken at the end of
 * the engine's pass (hca_cq_overrun_errors), not here in the middle of
 * retiring the WQE or receive that overran.
 */
static void mark_overrun(struct hca_cq *cq, uint32_t qpn)
{
	struct hca_qp *qp;

	for (qp = hca_qps; qp; qp = qp->next)
		if (qp->qpn == qpn && (qp->scq == cq || qp->rcq == cq))
			qp->cq_overran = 1;
}

int hca_cq_overrun_errors(void)
{
	struct hca_qp *qp;
	int did = 0;

	for (qp = hca_qps; qp; qp = qp->next) {
		if (!qp->cq_overran)
			continue;
		qp->cq_overran = 0;
		/* A QP already in error (its flushes overran) raises none. */
		if (qp->state == IB_QPS_ERR || qp->state == IB_QPS_RESET)
			continue;
		hca_eq_post(HCA_EQE_WQ_CATAS_ERROR, 0, qp->dev, qp->qpn);
		hca_qp_to_err(qp);
		did = 1;
	}
	return did;
}

void hca_cqe_write(struct hca_cq *cq, const struct hca_cqe_info *ci)
{
	if (!put_cqe(cq, ci)) {
		mark_overrun(cq, ci->qpn);
		return;
	}
	if (ci->solicited || is_error(ci->opcode))
		cq->solicited_pending = 1;
	hca_cq_check_arm(cq);
}

/*
 * The RESIZE_CQ CQE takes the next slot of the old ring (the provider
 * copies what precedes it and consumes it), and the count goes on in the
 * new ring, so slot and owner bit of every later CQE follow from it. It
 * is no completion: an arm that had nothing to report before it is moved
 * past it rather than fired by it.
 */
void hca_cq_resize(struct hca_cq *cq, uint8_t *buf, uint32_t ncqe)
{
	const struct hca_cqe_info ci = {.opcode = HCA_CQE_RESIZE_CQ};
	uint32_t raw = __atomic_load_n(&cq->dbrec[1], __ATOMIC_ACQUIRE);
	uint32_t v = be32toh(raw), moved;
	int put = put_cqe(cq, &ci); /* a full old ring overruns, as ever */

	cq->buf = buf;
	cq->ncqe = ncqe;
	if (!put || raw == htobe32(HCA_CQ_ARM_IDLE) ||
	    ((cq->pi - 1 - v) & 0xffffff) != 0)
		return;
	moved = htobe32((v & 0xff000000) | (cq->pi & 0xffffff));
	__atomic_compare_exchange_n(&cq->dbrec[1], &raw, moved, 0,
				    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

void hca_cq_check_arm(struct hca_cq *cq)
{
	uint32_t raw = __atomic_load_n(&cq->dbrec[1], __ATOMIC_ACQUIRE);
	uint32_t v = be32toh(raw), idle = htobe32(HCA_CQ_ARM_IDLE);
	int sol = !!(v & (1u << 24));

	if (raw == idle)
		return;
	/* NEXT: any CQE beyond the consumer index the arm carried */
	if (((cq->pi - v) & 0xffffff) == 0)
		return;
	if (sol && !cq->solicited_pending)
		return;
	if (!hca_cq_mod_due(cq, (cq->pi - v) & 0xffffff))
		return;
	if (!__atomic_compare_exchange_n(&cq->dbrec[1], &raw, idle, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return; /* re-armed meanwhile: look again next pass */
	cq->solicited_pending = 0;
	cq->mod_since = 0;
	hca_eq_post(HCA_EQE_COMP, 0, cq->dev, cq->cqn);
}
