// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibv_post_send and ibv_post_recv: WQEs written straight into the rings,
 * one doorbell per call. Errors stop at the failing WR (*bad_wr); the WRs
 * before it are posted.
 */
#include <errno.h>
#include <string.h>

#include "umr.h"
#include "wqe.h"

static const uint8_t mlx5_opcode[] = {
	[IBV_WR_RDMA_WRITE] = MLX5_OPCODE_RDMA_WRITE,
	[IBV_WR_RDMA_WRITE_WITH_IMM] = MLX5_OPCODE_RDMA_WRITE_IMM,
	[IBV_WR_SEND] = MLX5_OPCODE_SEND,
	[IBV_WR_SEND_WITH_IMM] = MLX5_OPCODE_SEND_IMM,
	[IBV_WR_RDMA_READ] = MLX5_OPCODE_RDMA_READ,
	[IBV_WR_ATOMIC_CMP_AND_SWP] = MLX5_OPCODE_ATOMIC_CS,
	[IBV_WR_ATOMIC_FETCH_AND_ADD] = MLX5_OPCODE_ATOMIC_FA,
	[IBV_WR_SEND_WITH_INV] = MLX5_OPCODE_SEND_INVAL,
	[IBV_WR_BIND_MW] = MLX5_OPCODE_UMR,
	[IBV_WR_LOCAL_INV] = MLX5_OPCODE_UMR,
};

/* Inline payload after the segments at @seg; 0 or ENOMEM. */
static int post_inline(struct mlx5_qp *qp, const struct ibv_send_wr *wr,
		       void *seg, unsigned int *ds)
{
	struct mlx5_wqe_inl_data_seg *inl = seg;
	uint8_t *dst = (uint8_t *)(inl + 1);
	size_t total = 0;
	int i;

	for (i = 0; i < wr->num_sge; i++)
		total += wr->sg_list[i].length;
	if (total > (size_t)qp->max_inline_data)
		return ENOMEM;
	if (!total)
		return 0;
	for (i = 0; i < wr->num_sge; i++) {
		dst += mlx5_copy_inline(qp, dst,
					(void *)(uintptr_t)wr->sg_list[i].addr,
					wr->sg_list[i].length);
		if (dst >= qp->sq_end)
			dst = qp->sq_start + (dst - qp->sq_end);
	}
	inl->byte_count = htobe32((uint32_t)total | MLX5_INLINE_SEG);
	*ds += (unsigned int)mlx5_align_up(total + 4, MLX5_DS) / MLX5_DS;
	return 0;
}

static void post_sges(struct mlx5_qp *qp, const struct ibv_send_wr *wr,
		      struct mlx5_wqe_data_seg *seg, unsigned int *ds,
		      bool atomic)
{
	int i;

	for (i = 0; i < wr->num_sge; i++) {
		if (!wr->sg_list[i].length)
			continue;
		seg = mlx5_sq_wrap(qp, seg);
		/* An atomic's local buffer always takes the 8-byte result. */
		mlx5_set_data(seg, atomic ? 8 : wr->sg_list[i].length,
			      wr->sg_list[i].lkey, wr->sg_list[i].addr);
		seg++;
		(*ds)++;
	}
}

/* The transport segments; the position of the data, or NULL (EINVAL). */
static void *post_segments(struct mlx5_qp *qp, const struct ibv_send_wr *wr,
			   void *seg, unsigned int *ds, int *err)
{
	bool rc = qp->qp_type == IBV_QPT_RC || qp->qp_type == IBV_QPT_XRC_SEND;

	if (qp->qp_type == IBV_QPT_XRC_SEND) {
		/* ctrl + XRC: 32 bytes, never at the ring's end */
		seg = mlx5_set_xrc(seg, wr->qp_type.xrc.remote_srqn);
		(*ds)++;
	}
	switch (wr->opcode) {
	case IBV_WR_SEND:
	case IBV_WR_SEND_WITH_IMM:
		if (qp->qp_type != IBV_QPT_UD)
			return seg;
		mlx5_set_ud(seg, wr->wr.ud.ah, wr->wr.ud.remote_qpn,
			    wr->wr.ud.remote_qkey);
		*ds += sizeof(struct mlx5_wqe_datagram_seg) / MLX5_DS;
		return mlx5_sq_wrap(qp, (uint8_t *)seg +
					sizeof(struct mlx5_wqe_datagram_seg));
	case IBV_WR_SEND_WITH_INV:
		if (qp->qp_type == IBV_QPT_UD)
			break;
		return seg;
	case IBV_WR_RDMA_READ:
		if (!rc)
			break;
		/* fallthrough */
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		if (qp->qp_type == IBV_QPT_UD)
			break;
		mlx5_set_raddr(seg, wr->wr.rdma.remote_addr, wr->wr.rdma.rkey);
		(*ds)++;
		return (uint8_t *)seg + sizeof(struct mlx5_wqe_raddr_seg);
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		if (!rc)
			break;
		if (!qp->atomics) {
			*err = EOPNOTSUPP;
			return NULL;
		}
		mlx5_set_raddr(seg, wr->wr.atomic.remote_addr,
			       wr->wr.atomic.rkey);
		seg = (uint8_t *)seg + sizeof(struct mlx5_wqe_raddr_seg);
		if (wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP)
			mlx5_set_atomic(seg, wr->wr.atomic.swap,
					wr->wr.atomic.compare_add);
		else
			mlx5_set_atomic(seg, wr->wr.atomic.compare_add, 0);
		*ds += 2;
		return (uint8_t *)seg + sizeof(struct mlx5_wqe_atomic_seg);
	default:
		break;
	}
	*err = EINVAL;
	return NULL;
}

static __be32 send_imm(const struct ibv_send_wr *wr)
{
	switch (wr->opcode) {
	case IBV_WR_SEND_WITH_IMM:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		return wr->imm_data;
	case IBV_WR_SEND_WITH_INV:
	case IBV_WR_LOCAL_INV:
		return htobe32(wr->invalidate_rkey);
	case IBV_WR_BIND_MW: /* names the window by its current key */
		return htobe32(wr->bind_mw.mw->rkey);
	default:
		return 0;
	}
}

/* BIND_MW / LOCAL_INV (RC, UC, XRC_SEND): a UMR WQE right after ctrl, no
 * XRC segment, no data; 0 or errno. */
static int post_umr(struct mlx5_qp *qp, const struct ibv_send_wr *wr,
		    struct mlx5_wqe_ctrl_seg *ctrl, unsigned int *ds)
{
	struct mlx5_umr_req r = { .type = IBV_MW_TYPE_2 };

	if (qp->qp_type != IBV_QPT_RC && qp->qp_type != IBV_QPT_UC &&
	    qp->qp_type != IBV_QPT_XRC_SEND)
		return EINVAL;
	if (wr->opcode == IBV_WR_LOCAL_INV) {
		r.rkey = wr->invalidate_rkey;
	} else {
		r.type = wr->bind_mw.mw->type;
		r.rkey = wr->bind_mw.mw->rkey;
		r.new_rkey = wr->bind_mw.rkey;
		r.info = &wr->bind_mw.bind_info;
	}
	return mlx5_set_umr(qp, ctrl, &r, ds);
}

/* One WR at cur_post; 0 or errno (nothing advanced on error). */
static int post_one(struct mlx5_qp *qp, const struct ibv_send_wr *wr,
		    unsigned int nreq, struct mlx5_wqe_ctrl_seg **ctrlp,
		    unsigned int *dsp, bool *inl)
{
	unsigned int idx = qp->sq.cur_post & (qp->sq.wqe_cnt - 1), ds = 1;
	struct mlx5_wqe_ctrl_seg *ctrl = mlx5_sq_wqe(qp, idx);
	bool atomic;
	void *seg;
	int err = 0;

	if ((unsigned int)wr->opcode >= sizeof(mlx5_opcode) ||
	    !mlx5_opcode[wr->opcode])
		return EINVAL;
	if (mlx5_sq_full(qp, nreq) || wr->num_sge > qp->sq.qp_state_max_gs)
		return ENOMEM;
	if (mlx5_opcode[wr->opcode] == MLX5_OPCODE_UMR) {
		err = post_umr(qp, wr, ctrl, &ds);
		if (err)
			return err;
		goto ctrl;
	}
	seg = post_segments(qp, wr, ctrl + 1, &ds, &err);
	if (!seg)
		return err;
	atomic = wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP ||
		 wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD;
	if ((wr->send_flags & IBV_SEND_INLINE) && !atomic &&
	    wr->opcode != IBV_WR_RDMA_READ) {
		err = post_inline(qp, wr, seg, &ds);
		if (err)
			return err;
		*inl = true;
	} else {
		post_sges(qp, wr, seg, &ds, atomic);
	}
ctrl:
	mlx5_set_ctrl(ctrl, qp->sq.cur_post, mlx5_opcode[wr->opcode],
		      qp->qpn8, ds,
		      mlx5_fm_ce_se_umr(qp, wr->send_flags,
					mlx5_opcode[wr->opcode]),
		      send_imm(wr));
	qp->sq.wrid[idx] = wr->wr_id;
	if (qp->sq.raw_wqe)
		qp->sq.raw_wqe[idx] = 0;
	qp->sq.wqe_head[idx] = qp->sq.head + nreq;
	qp->sq.cur_post += (ds * MLX5_DS + MLX5_SEND_WQE_BB - 1) /
			   MLX5_SEND_WQE_BB;
	*ctrlp = ctrl;
	*dsp = ds;
	return 0;
}

int mlx5_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
		   struct ibv_send_wr **bad_wr)
{
	struct mlx5_qp *qp = to_mqp(ibqp);
	struct mlx5_wqe_ctrl_seg *ctrl = NULL;
	unsigned int nreq = 0, ds = 0;
	bool inl = false;
	int err = 0;

	if (!qp->single_threaded)
		pthread_spin_lock(&qp->sq.lock);
	for (; wr; wr = wr->next, nreq++) {
		err = post_one(qp, wr, nreq, &ctrl, &ds, &inl);
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	if (nreq)
		mlx5_ring_sq(qp, ctrl, ds, nreq, inl);
	if (!qp->single_threaded)
		pthread_spin_unlock(&qp->sq.lock);
	return err;
}

int mlx5_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
		   struct ibv_recv_wr **bad_wr)
{
	struct mlx5_qp *qp = to_mqp(ibqp);
	struct mlx5_wqe_data_seg *seg;
	unsigned int nreq = 0, idx;
	int err = 0, i, j;

	if (!qp->single_threaded)
		pthread_spin_lock(&qp->rq.lock);
	for (; wr; wr = wr->next, nreq++) {
		if (qp->rq.head - qp->rq.tail + nreq >= qp->rq.max_post) {
			err = ENOMEM;
			break;
		}
		if (wr->num_sge > qp->rq.qp_state_max_gs) {
			err = EINVAL;
			break;
		}
		idx = (qp->rq.head + nreq) & (qp->rq.wqe_cnt - 1);
		seg = (struct mlx5_wqe_data_seg *)((uint8_t *)qp->buf.addr +
						   qp->rq.offset +
						   ((size_t)idx
						    << qp->rq.wqe_shift));
		for (i = 0, j = 0; i < wr->num_sge; i++) {
			if (!wr->sg_list[i].length)
				continue;
			mlx5_set_data(seg + j++, wr->sg_list[i].length,
				      wr->sg_list[i].lkey,
				      wr->sg_list[i].addr);
		}
		if (j < qp->rq.max_gs)
			mlx5_set_data(seg + j, 0, MLX5_INVALID_LKEY, 0);
		qp->rq.wrid[idx] = wr->wr_id;
	}
	if (err)
		*bad_wr = wr;
	if (nreq) {
		qp->rq.head += nreq;
		udma_to_device_barrier();
		mlx5_set_dbrec(&qp->db[MLX5_RCV_DBR], qp->rq.head & 0xffff);
	}
	if (!qp->single_threaded)
		pthread_spin_unlock(&qp->rq.lock);
	return err;
}
