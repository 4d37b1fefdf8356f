// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* UVERBS_OBJECT_DMAH: DMA handles carrying PCIe TPH steering hints. */
#include <errno.h>

#include "cmd_write.h"

int ibv_cmd_alloc_dmah(struct ibv_context *ctx, struct verbs_dmah *dmah,
		       struct ibv_dmah_init_attr *attr)
{
	DECLARE_UVERBS_CMD(cmd, RDMA_DM_OBJECT_DMAH, RDMA_DM_METHOD_DMAH_ALLOC,
			   4);
	struct ib_uverbs_attr *handle;
	int ret;

	handle = uverbs_attr_new_obj(cmd, RDMA_DM_ATTR_ALLOC_DMAH_HANDLE);
	if (attr->comp_mask & IBV_DMAH_INIT_ATTR_MASK_CPU_ID)
		uverbs_attr_in_u32(cmd, RDMA_DM_ATTR_ALLOC_DMAH_CPU_ID,
				   attr->cpu_id);
	/* An enum attribute: the memory type is the element, no payload. */
	if (attr->comp_mask & IBV_DMAH_INIT_ATTR_MASK_TPH_MEM_TYPE)
		uverbs_attr_in_enum(cmd, RDMA_DM_ATTR_ALLOC_DMAH_TPH_MEM_TYPE,
				    attr->tph_mem_type, NULL, 0);
	if (attr->comp_mask & IBV_DMAH_INIT_ATTR_MASK_PH)
		uverbs_attr_in_ptr(cmd, RDMA_DM_ATTR_ALLOC_DMAH_PH, &attr->ph,
				   sizeof(attr->ph));
	ret = verbs_execute_ioctl_only(ctx, cmd);
	if (ret)
		return ret;
	dmah->dmah.context = ctx;
	dmah->handle = uverbs_attr_handle(handle);
	return 0;
}

int ibv_cmd_free_dmah(struct verbs_dmah *dmah)
{
	DECLARE_UVERBS_CMD(cmd, RDMA_DM_OBJECT_DMAH, RDMA_DM_METHOD_DMAH_FREE,
			   1);

	uverbs_attr_in_obj(cmd, RDMA_DM_ATTR_FREE_DMA_HANDLE, dmah->handle);
	/* A disassociated device already freed it. */
	return verbs_destroy_result(
		verbs_execute_ioctl_only(dmah->dmah.context, cmd), NULL);
}
