// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Queue pairs: QP_CREATE / QP_DESTROY as ioctls with the legacy CREATE_QP,
 * EX_CREATE_QP and DESTROY_QP writes as fallback; modify and query exist
 * only as write() commands (MODIFY_QP, EX_MODIFY_QP, QUERY_QP).
 */
#include <errno.h>
#include <string.h>

#include <rdma/ib_user_verbs.h>

#include "cmd_write.h"

#define QP_INIT_ATTR_KNOWN                                                     \
	(IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_XRCD |                         \
	 IBV_QP_INIT_ATTR_CREATE_FLAGS | IBV_QP_INIT_ATTR_MAX_TSO_HEADER |     \
	 IBV_QP_INIT_ATTR_IND_TABLE | IBV_QP_INIT_ATTR_RX_HASH |               \
	 IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)

#define QP_CREATE_FLAGS_KNOWN                                                  \
	(IBV_QP_CREATE_BLOCK_SELF_MCAST_LB | IBV_QP_CREATE_SCATTER_FCS |       \
	 IBV_QP_CREATE_CVLAN_STRIPPING | IBV_QP_CREATE_SOURCE_QPN |            \
	 IBV_QP_CREATE_PCI_WRITE_END_PADDING)

static uint32_t create_flags(const struct ibv_qp_init_attr_ex *attr)
{
	return attr->comp_mask & IBV_QP_INIT_ATTR_CREATE_FLAGS ?
		       attr->create_flags : 0;
}

static bool has_ind_table(const struct ibv_qp_init_attr_ex *attr)
{
	return attr->comp_mask & IBV_QP_INIT_ATTR_IND_TABLE;
}

/* The request rules of the command layer, before any syscall. */
static int check_qp_attr(const struct ibv_context *ctx,
			 const struct ibv_qp_init_attr_ex *attr)
{
	if ((attr->comp_mask & ~(uint32_t)QP_INIT_ATTR_KNOWN) ||
	    (create_flags(attr) & ~(uint32_t)QP_CREATE_FLAGS_KNOWN))
		return EINVAL;
	if (attr->qp_type == IBV_QPT_XRC_RECV)
		/* a target QP has its domain and nothing else */
		return (attr->comp_mask & IBV_QP_INIT_ATTR_XRCD) &&
				       attr->xrcd &&
				       VERBS_IN_CTX(attr->xrcd, ctx) ?
			       0 :
			       EINVAL;
	if (!(attr->comp_mask & IBV_QP_INIT_ATTR_PD) || !attr->pd)
		return EINVAL;
	if (!VERBS_IN_CTX(attr->pd, ctx) || !VERBS_IN_CTX(attr->send_cq, ctx) ||
	    !VERBS_IN_CTX(attr->recv_cq, ctx) ||
	    !VERBS_IN_CTX(attr->srq, ctx) ||
	    (has_ind_table(attr) && !VERBS_IN_CTX(attr->rwq_ind_tbl, ctx)))
		return EINVAL;
	if (has_ind_table(attr) &&
	    (!attr->rwq_ind_tbl || attr->cap.max_recv_wr ||
	     attr->cap.max_recv_sge || attr->recv_cq || attr->srq))
		return EINVAL;
	return 0;
}

static uint32_t handle_of(const struct ibv_cq *cq)
{
	return cq ? cq->handle : 0;
}

static bool is_xrc_tgt(const struct ibv_qp_init_attr_ex *attr)
{
	return attr->qp_type == IBV_QPT_XRC_RECV;
}

/* The receive CQ the kernel gets: none for XRC and RSS QPs. */
static struct ibv_cq *recv_cq_of(const struct ibv_qp_init_attr_ex *attr)
{
	if (attr->qp_type == IBV_QPT_XRC_SEND || is_xrc_tgt(attr) ||
	    has_ind_table(attr))
		return NULL;
	return attr->recv_cq;
}

/* The send CQ the kernel gets: none for a target QP. */
static struct ibv_cq *send_cq_of(const struct ibv_qp_init_attr_ex *attr)
{
	return is_xrc_tgt(attr) ? NULL : attr->send_cq;
}

/* pd_handle of the write forms: an XRC target QP names its domain there. */
static uint32_t pd_handle_of(const struct ibv_qp_init_attr_ex *attr)
{
	return is_xrc_tgt(attr) ? verbs_get_xrcd(attr->xrcd)->handle :
				  attr->pd->handle;
}

static void caps_from_resp(struct ibv_qp_cap *cap,
			   const struct ib_uverbs_create_qp_resp *resp)
{
	cap->max_send_wr = resp->max_send_wr;
	cap->max_recv_wr = resp->max_recv_wr;
	cap->max_send_sge = resp->max_send_sge;
	cap->max_recv_sge = resp->max_recv_sge;
	cap->max_inline_data = resp->max_inline_data;
}

/*
 * The legacy forms; EX_CREATE_QP only when creation flags or an RSS
 * indirection table need it. The shared part of both requests is filled
 * through the extended struct (same layout after `response`).
 */
static int create_qp_write(struct ibv_context *ctx, struct verbs_qp *qp,
			   struct ibv_qp_init_attr_ex *attr,
			   const struct ibv_udata *udata,
			   struct ib_uverbs_create_qp_resp *resp)
{
	struct ib_uverbs_ex_create_qp ex = {
		.user_handle = (uintptr_t)qp,
		.pd_handle = pd_handle_of(attr),
		.send_cq_handle = handle_of(send_cq_of(attr)),
		.recv_cq_handle = handle_of(recv_cq_of(attr)),
		.srq_handle = attr->srq && !is_xrc_tgt(attr) ?
				      attr->srq->handle :
				      0,
		.max_send_wr = attr->cap.max_send_wr,
		.max_recv_wr = attr->cap.max_recv_wr,
		.max_send_sge = attr->cap.max_send_sge,
		.max_recv_sge = attr->cap.max_recv_sge,
		.max_inline_data = attr->cap.max_inline_data,
		.sq_sig_all = !!attr->sq_sig_all,
		.qp_type = (uint8_t)attr->qp_type,
		.is_srq = attr->srq && !is_xrc_tgt(attr),
	};
	struct ib_uverbs_ex_create_qp_resp ex_resp;
	struct ib_uverbs_create_qp req = {};
	int ret;

	if (create_flags(attr) || has_ind_table(attr)) {
		ex.create_flags = create_flags(attr);
		if (ex.create_flags & IBV_QP_CREATE_SOURCE_QPN)
			ex.source_qpn = attr->source_qpn;
		if (has_ind_table(attr)) {
			ex.comp_mask = IB_UVERBS_CREATE_QP_MASK_IND_TABLE;
			ex.rwq_ind_tbl_handle =
				(uint32_t)attr->rwq_ind_tbl->ind_tbl_handle;
		}
		ret = verbs_write_cmd_ex(ctx, IB_USER_VERBS_EX_CMD_CREATE_QP,
					 &ex, sizeof(ex), &ex_resp,
					 sizeof(ex_resp), udata);
		*resp = ex_resp.base;
		return ret;
	}
	_Static_assert(offsetof(struct ib_uverbs_create_qp, user_handle) ==
			       8 &&
		       offsetof(struct ib_uverbs_create_qp, reserved) ==
			       offsetof(struct ib_uverbs_ex_create_qp,
					reserved) + 8,
		       "legacy CREATE_QP = response + the extended prefix");
	memcpy((uint8_t *)&req + 8, &ex, sizeof(req) - 8);
	return verbs_write_cmd(ctx, IB_USER_VERBS_CMD_CREATE_QP, &req,
			       sizeof(req), resp, sizeof(*resp), udata);
}

static void add_qp_objects(struct uverbs_cmd *cmd,
			   const struct ibv_qp_init_attr_ex *attr)
{
	struct ibv_cq *recv_cq = recv_cq_of(attr);

	if (is_xrc_tgt(attr)) {
		uverbs_attr_in_obj(cmd, UVERBS_ATTR_CREATE_QP_XRCD_HANDLE,
				   verbs_get_xrcd(attr->xrcd)->handle);
		return;
	}
	uverbs_attr_in_obj(cmd, UVERBS_ATTR_CREATE_QP_PD_HANDLE,
			   attr->pd->handle);
	if (attr->srq)
		uverbs_attr_in_obj(cmd, UVERBS_ATTR_CREATE_QP_SRQ_HANDLE,
				   attr->srq->handle);
	/* An RSS QP sends only if it asked for a send queue. */
	if (attr->send_cq && (!has_ind_table(attr) || attr->cap.max_send_wr))
		uverbs_attr_in_obj(cmd, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE,
				   attr->send_cq->handle);
	if (recv_cq)
		uverbs_attr_in_obj(cmd, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE,
				   recv_cq->handle);
	if (has_ind_table(attr))
		uverbs_attr_in_obj(cmd, UVERBS_ATTR_CREATE_QP_IND_TABLE_HANDLE,
				   (uint32_t)attr->rwq_ind_tbl->ind_tbl_handle);
}

static void add_qp_flags(struct uverbs_cmd *cmd,
			 const struct ibv_qp_init_attr_ex *attr)
{
	/* The source QPN travels as its own attribute, not as a flag. */
	uint32_t flags = create_flags(attr) & ~(uint32_t)IBV_QP_CREATE_SOURCE_QPN;

	if (attr->sq_sig_all)
		flags |= IB_UVERBS_QP_CREATE_SQ_SIG_ALL;
	if (flags)
		uverbs_attr_in_u32(cmd, UVERBS_ATTR_CREATE_QP_FLAGS, flags);
	if (create_flags(attr) & IBV_QP_CREATE_SOURCE_QPN)
		uverbs_attr_in_u32(cmd, UVERBS_ATTR_CREATE_QP_SOURCE_QPN,
				   attr->source_qpn);
}

static void set_qp(struct verbs_qp *vqp, struct ibv_context *ctx,
		   const struct ibv_qp_init_attr_ex *attr, uint32_t handle,
		   uint32_t qp_num)
{
	struct ibv_qp *qp = &vqp->qp;

	qp->context = ctx;
	qp->qp_context = attr->qp_context;
	qp->pd = is_xrc_tgt(attr) ? NULL : attr->pd;
	qp->send_cq = send_cq_of(attr);
	qp->recv_cq = recv_cq_of(attr);
	qp->srq = is_xrc_tgt(attr) ? NULL : attr->srq;
	qp->handle = handle;
	qp->qp_num = qp_num;
	qp->state = IBV_QPS_RESET;
	qp->qp_type = attr->qp_type;
	verbs_init_events(&qp->mutex, &qp->cond, &qp->events_completed);
	vqp->xrcd = is_xrc_tgt(attr) ? attr->xrcd : NULL;
	vqp->comp_mask = is_xrc_tgt(attr) ? VERBS_QP_XRCD : 0;
	if (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)
		vqp->comp_mask |= VERBS_QP_EX;
}

int ibv_cmd_create_qp_ex(struct ibv_context *ctx, struct verbs_qp *qp,
			 struct ibv_qp_init_attr_ex *attr,
			 const struct ibv_udata *udata,
			 struct uverbs_cmd *drv_cmd)
{
	DECLARE_UVERBS_CMD(local, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE, 0);
	struct uverbs_cmd *cmd = uverbs_cmd_pick(drv_cmd, local);
	struct ib_uverbs_create_qp_resp resp = {};
	struct ib_uverbs_attr *handle;
	int ret;

	ret = check_qp_attr(ctx, attr);
	if (ret) {
		errno = ret;
		return ret;
	}
	handle = uverbs_attr_new_obj(cmd, UVERBS_ATTR_CREATE_QP_HANDLE);
	add_qp_objects(cmd, attr);
	uverbs_attr_in_u64(cmd, UVERBS_ATTR_CREATE_QP_USER_HANDLE,
			   (uintptr_t)qp);
	/* Same layout as struct ib_uverbs_qp_cap: in and out in place. */
	uverbs_attr_in_ptr(cmd, UVERBS_ATTR_CREATE_QP_CAP, &attr->cap,
			   sizeof(attr->cap));
	uverbs_attr_in_u64(cmd, UVERBS_ATTR_CREATE_QP_TYPE, attr->qp_type);
	add_qp_flags(cmd, attr);
	verbs_attr_event_fd(cmd, ctx, UVERBS_ATTR_CREATE_QP_EVENT_FD, true);
	uverbs_attr_out_ptr(cmd, UVERBS_ATTR_CREATE_QP_RESP_CAP, &attr->cap,
			    sizeof(attr->cap));
	uverbs_attr_out_ptr(cmd, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, &resp.qpn,
			    sizeof(resp.qpn));
	uverbs_cmd_add_udata(cmd, udata);

	ret = verbs_execute_create(ctx, VERBS_OP_IDX(create_qp_ex), cmd);
	if (ret == VERBS_USE_WRITE) {
		ret = create_qp_write(ctx, qp, attr, udata, &resp);
		if (!ret)
			caps_from_resp(&attr->cap, &resp);
	} else if (!ret) {
		resp.qp_handle = uverbs_attr_handle(handle);
	}
	if (ret)
		return ret;
	set_qp(qp, ctx, attr, resp.qp_handle, resp.qpn);
	return 0;
}

static void dest_to_kern(struct ib_uverbs_qp_dest *d,
			 const struct ibv_ah_attr *a)
{
	memcpy(d->dgid, a->grh.dgid.raw, sizeof(d->dgid));
	d->flow_label = a->grh.flow_label;
	d->dlid = a->dlid;
	d->sgid_index = a->grh.sgid_index;
	d->hop_limit = a->grh.hop_limit;
	d->traffic_class = a->grh.traffic_class;
	d->sl = a->sl;
	d->src_path_bits = a->src_path_bits;
	d->static_rate = a->static_rate;
	d->is_global = a->is_global;
	d->port_num = a->port_num;
}

static void dest_from_kern(struct ibv_ah_attr *a,
			   const struct ib_uverbs_qp_dest *d)
{
	memcpy(a->grh.dgid.raw, d->dgid, sizeof(d->dgid));
	a->grh.flow_label = d->flow_label;
	a->dlid = d->dlid;
	a->grh.sgid_index = d->sgid_index;
	a->grh.hop_limit = d->hop_limit;
	a->grh.traffic_class = d->traffic_class;
	a->sl = d->sl;
	a->src_path_bits = d->src_path_bits;
	a->static_rate = d->static_rate;
	a->is_global = d->is_global;
	a->port_num = d->port_num;
}

/* Only the attributes named in @mask: the rest stays zero. */
static void modify_to_kern(struct ib_uverbs_modify_qp *c,
			   const struct ibv_qp_attr *attr, int mask)
{
	if (mask & IBV_QP_STATE)
		c->qp_state = attr->qp_state;
	if (mask & IBV_QP_CUR_STATE)
		c->cur_qp_state = attr->cur_qp_state;
	if (mask & IBV_QP_EN_SQD_ASYNC_NOTIFY)
		c->en_sqd_async_notify = attr->en_sqd_async_notify;
	if (mask & IBV_QP_ACCESS_FLAGS)
		c->qp_access_flags = attr->qp_access_flags;
	if (mask & IBV_QP_PKEY_INDEX)
		c->pkey_index = attr->pkey_index;
	if (mask & IBV_QP_PORT)
		c->port_num = attr->port_num;
	if (mask & IBV_QP_QKEY)
		c->qkey = attr->qkey;
	if (mask & IBV_QP_AV)
		dest_to_kern(&c->dest, &attr->ah_attr);
	if (mask & IBV_QP_PATH_MTU)
		c->path_mtu = attr->path_mtu;
	if (mask & IBV_QP_TIMEOUT)
		c->timeout = attr->timeout;
	if (mask & IBV_QP_RETRY_CNT)
		c->retry_cnt = attr->retry_cnt;
	if (mask & IBV_QP_RNR_RETRY)
		c->rnr_retry = attr->rnr_retry;
	if (mask & IBV_QP_RQ_PSN)
		c->rq_psn = attr->rq_psn;
	if (mask & IBV_QP_MAX_QP_RD_ATOMIC)
		c->max_rd_atomic = attr->max_rd_atomic;
	if (mask & IBV_QP_ALT_PATH) {
		dest_to_kern(&c->alt_dest, &attr->alt_ah_attr);
		c->alt_pkey_index = attr->alt_pkey_index;
		c->alt_port_num = attr->alt_port_num;
		c->alt_timeout = attr->alt_timeout;
	}
	if (mask & IBV_QP_MIN_RNR_TIMER)
		c->min_rnr_timer = attr->min_rnr_timer;
	if (mask & IBV_QP_SQ_PSN)
		c->sq_psn = attr->sq_psn;
	if (mask & IBV_QP_MAX_DEST_RD_ATOMIC)
		c->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IBV_QP_PATH_MIG_STATE)
		c->path_mig_state = attr->path_mig_state;
	if (mask & IBV_QP_DEST_QPN)
		c->dest_qp_num = attr->dest_qp_num;
}

/* Attribute bits this library knows (up to and with RATE_LIMIT). */
#define QP_ATTR_KNOWN ((IBV_QP_RATE_LIMIT << 1) - 1)

int ibv_cmd_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
		      int attr_mask, const struct ibv_udata *udata)
{
	struct ib_uverbs_ex_modify_qp_resp resp;
	struct ib_uverbs_ex_modify_qp ex = {};

	if ((unsigned int)attr_mask & ~(unsigned int)QP_ATTR_KNOWN) {
		errno = EOPNOTSUPP;
		return EOPNOTSUPP;
	}
	ex.base.qp_handle = qp->handle;
	ex.base.attr_mask = (uint32_t)attr_mask;
	modify_to_kern(&ex.base, attr, attr_mask);
	/* The legacy form has no rate limit and no driver data. */
	if (!(attr_mask & IBV_QP_RATE_LIMIT) &&
	    (!udata || (!udata->in_len && !udata->out_len)))
		return verbs_write_cmd(qp->context, IB_USER_VERBS_CMD_MODIFY_QP,
				       &ex.base, sizeof(ex.base), NULL, 0,
				       NULL);
	if (attr_mask & IBV_QP_RATE_LIMIT)
		ex.rate_limit = attr->rate_limit;
	return verbs_write_cmd_ex(qp->context, IB_USER_VERBS_EX_CMD_MODIFY_QP,
				  &ex, sizeof(ex), &resp, sizeof(resp), udata);
}

static void query_from_kern(struct ibv_qp_attr *attr,
			    const struct ib_uverbs_query_qp_resp *r)
{
	attr->qp_state = (enum ibv_qp_state)r->qp_state;
	attr->cur_qp_state = (enum ibv_qp_state)r->cur_qp_state;
	attr->path_mtu = (enum ibv_mtu)r->path_mtu;
	attr->path_mig_state = (enum ibv_mig_state)r->path_mig_state;
	attr->qkey = r->qkey;
	attr->rq_psn = r->rq_psn;
	attr->sq_psn = r->sq_psn;
	attr->dest_qp_num = r->dest_qp_num;
	attr->qp_access_flags = r->qp_access_flags;
	attr->cap.max_send_wr = r->max_send_wr;
	attr->cap.max_recv_wr = r->max_recv_wr;
	attr->cap.max_send_sge = r->max_send_sge;
	attr->cap.max_recv_sge = r->max_recv_sge;
	attr->cap.max_inline_data = r->max_inline_data;
	dest_from_kern(&attr->ah_attr, &r->dest);
	dest_from_kern(&attr->alt_ah_attr, &r->alt_dest);
	attr->pkey_index = r->pkey_index;
	attr->alt_pkey_index = r->alt_pkey_index;
	attr->en_sqd_async_notify = 0;
	attr->sq_draining = r->sq_draining;
	attr->max_rd_atomic = r->max_rd_atomic;
	attr->max_dest_rd_atomic = r->max_dest_rd_atomic;
	attr->min_rnr_timer = r->min_rnr_timer;
	attr->port_num = r->port_num;
	attr->timeout = r->timeout;
	attr->retry_cnt = r->retry_cnt;
	attr->rnr_retry = r->rnr_retry;
	attr->alt_port_num = r->alt_port_num;
	attr->alt_timeout = r->alt_timeout;
}

int ibv_cmd_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
		     int attr_mask, struct ibv_qp_init_attr *init_attr)
{
	struct ib_uverbs_query_qp req = {
		.qp_handle = qp->handle,
		.attr_mask = (uint32_t)attr_mask,
	};
	struct ib_uverbs_query_qp_resp resp;
	int ret;

	if ((unsigned int)attr_mask >= IBV_QP_RATE_LIMIT) {
		errno = EOPNOTSUPP;
		return EOPNOTSUPP;
	}
	ret = verbs_write_cmd(qp->context, IB_USER_VERBS_CMD_QUERY_QP, &req,
			      sizeof(req), &resp, sizeof(resp), NULL);
	if (ret)
		return ret;
	query_from_kern(attr, &resp);
	if (init_attr) {
		init_attr->qp_context = qp->qp_context;
		init_attr->send_cq = qp->send_cq;
		init_attr->recv_cq = qp->recv_cq;
		init_attr->srq = qp->srq;
		init_attr->qp_type = qp->qp_type;
		init_attr->cap = attr->cap;
		init_attr->sq_sig_all = resp.sq_sig_all;
	}
	return 0;
}

int ibv_cmd_destroy_qp(struct ibv_qp *qp)
{
	struct ib_uverbs_destroy_qp_resp resp;
	bool gone;
	int ret;

	ret = verbs_cmd_destroy_resp(qp->context, VERBS_OP_IDX(destroy_qp),
				     UVERBS_OBJECT_QP, UVERBS_METHOD_QP_DESTROY,
				     qp->handle, IB_USER_VERBS_CMD_DESTROY_QP,
				     &resp, sizeof(resp), &gone);
	if (ret)
		return ret;
	if (!gone)
		verbs_wait_events(&qp->mutex, &qp->cond, &qp->events_completed,
				  resp.events_reported);
	return 0;
}
