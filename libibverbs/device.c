// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Opening, importing and closing devices. libibverbs owns cmd_fd for the
 * whole life of a context (a provider never closes it); the async event
 * fd belongs to the context and is closed by verbs_uninit_context().
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <config.h>

#include "device.h"
#include "ibverbs.h"
#include "verbs_internal.h"

/* Provider context done: add what the library itself needs. */
static int finish_context(struct verbs_device *vdev, struct ibv_context *ctx)
{
	int ret;

	if (ctx->async_fd == -1) {
		ret = verbs_cmd_alloc_async_fd(ctx);
		if (ret) {
			get_ops(ctx)->free_context(ctx);
			errno = ret;
			return ret;
		}
	}
	verbs_device_get(vdev);
	return 0;
}

struct ibv_context *verbs_open_device(struct ibv_device *device,
				      void *private_data)
{
	struct verbs_device *vdev = verbs_get_device(device);
	struct verbs_context *vctx;
	char path[PATH_MAX];
	int cmd_fd, err;

	snprintf(path, sizeof(path), RDMA_CDEV_DIR "/%s", device->dev_name);
	cmd_fd = verbs_open_cdev(path, vdev->sysfs->sysfs_cdev);
	if (cmd_fd < 0)
		return NULL;

	vctx = vdev->ops->alloc_context(device, cmd_fd, private_data);
	if (!vctx || finish_context(vdev, &vctx->context))
		goto err_close;
	return &vctx->context;

err_close:
	err = errno;
	close(cmd_fd);
	errno = err ? err : ENOMEM;
	return NULL;
}

struct ibv_context *ibv_open_device(struct ibv_device *device)
{
	if (!device)
		return verbs_null_einval();
	return verbs_open_device(device, NULL);
}

int ibv_close_device(struct ibv_context *ctx)
{
	struct verbs_device *vdev;
	int cmd_fd;

	if (verbs_null_arg(ctx))
		return -1;
	vdev = verbs_get_device(ctx->device);
	cmd_fd = ctx->cmd_fd;
	get_ops(ctx)->free_context(ctx);
	close(cmd_fd);
	verbs_device_put(vdev);
	return 0;
}

static struct ibv_device *find_by_rdev(struct ibv_device **list, dev_t rdev)
{
	for (; *list; list++)
		if (verbs_get_device(*list)->sysfs->sysfs_cdev == rdev)
			return *list;
	return NULL;
}

struct ibv_context *ibv_import_device(int cmd_fd)
{
	struct ibv_context *ctx = NULL;
	struct verbs_device *vdev;
	struct verbs_context *vctx;
	struct ibv_device **list;
	struct ibv_device *dev;
	struct stat st;

	if (fstat(cmd_fd, &st) || !S_ISCHR(st.st_mode)) {
		errno = EINVAL;
		return NULL;
	}
	list = ibv_get_device_list(NULL);
	if (!list)
		return NULL;
	dev = find_by_rdev(list, st.st_rdev);
	if (!dev) {
		errno = ENODEV;
		goto out;
	}
	vdev = verbs_get_device(dev);
	if (!vdev->ops->import_context) {
		errno = EOPNOTSUPP;
		goto out;
	}
	/* On failure the caller keeps @cmd_fd; on success the context. */
	vctx = vdev->ops->import_context(dev, cmd_fd);
	if (vctx && !finish_context(vdev, &vctx->context)) {
		ctx = &vctx->context;
		get_priv(ctx)->imported = true;
	}
out:
	ibv_free_device_list(list);
	return ctx;
}
