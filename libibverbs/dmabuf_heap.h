/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * DMA-buf heap allocation for providers (IBVERBS_PRIVATE): memory a
 * confidential-computing guest shares with the host, each allocation a
 * dma-buf of its own, mapped into the process.
 */
#ifndef RDMA_DM_DMABUF_HEAP_H
#define RDMA_DM_DMABUF_HEAP_H

#include <stddef.h>

struct ibv_dmabuf_heap;

/*
 * Open the CoCo shared heap (/dev/dma_heap/system_cc_shared). NULL with
 * errno: open()'s (ENOENT without the heap), ENOMEM; EOPNOTSUPP when
 * built without <linux/dma-heap.h>.
 */
struct ibv_dmabuf_heap *ibv_dmabuf_heap_cc_shared_init(void);
void ibv_dmabuf_heap_destroy(struct ibv_dmabuf_heap *heap);

/*
 * @size bytes from @heap, mapped read-write: the address, and the dma-buf
 * in *@fd (close-on-exec). NULL with the allocation's or mmap's errno.
 */
void *ibv_dmabuf_heap_alloc(struct ibv_dmabuf_heap *heap, size_t size,
			    int *fd);
/* Unmap and close what ibv_dmabuf_heap_alloc() returned. */
void ibv_dmabuf_heap_free(void *addr, size_t size, int fd);

#endif /* RDMA_DM_DMABUF_HEAP_H */
