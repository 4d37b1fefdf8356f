// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What each kind of simulated fd does per call, as the kernel's struct
 * file_operations: one row per kind (uverbs file, event file, dma-buf,
 * RDMA netlink socket, device node), through which the interposers
 * (fd_wrap.c) dispatch. An op a kind lacks answers what the kernel
 * answers for a file without it: read and write EINVAL, ioctl ENOTTY,
 * mmap ENODEV, lseek ESPIPE. Device nodes (umad, rdma_cm, DRM, dma-heap)
 * each have their own operations behind this row (struct sim_devnode,
 * devnode.c).
 */
#include "sim.h"
#include "fops.h"

#include <errno.h>
#include <fcntl.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>

/* A libc-style answer (-1 and errno) as the ops' -errno. */
static ssize_t neg_errno(ssize_t r)
{
	return r < 0 ? -errno : r;
}

/* ---- uverbs ---- */

static void uverbs_get(void *file)
{
	((struct sim_uvfile *)file)->refs++;
}

static void uverbs_put(int fd, void *file)
{
	(void)fd;
	sim_uvfile_put(file);
}

static ssize_t uverbs_write(int fd, const void *buf, size_t count)
{
	ssize_t ret;

	sim_lock_take();
	ret = sim_fd_tracked(fd) ? sim_write_cmd(sim_fds[fd].uv, buf, count)
				 : -EBADF;
	sim_lock_drop();
	return ret;
}

static long uverbs_ioctl(int fd, unsigned long req, void *arg)
{
	long ret = -ENOTTY;
	int known;

	sim_lock_take();
	known = sim_fd_kind(fd) == SIM_FD_UVERBS && req == RDMA_VERBS_IOCTL;
	if (known)
		ret = sim_ioctl(fd, sim_fds[fd].uv, arg);
	sim_lock_drop();
	if (!known)
		sim_trace("ioctl fd %d cmd %#lx -> ENOTTY", fd, req);
	return ret;
}

static void *uverbs_mmap(int fd, void *addr, size_t len, int prot, int flags,
			 off_t off)
{
	void *ret = MAP_FAILED;
	int err = EBADF;

	sim_lock_take();
	if (sim_fd_kind(fd) == SIM_FD_UVERBS) {
		ret = sim_mmap(sim_fds[fd].uv, addr, len, prot, flags, off);
		err = errno;
	}
	sim_lock_drop();
	if (ret == MAP_FAILED)
		sim_trace("mmap fd %d len %zu off %#llx -> %s", fd, len,
			  (unsigned long long)off, strerrorname_np(err));
	else
		sim_trace("mmap fd %d len %zu off %#llx -> %p", fd, len,
			  (unsigned long long)off, ret);
	errno = err;
	return ret;
}

/* ---- event files (completion channel, async event fd) ---- */

static void event_get(void *file)
{
	sim_evq_get(file);
}

static void event_put(int fd, void *file)
{
	sim_evq_fd_closed(file, fd);
	sim_evq_put(file);
}

static ssize_t event_read(int fd, void *buf, size_t count)
{
	return neg_errno(sim_evq_read(fd, buf, count));
}

/* ---- dma-buf ---- */

static void dmabuf_get(void *file)
{
	((struct sim_dmabuf *)file)->refs++;
}

static void dmabuf_put(int fd, void *file)
{
	(void)fd;
	sim_dmabuf_put(file);
}

/* No write method: EINVAL, or EBADF when not open for writing. */
static ssize_t dmabuf_write(int fd, const void *buf, size_t count)
{
	(void)buf;
	(void)count;
	return (real.fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDONLY ? -EBADF
								  : -EINVAL;
}

static long dmabuf_ioctl(int fd, unsigned long req, void *arg)
{
	int ret = sim_dmabuf_ioctl(req, arg);

	sim_trace("ioctl fd %d (dma-buf) cmd %#lx -> %s", fd, req,
		  ret ? strerrorname_np(-ret) : "0");
	return ret;
}

static void *dmabuf_mmap(int fd, void *addr, size_t len, int prot, int flags,
			 off_t off)
{
	int err;

	sim_lock_take();
	err = sim_fd_kind(fd) == SIM_FD_DMABUF
		      ? sim_dmabuf_mmap_errno(sim_fds[fd].db, prot, flags, len,
					      off)
		      : EBADF;
	sim_lock_drop();
	if (!err) /* the kernel maps the file: the sim's own call */
		return sys.mmap(addr, len, prot, flags, fd, off);
	sim_trace("mmap fd %d len %zu off %#llx -> %s", fd, len,
		  (unsigned long long)off, strerrorname_np(err));
	errno = err;
	return MAP_FAILED;
}

/* Only lseek(fd, 0, SEEK_SET/SEEK_END): the start, or the size. */
static off_t dmabuf_llseek(int fd, off_t off, int whence)
{
	uint64_t size = 0;

	if (off || (whence != SEEK_SET && whence != SEEK_END))
		return -EINVAL;
	sim_lock_take();
	if (sim_fd_kind(fd) == SIM_FD_DMABUF)
		size = sim_fds[fd].db->size;
	sim_lock_drop();
	return whence == SEEK_END ? (off_t)size : 0;
}

/* A dma-buf file has O_RDONLY and what F_SETFL set, no O_LARGEFILE. */
static int dmabuf_getfl(int flags)
{
	return flags & (O_ACCMODE | O_APPEND | O_NONBLOCK | O_ASYNC |
			O_DIRECT | O_NOATIME);
}

/* ---- RDMA netlink sockets: real sockets, sendmsg answered ---- */

static void netlink_get(void *file)
{
	((struct sim_nlsock *)file)->refs++;
}

static void netlink_put(int fd, void *file)
{
	(void)fd;
	sim_nlsock_put(file);
}

static ssize_t netlink_read(int fd, void *buf, size_t count)
{
	return neg_errno(real.read(fd, buf, count));
}

static ssize_t netlink_write(int fd, const void *buf, size_t count)
{
	return neg_errno(send(fd, buf, count, 0));
}

/* ---- other device nodes: their struct sim_devnode ---- */

static void devnode_get(void *file)
{
	((struct sim_devfile *)file)->refs++;
}

static void devnode_put(int fd, void *file)
{
	(void)fd;
	sim_devfile_put(file);
}

static ssize_t devnode_read(int fd, void *buf, size_t count)
{
	return neg_errno(sim_devnode_read(fd, buf, count));
}

static ssize_t devnode_write(int fd, const void *buf, size_t count)
{
	return neg_errno(sim_devnode_write(fd, buf, count));
}

static long devnode_ioctl(int fd, unsigned long req, void *arg)
{
	struct sim_devfile *df;
	long r = -EBADF;

	sim_lock_take();
	if (sim_fd_kind(fd) == SIM_FD_DEVNODE) {
		df = sim_fds[fd].dev;
		r = df->node->ioctl ? df->node->ioctl(df, req, arg) : -ENOTTY;
		sim_trace("ioctl fd %d (%s) cmd %#lx -> %s", fd, df->path, req,
			  r < 0 ? strerrorname_np((int)-r) : "0");
	}
	sim_lock_drop();
	return r;
}

static void *devnode_mmap(int fd, void *addr, size_t len, int prot, int flags,
			  off_t off)
{
	struct sim_devfile *df;
	void *ret = MAP_FAILED;
	int err = EBADF;

	sim_lock_take();
	if (sim_fd_kind(fd) == SIM_FD_DEVNODE) {
		df = sim_fds[fd].dev;
		errno = ENODEV;
		if (df->node->mmap)
			ret = df->node->mmap(df, addr, len, prot, flags, off);
		err = errno;
	}
	sim_lock_drop();
	errno = err;
	return ret;
}

static const struct sim_fops uverbs_fops = {
	.get = uverbs_get,
	.put = uverbs_put,
	.write = uverbs_write,
	.ioctl = uverbs_ioctl,
	.mmap = uverbs_mmap,
	.inject = SIM_INJECT_IOCTL | SIM_INJECT_WRITE | SIM_INJECT_MMAP,
};

static const struct sim_fops event_fops = {
	.get = event_get,
	.put = event_put,
	.read = event_read,
	.inject = SIM_INJECT_IOCTL | SIM_INJECT_MMAP,
};

static const struct sim_fops dmabuf_fops = {
	.get = dmabuf_get,
	.put = dmabuf_put,
	.write = dmabuf_write,
	.ioctl = dmabuf_ioctl,
	.mmap = dmabuf_mmap,
	.llseek = dmabuf_llseek,
	.getfl = dmabuf_getfl,
	/* an export is released when its file really closes */
	.put_after_close = 1,
	.inject = SIM_INJECT_IOCTL | SIM_INJECT_WRITE | SIM_INJECT_MMAP,
};

static const struct sim_fops netlink_fops = {
	.get = netlink_get,
	.put = netlink_put,
	.read = netlink_read,
	.write = netlink_write,
	.inject = SIM_INJECT_IOCTL | SIM_INJECT_MMAP,
};

static const struct sim_fops devnode_fops = {
	.get = devnode_get,
	.put = devnode_put,
	.read = devnode_read,
	.write = devnode_write,
	.ioctl = devnode_ioctl,
	.mmap = devnode_mmap,
	.inject = SIM_INJECT_IOCTL | SIM_INJECT_MMAP,
};

/* SIM_FD_NONE and SIM_FD_INTERNAL have none: not the sim's / no file.
 * Every row has get and put (tests/sim/fops_rows.sh). */
static const struct sim_fops *const fops[] = {
	[SIM_FD_UVERBS] = &uverbs_fops,	  [SIM_FD_EVENT] = &event_fops,
	[SIM_FD_DMABUF] = &dmabuf_fops,	  [SIM_FD_NETLINK] = &netlink_fops,
	[SIM_FD_DEVNODE] = &devnode_fops,
};

const struct sim_fops *sim_fops_of(uint8_t kind)
{
	return kind < sizeof(fops) / sizeof(fops[0]) ? fops[kind] : NULL;
}
