// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5 device memory: MEMIC (host-mappable on-chip memory, whole pages per
 * allocation as the kernel's page bitmap does, 64-byte size granularity)
 * and the SW-ICM types, which this device does not have.
 */
#include "mlx5.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <stdio.h>
#include <string.h>

/* Fresh MEMIC reads as zeros: the previous owner's bytes never leak. */
static void zero_pages(unsigned int dev, uint32_t first, uint32_t npages)
{
	uint64_t page = sim.sh->cfg.page_size;
	static const uint8_t zeros[4096];
	off_t pos = sim_memic_pos(dev, first);
	off_t end = pos + (off_t)(npages * page);

	if (!fallocate(sim.memic_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		       pos, end - pos))
		return;
	for (; pos < end; pos += sizeof(zeros))
		if (sys.pwrite(sim.memic_fd, zeros, sizeof(zeros), pos) < 0)
			return;
}

static void release_slot(int slot)
{
	sim_shared_lock(sim.sh);
	sim.sh->allocs[slot].dm_alive = 0;
	sim_memic_put(slot);
	sim_shared_unlock(sim.sh);
}

static int alloc_memic(struct sim_call *c, struct sim_dm *dm, uint64_t len,
		       uint32_t log_align)
{
	uint64_t page = sim.sh->cfg.page_size;
	uint64_t size = (len + MLX5_SIM_MEMIC_BASE - 1) &
			~(uint64_t)(MLX5_SIM_MEMIC_BASE - 1);
	uint32_t npages, key;
	struct sim_entry *e;
	int slot;

	if (!sim.sh->cfg.dm_size)
		return -EOPNOTSUPP; /* no memic capability */
	if (!len || size < len)
		return -EINVAL;
	if (log_align > 6 && log_align - 6 > MLX5_SIM_LOG_MAX_MEMIC_ALIGN)
		return -EINVAL;
	if (size > sim.sh->cfg.dm_size)
		return -ENOMEM;
	npages = (uint32_t)((size + page - 1) / page);
	if (sim_entry_key_alloc(c->uv, MLX5_SIM_DM_KEY_LO, MLX5_SIM_DM_KEY_HI,
				npages, &key))
		return -ENOMEM;
	slot = sim_memic_alloc(c->uv->dev, npages);
	if (slot < 0)
		return slot;
	zero_pages(c->uv->dev, sim.sh->allocs[slot].first_page, npages);
	e = sim_entry_add(c->uv, key, SIM_ENT_MEMIC, npages, slot, &dm->obj);
	if (!e) {
		release_slot(slot);
		return -ENOMEM;
	}
	dm->alloc = slot;
	dm->base = e;
	dm->start_offset = 0; /* allocations start on a page */
	dm->page_index = (uint16_t)(key & 0xffff);
	if (!sim_attr(c, MLX5_IB_ATTR_ALLOC_DM_RESP_PAGE_INDEX))
		return -ENOENT; /* uverbs_copy_to on an absent attr */
	if (sim_attr_copy_out(c, MLX5_IB_ATTR_ALLOC_DM_RESP_START_OFFSET,
			      &dm->start_offset, sizeof(uint64_t)) ||
	    sim_attr_copy_out(c, MLX5_IB_ATTR_ALLOC_DM_RESP_PAGE_INDEX,
			      &dm->page_index, sizeof(uint16_t)))
		return -EFAULT;
	return 0;
}

int mlx5_sim_alloc_dm(struct sim_call *c, struct sim_dm *dm, uint64_t len,
		      uint32_t log_align)
{
	uint64_t type = sim_attr_u64(c, MLX5_IB_ATTR_ALLOC_DM_REQ_TYPE,
				     MLX5_IB_UAPI_DM_TYPE_MEMIC);

	dm->dm_type = (uint32_t)type;
	switch (type) {
	case MLX5_IB_UAPI_DM_TYPE_MEMIC:
		return alloc_memic(c, dm, len, log_align);
	case MLX5_IB_UAPI_DM_TYPE_STEERING_SW_ICM:
	case MLX5_IB_UAPI_DM_TYPE_HEADER_MODIFY_SW_ICM:
	case MLX5_IB_UAPI_DM_TYPE_HEADER_MODIFY_PATTERN_SW_ICM:
	case 4: /* ENCAP_SW_ICM */
		if (!sim_has_raw_caps())
			return -EPERM;
		return -EOPNOTSUPP; /* no SW steering ownership */
	default:
		return -EOPNOTSUPP;
	}
}

static struct sim_entry *find_op_entry(struct sim_uvfile *uv, struct sim_dm *dm,
				       uint8_t op)
{
	struct sim_entry *e;

	for (e = uv->entries; e; e = e->next)
		if (e->owner == &dm->obj && e->op == op)
			return e;
	return NULL;
}

/*
 * Each op gets its own mmap entry over the DM's pages. Writes through it
 * store plain bytes: the device's atomic side effects are not emulated.
 */
int mlx5_sim_dm_map_op_addr(struct sim_call *c)
{
	struct sim_dm *dm =
		sim_dm(sim_attr_obj(c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_HANDLE));
	uint8_t op = 0;
	struct sim_entry *e;
	uint16_t idx;
	uint32_t key;

	sim_attr_copy_in(c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_OP, &op, 1);
	if (dm->dm_type != MLX5_IB_UAPI_DM_TYPE_MEMIC || !dm->base)
		return -EINVAL;
	if (op >= 32 || !(MLX5_SIM_MEMIC_OPS & (1u << op)))
		return -EOPNOTSUPP;
	e = find_op_entry(c->uv, dm, op);
	if (!e) {
		if (sim_entry_key_alloc(c->uv, MLX5_SIM_DM_KEY_LO,
					MLX5_SIM_DM_KEY_HI, dm->base->npages,
					&key))
			return -ENOMEM;
		e = sim_entry_add(c->uv, key, SIM_ENT_MEMIC, dm->base->npages,
				  dm->alloc, &dm->obj);
		if (!e)
			return -ENOMEM;
		e->op = op;
	}
	idx = (uint16_t)(e->key & 0xffff);
	snprintf(c->note, sizeof(c->note), "op=%u page_index=%#x", op, idx);
	if (sim_attr_copy_out(c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_START_OFFSET,
			      &dm->start_offset, sizeof(uint64_t)))
		return -EFAULT;
	return sim_attr_copy_out(c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_PAGE_INDEX,
				 &idx, sizeof(idx));
}

int mlx5_sim_dm_query(struct sim_call *c)
{
	struct sim_dm *dm =
		sim_dm(sim_attr_obj(c, MLX5_IB_ATTR_QUERY_DM_REQ_HANDLE));

	if (dm->dm_type != MLX5_IB_UAPI_DM_TYPE_MEMIC || !dm->base)
		return -EINVAL;
	if (sim_attr_copy_out(c, MLX5_IB_ATTR_QUERY_DM_RESP_START_OFFSET,
			      &dm->start_offset, sizeof(uint64_t)) ||
	    sim_attr_copy_out(c, MLX5_IB_ATTR_QUERY_DM_RESP_PAGE_INDEX,
			      &dm->page_index, sizeof(uint16_t)))
		return -EFAULT;
	return sim_attr_copy_out(c, MLX5_IB_ATTR_QUERY_DM_RESP_LENGTH,
				 &dm->length, sizeof(uint64_t));
}
