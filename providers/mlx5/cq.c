// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * CQ life cycle: the ring of 64-byte CQEs and its doorbell record handed to
 * the kernel in the mlx5 udata, resize with the copy of pending CQEs,
 * arming through the doorbell record and the UAR, destroy.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "datapath.h"
#include "doorbell.h"

#define MLX5_MAX_CQ_ENTRIES (1u << 24)

static uint32_t roundup_pow2(uint32_t n)
{
	return n <= 1 ? 1 : 1u << (32 - __builtin_clz(n - 1));
}

/* MLX5_CQE_SIZE selects 64 (default) or 128-byte entries. */
int mlx5_env_cqe_size(uint32_t *sz)
{
	const char *s = getenv("MLX5_CQE_SIZE");

	*sz = s ? (uint32_t)atoi(s) : 64;
	return *sz == 64 || *sz == 128 ? 0 : EINVAL;
}

static int alloc_ring(struct mlx5_context *ctx, struct mlx5_cq *cq,
		      struct mlx5_buf *buf, uint32_t ncqe, uint32_t cqe_sz)
{
	struct mlx5_ring_req req = {
		.pd = cq->parent ? &cq->parent->mpd.ibv_pd : NULL,
		.resource_type = MLX5DV_RES_TYPE_CQ,
		.alignment = ctx->page_size,
		.component = "CQ",
		.legacy_huge = "HUGE_CQ",
	};
	int err = mlx5_alloc_ring(ctx, buf, (size_t)ncqe * cqe_sz, &req);

	if (!err)
		mlx5_cq_init_buf(buf, ncqe, cqe_sz);
	return err;
}

static void free_cq(struct mlx5_context *ctx, struct mlx5_cq *cq)
{
	mlx5_free_buf(&cq->bufs[0]);
	mlx5_free_buf(&cq->bufs[1]);
	if (cq->dbrec)
		mlx5_free_dbrec_pd(ctx, cq->dbrec, cq->dbrec_owner);
	if (cq->parent)
		mlx5_put(&cq->parent->mpd.refcount);
	pthread_spin_destroy(&cq->lock);
	free(cq);
}

#define TS_WC_FLAGS                                                            \
	(IBV_WC_EX_WITH_COMPLETION_TIMESTAMP |                                 \
	 IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK)

static const uint64_t supported_wc_flags =
	IBV_WC_STANDARD_FLAGS | TS_WC_FLAGS | IBV_WC_EX_WITH_CVLAN |
	IBV_WC_EX_WITH_FLOW_TAG | IBV_WC_EX_WITH_TM_INFO;

static int check_attr(const struct ibv_cq_init_attr_ex *attr)
{
	if (!attr->cqe || attr->cqe > INT_MAX)
		return EINVAL;
	if (attr->comp_mask & ~(uint32_t)(IBV_CQ_INIT_ATTR_MASK_FLAGS |
					  IBV_CQ_INIT_ATTR_MASK_PD))
		return EINVAL;
	if ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) &&
	    (attr->flags & ~(uint32_t)(IBV_CREATE_CQ_ATTR_SINGLE_THREADED |
				       IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN)))
		return EINVAL;
	if (attr->wc_flags & ~supported_wc_flags)
		return EOPNOTSUPP;
	/* A CQ can only belong to a parent domain, not to a plain PD. */
	if ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_PD) &&
	    (!attr->parent_domain || !to_mparent_domain(attr->parent_domain)))
		return EINVAL;
	return 0;
}

/*
 * A wall-clock stamp comes from the HCA when the kernel offers real-time
 * CQE stamps (and the free-running one is not also wanted); else the
 * free-running one is converted through the clock-info page.
 */
static int wallclock_mode(struct mlx5_context *ctx, struct mlx5_cq *cq,
			  struct mlx5_ib_create_cq *req)
{
	if (!(cq->wc_flags & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK))
		return 0;
	if ((ctx->resp_comp_mask &
	     MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_REAL_TIME_TS) &&
	    !(cq->wc_flags & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP)) {
		req->flags |= MLX5_IB_CREATE_CQ_FLAGS_REAL_TIME_TS;
		return 0;
	}
	if (!ctx->clock_info.addr)
		return EOPNOTSUPP;
	cq->clock_update = true;
	return 0;
}

struct mlx5_cq *mlx5_create_cq_common(struct ibv_context *ibctx,
				      const struct ibv_cq_init_attr_ex *attr,
				      const struct mlx5_cq_dv *dv)
{
	struct mlx5_context *ctx = to_mctx(ibctx);
	struct mlx5_ib_create_cq req = {};
	struct mlx5_ib_create_cq_resp resp = {};
	struct ibv_udata udata = { .in = &req, .in_len = sizeof(req),
				   .out = &resp, .out_len = sizeof(resp) };
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, 2);
	struct rdma_dm_buffer_desc umem[2];
	uint32_t flags = 0, ncqe, sz;
	struct mlx5_cq *cq;
	int err;

	err = check_attr(attr);
	sz = dv ? dv->cqe_size : 0;
	if (!err && !sz)
		err = mlx5_env_cqe_size(&sz);
	ncqe = roundup_pow2(attr->cqe + 1);
	if (!err && ncqe > MLX5_MAX_CQ_ENTRIES)
		err = EINVAL;
	if (!err && !mlx5_cq_uar(ctx))
		err = EOPNOTSUPP;
	if (err) {
		errno = err;
		return NULL;
	}
	cq = calloc(1, sizeof(*cq));
	if (!cq) {
		errno = ENOMEM;
		return NULL;
	}
	pthread_spin_init(&cq->lock, PTHREAD_PROCESS_PRIVATE);
	cq->ncqe = ncqe;
	cq->cqe_sz = sz;
	cq->cqe_version = ctx->cqe_version;
	cq->wc_flags = attr->wc_flags;
	cq->rsc = &ctx->dp->rsc;
	cq->uar = mlx5_cq_uar(ctx);
	if (attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) {
		cq->single_threaded =
			attr->flags & IBV_CREATE_CQ_ATTR_SINGLE_THREADED;
		if (attr->flags & IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN)
			flags |= IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN;
	}
	if (attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_PD) {
		/* Held while the CQ lives; its thread domain means no lock. */
		cq->parent = to_mparent_domain(attr->parent_domain);
		mlx5_get(&cq->parent->mpd.refcount);
		if (cq->parent->mtd)
			cq->single_threaded = true;
	}
	if (attr->wc_flags & TS_WC_FLAGS)
		flags |= IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION;
	err = wallclock_mode(ctx, cq, &req);
	if (err)
		goto fail;
	err = alloc_ring(ctx, cq, &cq->bufs[0], ncqe, sz);
	if (err)
		goto fail;
	cq->active = &cq->bufs[0];
	cq->dbrec = mlx5_alloc_dbrec_pd(ctx,
					cq->parent ? &cq->parent->mpd.ibv_pd :
						     NULL,
					&cq->dbrec_owner);
	if (!cq->dbrec) {
		err = ENOMEM;
		goto fail;
	}

	req.buf_addr = (uintptr_t)cq->active->addr;
	req.db_addr = (uintptr_t)cq->dbrec;
	req.cqe_size = sz;
	if (ctx->nc_uar.addr) {
		req.flags |= MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX;
		req.uar_page_index = (uint16_t)ctx->nc_uar_page_id;
	}
	if (dv) {
		req.cqe_comp_en = dv->comp_en;
		req.cqe_comp_res_format = dv->comp_format;
		req.flags |= dv->flags;
	}
	/* A CC parent domain's: the kernel takes them by fd (ioctl only). */
	mlx5_add_buf_umem(ctx, cmd, cq->active, cq->dbrec,
			  RDMA_DM_ATTR_CREATE_CQ_BUF_UMEM,
			  RDMA_DM_MLX5_ATTR_CREATE_CQ_DBR_BUF_UMEM, umem);
	{
		struct ibv_cq_init_attr_ex kattr = *attr;

		/* The kernel is told the ring size minus one, as upstream. */
		kattr.cqe = ncqe - 1;
		err = ibv_cmd_create_cq_ex(ibctx, &kattr, flags, &cq->verbs_cq,
					   &udata, cmd);
	}
	if (err)
		goto fail;
	cq->cqn = resp.cqn;
	return cq;
fail:
	free_cq(ctx, cq);
	errno = err;
	return NULL;
}

struct ibv_cq *mlx5_create_cq(struct ibv_context *ibctx, int cqe,
			      struct ibv_comp_channel *channel,
			      int comp_vector)
{
	struct ibv_cq_init_attr_ex attr = {
		.cqe = cqe > 0 ? (uint32_t)cqe : 0,
		.channel = channel,
		.comp_vector = comp_vector > 0 ? (uint32_t)comp_vector : 0,
		.wc_flags = IBV_WC_STANDARD_FLAGS,
	};
	struct mlx5_cq *cq;

	if (cqe <= 0 || comp_vector < 0) {
		errno = EINVAL;
		return NULL;
	}
	cq = mlx5_create_cq_common(ibctx, &attr, NULL);
	return cq ? &cq->verbs_cq.cq : NULL;
}

struct ibv_cq_ex *mlx5_create_cq_ex(struct ibv_context *ibctx,
				    struct ibv_cq_init_attr_ex *attr)
{
	struct mlx5_cq *cq;

	if (!attr) {
		errno = EINVAL;
		return NULL;
	}
	cq = mlx5_create_cq_common(ibctx, attr, NULL);
	if (!cq)
		return NULL;
	mlx5_cq_ex_set_ops(cq);
	return &cq->verbs_cq.cq_ex;
}

int mlx5_destroy_cq(struct ibv_cq *ibcq)
{
	struct mlx5_cq *cq = to_mcq(ibcq);
	int err = ibv_cmd_destroy_cq(ibcq);

	if (err)
		return err;
	free_cq(to_mctx(ibcq->context), cq);
	return 0;
}

/*
 * After the kernel switched the HCA to the new ring, the old one holds the
 * CQEs not yet polled and then a RESIZE_CQ CQE. Those CQEs move one slot up
 * in the new ring (the resize CQE's slot is consumed), keeping their
 * absolute index, so the HCA's next CQE follows them.
 */
static void copy_pending(struct mlx5_cq *cq, struct mlx5_buf *nbuf,
			 uint32_t nncqe)
{
	uint32_t i = cq->cons_index, off = cq->cqe_sz - 64;
	struct mlx5_cqe64 *src, *dst;
	uint8_t own;

	while ((src = mlx5_sw_cqe(cq, i))) {
		if (mlx5dv_get_cqe_opcode(src) == MLX5_CQE_RESIZE_CQ) {
			cq->cons_index++;
			return;
		}
		dst = (struct mlx5_cqe64 *)((uint8_t *)nbuf->addr +
					    ((i + 1) & (nncqe - 1)) *
						    cq->cqe_sz + off);
		memcpy((uint8_t *)dst - off, (uint8_t *)src - off,
		       cq->cqe_sz);
		own = !!((i + 1) & nncqe);
		mlx5dv_set_cqe_owner(dst, own);
		i++;
	}
	/* No resize CQE: the device switched without one; nothing moved. */
}

int mlx5_resize_cq(struct ibv_cq *ibcq, int cqe)
{
	struct mlx5_context *ctx = to_mctx(ibcq->context);
	struct mlx5_cq *cq = to_mcq(ibcq);
	struct mlx5_ib_resize_cq req = {};
	struct ibv_udata udata = { .in = &req, .in_len = sizeof(req) };
	struct mlx5_buf *nbuf;
	uint32_t nncqe;
	int err;

	if (cqe < 0 || (uint64_t)cqe * cq->cqe_sz > INT_MAX)
		return EINVAL;
	/* RESIZE_CQ is a write command: it cannot name a dma-buf. */
	if (cq->active->type == MLX5_BUF_DMABUF)
		return EOPNOTSUPP;
	nncqe = roundup_pow2((uint32_t)cqe + 1);
	if (nncqe > MLX5_MAX_CQ_ENTRIES)
		return EINVAL;
	pthread_spin_lock(&cq->lock);
	if (nncqe == cq->ncqe) {
		pthread_spin_unlock(&cq->lock);
		return 0;
	}
	nbuf = cq->active == &cq->bufs[0] ? &cq->bufs[1] : &cq->bufs[0];
	err = alloc_ring(ctx, cq, nbuf, nncqe, cq->cqe_sz);
	if (err)
		goto out;
	req.buf_addr = (uintptr_t)nbuf->addr;
	req.cqe_size = (uint16_t)cq->cqe_sz;
	err = ibv_cmd_resize_cq(ibcq, (int)nncqe - 1, &udata);
	if (err) {
		mlx5_free_buf(nbuf);
		goto out;
	}
	copy_pending(cq, nbuf, nncqe);
	mlx5_free_buf(cq->active);
	cq->active = nbuf;
	cq->ncqe = nncqe;
	ibcq->cqe = (int)nncqe - 1;
	mlx5_set_dbrec(&cq->dbrec[0], cq->cons_index & 0xffffff);
out:
	pthread_spin_unlock(&cq->lock);
	return err;
}

/*
 * The arm word goes to the doorbell record first, then the same value with
 * the CQ number to the UAR: the HCA compares the consumer index in it with
 * its producer index and raises an event on the next (solicited) CQE.
 */
int mlx5_arm_cq(struct ibv_cq *ibcq, int solicited_only)
{
	struct mlx5_cq *cq = to_mcq(ibcq);
	uint32_t sn = cq->arm_sn & 3, ci = cq->cons_index & 0xffffff;
	uint32_t cmd = solicited_only ? MLX5_CQ_DB_REQ_NOT_SOL
				      : MLX5_CQ_DB_REQ_NOT;
	uint32_t word = sn << 28 | cmd | ci;
	uint64_t db;

	mlx5_set_dbrec(&cq->dbrec[1], word);
	mmio_wc_start();
	db = (uint64_t)htobe32(word) | (uint64_t)htobe32(cq->cqn) << 32;
	mmio_write64_be(cq->uar + MLX5_CQ_DOORBELL, db);
	mmio_flush_writes();
	return 0;
}

void mlx5_cq_event(struct ibv_cq *ibcq)
{
	to_mcq(ibcq)->arm_sn++;
}
