// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Soft-RoCE (rxe) model for the real-kernel conformance lane: no udata in
 * its ucontext, no device memory (DM_ALLOC -> EOPNOTSUPP), no DMABUF
 * object (EPROTONOSUPPORT), nothing to mmap at context level.
 */
#include "uapi.h"

#include <errno.h>
#include <sys/mman.h>

static int rxe_alloc_ucontext(struct sim_uvfile *uv, const void *in,
			      size_t in_len, void *out, size_t out_len)
{
	uv->ctx_resp_len = 0;
	return 0;
}

static void *rxe_mmap(struct sim_uvfile *uv, void *addr, size_t len, int prot,
		      int flags, uint64_t pgoff)
{
	errno = EINVAL;
	return MAP_FAILED;
}

/* rxe_param.h */
static const struct sim_verbs_rules rxe_rules = {
	.max_qp = 0x10000,
	.max_qp_wr = 1 << 20,
	.max_sge = 32,
	.max_sge_rd = 32,
	.max_cq = 0x4000,
	.max_cqe = (1 << 15) - 1,
	.max_srq = 0x4000,
	.max_srq_wr = 1 << 20,
	.max_srq_sge = 27,
	.max_qp_rd_atom = 128,
	.max_qp_init_rd_atom = 128,
	.max_ah = 0x7fff,
	.qpn_base = 17,
	.chk_timeout = 1,
};

const struct sim_driver_ops sim_rxe_ops = {
	.rules = &rxe_rules,
	.alloc_ucontext = rxe_alloc_ucontext,
	.mmap = rxe_mmap,
};
