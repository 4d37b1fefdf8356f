// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Shared receive queues: a ring of WQEs chained by next_wqe_index into a
 * free list. Posting fills the WQE at head and follows its link; a
 * completed WQE is chained back at tail. The doorbell record counts the
 * WQEs posted. An XRC SRQ is the same ring; with CQE version 1 it has a
 * user index of its own (its receive CQEs name it, not a QP), and its
 * completions go to the CQ it was created with. A tag-matching SRQ is an
 * XRC-like SRQ (own user index, own CQ, which must be an extended one)
 * with a tag list and a command QP (tm.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "datapath.h"

static uint32_t roundup_pow2(uint32_t n)
{
	return n <= 1 ? 1 : 1u << (32 - __builtin_clz(n - 1));
}

static bool has_cq(const struct mlx5_srq *srq)
{
	return srq->verbs_srq.srq_type == IBV_SRQT_XRC ||
	       srq->verbs_srq.srq_type == IBV_SRQT_TM;
}

/* libmlx5 reads TM CQEs through the extended poll API only. */
static int check_tm(const struct ibv_srq_init_attr_ex *attr)
{
	const uint32_t need = IBV_SRQ_INIT_ATTR_CQ | IBV_SRQ_INIT_ATTR_TM;

	if ((attr->comp_mask & need) != need || !attr->cq ||
	    !to_mcq(attr->cq)->verbs_cq.cq_ex.start_poll ||
	    !attr->tm_cap.max_num_tags)
		return EINVAL;
	return 0;
}

static void free_srq(struct mlx5_context *ctx, struct mlx5_srq *srq)
{
	if (srq->has_uidx)
		mlx5_rsc_clear(&ctx->dp->rsc, srq->rsc.rsn);
	mlx5_tm_destroy(srq);
	mlx5_free_buf(&srq->buf);
	if (srq->db)
		mlx5_free_dbrec_pd(ctx, srq->db, srq->db_owner);
	free(srq->wrid);
	pthread_spin_destroy(&srq->lock);
	free(srq);
}

static int size_srq(struct mlx5_context *ctx, struct mlx5_srq *srq,
		    const struct ibv_srq_init_attr_ex *attr)
{
	const struct ibv_srq_attr *a = &attr->attr;
	struct mlx5_ring_req req = {
		.pd = attr->pd,
		.resource_type = MLX5DV_RES_TYPE_SRQ,
		.component = "SRQ",
	};
	uint32_t wqe;
	int i, err;

	if (a->max_wr > ctx->max_srq_recv_wr ||
	    a->max_sge > ctx->max_rq_desc_sz / 16)
		return EINVAL;
	wqe = roundup_pow2(16 + 16 * (a->max_sge ? a->max_sge : 1));
	if (wqe < 32)
		wqe = 32;
	if (wqe > ctx->max_rq_desc_sz)
		return EINVAL;
	srq->wqe_shift = (unsigned int)__builtin_ctz(wqe);
	srq->max_gs = (int)(wqe - 16) / 16;
	srq->max = (int)roundup_pow2(a->max_wr + 1);
	req.alignment = ctx->page_size;
	err = mlx5_alloc_ring(ctx, &srq->buf, (size_t)srq->max * wqe, &req);
	if (err)
		return err;
	srq->wrid = calloc((size_t)srq->max, sizeof(*srq->wrid));
	if (!srq->wrid)
		return ENOMEM;
	/* One free list through every WQE; the tail WQE is never posted. */
	for (i = 0; i < srq->max - 1; i++)
		mlx5_srq_next(srq, i)->next_wqe_index = htobe16((uint16_t)(i + 1));
	srq->head = 0;
	srq->tail = srq->max - 1;
	return 0;
}

static struct mlx5_srq *create_srq(struct ibv_context *ibctx,
				   struct ibv_srq_init_attr_ex *attr)
{
	struct mlx5_context *ctx = to_mctx(ibctx);
	struct mlx5_ib_create_srq req = {};
	struct mlx5_ib_create_srq_resp resp = {};
	struct ibv_udata udata = { .in = &req, .in_len = sizeof(req),
				   .out = &resp, .out_len = sizeof(resp) };
	struct mlx5_srq *srq;
	uint32_t want;
	int err;

	enum ibv_srq_type type = attr->comp_mask & IBV_SRQ_INIT_ATTR_TYPE
					 ? attr->srq_type
					 : IBV_SRQT_BASIC;
	bool xrc = type == IBV_SRQT_XRC, tm = type == IBV_SRQT_TM;

	if (type != IBV_SRQT_BASIC && !xrc && !tm) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (!(attr->comp_mask & IBV_SRQ_INIT_ATTR_PD) || !attr->pd) {
		errno = EINVAL;
		return NULL;
	}
	if (tm && check_tm(attr)) {
		errno = EINVAL;
		return NULL;
	}
	/* As upstream: no SRQ rings from a CC parent domain's heap. */
	if (mlx5_cc_heap(attr->pd)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	srq = calloc(1, sizeof(*srq));
	if (!srq) {
		errno = ENOMEM;
		return NULL;
	}
	pthread_spin_init(&srq->lock, PTHREAD_PROCESS_PRIVATE);
	srq->rsc.type = MLX5_RSC_SRQ;
	err = size_srq(ctx, srq, attr);
	if (err)
		goto fail;
	srq->db = mlx5_alloc_dbrec_pd(ctx, attr->pd, &srq->db_owner);
	if (!srq->db) {
		err = ENOMEM;
		goto fail;
	}
	req.buf_addr = (uintptr_t)srq->buf.addr;
	req.db_addr = (uintptr_t)srq->db;
	if (xrc || tm)
		req.uidx = 0xffffff;
	if ((xrc || tm) && ctx->cqe_version) {
		int32_t uidx = mlx5_rsc_store_free(&ctx->dp->rsc, &srq->rsc);

		if (uidx < 0) {
			err = ENOMEM;
			goto fail;
		}
		srq->has_uidx = true;
		req.uidx = (uint32_t)uidx;
	}
	want = attr->attr.max_wr;
	/* The kernel rounds max_wr + 1 up: tell it one less than the ring. */
	attr->attr.max_wr = (uint32_t)srq->max - 1;
	err = ibv_cmd_create_srq_ex(ibctx, &srq->verbs_srq, attr, &udata,
				    NULL);
	if (err) {
		attr->attr.max_wr = want;
		goto fail;
	}
	srq->srqn = resp.srqn;
	srq->verbs_srq.srq_num = resp.srqn;
	if (!ctx->cqe_version) {
		err = mlx5_rsc_store(&ctx->dp->srq_rsc, srq->srqn, &srq->rsc);
		if (err) {
			ibv_cmd_destroy_srq(&srq->verbs_srq.srq);
			goto fail;
		}
	}
	if (tm) {
		err = mlx5_tm_create(srq, attr);
		if (err) {
			mlx5_tm_destroy_cmd_qp(srq);
			ibv_cmd_destroy_srq(&srq->verbs_srq.srq);
			if (!ctx->cqe_version)
				mlx5_rsc_clear(&ctx->dp->srq_rsc, srq->srqn);
			goto fail;
		}
	}
	attr->attr.max_wr = (uint32_t)srq->tail;
	attr->attr.max_sge = (uint32_t)srq->max_gs;
	return srq;
fail:
	free_srq(ctx, srq);
	errno = err;
	return NULL;
}

struct ibv_srq *mlx5_create_srq(struct ibv_pd *pd,
				struct ibv_srq_init_attr *attr)
{
	struct ibv_srq_init_attr_ex ex = {
		.srq_context = attr->srq_context,
		.attr = attr->attr,
		.comp_mask = IBV_SRQ_INIT_ATTR_PD,
		.pd = pd,
	};
	struct mlx5_srq *srq = create_srq(pd->context, &ex);

	if (!srq)
		return NULL;
	attr->attr = ex.attr;
	return &srq->verbs_srq.srq;
}

struct ibv_srq *mlx5_create_srq_ex(struct ibv_context *ibctx,
				   struct ibv_srq_init_attr_ex *attr)
{
	struct mlx5_srq *srq;

	if (!attr) {
		errno = EINVAL;
		return NULL;
	}
	srq = create_srq(ibctx, attr);
	return srq ? &srq->verbs_srq.srq : NULL;
}

int mlx5_modify_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr,
		    int mask)
{
	/* mlx5 SRQs cannot be resized. */
	if (mask & IBV_SRQ_MAX_WR)
		return EINVAL;
	return ibv_cmd_modify_srq(ibsrq, attr, mask, NULL);
}

int mlx5_query_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr)
{
	struct mlx5_srq *srq = to_msrq(ibsrq);
	int err = ibv_cmd_query_srq(ibsrq, attr);

	if (!err) {
		attr->max_wr = (uint32_t)srq->max - 1;
		attr->max_sge = (uint32_t)srq->max_gs;
	}
	return err;
}

int mlx5_destroy_srq(struct ibv_srq *ibsrq)
{
	struct mlx5_context *ctx = to_mctx(ibsrq->context);
	struct mlx5_srq *srq = to_msrq(ibsrq);
	int err = mlx5_tm_destroy_cmd_qp(srq);

	if (!err)
		err = ibv_cmd_destroy_srq(ibsrq);
	if (err)
		return err;
	/* by user index: with CQE version 0 the rsn is the SRQ number,
	 * which may well be some QP's number on that CQ */
	if (has_cq(srq) && srq->has_uidx)
		mlx5_cq_clean(to_mcq(srq->verbs_srq.cq), srq->rsc.rsn, NULL);
	if (!ctx->cqe_version)
		mlx5_rsc_clear(&ctx->dp->srq_rsc, srq->srqn);
	free_srq(ctx, srq);
	return 0;
}
