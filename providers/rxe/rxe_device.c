// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Which devices are rxe, and the per-device object. */
#include <stdlib.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include "rxe.h"

/* Netlink gives the driver id; sysfs-only discovery falls back to names. */
static const struct verbs_match_ent rxe_match_table[] = {
	VERBS_DRIVER_ID(RDMA_DRIVER_RXE),
	VERBS_NAME_MATCH("rxe", NULL),
	VERBS_MATCH_END,
};

static struct verbs_device *rxe_alloc_device(struct verbs_sysfs_dev *sysfs)
{
	struct rxe_device *dev = calloc(1, sizeof(*dev));

	return dev ? &dev->vdev : NULL;
}

static void rxe_uninit_device(struct verbs_device *vdev)
{
	free((struct rxe_device *)vdev);
}

static const struct verbs_device_ops rxe_device_ops = {
	.name = "rxe",
	.match_min_abi_version = RXE_UVERBS_ABI_VERSION,
	.match_max_abi_version = RXE_UVERBS_ABI_VERSION,
	.match_table = rxe_match_table,
	.alloc_device = rxe_alloc_device,
	.uninit_device = rxe_uninit_device,
	.alloc_context = rxe_alloc_context,
};
PROVIDER_DRIVER(rxe, rxe_device_ops);
