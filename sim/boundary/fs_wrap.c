// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Path interposers: everything under /sys/class/infiniband* and
 * /dev/infiniband is served from the generated tree; the uverbs nodes are
 * character devices (major 231, minor 192+N) backed by /dev/null fds.
 */
#include "sim.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define REDIR(path, buf) (sim_redirect(path, buf, sizeof(buf)) ? buf : path)

static int open_uverbs(int idx, const char *path, int flags)
{
	int fd, err, accmode = flags & O_ACCMODE;
	struct sim_uvfile *uv;

	err = sim_fail("open");
	if (err)
		goto fail;
	fd = real.open("/dev/null", accmode | (flags & O_CLOEXEC));
	if (fd < 0) {
		err = errno;
		goto fail;
	}
	sim_lock_take();
	uv = sim_uvfile_new((unsigned int)idx);
	if (!uv || sim_fd_set(fd, SIM_FD_UVERBS, uv)) {
		if (uv)
			sim_uvfile_put(uv);
		sim_lock_drop();
		real.close(fd);
		err = uv ? EMFILE : ENOMEM;
		goto fail;
	}
	sim_lock_drop();
	return sim_open_done(path, flags, fd, 0);
fail:
	return sim_open_done(path, flags, -1, err);
}

static int do_open(const char *path, int flags, mode_t mode)
{
	char buf[PATH_MAX];
	int idx;

	const struct sim_devnode *n;

	sim_real_init();
	idx = sim_uverbs_index(path);
	if (idx >= 0)
		return open_uverbs(idx, path, flags);
	n = sim_devnode_lookup(path);
	if (n)
		return sim_devnode_open(n, path, flags);
	return real.open(REDIR(path, buf), flags, mode);
}

#define OPEN_MODE(flags, mode)                                                 \
	do {                                                                   \
		if ((flags) & (O_CREAT | __O_TMPFILE)) {                       \
			va_list ap;                                            \
			va_start(ap, flags);                                   \
			mode = va_arg(ap, mode_t);                             \
			va_end(ap);                                            \
		}                                                              \
	} while (0)

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	OPEN_MODE(flags, mode);
	return do_open(path, flags, mode);
}

int open64(const char *path, int flags, ...) __attribute__((alias("open")));

int __open_2(const char *path, int flags);
int __open_2(const char *path, int flags)
{
	return do_open(path, flags, 0);
}

int __open64_2(const char *path, int flags) __attribute__((alias("__open_2")));

static int do_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	sim_real_init();
	if (path && path[0] == '/')
		return do_open(path, flags, mode);
	return real.openat(dirfd, path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	OPEN_MODE(flags, mode);
	return do_openat(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
	__attribute__((alias("openat")));

int __openat_2(int dirfd, const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags)
{
	return do_openat(dirfd, path, flags, 0);
}

int __openat64_2(int dirfd, const char *path, int flags)
	__attribute__((alias("__openat_2")));

/* glibc's fopen/opendir open internally, past any interposer. */
FILE *fopen(const char *path, const char *mode)
{
	static FILE *(*next)(const char *, const char *);
	char buf[PATH_MAX];

	if (!next)
		*(void **)&next = dlsym_next("fopen");
	return next(REDIR(path, buf), mode);
}

FILE *fopen64(const char *path, const char *mode)
{
	return fopen(path, mode);
}

DIR *opendir(const char *path)
{
	static DIR *(*next)(const char *);
	char buf[PATH_MAX];

	if (!next)
		*(void **)&next = dlsym_next("opendir");
	if (sim_tracing() && sim_redirect(path, buf, sizeof(buf)))
		sim_trace("opendir %s%s", path,
			  strncmp(path, "/sys/", 5) ? ""
						    : " (sysfs enumeration)");
	return next(REDIR(path, buf));
}

typedef int (*sim_dirent_filter)(const struct dirent *);
typedef int (*sim_dirent_cmp)(const struct dirent **, const struct dirent **);

/* scandir also opens past any interposer. */
int scandir(const char *path, struct dirent ***list, sim_dirent_filter filter,
	    sim_dirent_cmp cmp)
{
	static int (*next)(const char *, struct dirent ***, sim_dirent_filter,
			   sim_dirent_cmp);
	char buf[PATH_MAX];

	if (!next)
		*(void **)&next = dlsym_next("scandir");
	return next(REDIR(path, buf), list, filter, cmp);
}

/* struct dirent64 is struct dirent on LP64: same entry point. */
int scandir64(const char *path, struct dirent64 ***list,
	      int (*filter)(const struct dirent64 *),
	      int (*cmp)(const struct dirent64 **, const struct dirent64 **))
{
	return scandir(path, (struct dirent ***)list, (sim_dirent_filter)filter,
		       (sim_dirent_cmp)cmp);
}

int access(const char *path, int mode)
{
	static int (*next)(const char *, int);
	char buf[PATH_MAX];

	if (!next)
		*(void **)&next = dlsym_next("access");
	if (sim_uverbs_index(path) >= 0)
		return next("/dev/null", mode);
	return next(REDIR(path, buf), mode);
}

int faccessat(int dirfd, const char *path, int mode, int flags)
{
	static int (*next)(int, const char *, int, int);
	char buf[PATH_MAX];

	if (!next)
		*(void **)&next = dlsym_next("faccessat");
	if (sim_uverbs_index(path) >= 0)
		return next(AT_FDCWD, "/dev/null", mode, flags);
	return next(dirfd, REDIR(path, buf), mode, flags);
}

/*
 * The bodies below are shared by each function and its _chk form through
 * a static function: with _FORTIFY_SOURCE and -fno-semantic-interposition
 * a call to our own definition would be glibc's always_inline wrapper.
 */
static ssize_t do_readlinkat(int dirfd, const char *path, char *out, size_t len)
{
	static ssize_t (*next)(int, const char *, char *, size_t);
	char buf[PATH_MAX];

	if (!next)
		*(void **)&next = dlsym_next("readlinkat");
	return next(dirfd, REDIR(path, buf), out, len);
}

ssize_t readlink(const char *path, char *out, size_t len)
{
	return do_readlinkat(AT_FDCWD, path, out, len);
}

ssize_t readlinkat(int dirfd, const char *path, char *out, size_t len)
{
	return do_readlinkat(dirfd, path, out, len);
}

/*
 * The world directory as the kernel names it (its symlinks resolved): a
 * resolved path under it is shown to the program without it, so realpath
 * of /sys/class/infiniband/mlx5_0 is /sys/devices/.../infiniband/mlx5_0
 * as on a real host, and that path is the world's again (paths.c).
 */
static size_t world_real(const char **root)
{
	static char *(*next)(const char *, char *);
	static char buf[PATH_MAX];
	static size_t len;

	if (!len) {
		if (!next)
			*(void **)&next = dlsym_next("realpath");
		if (next(sim.dir, buf))
			len = strlen(buf);
	}
	*root = buf;
	return len;
}

/* Drop the world's prefix from resolved path p, in place. */
static void unredirect(char *p)
{
	const char *root;
	size_t n = sim.active ? world_real(&root) : 0;

	if (n && !strncmp(p, root, n) && p[n] == '/')
		memmove(p, p + n, strlen(p + n) + 1);
}

static char *do_realpath(const char *path, char *resolved)
{
	static char *(*next)(const char *, char *);
	char buf[PATH_MAX], *ret;

	if (!next)
		*(void **)&next = dlsym_next("realpath");
	ret = next(REDIR(path, buf), resolved);
	if (ret)
		unredirect(ret);
	return ret;
}

char *realpath(const char *path, char *resolved)
{
	return do_realpath(path, resolved);
}

char *__realpath_chk(const char *path, char *resolved, size_t len);
char *__realpath_chk(const char *path, char *resolved, size_t len)
{
	if (len < PATH_MAX)
		abort(); /* glibc's __chk_fail: the buffer is too small */
	return do_realpath(path, resolved);
}

char *canonicalize_file_name(const char *path)
{
	return do_realpath(path, NULL);
}

int chdir(const char *path)
{
	static int (*next)(const char *);
	char buf[PATH_MAX];

	if (!next)
		*(void **)&next = dlsym_next("chdir");
	return next(REDIR(path, buf));
}

static char *do_getcwd(char *out, size_t len)
{
	static char *(*next)(char *, size_t);
	char *ret;

	if (!next)
		*(void **)&next = dlsym_next("getcwd");
	ret = next(out, len);
	if (ret)
		unredirect(ret);
	return ret;
}

char *getcwd(char *out, size_t len)
{
	return do_getcwd(out, len);
}

char *__getcwd_chk(char *out, size_t len, size_t outlen);
char *__getcwd_chk(char *out, size_t len, size_t outlen)
{
	if (len > outlen)
		abort();
	return do_getcwd(out, len);
}

char *get_current_dir_name(void)
{
	return do_getcwd(NULL, 0);
}

ssize_t __readlink_chk(const char *path, char *out, size_t len, size_t outlen);
ssize_t __readlink_chk(const char *path, char *out, size_t len, size_t outlen)
{
	if (len > outlen)
		abort();
	return do_readlinkat(AT_FDCWD, path, out, len);
}

ssize_t __readlinkat_chk(int dirfd, const char *path, char *out, size_t len,
			 size_t outlen);
ssize_t __readlinkat_chk(int dirfd, const char *path, char *out, size_t len,
			 size_t outlen)
{
	if (len > outlen)
		abort();
	return do_readlinkat(dirfd, path, out, len);
}

/* ---- stat family ---- */

static void fake_rdev(struct stat *st, int idx)
{
	st->st_rdev = makedev(SIM_UVERBS_MAJOR, SIM_UVERBS_MINOR_BASE + idx);
	st->st_ino = 0x5100 + idx;
}

static int stat_path(const char *path, struct stat *st, int nofollow)
{
	char buf[PATH_MAX];
	int idx, ret;

	const struct sim_devnode *n;

	sim_real_init();
	idx = sim_uverbs_index(path);
	if (idx >= 0) {
		ret = real.stat("/dev/null", st);
		if (!ret)
			fake_rdev(st, idx);
		return ret;
	}
	n = sim_devnode_lookup(path);
	if (n && n->present && !n->present()) {
		errno = ENOENT;
		return -1;
	}
	if (n) {
		ret = real.stat("/dev/null", st);
		st->st_rdev = makedev(n->major, sim_devnode_minor(n, path));
		return ret;
	}
	path = REDIR(path, buf);
	return nofollow ? real.lstat(path, st) : real.stat(path, st);
}

int stat(const char *path, struct stat *st)
{
	return stat_path(path, st, 0);
}

int stat64(const char *path, struct stat64 *st)
{
	return stat_path(path, (struct stat *)st, 0);
}

int lstat(const char *path, struct stat *st)
{
	return stat_path(path, st, 1);
}

int lstat64(const char *path, struct stat64 *st)
{
	return stat_path(path, (struct stat *)st, 1);
}

static int uverbs_dev_of_fd(int fd)
{
	int dev = -1;

	if (sim_fd_kind(fd) != SIM_FD_UVERBS)
		return -1;
	sim_lock_take();
	if (sim_fds[fd].kind == SIM_FD_UVERBS)
		dev = (int)sim_fds[fd].uv->dev;
	sim_lock_drop();
	return dev;
}

int fstat(int fd, struct stat *st)
{
	int ret, idx;

	sim_real_init();
	ret = real.fstat(fd, st);
	idx = uverbs_dev_of_fd(fd);
	if (!ret && idx >= 0)
		fake_rdev(st, idx);
	if (!ret && sim_fd_kind(fd) == SIM_FD_DEVNODE) {
		sim_lock_take();
		if (sim_fds[fd].kind == SIM_FD_DEVNODE) {
			st->st_rdev = makedev(sim_fds[fd].dev->node->major,
					      sim_fds[fd].dev->minor);
			/* a node whose file is not /dev/null's (open_fd) */
			st->st_mode = (st->st_mode & ~S_IFMT) | S_IFCHR;
		}
		sim_lock_drop();
	}
	return ret;
}

int fstat64(int fd, struct stat64 *st)
{
	return fstat(fd, (struct stat *)st);
}

int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	char buf[PATH_MAX];

	sim_real_init();
	if (!path[0] && (flags & AT_EMPTY_PATH))
		return fstat(dirfd, st);
	if (path[0] == '/')
		return stat_path(path, st, flags & AT_SYMLINK_NOFOLLOW);
	return real.fstatat(dirfd, REDIR(path, buf), st, flags);
}

int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
	return fstatat(dirfd, path, (struct stat *)st, flags);
}

/* A simulated device node other than uverbs: /dev/null's, as a char
 * device of its numbers (absent: ENOENT). */
static int statx_devnode(const char *path, int flags, unsigned int mask,
			 struct statx *stx, int ret)
{
	const struct sim_devnode *n = sim_devnode_lookup(path);

	if (!n)
		return ret;
	if (n->present && !n->present()) {
		errno = ENOENT;
		return -1;
	}
	ret = real.statx(AT_FDCWD, "/dev/null", flags, mask, stx);
	if (!ret) {
		stx->stx_rdev_major = n->major;
		stx->stx_rdev_minor = sim_devnode_minor(n, path);
	}
	return ret;
}

int statx(int dirfd, const char *path, int flags, unsigned int mask,
	  struct statx *stx)
{
	char buf[PATH_MAX];
	int idx = -1, ret;

	sim_real_init();
	if (!path[0] && (flags & AT_EMPTY_PATH))
		idx = uverbs_dev_of_fd(dirfd);
	else if (path[0] == '/')
		idx = sim_uverbs_index(path);
	if (idx >= 0 && path[0])
		ret = real.statx(AT_FDCWD, "/dev/null", flags, mask, stx);
	else
		ret = real.statx(dirfd, REDIR(path, buf), flags, mask, stx);
	if (!ret && idx >= 0) {
		stx->stx_rdev_major = SIM_UVERBS_MAJOR;
		stx->stx_rdev_minor = SIM_UVERBS_MINOR_BASE + idx;
	}
	if (idx < 0 && path[0] == '/')
		ret = statx_devnode(path, flags, mask, stx, ret);
	return ret;
}
