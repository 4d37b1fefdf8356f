// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The dma-buf fd as a file, the way the kernel's dma-buf file answers: it
 * is opened read-only (F_GETFL says O_RDONLY; write and writev are EBADF),
 * it has no read method (read, readv: EINVAL), it is not positionable for
 * I/O (pread/pwrite and their vector forms: ESPIPE, FMODE_PREAD/PWRITE are
 * not set on dma-buf files), a shared writable mapping of a device export
 * is EACCES and any other mapping EINVAL (no CPU mapping of device memory;
 * heap and GEM buffers map within their size), lseek knows only
 * offset 0 from SEEK_SET/SEEK_END, and DMA_BUF_IOCTL_SYNC/SET_NAME work.
 * The positioned and vector I/O interposers also answer for uverbs files
 * (streams without a read method), which the sim backs with /dev/null.
 */
#include "sim.h"

#include <errno.h>
#include <linux/dma-buf.h>
#include <sys/mman.h>
#include <sys/uio.h>

int sim_dmabuf_mmap_errno(const struct sim_dmabuf *db, int prot, int flags,
			  size_t len, off_t off)
{
	uint64_t page = sim.sh->cfg.page_size, pages;
	int type = flags & MAP_TYPE;

	/* only buffers of their own memory (heap, GEM) have CPU mappings;
	 * their files are opened O_RDWR, the device exports O_RDONLY */
	if ((type == MAP_SHARED || type == MAP_SHARED_VALIDATE) &&
	    (prot & PROT_WRITE) && db->kind != SIM_DMABUF_MEM)
		return EACCES; /* a shared writable map of a read-only file */
	if (db->kind != SIM_DMABUF_MEM || off < 0 || (uint64_t)off % page)
		return EINVAL;
	pages = (len + page - 1) / page;
	if ((uint64_t)off / page + pages > db->size / page)
		return EINVAL; /* dma_buf_mmap_internal's range check */
	return 0;
}

static int sync_ioctl(const void *arg)
{
	struct dma_buf_sync s;

	if (sim_copy_from_user(&s, arg, sizeof(s)))
		return -EFAULT;
	if (s.flags & ~(uint64_t)DMA_BUF_SYNC_VALID_FLAGS_MASK ||
	    !(s.flags & DMA_BUF_SYNC_RW))
		return -EINVAL;
	return 0; /* nothing to flush: no CPU access */
}

/* strndup_user(arg, DMA_BUF_NAME_LEN): EFAULT, or EINVAL if too long. */
static int set_name_ioctl(const char *arg)
{
	unsigned int i;
	char c;

	for (i = 0; i < DMA_BUF_NAME_LEN; i++) {
		if (sim_copy_from_user(&c, arg + i, 1))
			return -EFAULT;
		if (!c)
			return 0;
	}
	return -EINVAL;
}

int sim_dmabuf_ioctl(unsigned long req, void *arg)
{
	switch (req) {
	case DMA_BUF_IOCTL_SYNC:
		return sync_ioctl(arg);
	case DMA_BUF_SET_NAME_A:
	case DMA_BUF_SET_NAME_B:
		return set_name_ioctl(arg);
	}
	return -ENOTTY;
}

/*
 * errno for an I/O call on fd, or 0 to pass it to libc. uverbs files are
 * streams (stream_open: no pread/pwrite) without a read method, where the
 * sim's /dev/null would quietly succeed.
 */
static int io_errno(int fd, int dmabuf_errno, int uverbs_errno)
{
	uint8_t kind = sim_fd_kind(fd);

	if (kind == SIM_FD_DMABUF)
		return dmabuf_errno;
	if (kind == SIM_FD_UVERBS)
		return uverbs_errno;
	return kind == SIM_FD_INTERNAL ? EBADF : 0;
}

#define NEXT(name)                                                             \
	static __typeof__(name) *next;                                         \
	if (!next)                                                             \
	*(void **)&next = dlsym_next(#name)

#define IO_CHECK(fd, e, uv)                                                    \
	do {                                                                   \
		int err_ = io_errno(fd, e, uv);                                \
		if (err_) {                                                    \
			errno = err_;                                          \
			return -1;                                             \
		}                                                              \
	} while (0)

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
	NEXT(pread);
	IO_CHECK(fd, ESPIPE, ESPIPE);
	return next(fd, buf, len, off);
}

ssize_t pread64(int fd, void *buf, size_t len, off_t off)
	__attribute__((alias("pread")));

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	NEXT(pwrite);
	IO_CHECK(fd, ESPIPE, ESPIPE);
	return next(fd, buf, len, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
	__attribute__((alias("pwrite")));

ssize_t readv(int fd, const struct iovec *iov, int n)
{
	NEXT(readv);
	IO_CHECK(fd, EINVAL, EINVAL);
	return next(fd, iov, n);
}

ssize_t writev(int fd, const struct iovec *iov, int n)
{
	NEXT(writev);
	IO_CHECK(fd, EBADF, 0);
	return next(fd, iov, n);
}

ssize_t preadv(int fd, const struct iovec *iov, int n, off_t off)
{
	NEXT(preadv);
	IO_CHECK(fd, ESPIPE, ESPIPE);
	return next(fd, iov, n, off);
}

ssize_t preadv64(int fd, const struct iovec *iov, int n, off_t off)
	__attribute__((alias("preadv")));

ssize_t pwritev(int fd, const struct iovec *iov, int n, off_t off)
{
	NEXT(pwritev);
	IO_CHECK(fd, ESPIPE, ESPIPE);
	return next(fd, iov, n, off);
}

ssize_t pwritev64(int fd, const struct iovec *iov, int n, off_t off)
	__attribute__((alias("pwritev")));
