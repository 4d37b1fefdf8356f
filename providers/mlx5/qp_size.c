// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * QP ring sizing, upstream's rules: a send WQE is big enough for the
 * largest operation the QP may post (its segments) plus the larger of the
 * gather list and the inline data, rounded to 64-byte basic blocks; the
 * rings are powers of two.
 */
#include <errno.h>
#include <string.h>

#include "datapath.h"

#define CTRL_SZ 16
#define RADDR_SZ 16
#define ATOMIC_SZ 16
#define DATAGRAM_SZ 48
#define XRC_SZ 16
#define ETH_SZ 32
#define DATA_SZ 16
/* ctrl + UMR ctrl (48) + mkey context (64) + max(KLM 16, 64) */
#define UMR_SZ (CTRL_SZ + 48 + 64 + 64)

static const uint64_t rdma_ops = IBV_QP_EX_WITH_RDMA_WRITE |
				 IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
				 IBV_QP_EX_WITH_RDMA_READ;
static const uint64_t atomic_ops = IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
				   IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD;
static const uint64_t umr_ops = IBV_QP_EX_WITH_BIND_MW |
				IBV_QP_EX_WITH_LOCAL_INV;

uint64_t mlx5_default_send_ops(enum ibv_qp_type type)
{
	switch (type) {
	case IBV_QPT_UD:
		return IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |
		       IBV_QP_EX_WITH_TSO;
	case IBV_QPT_RAW_PACKET:
		return IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_TSO;
	default:
		return IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_INV |
		       IBV_QP_EX_WITH_SEND_WITH_IMM | rdma_ops | atomic_ops |
		       umr_ops;
	}
}

unsigned int mlx5_sq_overhead(enum ibv_qp_type type, uint64_t ops)
{
	unsigned int size = CTRL_SZ;

	if (ops & rdma_ops)
		size = CTRL_SZ + RADDR_SZ;
	if (ops & atomic_ops)
		size = CTRL_SZ + RADDR_SZ + ATOMIC_SZ;
	if (ops & umr_ops)
		size = UMR_SZ;
	switch (type) {
	case IBV_QPT_UD:
		return size + DATAGRAM_SZ;
	case IBV_QPT_XRC_SEND:
		return size + XRC_SZ;
	case IBV_QPT_DRIVER: /* a DCI: the address vector of mlx5_wqe_av */
		return size + DATAGRAM_SZ;
	case IBV_QPT_RAW_PACKET:
		return size + ETH_SZ;
	default:
		return size;
	}
}

static uint64_t roundup_pow2_64(uint64_t n)
{
	return n <= 1 ? 1 : 1ull << (64 - __builtin_clzll(n - 1));
}

static int sq_size(const struct mlx5_qp_limits *lim, enum ibv_qp_type type,
		   uint64_t ops, const struct ibv_qp_cap *cap,
		   struct mlx5_qp_sizes *out)
{
	unsigned int overhead = mlx5_sq_overhead(type, ops);
	unsigned int inl = 0, size, wqe;
	uint64_t bytes;

	if (!cap->max_send_wr)
		return 0;
	if (overhead > lim->max_sq_desc_sz)
		return EINVAL;
	if (cap->max_inline_data)
		inl = overhead + (unsigned int)mlx5_align_up(
					 4 + cap->max_inline_data, 16);
	if (cap->max_send_sge > (lim->max_sq_desc_sz - overhead) / DATA_SZ)
		return EINVAL;
	size = overhead + cap->max_send_sge * DATA_SZ;
	wqe = (unsigned int)mlx5_align_up(size > inl ? size : inl,
					  MLX5_SEND_WQE_BB);
	if (wqe > lim->max_sq_desc_sz)
		return EINVAL;
	if (cap->max_send_wr > 0x7fffffff / lim->max_sq_desc_sz)
		return EINVAL;
	bytes = roundup_pow2_64((uint64_t)cap->max_send_wr * wqe);
	if (bytes / MLX5_SEND_WQE_BB > lim->max_send_wqebb)
		return EINVAL;
	out->sq_wqe_size = wqe;
	out->sq_bytes = bytes;
	out->sq_wqe_cnt = (unsigned int)(bytes / MLX5_SEND_WQE_BB);
	out->sq_max_post = (unsigned int)(bytes / wqe);
	out->sq_max_gs = (int)cap->max_send_sge;
	out->max_inline = (int)(wqe - overhead - 4);
	return 0;
}

static int rq_size(const struct mlx5_qp_limits *lim,
		   const struct ibv_qp_cap *cap, bool has_srq,
		   struct mlx5_qp_sizes *out)
{
	uint32_t sge = cap->max_recv_sge ? cap->max_recv_sge : 1;
	uint64_t wqe, bytes;

	if (has_srq || !cap->max_recv_wr)
		return 0;
	if (cap->max_recv_wr > lim->max_recv_wr)
		return EINVAL;
	wqe = roundup_pow2_64((uint64_t)DATA_SZ * sge);
	if (wqe > lim->max_rq_desc_sz)
		return EINVAL;
	bytes = roundup_pow2_64(cap->max_recv_wr) * wqe;
	if (bytes < MLX5_SEND_WQE_BB)
		bytes = MLX5_SEND_WQE_BB;
	out->rq_bytes = bytes;
	out->rq_wqe_cnt = (unsigned int)(bytes / wqe);
	out->rq_wqe_shift = (unsigned int)__builtin_ctzll(wqe);
	out->rq_max_gs = (int)(wqe / DATA_SZ);
	return 0;
}

int mlx5_calc_qp_sizes(const struct mlx5_qp_limits *lim,
		       enum ibv_qp_type type, uint64_t ops,
		       const struct ibv_qp_cap *cap, bool has_srq,
		       struct mlx5_qp_sizes *out)
{
	int err;

	memset(out, 0, sizeof(*out));
	err = sq_size(lim, type, ops, cap, out);
	if (!err)
		/* the kernel gives an XRC_SEND (INI) QP no RQ whatever
		 * max_recv_wr says, so its SQ starts the buffer */
		err = rq_size(lim, cap, has_srq || type == IBV_QPT_XRC_SEND,
			      out);
	return err;
}
