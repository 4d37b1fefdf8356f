/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A GPU's buffers as tests use them: amdgpu GEM objects on the render
 * node and their PRIME dma-bufs, by raw DRM ioctls (libdrm's uAPI headers,
 * no libdrm). Each returns 0 or the ioctl's errno.
 */
#ifndef RDMA_TEST_GEM_H
#define RDMA_TEST_GEM_H

#include <stddef.h>
#include <stdint.h>

#define RENDER "/dev/dri/renderD128"

/* AMDGPU_GEM_CREATE: size bytes in domains (AMDGPU_GEM_DOMAIN_*). */
int gem_create(int fd, uint64_t size, uint64_t domains, uint64_t flags,
	       uint32_t *h);
/* AMDGPU_GEM_MMAP: the offset to mmap the render node at. */
int gem_offset(int fd, uint32_t h, uint64_t *off);
int gem_close(int fd, uint32_t h);
/* PRIME_HANDLE_TO_FD with DRM_CLOEXEC/DRM_RDWR flags. */
int prime_export(int fd, uint32_t h, uint32_t flags, int *dfd);
int prime_import(int fd, int dfd, uint32_t *h);
/* The CPU's view of a GEM object through the node, or NULL. */
void *gem_map(int fd, uint32_t h, size_t len);

#endif /* RDMA_TEST_GEM_H */
