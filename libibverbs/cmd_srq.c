// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Shared receive queues: SRQ_CREATE / SRQ_DESTROY as ioctls with the
 * legacy CREATE_SRQ (basic), CREATE_XSRQ (XRC, tag matching) and DESTROY_SRQ
 * writes as fallback; modify and query exist only as write() commands.
 */
#include <errno.h>

#include <rdma/ib_user_verbs.h>

#include "cmd_write.h"

static enum ibv_srq_type srq_type_of(const struct ibv_srq_init_attr_ex *attr)
{
	return attr->comp_mask & IBV_SRQ_INIT_ATTR_TYPE ? attr->srq_type :
							  IBV_SRQT_BASIC;
}

static int check_srq_attr(const struct ibv_context *ctx,
			  const struct ibv_srq_init_attr_ex *attr)
{
	const uint32_t tm = IBV_SRQ_INIT_ATTR_CQ | IBV_SRQ_INIT_ATTR_TM;
	const uint32_t xrc = IBV_SRQ_INIT_ATTR_CQ | IBV_SRQ_INIT_ATTR_XRCD;

	if (attr->comp_mask >= IBV_SRQ_INIT_ATTR_RESERVED)
		return EOPNOTSUPP;
	if (!(attr->comp_mask & IBV_SRQ_INIT_ATTR_PD) || !attr->pd ||
	    !VERBS_IN_CTX(attr->pd, ctx))
		return EINVAL;
	switch (srq_type_of(attr)) {
	case IBV_SRQT_BASIC:
		return 0;
	case IBV_SRQT_TM:
		if ((attr->comp_mask & tm) != tm || !attr->cq ||
		    !VERBS_IN_CTX(attr->cq, ctx) || !attr->tm_cap.max_num_tags)
			return EINVAL;
		return 0;
	case IBV_SRQT_XRC:
		if ((attr->comp_mask & xrc) != xrc || !attr->cq ||
		    !attr->xrcd || !VERBS_IN_CTX(attr->cq, ctx) ||
		    !VERBS_IN_CTX(attr->xrcd, ctx))
			return EINVAL;
		return 0;
	default:
		return EINVAL;
	}
}

static int create_srq_write(struct ibv_context *ctx, struct verbs_srq *srq,
			    const struct ibv_srq_init_attr_ex *attr,
			    const struct ibv_udata *udata,
			    struct ib_uverbs_create_srq_resp *resp)
{
	struct ib_uverbs_create_xsrq xreq = {
		.user_handle = (uintptr_t)srq,
		.srq_type = srq_type_of(attr),
		.pd_handle = attr->pd->handle,
		.max_wr = attr->attr.max_wr,
		.max_sge = attr->attr.max_sge,
		.srq_limit = attr->attr.srq_limit,
		.max_num_tags = attr->tm_cap.max_num_tags,
	};
	struct ib_uverbs_create_srq req = {
		.user_handle = (uintptr_t)srq,
		.pd_handle = attr->pd->handle,
		.max_wr = attr->attr.max_wr,
		.max_sge = attr->attr.max_sge,
		.srq_limit = attr->attr.srq_limit,
	};

	if (srq_type_of(attr) == IBV_SRQT_BASIC)
		return verbs_write_cmd(ctx, IB_USER_VERBS_CMD_CREATE_SRQ, &req,
				       sizeof(req), resp, sizeof(*resp), udata);
	xreq.cq_handle = attr->cq->handle;
	if (xreq.srq_type == IB_UVERBS_SRQT_XRC) {
		xreq.max_num_tags = 0;
		xreq.xrcd_handle = verbs_get_xrcd(attr->xrcd)->handle;
	}
	return verbs_write_cmd(ctx, IB_USER_VERBS_CMD_CREATE_XSRQ, &xreq,
			       sizeof(xreq), resp, sizeof(*resp), udata);
}

int ibv_cmd_create_srq_ex(struct ibv_context *ctx, struct verbs_srq *vsrq,
			  struct ibv_srq_init_attr_ex *attr,
			  const struct ibv_udata *udata,
			  struct uverbs_cmd *drv_cmd)
{
	DECLARE_UVERBS_CMD(local, UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_CREATE,
			   0);
	struct uverbs_cmd *cmd = uverbs_cmd_pick(drv_cmd, local);
	struct ib_uverbs_create_srq_resp resp = {};
	enum ibv_srq_type type = srq_type_of(attr);
	struct ibv_srq *srq = &vsrq->srq;
	struct ib_uverbs_attr *handle;
	int ret;

	ret = check_srq_attr(ctx, attr);
	if (ret) {
		errno = ret;
		return ret;
	}
	handle = uverbs_attr_new_obj(cmd, UVERBS_ATTR_CREATE_SRQ_HANDLE);
	uverbs_attr_in_obj(cmd, UVERBS_ATTR_CREATE_SRQ_PD_HANDLE,
			   attr->pd->handle);
	if (type == IBV_SRQT_XRC) {
		uverbs_attr_in_obj(cmd, UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE,
				   attr->cq->handle);
		uverbs_attr_in_obj(cmd, UVERBS_ATTR_CREATE_SRQ_XRCD_HANDLE,
				   verbs_get_xrcd(attr->xrcd)->handle);
		uverbs_attr_out_ptr(cmd, UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM,
				    &resp.srqn, sizeof(resp.srqn));
	}
	if (type == IBV_SRQT_TM) {
		uverbs_attr_in_obj(cmd, UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE,
				   attr->cq->handle);
		uverbs_attr_in_u32(cmd, UVERBS_ATTR_CREATE_SRQ_MAX_NUM_TAGS,
				   attr->tm_cap.max_num_tags);
	}
	uverbs_attr_in_u64(cmd, UVERBS_ATTR_CREATE_SRQ_USER_HANDLE,
			   (uintptr_t)vsrq);
	uverbs_attr_in_u32(cmd, UVERBS_ATTR_CREATE_SRQ_MAX_WR,
			   attr->attr.max_wr);
	uverbs_attr_in_u32(cmd, UVERBS_ATTR_CREATE_SRQ_MAX_SGE,
			   attr->attr.max_sge);
	uverbs_attr_in_u32(cmd, UVERBS_ATTR_CREATE_SRQ_LIMIT,
			   attr->attr.srq_limit);
	/* enum ibv_srq_type and enum ib_uverbs_srq_type agree. */
	uverbs_attr_in_u64(cmd, UVERBS_ATTR_CREATE_SRQ_TYPE, type);
	verbs_attr_event_fd(cmd, ctx, UVERBS_ATTR_CREATE_SRQ_EVENT_FD, true);
	uverbs_attr_out_ptr(cmd, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR,
			    &resp.max_wr, sizeof(resp.max_wr));
	uverbs_attr_out_ptr(cmd, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE,
			    &resp.max_sge, sizeof(resp.max_sge));
	uverbs_cmd_add_udata(cmd, udata);

	ret = verbs_execute_create(ctx, VERBS_OP_IDX(create_srq_ex), cmd);
	if (ret == VERBS_USE_WRITE)
		ret = create_srq_write(ctx, vsrq, attr, udata, &resp);
	else if (!ret)
		resp.srq_handle = uverbs_attr_handle(handle);
	if (ret)
		return ret;

	srq->context = ctx;
	srq->srq_context = attr->srq_context;
	srq->pd = attr->pd;
	srq->handle = resp.srq_handle;
	verbs_init_events(&srq->mutex, &srq->cond, &srq->events_completed);
	vsrq->srq_type = type;
	vsrq->xrcd = type == IBV_SRQT_XRC ? attr->xrcd : NULL;
	vsrq->cq = type == IBV_SRQT_BASIC ? NULL : attr->cq;
	vsrq->srq_num = type == IBV_SRQT_XRC ? resp.srqn : 0;
	attr->attr.max_wr = resp.max_wr;
	attr->attr.max_sge = resp.max_sge;
	return 0;
}

int ibv_cmd_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr,
		       int attr_mask, const struct ibv_udata *udata)
{
	struct ib_uverbs_modify_srq req = {
		.srq_handle = srq->handle,
		.attr_mask = (uint32_t)attr_mask,
		.max_wr = attr->max_wr,
		.srq_limit = attr->srq_limit,
	};

	/* The command has no response: driver data can only go in. */
	if (udata && udata->out_len) {
		errno = EINVAL;
		return EINVAL;
	}
	return verbs_write_cmd(srq->context, IB_USER_VERBS_CMD_MODIFY_SRQ,
			       &req, sizeof(req), NULL, 0, udata);
}

int ibv_cmd_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr)
{
	struct ib_uverbs_query_srq req = {.srq_handle = srq->handle};
	struct ib_uverbs_query_srq_resp resp;
	int ret;

	ret = verbs_write_cmd(srq->context, IB_USER_VERBS_CMD_QUERY_SRQ, &req,
			      sizeof(req), &resp, sizeof(resp), NULL);
	if (ret)
		return ret;
	attr->max_wr = resp.max_wr;
	attr->max_sge = resp.max_sge;
	attr->srq_limit = resp.srq_limit;
	return 0;
}

int ibv_cmd_destroy_srq(struct ibv_srq *srq)
{
	struct ib_uverbs_destroy_srq_resp resp;
	bool gone;
	int ret;

	ret = verbs_cmd_destroy_resp(srq->context, VERBS_OP_IDX(destroy_srq),
				     UVERBS_OBJECT_SRQ,
				     UVERBS_METHOD_SRQ_DESTROY, srq->handle,
				     IB_USER_VERBS_CMD_DESTROY_SRQ, &resp,
				     sizeof(resp), &gone);
	if (ret)
		return ret;
	if (!gone)
		verbs_wait_events(&srq->mutex, &srq->cond,
				  &srq->events_completed, resp.events_reported);
	return 0;
}
