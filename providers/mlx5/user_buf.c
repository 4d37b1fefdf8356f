// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibv_alloc_buf() on mlx5: page-aligned ordinary memory, whole pages (the
 * kernel pins pages, and a sub-range MR then never shares a page with
 * memory the application did not ask for), kept out of fork() children.
 * On a confidential-computing guest the HCA can only reach memory shared
 * with the host: a parent domain that allows it (cc_heap) hands out
 * buffers from the CoCo shared DMA-buf heap, each its own dma-buf, which
 * ibv_reg_buf_mr() then registers by fd and ibv_export_buf_dmabuf_fd()
 * duplicates. A parent domain with allocators of its own (and no CC heap)
 * hands out what its alloc() returns for resource type 0, page aligned,
 * unless that says IBV_ALLOCATOR_USE_DEFAULT; its free() takes it back.
 */
#include <errno.h>
#include <stdlib.h>

#include "datapath.h"
#include "dmabuf_heap.h"

struct mlx5_user_buf {
	struct ibv_buf buf;
	struct mlx5_parent_domain *custom; /* its allocator's memory */
};

/* Exported IBVERBS_1.1; libibverbs' own header keeps the prototypes. */
int ibv_dontfork_range(void *base, size_t size);
int ibv_dofork_range(void *base, size_t size);

/* Ordinary memory (@fd -1) or a heap dma-buf mapped whole. */
static void release(void *addr, size_t size, int fd)
{
	if (fd < 0)
		free(addr);
	else
		ibv_dmabuf_heap_free(addr, size, fd);
}

/* The memory, from where @pd says (see the top); NULL on failure. */
static void *take(struct ibv_pd *pd, size_t page, size_t size, int *fd,
		  struct mlx5_parent_domain **custom)
{
	struct mlx5_parent_domain *mparent = to_mparent_domain(pd);
	void *addr;

	if (mparent && mparent->cc_heap)
		return ibv_dmabuf_heap_alloc(mparent->cc_heap, size, fd);
	mparent = mlx5_custom_allocator(pd);
	if (mparent) {
		addr = mparent->alloc(pd, mparent->pd_context, size, page, 0);
		if (addr != IBV_ALLOCATOR_USE_DEFAULT) {
			*custom = mparent;
			return addr;
		}
	}
	return posix_memalign(&addr, page, size) ? NULL : addr;
}

void *mlx5_alloc_user_buf(struct ibv_pd *pd, size_t size,
			  struct ibv_buf **buf)
{
	size_t page = to_mctx(pd->context)->page_size;
	struct mlx5_user_buf *ub;
	int fd = -1;
	void *addr;

	if (!size) {
		errno = EINVAL;
		return NULL;
	}
	ub = calloc(1, sizeof(*ub));
	if (!ub)
		goto err;
	size = mlx5_align_up(size, page);
	addr = take(pd, page, size, &fd, &ub->custom);
	if (!addr)
		goto err_free;
	/* The caller's own memory: its fork behaviour is the caller's. */
	if (!ub->custom && ibv_dontfork_range(addr, size)) {
		release(addr, size, fd);
		goto err_free;
	}
	ibv_buf_init_dmabuf(&ub->buf, pd, addr, size, fd);
	*buf = &ub->buf;
	return addr;

err_free:
	free(ub);
err:
	/* Whatever failed, the caller learns the memory is not there. */
	errno = ENOMEM;
	return NULL;
}

void mlx5_free_user_buf(struct ibv_buf *buf)
{
	struct mlx5_user_buf *ub = (struct mlx5_user_buf *)buf;

	if (ub->custom) {
		ub->custom->free(buf->pd, ub->custom->pd_context, buf->addr, 0);
		free(ub);
		return;
	}
	ibv_dofork_range(buf->addr, buf->size);
	release(buf->addr, buf->size, buf->dmabuf_fd);
	free(ub);
}
