// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory windows and MR re-registration on mlx5. A window is an mkey the
 * kernel creates free (ALLOC_MW, no driver data); binding and invalidating
 * are UMR WQEs posted on a QP (umr.c). The HCA checks the MR's MW_BIND and
 * LOCAL_WRITE rights and the range, not the library (as libmlx5).
 */
#include <errno.h>

#include "umr.h"

/* Type 1: the next key byte, posted as IBV_WR_BIND_MW on @qp. */
int mlx5_bind_mw(struct ibv_qp *qp, struct ibv_mw *mw,
		 struct ibv_mw_bind *mw_bind)
{
	struct ibv_mw_bind_info *bi = &mw_bind->bind_info;
	struct ibv_send_wr wr = {
		.wr_id = mw_bind->wr_id,
		.opcode = IBV_WR_BIND_MW,
		.send_flags = mw_bind->send_flags,
	};
	struct ibv_send_wr *bad;
	struct verbs_mr *vmr;
	int err;

	if (bi->mw_access_flags & IBV_ACCESS_ZERO_BASED)
		return EINVAL;
	if (bi->mr) {
		vmr = verbs_get_mr(bi->mr);
		if (vmr->mr_type != IBV_MR_TYPE_MR)
			return EOPNOTSUPP;
		if (vmr->access & IBV_ACCESS_ZERO_BASED)
			return EINVAL;
	}
	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = ibv_inc_rkey(mw->rkey);
	wr.bind_mw.bind_info = *bi;
	err = mlx5_post_send(qp, &wr, &bad);
	if (err)
		return err;
	mw->rkey = wr.bind_mw.rkey;
	return 0;
}

/* REREG_MR as upstream: the kernel decides in place or new keys. */
int mlx5_rereg_mr(struct verbs_mr *vmr, int flags, struct ibv_pd *pd,
		  void *addr, size_t length, int access)
{
	return ibv_cmd_rereg_mr(vmr, (uint32_t)flags, addr, length,
				(uintptr_t)addr, access, pd, NULL);
}
