// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * QP life cycle for RC, UC, UD and XRC_SEND: one buffer (RQ first, then SQ), a
 * doorbell record and a doorbell/BlueFlame register, described to the
 * kernel in struct mlx5_ib_create_qp. Posting is gated on the state as
 * upstream: receives from INIT, sends from RTS; a reset QP forgets its
 * queues and its CQEs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "datapath.h"
#include "doorbell.h"

static const uint64_t supported_ops_rc =
	IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_INV |
	IBV_QP_EX_WITH_SEND_WITH_IMM | IBV_QP_EX_WITH_RDMA_WRITE |
	IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM | IBV_QP_EX_WITH_RDMA_READ |
	IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP | IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD |
	IBV_QP_EX_WITH_BIND_MW | IBV_QP_EX_WITH_LOCAL_INV;
static const uint64_t supported_ops_uc =
	IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_INV |
	IBV_QP_EX_WITH_SEND_WITH_IMM | IBV_QP_EX_WITH_RDMA_WRITE |
	IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM | IBV_QP_EX_WITH_BIND_MW |
	IBV_QP_EX_WITH_LOCAL_INV;
static const uint64_t supported_ops_ud =
	IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM;

/* Creation flags go to the kernel, which judges them (as upstream). */
static const uint32_t supported_comp_mask =
	IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_CREATE_FLAGS |
	IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;

static int check_attr(const struct ibv_qp_init_attr_ex *attr,
		      const struct mlx5_qp_dv *dv, uint64_t *ops)
{
	uint64_t supported;

	if (!(attr->comp_mask & IBV_QP_INIT_ATTR_PD) || !attr->pd)
		return EINVAL;
	if (attr->comp_mask & ~supported_comp_mask)
		return EOPNOTSUPP;
	/* An underlay QP (a source QPN of its own) is UD only. */
	if ((attr->comp_mask & IBV_QP_INIT_ATTR_CREATE_FLAGS) &&
	    (attr->create_flags & IBV_QP_CREATE_SOURCE_QPN) &&
	    attr->qp_type != IBV_QPT_UD)
		return EINVAL;
	switch (attr->qp_type) {
	case IBV_QPT_RC:
		supported = supported_ops_rc;
		break;
	case IBV_QPT_UC:
		supported = supported_ops_uc;
		break;
	case IBV_QPT_UD:
		supported = supported_ops_ud;
		break;
	case IBV_QPT_DRIVER:
		if (dv->dc_type == MLX5DV_DCTYPE_DCI) {
			supported = supported_ops_rc; /* DC posts as RC */
			break;
		}
		if (dv->dc_type == MLX5DV_DCTYPE_DCT) {
			*ops = 0; /* receive only */
			return 0;
		}
		return EINVAL;
	case IBV_QPT_XRC_SEND:
		supported = supported_ops_rc;
		break;
	case IBV_QPT_XRC_RECV:
		return EINVAL; /* it names its domain (IBV_QP_INIT_ATTR_XRCD) */
	default:
		/* As libmlx5: the extended QP's ops are judged first. */
		if (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS ||
		    verbs_qp_type_known(attr->qp_type))
			return EOPNOTSUPP;
		return EINVAL;
	}
	*ops = mlx5_default_send_ops(attr->qp_type);
	if (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) {
		if (attr->send_ops_flags & ~supported)
			return EOPNOTSUPP;
		*ops = attr->send_ops_flags;
	}
	return 0;
}

static int init_wq(struct mlx5_wq *wq, unsigned int cnt, bool heads)
{
	pthread_spin_init(&wq->lock, PTHREAD_PROCESS_PRIVATE);
	wq->qp_state_max_gs = -1;
	if (!cnt)
		return 0;
	wq->wrid = calloc(cnt, sizeof(*wq->wrid));
	if (heads) {
		wq->wqe_head = calloc(cnt, sizeof(*wq->wqe_head));
		wq->umr_inv = calloc(cnt, 1);
	}
	return !wq->wrid || (heads && (!wq->wqe_head || !wq->umr_inv))
		       ? ENOMEM
		       : 0;
}

static void free_qp(struct mlx5_context *ctx, struct mlx5_qp *qp)
{
	if (qp->bf && !qp->bf_from_td)
		mlx5_release_bf(ctx, qp->bf);
	if (qp->has_uidx)
		mlx5_rsc_clear(&ctx->dp->rsc, qp->rsc.rsn);
	mlx5_free_buf(&qp->buf);
	if (qp->db)
		mlx5_free_dbrec_pd(ctx, qp->db, qp->db_owner);
	if (qp->parent)
		mlx5_put(&qp->parent->mpd.refcount);
	free(qp->sq.wrid);
	free(qp->sq.wqe_head);
	free(qp->sq.raw_wqe);
	free(qp->sq.umr_inv);
	free(qp->rq.wrid);
	pthread_spin_destroy(&qp->sq.lock);
	pthread_spin_destroy(&qp->rq.lock);
	free(qp);
}

/*
 * What upstream asks a parent domain's allocator for: the larger of the
 * largest WQE stride and 1/64 of the page-rounded ring's power of two.
 */
static size_t ring_alignment(struct mlx5_context *ctx,
			     const struct mlx5_qp_sizes *sz, size_t total)
{
	size_t stride = (size_t)1 << (sz->rq_wqe_shift > MLX5_SEND_WQE_SHIFT ?
					      sz->rq_wqe_shift :
					      MLX5_SEND_WQE_SHIFT);
	size_t len = mlx5_align_up(total, ctx->page_size), pow2 = 1;

	while (pow2 < len)
		pow2 <<= 1;
	return pow2 / 64 > stride ? pow2 / 64 : stride;
}

static int setup_rings(struct mlx5_context *ctx, struct mlx5_qp *qp,
		       struct ibv_pd *pd, const struct mlx5_qp_sizes *sz)
{
	size_t total = sz->rq_bytes + sz->sq_bytes;
	struct mlx5_ring_req req = {
		.pd = pd,
		.resource_type = MLX5DV_RES_TYPE_QP,
		.component = "QP",
	};
	int err;

	switch (qp->qp_type) {
	case IBV_QPT_RC:
		req.legacy_huge = "HUGE_RC";
		break;
	case IBV_QPT_UC:
		req.legacy_huge = "HUGE_UC";
		break;
	case IBV_QPT_UD:
		req.legacy_huge = "HUGE_UD";
		break;
	case IBV_QPT_RAW_PACKET:
		req.legacy_huge = "HUGE_RAW_ETH";
		break;
	default:
		req.legacy_huge = "HUGE_NA";
		break;
	}
	if (!total)
		total = ctx->page_size;
	req.alignment = ring_alignment(ctx, sz, total);
	err = mlx5_alloc_ring(ctx, &qp->buf, total, &req);
	if (err)
		return err;
	qp->rq.offset = 0;
	qp->rq.wqe_cnt = sz->rq_wqe_cnt;
	qp->rq.wqe_shift = sz->rq_wqe_shift;
	qp->rq.max_post = sz->rq_wqe_cnt;
	qp->rq.max_gs = sz->rq_max_gs;
	qp->sq.offset = (unsigned int)sz->rq_bytes;
	qp->sq.wqe_cnt = sz->sq_wqe_cnt;
	qp->sq.wqe_shift = MLX5_SEND_WQE_SHIFT;
	qp->sq.max_post = sz->sq_max_post;
	qp->sq.max_gs = sz->sq_max_gs;
	qp->max_inline_data = sz->max_inline;
	qp->sq_start = (uint8_t *)qp->buf.addr + qp->sq.offset;
	qp->sq_end = qp->sq_start + (size_t)sz->sq_wqe_cnt * MLX5_SEND_WQE_BB;
	err = init_wq(&qp->sq, sz->sq_wqe_cnt, true);
	if (!err)
		err = init_wq(&qp->rq, sz->rq_wqe_cnt, false);
	if (!err && sz->sq_wqe_cnt &&
	    (qp->dv_send_ops & MLX5DV_QP_EX_WITH_RAW_WQE)) {
		qp->sq.raw_wqe = calloc(sz->sq_wqe_cnt, 1);
		if (!qp->sq.raw_wqe)
			err = ENOMEM;
	}
	return err;
}

/* Legacy static UARs: the register of the bfreg the kernel chose. */
static void bind_static_bf(struct mlx5_context *ctx, struct mlx5_qp *qp,
			   struct mlx5_bf *bf, uint32_t bfi)
{
	unsigned int per_page = ctx->num_uars_per_page * 4;
	unsigned int page = bfi / per_page, in_page = bfi % per_page;

	if (page >= ctx->num_uar_pages)
		return;
	bf->reg = (uint8_t *)ctx->uar_pages[page].addr +
		  (in_page / 4) * MLX5_UAR_SIZE + MLX5_BF_OFFSET +
		  (in_page % 4) * ctx->bf_reg_size;
	bf->buf_size = bfi ? ctx->bf_reg_size / 2 : 0;
	bf->offset = 0;
	bf->need_lock = true;
	pthread_spin_init(&bf->lock, PTHREAD_PROCESS_PRIVATE);
	qp->bf = bf;
}

/*
 * Scatter-to-CQE as upstream: on unless MLX5_SCATTER_TO_CQE=0 (read at
 * each creation, as upstream reads it) or the dv DISABLE flag; the dv
 * ALLOW flag also lets requester CQEs carry data.
 */
static uint32_t scatter_flags(uint32_t dv_flags)
{
	const char *env = getenv("MLX5_SCATTER_TO_CQE");

	if (dv_flags & MLX5DV_QP_CREATE_ALLOW_SCATTER_TO_CQE)
		return MLX5_QP_FLAG_ALLOW_SCATTER_CQE |
		       MLX5_QP_FLAG_SCATTER_CQE;
	if ((dv_flags & MLX5DV_QP_CREATE_DISABLE_SCATTER_TO_CQE) ||
	    (env && !strcmp(env, "0")))
		return 0;
	return MLX5_QP_FLAG_SCATTER_CQE;
}

/* The dv creation flags the kernel hears as UHW flags of its own. */
static const struct {
	uint32_t dv;
	uint32_t uhw;
} dv_uhw_flags[] = {
	{ MLX5DV_QP_CREATE_TUNNEL_OFFLOADS, MLX5_QP_FLAG_TUNNEL_OFFLOADS },
	{ MLX5DV_QP_CREATE_TIR_ALLOW_SELF_LOOPBACK_UC,
	  MLX5_QP_FLAG_TIR_ALLOW_SELF_LB_UC },
	{ MLX5DV_QP_CREATE_TIR_ALLOW_SELF_LOOPBACK_MC,
	  MLX5_QP_FLAG_TIR_ALLOW_SELF_LB_MC },
	{ MLX5DV_QP_CREATE_PACKET_BASED_CREDIT_MODE,
	  MLX5_QP_FLAG_PACKET_BASED_CREDIT_MODE },
};

static uint32_t uhw_flags(uint32_t dv_flags)
{
	uint32_t flags = scatter_flags(dv_flags);
	size_t i;

	for (i = 0; i < sizeof(dv_uhw_flags) / sizeof(dv_uhw_flags[0]); i++)
		if (dv_flags & dv_uhw_flags[i].dv)
			flags |= dv_uhw_flags[i].uhw;
	return flags;
}

static int create_kernel_qp(struct mlx5_context *ctx, struct mlx5_qp *qp,
			    struct ibv_qp_init_attr_ex *attr,
			    const struct mlx5_qp_sizes *sz, uint32_t *bfi,
			    const struct mlx5_qp_dv *dv)
{
	/* Room for every core attribute: PD, SRQ, both CQs, caps, UHW... */
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE, 4);
	struct rdma_dm_buffer_desc umem[2];
	struct mlx5_ib_create_qp req = {};
	struct mlx5_ib_create_qp_resp resp = {};
	struct ibv_udata udata = { .in = &req, .in_len = sizeof(req),
				   .out = &resp, .out_len = sizeof(resp) };
	int err;

	req.buf_addr = (uintptr_t)qp->buf.addr;
	req.db_addr = (uintptr_t)qp->db;
	req.sq_wqe_count = sz->sq_wqe_cnt;
	req.rq_wqe_count = sz->rq_wqe_cnt;
	req.rq_wqe_shift = sz->rq_wqe_shift;
	req.uidx = qp->has_uidx ? qp->rsc.rsn : 0xffffff;
	req.flags = uhw_flags(dv->create_flags);
	if (dv->dc_type == MLX5DV_DCTYPE_DCT) {
		req.flags |= MLX5_QP_FLAG_TYPE_DCT;
		req.access_key = dv->dc_key;
	} else if (dv->dc_type == MLX5DV_DCTYPE_DCI) {
		req.flags |= MLX5_QP_FLAG_TYPE_DCI;
	}
	if (!ctx->tot_bfregs) {
		req.flags |= MLX5_QP_FLAG_UAR_PAGE_INDEX;
		req.bfreg_index = qp->bf->page_id;
	}
	/* A CC parent domain's: the kernel takes them by fd (ioctl only). */
	mlx5_add_buf_umem(ctx, cmd, &qp->buf, qp->db,
			  RDMA_DM_ATTR_CREATE_QP_BUF_UMEM,
			  RDMA_DM_MLX5_ATTR_CREATE_QP_DBR_BUF_UMEM, umem);
	err = ibv_cmd_create_qp_ex(&ctx->ibv_ctx.context, &qp->verbs_qp, attr,
				   &udata, cmd);
	*bfi = resp.bfreg_index;
	return err;
}

static struct mlx5_qp *create_qp(struct ibv_context *ibctx,
				 struct ibv_qp_init_attr_ex *attr,
				 const struct mlx5_qp_dv *dv)
{
	struct mlx5_context *ctx = to_mctx(ibctx);
	struct mlx5_qp_limits lim = {
		.max_sq_desc_sz = ctx->max_sq_desc_sz,
		.max_rq_desc_sz = ctx->max_rq_desc_sz,
		.max_send_wqebb = ctx->max_send_wqebb,
		.max_recv_wr = ctx->max_recv_wr,
	};
	static const struct ibv_qp_cap no_queues;
	bool dct = dv->dc_type == MLX5DV_DCTYPE_DCT;
	bool ooo = dv->create_flags & MLX5DV_QP_CREATE_OOO_DP;
	struct ibv_qp_cap cap = attr->cap;
	struct mlx5_qp_sizes sz;
	struct mlx5_qp *qp;
	uint64_t ops;
	uint32_t bfi = 0;
	int32_t uidx;
	int err;

	err = check_attr(attr, dv, &ops);
	/* a DCT is found by user index only: without CQE version 1 it would
	 * be stored under its QP number, 0 until the kernel gives a DCT one */
	if (!err && dct && !ctx->cqe_version)
		err = EOPNOTSUPP;
	/* Receives consumed out of order need twice the RQ to keep as many
	 * posted as asked (a receive queue of its own only). */
	if (ooo && !attr->srq && cap.max_recv_wr)
		cap.max_recv_wr = cap.max_recv_wr > lim.max_recv_wr / 2
					  ? lim.max_recv_wr + 1
					  : cap.max_recv_wr * 2;
	/* a DCT has no work queue of its own: its SRQ receives */
	if (!err)
		err = mlx5_calc_qp_sizes(&lim, attr->qp_type, ops,
					 dct ? &no_queues : &cap,
					 attr->srq != NULL, &sz);
	if (err) {
		errno = err;
		return NULL;
	}
	qp = calloc(1, sizeof(*qp) + sizeof(struct mlx5_bf));
	if (!qp) {
		errno = ENOMEM;
		return NULL;
	}
	qp->qp_type = attr->qp_type;
	qp->dct = dct;
	qp->dci = dv->dc_type == MLX5DV_DCTYPE_DCI;
	qp->ooo_dp = ooo;
	qp->send_ops = ops;
	qp->dv_send_ops = dv->send_ops;
	qp->atomics = ctx->atomic_cap != IBV_ATOMIC_NONE;
	qp->prefer_bf = ctx->dp->prefer_bf;
	qp->single_threaded = ctx->dp->single_threaded;
	qp->rsc.type = MLX5_RSC_QP;
	qp->parent = to_mparent_domain(attr->pd);
	if (qp->parent) {
		mlx5_get(&qp->parent->mpd.refcount);
		/* A thread domain's QPs share its register, lock-free. */
		if (qp->parent->mtd && !ctx->tot_bfregs) {
			qp->bf = qp->parent->mtd->bf;
			qp->bf_from_td = true;
			qp->single_threaded = true;
		}
	}
	err = setup_rings(ctx, qp, attr->pd, &sz);
	if (err)
		goto fail;
	if (ooo)
		qp->rq.max_post /= 2; /* the other half is the device's slack */
	qp->db = mlx5_alloc_dbrec_pd(ctx, attr->pd, &qp->db_owner);
	if (!qp->bf)
		qp->bf = mlx5_pick_bf(ctx);
	if (!qp->db || !qp->bf) {
		err = qp->db ? errno : ENOMEM;
		goto fail;
	}
	if (ctx->cqe_version) {
		uidx = mlx5_rsc_store_free(&ctx->dp->rsc, &qp->rsc);
		if (uidx < 0) {
			err = ENOMEM;
			goto fail;
		}
		qp->has_uidx = true;
	}
	/* The kernel hears the inline size the WQEs hold, as from upstream. */
	if (sz.sq_wqe_cnt)
		attr->cap.max_inline_data = (uint32_t)sz.max_inline;
	err = create_kernel_qp(ctx, qp, attr, &sz, &bfi, dv);
	if (err)
		goto fail;
	qp->qpn = qp->verbs_qp.qp.qp_num;
	if (!ctx->cqe_version) {
		err = mlx5_rsc_store(&ctx->dp->rsc, qp->qpn, &qp->rsc);
		if (err) {
			ibv_cmd_destroy_qp(&qp->verbs_qp.qp);
			goto fail;
		}
		qp->has_uidx = true;
	}
	if (ctx->tot_bfregs)
		bind_static_bf(ctx, qp, (struct mlx5_bf *)(qp + 1), bfi);
	qp->sq_signal_bits = attr->sq_sig_all ? MLX5_WQE_CTRL_CQ_UPDATE : 0;
	mlx5_qp_init_wqe_consts(qp);
	/* What this QP can really hold, as upstream reports it. */
	attr->cap.max_send_wr = sz.sq_max_post;
	attr->cap.max_inline_data = sz.sq_wqe_cnt ? (uint32_t)sz.max_inline
						  : 0;
	attr->cap.max_recv_wr = qp->rq.max_post;
	attr->cap.max_recv_sge = sz.rq_wqe_cnt ? (uint32_t)sz.rq_max_gs : 0;
	if (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) {
		mlx5_qp_set_wr_ops(qp);
		mlx5_qp_set_dv_wr_ops(qp);
		if (qp->dci)
			mlx5_dc_set_wr_ops(qp);
	}
	return qp;
fail:
	free_qp(ctx, qp);
	errno = err;
	return NULL;
}

static const struct mlx5_qp_dv no_dv;

struct ibv_qp *mlx5_create_qp_ex(struct ibv_context *ibctx,
				 struct ibv_qp_init_attr_ex *attr)
{
	struct mlx5_qp *qp;

	if (!attr) {
		errno = EINVAL;
		return NULL;
	}
	if (attr->qp_type == IBV_QPT_XRC_RECV)
		return mlx5_create_xrc_tgt(ibctx, attr);
	qp = create_qp(ibctx, attr, &no_dv);
	return qp ? &qp->verbs_qp.qp : NULL;
}

struct ibv_qp *mlx5_create_qp_dv(struct ibv_context *ibctx,
				 struct ibv_qp_init_attr_ex *attr,
				 const struct mlx5_qp_dv *dv)
{
	struct mlx5_qp *qp = create_qp(ibctx, attr, dv);

	return qp ? &qp->verbs_qp.qp : NULL;
}

struct ibv_qp *mlx5_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *a)
{
	struct ibv_qp_init_attr_ex ex = {
		.qp_context = a->qp_context,
		.send_cq = a->send_cq,
		.recv_cq = a->recv_cq,
		.srq = a->srq,
		.cap = a->cap,
		.qp_type = a->qp_type,
		.sq_sig_all = a->sq_sig_all,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = pd,
	};
	struct mlx5_qp *qp = create_qp(pd->context, &ex, &no_dv);

	if (!qp)
		return NULL;
	a->cap = ex.cap;
	return &qp->verbs_qp.qp;
}

/* Forget everything queued: CQEs, indices, doorbell record. */
static void reset_qp(struct mlx5_qp *qp)
{
	struct ibv_qp *ibqp = &qp->verbs_qp.qp;
	struct mlx5_srq *srq = ibqp->srq ? to_msrq(ibqp->srq) : NULL;

	mlx5_cq_clean(to_mcq(ibqp->recv_cq), qp->rsc.rsn, srq);
	if (ibqp->send_cq != ibqp->recv_cq)
		mlx5_cq_clean(to_mcq(ibqp->send_cq), qp->rsc.rsn, NULL);
	qp->sq.head = qp->sq.tail = qp->sq.cur_post = 0;
	qp->rq.head = qp->rq.tail = qp->rq.cur_post = 0;
	qp->db[MLX5_RCV_DBR] = 0;
	qp->db[MLX5_SND_DBR] = 0;
	qp->sq.qp_state_max_gs = -1;
	qp->rq.qp_state_max_gs = -1;
	if (qp->verbs_qp.comp_mask & VERBS_QP_EX)
		mlx5_qp_set_wr_complete(qp, false);
}

/* An out-of-order receive QP says so as it leaves RESET for INIT. */
uint32_t mlx5_modify_qp_comp_mask(const struct mlx5_qp *qp,
				  const struct ibv_qp_attr *attr, int attr_mask)
{
	if (qp->ooo_dp && (attr_mask & IBV_QP_STATE) &&
	    attr->qp_state == IBV_QPS_INIT &&
	    qp->verbs_qp.qp.state == IBV_QPS_RESET)
		return RDMA_DM_MLX5_MODIFY_QP_OOO_DP;
	return 0;
}

int mlx5_modify_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr,
		   int attr_mask)
{
	struct mlx5_qp *qp = to_mqp(ibqp);
	int err;

	struct mlx5_ib_modify_qp req = {};
	struct ibv_udata udata = {.in = &req, .in_len = sizeof(req)};

	if (qp->dct)
		return mlx5_dc_modify_dct(qp, attr, attr_mask);
	req.comp_mask = mlx5_modify_qp_comp_mask(qp, attr, attr_mask);
	err = ibv_cmd_modify_qp(ibqp, attr, attr_mask,
				req.comp_mask ? &udata : NULL);
	/* a target QP has no queues of ours to reset or open */
	if (err || !(attr_mask & IBV_QP_STATE) ||
	    qp->qp_type == IBV_QPT_XRC_RECV)
		return err;
	switch (attr->qp_state) {
	case IBV_QPS_RESET:
		reset_qp(qp);
		break;
	case IBV_QPS_INIT:
		qp->rq.qp_state_max_gs = qp->rq.max_gs;
		break;
	case IBV_QPS_RTS:
		qp->sq.qp_state_max_gs = qp->sq.max_gs;
		if (qp->verbs_qp.comp_mask & VERBS_QP_EX)
			mlx5_qp_set_wr_complete(qp, true);
		break;
	default:
		break;
	}
	return 0;
}

int mlx5_query_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr,
		  int attr_mask, struct ibv_qp_init_attr *init_attr)
{
	struct mlx5_qp *qp = to_mqp(ibqp);
	int err = ibv_cmd_query_qp(ibqp, attr, attr_mask, init_attr);

	if (err)
		return err;
	init_attr->cap.max_send_wr = qp->sq.max_post;
	init_attr->cap.max_send_sge = qp->sq.wqe_cnt ? (uint32_t)qp->sq.max_gs
						     : 0;
	init_attr->cap.max_inline_data =
		qp->sq.wqe_cnt ? (uint32_t)qp->max_inline_data : 0;
	init_attr->cap.max_recv_wr = qp->rq.max_post;
	init_attr->cap.max_recv_sge = qp->rq.wqe_cnt ? (uint32_t)qp->rq.max_gs
						     : 0;
	attr->cap = init_attr->cap;
	return 0;
}

int mlx5_destroy_qp(struct ibv_qp *ibqp)
{
	struct mlx5_context *ctx = to_mctx(ibqp->context);
	struct mlx5_qp *qp = to_mqp(ibqp);
	struct mlx5_srq *srq = ibqp->srq ? to_msrq(ibqp->srq) : NULL;
	int err;

	if (qp->qp_type == IBV_QPT_XRC_RECV)
		return mlx5_destroy_xrc_tgt(qp);
	err = ibv_cmd_destroy_qp(ibqp);
	if (err)
		return err;
	/* No CQE of a destroyed QP may reach the application. */
	mlx5_cq_clean(to_mcq(ibqp->recv_cq), qp->rsc.rsn, srq);
	if (ibqp->send_cq != ibqp->recv_cq)
		mlx5_cq_clean(to_mcq(ibqp->send_cq), qp->rsc.rsn, NULL);
	free_qp(ctx, qp);
	return 0;
}
