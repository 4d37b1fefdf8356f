// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Turning CQEs into work completions. An entry belongs to software when
 * its opcode is valid and its owner bit equals the wrap parity of the
 * consumer index; the rest is read only after a load barrier. The QP or
 * SRQ a CQE belongs to is found by user index (cqe_version 1) or by QP /
 * SRQ number (version 0).
 */
#include <errno.h>
#include <string.h>

#include "datapath.h"
#include "doorbell.h"
#include "umr.h"
#include "wqe.h"

/* Upstream's internal "CQE of an unknown resource" result. */
#define CQ_POLL_ERR (-2)

struct mlx5_cqe64 *mlx5_sw_cqe(struct mlx5_cq *cq, uint32_t n)
{
	uint8_t *e = (uint8_t *)cq->active->addr +
		     (size_t)(n & (cq->ncqe - 1)) * cq->cqe_sz;
	struct mlx5_cqe64 *cqe = (struct mlx5_cqe64 *)(e + cq->cqe_sz - 64);
	uint8_t op_own = *(volatile uint8_t *)&cqe->op_own;

	if ((op_own >> 4) != MLX5_CQE_INVALID &&
	    !((op_own & MLX5_CQE_OWNER_MASK) ^ !!(n & cq->ncqe)))
		return cqe;
	return NULL;
}

/* Every entry starts invalid and hardware-owned (opcode 15, owner 0). */
void mlx5_cq_init_buf(struct mlx5_buf *buf, uint32_t ncqe, uint32_t cqe_sz)
{
	uint8_t *p = buf->addr;
	uint32_t i;

	memset(p, 0, buf->length);
	for (i = 0; i < ncqe; i++)
		p[i * cqe_sz + cqe_sz - 1] = MLX5_CQE_INVALID << 4;
}

static const struct {
	uint8_t syndrome;
	enum ibv_wc_status status;
} syndromes[] = {
	{ MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, IBV_WC_LOC_LEN_ERR },
	{ MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, IBV_WC_LOC_QP_OP_ERR },
	{ MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, IBV_WC_LOC_PROT_ERR },
	{ MLX5_CQE_SYNDROME_WR_FLUSH_ERR, IBV_WC_WR_FLUSH_ERR },
	{ MLX5_CQE_SYNDROME_MW_BIND_ERR, IBV_WC_MW_BIND_ERR },
	{ MLX5_CQE_SYNDROME_BAD_RESP_ERR, IBV_WC_BAD_RESP_ERR },
	{ MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR, IBV_WC_LOC_ACCESS_ERR },
	{ MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, IBV_WC_REM_INV_REQ_ERR },
	{ MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR, IBV_WC_REM_ACCESS_ERR },
	{ MLX5_CQE_SYNDROME_REMOTE_OP_ERR, IBV_WC_REM_OP_ERR },
	{ MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR, IBV_WC_RETRY_EXC_ERR },
	{ MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR, IBV_WC_RNR_RETRY_EXC_ERR },
	{ MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR, IBV_WC_REM_ABORT_ERR },
};

enum ibv_wc_status mlx5_syndrome_status(uint8_t syndrome)
{
	size_t i;

	for (i = 0; i < sizeof(syndromes) / sizeof(syndromes[0]); i++)
		if (syndromes[i].syndrome == syndrome)
			return syndromes[i].status;
	return IBV_WC_GENERAL_ERR;
}

/* WQE opcode of a requester CQE -> the completion's opcode and length. */
static void req_opcode(const struct mlx5_cqe64 *cqe, struct ibv_wc *wc)
{
	switch (be32toh(cqe->sop_drop_qpn) >> 24) {
	case MLX5_OPCODE_RDMA_WRITE_IMM:
		wc->wc_flags |= IBV_WC_WITH_IMM;
		/* fallthrough */
	case MLX5_OPCODE_RDMA_WRITE:
		wc->opcode = IBV_WC_RDMA_WRITE;
		break;
	case MLX5_OPCODE_SEND_IMM:
		wc->wc_flags |= IBV_WC_WITH_IMM;
		/* fallthrough */
	case MLX5_OPCODE_SEND:
	case MLX5_OPCODE_SEND_INVAL:
		wc->opcode = IBV_WC_SEND;
		break;
	case MLX5_OPCODE_RDMA_READ:
		wc->opcode = IBV_WC_RDMA_READ;
		wc->byte_len = be32toh(cqe->byte_cnt);
		break;
	case MLX5_OPCODE_ATOMIC_CS:
		wc->opcode = IBV_WC_COMP_SWAP;
		wc->byte_len = 8;
		break;
	case MLX5_OPCODE_ATOMIC_FA:
		wc->opcode = IBV_WC_FETCH_ADD;
		wc->byte_len = 8;
		break;
	case MLX5_OPCODE_TSO:
		wc->opcode = IBV_WC_TSO;
		break;
	case MLX5_OPCODE_UMR: /* BIND_MW or LOCAL_INV: the WQE says */
		wc->opcode = IBV_WC_BIND_MW;
		break;
	default:
		wc->opcode = IBV_WC_SEND;
		break;
	}
}

/* The null MR's lkey (big-endian) on cq's context; 0 if it has none. */
static __be32 null_lkey(struct mlx5_cq *cq)
{
	struct ibv_context *c = cq->verbs_cq.cq.context;

	return c ? htobe32(to_mctx(c)->dump_fill_mkey) : 0;
}

/*
 * Scatter-to-CQE: the HCA put up to 64 bytes of payload in the CQE (or in
 * the 64 bytes before it) instead of memory; copy it along @seg as the
 * HCA would have, dropping what goes to the null MR (@null, as upstream).
 * IBV_WC_LOC_LEN_ERR if it does not fit. With @sq, the segments may run
 * past the send ring's end and go on at its start.
 */
static enum ibv_wc_status scatter_copy(struct mlx5_wqe_data_seg *seg,
				       int max, const uint8_t *data,
				       uint32_t len, struct mlx5_qp *sq,
				       __be32 null)
{
	uint32_t n;
	int i;

	for (i = 0; i < max && len;
	     i++, seg = sq ? mlx5_sq_wrap(sq, seg + 1) : seg + 1) {
		if (seg->lkey == htobe32(MLX5_INVALID_LKEY))
			break;
		n = be32toh(seg->byte_count);
		if (n > len)
			n = len;
		if (!null || seg->lkey != null)
			memcpy((void *)(uintptr_t)be64toh(seg->addr), data, n);
		data += n;
		len -= n;
	}
	return len ? IBV_WC_LOC_LEN_ERR : IBV_WC_SUCCESS;
}

static const uint8_t *scatter_data(struct mlx5_cqe64 *cqe)
{
	if (cqe->op_own & MLX5_INLINE_SCATTER_32)
		return (const uint8_t *)cqe;
	if (cqe->op_own & MLX5_INLINE_SCATTER_64)
		return (const uint8_t *)cqe - 64;
	return NULL;
}

static struct mlx5_qp *find_qp(struct mlx5_cq *cq, struct mlx5_cqe64 *cqe)
{
	struct mlx5_rsc *rsc;

	if (cq->cqe_version)
		rsc = mlx5_rsc_find(cq->rsc, be32toh(cqe->srqn_uidx));
	else
		rsc = mlx5_rsc_find(cq->rsc, be32toh(cqe->sop_drop_qpn));
	return rsc && rsc->type == MLX5_RSC_QP ? (struct mlx5_qp *)
		       ((uint8_t *)rsc - offsetof(struct mlx5_qp, rsc)) : NULL;
}

static int handle_req(struct mlx5_cq *cq, struct mlx5_cqe64 *cqe,
		      struct ibv_wc *wc, bool error)
{
	struct mlx5_qp *qp = find_qp(cq, cqe);
	const uint8_t *data;
	unsigned int idx;
	uint8_t *wqe;

	if (!qp || !qp->sq.wqe_cnt)
		return CQ_POLL_ERR;
	idx = be16toh(cqe->wqe_counter) & (qp->sq.wqe_cnt - 1);
	wc->wr_id = qp->sq.wrid[idx];
	if (error)
		goto free_slot;
	/* What a raw WQE did is the caller's business, not the library's. */
	if (qp->sq.raw_wqe && qp->sq.raw_wqe[idx]) {
		wc->opcode = IBV_WC_DRIVER2;
		goto free_slot;
	}
	req_opcode(cqe, wc);
	if (wc->opcode == IBV_WC_BIND_MW)
		wc->opcode = mlx5_umr_wc_opcode(qp, idx);
	data = scatter_data(cqe);
	if (data && (wc->opcode == IBV_WC_RDMA_READ ||
		     wc->opcode == IBV_WC_COMP_SWAP ||
		     wc->opcode == IBV_WC_FETCH_ADD)) {
		/* Only RC's layout is known here (a DCI's address vector
		 * or XRC's segment would sit in between): as libmlx5, the
		 * others get a general error. */
		if (qp->qp_type != IBV_QPT_RC) {
			wc->status = IBV_WC_GENERAL_ERR;
			goto free_slot;
		}
		wqe = qp->sq_start + ((size_t)idx << MLX5_SEND_WQE_SHIFT);
		/* ctrl + raddr (+ atomic) precede the data segments. */
		wqe += wc->opcode == IBV_WC_RDMA_READ ? 32 : 48;
		wc->status = scatter_copy((struct mlx5_wqe_data_seg *)wqe,
					  qp->sq.max_gs, data, wc->byte_len,
					  qp, null_lkey(cq));
	}
free_slot:
	/* only now may a poster reuse the slots: their WQE was read above */
	qp->sq.tail = qp->sq.wqe_head[idx] + 1;
	return 0;
}

static struct mlx5_srq *find_srq(struct mlx5_cq *cq, struct mlx5_cqe64 *cqe,
				 struct mlx5_qp **qpp)
{
	uint32_t srqn = be32toh(cqe->srqn_uidx) & 0xffffff;
	struct mlx5_rsc *rsc;
	struct mlx5_qp *qp;

	*qpp = NULL;
	if (!cq->cqe_version) {
		if (srqn) {
			rsc = mlx5_rsc_find(&to_dp(cq->verbs_cq.cq.context)
						     ->srq_rsc,
					    srqn);
			return rsc ? (struct mlx5_srq *)
				       ((uint8_t *)rsc -
					offsetof(struct mlx5_srq, rsc)) :
				     NULL;
		}
		*qpp = find_qp(cq, cqe);
		return NULL;
	}
	rsc = mlx5_rsc_find(cq->rsc, srqn);
	if (rsc && rsc->type == MLX5_RSC_SRQ)
		return (struct mlx5_srq *)((uint8_t *)rsc -
					   offsetof(struct mlx5_srq, rsc));
	qp = find_qp(cq, cqe);
	*qpp = qp;
	if (qp && qp->verbs_qp.qp.srq)
		return to_msrq(qp->verbs_qp.qp.srq);
	return NULL;
}

static void resp_fields(struct mlx5_cqe64 *cqe, struct ibv_wc *wc)
{
	uint32_t rqpn = be32toh(cqe->flags_rqpn);

	wc->byte_len = be32toh(cqe->byte_cnt);
	switch (cqe->op_own >> 4) {
	case MLX5_CQE_RESP_WR_IMM:
		wc->opcode = IBV_WC_RECV_RDMA_WITH_IMM;
		wc->wc_flags |= IBV_WC_WITH_IMM;
		wc->imm_data = cqe->imm_inval_pkey;
		break;
	case MLX5_CQE_RESP_SEND_IMM:
		wc->opcode = IBV_WC_RECV;
		wc->wc_flags |= IBV_WC_WITH_IMM;
		wc->imm_data = cqe->imm_inval_pkey;
		break;
	case MLX5_CQE_RESP_SEND_INV:
		wc->opcode = IBV_WC_RECV;
		wc->wc_flags |= IBV_WC_WITH_INV;
		wc->invalidated_rkey = be32toh(cqe->imm_inval_pkey);
		break;
	default:
		wc->opcode = IBV_WC_RECV;
		break;
	}
	wc->slid = be16toh(cqe->slid);
	wc->sl = (rqpn >> 24) & 0xf;
	wc->src_qp = rqpn & 0xffffff;
	wc->dlid_path_bits = cqe->ml_path & 0x7f;
	if ((rqpn >> 28) & 3)
		wc->wc_flags |= IBV_WC_GRH;
	wc->pkey_index = be32toh(cqe->imm_inval_pkey) & 0xffff;
}

static int handle_resp(struct mlx5_cq *cq, struct mlx5_cqe64 *cqe,
		       struct ibv_wc *wc, bool error)
{
	const uint8_t *data = error ? NULL : scatter_data(cqe);
	struct mlx5_qp *qp;
	struct mlx5_srq *srq = find_srq(cq, cqe, &qp);
	unsigned int idx;
	uint8_t *wqe;

	if (!error)
		resp_fields(cqe, wc);
	if (srq) {
		idx = be16toh(cqe->wqe_counter);
		if ((int)idx >= srq->max)
			return CQ_POLL_ERR;
		wc->wr_id = srq->wrid[idx];
		if (data) {
			wqe = (uint8_t *)mlx5_srq_wqe(srq, (int)idx) +
			      sizeof(struct mlx5_wqe_srq_next_seg);
			wc->status = scatter_copy(
				(struct mlx5_wqe_data_seg *)wqe, srq->max_gs,
				data, wc->byte_len, NULL, null_lkey(cq));
		}
		mlx5_free_srq_wqe(srq, (int)idx);
		return 0;
	}
	if (!qp || !qp->rq.wqe_cnt)
		return CQ_POLL_ERR;
	idx = be16toh(cqe->wqe_counter) & (qp->rq.wqe_cnt - 1);
	wc->wr_id = qp->rq.wrid[idx];
	qp->rq.tail++;
	if (data) {
		wqe = (uint8_t *)qp->buf.addr + qp->rq.offset +
		      ((size_t)idx << qp->rq.wqe_shift);
		wc->status = scatter_copy((struct mlx5_wqe_data_seg *)wqe,
					  qp->rq.max_gs, data, wc->byte_len,
					  NULL, null_lkey(cq));
	}
	return 0;
}

/* A tag-matching CQE: its SRQ must be a TM SRQ. */
static int handle_tm(struct mlx5_cq *cq, struct mlx5_cqe64 *cqe,
		     struct ibv_wc *wc)
{
	struct mlx5_qp *qp;
	struct mlx5_srq *srq = find_srq(cq, cqe, &qp);
	int ret;

	if (!srq || !srq->tm)
		return CQ_POLL_ERR;
	if (mlx5_tm_in_srq_wqe(cqe->app_op)) {
		ret = handle_resp(cq, cqe, wc, false);
		if (!ret)
			mlx5_tm_srq_wqe_cqe(srq, cqe, wc);
		return ret;
	}
	if (cqe->op_own >> 4 != MLX5_CQE_NO_PACKET)
		resp_fields(cqe, wc);
	return mlx5_tm_cqe(srq, cqe, wc) ? CQ_POLL_ERR : 0;
}

/* 0 with @wc filled, ENOENT when the CQ is empty, or CQ_POLL_ERR. */
static int poll_one(struct mlx5_cq *cq, struct ibv_wc *wc)
{
	struct mlx5_err_cqe *ecqe;
	struct mlx5_cqe64 *cqe;
	uint8_t op;

again:
	cqe = mlx5_sw_cqe(cq, cq->cons_index);
	if (!cqe)
		return ENOENT;
	cq->cons_index++;
	udma_from_device_barrier();
	cq->cur_cqe = cqe;
	op = cqe->op_own >> 4;
	wc->status = IBV_WC_SUCCESS;
	wc->wc_flags = 0;
	wc->vendor_err = 0;
	wc->qp_num = be32toh(cqe->sop_drop_qpn) & 0xffffff;
	switch (op) {
	case MLX5_CQE_REQ:
		return handle_req(cq, cqe, wc, false);
	case MLX5_CQE_RESP_WR_IMM:
	case MLX5_CQE_RESP_SEND:
	case MLX5_CQE_RESP_SEND_IMM:
	case MLX5_CQE_RESP_SEND_INV:
		if (cqe->app == MLX5_CQE_APP_TAG_MATCHING)
			return handle_tm(cq, cqe, wc);
		return handle_resp(cq, cqe, wc, false);
	case MLX5_CQE_NO_PACKET:
		if (cqe->app != MLX5_CQE_APP_TAG_MATCHING)
			return CQ_POLL_ERR;
		return handle_tm(cq, cqe, wc);
	case MLX5_CQE_REQ_ERR:
	case MLX5_CQE_RESP_ERR:
		ecqe = (struct mlx5_err_cqe *)cqe;
		wc->status = mlx5_syndrome_status(ecqe->syndrome);
		wc->vendor_err = ecqe->vendor_err_synd;
		return op == MLX5_CQE_REQ_ERR ? handle_req(cq, cqe, wc, true)
					      : handle_resp(cq, cqe, wc, true);
	case MLX5_CQE_RESIZE_CQ:
	case MLX5_CQE_SIG_ERR:
		goto again; /* consumed, not reported */
	default:
		return CQ_POLL_ERR;
	}
}

static inline void update_ci(struct mlx5_cq *cq)
{
	udma_to_device_barrier();
	mlx5_set_dbrec(&cq->dbrec[0], cq->cons_index & 0xffffff);
}

int mlx5_poll_cq(struct ibv_cq *ibcq, int ne, struct ibv_wc *wc)
{
	struct mlx5_cq *cq = to_mcq(ibcq);
	int n = 0, err = 0;

	if (!cq->single_threaded)
		pthread_spin_lock(&cq->lock);
	while (n < ne) {
		err = poll_one(cq, wc + n);
		if (err)
			break;
		n++;
	}
	if (n || err == CQ_POLL_ERR)
		update_ci(cq);
	if (!cq->single_threaded)
		pthread_spin_unlock(&cq->lock);
	return err == CQ_POLL_ERR ? CQ_POLL_ERR : n;
}

/* ---- the extended poll API: one CQE parsed into cq->cur_wc at a time */

static int ex_poll_next(struct mlx5_cq *cq)
{
	int err = poll_one(cq, &cq->cur_wc);

	if (err)
		return err == ENOENT ? ENOENT : EINVAL;
	cq->verbs_cq.cq_ex.status = cq->cur_wc.status;
	cq->verbs_cq.cq_ex.wr_id = cq->cur_wc.wr_id;
	return 0;
}

static int ex_start_poll(struct ibv_cq_ex *ibcq, struct ibv_poll_cq_attr *attr)
{
	struct mlx5_cq *cq = to_mcq_ex(ibcq);
	int err;

	if (attr->comp_mask)
		return EINVAL;
	if (!cq->single_threaded)
		pthread_spin_lock(&cq->lock);
	err = ex_poll_next(cq);
	/* The page this batch's wall-clock stamps convert with. */
	if (!err && cq->clock_update) {
		err = mlx5dv_get_clock_info(ibcq->context, &cq->last_clock);
		if (err)
			cq->cons_index--; /* the CQE waits for the next try */
	}
	if (err) {
		/* Skipped resize/signature CQEs still advance the index. */
		if (cq->cons_index != cq->polled_ci) {
			update_ci(cq);
			cq->polled_ci = cq->cons_index;
		}
		if (!cq->single_threaded)
			pthread_spin_unlock(&cq->lock);
	}
	return err;
}

static int ex_next_poll(struct ibv_cq_ex *ibcq)
{
	return ex_poll_next(to_mcq_ex(ibcq));
}

static void ex_end_poll(struct ibv_cq_ex *ibcq)
{
	struct mlx5_cq *cq = to_mcq_ex(ibcq);

	update_ci(cq);
	cq->polled_ci = cq->cons_index;
	if (!cq->single_threaded)
		pthread_spin_unlock(&cq->lock);
}

#define CUR(ibcq) (&to_mcq_ex(ibcq)->cur_wc)

static enum ibv_wc_opcode ex_read_opcode(struct ibv_cq_ex *ibcq)
{
	return CUR(ibcq)->opcode;
}

static uint32_t ex_read_vendor_err(struct ibv_cq_ex *ibcq)
{
	return CUR(ibcq)->vendor_err;
}

static uint32_t ex_read_byte_len(struct ibv_cq_ex *ibcq)
{
	return CUR(ibcq)->byte_len;
}

static __be32 ex_read_imm_data(struct ibv_cq_ex *ibcq)
{
	return CUR(ibcq)->wc_flags & IBV_WC_WITH_INV ?
		       htobe32(CUR(ibcq)->invalidated_rkey) :
		       CUR(ibcq)->imm_data;
}

static uint32_t ex_read_qp_num(struct ibv_cq_ex *ibcq)
{
	return CUR(ibcq)->qp_num;
}

static uint32_t ex_read_src_qp(struct ibv_cq_ex *ibcq)
{
	return CUR(ibcq)->src_qp;
}

static unsigned int ex_read_wc_flags(struct ibv_cq_ex *ibcq)
{
	return CUR(ibcq)->wc_flags;
}

static uint32_t ex_read_slid(struct ibv_cq_ex *ibcq)
{
	return CUR(ibcq)->slid;
}

static uint8_t ex_read_sl(struct ibv_cq_ex *ibcq)
{
	return CUR(ibcq)->sl;
}

static uint8_t ex_read_dlid_path_bits(struct ibv_cq_ex *ibcq)
{
	return CUR(ibcq)->dlid_path_bits;
}

/* The fields read from the CQE itself (64-byte layout). */
#define CUR_CQE(ibcq) (to_mcq_ex(ibcq)->cur_cqe)

static uint64_t ex_read_completion_ts(struct ibv_cq_ex *ibcq)
{
	return be64toh(CUR_CQE(ibcq)->timestamp);
}

static uint64_t ex_read_completion_wallclock_ns(struct ibv_cq_ex *ibcq)
{
	struct mlx5_cq *cq = to_mcq_ex(ibcq);
	uint64_t raw = be64toh(cq->cur_cqe->timestamp);

	/* Without conversion the HCA wrote real time already. */
	return cq->clock_update ? mlx5dv_ts_to_ns(&cq->last_clock, raw) : raw;
}

static uint16_t ex_read_cvlan(struct ibv_cq_ex *ibcq)
{
	return be16toh(CUR_CQE(ibcq)->vlan_info);
}

static uint32_t ex_read_flow_tag(struct ibv_cq_ex *ibcq)
{
	return be32toh(CUR_CQE(ibcq)->sop_drop_qpn) & 0xffffff;
}

static void ex_read_tm_info(struct ibv_cq_ex *ibcq,
			    struct ibv_wc_tm_info *tm_info)
{
	const struct ibv_tmh *tmh = &CUR_CQE(ibcq)->tmh;

	tm_info->tag = be64toh(tmh->tag);
	tm_info->priv = be32toh(tmh->app_ctx);
}

void mlx5_cq_ex_set_ops(struct mlx5_cq *cq)
{
	struct ibv_cq_ex *ex = &cq->verbs_cq.cq_ex;

	ex->start_poll = ex_start_poll;
	ex->next_poll = ex_next_poll;
	ex->end_poll = ex_end_poll;
	ex->read_opcode = ex_read_opcode;
	ex->read_vendor_err = ex_read_vendor_err;
	ex->read_wc_flags = ex_read_wc_flags;
	if (cq->wc_flags & IBV_WC_EX_WITH_BYTE_LEN)
		ex->read_byte_len = ex_read_byte_len;
	if (cq->wc_flags & IBV_WC_EX_WITH_IMM)
		ex->read_imm_data = ex_read_imm_data;
	if (cq->wc_flags & IBV_WC_EX_WITH_QP_NUM)
		ex->read_qp_num = ex_read_qp_num;
	if (cq->wc_flags & IBV_WC_EX_WITH_SRC_QP)
		ex->read_src_qp = ex_read_src_qp;
	if (cq->wc_flags & IBV_WC_EX_WITH_SLID)
		ex->read_slid = ex_read_slid;
	if (cq->wc_flags & IBV_WC_EX_WITH_SL)
		ex->read_sl = ex_read_sl;
	if (cq->wc_flags & IBV_WC_EX_WITH_DLID_PATH_BITS)
		ex->read_dlid_path_bits = ex_read_dlid_path_bits;
	if (cq->wc_flags & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP)
		ex->read_completion_ts = ex_read_completion_ts;
	if (cq->wc_flags & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK)
		ex->read_completion_wallclock_ns =
			ex_read_completion_wallclock_ns;
	if (cq->wc_flags & IBV_WC_EX_WITH_CVLAN)
		ex->read_cvlan = ex_read_cvlan;
	if (cq->wc_flags & IBV_WC_EX_WITH_FLOW_TAG)
		ex->read_flow_tag = ex_read_flow_tag;
	if (cq->wc_flags & IBV_WC_EX_WITH_TM_INFO)
		ex->read_tm_info = ex_read_tm_info;
}

/* ---- removing a QP's CQEs (modify to RESET, destroy) ---- */

static struct mlx5_cqe64 *entry(struct mlx5_cq *cq, uint32_t n)
{
	return (struct mlx5_cqe64 *)((uint8_t *)cq->active->addr +
				     (size_t)(n & (cq->ncqe - 1)) * cq->cqe_sz +
				     cq->cqe_sz - 64);
}

static bool cqe_of(struct mlx5_cq *cq, struct mlx5_cqe64 *cqe, uint32_t rsn)
{
	uint32_t key = cq->cqe_version ? be32toh(cqe->srqn_uidx)
				       : be32toh(cqe->sop_drop_qpn);

	return (key & 0xffffff) == rsn;
}

/*
 * Compact the pending CQEs towards the producer end, dropping those of
 * @rsn (and freeing the SRQ WQEs they consumed), then advance the consumer
 * index past the freed slots. Owner bits stay those of the destination.
 */
void mlx5_cq_clean(struct mlx5_cq *cq, uint32_t rsn, struct mlx5_srq *srq)
{
	uint32_t prod, nfreed = 0, off;
	struct mlx5_cqe64 *cqe, *dst;
	uint8_t own, op;

	if (!cq || cq->dv_owned)
		return;
	off = cq->cqe_sz - 64;
	pthread_spin_lock(&cq->lock);
	for (prod = cq->cons_index; mlx5_sw_cqe(cq, prod); prod++)
		if (prod == cq->cons_index + cq->ncqe - 1)
			break;
	udma_from_device_barrier();
	while ((int32_t)(--prod - cq->cons_index) >= 0) {
		cqe = entry(cq, prod);
		if (cqe_of(cq, cqe, rsn)) {
			op = cqe->op_own >> 4;
			if (srq && op != MLX5_CQE_REQ && op != MLX5_CQE_REQ_ERR)
				mlx5_free_srq_wqe(srq,
						  be16toh(cqe->wqe_counter));
			nfreed++;
		} else if (nfreed) {
			dst = entry(cq, prod + nfreed);
			own = dst->op_own & MLX5_CQE_OWNER_MASK;
			memcpy((uint8_t *)dst - off, (uint8_t *)cqe - off,
			       cq->cqe_sz);
			mlx5dv_set_cqe_owner(dst, own);
		}
	}
	if (nfreed) {
		cq->cons_index += nfreed;
		update_ci(cq);
		cq->polled_ci = cq->cons_index;
	}
	pthread_spin_unlock(&cq->lock);
}
