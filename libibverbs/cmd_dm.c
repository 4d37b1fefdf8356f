// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* UVERBS_OBJECT_DM: device memory allocation (ioctl only). */
#include <errno.h>

#include "cmd_write.h"

int ibv_cmd_alloc_dm(struct ibv_context *ctx,
		     const struct ibv_alloc_dm_attr *attr, struct verbs_dm *dm,
		     struct uverbs_cmd *drv_cmd)
{
	DECLARE_UVERBS_CMD(local, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC, 0);
	struct uverbs_cmd *cmd = uverbs_cmd_pick(drv_cmd, local);
	struct ib_uverbs_attr *handle;
	int ret;

	handle = uverbs_attr_new_obj(cmd, UVERBS_ATTR_ALLOC_DM_HANDLE);
	uverbs_attr_in_u64(cmd, UVERBS_ATTR_ALLOC_DM_LENGTH, attr->length);
	uverbs_attr_in_u32(cmd, UVERBS_ATTR_ALLOC_DM_ALIGNMENT,
			   attr->log_align_req);
	ret = verbs_execute_ioctl_only(ctx, cmd);
	if (ret)
		return ret;
	dm->handle = uverbs_attr_handle(handle);
	dm->dm.context = ctx;
	dm->dm.handle = dm->handle;
	dm->dm.comp_mask = IBV_DM_MASK_HANDLE;
	return 0;
}

int ibv_cmd_free_dm(struct verbs_dm *dm)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE, 1);

	uverbs_attr_in_obj(cmd, UVERBS_ATTR_FREE_DM_HANDLE, dm->handle);
	return verbs_destroy_result(
		verbs_execute_ioctl_only(dm->dm.context, cmd), NULL);
}
