// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5dv_get_export_sizes: how many bytes the MLX5_1.27 export calls write
 * for each object type. The records are the formats another process's
 * import reads, so they are fixed: changing one is an ABI break. This
 * provider has no DEVX objects, UMEMs or VARs to export (their export and
 * import refuse, dv_offload_unsupported.c), but a caller sizing buffers
 * gets the sizes every libmlx5 of this ABI agrees on.
 */
#include <errno.h>
#include <string.h>
#include <sys/types.h>

#include "mlx5.h"

/* The record of an exported VAR. */
struct mlx5_var_export {
	uint32_t handle;
	uint32_t page_id;
	uint32_t length;
	off_t mmap_off;
};

/* ... of a DEVX UMEM. */
struct mlx5_umem_export {
	uint32_t handle;
	uint32_t umem_id;
};

/* ... of a DEVX object. */
struct mlx5_devx_obj_export {
	uint32_t handle;
	uint32_t type;
	uint32_t object_id;
	uint64_t rx_icm_addr;
	uint8_t log_obj_range;
};

void _mlx5dv_get_export_sizes(struct mlx5dv_export_sizes *sizes,
			      size_t sizes_len)
{
	struct mlx5dv_export_sizes all = {
		.var_attrs_size = sizeof(struct mlx5_var_export),
		.devx_umem_attrs_size = sizeof(struct mlx5_umem_export),
		.devx_obj_attrs_size = sizeof(struct mlx5_devx_obj_export),
	};

	if (!sizes) {
		errno = EINVAL;
		return;
	}
	/* A caller's struct older (shorter) or newer (longer) than ours. */
	memset(sizes, 0, sizes_len);
	memcpy(sizes, &all, sizes_len < sizeof(all) ? sizes_len : sizeof(all));
}
