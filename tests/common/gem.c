// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* amdgpu GEM objects and PRIME, by raw DRM ioctls (gem.h). */
#include "gem.h"

#include <errno.h>
#include <libdrm/amdgpu_drm.h>
#include <libdrm/drm.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

int gem_create(int fd, uint64_t size, uint64_t domains, uint64_t flags,
	       uint32_t *h)
{
	union drm_amdgpu_gem_create c = {.in = {.bo_size = size,
						.domains = domains,
						.domain_flags = flags}};

	if (ioctl(fd, DRM_IOCTL_AMDGPU_GEM_CREATE, &c))
		return errno;
	*h = c.out.handle;
	return 0;
}

int gem_offset(int fd, uint32_t h, uint64_t *off)
{
	union drm_amdgpu_gem_mmap m = {.in = {.handle = h}};

	if (ioctl(fd, DRM_IOCTL_AMDGPU_GEM_MMAP, &m))
		return errno;
	*off = m.out.addr_ptr;
	return 0;
}

int gem_close(int fd, uint32_t h)
{
	struct drm_gem_close c = {.handle = h};

	return ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c) ? errno : 0;
}

int prime_export(int fd, uint32_t h, uint32_t flags, int *dfd)
{
	struct drm_prime_handle p = {.handle = h, .flags = flags};

	if (ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p))
		return errno;
	*dfd = p.fd;
	return 0;
}

int prime_import(int fd, int dfd, uint32_t *h)
{
	struct drm_prime_handle p = {.fd = dfd};

	if (ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p))
		return errno;
	*h = p.handle;
	return 0;
}

void *gem_map(int fd, uint32_t h, size_t len)
{
	uint64_t off = 0;
	void *p;

	if (gem_offset(fd, h, &off))
		return NULL;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)off);
	return p == MAP_FAILED ? NULL : p;
}
