/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A tag-matching SRQ's state in libmlx5, shared by its control path
 * (tm.c: the list and the command QP) and its data path (tm_post.c:
 * list operations and TM CQEs).
 */
#ifndef MLX5_TM_H
#define MLX5_TM_H

#include "datapath.h"

#define TM_NONE		 UINT32_MAX
#define TM_MAX_SYNC_DIFF 0x3fff
#define TM_WQE_NOP	 0
#define TM_WQE_APPEND	 1
#define TM_WQE_REMOVE	 2
#define TM_FLAG_SW_CNT	 0x40
#define TM_FLAG_CQE_REQ	 0x80

enum {
	TM_APP_CONSUMED = 1,
	TM_APP_EXPECTED = 2,
	TM_APP_UNEXPECTED = 3,
	TM_APP_NO_TAG = 4,
	TM_APP_APPEND = 5,
	TM_APP_REMOVE = 6,
	TM_APP_NOOP = 7,
	TM_APP_CONSUMED_SW_RNDV = 9,
	TM_APP_CONSUMED_MSG = 0xa,
	TM_APP_CONSUMED_MSG_SW_RNDV = 0xb,
	TM_APP_MSG_COMPLETION_CANCELED = 0xc,
};

struct mlx5_tm_tag {
	uint64_t wr_id;
	uint32_t next;	 /* free list */
	uint32_t expect; /* CQEs that still name it */
	uint16_t phase;	 /* our unexpected count when it was added */
};

struct mlx5_tm_op {
	uint64_t wr_id;
	uint32_t tag; /* TM_NONE for a sync */
	unsigned int wqe_head;
};

struct mlx5_tm {
	struct ibv_qp *cmd_qp;
	struct mlx5_tm_tag *tags;
	uint32_t ntags;
	uint32_t head, tail;
	struct mlx5_tm_op *ops; /* one per command QP WQE */
	uint32_t op_head, op_tail;
	uint16_t unexp_in, unexp_out;
};

#endif /* MLX5_TM_H */
