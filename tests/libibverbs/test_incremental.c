// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Incremental discovery under rdma-sim: after the first
 * ibv_get_device_list(), a device already known costs no sysfs read.
 * The program interposes open/openat/fstatat/stat (the library binds to
 * the executable's definitions first) and counts what the library asks
 * of the kernel during the calls after the first.
 *   test_incremental NDEV netlink|sysfs
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <infiniband/verbs.h>

static int counting;
static unsigned int file_opens, dir_opens, stats;

static void count_open(int flags)
{
	if (!counting)
		return;
	if (flags & O_DIRECTORY)
		dir_opens++;
	else
		file_opens++;
}

static mode_t mode_arg(int flags, va_list ap)
{
	return flags & (O_CREAT | O_TMPFILE) ? va_arg(ap, mode_t) : 0;
}

/* Both opens count, then go on as openat (rdma-sim interposes it too). */
int open(const char *path, int flags, ...);
int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	return openat(AT_FDCWD, path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...);
int openat(int dirfd, const char *path, int flags, ...)
{
	static int (*next)(int, const char *, int, ...);
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	if (!next)
		*(void **)&next = dlsym(RTLD_NEXT, "openat");
	count_open(flags);
	return next(dirfd, path, flags, mode);
}

int fstatat(int dirfd, const char *path, struct stat *st, int flags);
int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	static int (*next)(int, const char *, struct stat *, int);

	if (!next)
		*(void **)&next = dlsym(RTLD_NEXT, "fstatat");
	stats += counting;
	return next(dirfd, path, st, flags);
}

int stat(const char *path, struct stat *st);
int stat(const char *path, struct stat *st)
{
	static int (*next)(const char *, struct stat *);

	if (!next)
		*(void **)&next = dlsym(RTLD_NEXT, "stat");
	stats += counting;
	return next(path, st);
}

static int fail(const char *what, unsigned int got, unsigned int want)
{
	fprintf(stderr, "test_incremental: %s: %u, want %u\n", what, got, want);
	return 1;
}

int main(int argc, char **argv)
{
	struct ibv_device **first, **again;
	unsigned int ndev, rounds = 3, i;
	int num, sysfs, bad = 0;

	if (argc != 3)
		return 2;
	ndev = (unsigned int)atoi(argv[1]);
	sysfs = !strcmp(argv[2], "sysfs");
	first = ibv_get_device_list(&num);
	if (!first || num != (int)ndev)
		return fail("devices in the first list", num, ndev);
	counting = 1;
	for (i = 0; i < rounds; i++) {
		again = ibv_get_device_list(&num);
		if (!again || num != (int)ndev)
			return fail("devices in a later list", num, ndev);
		/* Known devices are the same objects, in the same order. */
		if (memcmp(first, again, ndev * sizeof(*first)))
			bad |= fail("lists differ", 0, 1);
		ibv_free_device_list(again);
	}
	counting = 0;
	ibv_free_device_list(first);
	/*
	 * Per call: one listing of /dev/infiniband (opendir opens it inside
	 * libc) tells which nodes exist, no stat; sysfs adds the global ABI
	 * file (and its class directory, also opendir's); netlink opens no
	 * file at all.
	 */
	if (stats)
		bad |= fail("stats", stats, 0);
	if (file_opens != rounds * (sysfs ? 1 : 0))
		bad |= fail("file opens", file_opens, rounds * !!sysfs);
	if (dir_opens)
		bad |= fail("directory opens", dir_opens, 0);
	if (!bad)
		printf("test_incremental: %u devices over %s: %u stats, "
		       "%u file opens in %u later calls\n",
		       ndev, argv[2], stats, file_opens, rounds);
	return bad;
}
