// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion queues: CQ_CREATE / CQ_DESTROY as ioctls with the legacy
 * CREATE_CQ, EX_CREATE_CQ and DESTROY_CQ writes as fallback; resize,
 * arming and kernel-side polling exist only as write() commands.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/ib_user_verbs.h>

#include "cmd_write.h"

/* What both create helpers ask of the kernel. */
struct cq_request {
	int cqe;
	struct ibv_comp_channel *channel;
	int comp_vector;
	uint32_t flags; /* enum ib_uverbs_ex_create_cq_flags */
	void *cq_context;
};

struct cq_answer {
	uint32_t handle;
	uint32_t cqe;
};

static int channel_fd(const struct cq_request *req)
{
	return req->channel ? req->channel->fd : -1;
}

static int create_cq_write(struct ibv_context *ctx,
			   const struct cq_request *req, struct verbs_cq *cq,
			   const struct ibv_udata *udata, struct cq_answer *ans)
{
	struct ib_uverbs_ex_create_cq_resp ex_resp;
	struct ib_uverbs_create_cq_resp resp;
	int ret;

	/* Only the extended form carries flags. */
	if (req->flags) {
		struct ib_uverbs_ex_create_cq ex = {
			.user_handle = (uintptr_t)cq,
			.cqe = (uint32_t)req->cqe,
			.comp_vector = (uint32_t)req->comp_vector,
			.comp_channel = channel_fd(req),
			.flags = req->flags,
		};

		ret = verbs_write_cmd_ex(ctx, IB_USER_VERBS_EX_CMD_CREATE_CQ,
					 &ex, sizeof(ex), &ex_resp,
					 sizeof(ex_resp), udata);
		resp = ex_resp.base;
	} else {
		struct ib_uverbs_create_cq cmd = {
			.user_handle = (uintptr_t)cq,
			.cqe = (uint32_t)req->cqe,
			.comp_vector = (uint32_t)req->comp_vector,
			.comp_channel = channel_fd(req),
		};

		ret = verbs_write_cmd(ctx, IB_USER_VERBS_CMD_CREATE_CQ, &cmd,
				      sizeof(cmd), &resp, sizeof(resp), udata);
	}
	if (ret)
		return ret;
	ans->handle = resp.cq_handle;
	ans->cqe = resp.cqe;
	return 0;
}

static int create_cq(struct ibv_context *ctx, const struct cq_request *req,
		     struct verbs_cq *vcq, const struct ibv_udata *udata,
		     struct uverbs_cmd *drv_cmd)
{
	DECLARE_UVERBS_CMD(local, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, 0);
	struct uverbs_cmd *cmd = uverbs_cmd_pick(drv_cmd, local);
	struct ibv_cq *cq = &vcq->cq;
	struct ib_uverbs_attr *handle;
	struct cq_answer ans;
	int ret;

	if (req->cqe < 0 || req->comp_vector < 0) {
		errno = EINVAL;
		return EINVAL;
	}
	/* The kernel's answer for an event fd that is not this context's. */
	if (!VERBS_IN_CTX(req->channel, ctx)) {
		errno = EBADF;
		return EBADF;
	}
	handle = uverbs_attr_new_obj(cmd, UVERBS_ATTR_CREATE_CQ_HANDLE);
	uverbs_attr_in_u32(cmd, UVERBS_ATTR_CREATE_CQ_CQE, (uint32_t)req->cqe);
	uverbs_attr_in_u64(cmd, UVERBS_ATTR_CREATE_CQ_USER_HANDLE,
			   (uintptr_t)cq);
	uverbs_attr_in_fd(cmd, UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL,
			  channel_fd(req));
	uverbs_attr_in_u32(cmd, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR,
			   (uint32_t)req->comp_vector);
	if (req->flags)
		uverbs_attr_in_u32(cmd, UVERBS_ATTR_CREATE_CQ_FLAGS,
				   req->flags);
	uverbs_attr_out_ptr(cmd, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &ans.cqe,
			    sizeof(ans.cqe));
	/* Kernels before the per-object event fd ignore it, unless the
	 * context is imported: its CQs must report to its own fd. */
	verbs_attr_event_fd(cmd, ctx, UVERBS_ATTR_CREATE_CQ_EVENT_FD,
			    get_priv(ctx)->imported);
	uverbs_cmd_add_udata(cmd, udata);

	ret = verbs_execute_create(ctx, VERBS_OP_IDX(create_cq), cmd);
	if (ret == VERBS_USE_WRITE)
		ret = create_cq_write(ctx, req, vcq, udata, &ans);
	else if (!ret)
		ans.handle = uverbs_attr_handle(handle);
	if (ret)
		return ret;

	cq->context = ctx;
	cq->channel = req->channel;
	cq->cq_context = req->cq_context;
	cq->handle = ans.handle;
	cq->cqe = (int)ans.cqe;
	cq->async_events_completed = 0;
	verbs_init_events(&cq->mutex, &cq->cond, &cq->comp_events_completed);
	if (req->channel) {
		pthread_mutex_lock(&ctx->mutex);
		req->channel->refcnt++;
		pthread_mutex_unlock(&ctx->mutex);
	}
	return 0;
}

int ibv_cmd_create_cq(struct ibv_context *ctx, int cqe,
		      struct ibv_comp_channel *channel, int comp_vector,
		      struct verbs_cq *cq, const struct ibv_udata *udata,
		      struct uverbs_cmd *cmd)
{
	const struct cq_request req = {
		.cqe = cqe,
		.channel = channel,
		.comp_vector = comp_vector,
	};

	return create_cq(ctx, &req, cq, udata, cmd);
}

#define CQ_INIT_ATTR_KNOWN                                                     \
	(IBV_CQ_INIT_ATTR_MASK_FLAGS | IBV_CQ_INIT_ATTR_MASK_PD)

int ibv_cmd_create_cq_ex(struct ibv_context *ctx,
			 const struct ibv_cq_init_attr_ex *attr,
			 uint32_t cq_flags, struct verbs_cq *cq,
			 const struct ibv_udata *udata, struct uverbs_cmd *cmd)
{
	const struct cq_request req = {
		.cqe = (int)attr->cqe,
		.channel = attr->channel,
		.comp_vector = (int)attr->comp_vector,
		.flags = cq_flags,
		.cq_context = attr->cq_context,
	};

	if ((attr->comp_mask & ~(uint32_t)CQ_INIT_ATTR_KNOWN) ||
	    (attr->wc_flags & ~(uint64_t)IBV_CREATE_CQ_SUP_WC_FLAGS)) {
		errno = EOPNOTSUPP;
		return EOPNOTSUPP;
	}
	return create_cq(ctx, &req, cq, udata, cmd);
}

int ibv_cmd_resize_cq(struct ibv_cq *cq, int cqe,
		      const struct ibv_udata *udata)
{
	struct ib_uverbs_resize_cq req = {
		.cq_handle = cq->handle,
		.cqe = (uint32_t)cqe,
	};
	struct ib_uverbs_resize_cq_resp resp;
	int ret;

	if (cqe < 0) {
		errno = EINVAL;
		return EINVAL;
	}
	ret = verbs_write_cmd(cq->context, IB_USER_VERBS_CMD_RESIZE_CQ, &req,
			      sizeof(req), &resp, sizeof(resp), udata);
	if (ret)
		return ret;
	cq->cqe = (int)resp.cqe;
	return 0;
}

int ibv_cmd_destroy_cq(struct ibv_cq *cq)
{
	struct ibv_comp_channel *channel = cq->channel;
	struct ib_uverbs_destroy_cq_resp resp;
	bool gone;
	int ret;

	ret = verbs_cmd_destroy_resp(cq->context, VERBS_OP_IDX(destroy_cq),
				     UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY,
				     cq->handle, IB_USER_VERBS_CMD_DESTROY_CQ,
				     &resp, sizeof(resp), &gone);
	if (ret)
		return ret;
	/* A vanished device reports no counts: nothing to wait for. */
	if (!gone) {
		verbs_wait_events(&cq->mutex, &cq->cond,
				  &cq->comp_events_completed,
				  resp.comp_events_reported);
		verbs_wait_events(&cq->mutex, &cq->cond,
				  &cq->async_events_completed,
				  resp.async_events_reported);
	}
	if (channel) {
		pthread_mutex_lock(&cq->context->mutex);
		channel->refcnt--;
		pthread_mutex_unlock(&cq->context->mutex);
	}
	return 0;
}

int ibv_cmd_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	struct ib_uverbs_req_notify_cq req = {
		.cq_handle = cq->handle,
		.solicited_only = !!solicited_only,
	};

	return verbs_write_cmd(cq->context, IB_USER_VERBS_CMD_REQ_NOTIFY_CQ,
			       &req, sizeof(req), NULL, 0, NULL);
}

/* The kernel's ib_wc_flags numbering differs from enum ibv_wc_flags. */
static const struct {
	uint32_t kernel;
	unsigned int verbs;
} wc_flag_map[] = {
	{1 << 0, IBV_WC_GRH},
	{1 << 1, IBV_WC_WITH_IMM},
	{1 << 2, IBV_WC_WITH_INV},
	{1 << 3, IBV_WC_IP_CSUM_OK},
};

static void copy_wc(struct ibv_wc *wc, const struct ib_uverbs_wc *kwc)
{
	size_t i;

	*wc = (struct ibv_wc){
		.wr_id = kwc->wr_id,
		.status = (enum ibv_wc_status)kwc->status,
		.opcode = (enum ibv_wc_opcode)kwc->opcode,
		.vendor_err = kwc->vendor_err,
		.byte_len = kwc->byte_len,
		.imm_data = kwc->ex.imm_data,
		.qp_num = kwc->qp_num,
		.src_qp = kwc->src_qp,
		.pkey_index = kwc->pkey_index,
		.slid = kwc->slid,
		.sl = kwc->sl,
		.dlid_path_bits = kwc->dlid_path_bits,
	};
	for (i = 0; i < sizeof(wc_flag_map) / sizeof(wc_flag_map[0]); i++)
		if (kwc->wc_flags & wc_flag_map[i].kernel)
			wc->wc_flags |= wc_flag_map[i].verbs;
}

/* Completions per POLL_CQ write: the response must fit 64 KiB. */
#define POLL_CQ_CHUNK 1024

int ibv_cmd_poll_cq(struct ibv_cq *cq, int ne, struct ibv_wc *wc)
{
	struct ib_uverbs_poll_cq_resp *resp;
	struct ib_uverbs_poll_cq req = {.cq_handle = cq->handle};
	int chunk = ne < POLL_CQ_CHUNK ? ne : POLL_CQ_CHUNK;
	size_t resp_len;
	int got = 0, ret = 0;
	uint32_t i;

	if (ne < 0 || (ne && !wc)) {
		errno = EINVAL;
		return -1;
	}
	if (!ne)
		return 0;
	resp_len = sizeof(*resp) + (size_t)chunk * sizeof(resp->wc[0]);
	resp = malloc(resp_len);
	if (!resp) {
		errno = ENOMEM;
		return -1;
	}
	while (got < ne) {
		req.ne = (uint32_t)(ne - got < chunk ? ne - got : chunk);
		ret = verbs_write_cmd(cq->context, IB_USER_VERBS_CMD_POLL_CQ,
				      &req, sizeof(req), resp,
				      sizeof(*resp) +
					      req.ne * sizeof(resp->wc[0]),
				      NULL);
		if (ret)
			break;
		for (i = 0; i < resp->count && i < req.ne; i++)
			copy_wc(&wc[got + i], &resp->wc[i]);
		got += (int)i;
		/* Fewer than asked: the CQ is empty. */
		if (i < req.ne)
			break;
	}
	free(resp);
	if (ret && !got)
		return -1;
	return got;
}

/* EX_MODIFY_CQ (write only): the moderation of completion events. */
int ibv_cmd_modify_cq(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr)
{
	struct ib_uverbs_ex_modify_cq req = {
		.cq_handle = cq->handle,
		.attr_mask = attr->attr_mask,
		.attr = { attr->moderate.cq_count, attr->moderate.cq_period },
	};

	if (attr->attr_mask >= IBV_CQ_ATTR_RESERVED)
		return EINVAL; /* not sent, as upstream */
	return verbs_write_cmd_ex(cq->context, IB_USER_VERBS_EX_CMD_MODIFY_CQ,
				  &req, sizeof(req), NULL, 0, NULL);
}
