// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Context open/close and the ops table. */
#include <stdlib.h>
#include <unistd.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include "rxe.h"

static void rxe_free_context(struct ibv_context *ibctx)
{
	struct rxe_context *ctx = (struct rxe_context *)verbs_get_ctx(ibctx);

	verbs_uninit_context(&ctx->vctx);
	free(ctx);
}

static const struct verbs_context_ops rxe_ctx_ops = {
	.alloc_dm = rxe_alloc_dm,
	.alloc_pd = rxe_alloc_pd,
	.dealloc_pd = rxe_dealloc_pd,
	.dereg_mr = rxe_dereg_mr,
	.dm_export_dmabuf_fd = rxe_dm_export_dmabuf_fd,
	.free_context = rxe_free_context,
	.free_dm = rxe_free_dm,
	.query_device_ex = rxe_query_device_ex,
	.query_port = rxe_query_port,
	.reg_dmabuf_mr = rxe_reg_dmabuf_mr,
	.reg_mr = rxe_reg_mr,
};

/*
 * The rxe kernel driver takes no driver data in GET_CONTEXT and returns
 * none (6.1 and 6.12 alike), so the context is opened with no udata.
 */
struct verbs_context *rxe_alloc_context(struct ibv_device *ibdev, int cmd_fd,
					void *private_data)
{
	struct rxe_context *ctx;
	int err;

	ctx = verbs_init_and_alloc_context(ibdev, cmd_fd, ctx, vctx,
					   RDMA_DRIVER_RXE);
	if (!ctx)
		return NULL;
	err = ibv_cmd_get_context(&ctx->vctx, NULL, NULL);
	if (err)
		goto err_uninit;
	verbs_set_ops(&ctx->vctx, &rxe_ctx_ops);
	return &ctx->vctx;

err_uninit:
	verbs_uninit_context(&ctx->vctx);
	free(ctx);
	errno = err;
	return NULL;
}
