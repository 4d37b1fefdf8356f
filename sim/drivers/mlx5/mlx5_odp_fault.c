// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * On-demand paging: the HCA translates an ODP MR's addresses when it
 * touches them, never at registration. An access to a page the HCA has
 * no translation for raises a page fault (a PAGE_FAULT EQE, answered by
 * PAGE_FAULT_RESUME: mlx5_eq.c); the driver resolves it as HMM
 * does (faulting the page into the process, writable if the access
 * writes) and resumes the access, which then completes. A page that does
 * not exist (never mapped, or unmapped since: the MMU notifier took its
 * translation away) or that the access may not write cannot be resolved:
 * the access fails and its WQE completes in error.
 *
 * Here the fault is served in the engine's pass, before the bytes move
 * (the access stalls for the time the driver takes): the pages are
 * populated through the kernel's own fault path (MADV_POPULATE_READ /
 * _WRITE), which refuses missing and read-only pages as hmm_range_fault
 * does. The translation is never cached, so after munmap the next access
 * fails and after a new mapping at the same address it follows the new
 * pages, as the notifier makes real ODP MRs do.
 */
#include "mlx5.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* Pages of [addr, addr+len) not resident now; -1 if some are unmapped. */
static long pages_missing(uintptr_t start, size_t span, size_t page)
{
	unsigned char vec[256];
	size_t off, n, i;
	long missing = 0;

	for (off = 0; off < span; off += n * page) {
		n = (span - off) / page;
		if (n > sizeof(vec))
			n = sizeof(vec);
		if (mincore((void *)(start + off), n * page, vec))
			return -1;
		for (i = 0; i < n; i++)
			missing += !(vec[i] & 1);
	}
	return missing;
}

int mlx5_sim_odp_fault(uint64_t addr, uint64_t len, int write, int snapshot,
		       int *faulted)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)addr & ~(uintptr_t)(page - 1);
	size_t span;
	long missing;

	*faulted = 0;
	if (!len)
		return 0;
	if (addr + len < addr)
		return -EFAULT;
	span = (((uintptr_t)(addr + len) + page - 1) & ~(uintptr_t)(page - 1)) -
	       start;
	missing = pages_missing(start, span, page);
	if (missing < 0)
		return -EFAULT; /* no page there: nothing to fault in */
	if (snapshot)
		return 0; /* NO_FAULT: map what is present, fault nothing */
	*faulted = missing > 0;
	if (!missing && !write)
		return 0;
	if (madvise((void *)start, span,
		    write ? MADV_POPULATE_WRITE : MADV_POPULATE_READ))
		return -EFAULT;
	return 0;
}
