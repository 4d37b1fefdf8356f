// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Ring memory: page aligned (the kernel pins whole pages and mlx5 wants
 * the ring at a page start), zeroed, and kept out of fork() children so a
 * child's copy-on-write never moves a page the HCA writes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "datapath.h"

int mlx5_alloc_buf(struct mlx5_buf *buf, size_t size, size_t page_size)
{
	size_t len = mlx5_align_up(size, page_size);
	void *p;

	if (!size)
		return EINVAL;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return ENOMEM;
	madvise(p, len, MADV_DONTFORK);
	buf->addr = p;
	buf->length = len;
	return 0;
}

void mlx5_free_buf(struct mlx5_buf *buf)
{
	if (buf->addr)
		munmap(buf->addr, buf->length);
	buf->addr = NULL;
	buf->length = 0;
}
