// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Every byte the HCA touches goes through a memory key of its own table
 * (hca_cmd_mkey.c): the key must exist in this process, belong to the
 * QP's PD, allow the access, and cover the range. Host MRs translate to
 * process addresses (faulted in first when on-demand), DM MRs to the
 * device's MEMIC (mapped once, MAP_SHARED, so every process and the HCA
 * see the same bytes) and dma-buf MRs to whatever the driver says backs
 * them at this access (nothing once the exporter revoked the buffer).
 */
#include "hca.h"

void *hca_mem(const struct hca_qp *qp, uint32_t key, uint64_t va, uint64_t len,
	      uint32_t need, int remote, uint8_t *synd)
{
	struct hca_mkey *mk = hca_mkey_find(qp->dev, key);
	uint64_t addr;
	uint8_t *base;

	if (key == HCA_NULL_MKEY)
		return hca_null_mem(len, need, remote, synd);
	/* a window's index is no MR's: only remote access may use it */
	if (mk && mk->mw && remote)
		return hca_mw_mem(qp, mk, key, va, len, need, synd);
	*synd = remote ? HCA_SYND_REM_ACCESS : HCA_SYND_LOC_PROT;
	if (!mk || mk->mw || mk->key != key)
		return NULL;
	if (mk->pdn != qp->pdn)
		return NULL;
	if ((mk->access & need) != need)
		return NULL;
	if (va < mk->start || len > mk->length ||
	    va - mk->start > mk->length - len)
		return NULL;
	if (mk->none)
		return NULL;
	addr = mk->fault ? hca_mkey_fault(mk) : mk->addr;
	if (mk->fault && !addr)
		return NULL; /* no bytes: the exporter revoked them */
	base = (uint8_t *)(uintptr_t)(addr + (va - mk->start));
	if (mk->odp &&
	    hca_mkey_odp_fault(mk, (uintptr_t)base, len,
			       !!(need & (IB_ACCESS_LOCAL_WRITE |
					  IB_ACCESS_REMOTE_WRITE |
					  IB_ACCESS_REMOTE_ATOMIC))))
		return NULL; /* the page fault could not be resolved */
	return base;
}
