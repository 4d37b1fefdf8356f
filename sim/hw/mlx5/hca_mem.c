// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Every byte the HCA touches goes through a memory key: the MR must exist
 * in this process, belong to the QP's PD, allow the access, and cover the
 * range. Host MRs translate to process addresses, DM MRs and dma-buf MRs of
 * exported DM to the device's MEMIC, which the engine maps once per device
 * (MAP_SHARED, so every process and the HCA see the same bytes).
 */
#include "hca.h"

#include <sys/mman.h>

static uint8_t *memic_base;

/* The whole MEMIC file (every device), mapped once. */
static uint8_t *memic(void)
{
	size_t len = (size_t)sim.sh->cfg.ndev * sim.sh->cfg.dm_size;
	void *p;

	if (memic_base || !len)
		return memic_base;
	p = sys.mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
		      sim.memic_fd, 0);
	if (p != MAP_FAILED)
		memic_base = p;
	return memic_base;
}

/* Byte offset into the MEMIC file of MR byte 0, or -1. */
static int64_t memic_offset(const struct sim_mr *mr)
{
	const struct sim_alloc *a;
	unsigned int dev;
	int64_t off;

	if (mr->backing == SIM_MR_DM) {
		if (!mr->dm || mr->dm->alloc < 0)
			return -1;
		a = &sim.sh->allocs[mr->dm->alloc];
		return (int64_t)(sim_memic_pos(a->dev, a->first_page) +
				 mr->dm->start_offset + mr->offset);
	}
	off = mr->dmabuf ? sim_dmabuf_memic_offset(mr->dmabuf, &dev) : -1;
	if (off < 0)
		return -1; /* the exporter revoked the buffer */
	return (int64_t)sim_memic_pos(dev, 0) + off + (int64_t)mr->offset;
}

void *hca_mem(const struct hca_qp *qp, uint32_t key, uint64_t va, uint64_t len,
	      uint32_t need, int remote, uint8_t *synd)
{
	struct sim_mr *mr = sim_mr_by_key(qp->dev, key);
	uint8_t *base;
	int64_t off;

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
	if (mr->backing == SIM_MR_USER)
		return (void *)(uintptr_t)(mr->addr + (va - mr->iova));
	off = memic_offset(mr);
	base = off < 0 ? NULL : memic();
	if (!base)
		return NULL;
	return base + off + (va - mr->iova);
}
