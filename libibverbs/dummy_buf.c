// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The default buffer and reg_mr_ex operations. Unlike the other defaults
 * these work for every provider: a buffer of ordinary memory, and an
 * extended registration served by the provider's classic reg_mr or
 * reg_dmabuf_mr.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "ibverbs.h"

void *verbs_default_alloc_buf(struct ibv_pd *pd, size_t size,
			      struct ibv_buf **buf)
{
	struct ibv_buf *b = calloc(1, sizeof(*b));
	void *addr;
	int ret;

	if (!b) {
		errno = ENOMEM;
		return NULL;
	}
	ret = posix_memalign(&addr, (size_t)sysconf(_SC_PAGESIZE), size);
	if (ret) {
		free(b);
		errno = ret;
		return NULL;
	}
	ibv_buf_init(b, pd, addr, size);
	*buf = b;
	return addr;
}

void verbs_default_free_buf(struct ibv_buf *buf)
{
	free(buf->addr);
	free(buf);
}

#define DEFAULT_REG_MR_EX_MASK                                                 \
	(IBV_REG_MR_MASK_IOVA | IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_FD |   \
	 IBV_REG_MR_MASK_FD_OFFSET)

/*
 * ibv_reg_mr_ex() has checked the mask's shape, held the fork range and
 * dropped unsupported optional access bits; DMA handles need the
 * provider's own reg_mr_ex.
 */
struct ibv_mr *verbs_default_reg_mr_ex(struct ibv_pd *pd,
				       struct ibv_mr_init_attr *a)
{
	const struct verbs_context_ops *ops = get_ops(pd->context);
	uint64_t iova, offset;

	if (a->comp_mask & ~(uint64_t)DEFAULT_REG_MR_EX_MASK) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (a->comp_mask & IBV_REG_MR_MASK_ADDR) {
		iova = (a->comp_mask & IBV_REG_MR_MASK_IOVA) ?
			       a->iova : (uintptr_t)a->addr;
		return ops->reg_mr(pd, a->addr, a->length, iova, a->access);
	}
	offset = (a->comp_mask & IBV_REG_MR_MASK_FD_OFFSET) ? a->fd_offset : 0;
	iova = (a->comp_mask & IBV_REG_MR_MASK_IOVA) ? a->iova : offset;
	return ops->reg_dmabuf_mr(pd, offset, a->length, iova, a->fd,
				  a->access);
}
