/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A context built in memory, without a kernel or a provider: what
 * _verbs_init_and_alloc_context() leaves behind, with the default ops.
 */
#ifndef VERBS_API_FAKE_CTX_H
#define VERBS_API_FAKE_CTX_H

#include <pthread.h>
#include <stdlib.h>

#include "ibverbs.h"

/* @sz: what the "provider" claims for verbs_context.sz. */
static inline struct verbs_context *fake_ctx_new(size_t sz)
{
	struct verbs_context *vctx = calloc(1, sizeof(*vctx));

	if (!vctx)
		abort();
	vctx->priv = calloc(1, sizeof(*vctx->priv));
	if (!vctx->priv)
		abort();
	vctx->sz = sz;
	vctx->context.cmd_fd = -1;
	vctx->context.async_fd = -1;
	vctx->context.abi_compat = __VERBS_ABI_IS_EXTENDED;
	pthread_mutex_init(&vctx->context.mutex, NULL);
	verbs_set_ops(vctx, &verbs_dummy_ops);
	return vctx;
}

static inline void fake_ctx_free(struct verbs_context *vctx)
{
	pthread_mutex_destroy(&vctx->context.mutex);
	free(vctx->priv);
	free(vctx);
}

#endif /* VERBS_API_FAKE_CTX_H */
