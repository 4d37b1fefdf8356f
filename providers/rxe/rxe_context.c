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
	.alloc_mw = ibv_cmd_alloc_mw_obj,
	.alloc_pd = rxe_alloc_pd,
	.attach_mcast = ibv_cmd_attach_mcast,
	.bind_mw = rxe_bind_mw,
	.create_ah = rxe_create_ah,
	.create_cq = rxe_create_cq,
	.create_cq_ex = rxe_create_cq_ex,
	.create_qp = rxe_create_qp,
	.create_qp_ex = rxe_create_qp_ex,
	.create_srq = rxe_create_srq,
	.create_srq_ex = rxe_create_srq_ex,
	.dealloc_mw = ibv_cmd_dealloc_mw_obj,
	.dealloc_pd = rxe_dealloc_pd,
	.dereg_mr = rxe_dereg_mr,
	.destroy_ah = rxe_destroy_ah,
	.destroy_cq = rxe_destroy_cq,
	.destroy_qp = rxe_destroy_qp,
	.destroy_srq = rxe_destroy_srq,
	.detach_mcast = ibv_cmd_detach_mcast,
	.dm_export_dmabuf_fd = rxe_dm_export_dmabuf_fd,
	.free_context = rxe_free_context,
	.free_dm = rxe_free_dm,
	.modify_qp = rxe_modify_qp,
	.modify_srq = rxe_modify_srq,
	.poll_cq = rxe_poll_cq,
	.post_recv = rxe_post_recv,
	.post_send = rxe_post_send,
	.post_srq_recv = rxe_post_srq_recv,
	.query_device_ex = rxe_query_device_ex,
	.query_port = rxe_query_port,
	.query_qp = rxe_query_qp,
	.query_srq = rxe_query_srq,
	.reg_dmabuf_mr = rxe_reg_dmabuf_mr,
	.reg_mr = rxe_reg_mr,
	.req_notify_cq = rxe_req_notify_cq,
	.resize_cq = rxe_resize_cq,
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
