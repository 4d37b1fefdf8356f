// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* DMA handles: TPH processing hints (and steering tags) for MRs. */
#include <errno.h>
#include <stdlib.h>

#include "mlx5.h"

#define DMAH_MASK                                                              \
	(IBV_DMAH_INIT_ATTR_MASK_CPU_ID | IBV_DMAH_INIT_ATTR_MASK_PH |         \
	 IBV_DMAH_INIT_ATTR_MASK_TPH_MEM_TYPE)
#define DMAH_ST_PAIR                                                           \
	(IBV_DMAH_INIT_ATTR_MASK_CPU_ID | IBV_DMAH_INIT_ATTR_MASK_TPH_MEM_TYPE)

struct ibv_dmah *mlx5_alloc_dmah(struct ibv_context *ibctx,
				 struct ibv_dmah_init_attr *attr)
{
	uint32_t st = attr->comp_mask & DMAH_ST_PAIR;
	struct verbs_dmah *dmah;
	int err;

	if (attr->comp_mask & ~(uint32_t)DMAH_MASK) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	/* A hint is required; a steering tag needs both CPU and memory. */
	if (!(attr->comp_mask & IBV_DMAH_INIT_ATTR_MASK_PH) ||
	    (st && st != DMAH_ST_PAIR)) {
		errno = EINVAL;
		return NULL;
	}
	dmah = calloc(1, sizeof(*dmah));
	if (!dmah) {
		errno = ENOMEM;
		return NULL;
	}
	err = ibv_cmd_alloc_dmah(ibctx, dmah, attr);
	if (err) {
		free(dmah);
		errno = err;
		return NULL;
	}
	return &dmah->dmah;
}

int mlx5_dealloc_dmah(struct ibv_dmah *dmah)
{
	int err = ibv_cmd_free_dmah(verbs_get_dmah(dmah));

	if (!err)
		free(dmah);
	return err;
}
