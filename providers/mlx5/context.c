// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Opening and closing an mlx5 context: the alloc_ucontext exchange, then
 * the pages and caps the rest of the provider relies on.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "datapath.h"
#include "umr.h"

static bool valid_open_attr(const struct mlx5dv_context_attr *attr)
{
	return !attr->comp_mask && !(attr->flags & ~MLX5DV_CONTEXT_FLAGS_DEVX);
}

static int env_u32(const char *name, uint32_t def, uint32_t *out)
{
	const char *s = getenv(name);
	char *end;
	unsigned long v;

	*out = def;
	if (!s)
		return 0;
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || v > UINT32_MAX)
		return EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* The bfreg counts the library asks for (MLX5_TOTAL_UUARS and friends). */
static int fill_bfreg_request(struct mlx5_context *ctx,
			      struct mlx5_ib_alloc_ucontext_req_v2 *req)
{
	uint32_t total, low_lat, min_total;

	if (env_u32("MLX5_TOTAL_UUARS", MLX5_DEF_TOT_BFREGS, &total) ||
	    env_u32("MLX5_NUM_LOW_LAT_UUARS", MLX5_DEF_LOW_LAT_BFREGS,
		    &low_lat))
		return EINVAL;

	/* Each system page holds page_size/4K UARs of two bfregs each. */
	min_total = (uint32_t)(ctx->page_size / MLX5_UAR_SIZE) *
		    MLX5_NON_FP_BFREGS_PER_UAR;
	if (total < min_total)
		total = min_total;
	total = (uint32_t)mlx5_align_up(total, MLX5_NON_FP_BFREGS_PER_UAR);
	if (total > MLX5_MAX_BFREGS)
		return EINVAL;
	/* Only so many bfregs may be shared; the rest are low latency. */
	if (total > MLX5_MAX_SHARED_BFREGS &&
	    low_lat < total - MLX5_MAX_SHARED_BFREGS)
		low_lat = total - MLX5_MAX_SHARED_BFREGS;
	if (low_lat > total - 1)
		return EINVAL;

	req->total_num_bfregs = total;
	req->num_low_latency_bfregs = low_lat;
	req->max_cqe_version = 1;
	req->lib_caps = MLX5_LIB_CAP_4K_UAR | MLX5_LIB_CAP_DYN_UAR;
	return 0;
}

/* Errors that say "this request shape is not accepted", worth a retry. */
static bool retry_smaller(int err)
{
	return err == EINVAL || err == EOPNOTSUPP || err == EPROTONOSUPPORT ||
	       err == EPERM || err == EACCES;
}

static const size_t mlx5_req_lens[] = {
	sizeof(struct mlx5_ib_alloc_ucontext_req_v2),
	offsetof(struct mlx5_ib_alloc_ucontext_req_v2, lib_caps),
	offsetof(struct mlx5_ib_alloc_ucontext_req_v2, max_cqe_version),
};

/*
 * GET_CONTEXT with the v2 request cut to what older kernels accept: the
 * whole request, then without lib_caps, then without max_cqe_version,
 * trying at most @num_lens of those.
 */
static int get_context_sized(struct mlx5_context *ctx,
			     struct mlx5_ib_alloc_ucontext_req_v2 *req,
			     struct mlx5_ib_alloc_ucontext_resp *resp,
			     unsigned int num_lens)
{
	struct ibv_udata udata = {
		.in = req, .out = resp, .out_len = sizeof(*resp)};
	unsigned int i;
	int err = EINVAL;

	for (i = 0; i < num_lens; i++) {
		memset(resp, 0, sizeof(*resp));
		udata.in_len = mlx5_req_lens[i];
		err = ibv_cmd_get_context(&ctx->ibv_ctx, &udata, NULL);
		if (!err || !retry_smaller(err))
			break;
	}
	return err;
}

/*
 * DEVX first, falling back to a plain context unless the caller made DEVX
 * mandatory (MLX5DV_CONTEXT_FLAGS_DEVX). Every kernel with DEVX takes the
 * whole request, so DEVX is only tried with it: a kernel (or user) without
 * DEVX costs one failed call, not three.
 */
static int get_context(struct mlx5_context *ctx,
		       const struct mlx5dv_context_attr *attr,
		       struct mlx5_ib_alloc_ucontext_resp *resp)
{
	const unsigned int all =
		sizeof(mlx5_req_lens) / sizeof(mlx5_req_lens[0]);
	struct mlx5_ib_alloc_ucontext_req_v2 req = {};
	bool need_devx = false;
	int err;

	err = fill_bfreg_request(ctx, &req);
	if (err)
		return err;
	if (attr) {
		if (!valid_open_attr(attr))
			return EINVAL;
		need_devx = attr->flags & MLX5DV_CONTEXT_FLAGS_DEVX;
	}

	req.flags = MLX5_IB_ALLOC_UCTX_DEVX;
	err = get_context_sized(ctx, &req, resp, 1);
	ctx->devx = !err;
	if (!err || need_devx || !retry_smaller(err))
		return err;
	req.flags = 0;
	return get_context_sized(ctx, &req, resp, all);
}

static int take_response(struct mlx5_context *ctx,
			 const struct mlx5_ib_alloc_ucontext_resp *resp)
{
	/* Only CQE versions 0 and 1 exist; anything else is not mlx5. */
	if (resp->cqe_version > 1)
		return EINVAL;
	ctx->cqe_version = resp->cqe_version;
	ctx->cmds_supp_uhw = resp->cmds_supp_uhw;
	ctx->tot_bfregs = resp->tot_bfregs;
	ctx->num_ports = resp->num_ports;
	ctx->resp_comp_mask = resp->comp_mask;
	ctx->dump_fill_mkey = resp->dump_fill_mkey;
	ctx->hca_core_clock_offset = resp->hca_core_clock_offset;
	ctx->num_dyn_bfregs = resp->num_dyn_bfregs;
	ctx->flow_action_flags = resp->flow_action_flags;
	ctx->bf_reg_size = resp->bf_reg_size;
	ctx->cache_line_size = resp->cache_line_size ? resp->cache_line_size
						     : 64;
	ctx->max_sq_desc_sz = resp->max_sq_desc_sz;
	ctx->max_rq_desc_sz = resp->max_rq_desc_sz;
	ctx->max_send_wqebb = resp->max_send_wqebb;
	ctx->max_recv_wr = resp->max_recv_wr;
	ctx->max_srq_recv_wr = resp->max_srq_recv_wr;
	/* Old kernels leave these 0: one page-sized UAR per page. */
	ctx->num_uars_per_page =
		resp->num_uars_per_page ? resp->num_uars_per_page : 1;
	return 0;
}

static void mlx5_free_context(struct ibv_context *ibctx)
{
	struct mlx5_context *ctx = to_mctx(ibctx);

	mlx5_release_all_dms(ctx);
	mlx5_release_all_devx_uars(ctx);
	mlx5_dp_cleanup(ctx);
	mlx5_unmap_context_pages(ctx);
	verbs_uninit_context(&ctx->ibv_ctx);
	free(ctx);
}

static const struct verbs_context_ops mlx5_ctx_ops = {
	.alloc_buf = mlx5_alloc_user_buf,
	.alloc_dm = mlx5_alloc_dm,
	.alloc_dmah = mlx5_alloc_dmah,
	.alloc_mw = ibv_cmd_alloc_mw_obj, /* libmlx5 sends no driver data */
	.alloc_null_mr = mlx5_alloc_null_mr,
	.alloc_parent_domain = mlx5_alloc_parent_domain,
	.alloc_pd = mlx5_alloc_pd,
	.alloc_td = mlx5_alloc_td,
	.advise_mr = mlx5_advise_mr,
	.attach_mcast = ibv_cmd_attach_mcast,
	.bind_mw = mlx5_bind_mw,
	.close_xrcd = mlx5_close_xrcd,
	.cq_event = mlx5_cq_event,
	.create_ah = mlx5_create_ah,
	.create_cq = mlx5_create_cq,
	.create_cq_ex = mlx5_create_cq_ex,
	.create_qp = mlx5_create_qp,
	.create_qp_ex = mlx5_create_qp_ex,
	.create_srq = mlx5_create_srq,
	.create_srq_ex = mlx5_create_srq_ex,
	.dealloc_dmah = mlx5_dealloc_dmah,
	.dealloc_mw = ibv_cmd_dealloc_mw_obj,
	.dealloc_pd = mlx5_dealloc_pd,
	.dealloc_td = mlx5_dealloc_td,
	.dereg_mr = mlx5_dereg_mr,
	.destroy_ah = mlx5_destroy_ah,
	.destroy_cq = mlx5_destroy_cq,
	.destroy_qp = mlx5_destroy_qp,
	.destroy_srq = mlx5_destroy_srq,
	.detach_mcast = ibv_cmd_detach_mcast,
	.dm_export_dmabuf_fd = mlx5_dm_export_dmabuf_fd,
	.free_buf = mlx5_free_user_buf,
	.free_context = mlx5_free_context,
	.free_dm = mlx5_free_dm,
	.get_srq_num = mlx5_get_srq_num,
	.import_dm = mlx5_import_dm,
	.import_mr = mlx5_import_mr,
	.import_pd = mlx5_import_pd,
	.modify_cq = ibv_cmd_modify_cq,
	.modify_qp = mlx5_modify_qp,
	.modify_srq = mlx5_modify_srq,
	.open_qp = mlx5_open_qp,
	.open_xrcd = mlx5_open_xrcd,
	.poll_cq = mlx5_poll_cq,
	.post_recv = mlx5_post_recv,
	.post_send = mlx5_post_send,
	.post_srq_ops = mlx5_post_srq_ops,
	.post_srq_recv = mlx5_post_srq_recv,
	.query_device_ex = mlx5_query_device_ex,
	.query_port = mlx5_query_port,
	.query_qp = mlx5_query_qp,
	.query_rt_values = mlx5_query_rt_values,
	.query_srq = mlx5_query_srq,
	.reg_dm_mr = mlx5_reg_dm_mr,
	.reg_dmabuf_mr = mlx5_reg_dmabuf_mr,
	.reg_mr = mlx5_reg_mr,
	.reg_mr_ex = mlx5_reg_mr_ex,
	.req_notify_cq = mlx5_arm_cq,
	.rereg_mr = mlx5_rereg_mr,
	.resize_cq = mlx5_resize_cq,
	.unimport_dm = mlx5_unimport_dm,
	.unimport_mr = mlx5_unimport_mr,
	.unimport_pd = mlx5_unimport_pd,
};

/*
 * Everything after GET_CONTEXT (new context) or QUERY_CONTEXT (imported
 * one): the same response drives the same setup.
 */
static int setup_context(struct mlx5_context *ctx,
			 const struct mlx5_ib_alloc_ucontext_resp *resp)
{
	int err;

	err = take_response(ctx, resp);
	if (err)
		return err;
	err = mlx5_map_context_pages(ctx, resp);
	if (err)
		return err;
	err = mlx5_cache_device_caps(ctx);
	if (err) {
		mlx5_unmap_context_pages(ctx);
		return err;
	}
	/* Without it and without static pages no CQ could ring: the open
	 * fails rather than every CQ later. */
	err = mlx5_alloc_nc_uar(ctx);
	if (err && !mlx5_cq_uar(ctx)) {
		mlx5_unmap_context_pages(ctx);
		return err;
	}
	if (ctx->have_nc_uar)
		mlx5_init_nc_devx_uar(ctx);
	err = mlx5_dp_init(ctx);
	if (err) {
		mlx5_unmap_context_pages(ctx);
		return err;
	}
	verbs_set_ops(&ctx->ibv_ctx, &mlx5_ctx_ops);
	return 0;
}

static struct mlx5_context *new_context(struct ibv_device *ibdev, int cmd_fd)
{
	struct mlx5_context *ctx;

	ctx = verbs_init_and_alloc_context(ibdev, cmd_fd, ctx, ibv_ctx,
					   RDMA_DRIVER_MLX5);
	if (!ctx)
		return NULL;
	ctx->page_size = to_mdev(ibdev)->page_size;
	ctx->dm_lock = 0;
	return ctx;
}

static void *context_failed(struct mlx5_context *ctx, int err)
{
	verbs_uninit_context(&ctx->ibv_ctx);
	free(ctx);
	errno = err;
	return NULL;
}

struct verbs_context *mlx5_alloc_context(struct ibv_device *ibdev, int cmd_fd,
					 void *private_data)
{
	/* mlx5dv_open_device()'s options, NULL from ibv_open_device(). */
	const struct mlx5dv_context_attr *attr = private_data;
	struct mlx5_ib_alloc_ucontext_resp resp;
	struct mlx5_context *ctx = new_context(ibdev, cmd_fd);
	int err;

	if (!ctx)
		return NULL;
	err = get_context(ctx, attr, &resp);
	if (!err)
		err = setup_context(ctx, &resp);
	if (err)
		return context_failed(ctx, err);
	return &ctx->ibv_ctx;
}

/*
 * A second process (or library) sharing @cmd_fd: QUERY_CONTEXT returns
 * the alloc_ucontext response the context was created with. Legacy
 * static-UAR contexts cannot be shared.
 */
struct verbs_context *mlx5_import_context(struct ibv_device *ibdev, int cmd_fd)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_QUERY_CONTEXT, 1);
	struct mlx5_ib_alloc_ucontext_resp resp = {};
	struct mlx5_context *ctx = new_context(ibdev, cmd_fd);
	int err;

	if (!ctx)
		return NULL;
	uverbs_attr_out_ptr(cmd, MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX, &resp,
			    sizeof(resp));
	err = ibv_cmd_query_context(&ctx->ibv_ctx.context, cmd);
	if (!err && resp.tot_bfregs)
		err = EOPNOTSUPP;
	if (!err)
		err = setup_context(ctx, &resp);
	if (err)
		return context_failed(ctx, err);
	return &ctx->ibv_ctx;
}

struct ibv_context *mlx5dv_open_device(struct ibv_device *device,
				       struct mlx5dv_context_attr *attr)
{
	if (!device) {
		errno = EINVAL;
		return NULL;
	}
	if (!mlx5dv_is_supported(device)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (attr && !valid_open_attr(attr)) {
		errno = EINVAL;
		return NULL;
	}
	return verbs_open_device(device, attr);
}
