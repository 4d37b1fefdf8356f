// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The counting interposers of kcount.h. */
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kcount.h"

const char *const kc_names[KC_NUM] = {
	"open", "read",	 "close", "stat", "sock", "send",
	"recv", "ioctl", "write", "mmap", "poll",
};

static int counting;
static unsigned long counts[KC_NUM];

void kc_start(void)
{
	unsigned int k;

	for (k = 0; k < KC_NUM; k++)
		counts[k] = 0;
	counting = 1;
}

void kc_stop(void)
{
	counting = 0;
}

unsigned long kc_get(enum kc_kind kind)
{
	return counts[kind];
}

unsigned long kc_total(void)
{
	unsigned long sum = 0;
	unsigned int k;

	for (k = 0; k < KC_NUM; k++)
		sum += counts[k];
	return sum;
}

static void count(enum kc_kind kind, unsigned long n)
{
	if (counting)
		counts[kind] += n;
}

/* The next definition of @name (rdma-sim's, or libc's), resolved once. */
#define NEXT(name)                                                             \
	static __typeof__(name) *next;                                         \
	if (!next)                                                             \
	*(void **)&next = dlsym(RTLD_NEXT, #name)

static mode_t mode_arg(int flags, va_list ap)
{
	return flags & (O_CREAT | O_TMPFILE) ? va_arg(ap, mode_t) : 0;
}

int open(const char *path, int flags, ...)
{
	NEXT(open);
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	count(KC_OPEN, 1);
	return next(path, flags, mode);
}

int open64(const char *path, int flags, ...) __attribute__((alias("open")));

int openat(int dirfd, const char *path, int flags, ...)
{
	NEXT(openat);
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	count(KC_OPEN, 1);
	return next(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
	__attribute__((alias("openat")));

FILE *fopen(const char *path, const char *mode)
{
	NEXT(fopen);

	count(KC_OPEN, 1);
	return next(path, mode);
}

int fclose(FILE *f)
{
	NEXT(fclose);

	count(KC_CLOSE, 1);
	return next(f);
}

ssize_t read(int fd, void *buf, size_t len)
{
	NEXT(read);

	count(KC_READ, 1);
	return next(fd, buf, len);
}

int close(int fd)
{
	NEXT(close);

	count(KC_CLOSE, 1);
	return next(fd);
}

/* glibc's opendir is openat + fstat; closedir is close. */
DIR *opendir(const char *path)
{
	NEXT(opendir);

	count(KC_OPEN, 1);
	count(KC_STAT, 1);
	return next(path);
}

int closedir(DIR *dir)
{
	NEXT(closedir);

	count(KC_CLOSE, 1);
	return next(dir);
}

/*
 * readdir refills its buffer with one getdents64 whenever the entry it
 * returns starts over at the buffer (or it hits the end).
 */
struct dirent *readdir(DIR *dir)
{
	NEXT(readdir);
	static const DIR *last_dir;
	static const void *last;
	struct dirent *ent = next(dir);

	if (dir != last_dir || !ent || (const void *)ent <= last)
		count(KC_READ, 1);
	last_dir = dir;
	last = ent;
	return ent;
}

struct dirent64 *readdir64(DIR *dir) __attribute__((alias("readdir")));

#define STAT_WRAP(name, params, args)                                          \
	int name params                                                        \
	{                                                                      \
		NEXT(name);                                                    \
		count(KC_STAT, 1);                                             \
		return next args;                                              \
	}

STAT_WRAP(stat, (const char *p, struct stat *s), (p, s))
STAT_WRAP(stat64, (const char *p, struct stat64 *s), (p, s))
STAT_WRAP(lstat, (const char *p, struct stat *s), (p, s))
STAT_WRAP(fstat, (int fd, struct stat *s), (fd, s))
STAT_WRAP(fstat64, (int fd, struct stat64 *s), (fd, s))
STAT_WRAP(fstatat, (int d, const char *p, struct stat *s, int f), (d, p, s, f))
STAT_WRAP(fstatat64, (int d, const char *p, struct stat64 *s, int f),
	  (d, p, s, f))
STAT_WRAP(statx, (int d, const char *p, int f, unsigned int m, struct statx *s),
	  (d, p, f, m, s))

int socket(int domain, int type, int protocol)
{
	NEXT(socket);

	count(KC_SOCK, 1);
	return next(domain, type, protocol);
}

int bind(int fd, const struct sockaddr *a, socklen_t l)
{
	NEXT(bind);

	count(KC_SOCK, 1);
	return next(fd, a, l);
}

int getsockname(int fd, struct sockaddr *a, socklen_t *l)
{
	NEXT(getsockname);

	count(KC_SOCK, 1);
	return next(fd, a, l);
}

int setsockopt(int fd, int lvl, int name, const void *v, socklen_t l)
{
	NEXT(setsockopt);

	count(KC_SOCK, 1);
	return next(fd, lvl, name, v, l);
}

int getsockopt(int fd, int lvl, int name, void *v, socklen_t *l)
{
	NEXT(getsockopt);

	count(KC_SOCK, 1);
	return next(fd, lvl, name, v, l);
}

ssize_t sendmsg(int fd, const struct msghdr *m, int flags)
{
	NEXT(sendmsg);

	count(KC_SEND, 1);
	return next(fd, m, flags);
}

ssize_t sendto(int fd, const void *b, size_t n, int flags,
	       const struct sockaddr *a, socklen_t l)
{
	NEXT(sendto);

	count(KC_SEND, 1);
	return next(fd, b, n, flags, a, l);
}

ssize_t send(int fd, const void *b, size_t n, int flags)
{
	NEXT(send);

	count(KC_SEND, 1);
	return next(fd, b, n, flags);
}

ssize_t recvmsg(int fd, struct msghdr *m, int flags)
{
	NEXT(recvmsg);

	count(KC_RECV, 1);
	return next(fd, m, flags);
}

ssize_t recvfrom(int fd, void *b, size_t n, int flags, struct sockaddr *a,
		 socklen_t *l)
{
	NEXT(recvfrom);

	count(KC_RECV, 1);
	return next(fd, b, n, flags, a, l);
}

int recvmmsg(int fd, struct mmsghdr *v, unsigned int n, int flags,
	     struct timespec *t)
{
	NEXT(recvmmsg);

	count(KC_RECV, 1);
	return next(fd, v, n, flags, t);
}

ssize_t recv(int fd, void *b, size_t n, int flags)
{
	NEXT(recv);

	count(KC_RECV, 1);
	return next(fd, b, n, flags);
}

int ioctl(int fd, unsigned long req, ...)
{
	NEXT(ioctl);
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	count(KC_IOCTL, 1);
	return next(fd, req, arg);
}

ssize_t write(int fd, const void *b, size_t n)
{
	NEXT(write);

	count(KC_WRITE, 1);
	return next(fd, b, n);
}

void *mmap(void *a, size_t n, int prot, int flags, int fd, off_t off)
{
	NEXT(mmap);

	count(KC_MMAP, 1);
	return next(a, n, prot, flags, fd, off);
}

void *mmap64(void *a, size_t n, int prot, int flags, int fd, off_t off)
	__attribute__((alias("mmap")));

int munmap(void *a, size_t n)
{
	NEXT(munmap);

	count(KC_MMAP, 1);
	return next(a, n);
}

int poll(struct pollfd *p, nfds_t n, int t)
{
	NEXT(poll);

	count(KC_POLL, 1);
	return next(p, n, t);
}

int select(int n, fd_set *r, fd_set *w, fd_set *e, struct timeval *t)
{
	NEXT(select);

	count(KC_POLL, 1);
	return next(n, r, w, e, t);
}
