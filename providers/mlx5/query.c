// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Device and port queries, and what the context caches from them.
 */
#include <errno.h>
#include <string.h>

#include "mlx5.h"

/* The caller's ibv_device_attr_ex (attr_size bytes) reaches past @m. */
#define ATTR_HAS(attr_size, m)                                                 \
	((attr_size) >= offsetof(struct ibv_device_attr_ex, m) +               \
				sizeof(((struct ibv_device_attr_ex *)0)->m))

/* Bits of the mlx5 response that become mlx5dv context flags. */
static const struct {
	bool mpw_field; /* mlx5_ib_support_multi_pkt_send_wqes, else flags */
	uint32_t bit;
	uint64_t dv_flag;
} dv_flag_map[] = {
	{true, MLX5_IB_ALLOW_MPW, MLX5DV_CONTEXT_FLAGS_MPW_ALLOWED},
	{true, MLX5_IB_SUPPORT_EMPW, MLX5DV_CONTEXT_FLAGS_ENHANCED_MPW},
	{false, MLX5_IB_QUERY_DEV_RESP_FLAGS_CQE_128B_COMP,
	 MLX5DV_CONTEXT_FLAGS_CQE_128B_COMP},
	{false, MLX5_IB_QUERY_DEV_RESP_FLAGS_CQE_128B_PAD,
	 MLX5DV_CONTEXT_FLAGS_CQE_128B_PAD},
	{false, MLX5_IB_QUERY_DEV_RESP_PACKET_BASED_CREDIT_MODE,
	 MLX5DV_CONTEXT_FLAGS_PACKET_BASED_CREDIT_MODE},
};

/*
 * The kernel's one OOO_DP bit says the firmware forces data-path ordering
 * for some QP type; which ones, and how deep, only a DEVX query of the HCA
 * caps would tell (upstream's source). Every type gets the same depth: the
 * largest RQ halved, since an out-of-order RQ is made twice the size asked.
 * A type the device lacks is refused by the kernel at RESET->INIT.
 */
static void take_ooo_caps(struct mlx5dv_ooo_recv_wrs_caps *o,
			  const struct mlx5_ib_query_device_resp *r,
			  uint32_t max_recv_wr)
{
	uint32_t max = 0;

	if (r->flags & RDMA_DM_MLX5_QUERY_DEV_RESP_FLAGS_OOO_DP)
		max = max_recv_wr / 2;
	o->max_rc = max;
	o->max_xrc = max;
	o->max_dct = max;
	o->max_ud = max;
	o->max_uc = max;
}

static void take_dv_caps(struct mlx5_context *ctx,
			 const struct mlx5_ib_query_device_resp *r)
{
	const struct mlx5_ib_striding_rq_caps *s = &r->striding_rq_caps;
	struct mlx5_dv_caps *c = &ctx->dv_caps;
	unsigned int i;
	uint32_t word;

	c->flags = 0;
	for (i = 0; i < sizeof(dv_flag_map) / sizeof(dv_flag_map[0]); i++) {
		word = dv_flag_map[i].mpw_field
			       ? r->mlx5_ib_support_multi_pkt_send_wqes
			       : r->flags;
		if (word & dv_flag_map[i].bit)
			c->flags |= dv_flag_map[i].dv_flag;
	}
	c->cqe_comp.max_num = r->cqe_comp_caps.max_num;
	c->cqe_comp.supported_format = r->cqe_comp_caps.supported_format;
	c->sw_parsing.sw_parsing_offloads =
		r->sw_parsing_caps.sw_parsing_offloads;
	c->sw_parsing.supported_qpts = r->sw_parsing_caps.supported_qpts;
	c->striding_rq.min_single_stride_log_num_of_bytes =
		s->min_single_stride_log_num_of_bytes;
	c->striding_rq.max_single_stride_log_num_of_bytes =
		s->max_single_stride_log_num_of_bytes;
	c->striding_rq.min_single_wqe_log_num_of_strides =
		s->min_single_wqe_log_num_of_strides;
	c->striding_rq.max_single_wqe_log_num_of_strides =
		s->max_single_wqe_log_num_of_strides;
	c->striding_rq.supported_qpts = s->supported_qpts;
	c->dci_streams.max_log_num_concurent =
		r->dci_streams_caps.max_log_num_concurent;
	c->dci_streams.max_log_num_errored =
		r->dci_streams_caps.max_log_num_errored;
	c->tunnel_offloads = r->tunnel_offloads_caps;
	take_ooo_caps(&c->ooo_recv_wrs, r, ctx->max_recv_wr);
}

/* The ibv_device_attr_ex members only the mlx5 part carries. */
static void take_attr_caps(const struct mlx5_ib_query_device_resp *r,
			   struct ibv_device_attr_ex *attr, size_t attr_size)
{
	if (ATTR_HAS(attr_size, tso_caps)) {
		attr->tso_caps.max_tso = r->tso_caps.max_tso;
		attr->tso_caps.supported_qpts = r->tso_caps.supported_qpts;
	}
	if (ATTR_HAS(attr_size, rss_caps)) {
		attr->rss_caps.rx_hash_fields_mask =
			r->rss_caps.rx_hash_fields_mask;
		attr->rss_caps.rx_hash_function = r->rss_caps.rx_hash_function;
	}
	if (ATTR_HAS(attr_size, packet_pacing_caps)) {
		attr->packet_pacing_caps.qp_rate_limit_min =
			r->packet_pacing_caps.qp_rate_limit_min;
		attr->packet_pacing_caps.qp_rate_limit_max =
			r->packet_pacing_caps.qp_rate_limit_max;
		attr->packet_pacing_caps.supported_qpts =
			r->packet_pacing_caps.supported_qpts;
	}
}

/*
 * Every extended query refreshes the context's mlx5dv caps. A zeroed
 * response (a kernel that sent a shorter one, or none) means "none of
 * them".
 */
int mlx5_query_device_ex(struct ibv_context *ibctx,
			 const struct ibv_query_device_ex_input *input,
			 struct ibv_device_attr_ex *attr, size_t attr_size)
{
	struct mlx5_context *ctx = to_mctx(ibctx);
	struct mlx5_ib_query_device_resp resp = {};
	struct ibv_udata udata = {.out = &resp, .out_len = sizeof(resp)};
	bool uhw = ctx->cmds_supp_uhw & MLX5_USER_CMDS_SUPP_UHW_QUERY_DEVICE;
	int err;

	/* The mlx5 response only goes where the kernel said it takes one. */
	err = ibv_cmd_query_device_any(ibctx, input, attr, attr_size,
				       uhw ? &udata : NULL);
	if (err)
		return err;
	/* ibv_query_device's plain QUERY_DEVICE gets no mlx5 answer from a
	 * kernel: it leaves the caps as they were. */
	if (attr_size > sizeof(attr->orig_attr))
		take_dv_caps(ctx, &resp);
	take_attr_caps(&resp, attr, attr_size);
	return 0;
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
	ctx->cc_dma_bounce =
		!!(attr.device_cap_flags_ex & IBV_DEVICE_CC_DMA_BOUNCE);

	for (port = 1; port <= ctx->num_ports && port <= MLX5_MAX_PORTS_NUM;
	     port++) {
		memset(&port_attr, 0, sizeof(port_attr));
		if (!mlx5_query_port(ibctx, (uint8_t)port, &port_attr))
			ctx->link_layer[port - 1] = port_attr.link_layer;
	}
	return 0;
}

/* What fill_optional answers from the context without a condition. */
#define DV_MASK_ALWAYS                                                         \
	(MLX5DV_CONTEXT_MASK_CQE_COMPRESION | MLX5DV_CONTEXT_MASK_SWP |        \
	 MLX5DV_CONTEXT_MASK_STRIDING_RQ |                                     \
	 MLX5DV_CONTEXT_MASK_TUNNEL_OFFLOADS |                                 \
	 MLX5DV_CONTEXT_MASK_DYN_BFREGS |                                      \
	 MLX5DV_CONTEXT_MASK_FLOW_ACTION_FLAGS |                               \
	 MLX5DV_CONTEXT_MASK_DC_ODP_CAPS |                                     \
	 MLX5DV_CONTEXT_MASK_SIGNATURE_OFFLOAD |                               \
	 MLX5DV_CONTEXT_MASK_DCI_STREAMS |                                     \
	 MLX5DV_CONTEXT_MASK_WR_MEMCPY_LENGTH |                                \
	 MLX5DV_CONTEXT_MASK_CRYPTO_OFFLOAD)

/*
 * The optional members, each written only when the caller asked for it
 * (comp_mask in) and the context has it; comp_mask out says which were.
 * What only DEVX queries of the HCA caps tell (DC ODP, signature, crypto,
 * DMA memcpy) is reported empty, as upstream does for a context without
 * DEVX, and LAG ports are not reported; so are the rdma-core 65 members
 * that need them (DC read atomics, REG_C0). CLOCK_INFO_UPDATE and
 * HCA_CORE_CLOCK need their page mapped; OOO_RECV_WRS the kernel's flag.
 */
static uint64_t fill_optional(struct mlx5_context *ctx,
			      struct mlx5dv_context *out, uint64_t want)
{
	const struct mlx5_dv_caps *c = &ctx->dv_caps;
	const struct mlx5_ib_clock_info *ci = ctx->clock_info.addr;
	uint64_t done = want & DV_MASK_ALWAYS;

	if (done & MLX5DV_CONTEXT_MASK_CQE_COMPRESION)
		out->cqe_comp_caps = c->cqe_comp;
	if (done & MLX5DV_CONTEXT_MASK_SWP)
		out->sw_parsing_caps = c->sw_parsing;
	if (done & MLX5DV_CONTEXT_MASK_STRIDING_RQ)
		out->striding_rq_caps = c->striding_rq;
	if (done & MLX5DV_CONTEXT_MASK_TUNNEL_OFFLOADS)
		out->tunnel_offloads_caps = c->tunnel_offloads;
	if (done & MLX5DV_CONTEXT_MASK_DYN_BFREGS)
		out->max_dynamic_bfregs = ctx->num_dyn_bfregs;
	if (done & MLX5DV_CONTEXT_MASK_FLOW_ACTION_FLAGS)
		out->flow_action_flags = ctx->flow_action_flags;
	if (done & MLX5DV_CONTEXT_MASK_DC_ODP_CAPS)
		out->dc_odp_caps = 0;
	if (done & MLX5DV_CONTEXT_MASK_SIGNATURE_OFFLOAD)
		memset(&out->sig_caps, 0, sizeof(out->sig_caps));
	if (done & MLX5DV_CONTEXT_MASK_DCI_STREAMS)
		out->dci_streams_caps = c->dci_streams;
	if (done & MLX5DV_CONTEXT_MASK_WR_MEMCPY_LENGTH)
		out->max_wr_memcpy_length = 0;
	if (done & MLX5DV_CONTEXT_MASK_CRYPTO_OFFLOAD)
		memset(&out->crypto_caps, 0, sizeof(out->crypto_caps));
	if ((want & MLX5DV_CONTEXT_MASK_OOO_RECV_WRS) &&
	    c->ooo_recv_wrs.max_rc) {
		out->ooo_recv_wrs_caps = c->ooo_recv_wrs;
		done |= MLX5DV_CONTEXT_MASK_OOO_RECV_WRS;
	}
	if ((want & MLX5DV_CONTEXT_MASK_CLOCK_INFO_UPDATE) && ci) {
		/* The kernel keeps the page current: read it now. */
		out->max_clock_info_update_nsec =
			__atomic_load_n(&ci->overflow_period, __ATOMIC_RELAXED);
		done |= MLX5DV_CONTEXT_MASK_CLOCK_INFO_UPDATE;
	}
	if ((want & MLX5DV_CONTEXT_MASK_HCA_CORE_CLOCK) &&
	    ctx->core_clock.addr) {
		out->hca_core_clock =
			(uint8_t *)ctx->core_clock.addr +
			(ctx->hca_core_clock_offset & (ctx->page_size - 1));
		done |= MLX5DV_CONTEXT_MASK_HCA_CORE_CLOCK;
	}
	return done;
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
	attrs_out->flags = ctx->dv_caps.flags;
	if (ctx->cqe_version == 1)
		attrs_out->flags |= MLX5DV_CONTEXT_FLAGS_CQE_V1;
	if (ctx->resp_comp_mask & MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_REAL_TIME_TS)
		attrs_out->flags |= MLX5DV_CONTEXT_FLAGS_REAL_TIME_TS;
	attrs_out->comp_mask =
		fill_optional(ctx, attrs_out, attrs_out->comp_mask);
	return 0;
}
