// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Simulated device nodes other than uverbs: the registry (a linker
 * section, like the object types), open() of their paths, and the fd
 * glue. The fd is a /dev/null open file with the caller's access mode and
 * O_CLOEXEC, so dup, fork and close behave as for any file; ioctl and mmap
 * go to the node (fd_wrap.c), stat sees a character device (fs_wrap.c).
 */
#include "sim.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>

extern const struct sim_devnode *const __start_sim_devnodes[];
extern const struct sim_devnode *const __stop_sim_devnodes[];

const struct sim_devnode *sim_devnode_lookup(const char *path)
{
	const struct sim_devnode *const *n;
	unsigned int minor;

	if (!sim.active || !path)
		return NULL;
	for (n = __start_sim_devnodes; n < __stop_sim_devnodes; n++)
		if ((*n)->path ? !strcmp((*n)->path, path)
			       : (*n)->match(path, &minor))
			return *n;
	return NULL;
}

unsigned int sim_devnode_minor(const struct sim_devnode *n, const char *path)
{
	unsigned int minor = n->minor;

	if (!n->path)
		n->match(path, &minor);
	return minor;
}

void sim_devfile_put(struct sim_devfile *f)
{
	if (--f->refs > 0)
		return;
	if (f->node->release)
		f->node->release(f);
	if (f->efd >= 0)
		sim_internal_fd_close(&f->efd);
	free(f->path);
	free(f);
}

int sim_devnode_open(const struct sim_devnode *n, const char *path, int flags)
{
	struct sim_devfile *f;
	int fd = -1, err;

	if (n->present && !n->present()) {
		err = ENOENT;
		goto fail;
	}
	if (n->pollable)
		fd = eventfd(0,
			     EFD_SEMAPHORE |
				     (flags & O_CLOEXEC ? EFD_CLOEXEC : 0) |
				     (flags & O_NONBLOCK ? EFD_NONBLOCK : 0));
	else if (!n->open_fd) /* else the node opens the file itself */
		fd = real.open("/dev/null",
			       (flags & O_ACCMODE) | (flags & O_CLOEXEC));
	if (fd < 0 && !n->open_fd) {
		err = errno;
		goto fail;
	}
	sim_lock_take();
	f = calloc(1, sizeof(*f));
	err = f ? 0 : ENOMEM;
	if (f) {
		f->node = n;
		f->efd = -1;
		f->path = strdup(path);
		f->minor = sim_devnode_minor(n, path);
		err = f->path ? 0 : ENOMEM;
	}
	if (!err && n->pollable) {
		f->efd = real.fcntl(fd, F_DUPFD_CLOEXEC, 0);
		err = f->efd < 0 ? errno : -sim_internal_fd_add(&f->efd);
	}
	if (!err && n->open)
		err = -n->open(f, flags);
	if (!err && n->open_fd) {
		fd = n->open_fd(f, flags);
		err = fd < 0 ? -fd : 0;
	}
	if (!err && sim_fd_set(fd, SIM_FD_DEVNODE, f))
		err = EMFILE;
	if (err && f) {
		f->refs = 1;
		sim_devfile_put(f);
	}
	sim_lock_drop();
	if (err && fd >= 0)
		real.close(fd);
fail:
	return sim_open_done(path, flags, err ? -1 : fd, err);
}

int sim_open_done(const char *path, int flags, int fd, int err)
{
	if (fd >= 0) {
		sim_trace("open %s flags=%#x -> fd %d", path, flags, fd);
		return fd;
	}
	sim_trace("open %s flags=%#x -> %s", path, flags, strerrorname_np(err));
	errno = err;
	return -1;
}

int sim_ioctl_in(unsigned long ucmd, unsigned long kcmd, const void *arg,
		 void *kdata, size_t ksize, size_t *out)
{
	size_t in = _IOC_SIZE(ucmd);

	*out = in;
	if (!(ucmd & kcmd & IOC_IN))
		in = 0;
	if (!(ucmd & kcmd & IOC_OUT))
		*out = 0;
	if (*out > ksize)
		*out = ksize;
	memset(kdata, 0, ksize);
	return sim_copy_from_user(kdata, arg, in < ksize ? in : ksize);
}

void sim_devfile_ready(struct sim_devfile *f, int n)
{
	uint64_t v = (uint64_t)n;

	for (; n > 0; n = 0)
		sys.write(f->efd, &v, sizeof(v));
	for (; n < 0; n++)
		sys.read(f->efd, &v, sizeof(v)); /* semaphore: one each */
}

/* The open file behind fd, held, or NULL (EBADF). */
static struct sim_devfile *devfile_get(int fd)
{
	struct sim_devfile *f = NULL;

	sim_lock_take();
	if (sim_fd_kind(fd) == SIM_FD_DEVNODE) {
		f = sim_fds[fd].dev;
		f->refs++;
	}
	sim_lock_drop();
	return f;
}

static void devfile_drop(struct sim_devfile *f)
{
	sim_lock_take();
	sim_devfile_put(f);
	sim_lock_drop();
}

/* read (rbuf) or write (wbuf) through the node's hook. */
static ssize_t devnode_rw(int fd, void *rbuf, const void *wbuf, size_t len)
{
	struct sim_devfile *f = devfile_get(fd);
	const struct sim_devnode *n;
	ssize_t ret = -EINVAL;

	if (!f) {
		errno = EBADF;
		return -1;
	}
	n = f->node;
	if (rbuf && n->read)
		ret = n->read(f, fd, rbuf, len);
	else if (!rbuf && n->write)
		ret = n->write(f, fd, wbuf, len);
	devfile_drop(f);
	if (ret < 0) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

ssize_t sim_devnode_read(int fd, void *buf, size_t len)
{
	return devnode_rw(fd, buf, NULL, len);
}

ssize_t sim_devnode_write(int fd, const void *buf, size_t len)
{
	return devnode_rw(fd, NULL, buf, len);
}
