// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5 user-hardware data of CQ, QP and SRQ creation and of CQ resize,
 * checked as mlx5_ib checks it (sizes, flags, reserved fields, UAR mode,
 * user index), and the hand-over of the user's rings and doorbell records
 * to the engine.
 */
#include "hca.h"

#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MLX5_SIM_LOG_MAX_CQ_SZ 22
#define MLX5_SIM_CQ_FLAGS                                                      \
	(MLX5_IB_CREATE_CQ_FLAGS_CQE_128B_PAD |                                \
	 MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX |                              \
	 MLX5_IB_CREATE_CQ_FLAGS_REAL_TIME_TS)
#define MLX5_SIM_QP_FLAGS                                                      \
	(MLX5_QP_FLAG_SIGNATURE | MLX5_QP_FLAG_SCATTER_CQE |                   \
	 MLX5_QP_FLAG_BFREG_INDEX | MLX5_QP_FLAG_ALLOW_SCATTER_CQE |           \
	 MLX5_QP_FLAG_UAR_PAGE_INDEX)

/* The device an AV leads to: by DLID on InfiniBand, by the destination
 * MAC the kernel resolved on RoCE (the world's netdevs are one host). */
unsigned int mlx5_av_dev(unsigned int dev, const struct sim_ah_attr *ah)
{
	struct sim_netdev *nd;

	if (!sim_port_is_eth(sim.sh, dev))
		return ah->dlid ? ah->dlid - 1u : dev;
	nd = sim_netdev_by_mac(sim.sh, ah->dmac);
	if (nd)
		return nd->dev;
	/* lo's all-zero MAC loops back; a MAC no port has is lost */
	return memcmp(ah->dmac, "\0\0\0\0\0\0", 6) ? SIM_NO_DEVICE : dev;
}

static int is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

static uint32_t roundup_pow2(uint32_t v)
{
	uint32_t r = 1;

	while (r < v)
		r <<= 1;
	return r;
}

/* ilog2 as mlx5_ib applies it to max_rd_atomic (0 and 1 give 0) */
static uint8_t log2_floor(uint32_t v)
{
	return v > 1 ? (uint8_t)(31 - __builtin_clz(v)) : 0;
}

static int nonzero(const void *p, size_t from, size_t to)
{
	const uint8_t *b = p;

	for (; from < to; from++)
		if (b[from])
			return 1;
	return 0;
}

/*
 * Where the HCA finds a queue: the ring and doorbell record the create
 * named by descriptor (BUF_UMEM: a dma-buf's own pages, whatever the UHW
 * addresses say), else those addresses, pinned. @need: the ring's bytes.
 * The doorbell record's descriptor, driver attribute @dbr_attr, goes to
 * @dbr (the core releases it with the object).
 */
static int queue_mem(struct sim_call *c, uint16_t dbr_attr,
		     struct sim_umem *ring, struct sim_umem *dbr, uint64_t va,
		     uint64_t db_va, uint64_t need, uint8_t **buf,
		     volatile uint32_t **db)
{
	int ret = sim_umem_get(c, dbr_attr, dbr);

	if (ret)
		return ret;
	if ((ring->present && ring->len < need) ||
	    (dbr->present && dbr->len < 8))
		return -EINVAL;
	/* The kernel pins user rings (sim_pin_user: EFAULT, EOPNOTSUPP). */
	if (!ring->present && need)
		ret = sim_pin_user(va, need);
	if (!ret && !dbr->present)
		ret = sim_pin_user(db_va, 8);
	if (ret)
		return ret;
	*buf = ring->present ? sim_umem_bytes(ring) : (uint8_t *)(uintptr_t)va;
	*db = dbr->present ? (volatile uint32_t *)sim_umem_bytes(dbr)
			   : (volatile uint32_t *)(uintptr_t)db_va;
	return *buf && *db ? 0 : -EFAULT;
}

static uint32_t new_number(void)
{
	uint32_t n;

	sim_shared_lock(sim.sh);
	n = (uint32_t)(sim.sh->next_id++ & 0xffffff);
	sim_shared_unlock(sim.sh);
	return n ? n : 1;
}

int mlx5_sim_create_cq(struct sim_uvfile *uv, struct sim_cq *gcq,
		       const void *in, size_t in_len, void *out, size_t out_len)
{
	struct mlx5_ib_create_cq req = {};
	struct mlx5_ib_create_cq_resp resp = {};
	uint32_t entries = gcq->cqe;
	volatile uint32_t *dbrec;
	struct hca_cq *cq;
	uint8_t *buf;
	int ret;

	if (entries > 1u << MLX5_SIM_LOG_MAX_CQ_SZ)
		return -EINVAL;
	entries = roundup_pow2(entries + 1);
	if (entries > 1u << MLX5_SIM_LOG_MAX_CQ_SZ)
		return -EINVAL;
	if (in_len < offsetof(struct mlx5_ib_create_cq, flags))
		return -EINVAL;
	memcpy(&req, in, in_len < sizeof(req) ? in_len : sizeof(req));
	if ((req.flags & ~MLX5_SIM_CQ_FLAGS) ||
	    (req.cqe_size != 64 && req.cqe_size != 128) || req.reserved0 ||
	    req.reserved1)
		return -EINVAL;
	if (uv->uar_dyn &&
	    !(req.flags & MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX))
		return -EINVAL;
	if (req.cqe_comp_en ||
	    (req.flags & MLX5_IB_CREATE_CQ_FLAGS_CQE_128B_PAD))
		return -EOPNOTSUPP; /* no CQE compression, no padding */
	ret = queue_mem(gcq->call, RDMA_DM_MLX5_ATTR_CREATE_CQ_DBR_BUF_UMEM,
			&gcq->buf_umem, &gcq->dbr_umem, req.buf_addr,
			req.db_addr, (uint64_t)entries * req.cqe_size, &buf,
			&dbrec);
	if (ret)
		return ret;
	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return -ENOMEM;
	cq->obj = &gcq->obj;
	cq->uv = uv;
	cq->cqn = new_number();
	cq->ncqe = entries;
	cq->cqe_size = req.cqe_size;
	cq->ignore_overrun = !!(gcq->flags & IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN);
	cq->buf = buf;
	cq->dbrec = dbrec;
	/* no arm yet: a value no arm doorbell can carry */
	cq->dbrec[1] = htobe32(HCA_CQ_ARM_IDLE);
	gcq->cqe = entries - 1;
	gcq->obj.drv = cq;
	cq->next = hca_cqs;
	hca_cqs = cq;
	resp.cqn = cq->cqn;
	hca_trace_cq_ring(cq);
	memcpy(out, &resp, out_len < sizeof(resp) ? out_len : sizeof(resp));
	return 0;
}

void mlx5_sim_destroy_cq(struct sim_uvfile *uv, struct sim_cq *gcq)
{
	struct hca_cq *cq = gcq->obj.drv, **p;

	(void)uv;
	for (p = &hca_cqs; *p; p = &(*p)->next)
		if (*p == cq) {
			*p = cq->next;
			break;
		}
	free(cq);
	gcq->obj.drv = NULL;
}

/*
 * mlx5_ib_resize_cq on a user CQ (the core already refused cqe < 1 and
 * cqe > max_cqe): the same ring size is a no-op before the udata is read;
 * then the udata (reserved fields, the new ring pinned for entries *
 * cqe_size bytes) and the firmware's MODIFY_CQ, which fails with
 * BAD_SIZE_OUTS_CQES (EINVAL) when the new ring cannot hold the CQEs not
 * yet consumed. The CQE size stays what it was at create: a request for
 * another one is EINVAL, as mlx5_ib says for its own CQs.
 */
int mlx5_sim_resize_cq(struct sim_uvfile *uv, struct sim_cq *gcq, uint32_t cqe,
		       const void *in, size_t in_len, void *out, size_t out_len)
{
	struct hca_cq *cq = gcq->obj.drv;
	struct mlx5_ib_resize_cq req;
	uint32_t entries = roundup_pow2(cqe + 1), set_ci;
	int ret;

	(void)uv, (void)out, (void)out_len;
	if (entries > (1u << MLX5_SIM_LOG_MAX_CQ_SZ) + 1)
		return -EINVAL;
	if (entries == gcq->cqe + 1)
		return 0;
	if (in_len < sizeof(req))
		return -EINVAL;
	memcpy(&req, in, sizeof(req));
	if (req.reserved0 || req.reserved1 || !req.cqe_size)
		return -EINVAL;
	ret = sim_pin_user(req.buf_addr, (uint64_t)entries * req.cqe_size);
	if (ret)
		return ret;
	if (req.cqe_size != cq->cqe_size)
		return -EINVAL;
	set_ci = be32toh(cq->dbrec[0]) & 0xffffff;
	if (((cq->pi - set_ci) & 0xffffff) > entries)
		return -EINVAL;
	hca_cq_resize(cq, (uint8_t *)(uintptr_t)req.buf_addr, entries);
	gcq->cqe = entries - 1;
	return 0;
}

static struct hca_cq *hcq(struct sim_cq *c)
{
	return c ? c->obj.drv : NULL;
}

static int qp_udata(struct sim_uvfile *uv, const struct sim_qp *gqp,
		    const struct mlx5_ib_create_qp *req, size_t in_len)
{
	uint32_t cqe_v1 =
		((const struct mlx5_ib_alloc_ucontext_resp *)uv->ctx_resp)
			->cqe_version;
	int no_rq = gqp->srq || !gqp->attr.cap.max_recv_wr;

	if (in_len < offsetof(struct mlx5_ib_create_qp, ece_options))
		return -EINVAL;
	if (req->flags & ~MLX5_SIM_QP_FLAGS)
		return -EINVAL;
	if ((req->flags & MLX5_QP_FLAG_UAR_PAGE_INDEX) &&
	    (req->flags & MLX5_QP_FLAG_BFREG_INDEX))
		return -EINVAL;
	if (uv->uar_dyn && !(req->flags & (MLX5_QP_FLAG_UAR_PAGE_INDEX |
					   MLX5_QP_FLAG_BFREG_INDEX)))
		return -EINVAL;
	if (cqe_v1 ? req->uidx >= 0xffffff : req->uidx != 0xffffff)
		return -EINVAL;
	if (gqp->attr.cap.max_recv_wr > 1u << MLX5_SIM_LOG_MAX_QP_SZ)
		return -EINVAL;
	if (no_rq ? (req->rq_wqe_count || req->rq_wqe_shift)
		  : (!is_pow2(req->rq_wqe_count) || req->rq_wqe_shift < 4 ||
		     req->rq_wqe_shift > 9 ||
		     req->rq_wqe_count < gqp->attr.cap.max_recv_wr))
		return -EINVAL;
	if (req->sq_wqe_count &&
	    (!is_pow2(req->sq_wqe_count) ||
	     req->sq_wqe_count > 1u << MLX5_SIM_LOG_MAX_QP_SZ))
		return -EINVAL;
	return 0;
}

int mlx5_sim_qp_attach(struct sim_uvfile *uv, struct sim_qp *gqp,
		       struct hca_qp *qp)
{
	int ret = hca_fabric_attach(uv->dev, gqp->qpn);

	if (ret)
		return ret;
	qp->obj = &gqp->obj;
	qp->uv = uv;
	qp->dev = uv->dev;
	qp->qpn = gqp->qpn;
	gqp->obj.drv = qp;
	qp->next = hca_qps;
	hca_qps = qp;
	return 0;
}

int mlx5_sim_create_qp(struct sim_uvfile *uv, struct sim_qp *gqp,
		       const void *in, size_t in_len, void *out, size_t out_len)
{
	struct mlx5_ib_create_qp req = {};
	struct mlx5_ib_create_qp_resp resp = {};
	uint64_t rq_bytes, len;
	volatile uint32_t *dbrec;
	struct hca_qp *qp;
	uint8_t *buf;
	int ret, dc;

	if (gqp->qp_type == IB_QPT_XRC_TGT)
		return mlx5_sim_create_xrc_tgt(uv, gqp);
	if (gqp->qp_type != IB_QPT_RC && gqp->qp_type != IB_QPT_UC &&
	    gqp->qp_type != IB_QPT_UD && gqp->qp_type != IB_QPT_XRC_INI &&
	    gqp->qp_type != IB_QPT_DRIVER)
		return -EOPNOTSUPP;
	memcpy(&req, in, in_len < sizeof(req) ? in_len : sizeof(req));
	if (in_len > offsetof(struct mlx5_ib_create_qp, reserved) &&
	    nonzero(in, offsetof(struct mlx5_ib_create_qp, reserved), in_len))
		return -EINVAL;
	ret = mlx5_sim_dc_flags(gqp, &req.flags, &dc);
	if (!ret && dc == MLX5_QP_FLAG_TYPE_DCT)
		return mlx5_sim_create_dct(uv, gqp, &req);
	if (!ret)
		ret = qp_udata(uv, gqp, &req, in_len);
	if (ret)
		return ret;
	/* mlx5_ib reports (QUERY_QP) the RQ it was given, not the request. */
	gqp->attr.cap.max_recv_wr = req.rq_wqe_count;
	rq_bytes = (uint64_t)req.rq_wqe_count << req.rq_wqe_shift;
	len = rq_bytes + ((uint64_t)req.sq_wqe_count << 6);
	ret = queue_mem(gqp->call, RDMA_DM_MLX5_ATTR_CREATE_QP_DBR_BUF_UMEM,
			&gqp->buf_umem, &gqp->dbr_umem, req.buf_addr,
			req.db_addr, len, &buf, &dbrec);
	if (ret)
		return ret;
	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return -ENOMEM;
	qp->ring_size = req.sq_wqe_count;
	if (qp->ring_size) {
		qp->ring = calloc(qp->ring_size, sizeof(*qp->ring));
		if (!qp->ring) {
			free(qp);
			return -ENOMEM;
		}
	}
	ret = mlx5_sim_qp_attach(uv, gqp, qp);
	if (ret) {
		free(qp->ring);
		free(qp);
		return ret;
	}
	qp->type = gqp->qp_type;
	if (qp->type == IB_QPT_XRC_INI) {
		qp->type = IB_QPT_RC;
		qp->xrc = HCA_XRC_INI;
	}
	if (dc) {
		qp->type = IB_QPT_RC; /* a DCI requests as RC */
		qp->dci = 1;
	}
	qp->uidx = req.uidx;
	qp->pd = gqp->pd;
	qp->scq = hcq(gqp->send_cq);
	qp->rcq = hcq(gqp->recv_cq);
	qp->srq = gqp->srq ? gqp->srq->obj.drv : NULL;
	qp->buf = buf;
	qp->dbrec = dbrec;
	qp->rq_wqe_cnt = req.rq_wqe_count;
	qp->rq_wqe_shift = req.rq_wqe_shift;
	qp->sq_wqe_cnt = req.sq_wqe_count;
	qp->sq_start = qp->buf + rq_bytes;
	hca_trace_rings(qp, &gqp->attr.cap);
	/* static UARs: a medium (shared) bfreg; dynamic: the user's page */
	resp.bfreg_index = uv->uar_dyn ? 0xffffffffu : 1;
	memcpy(out, &resp, out_len < sizeof(resp) ? out_len : sizeof(resp));
	hca_engine_start();
	return 0;
}

void mlx5_sim_destroy_qp(struct sim_uvfile *uv, struct sim_qp *gqp)
{
	struct hca_qp *qp = gqp->obj.drv, **p;
	uint32_t i;

	(void)uv;
	if (!qp)
		return;
	if (qp->dct)
		mlx5_sim_destroy_dct(qp);
	for (p = &hca_qps; *p; p = &(*p)->next)
		if (*p == qp) {
			*p = qp->next;
			/* not a fork child's copy of the parent's QP */
			if (!qp->dct)
				hca_fabric_detach(qp->dev, qp->qpn);
			break;
		}
	for (i = 0; i < qp->ring_size; i++)
		free(qp->ring[i].inline_buf);
	free(qp->ring);
	free(qp);
	gqp->obj.drv = NULL;
}

void hca_qp_set_state(struct hca_qp *qp, uint32_t state)
{
	qp->state = state;
	if (qp->obj && !qp->dct_parent) /* a DCT's connection: not the DCT */
		sim_qp(qp->obj)->attr.qp_state = (uint8_t)state;
}

int mlx5_sim_modify_qp(struct sim_uvfile *uv, struct sim_qp *gqp,
		       const struct sim_qp_attr *a, uint32_t mask,
		       const void *in, size_t in_len, void *out, size_t out_len)
{
	struct hca_qp *qp = gqp->obj.drv;
	int ret;

	(void)uv, (void)in, (void)in_len;
	if (!qp)
		return 0;
	if (gqp->qp_type == IB_QPT_DRIVER) {
		ret = mlx5_sim_dc_modify(gqp, a, mask, out, out_len);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	if (mask & IB_QP_ACCESS_FLAGS)
		qp->access = a->qp_access_flags;
	if (mask & IB_QP_QKEY)
		qp->qkey = a->qkey;
	if (mask & IB_QP_AV)
		qp->dlid_dev = mlx5_av_dev(qp->dev, &a->ah);
	if (mask & IB_QP_TIMEOUT)
		qp->timeout = a->timeout;
	if (mask & IB_QP_RETRY_CNT)
		qp->retry_cnt = a->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		qp->rnr_retry = a->rnr_retry;
	if (mask & IB_QP_MIN_RNR_TIMER)
		qp->min_rnr_timer = a->min_rnr_timer;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		qp->log_rd_atom = log2_floor(a->max_rd_atomic);
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		qp->dest_rd_atom = a->max_dest_rd_atomic;
	if (mask & IB_QP_RQ_PSN)
		qp->epsn = a->rq_psn & 0xffffff;
	if (mask & IB_QP_SQ_PSN)
		qp->npsn = a->sq_psn & 0xffffff;
	if (mask & IB_QP_DEST_QPN)
		qp->dest_qpn = a->dest_qp_num;
	if (!(mask & IB_QP_STATE))
		return 0;
	if (a->qp_state == IB_QPS_RESET)
		hca_qp_reset(qp);
	if (a->qp_state == IB_QPS_ERR)
		hca_qp_to_err(qp);
	qp->state = a->qp_state;
	return 0;
}

int mlx5_sim_create_srq(struct sim_uvfile *uv, struct sim_srq *gsrq,
			const void *in, size_t in_len, void *out,
			size_t out_len)
{
	struct mlx5_ib_create_srq req = {};
	struct mlx5_ib_create_srq_resp resp = {};
	uint32_t max = roundup_pow2(gsrq->max_wr + 1), size;
	struct hca_srq *srq;
	int ret;

	if (in_len < offsetof(struct mlx5_ib_create_srq, uidx))
		return -EINVAL;
	memcpy(&req, in, in_len < sizeof(req) ? in_len : sizeof(req));
	if (req.reserved0 || req.reserved1 ||
	    (in_len > sizeof(req) && nonzero(in, sizeof(req), in_len)))
		return -EINVAL;
	if (gsrq->max_wr >= 1u << MLX5_SIM_LOG_MAX_QP_SZ ||
	    gsrq->max_sge > 512 / 16)
		return -EINVAL;
	size = 16 + 16 * gsrq->max_sge;
	size = roundup_pow2(size < 32 ? 32 : size);
	ret = sim_pin_user(req.buf_addr, (uint64_t)max * size);
	if (!ret)
		ret = sim_pin_user(req.db_addr, 4);
	if (ret)
		return ret;
	srq = calloc(1, sizeof(*srq));
	if (!srq)
		return -ENOMEM;
	srq->obj = &gsrq->obj;
	srq->uv = uv;
	if (!gsrq->srqn)
		gsrq->srqn = new_number();
	srq->srqn = gsrq->srqn;
	srq->wqe_cnt = max;
	srq->wqe_shift = (uint32_t)__builtin_ctz(size);
	srq->max_gs = (size - 16) / 16;
	srq->buf = (uint8_t *)(uintptr_t)req.buf_addr;
	srq->dbrec = (volatile uint32_t *)(uintptr_t)req.db_addr;
	srq->limit = gsrq->limit;
	srq->uidx = req.uidx;
	if (gsrq->xrcd)
		srq->xrcdn = gsrq->xrcd->xrcdn;
	if (gsrq->cq) {
		srq->cq = hcq(gsrq->cq);
		srq->pd = gsrq->pd;
		hca_xrc_srq_made(srq);
	}
	if (gsrq->srq_type == IB_UVERBS_SRQT_TM) {
		ret = mlx5_sim_tm_srq(uv->dev, gsrq, srq);
		if (ret) {
			free(srq);
			return ret;
		}
	}
	gsrq->obj.drv = srq;
	srq->next = hca_srqs;
	hca_srqs = srq;
	resp.srqn = srq->srqn;
	memcpy(out, &resp, out_len < sizeof(resp) ? out_len : sizeof(resp));
	return 0;
}

int mlx5_sim_modify_srq(struct sim_uvfile *uv, struct sim_srq *gsrq,
			uint32_t max_wr, uint32_t limit, uint32_t mask,
			const void *in, size_t in_len)
{
	struct hca_srq *srq = gsrq->obj.drv;

	(void)uv, (void)max_wr, (void)in, (void)in_len;
	if (mask & 1)
		return -EINVAL; /* mlx5 SRQs do not resize */
	if ((mask & 2) && srq) {
		if (limit >= srq->wqe_cnt)
			return -EINVAL;
		srq->limit = limit;
	}
	return 0;
}

void mlx5_sim_destroy_srq(struct sim_uvfile *uv, struct sim_srq *gsrq)
{
	struct hca_srq *srq = gsrq->obj.drv, **p;

	(void)uv;
	for (p = &hca_srqs; *p; p = &(*p)->next)
		if (*p == srq) {
			*p = srq->next;
			break;
		}
	if (srq) {
		hca_xrc_srq_gone(srq);
		hca_tm_free(srq->tm);
	}
	free(srq);
	gsrq->obj.drv = NULL;
}

/* mlx5_ib_create_ah: on RoCE the response carries the resolved MAC
 * (struct mlx5_ib_create_ah_resp: response_length, dmac). */
int mlx5_sim_create_ah(struct sim_uvfile *uv, struct sim_ah *ah,
		       const void *in, size_t in_len, void *out,
		       size_t out_len)
{
	uint8_t *o = out;
	uint32_t len = 10;

	(void)in, (void)in_len;
	if (!sim_port_is_eth(sim.sh, uv->dev))
		return 0;
	if (out_len < len)
		return -EINVAL;
	memcpy(o, &len, 4);
	memcpy(o + 4, ah->attr.dmac, 6);
	return 0;
}
