// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Shared receive queues: one receive ring the kernel maps. Growing it
 * (IBV_SRQ_MAX_WR) makes the kernel copy the queued WQEs into a new ring
 * whose mmap info it writes through the pointer in our modify request.
 */
#include <errno.h>
#include <stdlib.h>

#include "rxe.h"

static int srq_map(struct ibv_context *ctx, struct rxe_srq *srq,
		   const struct mminfo *mi, uint32_t max_sge)
{
	struct rxe_queue q = {};
	size_t slot;
	int err;

	err = rxe_queue_map(ctx, &q, mi);
	if (err)
		return err;
	rxe_queue_unmap(&srq->rq.q);
	srq->rq.q = q;
	slot = (size_t)1 << q.buf->log2_elem_size;
	if (slot < sizeof(struct rxe_recv_wqe))
		slot = sizeof(struct rxe_recv_wqe);
	slot = (slot - sizeof(struct rxe_recv_wqe)) / sizeof(struct rxe_sge);
	srq->rq.max_sge = max_sge < slot ? max_sge : (uint32_t)slot;
	return 0;
}

struct ibv_srq *rxe_create_srq_ex(struct ibv_context *ctx,
				  struct ibv_srq_init_attr_ex *attr)
{
	struct rxe_create_srq_resp resp = {};
	struct ibv_udata udata = {.out = &resp, .out_len = sizeof(resp)};
	struct rxe_srq *srq;
	int err;

	if (!attr) {
		errno = EINVAL;
		return NULL;
	}
	/* rdma_rxe has basic SRQs only (no XRC, no tag matching). */
	if (attr->comp_mask &
		    ~(IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD) ||
	    (attr->comp_mask & IBV_SRQ_INIT_ATTR_TYPE &&
	     attr->srq_type != IBV_SRQT_BASIC)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	srq = calloc(1, sizeof(*srq));
	if (!srq)
		return NULL;
	err = rxe_wq_init(&srq->rq, 0, 0);
	if (err) {
		free(srq);
		errno = ENOMEM;
		return NULL;
	}
	err = ibv_cmd_create_srq_ex(ctx, &srq->vsrq, attr, &udata, NULL);
	if (err)
		goto err_free;
	err = srq_map(ctx, srq, &resp.mi, attr->attr.max_sge);
	if (err) {
		ibv_cmd_destroy_srq(&srq->vsrq.srq);
		goto err_free;
	}
	srq->vsrq.srq_num = resp.srq_num;
	srq->vsrq.srq.srq_context = attr->srq_context;
	return &srq->vsrq.srq;

err_free:
	rxe_wq_destroy(&srq->rq);
	free(srq);
	errno = err;
	return NULL;
}

struct ibv_srq *rxe_create_srq(struct ibv_pd *pd,
			       struct ibv_srq_init_attr *attr)
{
	struct ibv_srq_init_attr_ex ex = {};
	struct ibv_srq *srq;

	if (!pd || !attr) {
		errno = EINVAL;
		return NULL;
	}
	ex.srq_context = attr->srq_context;
	ex.attr = attr->attr;
	ex.comp_mask = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD;
	ex.srq_type = IBV_SRQT_BASIC;
	ex.pd = pd;
	srq = rxe_create_srq_ex(pd->context, &ex);
	if (srq)
		attr->attr = ex.attr;
	return srq;
}

int rxe_modify_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr, int mask)
{
	struct rxe_srq *srq = to_rsrq(ibsrq);
	struct mminfo mi = {};
	struct rxe_modify_srq_cmd cmd = {.mmap_info_addr = (uintptr_t)&mi};
	struct ibv_udata udata = {.in = &cmd, .in_len = sizeof(cmd)};
	int err;

	if (!attr)
		return EINVAL;
	if (!(mask & IBV_SRQ_MAX_WR))
		return ibv_cmd_modify_srq(ibsrq, attr, mask, &udata);
	pthread_spin_lock(&srq->rq.lock);
	err = ibv_cmd_modify_srq(ibsrq, attr, mask, &udata);
	if (!err)
		err = srq_map(ibsrq->context, srq, &mi, srq->rq.max_sge);
	pthread_spin_unlock(&srq->rq.lock);
	return err;
}

int rxe_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr)
{
	return ibv_cmd_query_srq(srq, attr);
}

int rxe_destroy_srq(struct ibv_srq *ibsrq)
{
	struct rxe_srq *srq = to_rsrq(ibsrq);
	int err = ibv_cmd_destroy_srq(ibsrq);

	if (err)
		return err;
	rxe_wq_destroy(&srq->rq);
	free(srq);
	return 0;
}

int rxe_post_srq_recv(struct ibv_srq *ibsrq, struct ibv_recv_wr *wr,
		      struct ibv_recv_wr **bad_wr)
{
	if (!bad_wr)
		return EINVAL;
	if (!wr) {
		*bad_wr = wr;
		return EINVAL;
	}
	return rxe_post_recv_list(&to_rsrq(ibsrq)->rq, wr, bad_wr);
}
