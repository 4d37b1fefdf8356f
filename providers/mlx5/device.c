// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Which devices this provider drives, and the per-device object.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "mlx5.h"

#define MLX5_PCI_VENDOR_MELLANOX 0x15b3

/* The kernel's driver id first; PCI ids for sysfs-only discovery. */
static const struct verbs_match_ent mlx5_match_table[] = {
	VERBS_DRIVER_ID(RDMA_DRIVER_MLX5),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0x1011, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0x1012, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0x1013, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0x1014, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0x1015, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0x1016, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0x1017, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0x1018, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0x1019, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0x101a, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0x101b, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0x101c, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0x101d, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0x101e, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0x101f, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0x1021, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0x1023, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0x1025, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0x1027, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0x2101, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0xa2d2, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0xa2d3, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0xa2d6, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0xa2dc, NULL),
	VERBS_PCI_MATCH(MLX5_PCI_VENDOR_MELLANOX, 0xa2df, NULL),
	VERBS_MATCH_END,
};

static struct verbs_device *mlx5_alloc_device(struct verbs_sysfs_dev *sysfs)
{
	struct mlx5_device *dev;
	long page_size = sysconf(_SC_PAGESIZE);

	if (page_size <= 0) {
		errno = EINVAL;
		return NULL;
	}
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return NULL;
	/* mmap offsets are counted in these pages; the kernel uses the same. */
	dev->page_size = (size_t)page_size;
	return &dev->verbs_dev;
}

static void mlx5_uninit_device(struct verbs_device *vdev)
{
	free(to_mdev(&vdev->device));
}

const struct verbs_device_ops mlx5_dev_ops = {
	.name = "mlx5",
	.match_min_abi_version = MLX5_UVERBS_MIN_ABI_VERSION,
	.match_max_abi_version = MLX5_UVERBS_MAX_ABI_VERSION,
	.match_table = mlx5_match_table,
	.alloc_device = mlx5_alloc_device,
	.uninit_device = mlx5_uninit_device,
	.alloc_context = mlx5_alloc_context,
	.import_context = mlx5_import_context,
};
PROVIDER_DRIVER(mlx5, mlx5_dev_ops);

bool mlx5_is_mlx5_context(struct ibv_context *ibctx)
{
	return ibctx && ibctx->device &&
	       verbs_get_device(ibctx->device)->ops == &mlx5_dev_ops;
}

bool mlx5dv_is_supported(struct ibv_device *device)
{
	if (!device) {
		errno = EINVAL;
		return false;
	}
	return verbs_get_device(device)->ops == &mlx5_dev_ops;
}
