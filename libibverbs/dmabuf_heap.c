// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The kernel's DMA-buf heaps (/dev/dma_heap/<name>): one ioctl hands out
 * a new dma-buf of the asked size, which is then mapped like any other.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dmabuf_heap.h"

#if defined(__has_include) && __has_include(<linux/dma-heap.h>)
#include <linux/dma-heap.h>
#define HAVE_LINUX_DMA_HEAP_H 1
#endif

/* The heap a CoCo guest's kernel offers for memory the host may see. */
#define CC_SHARED_HEAP "/dev/dma_heap/system_cc_shared"

struct ibv_dmabuf_heap {
	int fd;
};

#ifdef HAVE_LINUX_DMA_HEAP_H

struct ibv_dmabuf_heap *ibv_dmabuf_heap_cc_shared_init(void)
{
	struct ibv_dmabuf_heap *heap = calloc(1, sizeof(*heap));

	if (!heap) {
		errno = ENOMEM;
		return NULL;
	}
	heap->fd = open(CC_SHARED_HEAP, O_RDWR | O_CLOEXEC);
	if (heap->fd < 0) {
		int err = errno;

		free(heap);
		errno = err;
		return NULL;
	}
	return heap;
}

void *ibv_dmabuf_heap_alloc(struct ibv_dmabuf_heap *heap, size_t size,
			    int *fd)
{
	struct dma_heap_allocation_data req = {
		.len = size,
		.fd_flags = O_RDWR | O_CLOEXEC,
	};
	void *addr;
	int err;

	if (ioctl(heap->fd, DMA_HEAP_IOCTL_ALLOC, &req))
		return NULL;
	addr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
		    (int)req.fd, 0);
	if (addr == MAP_FAILED) {
		err = errno;
		close((int)req.fd);
		errno = err;
		return NULL;
	}
	*fd = (int)req.fd;
	return addr;
}

void ibv_dmabuf_heap_free(void *addr, size_t size, int fd)
{
	munmap(addr, size);
	close(fd);
}

void ibv_dmabuf_heap_destroy(struct ibv_dmabuf_heap *heap)
{
	close(heap->fd);
	free(heap);
}

#else /* !HAVE_LINUX_DMA_HEAP_H */

struct ibv_dmabuf_heap *ibv_dmabuf_heap_cc_shared_init(void)
{
	errno = EOPNOTSUPP;
	return NULL;
}

void *ibv_dmabuf_heap_alloc(struct ibv_dmabuf_heap *heap, size_t size,
			    int *fd)
{
	errno = EOPNOTSUPP;
	return NULL;
}

void ibv_dmabuf_heap_free(void *addr, size_t size, int fd)
{
}

void ibv_dmabuf_heap_destroy(struct ibv_dmabuf_heap *heap)
{
}

#endif
