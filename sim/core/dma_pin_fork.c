// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * fork and the memory pinned for DMA (dma_pin.c). A real kernel gives a
 * fork child its own copy of pinned anonymous pages (or none, where
 * MADV_DONTFORK says so); the memfd's shared mappings would instead be
 * shared with the child. So before the fork each of them that is not
 * DONTFORK is copied into a private anonymous mapping and hidden from the
 * child (DONTFORK); the child moves the copies into place, the parent
 * drops them and shows its pages to later forks again. The copy is the
 * fork's moment: later stores by either process stay their own. The
 * child starts with no memfd and no table of its own. vfork and
 * CLONE_VM children share the memory anyway (no handlers run).
 *
 * Runs in the fork handlers of init.c, under sim_lock.
 */
#include "sim.h"
#include "dma_pin_int.h"
#include "raw_syscall.h"

#include <string.h>
#include <sys/mman.h>

struct snap {
	uint64_t va, len;
	void *copy;
	int prot;
};

static struct snap snaps[SIM_DMA_RANGES];
static unsigned int nsnaps;

static int prot_of(const char *perms)
{
	return (perms[0] == 'r' ? PROT_READ : 0) |
	       (perms[1] == 'w' ? PROT_WRITE : 0) |
	       (perms[2] == 'x' ? PROT_EXEC : 0);
}

static int snap_vma(const struct dma_vma *v, void *arg)
{
	size_t len = v->end - v->start;
	void *c;

	(void)arg;
	if (v->ino != dma_pin.ino || v->perms[3] != 's' || v->dontfork ||
	    v->perms[0] != 'r' || nsnaps == SIM_DMA_RANGES)
		return 0; /* hidden from the child, or as good as it gets */
	c = sys.mmap(NULL, len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c == MAP_FAILED)
		return 0;
	dma_copy_data(c, v->pgoff, len);
	if (sim_cookie_syscall(__NR_madvise, (long)v->start, (long)len,
			       MADV_DONTFORK, 0, 0)) {
		sys.munmap(c, len);
		return 0;
	}
	snaps[nsnaps++] = (struct snap){v->start, len, c, prot_of(v->perms)};
	return 0;
}

void sim_dma_fork_prepare(void)
{
	nsnaps = 0;
	if (dma_pin.t)
		dma_vmas_each(snap_vma, NULL);
}

void sim_dma_fork_parent(void)
{
	unsigned int i;

	for (i = 0; i < nsnaps; i++) {
		sim_cookie_syscall(__NR_madvise, (long)snaps[i].va,
				   (long)snaps[i].len, MADV_DOFORK, 0, 0);
		sys.munmap(snaps[i].copy, snaps[i].len);
	}
	nsnaps = 0;
}

void sim_dma_fork_child(void)
{
	struct snap *s;
	unsigned int i;

	for (i = 0; i < nsnaps; i++) {
		s = &snaps[i];
		if (sys.mremap(s->copy, s->len, s->len,
			       MREMAP_MAYMOVE | MREMAP_FIXED,
			       (void *)(uintptr_t)s->va) != MAP_FAILED)
			sys.mprotect((void *)(uintptr_t)s->va, s->len, s->prot);
		else
			sys.munmap(s->copy, s->len);
	}
	nsnaps = 0;
	if (dma_pin.t)
		sys.munmap(dma_pin.t, 4096);
	dma_pin.t = NULL;
	sim_internal_fd_close(&dma_pin.memfd);
	dma_pin.ino = 0;
	dma_pin.next = 0;
	memset(dma_pin.refs, 0, sizeof(dma_pin.refs));
	dma_pin.off = 0;
}
