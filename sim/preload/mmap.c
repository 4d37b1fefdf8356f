// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mmap() on a uverbs fd. MEMIC pages map the device's shared backing file,
 * so every mapping (any process) sees the same bytes; each mapping holds
 * its pages, as the kernel's mmap entry does, until munmap or exit.
 */
#include "uapi.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

struct sim_map {
	struct sim_map *next;
	uintptr_t addr;
	size_t len;
	int slot;
	uint32_t gen;
	pid_t pid;
};

static struct sim_map *maps;

void *sim_mmap(struct sim_uvfile *uv, void *addr, size_t len, int prot,
	       int flags, off_t off)
{
	uint64_t page = sim.sh->cfg.page_size;

	if ((flags & MAP_TYPE) != MAP_SHARED || off < 0 ||
	    (uint64_t)off % page || !len) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	return sim_driver()->mmap(uv, addr, len, prot, flags,
				  (uint64_t)off / page);
}

void *sim_map_anon(void *addr, size_t len, int prot, int flags)
{
	return real.mmap(addr, len, prot,
			 (flags & ~MAP_TYPE) | MAP_SHARED | MAP_ANONYMOUS, -1,
			 0);
}

void *sim_map_entry(struct sim_uvfile *uv, struct sim_entry *e, void *addr,
		    size_t len, int prot, int flags)
{
	uint64_t page = sim.sh->cfg.page_size;
	struct sim_alloc *a;
	struct sim_map *m;
	void *p;

	if (len != e->npages * page) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	if (e->kind != SIM_ENT_MEMIC)
		return sim_map_anon(addr, len, prot, flags);
	m = calloc(1, sizeof(*m));
	if (!m) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	a = &sim.sh->allocs[e->alloc];
	p = real.mmap(addr, len, prot, flags, sim.memic_fd,
		      sim_memic_pos(uv->dev, a->first_page));
	if (p == MAP_FAILED) {
		free(m);
		return p;
	}
	m->addr = (uintptr_t)p;
	m->len = len;
	m->slot = e->alloc;
	m->pid = getpid();
	sim_shared_lock(sim.sh);
	m->gen = a->gen;
	a->maps++;
	sim_shared_unlock(sim.sh);
	m->next = maps;
	maps = m;
	return p;
}

static void map_release(struct sim_map *m)
{
	struct sim_alloc *a = &sim.sh->allocs[m->slot];

	if (m->pid != getpid())
		return;
	sim_shared_lock(sim.sh);
	if (a->in_use && a->gen == m->gen && a->maps) {
		a->maps--;
		sim_alloc_put(sim.sh, m->slot);
	}
	sim_shared_unlock(sim.sh);
}

void sim_munmap_note(void *addr, size_t len)
{
	uintptr_t lo = (uintptr_t)addr, hi = lo + len;
	struct sim_map **p = &maps, *m;

	while ((m = *p)) {
		if (m->addr >= lo && m->addr + m->len <= hi) {
			*p = m->next;
			map_release(m);
			free(m);
			continue;
		}
		p = &m->next;
	}
}

void sim_maps_release_all(void)
{
	struct sim_map *m;

	pthread_mutex_lock(&sim_lock);
	while ((m = maps)) {
		maps = m->next;
		map_release(m);
		free(m);
	}
	pthread_mutex_unlock(&sim_lock);
}
