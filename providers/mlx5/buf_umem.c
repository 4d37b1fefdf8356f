// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Queues whose memory is a dma-buf (a CC parent domain's, from the shared
 * heap) are described to the kernel by fd and offset, in BUF_UMEM
 * attributes of the create ioctl (struct ib_uverbs_buffer_desc), since a
 * confidential-computing guest's kernel cannot pin them by address.
 */
#include "datapath.h"

/* @len bytes at @off of dma-buf @fd. */
static void buf_desc(struct rdma_dm_buffer_desc *desc, int fd, size_t off,
		     size_t len)
{
	*desc = (struct rdma_dm_buffer_desc){
		.type = RDMA_DM_BUFFER_DESC_TYPE_DMABUF,
		.fd = fd,
		.addr = off,
		.length = len,
	};
}

void mlx5_add_buf_umem(struct mlx5_context *ctx, struct uverbs_cmd *cmd,
		       const struct mlx5_buf *buf, __be32 *db,
		       uint16_t buf_attr, uint16_t dbr_attr,
		       struct rdma_dm_buffer_desc umem[2])
{
	size_t off = 0;
	int fd = -1;

	if (buf->type != MLX5_BUF_DMABUF)
		return;
	buf_desc(&umem[0], buf->dmabuf_fd, 0, buf->length);
	uverbs_attr_in_ptr(cmd, buf_attr, &umem[0], sizeof(umem[0]));
	if (mlx5_dbrec_dmabuf(ctx, db, &fd, &off))
		return;
	buf_desc(&umem[1], fd, off, 8);
	uverbs_attr_in_ptr(cmd, dbr_attr, &umem[1], sizeof(umem[1]));
}
