// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MEMIC pages: the per-device allocator (lowest free run, as the kernel's
 * page bitmap) and what keeps pages reserved after their DM is gone.
 *
 * The kernel counts the holders for us. A CPU mapping maps the backing file
 * through an open file of its own that holds an OFD read lock on the pages'
 * range; the open file, and so the lock, lives as long as any vma of it
 * does, in this process or in any child it forked. A dma-buf export is a
 * file whose open file holds a lock the same way (dmabuf.c). A slot is
 * freed when its DM is gone and no lock and no export remain; pages of
 * processes that died are looked for when an allocation would fail.
 */
#include "sim.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>

static struct sim_alloc *slot_of(unsigned int dev, uint32_t page)
{
	return &sim.sh->allocs[dev * SIM_MEMIC_MAX_PAGES + page];
}

static struct flock range_lock(short type, const struct sim_alloc *a)
{
	struct flock l = {
		.l_type = type,
		.l_whence = SEEK_SET,
		.l_start = sim_memic_pos(a->dev, a->first_page),
		.l_len = (off_t)(a->npages * sim.sh->cfg.page_size),
	};

	return l;
}

/* Some mapping, in some process, still holds the pages. */
static int range_mapped(const struct sim_alloc *a)
{
	struct flock l = range_lock(F_WRLCK, a);

	if (sys.fcntl(sim.memic_fd, F_OFD_GETLK, &l))
		return 1; /* cannot tell: never hand out pages in doubt */
	return l.l_type != F_UNLCK;
}

void sim_memic_put(int slot)
{
	struct sim_alloc *a = &sim.sh->allocs[slot];

	if (a->in_use && !a->dm_alive && !a->exports && !range_mapped(a))
		a->in_use = 0;
}

/* A zombie counts as dead: its context closed when it exited. */
static int pid_dead(int32_t pid)
{
	return pid > 0 && sim_pid_gone(pid);
}

/* Drop what dead processes and closed exports left behind on dev. */
static void reclaim(unsigned int dev)
{
	struct sim_alloc *a;
	uint32_t p;

	for (p = 0; p < SIM_MEMIC_MAX_PAGES; p++) {
		a = slot_of(dev, p);
		if (!a->in_use)
			continue;
		if (a->dm_alive && pid_dead(a->owner_pid))
			a->dm_alive = 0; /* its context died with it */
		if (a->exports)
			sim_dmabuf_reap_alloc((int)(a - sim.sh->allocs));
		sim_memic_put((int)(a - sim.sh->allocs));
	}
}

/* Lowest first page of npages free pages on dev, or -1. */
static int find_free(unsigned int dev, uint32_t npages)
{
	uint32_t total =
		(uint32_t)(sim.sh->cfg.dm_size / sim.sh->cfg.page_size);
	uint32_t first = 0, p;

	if (total > SIM_MEMIC_MAX_PAGES)
		total = SIM_MEMIC_MAX_PAGES;
	while (first + npages <= total) {
		for (p = first; p < first + npages; p++)
			if (slot_of(dev, p)->in_use)
				break;
		if (p == first + npages)
			return (int)first;
		first = p + slot_of(dev, p)->npages;
	}
	return -1;
}

int sim_memic_alloc(unsigned int dev, uint32_t npages)
{
	struct sim_alloc *a;
	int first;

	sim_shared_lock(sim.sh);
	first = find_free(dev, npages);
	if (first < 0) {
		reclaim(dev);
		first = find_free(dev, npages);
	}
	if (first >= 0) {
		a = slot_of(dev, (uint32_t)first);
		a->in_use = 1;
		a->gen++;
		a->dev = dev;
		a->first_page = (uint32_t)first;
		a->npages = npages;
		a->owner_pid = getpid();
		a->dm_alive = 1;
		a->exports = 0;
		a->export_seq = 0;
	}
	sim_shared_unlock(sim.sh);
	return first < 0 ? -ENOMEM
			 : (int)(dev * SIM_MEMIC_MAX_PAGES + (uint32_t)first);
}

void *sim_memic_map(int slot, void *addr, size_t len, int prot, int flags)
{
	const struct sim_alloc *a = &sim.sh->allocs[slot];
	char path[SIM_PATH_LEN + 16];
	struct flock l = range_lock(F_RDLCK, a);
	void *p = MAP_FAILED;
	int fd, err;

	sim_memic_path(path, sizeof(path), sim.dir);
	fd = sim_open_private(path, O_RDWR | O_CLOEXEC, 0);
	if (fd < 0)
		return MAP_FAILED;
	if (!sys.fcntl(fd, F_OFD_SETLK, &l))
		p = sys.mmap(addr, len, prot, flags, fd, l.l_start);
	err = errno;
	sim_close_private(fd); /* the mapping keeps the open file and lock */
	errno = err;
	return p;
}

uint8_t *sim_memic_base(void)
{
	static uint8_t *base;
	size_t len = (size_t)sim.sh->cfg.ndev * sim.sh->cfg.dm_size;
	void *p;

	if (base || !len)
		return base;
	p = sys.mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
		      sim.memic_fd, 0);
	if (p != MAP_FAILED)
		base = p;
	return base;
}
