// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mmap() on a uverbs fd. MEMIC pages map the device's shared backing file,
 * so every mapping (any process) sees the same bytes; each mapping holds
 * its pages, as the kernel's mmap entry does, until munmap or exit, also in
 * children that inherited it (memic.c). Every mapping also holds its uverbs
 * file, as a vma holds the kernel's: closing the last fd of a context with
 * a mapping left keeps the context (and its DMs and exports) until munmap.
 */
#include "uapi.h"
#include "hca_doorbell.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

struct sim_map {
	struct sim_map *next;
	uintptr_t addr;
	size_t len;
	int slot; /* MEMIC slot, -1 for other pages */
	struct sim_uvfile *uv;
};

static struct sim_map *maps;

/* Remember a mapping made through uv (holds uv). Needs sim_lock. */
static void map_note(struct sim_uvfile *uv, void *p, size_t len, int slot)
{
	struct sim_map *m = calloc(1, sizeof(*m));

	if (!m)
		return; /* the context will just not outlive its fds */
	m->addr = (uintptr_t)p;
	m->len = len;
	m->slot = slot;
	m->uv = uv;
	uv->refs++;
	m->next = maps;
	maps = m;
}

void *sim_mmap(struct sim_uvfile *uv, void *addr, size_t len, int prot,
	       int flags, off_t off)
{
	uint64_t page = sim.sh->cfg.page_size;
	struct sim_map *top = maps;
	void *p;

	if ((flags & MAP_TYPE) != MAP_SHARED || off < 0 ||
	    (uint64_t)off % page || !len) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	p = sim_driver()->mmap(uv, addr, len, prot, flags,
			       (uint64_t)off / page);
	if (p != MAP_FAILED && maps == top) /* not a MEMIC entry */
		map_note(uv, p, len, -1);
	return p;
}

void *sim_map_anon(void *addr, size_t len, int prot, int flags)
{
	return sys.mmap(addr, len, prot,
			 (flags & ~MAP_TYPE) | MAP_SHARED | MAP_ANONYMOUS, -1,
			 0);
}

void *sim_map_entry(struct sim_uvfile *uv, struct sim_entry *e, void *addr,
		    size_t len, int prot, int flags)
{
	uint64_t page = sim.sh->cfg.page_size;
	void *p;

	if (len != e->npages * page) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	if (e->kind != SIM_ENT_MEMIC && e->pages)
		return sim_page_file_map(uv->owner_pid, e->pages, addr, len, prot,
					 flags);
	if (e->kind != SIM_ENT_MEMIC)
		return sim_map_anon(addr, len, prot, flags);
	p = sim_memic_map(e->alloc, addr, len, prot, flags);
	if (p != MAP_FAILED)
		map_note(uv, p, len, e->alloc);
	return p;
}

/* Also right in a fork child: its uv is its own copy, the probe is shared. */
static void map_release(struct sim_map *m)
{
	if (m->slot >= 0) {
		sim_shared_lock(sim.sh);
		sim_memic_put(m->slot);
		sim_shared_unlock(sim.sh);
	}
	sim_uvfile_put(m->uv);
}

/* No page of the mapping is mapped any more (mincore: ENOMEM). */
static int all_gone(const struct sim_map *m)
{
	size_t page = sim.sh->cfg.page_size, off;
	unsigned char v;

	for (off = 0; off < m->len; off += page)
		if (!mincore((void *)(m->addr + off), page, &v) ||
		    errno != ENOMEM)
			return 0;
	return 1;
}

/*
 * After munmap of [addr, addr+len): a mapping is gone when the range
 * covered it, or covered a part and the rest was unmapped before, as the
 * kernel releases the file only with the last piece of its vma.
 */
void sim_munmap_note(void *addr, size_t len)
{
	uintptr_t lo = (uintptr_t)addr, hi = lo + len;
	struct sim_map **p = &maps, *m;

	hca_doorbell_unmap(addr, len);
	sim_dma_unmap(addr, len);

	while ((m = *p)) {
		if (m->addr < hi && lo < m->addr + m->len &&
		    ((m->addr >= lo && m->addr + m->len <= hi) ||
		     all_gone(m))) {
			*p = m->next;
			map_release(m);
			free(m);
			continue;
		}
		p = &m->next;
	}
}

int sim_map_known(void *addr, size_t len)
{
	struct sim_map *m;

	for (m = maps; m; m = m->next)
		if (m->addr == (uintptr_t)addr && m->len == len)
			return 1;
	return 0;
}

/* mremap moved or resized a mapping: follow it. Needs sim_lock. */
void sim_mremap_note(void *old, size_t old_len, void *new, size_t new_len)
{
	struct sim_map *m;

	hca_doorbell_moved(old, new, new_len);
	for (m = maps; m; m = m->next) {
		if (m->addr == (uintptr_t)old && m->len == old_len) {
			m->addr = (uintptr_t) new;
			m->len = new_len;
			return;
		}
	}
}
