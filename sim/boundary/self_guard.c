// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The sim's code is the simulated kernel's entry: a program cannot rewrite
 * the kernel's system-call path, so it cannot rewrite the sim's either.
 * Libraries that hot-patch functions in place (UCX's "bistro" memory
 * hooks find mmap/munmap/mremap by name, which is the sim's wrapper, and
 * overwrite its first bytes with a jump to their own code that then makes
 * the system call itself) would otherwise take the uverbs fd's mmap away
 * from the simulated kernel. Making a page of librdmasim.so's code
 * writable is refused with EACCES; such a library then runs without its
 * hooks, as it does where patching is not possible.
 */
#include "sim.h"
#include "syscall_trap.h"

#include <errno.h>
#include <link.h>
#include <sys/mman.h>

static uintptr_t text_lo, text_hi; /* librdmasim.so's executable segment */

static int find_text(struct dl_phdr_info *info, size_t size, void *self)
{
	uintptr_t a = (uintptr_t)self, lo, hi;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		lo = info->dlpi_addr + ph->p_vaddr;
		hi = lo + ph->p_memsz;
		if (a >= lo && a < hi) {
			text_lo = lo;
			text_hi = hi;
			return 1;
		}
	}
	return 0;
}

int sim_text_guarded(void *addr, size_t len, int prot)
{
	uintptr_t a = (uintptr_t)addr;

	if (!text_hi)
		dl_iterate_phdr(find_text, (void *)(uintptr_t)&mprotect);
	return (prot & PROT_WRITE) && a < text_hi && a + len > text_lo;
}

int mprotect(void *addr, size_t len, int prot)
{
	sim_real_init();
	if (sim_text_guarded(addr, len, prot)) {
		errno = EACCES;
		return -1;
	}
	return real.mprotect(addr, len, prot);
}
