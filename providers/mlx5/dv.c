// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5dv entry points: DM op-address pages, and init_obj for QP, CQ, SRQ,
 * DM, AH and PD (the rings, doorbells, registers, address vectors and
 * numbers direct-verbs users post with).
 */
#include <errno.h>
#include <sys/mman.h>

#include "datapath.h"

static bool is_mlx5_dm(struct ibv_dm *ibdm)
{
	return ibdm && mlx5_is_mlx5_context(ibdm->context);
}

/*
 * The op page is mapped for the caller and not recorded in the DM: the
 * export keeps using the base mapping (see struct mlx5_dm).
 */
void *mlx5dv_dm_map_op_addr(struct ibv_dm *ibdm, uint8_t op)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DM, MLX5_IB_METHOD_DM_MAP_OP_ADDR,
			   4);
	struct mlx5_context *ctx;
	struct mlx5_dm *dm;
	uint64_t start_offset = 0;
	uint16_t page_index = 0;
	void *addr;
	int err;

	if (!ibdm) {
		errno = EINVAL;
		return NULL;
	}
	if (!is_mlx5_dm(ibdm)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	dm = to_mdm(ibdm);
	ctx = to_mctx(ibdm->context);
	if (dm->type != MLX5DV_DM_TYPE_MEMIC) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	uverbs_attr_in_obj(cmd, MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_HANDLE,
			   dm->verbs_dm.handle);
	uverbs_attr_in_ptr(cmd, MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_OP, &op,
			   sizeof(op));
	uverbs_attr_out_ptr(cmd, MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_START_OFFSET,
			    &start_offset, sizeof(start_offset));
	uverbs_attr_out_ptr(cmd, MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_PAGE_INDEX,
			    &page_index, sizeof(page_index));
	err = uverbs_cmd_execute(ibdm->context, cmd);
	if (err) {
		errno = err;
		return NULL;
	}
	addr = mmap(NULL, mlx5_align_up(dm->length, ctx->page_size),
		    PROT_READ | PROT_WRITE, MAP_SHARED, ibdm->context->cmd_fd,
		    mlx5_mmap_offset(MLX5_IB_MMAP_DEVICE_MEM, page_index,
				     ctx->page_size));
	if (addr == MAP_FAILED)
		return NULL;
	return (uint8_t *)addr + (start_offset & (ctx->page_size - 1));
}

static int init_dm_obj(struct ibv_dm *ibdm, struct mlx5dv_dm *out)
{
	struct mlx5_dm *dm;

	if (!ibdm || !out)
		return EINVAL;
	if (!is_mlx5_dm(ibdm))
		return EOPNOTSUPP;
	dm = to_mdm(ibdm);
	out->buf = dm->start;
	out->length = dm->length;
	/* Answer only what was asked and is known. */
	out->comp_mask &= MLX5DV_DM_MASK_REMOTE_VA;
	if (out->comp_mask & MLX5DV_DM_MASK_REMOTE_VA)
		out->remote_va = dm->remote_va;
	return 0;
}

static int init_qp_obj(struct ibv_qp *ibqp, struct mlx5dv_qp *out)
{
	struct mlx5_qp *qp;

	if (!ibqp || !out)
		return EINVAL;
	if (!mlx5_is_mlx5_context(ibqp->context))
		return EOPNOTSUPP;
	qp = to_mqp(ibqp);
	out->dbrec = qp->db;
	out->sq.buf = qp->sq_start;
	out->sq.wqe_cnt = qp->sq.wqe_cnt;
	out->sq.stride = 1u << qp->sq.wqe_shift;
	out->rq.buf = (uint8_t *)qp->buf.addr + qp->rq.offset;
	out->rq.wqe_cnt = qp->rq.wqe_cnt;
	out->rq.stride = qp->rq.wqe_cnt ? 1u << qp->rq.wqe_shift : 0;
	out->bf.reg = qp->bf->reg;
	out->bf.size = qp->bf->buf_size;
	/* The UAR mmap offset and raw-QP handles are not provided. */
	out->comp_mask = 0;
	return 0;
}

static int init_cq_obj(struct ibv_cq *ibcq, struct mlx5dv_cq *out)
{
	struct mlx5_cq *cq;

	if (!ibcq || !out)
		return EINVAL;
	if (!mlx5_is_mlx5_context(ibcq->context))
		return EOPNOTSUPP;
	cq = to_mcq(ibcq);
	out->buf = cq->active->addr;
	out->dbrec = cq->dbrec;
	out->cqe_cnt = cq->ncqe;
	out->cqe_size = cq->cqe_sz;
	out->cq_uar = cq->uar;
	out->cqn = cq->cqn;
	out->comp_mask = 0;
	cq->dv_owned = true;
	return 0;
}

static int init_srq_obj(struct ibv_srq *ibsrq, struct mlx5dv_srq *out)
{
	struct mlx5_srq *srq;

	if (!ibsrq || !out)
		return EINVAL;
	if (!mlx5_is_mlx5_context(ibsrq->context))
		return EOPNOTSUPP;
	srq = to_msrq(ibsrq);
	out->buf = srq->buf.addr;
	out->dbrec = srq->db;
	out->stride = 1u << srq->wqe_shift;
	out->head = (uint32_t)srq->head;
	out->tail = (uint32_t)srq->tail;
	out->comp_mask &= MLX5DV_SRQ_MASK_SRQN;
	if (out->comp_mask)
		out->srqn = srq->srqn;
	return 0;
}

/* The AV is the AH's own: a UD or DC WQE built by the caller copies it. */
static int init_ah_obj(struct ibv_ah *ibah, struct mlx5dv_ah *out)
{
	if (!ibah || !out)
		return EINVAL;
	if (!mlx5_is_mlx5_context(ibah->context))
		return EOPNOTSUPP;
	out->av = &to_mah(ibah)->av;
	out->comp_mask = 0;
	return 0;
}

/* A parent domain answers the number of the PD it stands for. */
static int init_pd_obj(struct ibv_pd *ibpd, struct mlx5dv_pd *out)
{
	if (!ibpd || !out)
		return EINVAL;
	if (!mlx5_is_mlx5_context(ibpd->context))
		return EOPNOTSUPP;
	out->pdn = to_mpd(ibpd)->pdn;
	out->comp_mask = 0;
	return 0;
}

static const uint64_t supported_objs = MLX5DV_OBJ_QP | MLX5DV_OBJ_CQ |
				       MLX5DV_OBJ_SRQ | MLX5DV_OBJ_DM |
				       MLX5DV_OBJ_AH | MLX5DV_OBJ_PD;

int mlx5dv_init_obj(struct mlx5dv_obj *obj, uint64_t obj_type)
{
	int err = 0;

	if (!obj) {
		errno = EINVAL;
		return EINVAL;
	}
	if (obj_type & ~supported_objs)
		return EOPNOTSUPP;
	if (obj_type & MLX5DV_OBJ_QP)
		err = init_qp_obj(obj->qp.in, obj->qp.out);
	if (!err && (obj_type & MLX5DV_OBJ_CQ))
		err = init_cq_obj(obj->cq.in, obj->cq.out);
	if (!err && (obj_type & MLX5DV_OBJ_SRQ))
		err = init_srq_obj(obj->srq.in, obj->srq.out);
	if (!err && (obj_type & MLX5DV_OBJ_DM))
		err = init_dm_obj(obj->dm.in, obj->dm.out);
	if (!err && (obj_type & MLX5DV_OBJ_AH))
		err = init_ah_obj(obj->ah.in, obj->ah.out);
	if (!err && (obj_type & MLX5DV_OBJ_PD))
		err = init_pd_obj(obj->pd.in, obj->pd.out);
	return err;
}
