// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Provider buffers (IBVERBS_1.17/1.18): memory a PD's provider hands out,
 * ordinary or a dma-buf from a heap (a confidential-computing guest's
 * device can only reach memory shared with the host), and the MRs and
 * dma-buf fds made from them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>

#include "ibverbs.h"
#include "verbs_internal.h"

void *ibv_alloc_buf(struct ibv_pd *pd, size_t size, struct ibv_buf **buf)
{
	if (!pd || !buf)
		return verbs_null_einval();
	return get_ops(pd->context)->alloc_buf(pd, size, buf);
}

/* The PD outlives its buffers: its context names the provider. */
void ibv_free_buf(struct ibv_buf *buf)
{
	if (verbs_null_arg(buf))
		return;
	get_ops(buf->pd->context)->free_buf(buf);
}

int ibv_export_buf_dmabuf_fd(struct ibv_buf *buf)
{
	if (verbs_null_arg(buf))
		return -1;
	if (buf->dmabuf_fd < 0) {
		errno = ENODATA;
		return -1;
	}
	/* The caller's own reference: the buffer keeps (and closes) its fd. */
	return fcntl(buf->dmabuf_fd, F_DUPFD_CLOEXEC, 0);
}

struct ibv_mr *ibv_reg_buf_mr(struct ibv_pd *pd, struct ibv_buf *buf,
			      void *addr, size_t length, int access)
{
	struct ibv_mr_init_attr attr = {
		.length = length,
		.access = access,
		.comp_mask = IBV_REG_MR_MASK_BUF | IBV_REG_MR_MASK_ADDR,
		.addr = addr,
		.buf = buf,
	};

	return ibv_reg_mr_ex(pd, &attr);
}

int verbs_mr_attr_from_buf(struct ibv_pd *pd, struct ibv_mr_init_attr *a)
{
	const struct ibv_buf *buf = a->buf;
	uintptr_t base, addr = (uintptr_t)a->addr;
	size_t off;

	/* A parent domain and its inner PD are different PDs here. */
	if (!buf || pd != buf->pd || !(a->comp_mask & IBV_REG_MR_MASK_ADDR))
		return EINVAL;
	base = (uintptr_t)buf->addr;
	if (addr < base)
		return EINVAL;
	off = addr - base;
	if (off > buf->size || a->length > buf->size - off)
		return EINVAL;
	if (a->comp_mask & (IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET))
		return EINVAL;
	a->comp_mask &= ~(uint64_t)IBV_REG_MR_MASK_BUF;
	a->buf = NULL;
	if (buf->dmabuf_fd < 0)
		return 0;

	/* The device sees the dma-buf; the MR keeps the process address. */
	if (a->comp_mask & IBV_REG_MR_MASK_IOVA)
		return EINVAL;
	a->comp_mask &= ~(uint64_t)IBV_REG_MR_MASK_ADDR;
	a->comp_mask |= IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET |
			IBV_REG_MR_MASK_IOVA;
	a->addr = NULL;
	a->fd = buf->dmabuf_fd;
	a->fd_offset = off;
	a->iova = addr;
	return 0;
}
