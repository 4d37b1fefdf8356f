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
#include <sys/ioctl.h>

extern const struct sim_devnode *const __start_sim_devnodes[];
extern const struct sim_devnode *const __stop_sim_devnodes[];

const struct sim_devnode *sim_devnode_lookup(const char *path)
{
	const struct sim_devnode *const *n;

	if (!sim.active || !path)
		return NULL;
	for (n = __start_sim_devnodes; n < __stop_sim_devnodes; n++)
		if (!strcmp((*n)->path, path))
			return *n;
	return NULL;
}

void sim_devfile_put(struct sim_devfile *f)
{
	if (--f->refs > 0)
		return;
	if (f->node->release)
		f->node->release(f);
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
	if (!n->open_fd) {
		fd = real.open("/dev/null",
			       (flags & O_ACCMODE) | (flags & O_CLOEXEC));
		if (fd < 0) {
			err = errno;
			goto fail;
		}
	}
	pthread_mutex_lock(&sim_lock);
	f = calloc(1, sizeof(*f));
	err = f ? 0 : ENOMEM;
	if (f) {
		f->node = n;
		err = n->open ? -n->open(f, flags) : 0;
	}
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
	pthread_mutex_unlock(&sim_lock);
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
