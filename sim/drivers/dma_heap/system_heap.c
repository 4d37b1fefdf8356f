// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DMA-buf heaps (/dev/dma_heap/<name>, char major 251): "system", and in a
 * confidential-computing guest (--cc-guest) "system_cc_shared", the heap of
 * memory shared with the host that upstream rdma-core allocates bounce
 * buffers from. DMA_HEAP_IOCTL_ALLOC answers as the kernel's dma-heap core:
 * only the ioctl's number counts (past the table: EINVAL), the user's
 * struct is copied in and out at the user's size and directions (EFAULT),
 * a non-zero fd on input, fd_flags beyond O_CLOEXEC|O_ACCMODE or any heap
 * flag are EINVAL, a length that page-aligns to 0 is EINVAL, one beyond the
 * machine's pages ENOMEM (the system heap's check). The buffer is
 * a dma-buf of its own memory (dmabuf.c): page-aligned size, opened with
 * fd_flags, mmap-able by the CPU, registrable with REG_DMABUF_MR.
 */
#include "sim.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/dma-heap.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define HEAP_MAJOR 251

static long heap_alloc(struct dma_heap_allocation_data *d)
{
	uint64_t page = sim.sh->cfg.page_size;
	uint64_t len = (d->len + page - 1) & ~(page - 1);
	int fd;

	if (d->fd)
		return -EINVAL;
	if (d->fd_flags & ~(uint32_t)(O_CLOEXEC | O_ACCMODE))
		return -EINVAL;
	if (d->heap_flags)
		return -EINVAL;
	if (!len || len < d->len)
		return -EINVAL;
	if (len / page > (uint64_t)sysconf(_SC_PHYS_PAGES))
		return -ENOMEM; /* more than the machine has */
	fd = sim_dmabuf_new_mem(len, (int)d->fd_flags);
	if (fd < 0)
		return fd;
	d->fd = (uint32_t)fd;
	return 0;
}

static long heap_ioctl(struct sim_devfile *f, unsigned long req, void *arg)
{
	const unsigned long kcmd = DMA_HEAP_IOCTL_ALLOC;
	struct dma_heap_allocation_data d;
	size_t out;
	long ret;

	(void)f;
	if (_IOC_NR(req) >= 1)
		return -EINVAL;
	if (sim_ioctl_in(req, kcmd, arg, &d, sizeof(d), &out))
		return -EFAULT;
	ret = heap_alloc(&d); /* the table's command, whatever the type */
	if (!ret && sim_copy_to_user(arg, &d, out))
		ret = -EFAULT; /* the kernel leaves the fd installed */
	return ret;
}

/* A kernel built without DMA-buf heaps (--no-dma-heap) has neither. */
static int heaps(void)
{
	return !sim.sh->cfg.no_dma_heap;
}

static int cc_guest(void)
{
	return sim.sh->cfg.cc_guest && heaps();
}

static const struct sim_devnode system_heap = {
	.path = "/dev/dma_heap/system",
	.major = HEAP_MAJOR,
	.minor = 0,
	.present = heaps,
	.ioctl = heap_ioctl,
};
SIM_DEVNODE(system_heap);

static const struct sim_devnode cc_shared_heap = {
	.path = "/dev/dma_heap/system_cc_shared",
	.major = HEAP_MAJOR,
	.minor = 1,
	.present = cc_guest,
	.ioctl = heap_ioctl,
};
SIM_DEVNODE(cc_shared_heap);
