// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The parts of WQE building that are not worth inlining.
 */
#include <string.h>

#include "wqe.h"

unsigned int mlx5_copy_inline(struct mlx5_qp *qp, void *dst,
			      const void *src, size_t len)
{
	size_t room = (size_t)(qp->sq_end - (uint8_t *)dst);

	if (len <= room) {
		memcpy(dst, src, len);
		return (unsigned int)len;
	}
	memcpy(dst, src, room);
	memcpy(qp->sq_start, (const uint8_t *)src + room, len - room);
	return (unsigned int)len;
}

void mlx5_qp_init_wqe_consts(struct mlx5_qp *qp)
{
	unsigned int f, bf_ds = qp->bf->buf_size / MLX5_DS;
	uint8_t fm;

	qp->qpn8 = htobe32(qp->qpn << 8);
	for (f = 0; f < 8; f++) {
		fm = qp->sq_signal_bits;
		if (f & IBV_SEND_FENCE)
			fm |= MLX5_WQE_CTRL_FENCE;
		if (f & IBV_SEND_SIGNALED)
			fm |= MLX5_WQE_CTRL_CQ_UPDATE;
		if (f & IBV_SEND_SOLICITED)
			fm |= MLX5_WQE_CTRL_SOLICITED;
		qp->fm_ce_se[f] = fm;
	}
	/* a register of 0 bytes never BlueFlames; see mlx5_ring_sq */
	if (bf_ds > 255)
		bf_ds = 255;
	qp->bf_max_ds[1] = (uint8_t)bf_ds;
	qp->bf_max_ds[0] = qp->prefer_bf ? (uint8_t)bf_ds : 0;
}
