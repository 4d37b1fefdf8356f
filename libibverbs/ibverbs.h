/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * State libibverbs keeps per context, out of the providers' sight. The
 * public verbs_context's `priv` slot points here.
 */
#ifndef RDMA_DM_IBVERBS_H
#define RDMA_DM_IBVERBS_H

#include <stdbool.h>
#include <stdint.h>

#include "driver.h"

/* One bit per struct verbs_context_ops member (offset / sizeof(void *)). */
#define VERBS_OPS_NUM (sizeof(struct verbs_context_ops) / sizeof(void *))

/* Fallback bits for ioctls that have no op member of their own. */
enum {
	VERBS_OP_QUERY_GID = VERBS_OPS_NUM,
	VERBS_OPS_TRACKED,
};

struct verbs_ex_private {
	/* What every verb dispatches through; never has a NULL entry. */
	struct verbs_context_ops ops;
	/* Ops whose ioctl the kernel lacks (EPROTONOSUPPORT/ENOTTY seen). */
	uint64_t unsupported_ioctls[(VERBS_OPS_TRACKED + 63) / 64];
	/* IB_UVERBS_CORE_SUPPORT_* from GET_CONTEXT/QUERY_CONTEXT. */
	uint64_t core_support;
	uint32_t driver_id;
	/* The kernel has UVERBS_METHOD_INVOKE_WRITE: tunnel write commands. */
	bool use_ioctl_write;
	/*
	 * Made by ibv_import_device(): objects must name this context's own
	 * async event fd, which only the ioctl form of a create can carry.
	 */
	bool imported;
};

static inline struct verbs_ex_private *get_priv(struct ibv_context *ctx)
{
	return verbs_get_ctx(ctx)->priv;
}

static inline const struct verbs_context_ops *
get_ops(struct ibv_context *ctx)
{
	return &get_priv(ctx)->ops;
}

/*
 * One legacy uverbs write() command, tunnelled through
 * UVERBS_METHOD_INVOKE_WRITE when the kernel has it. @req is the core
 * request without struct ib_uverbs_cmd_hdr; if @resp_len is non-zero its
 * first u64 is the `response` pointer, filled in here. @udata is appended
 * after the core structs. Returns 0 or a positive errno (errno set).
 */
int verbs_write_cmd(struct ibv_context *ctx, uint32_t command, void *req,
		    size_t req_len, void *resp, size_t resp_len,
		    const struct ibv_udata *udata);
/*
 * The same for an extended command (struct ex_hdr framing): @req is the
 * core request after the 24-byte ex header (no response pointer), all
 * lengths multiples of 8; the response is zeroed first.
 */
int verbs_write_cmd_ex(struct ibv_context *ctx, uint32_t command, void *req,
		       size_t req_len, void *resp, size_t resp_len,
		       const struct ibv_udata *udata);

/*
 * UVERBS_OBJECT_ASYNC_EVENT / ASYNC_EVENT_ALLOC: give @ctx its async event
 * fd (ctx->async_fd). 0 or a positive errno.
 */
int verbs_cmd_alloc_async_fd(struct ibv_context *ctx);

/*
 * The default ops: every entry fails cleanly (EOPNOTSUPP), except the
 * generic ones below, which any provider can live with.
 */
extern const struct verbs_context_ops verbs_dummy_ops;

/* ibv_buf over posix_memalign()ed ordinary memory (size kept exact). */
void *verbs_default_alloc_buf(struct ibv_pd *pd, size_t size,
			      struct ibv_buf **buf);
void verbs_default_free_buf(struct ibv_buf *buf);
/* reg_mr_ex served by the provider's reg_mr or reg_dmabuf_mr op. */
struct ibv_mr *verbs_default_reg_mr_ex(struct ibv_pd *pd,
				       struct ibv_mr_init_attr *attr);

#endif /* RDMA_DM_IBVERBS_H */
