// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* UVERBS_OBJECT_DM: core alloc/free; the memory itself is the driver's. */
#include "uapi.h"

#include <errno.h>
#include <stdio.h>

static int dm_alloc(struct sim_call *c)
{
	const struct sim_driver_ops *d = sim_driver();
	uint64_t len = sim_attr_u64(c, UVERBS_ATTR_ALLOC_DM_LENGTH, 0);
	uint32_t align =
		(uint32_t)sim_attr_u64(c, UVERBS_ATTR_ALLOC_DM_ALIGNMENT, 0);
	struct sim_dm *dm =
		sim_dm(sim_attr_obj(c, UVERBS_ATTR_ALLOC_DM_HANDLE));
	int ret;

	dm->alloc = -1;
	if (!d->alloc_dm)
		return -EOPNOTSUPP;
	dm->length = len;
	ret = d->alloc_dm(c, dm, len, align);
	if (ret)
		return ret;
	snprintf(c->note, sizeof(c->note),
		 "handle=%u type=%u start_offset=%#llx page_index=%#x",
		 dm->obj.handle, dm->dm_type,
		 (unsigned long long)dm->start_offset, dm->page_index);
	return 0;
}

static const struct sim_attr_spec dm_alloc_attrs[] = {
	A_IDR(UVERBS_ATTR_ALLOC_DM_HANDLE, sim_type_dm, SA_NEW),
	A_IN(UVERBS_ATTR_ALLOC_DM_LENGTH, 8, 8, 1),
	A_IN(UVERBS_ATTR_ALLOC_DM_ALIGNMENT, 4, 4, 1),
};

static const struct sim_attr_spec dm_free_attrs[] = {
	A_IDR(UVERBS_ATTR_FREE_DM_HANDLE, sim_type_dm, SA_DESTROY),
};

static const struct sim_method dm_methods[] = {
	SIM_METHOD(UVERBS_OBJECT_DM, "DM", UVERBS_METHOD_DM_ALLOC, "DM_ALLOC",
		   dm_alloc, dm_alloc_attrs, SIM_M_NEEDS_CTX),
	SIM_METHOD(UVERBS_OBJECT_DM, "DM", UVERBS_METHOD_DM_FREE, "DM_FREE",
		   sim_destroy_method, dm_free_attrs, SIM_M_NEEDS_CTX),
};

/* The DM's mmap entries (base and op addresses) and its MEMIC pages. */
static void dm_destroy(struct sim_uvfile *uv, struct sim_obj *o)
{
	struct sim_dm *dm = sim_dm(o);
	struct sim_entry *e, *next;
	int slot = dm->alloc;

	for (e = uv->entries; e; e = next) {
		next = e->next;
		if (e->owner == o)
			sim_entry_remove(uv, e);
	}
	if (slot < 0 || !sim_uvfile_mine(uv))
		return;
	sim_shared_lock(sim.sh);
	sim.sh->allocs[slot].dm_alive = 0; /* revokes its exports */
	sim_memic_put(slot);
	sim_shared_unlock(sim.sh);
}

/* A driver without alloc_dm has no DM object (DM_ALLOC: EPROTONOSUPPORT). */
static int dm_hidden(void)
{
	return !sim_driver()->alloc_dm;
}

const struct sim_obj_type sim_type_dm = {
	.name = "DM",
	.uapi_id = UVERBS_OBJECT_DM,
	.size = sizeof(struct sim_dm),
	.order = SIM_ORDER_QUEUES,
	.destroy = dm_destroy,
	.hidden = dm_hidden,
	.methods = dm_methods,
	.nmethods = ARRAY_SIZE(dm_methods),
};
SIM_OBJ_TYPE(sim_type_dm);
