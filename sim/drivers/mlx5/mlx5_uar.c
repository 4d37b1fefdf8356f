// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5 dynamic UAR objects: one page each, an mmap entry whose bytes live in
 * a device page file, so the CPU mappings and the dma-bufs exported from it
 * (a GPU ringing the doorbells) see the same page.
 */
#include "mlx5.h"

#include <errno.h>
#include <stdio.h>

int mlx5_sim_uar_alloc(struct sim_call *c)
{
	uint64_t type = sim_attr_u64(c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE, 0);
	uint32_t len = sim.sh->cfg.page_size, key;
	struct sim_uar *uar =
		sim_uar(sim_attr_obj(c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE));
	int64_t pages;
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
	uar->entry = sim_entry_add(c->uv, key, SIM_ENT_UAR, 1, -1, &uar->obj);
	if (!uar->entry)
		return -ENOMEM;
	/* the page's bytes, shared by its mappings and its dma-bufs */
	pages = sim_page_file_new(1);
	if (pages < 0)
		return (int)pages;
	uar->entry->pages = (uint32_t)pages;
	uar->page_id = c->uv->page_ids++;
	off = mlx5_sim_key_to_offset(key);
	ret = sim_attr_copy_out(c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET, &off,
				sizeof(off));
	if (!ret)
		ret = sim_attr_copy_out(c,
					MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH,
					&len, sizeof(len));
	if (!ret)
		ret = sim_attr_copy_out(c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID,
					&uar->page_id, sizeof(uint32_t));
	if (ret)
		return ret;
	snprintf(c->note, sizeof(c->note), "handle=%u mmap_offset=%#llx",
		 uar->obj.handle, (unsigned long long)off);
	return 0;
}

int mlx5_sim_uar_destroy(struct sim_call *c)
{
	return sim_obj_destroy(
		c->uv, sim_attr_obj(c, MLX5_IB_ATTR_UAR_OBJ_DESTROY_HANDLE));
}

static void uar_destroy(struct sim_uvfile *uv, struct sim_obj *o)
{
	struct sim_uar *uar = sim_uar(o);

	if (uar->entry)
		sim_entry_remove(uv, uar->entry);
}

/* Its methods are the driver's (mlx5_methods.c); other drivers have none. */
const struct sim_obj_type mlx5_sim_type_uar = {
	.name = "MLX5_UAR",
	.uapi_id = MLX5_IB_OBJECT_UAR,
	.size = sizeof(struct sim_uar),
	.order = SIM_ORDER_QUEUES,
	.destroy = uar_destroy,
};
SIM_OBJ_TYPE(mlx5_sim_type_uar);
