// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Count the kernel calls the verbs libraries make, by interposing the libc
 * entry points in the benchmark executable itself (exported with
 * -rdynamic, so libibverbs and libmlx5 bind to these first) and passing
 * each call on with RTLD_NEXT, i.e. to rdma-sim or to the real kernel.
 * The counts are exactly what a kernel would see as system calls.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "syscall_count.h"

static _Atomic unsigned long counts[SC_NUM];

static void *next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

void sc_reset(void)
{
	unsigned int i;

	for (i = 0; i < SC_NUM; i++)
		counts[i] = 0;
}

unsigned long sc_get(enum sc_kind kind)
{
	return counts[kind];
}

unsigned long sc_total(void)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < SC_NUM; i++)
		n += counts[i];
	return n;
}

int ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, void *);
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!real)
		real = next("ioctl");
	counts[SC_IOCTL]++;
	return real(fd, req, arg);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);

	if (!real)
		real = next("write");
	counts[SC_WRITE]++;
	return real(fd, buf, n);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static void *(*real)(void *, size_t, int, int, int, off_t);

	if (!real)
		real = next("mmap");
	counts[SC_MMAP]++;
	return real(addr, len, prot, flags, fd, off);
}

int munmap(void *addr, size_t len)
{
	static int (*real)(void *, size_t);

	if (!real)
		real = next("munmap");
	counts[SC_MUNMAP]++;
	return real(addr, len);
}

int open(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	mode_t mode = 0;
	va_list ap;

	va_start(ap, flags);
	if (flags & (O_CREAT | O_TMPFILE))
		mode = va_arg(ap, mode_t);
	va_end(ap);
	if (!real)
		real = next("open");
	counts[SC_OPEN]++;
	return real(path, flags, mode);
}

int close(int fd)
{
	static int (*real)(int);

	if (!real)
		real = next("close");
	counts[SC_CLOSE]++;
	return real(fd);
}
