// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Queue pairs: the kernel object plus the SQ ring and (without an SRQ) the
 * RQ ring it maps for us. The rings' slots are sized by the kernel from the
 * granted caps; the limits we enforce are re-derived from the slot size so
 * a WQE can never run past its slot.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rxe.h"

#define RXE_QP_COMP_MASK                                                       \
	(IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_CREATE_FLAGS |                 \
	 IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* Bytes of a slot left after the fixed part of a WQE of @hdr bytes. */
static uint32_t slot_room(struct rxe_queue *q, size_t hdr)
{
	size_t slot = (size_t)1 << q->buf->log2_elem_size;

	return slot > hdr ? (uint32_t)(slot - hdr) : 0;
}

static int map_rings(struct ibv_context *ctx, struct rxe_qp *qp,
		     const struct rxe_create_qp_resp *resp,
		     const struct ibv_qp_init_attr_ex *attr)
{
	uint32_t room;
	int err;

	err = rxe_queue_map(ctx, &qp->sq.q, &resp->sq_mi);
	if (err)
		return err;
	room = slot_room(&qp->sq.q, sizeof(struct rxe_send_wqe));
	qp->sq.max_sge =
		min_u32(attr->cap.max_send_sge, room / sizeof(struct rxe_sge));
	qp->sq.max_inline = min_u32(attr->cap.max_inline_data, room);
	if (attr->srq)
		return 0;
	err = rxe_queue_map(ctx, &qp->rq.q, &resp->rq_mi);
	if (err)
		return err;
	room = slot_room(&qp->rq.q, sizeof(struct rxe_recv_wqe));
	qp->rq.max_sge =
		min_u32(attr->cap.max_recv_sge, room / sizeof(struct rxe_sge));
	return 0;
}

static void qp_free(struct rxe_qp *qp)
{
	rxe_wq_destroy(&qp->sq);
	rxe_wq_destroy(&qp->rq);
	free(qp);
}

static struct rxe_qp *qp_alloc(void)
{
	struct rxe_qp *qp = calloc(1, sizeof(*qp));

	if (!qp)
		return NULL;
	if (rxe_wq_init(&qp->sq, 0, 0)) {
		free(qp);
		errno = ENOMEM;
		return NULL;
	}
	if (rxe_wq_init(&qp->rq, 0, 0)) {
		pthread_spin_destroy(&qp->sq.lock);
		free(qp);
		errno = ENOMEM;
		return NULL;
	}
	return qp;
}

struct ibv_qp *rxe_create_qp_ex(struct ibv_context *ctx,
				struct ibv_qp_init_attr_ex *attr)
{
	struct rxe_create_qp_resp resp = {};
	struct ibv_udata udata = {.out = &resp, .out_len = sizeof(resp)};
	struct rxe_qp *qp;
	int err;

	if (!attr) {
		errno = EINVAL;
		return NULL;
	}
	if (attr->comp_mask & ~RXE_QP_COMP_MASK ||
	    (attr->comp_mask & IBV_QP_INIT_ATTR_CREATE_FLAGS &&
	     attr->create_flags)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	qp = qp_alloc();
	if (!qp)
		return NULL;
	if (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) {
		err = rxe_qp_ex_check(attr->qp_type, attr->send_ops_flags);
		if (err)
			goto err_free;
	}
	err = ibv_cmd_create_qp_ex(ctx, &qp->vqp, attr, &udata, NULL);
	if (err)
		goto err_free;
	err = map_rings(ctx, qp, &resp, attr);
	if (err)
		goto err_destroy;
	qp->vqp.qp.qp_context = attr->qp_context;
	if (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)
		rxe_qp_ex_set_ops(qp);
	/* ibv_qp_to_qp_ex() works on every QP made through create_qp_ex. */
	qp->vqp.comp_mask |= VERBS_QP_EX;
	return &qp->vqp.qp;

err_destroy:
	ibv_cmd_destroy_qp(&qp->vqp.qp);
err_free:
	qp_free(qp);
	errno = err;
	return NULL;
}

struct ibv_qp *rxe_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr)
{
	struct ibv_qp_init_attr_ex ex = {};
	struct ibv_qp *qp;

	if (!pd || !attr) {
		errno = EINVAL;
		return NULL;
	}
	memcpy(&ex, attr, sizeof(*attr));
	ex.comp_mask = IBV_QP_INIT_ATTR_PD;
	ex.pd = pd;
	qp = rxe_create_qp_ex(pd->context, &ex);
	if (!qp)
		return NULL;
	/* The old API is plain: no extended view. */
	verbs_get_qp(qp)->comp_mask &= ~VERBS_QP_EX;
	attr->cap = ex.cap;
	return qp;
}

int rxe_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask)
{
	return ibv_cmd_modify_qp(qp, attr, mask, NULL);
}

int rxe_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
		 struct ibv_qp_init_attr *init_attr)
{
	return ibv_cmd_query_qp(qp, attr, mask, init_attr);
}

int rxe_destroy_qp(struct ibv_qp *ibqp)
{
	int err = ibv_cmd_destroy_qp(ibqp);

	if (err)
		return err;
	qp_free(to_rqp(ibqp));
	return 0;
}

int rxe_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
		  struct ibv_recv_wr **bad_wr)
{
	struct rxe_qp *qp = to_rqp(ibqp);

	if (!bad_wr)
		return EINVAL;
	/* No RQ of its own (SRQ), or still in RESET (IBA C10-97.2.1). */
	if (!wr || !qp->rq.q.buf || ibqp->state == IBV_QPS_RESET) {
		*bad_wr = wr;
		return EINVAL;
	}
	return rxe_post_recv_list(&qp->rq, wr, bad_wr);
}
