// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibv_alloc_buf() on mlx5: page-aligned ordinary memory, whole pages (the
 * kernel pins pages, and a sub-range MR then never shares a page with
 * memory the application did not ask for), kept out of fork() children.
 * A parent domain that may hand out CoCo bounce memory would take it from
 * the DMA-buf heap; this provider has no parent domains yet.
 */
#include <errno.h>
#include <stdlib.h>

#include "mlx5.h"

struct mlx5_user_buf {
	struct ibv_buf buf;
};

/* Exported IBVERBS_1.1; libibverbs' own header keeps the prototypes. */
int ibv_dontfork_range(void *base, size_t size);
int ibv_dofork_range(void *base, size_t size);

void *mlx5_alloc_user_buf(struct ibv_pd *pd, size_t size,
			  struct ibv_buf **buf)
{
	size_t page = to_mctx(pd->context)->page_size;
	struct mlx5_user_buf *ub;
	void *addr;

	if (!size) {
		errno = EINVAL;
		return NULL;
	}
	ub = calloc(1, sizeof(*ub));
	if (!ub)
		goto err;
	size = mlx5_align_up(size, page);
	if (posix_memalign(&addr, page, size))
		goto err_free;
	if (ibv_dontfork_range(addr, size)) {
		free(addr);
		goto err_free;
	}
	ibv_buf_init(&ub->buf, pd, addr, size);
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

	ibv_dofork_range(buf->addr, buf->size);
	free(buf->addr);
	free(ub);
}
