// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* UVERBS_OBJECT_DEVICE: creating and querying the kernel context. */
#include <errno.h>

#include <rdma/ib_user_verbs.h>

#include "cmd_write.h"

/* What GET_CONTEXT and QUERY_CONTEXT both report. */
struct context_outputs {
	uint32_t num_comp_vectors;
	uint64_t core_support;
	struct ib_uverbs_attr *core_support_attr;
};

static void add_context_outputs(struct uverbs_cmd *cmd,
				struct context_outputs *out,
				uint16_t num_comp_vectors_id,
				uint16_t core_support_id)
{
	uverbs_attr_out_ptr(cmd, num_comp_vectors_id, &out->num_comp_vectors,
			    sizeof(out->num_comp_vectors));
	/* Older kernels lack it; the kernel then leaves it unset. */
	out->core_support_attr = uverbs_attr_optional(
		uverbs_attr_out_ptr(cmd, core_support_id, &out->core_support,
				    sizeof(out->core_support)));
}

static void apply_context_outputs(struct ibv_context *ctx,
				  const struct context_outputs *out)
{
	ctx->num_comp_vectors = (int)out->num_comp_vectors;
	if (uverbs_attr_is_valid(out->core_support_attr))
		get_priv(ctx)->core_support = out->core_support;
}

int ibv_cmd_get_context(struct verbs_context *vctx,
			const struct ibv_udata *udata,
			struct uverbs_cmd *drv_cmd)
{
	DECLARE_UVERBS_CMD(local, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_GET_CONTEXT, 0);
	struct uverbs_cmd *cmd = uverbs_cmd_pick(drv_cmd, local);
	struct ibv_context *ctx = &vctx->context;
	struct ib_uverbs_get_context_resp resp;
	struct ib_uverbs_get_context req;
	struct context_outputs out = {};
	int ret;

	add_context_outputs(cmd, &out, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
			    UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT);
	uverbs_cmd_add_udata(cmd, udata);
	ret = verbs_execute_or_fallback(ctx, VERBS_OP_IDX(free_context), cmd);
	if (!ret)
		apply_context_outputs(ctx, &out);
	if (ret != VERBS_USE_WRITE)
		return ret;

	/* The write() form also hands out the async event fd. */
	ret = verbs_write_cmd(ctx, IB_USER_VERBS_CMD_GET_CONTEXT, &req,
			      sizeof(req), &resp, sizeof(resp), udata);
	if (ret)
		return ret;
	ctx->async_fd = (int)resp.async_fd;
	ctx->num_comp_vectors = (int)resp.num_comp_vectors;
	return 0;
}

int ibv_cmd_query_context(struct ibv_context *ctx, struct uverbs_cmd *drv_cmd)
{
	DECLARE_UVERBS_CMD(local, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_QUERY_CONTEXT, 0);
	struct uverbs_cmd *cmd = uverbs_cmd_pick(drv_cmd, local);
	struct context_outputs out = {};
	int ret;

	add_context_outputs(cmd, &out,
			    UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS,
			    UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT);
	ret = uverbs_cmd_execute(ctx, cmd);
	if (!ret)
		apply_context_outputs(ctx, &out);
	return ret;
}

int verbs_cmd_alloc_async_fd(struct ibv_context *ctx)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_ASYNC_EVENT,
			   UVERBS_METHOD_ASYNC_EVENT_ALLOC, 1);
	struct ib_uverbs_attr *fd_attr;
	int ret;

	fd_attr = uverbs_attr_new_fd(cmd,
				     UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE);
	ret = uverbs_cmd_execute(ctx, cmd);
	if (ret)
		return ret;
	ctx->async_fd = uverbs_attr_fd(fd_attr);
	return 0;
}
