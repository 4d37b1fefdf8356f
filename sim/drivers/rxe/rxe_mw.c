// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe's memory windows (rxe_mw.c): the requester executes a BIND_MW WQE
 * in SQ order. The window must exist and its rkey be the WQE's; a type 2
 * window must be free and get a range; it must be of the QP's PD (a type
 * 1 one too on 6.12). The MR under it
 * must be the WQE's lkey, of the same PD, allow MW_BIND and not be zero
 * based, have LOCAL_WRITE if the window grants remote write or atomics,
 * and cover the range (zero based: the length). The window then carries
 * the WQE's key byte, its rights and range (a type 2 one, the QP). A
 * bind with no length unbinds a type 1 window. Any failure completes
 * MW_BIND_ERR. LOCAL_INV and SEND_WITH_INV free a bound type 2 window;
 * user MRs cannot be invalidated (not fast-registration MRs).
 */
#include "rxe.h"

#define ACC_MW_BIND    (1u << 4)
#define ACC_ZERO_BASED (1u << 5)

static int bind_ok(const struct rxe_sim_qp *q, const struct sim_mw *mw,
		   const struct sim_mr *mr, uint64_t addr, uint64_t len,
		   uint32_t access)
{
	if (mw->type == 1 && (access & ACC_ZERO_BASED))
		return 0;
	if (mw->type == 2 && (mw->bound || !mr))
		return 0;
	/* C10-72: 6.1 checks it for type 2 windows only */
	if ((mw->type == 2 || !sim.sh->cfg.kernel_61) && mw->pd != q->qp->pd)
		return 0;
	if (!mr)
		return 1; /* type 1: an unbind */
	if (mr->pd != mw->pd || (mr->access & ACC_ZERO_BASED) ||
	    !(mr->access & ACC_MW_BIND))
		return 0;
	if ((access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(mr->access & IB_ACCESS_LOCAL_WRITE))
		return 0;
	if (access & ACC_ZERO_BASED)
		return len <= mr->length;
	return addr >= mr->iova && len <= mr->length &&
	       addr - mr->iova <= mr->length - len;
}

uint32_t rxe_bind_mw(struct rxe_sim_qp *q, const struct rxe_send_wqe *w)
{
	uint64_t addr = w->wr.wr.mw.addr, len = w->wr.wr.mw.length;
	struct sim_mw *mw = sim_mw_by_key(q->dev, w->wr.wr.mw.mw_rkey);
	uint32_t access = w->wr.wr.mw.access;
	struct sim_mr *mr = NULL;

	if (!mw || mw->rkey != w->wr.wr.mw.mw_rkey)
		return RXE_WC_MW_BIND_ERR;
	if (len) {
		mr = sim_mr_by_key(q->dev, w->wr.wr.mw.mr_lkey);
		if (!mr || mr->lkey != w->wr.wr.mw.mr_lkey)
			return RXE_WC_MW_BIND_ERR;
	}
	if (!bind_ok(q, mw, mr, addr, len, access))
		return RXE_WC_MW_BIND_ERR;
	mw->rkey = (mw->rkey & ~0xffu) | (w->wr.wr.mw.rkey & 0xff);
	mw->access = access;
	mw->length = len;
	mw->start = (access & ACC_ZERO_BASED) ? 0 : addr;
	mw->mr_lkey = mr ? mr->lkey : 0;
	mw->mr_addr = addr;
	mw->bound = mr != NULL;
	if (mw->type == 2)
		mw->qpn = q->qpn;
	return RXE_WC_SUCCESS;
}

int rxe_mw_invalidate(struct rxe_sim_qp *q, uint32_t key)
{
	struct sim_mw *mw = sim_mw_by_key(q->dev, key);

	if (!mw || mw->type != 2 || mw->rkey != key || !mw->bound ||
	    mw->pd != q->qp->pd)
		return -1;
	mw->bound = 0;
	mw->length = 0;
	return 0;
}

void *rxe_mw_mem(const struct rxe_sim_qp *q, struct sim_mw *mw, uint32_t key,
		 uint64_t va, uint64_t len, uint32_t need)
{
	if (mw->rkey != key || !mw->bound || mw->pd != q->qp->pd ||
	    (mw->type == 2 && mw->qpn != q->qpn) || (mw->access & need) != need)
		return NULL;
	if (va < mw->start || len > mw->length ||
	    va - mw->start > mw->length - len)
		return NULL;
	return rxe_lmem(q, mw->mr_lkey, mw->mr_addr + (va - mw->start), len);
}
