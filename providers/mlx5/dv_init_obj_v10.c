// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5dv_init_obj@MLX5_1.0, the first release's form, kept (non-default)
 * for binaries linked against it. It differs from today's only in what
 * mlx5dv_cq.cq_uar holds: there it was the address of the pointer to the
 * CQ's doorbell UAR, not the UAR itself.
 */
#include "datapath.h"
#include "mlx5.h"

int mlx5dv_init_obj_v10(struct mlx5dv_obj *obj, uint64_t obj_type);

int mlx5dv_init_obj_v10(struct mlx5dv_obj *obj, uint64_t obj_type)
{
	int ret = mlx5dv_init_obj(obj, obj_type);

	if (!ret && (obj_type & MLX5DV_OBJ_CQ))
		obj->cq.out->cq_uar = &to_mcq(obj->cq.in)->uar;
	return ret;
}
__asm__(".symver mlx5dv_init_obj_v10, mlx5dv_init_obj@MLX5_1.0");
