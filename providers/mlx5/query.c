// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Device and port queries, and what the context caches from them.
 */
#include <errno.h>
#include <string.h>

#include "mlx5.h"

int mlx5_query_device_ex(struct ibv_context *ibctx,
			 const struct ibv_query_device_ex_input *input,
			 struct ibv_device_attr_ex *attr, size_t attr_size)
{
	struct mlx5_context *ctx = to_mctx(ibctx);
	struct mlx5_ib_query_device_resp resp = {};
	struct ibv_udata udata = { .out = &resp, .out_len = sizeof(resp) };

	/* The mlx5 response only goes where the kernel said it takes one. */
	return ibv_cmd_query_device_any(
		ibctx, input, attr, attr_size,
		(ctx->cmds_supp_uhw & MLX5_USER_CMDS_SUPP_UHW_QUERY_DEVICE) ?
			&udata : NULL);
}

int mlx5_query_port(struct ibv_context *ibctx, uint8_t port,
		    struct ibv_port_attr *attr)
{
	return ibv_cmd_query_port(ibctx, port, attr);
}

/*
 * At open: max_dm_size (bounds every MEMIC allocation) and each port's link
 * layer. A failing port query is tolerated, a failing device query is not.
 */
int mlx5_cache_device_caps(struct mlx5_context *ctx)
{
	struct ibv_context *ibctx = &ctx->ibv_ctx.context;
	struct ibv_device_attr_ex attr;
	struct ibv_port_attr port_attr;
	unsigned int port;
	int err;

	memset(&attr, 0, sizeof(attr));
	err = mlx5_query_device_ex(ibctx, NULL, &attr, sizeof(attr));
	if (err)
		return err;
	ctx->max_dm_size = attr.max_dm_size;
	ctx->atomic_cap = attr.orig_attr.atomic_cap;

	for (port = 1; port <= ctx->num_ports && port <= MLX5_MAX_PORTS_NUM;
	     port++) {
		memset(&port_attr, 0, sizeof(port_attr));
		if (!mlx5_query_port(ibctx, (uint8_t)port, &port_attr))
			ctx->link_layer[port - 1] = port_attr.link_layer;
	}
	return 0;
}

int mlx5dv_query_device(struct ibv_context *ibctx,
			struct mlx5dv_context *attrs_out)
{
	struct mlx5_context *ctx;

	if (!ibctx || !attrs_out) {
		errno = EINVAL;
		return EINVAL;
	}
	if (!mlx5_is_mlx5_context(ibctx))
		return EOPNOTSUPP;
	ctx = to_mctx(ibctx);
	attrs_out->version = 0;
	attrs_out->flags = 0;
	if (ctx->cqe_version == 1)
		attrs_out->flags |= MLX5DV_CONTEXT_FLAGS_CQE_V1;
	if (ctx->resp_comp_mask & MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_REAL_TIME_TS)
		attrs_out->flags |= MLX5DV_CONTEXT_FLAGS_REAL_TIME_TS;
	/* None of the optional members is provided (see mlx5dv.h). */
	attrs_out->comp_mask = 0;
	return 0;
}
