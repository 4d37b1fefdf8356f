/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Hand-built mlx5 data-path objects for the unit tests: a QP whose rings
 * and "registers" are plain memory, a CQ whose CQEs the test writes as the
 * HCA would. No kernel, no context: only what post/poll read.
 */
#ifndef MLX5_DP_FIXTURE_H
#define MLX5_DP_FIXTURE_H

#include <stdint.h>

#include "datapath.h"

struct dp_fixture {
	struct mlx5_qp *qp;
	struct mlx5_cq *cq;
	struct mlx5_bf bf;
	uint8_t reg[1024]; /* the doorbell / BlueFlame register */
	__be32 qp_db[2];
	__be32 cq_db[2];
	struct mlx5_rsc_table rsc;
};

/* RC/UC/UD QP with @sq_bbs basic blocks and @rq_wqes 16-byte WQEs. */
void fx_init(struct dp_fixture *fx, enum ibv_qp_type type,
	     unsigned int sq_bbs, unsigned int rq_wqes, unsigned int bf_size);
void fx_cleanup(struct dp_fixture *fx);
/* Make the QP operational (INIT + RTS gates open). */
void fx_rts(struct dp_fixture *fx);
/* Give the CQ 128-byte CQEs (fx_cqe then writes their second half). */
void fx_cq_128(struct dp_fixture *fx);
/* Write a CQE at absolute index @n with the right owner bit. */
struct mlx5_cqe64 *fx_cqe(struct dp_fixture *fx, uint32_t n, uint8_t opcode,
			  uint16_t wqe_counter, uint32_t qpn);

#endif /* MLX5_DP_FIXTURE_H */
