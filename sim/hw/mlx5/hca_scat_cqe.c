// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Scatter to CQE: a QP whose context asks for it (cs_res for the SENDs it
 * receives, cs_req for the READ and atomic answers it gets back) has a
 * message that fits put in its CQE instead of the WQE's buffers; the
 * CQE's op_own says where. A 64-byte CQE takes up to 32 bytes in its own
 * first half (MLX5_INLINE_SCATTER_32); a 128-byte one takes up to 64 in
 * the 64 bytes before the mlx5_cqe64 (MLX5_INLINE_SCATTER_64). The
 * library copies them to the WQE's scatter list when it polls.
 */
#include "hca.h"
#include "hca_cmd.h"

uint32_t hca_scat_max(uint8_t cs, const struct hca_cq *cq)
{
	uint32_t max;

	switch (cs) {
	case HCA_CS_RES_UP_TO_32B:
	case HCA_CS_REQ_UP_TO_32B:
		max = 32;
		break;
	case HCA_CS_RES_UP_TO_64B:
	case HCA_CS_REQ_UP_TO_64B:
		max = 64;
		break;
	default:
		return 0;
	}
	if (!cq)
		return 0;
	return cq->cqe_size == 128 ? max : 32;
}

void hca_scat_info(struct hca_cqe_info *ci, uint32_t cqe_size,
		   const uint8_t *data, uint32_t len)
{
	ci->scat =
		cqe_size == 128 ? HCA_INLINE_SCATTER_64 : HCA_INLINE_SCATTER_32;
	ci->scat_len = (uint8_t)len;
	ci->scat_data = data;
}
