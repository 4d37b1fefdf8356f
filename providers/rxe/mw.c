// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory windows on rxe: the kernel allocates them (ALLOC_MW, no driver
 * data) and binds them when its requester meets a BIND_MW WQE (opcode 8)
 * in the SQ ring: the range, the MR by its lkey, the window by its current
 * key and the new key, the rights. The kernel checks everything and
 * completes a refused bind with IBV_WC_MW_BIND_ERR.
 */
#include <errno.h>

#include "rxe.h"

/* An unbind may name no MR: lkey 0 then (upstream would crash). */
void rxe_wqe_bind(struct rxe_send_wqe *wqe, struct ibv_mw *mw, uint32_t rkey,
		  const struct ibv_mw_bind_info *info)
{
	wqe->wr.wr.mw.addr = info->addr;
	wqe->wr.wr.mw.length = info->length;
	wqe->wr.wr.mw.mr_lkey = info->mr ? info->mr->lkey : 0;
	wqe->wr.wr.mw.mw_rkey = mw->rkey;
	wqe->wr.wr.mw.rkey = rkey;
	wqe->wr.wr.mw.access = info->mw_access_flags;
}

/* Type 1: the next key byte, posted as IBV_WR_BIND_MW on @qp. */
int rxe_bind_mw(struct ibv_qp *qp, struct ibv_mw *mw,
		struct ibv_mw_bind *mw_bind)
{
	struct ibv_send_wr wr = {
		.wr_id = mw_bind->wr_id,
		.opcode = IBV_WR_BIND_MW,
		.send_flags = mw_bind->send_flags,
	};
	struct ibv_send_wr *bad;
	int err;

	if (mw_bind->bind_info.mw_access_flags & IBV_ACCESS_ZERO_BASED)
		return EINVAL;
	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = ibv_inc_rkey(mw->rkey);
	wr.bind_mw.bind_info = mw_bind->bind_info;
	err = rxe_post_send(qp, &wr, &bad);
	if (!err)
		mw->rkey = wr.bind_mw.rkey;
	return err;
}
