// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Under rdma-sim the sim's code cannot be made writable (as a library
 * that hot-patches mmap would): mprotect with PROT_WRITE over the page of
 * librdmasim.so's mmap is EACCES, without PROT_WRITE it succeeds, and the
 * program's own pages are untouched.
 */
#include <dlfcn.h>
#include <link.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "judge.h"

static char sim_path[4096];

static int find_sim(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	if (!strstr(info->dlpi_name, "/librdmasim.so"))
		return 0;
	snprintf(sim_path, sizeof(sim_path), "%s", info->dlpi_name);
	return 1;
}

int main(void)
{
	uintptr_t psz = (uintptr_t)sysconf(_SC_PAGESIZE);
	void *h = NULL, *fn = NULL, *page, *own;
	int ret;

	if (dl_iterate_phdr(find_sim, NULL))
		h = dlopen(sim_path, RTLD_LAZY | RTLD_NOLOAD);
	if (h)
		fn = dlsym(h, "mmap");
	CHECK(fn, "librdmasim.so's mmap not found (%s)", sim_path);
	if (!fn)
		return 1;
	page = (void *)((uintptr_t)fn & ~(psz - 1));
	errno = 0;
	ret = mprotect(page, psz, PROT_READ | PROT_WRITE | PROT_EXEC);
	CHECK(ret == -1 && errno == EACCES, "writable sim code: %d %m", ret);
	CHECK(!mprotect(page, psz, PROT_READ | PROT_EXEC), "r-x: %m");
	own = mmap(NULL, psz, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(own != MAP_FAILED, "mmap: %m");
	CHECK(!mprotect(own, psz, PROT_READ) &&
		      !mprotect(own, psz, PROT_READ | PROT_WRITE),
	      "own page: %m");
	((volatile char *)own)[0] = 1;
	CHECK(!munmap(own, psz), "munmap: %m");
	dlclose(h);
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	return failures ? 1 : 0;
}
