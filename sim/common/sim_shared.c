// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "sim_shared.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static void state_path(char *buf, size_t len, const char *dir)
{
	snprintf(buf, len, "%s/state", dir);
}

void sim_memic_path(char *buf, size_t len, const char *dir)
{
	snprintf(buf, len, "%s/memic", dir);
}

static int init_lock(pthread_mutex_t *m)
{
	pthread_mutexattr_t a;
	int ret;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	ret = pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
	return -ret;
}

static int create_memic_file(const char *dir, uint64_t size)
{
	char path[SIM_PATH_LEN + 16];
	int fd, ret = 0;

	sim_memic_path(path, sizeof(path), dir);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)size))
		ret = -errno;
	close(fd);
	return ret;
}

int sim_shared_create(const char *dir, const struct sim_config *cfg,
		      const struct sim_fail_rule *rules, unsigned int nrules)
{
	char path[SIM_PATH_LEN + 16];
	struct sim_shared *sh;
	int fd, ret;

	state_path(path, sizeof(path), dir);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, sizeof(*sh))) {
		ret = -errno;
		goto out_close;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (sh == MAP_FAILED) {
		ret = -errno;
		goto out_close;
	}
	sh->size = sizeof(*sh);
	sh->cfg = *cfg;
	sh->next_id = 1;
	sh->nfail = nrules;
	memcpy(sh->fail, rules, nrules * sizeof(*rules));
	ret = init_lock(&sh->lock);
	if (!ret)
		ret = create_memic_file(dir, cfg->ndev * cfg->dm_size);
	if (!ret)
		sh->magic = SIM_MAGIC;
	munmap(sh, sizeof(*sh));
out_close:
	close(fd);
	return ret;
}

struct sim_shared *sim_shared_map(const char *dir)
{
	char path[SIM_PATH_LEN + 16];
	struct sim_shared *sh;
	int fd, err;

	state_path(path, sizeof(path), dir);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	err = errno;
	close(fd);
	if (sh == MAP_FAILED) {
		errno = err;
		return NULL;
	}
	if (sh->magic != SIM_MAGIC || sh->size != sizeof(*sh)) {
		munmap(sh, sizeof(*sh));
		errno = EINVAL;
		return NULL;
	}
	return sh;
}

void sim_shared_lock(struct sim_shared *sh)
{
	if (pthread_mutex_lock(&sh->lock) == EOWNERDEAD)
		pthread_mutex_consistent(&sh->lock);
}

void sim_shared_unlock(struct sim_shared *sh)
{
	pthread_mutex_unlock(&sh->lock);
}

static int pid_dead(int32_t pid)
{
	return pid > 0 && kill(pid, 0) && errno == ESRCH;
}

/* Resources of a process that died without closing are released. */
static void reclaim_dead(struct sim_shared *sh)
{
	unsigned int i;

	for (i = 0; i < SIM_MAX_EXPORTS; i++)
		if (sh->exports[i].in_use && pid_dead(sh->exports[i].owner_pid))
			sh->exports[i].in_use = 0;
	for (i = 0; i < SIM_MAX_ALLOCS; i++)
		if (sh->allocs[i].in_use && pid_dead(sh->allocs[i].owner_pid))
			sh->allocs[i].in_use = 0;
}

static int range_busy(struct sim_shared *sh, unsigned int dev, uint32_t first,
		      uint32_t npages)
{
	const struct sim_alloc *a;
	unsigned int i;

	for (i = 0; i < SIM_MAX_ALLOCS; i++) {
		a = &sh->allocs[i];
		if (a->in_use && a->dev == dev &&
		    a->first_page < first + npages &&
		    first < a->first_page + a->npages)
			return 1;
	}
	return 0;
}

int sim_alloc_pages(struct sim_shared *sh, unsigned int dev, uint32_t npages)
{
	uint32_t total = sh->cfg.dm_size / sh->cfg.page_size;
	uint32_t first;
	unsigned int i;

	reclaim_dead(sh);
	for (first = 0; first + npages <= total; first++) {
		if (range_busy(sh, dev, first, npages))
			continue;
		for (i = 0; i < SIM_MAX_ALLOCS; i++) {
			struct sim_alloc *a = &sh->allocs[i];

			if (a->in_use)
				continue;
			a->in_use = 1;
			a->gen++;
			a->dev = dev;
			a->first_page = first;
			a->npages = npages;
			a->owner_pid = getpid();
			a->dm_alive = 1;
			a->maps = 0;
			a->exports = 0;
			return i;
		}
		return -ENOMEM;
	}
	return -ENOMEM;
}

void sim_alloc_put(struct sim_shared *sh, int slot)
{
	struct sim_alloc *a = &sh->allocs[slot];

	if (!a->dm_alive && !a->maps && !a->exports)
		a->in_use = 0;
}

int sim_export_create(struct sim_shared *sh, int alloc, uint32_t first_page,
		      uint32_t npages)
{
	unsigned int i;

	for (i = 0; i < SIM_MAX_EXPORTS; i++) {
		struct sim_export *e = &sh->exports[i];

		if (e->in_use)
			continue;
		e->in_use = 1;
		e->gen++;
		e->dev = sh->allocs[alloc].dev;
		e->first_page = first_page;
		e->npages = npages;
		e->alloc = alloc;
		e->alloc_gen = sh->allocs[alloc].gen;
		e->revoked = 0;
		e->owner_pid = getpid();
		sh->allocs[alloc].exports++;
		return i;
	}
	return -ENOSPC;
}

void sim_export_revoke_alloc(struct sim_shared *sh, int alloc)
{
	unsigned int i;

	for (i = 0; i < SIM_MAX_EXPORTS; i++) {
		struct sim_export *e = &sh->exports[i];

		if (e->in_use && e->alloc == alloc &&
		    e->alloc_gen == sh->allocs[alloc].gen)
			e->revoked = 1;
	}
}

void sim_export_release(struct sim_shared *sh, int slot)
{
	struct sim_export *e = &sh->exports[slot];
	struct sim_alloc *a;

	if (!e->in_use)
		return;
	e->in_use = 0;
	if (e->alloc < 0)
		return;
	a = &sh->allocs[e->alloc];
	if (a->in_use && a->gen == e->alloc_gen && a->exports) {
		a->exports--;
		sim_alloc_put(sh, e->alloc);
	}
}

int sim_fail_check(struct sim_shared *sh, const char *kind)
{
	unsigned int i;
	int err = 0;

	if (!sh->nfail)
		return 0;
	sim_shared_lock(sh);
	for (i = 0; i < sh->nfail; i++) {
		struct sim_fail_rule *r = &sh->fail[i];

		if (strcmp(r->kind, kind))
			continue;
		if (++r->count == r->nth && !err)
			err = r->err;
	}
	sim_shared_unlock(sh);
	return err;
}
