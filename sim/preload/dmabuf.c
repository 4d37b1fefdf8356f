// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * dma-buf exports of mmap entries. The fd is a sealed-size memfd (so fstat
 * and lseek give the buffer size) that the sim refuses to mmap, read or
 * write; the bytes are reachable only through the peer API below.
 */
#include "uapi.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

void sim_dmabuf_put(struct sim_dmabuf *db)
{
	struct sim_export *e;

	if (--db->refs > 0)
		return;
	sim_shared_lock(sim.sh);
	e = &sim.sh->exports[db->slot];
	if (e->in_use && e->gen == db->gen)
		sim_export_release(sim.sh, db->slot);
	sim_shared_unlock(sim.sh);
	free(db);
}

int sim_dmabuf_export(struct sim_uvfile *uv, struct sim_entry *e)
{
	uint64_t size = (uint64_t)e->npages * sim.sh->cfg.page_size;
	struct sim_dmabuf *db;
	int fd, slot, ret;

	if (e->kind != SIM_ENT_MEMIC || !sim_uvfile_mine(uv))
		return -EINVAL;
	db = calloc(1, sizeof(*db));
	if (!db)
		return -ENOMEM;
	fd = memfd_create("dmabuf", MFD_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto err_free;
	}
	if (ftruncate(fd, (off_t)size)) {
		ret = -errno;
		goto err_close;
	}
	sim_shared_lock(sim.sh);
	slot = sim_export_create(sim.sh, e->alloc,
				 sim.sh->allocs[e->alloc].first_page,
				 e->npages);
	if (slot >= 0)
		db->gen = sim.sh->exports[slot].gen;
	sim_shared_unlock(sim.sh);
	if (slot < 0) {
		ret = slot;
		goto err_close;
	}
	db->slot = slot;
	db->size = size;
	if (sim_fd_set(fd, SIM_FD_DMABUF, db)) {
		db->refs = 1;
		sim_dmabuf_put(db);
		real.close(fd);
		return -EMFILE;
	}
	return fd;
err_close:
	real.close(fd);
err_free:
	free(db);
	return ret;
}

/* ---- peer-device access, used by librdmasim_peer.so via dlsym ---- */

struct sim_dmabuf *rdma_sim_internal_dmabuf_get(int fd, int *err);
void rdma_sim_internal_dmabuf_put(struct sim_dmabuf *db);
uint64_t rdma_sim_internal_dmabuf_size(struct sim_dmabuf *db);
int rdma_sim_internal_dmabuf_rw(struct sim_dmabuf *db, uint64_t off, void *buf,
				size_t len, int write);

/* A reference to the export behind fd, as an importer takes one. */
struct sim_dmabuf *rdma_sim_internal_dmabuf_get(int fd, int *err)
{
	struct sim_dmabuf *db = NULL;
	struct sim_fd *f;

	sim_real_init();
	if (fd < 0 || real.fcntl(fd, F_GETFD) < 0) {
		*err = EBADF;
		return NULL;
	}
	pthread_mutex_lock(&sim_lock);
	f = sim.active ? sim_fd_get(fd) : NULL;
	if (f && f->kind == SIM_FD_DMABUF) {
		db = f->db;
		db->refs++;
	}
	pthread_mutex_unlock(&sim_lock);
	if (!db) {
		*err = EINVAL;
		return NULL;
	}
	if (sim.sh->exports[db->slot].revoked) {
		rdma_sim_internal_dmabuf_put(db);
		*err = ENODEV;
		return NULL;
	}
	return db;
}

void rdma_sim_internal_dmabuf_put(struct sim_dmabuf *db)
{
	pthread_mutex_lock(&sim_lock);
	sim_dmabuf_put(db);
	pthread_mutex_unlock(&sim_lock);
}

uint64_t rdma_sim_internal_dmabuf_size(struct sim_dmabuf *db)
{
	return db->size;
}

int rdma_sim_internal_dmabuf_rw(struct sim_dmabuf *db, uint64_t off, void *buf,
				size_t len, int write)
{
	struct sim_export *e = &sim.sh->exports[db->slot];
	off_t pos;
	ssize_t n;
	int ret = 0;

	if (off > db->size || len > db->size - off)
		return -EINVAL;
	sim_shared_lock(sim.sh);
	if (!e->in_use || e->gen != db->gen || e->revoked) {
		ret = -ENODEV;
		goto out;
	}
	pos = sim_memic_pos(e->dev, e->first_page) + (off_t)off;
	n = write ? pwrite(sim.memic_fd, buf, len, pos)
		  : pread(sim.memic_fd, buf, len, pos);
	if (n != (ssize_t)len)
		ret = n < 0 ? -errno : -EIO;
out:
	sim_shared_unlock(sim.sh);
	return ret;
}
