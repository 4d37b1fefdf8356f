// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "sim_shared.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void sim_state_path(char *buf, size_t len, const char *dir)
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

	sim_state_path(path, sizeof(path), dir);
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

void sim_shared_lock(struct sim_shared *sh)
{
	if (pthread_mutex_lock(&sh->lock) == EOWNERDEAD)
		pthread_mutex_consistent(&sh->lock);
}

void sim_shared_unlock(struct sim_shared *sh)
{
	pthread_mutex_unlock(&sh->lock);
}

struct sim_xrc_tgt *sim_xrc_tgt_row(struct sim_shared *sh, unsigned int dev,
				    uint32_t qpn)
{
	struct sim_xrc_tgt *t;
	unsigned int i;

	for (i = 0; i < SIM_MAX_XRC_TGT; i++) {
		t = &sh->xrc_tgts[i];
		if (__atomic_load_n(&t->in_use, __ATOMIC_ACQUIRE) &&
		    t->dev == dev && t->qpn == qpn)
			return t;
	}
	return NULL;
}

void sim_xrc_tgt_set_qpc(struct sim_shared *sh, unsigned int dev, uint32_t qpn,
			 const struct sim_xrc_qpc *qpc)
{
	struct sim_xrc_tgt *t;

	sim_shared_lock(sh);
	t = sim_xrc_tgt_row(sh, dev, qpn);
	if (t)
		t->qpc = *qpc;
	sim_shared_unlock(sh);
}

uint32_t sim_shared_number(struct sim_shared *sh)
{
	uint32_t n;

	sim_shared_lock(sh);
	n = (uint32_t)(sh->next_id++ & 0xffffff);
	sim_shared_unlock(sh);
	return n ? n : 1;
}

int sim_fail_check(struct sim_shared *sh, const char *kind, int at_commit)
{
	unsigned int i;
	int err = 0;

	if (!sh->nfail)
		return 0;
	sim_shared_lock(sh);
	for (i = 0; i < sh->nfail; i++) {
		struct sim_fail_rule *r = &sh->fail[i];

		if (strcmp(r->kind, kind) || r->at_commit != !!at_commit)
			continue;
		if (++r->count == r->nth && !err)
			err = r->err;
	}
	sim_shared_unlock(sh);
	return err;
}

int sim_link_is_down(const struct sim_config *cfg, unsigned int dev)
{
	struct timespec ts;
	uint64_t now;

	if (!cfg->nfaults)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	return sim_fault_link_down(
		cfg->faults, cfg->nfaults,
		now > cfg->start_ns ? (now - cfg->start_ns) / 1000000 : 0, dev);
}
