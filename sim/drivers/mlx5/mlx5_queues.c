// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5 user-hardware data of CQ, QP and SRQ creation and of CQ resize,
 * checked as mlx5_ib checks it (sizes, flags, reserved fields, UAR mode,
 * user index), and the hand-over of the user's rings and doorbell records
 * to the engine.
 */
#include "mlx5.h"
#include "hca_cmd.h"
#include "udp_sport.h"

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

int mlx5_sim_nonzero(const void *p, size_t from, size_t to)
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

/* The CQ's user ring, where a peer's HCA writes CQEs, pinned as DMA from
 * anywhere needs it (sim_dma_pin); the old one no longer. */
static void cq_pin(struct sim_cq *gcq, uint64_t addr, uint64_t len)
{
	if (gcq->pin_len)
		sim_dma_unpin(gcq->pin_addr, gcq->pin_len);
	if (len)
		sim_dma_pin(addr, len);
	gcq->pin_addr = addr;
	gcq->pin_len = len;
}

int mlx5_sim_create_cq(struct sim_uvfile *uv, struct sim_cq *gcq,
		       const void *in, size_t in_len, void *out, size_t out_len)
{
	struct mlx5_ib_create_cq req = {};
	struct mlx5_ib_create_cq_resp resp = {};
	struct hca_create_cq_in c = {.hdr.opcode = HCA_CMD_CREATE_CQ};
	struct hca_create_cq_out o = {};
	uint32_t entries = gcq->cqe;
	volatile uint32_t *dbrec;
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
	if (!gcq->buf_umem.present) /* where a peer's HCA writes CQEs */
		cq_pin(gcq, req.buf_addr, (uint64_t)entries * req.cqe_size);
	c.dev = uv->dev;
	c.ncqe = entries;
	c.cqe_size = req.cqe_size;
	c.ignore_overrun = !!(gcq->flags & IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN);
	c.buf = (uintptr_t)buf;
	c.dbrec = (uintptr_t)dbrec;
	ret = mlx5_sim_cmd(&c, sizeof(c), &o, sizeof(o));
	if (ret)
		return ret;
	if (!mlx5_sim_res_add(MLX5_RES_CQ, o.cqn, &gcq->obj)) {
		mlx5_sim_hca_destroy(HCA_CMD_DESTROY_CQ, o.cqn);
		return -ENOMEM;
	}
	gcq->cqe = entries - 1;
	resp.cqn = o.cqn;
	memcpy(out, &resp, out_len < sizeof(resp) ? out_len : sizeof(resp));
	return 0;
}

void mlx5_sim_destroy_cq(struct sim_uvfile *uv, struct sim_cq *gcq)
{
	(void)uv;
	cq_pin(gcq, 0, 0);
	mlx5_sim_hca_destroy(HCA_CMD_DESTROY_CQ, mlx5_sim_res_num(&gcq->obj));
	mlx5_sim_res_del(&gcq->obj);
}

/*
 * mlx5_ib_resize_cq on a user CQ (the core already refused cqe < 1 and
 * cqe > max_cqe): the same ring size is a no-op before the udata is read;
 * then the udata (reserved fields, the new ring pinned for entries *
 * cqe_size bytes) and the firmware's MODIFY_CQ, which fails with
 * BAD_SIZE_OUTS_CQES (EINVAL) when the new ring cannot hold the CQEs not
 * yet consumed. The CQE size stays what it was at create (QUERY_CQ): a
 * request for another one is EINVAL, as mlx5_ib says for its own CQs.
 */
int mlx5_sim_resize_cq(struct sim_uvfile *uv, struct sim_cq *gcq, uint32_t cqe,
		       const void *in, size_t in_len, void *out, size_t out_len)
{
	uint32_t cqn = mlx5_sim_res_num(&gcq->obj);
	struct hca_num_in q = {.hdr.opcode = HCA_CMD_QUERY_CQ, .num = cqn};
	struct hca_modify_cq_in m = {
		.hdr = {HCA_CMD_MODIFY_CQ, HCA_MODIFY_CQ_RESIZE},
		.cqn = cqn,
	};
	struct hca_query_cq_out qo = {};
	struct mlx5_ib_resize_cq req;
	uint32_t entries = roundup_pow2(cqe + 1);
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
	if (!ret)
		ret = mlx5_sim_cmd(&q, sizeof(q), &qo, sizeof(qo));
	if (ret)
		return ret;
	if (req.cqe_size != qo.cqe_size)
		return -EINVAL;
	m.ncqe = entries;
	m.buf = req.buf_addr;
	ret = mlx5_sim_cmd(&m, sizeof(m), NULL, 0);
	if (ret)
		return ret;
	gcq->cqe = entries - 1;
	cq_pin(gcq, req.buf_addr, (uint64_t)entries * req.cqe_size);
	return 0;
}

int mlx5_sim_modify_cq(struct sim_cq *gcq, uint16_t count, uint16_t period)
{
	struct hca_modify_cq_in m = {
		.hdr = {HCA_CMD_MODIFY_CQ, HCA_MODIFY_CQ_MODERATE},
		.cqn = mlx5_sim_res_num(&gcq->obj),
		.cq_max_count = count,
		.cq_period = period,
	};

	return mlx5_sim_cmd(&m, sizeof(m), NULL, 0);
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

/* The service type of a verbs QP type; -1 if mlx5 has none for it. */
static int qp_st(uint8_t qp_type, int dc)
{
	switch (qp_type) {
	case IB_QPT_RC:
		return HCA_ST_RC;
	case IB_QPT_UC:
		return HCA_ST_UC;
	case IB_QPT_UD:
		return HCA_ST_UD;
	case IB_QPT_XRC_INI:
		return HCA_ST_XRC;
	case IB_QPT_DRIVER:
		return dc == MLX5_QP_FLAG_TYPE_DCI ? HCA_ST_DCI : -1;
	}
	return -1;
}

int mlx5_sim_create_qp(struct sim_uvfile *uv, struct sim_qp *gqp,
		       const void *in, size_t in_len, void *out, size_t out_len)
{
	struct mlx5_ib_create_qp req = {};
	struct mlx5_ib_create_qp_resp resp = {};
	struct hca_create_qp_in c = {.hdr.opcode = HCA_CMD_CREATE_QP};
	const struct sim_qp_cap *cap = &gqp->attr.cap;
	volatile uint32_t *dbrec;
	uint64_t len;
	uint8_t *buf;
	int ret, dc;

	if (gqp->qp_type == IB_QPT_XRC_TGT)
		return mlx5_sim_create_xrc_tgt(uv, gqp);
	if (qp_st(gqp->qp_type, MLX5_QP_FLAG_TYPE_DCI) < 0)
		return -EOPNOTSUPP;
	memcpy(&req, in, in_len < sizeof(req) ? in_len : sizeof(req));
	if (in_len > offsetof(struct mlx5_ib_create_qp, reserved) &&
	    mlx5_sim_nonzero(in, offsetof(struct mlx5_ib_create_qp, reserved),
			     in_len))
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
	len = ((uint64_t)req.rq_wqe_count << req.rq_wqe_shift) +
	      ((uint64_t)req.sq_wqe_count << 6);
	ret = queue_mem(gqp->call, RDMA_DM_MLX5_ATTR_CREATE_QP_DBR_BUF_UMEM,
			&gqp->buf_umem, &gqp->dbr_umem, req.buf_addr,
			req.db_addr, len, &buf, &dbrec);
	if (ret)
		return ret;
	c.dev = uv->dev;
	c.qpn = gqp->qpn;
	c.st = (uint8_t)qp_st(gqp->qp_type, dc);
	c.xrc_half = c.st == HCA_ST_XRC ? HCA_XRC_HALF_INI : 0;
	c.pdn = mlx5_sim_pdn(gqp->pd);
	c.cqn_snd = gqp->send_cq ? mlx5_sim_res_num(&gqp->send_cq->obj) : 0;
	c.cqn_rcv = gqp->recv_cq ? mlx5_sim_res_num(&gqp->recv_cq->obj) : 0;
	c.srqn = gqp->srq ? mlx5_sim_res_num(&gqp->srq->obj) : 0;
	c.uidx = req.uidx;
	c.buf = (uintptr_t)buf;
	c.dbrec = (uintptr_t)dbrec;
	c.sq_wqe_cnt = req.sq_wqe_count;
	c.rq_wqe_cnt = req.rq_wqe_count;
	c.rq_wqe_shift = req.rq_wqe_shift;
	c.cs_res = mlx5_sim_cs_res(gqp, req.flags, dc);
	c.cs_req = mlx5_sim_cs_req(gqp, req.flags, dc);
	c.cap_send_wr = cap->max_send_wr;
	c.cap_recv_wr = cap->max_recv_wr;
	c.cap_send_sge = cap->max_send_sge;
	c.cap_recv_sge = cap->max_recv_sge;
	c.cap_inline = cap->max_inline_data;
	ret = mlx5_sim_qp_create(&gqp->obj, &c);
	if (ret)
		return ret;
	/* static UARs: a medium (shared) bfreg; dynamic: the user's page */
	resp.bfreg_index = uv->uar_dyn ? 0xffffffffu : 1;
	memcpy(out, &resp, out_len < sizeof(resp) ? out_len : sizeof(resp));
	return 0;
}

int mlx5_sim_qp_create(struct sim_obj *obj, const struct hca_create_qp_in *c)
{
	int ret = mlx5_sim_cmd(c, sizeof(*c), NULL, 0);

	if (ret)
		return ret;
	if (!mlx5_sim_res_add(MLX5_RES_QP, c->qpn, obj)) {
		mlx5_sim_hca_destroy(HCA_CMD_DESTROY_QP, c->qpn);
		return -ENOMEM;
	}
	return 0;
}

void mlx5_sim_destroy_qp(struct sim_uvfile *uv, struct sim_qp *gqp)
{
	struct mlx5_sim_res *r = gqp->obj.drv;

	(void)uv;
	if (!r)
		return;
	if (r->dct)
		mlx5_sim_destroy_dct(gqp);
	else
		mlx5_sim_hca_destroy(HCA_CMD_DESTROY_QP, r->num);
	mlx5_sim_res_del(&gqp->obj);
}

static const struct {
	uint32_t ib, qpc;
} qpc_fields[] = {
	{IB_QP_ACCESS_FLAGS, HCA_QPC_ACCESS},	 {IB_QP_QKEY, HCA_QPC_QKEY},
	{IB_QP_AV, HCA_QPC_PATH},		 {IB_QP_TIMEOUT, HCA_QPC_TIMEOUT},
	{IB_QP_RETRY_CNT, HCA_QPC_RETRY},	 {IB_QP_RNR_RETRY, HCA_QPC_RNR_RETRY},
	{IB_QP_MIN_RNR_TIMER, HCA_QPC_MIN_RNR},	 {IB_QP_MAX_QP_RD_ATOMIC, HCA_QPC_SRA},
	{IB_QP_MAX_DEST_RD_ATOMIC, HCA_QPC_RRA}, {IB_QP_RQ_PSN, HCA_QPC_RQ_PSN},
	{IB_QP_SQ_PSN, HCA_QPC_SQ_PSN},	 {IB_QP_DEST_QPN, HCA_QPC_DEST_QPN},
};

/* mlx5_ib's transition table: the firmware command of each (cur, next);
 * to ERR and to RESET from anywhere. */
static const struct {
	uint8_t cur, next;
	uint16_t op;
} qp_ops[] = {
	{IB_QPS_RESET, IB_QPS_INIT, HCA_CMD_RST2INIT_QP},
	{IB_QPS_INIT, IB_QPS_INIT, HCA_CMD_INIT2INIT_QP},
	{IB_QPS_INIT, IB_QPS_RTR, HCA_CMD_INIT2RTR_QP},
	{IB_QPS_RTR, IB_QPS_RTS, HCA_CMD_RTR2RTS_QP},
	{IB_QPS_RTS, IB_QPS_RTS, HCA_CMD_RTS2RTS_QP},
	{IB_QPS_SQE, IB_QPS_RTS, HCA_CMD_SQERR2RTS_QP},
	{IB_QPS_SQD, IB_QPS_RTS, HCA_CMD_SQD_RTS_QP},
};

static uint16_t qp_op(uint32_t cur, uint32_t next)
{
	size_t i;

	if (next == IB_QPS_ERR)
		return HCA_CMD_2ERR_QP;
	if (next == IB_QPS_RESET)
		return HCA_CMD_2RST_QP;
	for (i = 0; i < sizeof(qp_ops) / sizeof(qp_ops[0]); i++)
		if (qp_ops[i].cur == cur && qp_ops[i].next == next)
			return qp_ops[i].op;
	return HCA_CMD_SIM_2STATE_QP;
}

/* The path's RoCE v2 UDP source port as mlx5_ib sets it in the QPC when
 * the modify names the peer (mlx5_set_path_udp_sport): from the flow
 * label, or from both QPNs when it is 0. Without DEST_QPN the QPC has
 * none and the firmware sends from the lowest port. */
static uint16_t path_udp_sport(unsigned int dev, const struct sim_qp_attr *a,
			       uint32_t mask, uint32_t qpn)
{
	struct sim_netdev *nd = sim_netdev_of(sim.sh, dev, 1);
	struct sim_gid_slot g;

	if (!nd || sim_gid_get(sim.sh, nd, a->ah.sgid_index, &g) ||
	    g.type != SIM_GID_ROCE_V2)
		return 0;
	if (!(mask & IB_QP_DEST_QPN))
		return SIM_ROCE_SPORT_MIN;
	return sim_udp_sport(a->ah.flow_label, qpn, a->dest_qp_num);
}

int mlx5_sim_modify_qp(struct sim_uvfile *uv, struct sim_qp *gqp,
		       const struct sim_qp_attr *a, uint32_t mask,
		       const void *in, size_t in_len, void *out, size_t out_len)
{
	struct mlx5_sim_res *r = gqp->obj.drv;
	struct hca_modify_qp_in m = {};
	uint32_t next = (mask & IB_QP_STATE) ? a->qp_state : gqp->attr.qp_state;
	size_t i;
	int ret;

	ret = mlx5_sim_modify_udata(gqp, in, in_len);
	if (ret)
		return ret;
	if (!r) { /* a TGT QP another process created */
		if (gqp->qp_type == IB_QPT_XRC_TGT)
			mlx5_sim_xrc_qpc(uv->dev, gqp, a);
		return 0;
	}
	if (gqp->qp_type == IB_QPT_DRIVER) {
		ret = mlx5_sim_dc_modify(gqp, a, mask, out, out_len);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	m.hdr.opcode = qp_op(gqp->attr.qp_state, next);
	m.qpn = r->num;
	m.state = next;
	for (i = 0; i < sizeof(qpc_fields) / sizeof(qpc_fields[0]); i++)
		if (mask & qpc_fields[i].ib)
			m.mask |= qpc_fields[i].qpc;
	m.access = (uint8_t)a->qp_access_flags;
	m.qkey = a->qkey;
	if (mask & IB_QP_AV) {
		m.path_dev = mlx5_av_dev(uv->dev, &a->ah);
		m.udp_sport = path_udp_sport(uv->dev, a, mask, r->num);
	}
	m.timeout = a->timeout;
	m.retry_cnt = a->retry_cnt;
	m.rnr_retry = a->rnr_retry;
	m.min_rnr_timer = a->min_rnr_timer;
	m.log_sra_max = log2_floor(a->max_rd_atomic);
	m.rra_max = a->max_dest_rd_atomic;
	m.rq_psn = a->rq_psn;
	m.sq_psn = a->sq_psn;
	m.dest_qpn = a->dest_qp_num;
	if (r->ooo_dp && m.hdr.opcode == HCA_CMD_INIT2RTR_QP) {
		m.mask |= HCA_QPC_DP_ORDERING;
		m.dp_ooo = 1;
	}
	ret = mlx5_sim_cmd(&m, sizeof(m), NULL, 0);
	if (!ret && gqp->qp_type == IB_QPT_XRC_TGT)
		mlx5_sim_xrc_qpc(uv->dev, gqp, a);
	return ret;
}

static uint16_t srq_destroy_op(const struct sim_srq *gsrq)
{
	return gsrq->xrcd ? HCA_CMD_DESTROY_XRC_SRQ : HCA_CMD_DESTROY_SRQ;
}

int mlx5_sim_create_srq(struct sim_uvfile *uv, struct sim_srq *gsrq,
			const void *in, size_t in_len, void *out,
			size_t out_len)
{
	struct mlx5_ib_create_srq req = {};
	struct mlx5_ib_create_srq_resp resp = {};
	struct hca_create_srq_in c = {.hdr.opcode = HCA_CMD_CREATE_SRQ};
	struct hca_create_srq_out o = {};
	uint32_t max = roundup_pow2(gsrq->max_wr + 1), size;
	int ret;

	if (in_len < offsetof(struct mlx5_ib_create_srq, uidx))
		return -EINVAL;
	memcpy(&req, in, in_len < sizeof(req) ? in_len : sizeof(req));
	if (req.reserved0 || req.reserved1 ||
	    (in_len > sizeof(req) && mlx5_sim_nonzero(in, sizeof(req), in_len)))
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
	c.dev = uv->dev;
	c.srqn = gsrq->srqn;
	c.wqe_cnt = max;
	c.wqe_shift = (uint32_t)__builtin_ctz(size);
	c.max_gs = (size - 16) / 16;
	c.buf = req.buf_addr;
	c.dbrec = req.db_addr;
	c.lwm = gsrq->limit;
	c.uidx = req.uidx;
	if (gsrq->xrcd) {
		c.hdr.opcode = HCA_CMD_CREATE_XRC_SRQ;
		c.xrcdn = gsrq->xrcd->xrcdn;
	}
	if (gsrq->cq) { /* XRC and TM SRQs complete on their own CQ */
		c.cqn = mlx5_sim_res_num(&gsrq->cq->obj);
		c.pdn = mlx5_sim_pdn(gsrq->pd);
	}
	if (gsrq->srq_type == IB_UVERBS_SRQT_TM) {
		ret = mlx5_sim_tm_srq(uv->dev, gsrq, &c.tm_slots);
		if (ret)
			return ret;
	}
	ret = mlx5_sim_cmd(&c, sizeof(c), &o, sizeof(o));
	if (ret)
		return ret;
	if (!mlx5_sim_res_add(MLX5_RES_SRQ, o.srqn, &gsrq->obj)) {
		mlx5_sim_hca_destroy(srq_destroy_op(gsrq), o.srqn);
		return -ENOMEM;
	}
	gsrq->srqn = o.srqn;
	resp.srqn = o.srqn;
	memcpy(out, &resp, out_len < sizeof(resp) ? out_len : sizeof(resp));
	return 0;
}

int mlx5_sim_modify_srq(struct sim_uvfile *uv, struct sim_srq *gsrq,
			uint32_t max_wr, uint32_t limit, uint32_t mask,
			const void *in, size_t in_len)
{
	struct hca_arm_rq_in arm = {
		.hdr.opcode = gsrq->xrcd ? HCA_CMD_ARM_XRC_SRQ : HCA_CMD_ARM_RQ,
		.srqn = mlx5_sim_res_num(&gsrq->obj),
		.lwm = limit,
	};

	(void)uv, (void)max_wr, (void)in, (void)in_len;
	if (mask & 1)
		return -EINVAL; /* mlx5 SRQs do not resize */
	if ((mask & 2) && gsrq->obj.drv)
		return mlx5_sim_cmd(&arm, sizeof(arm), NULL, 0);
	return 0;
}

void mlx5_sim_destroy_srq(struct sim_uvfile *uv, struct sim_srq *gsrq)
{
	(void)uv;
	if (gsrq->obj.drv)
		mlx5_sim_hca_destroy(srq_destroy_op(gsrq),
				     mlx5_sim_res_num(&gsrq->obj));
	mlx5_sim_res_del(&gsrq->obj);
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
