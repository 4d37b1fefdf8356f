// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* UVERBS_OBJECT_DMABUF: export an mmap region of cmd_fd as a dma-buf. */
#include <errno.h>

#include "cmd_write.h"

int ibv_cmd_export_dmabuf_fd(struct ibv_context *ctx, off_t mmap_offset)
{
	DECLARE_UVERBS_CMD(cmd, RDMA_DM_OBJECT_DMABUF,
			   RDMA_DM_METHOD_DMABUF_ALLOC, 2);
	struct ib_uverbs_attr *fd_attr;
	int ret;

	fd_attr = uverbs_attr_new_fd(cmd, RDMA_DM_ATTR_ALLOC_DMABUF_HANDLE);
	uverbs_attr_in_u64(cmd, RDMA_DM_ATTR_ALLOC_DMABUF_PGOFF,
			   (uint64_t)mmap_offset);
	/* A kernel without the DMABUF object says EOPNOTSUPP here. */
	ret = verbs_execute_ioctl_only(ctx, cmd);
	if (ret)
		return -1;
	return uverbs_attr_fd(fd_attr);
}
