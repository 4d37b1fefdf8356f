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
	struct sim_obj *dm;
	int ret;

	if (!d->alloc_dm)
		return -EOPNOTSUPP;
	dm = sim_obj_new(c->uv, SIM_OBJ_DM);
	if (!dm)
		return -ENOMEM;
	dm->dm.alloc = -1;
	dm->dm.length = len;
	ret = d->alloc_dm(c, dm, len, align);
	if (ret) {
		sim_obj_destroy(c->uv, dm);
		return ret;
	}
	sim_attr_set_new(c, UVERBS_ATTR_ALLOC_DM_HANDLE, dm->handle);
	snprintf(c->note, sizeof(c->note),
		 "handle=%u type=%u start_offset=%#llx page_index=%#x",
		 dm->handle, dm->dm.dm_type,
		 (unsigned long long)dm->dm.start_offset, dm->dm.page_index);
	return 0;
}

static int dm_free(struct sim_call *c)
{
	return sim_obj_destroy(c->uv,
			       sim_attr_obj(c, UVERBS_ATTR_FREE_DM_HANDLE));
}

static const struct sim_attr_spec dm_alloc_attrs[] = {
	A_IDR(UVERBS_ATTR_ALLOC_DM_HANDLE, SIM_OBJ_DM, SA_NEW),
	A_IN(UVERBS_ATTR_ALLOC_DM_LENGTH, 8, 8, 1),
	A_IN(UVERBS_ATTR_ALLOC_DM_ALIGNMENT, 4, 4, 1),
};

static const struct sim_attr_spec dm_free_attrs[] = {
	A_IDR(UVERBS_ATTR_FREE_DM_HANDLE, SIM_OBJ_DM, SA_DESTROY),
};

const struct sim_method sim_dm_methods[] = {
	SIM_METHOD(UVERBS_OBJECT_DM, "DM", UVERBS_METHOD_DM_ALLOC, "DM_ALLOC",
		   dm_alloc, dm_alloc_attrs, SIM_M_NEEDS_CTX),
	SIM_METHOD(UVERBS_OBJECT_DM, "DM", UVERBS_METHOD_DM_FREE, "DM_FREE",
		   dm_free, dm_free_attrs, SIM_M_NEEDS_CTX),
};
const unsigned int sim_dm_nmethods = ARRAY_SIZE(sim_dm_methods);
