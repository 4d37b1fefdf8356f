/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Memory windows on mlx5: the verbs (mw.c) and the UMR WQE (opcode 0x25)
 * that binds or invalidates a window, shared by ibv_post_send (post.c),
 * the ibv_wr_* builders (wr.c) and ibv_bind_mw.
 */
#ifndef MLX5_UMR_H
#define MLX5_UMR_H

#include "datapath.h"

/* What one UMR WQE does to the window named by its ctrl imm. */
struct mlx5_umr_req {
	enum ibv_mw_type type;
	uint32_t rkey;	   /* the window's key now (ctrl imm) */
	uint32_t new_rkey; /* its key byte goes into the mkey context */
	const struct ibv_mw_bind_info *info; /* NULL: LOCAL_INV */
};

/*
 * Write the UMR segments after @ctrl for @r; *ds gets the WQE size in
 * 16-byte units. 0, or EOPNOTSUPP for a window longer than one KLM
 * describes (2 GiB), as libmlx5.
 */
int mlx5_set_umr(struct mlx5_qp *qp, struct mlx5_wqe_ctrl_seg *ctrl,
		 const struct mlx5_umr_req *r, unsigned int *ds);

/* The completion opcode of the UMR WQE at SQ index @idx. */
enum ibv_wc_opcode mlx5_umr_wc_opcode(struct mlx5_qp *qp, unsigned int idx);

int mlx5_bind_mw(struct ibv_qp *qp, struct ibv_mw *mw,
		 struct ibv_mw_bind *mw_bind);
int mlx5_rereg_mr(struct verbs_mr *vmr, int flags, struct ibv_pd *pd,
		  void *addr, size_t length, int access);

#endif /* MLX5_UMR_H */
