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

const struct sim_driver_ops sim_rxe_ops = {
	.alloc_ucontext = rxe_alloc_ucontext,
	.mmap = rxe_mmap,
};
