// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Every byte the HCA touches goes through a memory key: the MR must exist
 * in this process, belong to the QP's PD, allow the access, and cover the
 * range. Host MRs translate to process addresses, DM MRs to the device's
 * MEMIC (mapped once, MAP_SHARED, so every process and the HCA see the same
 * bytes), dma-buf MRs to whatever backs the buffer (dmabuf.c).
 */
#include "hca.h"

/* Byte offset into the MEMIC file of DM MR byte 0, or -1. */
static int64_t dm_offset(const struct sim_mr *mr)
{
	const struct sim_alloc *a;

	if (!mr->dm || mr->dm->alloc < 0)
		return -1;
	a = &sim.sh->allocs[mr->dm->alloc];
	return (int64_t)(sim_memic_pos(a->dev, a->first_page) +
			 mr->dm->start_offset + mr->offset);
}

void *hca_mem(const struct hca_qp *qp, uint32_t key, uint64_t va, uint64_t len,
	      uint32_t need, int remote, uint8_t *synd)
{
	struct sim_mr *mr = sim_mr_by_key(qp->dev, key);
	struct sim_mw *mw;
	uint8_t *base;
	int64_t off;

	/* no MR has a window's index: look for one only when no MR matched */
	if (!mr && remote && (mw = sim_mw_by_key(qp->dev, key)))
		return hca_mw_mem(qp, mw, key, va, len, need, synd);
	*synd = remote ? HCA_SYND_REM_ACCESS : HCA_SYND_LOC_PROT;
	if (!mr || (remote ? mr->rkey : mr->lkey) != key)
		return NULL;
	if (mr->pd != qp->pd)
		return NULL;
	if ((mr->access & need) != need)
		return NULL;
	if (va < mr->iova || len > mr->length ||
	    va - mr->iova > mr->length - len)
		return NULL;
	if (mr->backing == SIM_MR_USER) {
		base = (uint8_t *)(uintptr_t)(mr->addr + (va - mr->iova));
		if ((mr->access & IB_UVERBS_ACCESS_ON_DEMAND) &&
		    hca_odp_fault((uintptr_t)base, len,
				  !!(need & (IB_ACCESS_LOCAL_WRITE |
					     IB_ACCESS_REMOTE_WRITE |
					     IB_ACCESS_REMOTE_ATOMIC)),
				  0))
			return NULL; /* the page fault could not be resolved */
		return base;
	}
	if (mr->backing == SIM_MR_DMABUF) {
		/* NULL once the exporter revoked the buffer */
		base = sim_dmabuf_bytes(mr->dmabuf);
		return base ? base + mr->offset + (va - mr->iova) : NULL;
	}
	off = dm_offset(mr);
	base = off < 0 ? NULL : sim_memic_base();
	if (!base)
		return NULL;
	return base + off + (va - mr->iova);
}
