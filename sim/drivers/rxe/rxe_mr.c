// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe's memory checks (rxe_mr.c's lookup_mr, mr_check_range, copy_data):
 * a key names an MR of the QP's PD whose lkey or rkey it is, that allows
 * the access and covers the range; the bytes are the process's own (rxe
 * registers user memory only). A bad key or a missing right is -EINVAL,
 * a range outside the MR -EFAULT, as copy_data tells them apart.
 */
#include "rxe.h"

#include <errno.h>
#include <sys/uio.h>

static void *mr_bytes(const struct rxe_sim_qp *q, uint32_t key, int remote,
		      uint64_t va, uint64_t len, uint32_t need, int *err)
{
	struct sim_mr *mr = sim_mr_by_key(q->dev, key);

	*err = -EINVAL;
	if (!mr || (remote ? mr->rkey : mr->lkey) != key ||
	    mr->pd != q->qp->pd || (mr->access & need) != need ||
	    mr->backing != SIM_MR_USER)
		return NULL;
	*err = -EFAULT;
	if (va < mr->iova || len > mr->length ||
	    va - mr->iova > mr->length - len)
		return NULL;
	*err = 0;
	return (void *)(uintptr_t)(mr->addr + (va - mr->iova));
}

void *rxe_rmem(const struct rxe_sim_qp *q, uint32_t rkey, uint64_t va,
	       uint64_t len, uint32_t need)
{
	struct sim_mw *mw;
	int err;

	/* no MR has a window's index: a window only when no MR matched */
	if (!sim_mr_by_key(q->dev, rkey) && (mw = sim_mw_by_key(q->dev, rkey)))
		return rxe_mw_mem(q, mw, rkey, va, len, need);
	return mr_bytes(q, rkey, 1, va, len, need, &err);
}

void *rxe_lmem(const struct rxe_sim_qp *q, uint32_t lkey, uint64_t va,
	       uint64_t len)
{
	int err;

	return mr_bytes(q, lkey, 0, va, len, 0, &err);
}

int rxe_sg_iov(const struct rxe_sim_qp *q, const struct rxe_sge *sge,
	       uint32_t n, uint32_t off, uint32_t len, uint32_t need,
	       struct iovec *iov, uint32_t *status)
{
	uint32_t i, take;
	int cnt = 0, err;
	void *p;

	for (i = 0; i < n && len; i++) {
		if (off >= sge[i].length) {
			off -= sge[i].length;
			continue;
		}
		take = sge[i].length - off < len ? sge[i].length - off : len;
		p = mr_bytes(q, sge[i].lkey, 0, sge[i].addr + off, take, need,
			     &err);
		if (!p || cnt > RXE_MAX_SGE) {
			*status = err == -EFAULT ? RXE_WC_LOC_PROT_ERR
						 : RXE_WC_LOC_QP_OP_ERR;
			return -1;
		}
		iov[cnt].iov_base = p;
		iov[cnt++].iov_len = take;
		len -= take;
		off = 0;
	}
	if (len) { /* the SGEs hold fewer bytes than asked for */
		*status = RXE_WC_LOC_QP_OP_ERR;
		return -1;
	}
	return cnt;
}
