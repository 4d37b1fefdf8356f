/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Building send WQEs into the SQ ring and ringing the doorbell: shared by
 * ibv_post_send (post.c) and the ibv_wr_* builders (wr.c). Inline, as this
 * is the per-WR fast path.
 */
#ifndef MLX5_WQE_H
#define MLX5_WQE_H

#include "datapath.h"
#include "doorbell.h"

#define MLX5_DS 16 /* WQE size unit */

static inline void *mlx5_sq_wqe(struct mlx5_qp *qp, unsigned int idx)
{
	return qp->sq_start + ((size_t)idx << MLX5_SEND_WQE_SHIFT);
}

/* The next segment position, wrapping from the end of the ring. */
static inline void *mlx5_sq_wrap(struct mlx5_qp *qp, void *seg)
{
	return (uint8_t *)seg == qp->sq_end ? (void *)qp->sq_start : seg;
}

static inline bool mlx5_sq_full(struct mlx5_qp *qp, unsigned int nreq)
{
	return qp->sq.head - *(volatile unsigned int *)&qp->sq.tail + nreq >=
	       qp->sq.max_post;
}

static inline void mlx5_set_raddr(struct mlx5_wqe_raddr_seg *seg,
				  uint64_t raddr, uint32_t rkey)
{
	seg->raddr = htobe64(raddr);
	seg->rkey = htobe32(rkey);
	seg->reserved = 0;
}

static inline void mlx5_set_atomic(struct mlx5_wqe_atomic_seg *seg,
				   uint64_t swap_add, uint64_t compare)
{
	seg->swap_add = htobe64(swap_add);
	seg->compare = htobe64(compare);
}

static inline void mlx5_set_data(struct mlx5_wqe_data_seg *seg,
				 uint32_t len, uint32_t lkey, uint64_t addr)
{
	seg->byte_count = htobe32(len);
	seg->lkey = htobe32(lkey);
	seg->addr = htobe64(addr);
}

static inline void mlx5_set_ud(struct mlx5_wqe_datagram_seg *seg,
			       struct ibv_ah *ah, uint32_t remote_qpn,
			       uint32_t remote_qkey)
{
	memcpy(&seg->av, &to_mah(ah)->av, sizeof(seg->av));
	seg->av.key.qkey.qkey = htobe32(remote_qkey);
	seg->av.dqp_dct = htobe32(remote_qpn | MLX5_EXTENDED_UD_AV);
}

/* XRC_SEND: the XRC segment after ctrl names the target SRQ (16 bytes:
 * the number, then 12 reserved). Returns the place after it. */
static inline void *mlx5_set_xrc(void *seg, uint32_t remote_srqn)
{
	__be32 *x = seg;

	x[0] = htobe32(remote_srqn);
	x[1] = x[2] = x[3] = 0;
	return x + 4;
}

/* The ctrl segment's fence / completion / solicited byte for @flags. */
static inline uint8_t mlx5_fm_ce_se(const struct mlx5_qp *qp,
				    unsigned int flags)
{
	return qp->fm_ce_se[flags & (IBV_SEND_FENCE | IBV_SEND_SIGNALED |
				     IBV_SEND_SOLICITED)];
}

/* mlx5_fm_ce_se plus the fence owed to a UMR posted just before: the small
 * initiator fence, unless the WR asks a full fence (the two ORed make an
 * undefined fence mode). Records whether @opcode owes the next WR one. */
static inline uint8_t mlx5_fm_ce_se_umr(struct mlx5_qp *qp,
					unsigned int flags, uint8_t opcode)
{
	uint8_t fm = mlx5_fm_ce_se(qp, flags);

	if (!(flags & IBV_SEND_FENCE))
		fm |= qp->umr_fence;
	qp->umr_fence = opcode == MLX5_OPCODE_UMR
				? MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE
				: 0;
	return fm;
}

/* Opcode, index, size and flags: two 8-byte stores (signature 0). */
static inline void mlx5_set_ctrl(struct mlx5_wqe_ctrl_seg *ctrl,
				 unsigned int cur_post, uint8_t opcode,
				 __be32 qpn8, unsigned int ds, uint8_t fm,
				 __be32 imm)
{
	uint64_t w0 = (uint64_t)htobe32((cur_post & 0xffff) << 8 | opcode) |
		      (uint64_t)(qpn8 | htobe32(ds)) << 32;
	uint64_t w1 = (uint64_t)fm << 24 | (uint64_t)imm << 32;

	memcpy(ctrl, &w0, sizeof(w0));
	memcpy((uint8_t *)ctrl + 8, &w1, sizeof(w1));
}

/* Copy inline data across the ring end; returns the bytes written. */
unsigned int mlx5_copy_inline(struct mlx5_qp *qp, void *dst,
			      const void *src, size_t len);

/*
 * Ring the SQ after @nreq WQEs, the last one at @ctrl of @ds units: the
 * doorbell record first, then either the whole WQE through BlueFlame (a
 * single WQE, small enough, inline or BF preferred) or its first 8 bytes
 * as the doorbell.
 */
static inline void mlx5_ring_sq(struct mlx5_qp *qp,
				struct mlx5_wqe_ctrl_seg *ctrl,
				unsigned int ds, unsigned int nreq, bool inl)
{
	struct mlx5_bf *bf = qp->bf;
	unsigned int off = bf->offset;
	uint64_t first8;

	qp->sq.head += nreq;
	udma_to_device_barrier();
	mlx5_set_dbrec(&qp->db[MLX5_SND_DBR], qp->sq.cur_post & 0xffff);
	if (bf->need_lock)
		pthread_spin_lock(&bf->lock);
	mmio_wc_start();
	if (nreq == 1 && ds > 1 && ds <= qp->bf_max_ds[inl])
		mlx5_bf_copy(bf->reg + off, (const uint8_t *)ctrl,
			     (unsigned int)mlx5_align_up(ds * MLX5_DS, 64),
			     qp->sq_start, qp->sq_end);
	else {
		memcpy(&first8, ctrl, sizeof(first8));
		mmio_write64_be(bf->reg + off, first8);
	}
	mmio_flush_writes();
	bf->offset = off ^ bf->buf_size;
	if (bf->need_lock)
		pthread_spin_unlock(&bf->lock);
}

#endif /* MLX5_WQE_H */
