// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The generic half of a context: allocated here, extended by providers. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include <rdma/ib_user_verbs.h>

#include "ibverbs.h"

/*
 * A kernel with UVERBS_METHOD_INVOKE_WRITE answers a QUERY_DEVICE that has
 * no request at all with ENOSPC; one without it says EPROTONOSUPPORT (or
 * ENOTTY when it has no ioctl interface). Any other answer means "there".
 */
static bool probe_ioctl_write(struct ibv_context *ctx)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_INVOKE_WRITE, 1);
	int ret;

	uverbs_attr_in_u64(cmd, UVERBS_ATTR_WRITE_CMD,
			   IB_USER_VERBS_CMD_QUERY_DEVICE);
	ret = uverbs_cmd_execute(ctx, cmd);
	return ret != ENOTTY && ret != EPROTONOSUPPORT;
}

void *_verbs_init_and_alloc_context(struct ibv_device *device, int cmd_fd,
				    size_t size, size_t context_offset,
				    uint32_t driver_id)
{
	struct verbs_ex_private *priv;
	struct verbs_context *vctx;
	uint8_t *drv;

	if (size < context_offset + sizeof(*vctx)) {
		errno = EINVAL;
		return NULL;
	}
	drv = calloc(1, size);
	if (!drv)
		goto err;
	priv = calloc(1, sizeof(*priv));
	if (!priv)
		goto err_free;

	vctx = (struct verbs_context *)(drv + context_offset);
	vctx->sz = sizeof(*vctx);
	vctx->priv = priv;
	vctx->context.device = device;
	vctx->context.cmd_fd = cmd_fd;
	vctx->context.async_fd = -1;
	/* Marks the context as extended for the inline verbs of verbs.h. */
	vctx->context.abi_compat = (void *)UINTPTR_MAX;
	pthread_mutex_init(&vctx->context.mutex, NULL);
	priv->driver_id = driver_id;
	verbs_set_ops(vctx, &verbs_dummy_ops);
	priv->use_ioctl_write = probe_ioctl_write(&vctx->context);
	return drv;

err_free:
	free(drv);
err:
	errno = ENOMEM;
	return NULL;
}

void verbs_uninit_context(struct verbs_context *vctx)
{
	if (vctx->context.async_fd >= 0)
		close(vctx->context.async_fd);
	vctx->context.async_fd = -1;
	pthread_mutex_destroy(&vctx->context.mutex);
	free(vctx->priv);
	vctx->priv = NULL;
}

uint32_t verbs_context_driver_id(struct ibv_context *ctx)
{
	return get_priv(ctx)->driver_id;
}
