// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* mlx5 dynamic UAR objects: one page each, mapped as ordinary memory. */
#include "mlx5.h"

#include <errno.h>
#include <stdio.h>

int mlx5_sim_uar_alloc(struct sim_call *c)
{
	uint64_t type = sim_attr_u64(c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE, 0);
	uint32_t len = sim.sh->cfg.page_size, key;
	struct sim_obj *uar;
	uint64_t off;
	int ret;

	if (!c->uv->uar_dyn)
		return -EOPNOTSUPP; /* static-UAR context */
	if (type != MLX5_IB_UAPI_UAR_ALLOC_TYPE_BF &&
	    type != MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC)
		return -EOPNOTSUPP;
	if (sim_entry_key_alloc(c->uv, MLX5_SIM_UAR_KEY_LO, MLX5_SIM_UAR_KEY_HI,
				1, &key))
		return -ENOMEM;
	uar = sim_obj_new(c->uv, SIM_OBJ_UAR);
	if (!uar)
		return -ENOMEM;
	uar->uar.entry = sim_entry_add(c->uv, key, SIM_ENT_UAR, 1, -1, uar);
	if (!uar->uar.entry) {
		sim_obj_destroy(c->uv, uar);
		return -ENOMEM;
	}
	uar->uar.page_id = c->uv->page_ids++;
	off = mlx5_sim_key_to_offset(key);
	ret = sim_attr_copy_out(c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET, &off,
				sizeof(off));
	if (!ret)
		ret = sim_attr_copy_out(c,
					MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH,
					&len, sizeof(len));
	if (!ret)
		ret = sim_attr_copy_out(c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID,
					&uar->uar.page_id, sizeof(uint32_t));
	if (ret) {
		sim_obj_destroy(c->uv, uar);
		return ret;
	}
	sim_attr_set_new(c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE, uar->handle);
	snprintf(c->note, sizeof(c->note), "handle=%u mmap_offset=%#llx",
		 uar->handle, (unsigned long long)off);
	return 0;
}

int mlx5_sim_uar_destroy(struct sim_call *c)
{
	return sim_obj_destroy(
		c->uv, sim_attr_obj(c, MLX5_IB_ATTR_UAR_OBJ_DESTROY_HANDLE));
}
