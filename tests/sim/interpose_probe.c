// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A program's own interposers of functions the sim also serves (readlink,
 * opendir, munmap, open, close, mmap) must see the program's calls and
 * never the sim's own. Built two ways:
 * - into the executable (PROBE_IN_EXE, exported): the program's calls come
 *   here first and go on to librdmasim.so; a call whose caller is inside
 *   librdmasim.so is the sim's own, as the sim passes nothing on to the
 *   executable.
 * - as a library preloaded after librdmasim.so: here the sim passes the
 *   program's calls on (its caller is librdmasim.so either way), so the
 *   sim's own calls are told by what only the sim asks: readlink of the
 *   world's QP links or of /proc/self/fd/N, opendir of /proc/self/fd.
 * At exit it prints what it saw and exits 1 if the sim's calls reached it
 * or the program's did not.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static unsigned int own, from_sim;
static char first[256];

#define NEXT(name)                                                             \
	static __typeof__(name) *next;                                         \
	if (!next)                                                             \
		*(void **)&next = dlsym(RTLD_NEXT, #name)

static int sim_caller(const void *ret)
{
	Dl_info i;

	return dladdr(ret, &i) && i.dli_fname &&
	       strstr(i.dli_fname, "librdmasim");
}

/* What only the sim asks (the preloaded-library build). */
static int __attribute__((unused)) sim_path(const char *fn, const char *path)
{
	const char *dir = getenv("RDMA_SIM_DIR");
	size_t n = dir ? strlen(dir) : 0;

	if (!path)
		return 0;
	if (!strcmp(fn, "opendir"))
		return !strcmp(path, "/proc/self/fd");
	if (strcmp(fn, "readlink"))
		return 0;
	return !strncmp(path, "/proc/self/fd/", 14) ||
	       (n && !strncmp(path, dir, n) && path[n] == '/' &&
		path[n + 1] == 'q');
}

static void note(const char *fn, const char *path, const void *ret)
{
#ifdef PROBE_IN_EXE
	int sim = sim_caller(ret);
#else
	int sim = sim_caller(ret) && sim_path(fn, path);
#endif
	if (!sim) {
		__atomic_fetch_add(&own, 1, __ATOMIC_RELAXED);
		return;
	}
	if (!__atomic_fetch_add(&from_sim, 1, __ATOMIC_RELAXED))
		snprintf(first, sizeof(first), "%s(%s)", fn,
			 path ? path : "-");
}

ssize_t readlink(const char *path, char *buf, size_t len)
{
	NEXT(readlink);
	note("readlink", path, __builtin_return_address(0));
	return next(path, buf, len);
}

DIR *opendir(const char *path)
{
	NEXT(opendir);
	note("opendir", path, __builtin_return_address(0));
	return next(path);
}

int munmap(void *addr, size_t len)
{
	NEXT(munmap);
	note("munmap", NULL, __builtin_return_address(0));
	return next(addr, len);
}

#ifdef PROBE_IN_EXE
int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	NEXT(open);
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	note("open", path, __builtin_return_address(0));
	return next(path, flags, mode);
}

int close(int fd)
{
	NEXT(close);
	note("close", NULL, __builtin_return_address(0));
	return next(fd);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	NEXT(mmap);
	note("mmap", NULL, __builtin_return_address(0));
	return next(addr, len, prot, flags, fd, off);
}
#endif

static void __attribute__((destructor)) report(void)
{
	fprintf(stderr, "interpose_probe: %u call(s) of the program, %u of "
			"the sim%s%s\n",
		own, from_sim, from_sim ? ", first " : "", first);
	if (from_sim || !own)
		_exit(1);
}
