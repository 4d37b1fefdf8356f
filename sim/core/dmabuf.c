// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * dma-buf exports of mmap entries. Each export is a file of its own in the
 * world's directory (<dir>/dmabuf-<slot>-<gen>-<n>, sized like the buffer),
 * opened read-only as the program's fd: dup, fork, exec and SCM_RIGHTS
 * share that one open file as they share a kernel dma-buf. The open file
 * holds an OFD read lock, so the kernel tells us when the last reference
 * anywhere is gone (close, close loop, exit); then the export is released
 * by whichever process sees it first. Importers (the peer device, dma-buf
 * MRs) hold a reference of their own: a private dup of the fd.
 */
#include "uapi.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Far from where a program would put a lock of its own. */
#define LOCK_AT ((off_t)1 << 62)

static void export_path(char *buf, size_t len, int alloc, uint32_t gen,
			uint32_t seq)
{
	snprintf(buf, len, "%s/dmabuf-%d-%u-%u", sim.dir, alloc, gen, seq);
}

static struct flock export_lock(short type)
{
	struct flock l = {.l_type = type,
			  .l_whence = SEEK_SET,
			  .l_start = LOCK_AT,
			  .l_len = 1};

	return l;
}

/* 1 if some open file (any process) holds the export, 0 if none, -1 gone. */
static int export_held(const char *path)
{
	struct flock l = export_lock(F_WRLCK);
	int fd = sys.open(path, O_RDONLY | O_CLOEXEC), held;

	if (fd < 0)
		return -1;
	held = sys.fcntl(fd, F_OFD_GETLK, &l) ? 1 : l.l_type != F_UNLCK;
	sys.close(fd);
	return held;
}

/* An export nobody holds any more gives back its pages, once. Locked. */
static void export_reap(int alloc, uint32_t gen, uint32_t seq)
{
	struct sim_alloc *a = &sim.sh->allocs[alloc];
	char path[SIM_PATH_LEN + 64];

	export_path(path, sizeof(path), alloc, gen, seq);
	if (export_held(path) || unlink(path))
		return;
	if (a->in_use && a->gen == gen && a->exports) {
		a->exports--;
		sim_memic_put(alloc);
	}
}

void sim_dmabuf_reap_alloc(int alloc)
{
	struct sim_alloc *a = &sim.sh->allocs[alloc];
	uint32_t seq;

	for (seq = 0; seq < a->export_seq && a->exports; seq++)
		export_reap(alloc, a->gen, seq);
}

void sim_dmabuf_put(struct sim_dmabuf *db)
{
	if (--db->refs > 0)
		return;
	sim_shared_lock(sim.sh);
	export_reap(db->alloc, db->gen, db->seq);
	sim_shared_unlock(sim.sh);
	free(db);
}

int sim_dmabuf_revoked(const struct sim_dmabuf *db)
{
	const struct sim_alloc *a = &sim.sh->allocs[db->alloc];

	return !a->in_use || a->gen != db->gen || !a->dm_alive;
}

/* The export's file, created read-only with its lock. fd or -errno. */
static int export_file(struct sim_dmabuf *db)
{
	struct flock l = export_lock(F_RDLCK);
	char path[SIM_PATH_LEN + 64];
	int fd, err;

	export_path(path, sizeof(path), db->alloc, db->gen, db->seq);
	fd = sys.open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (!truncate(path, (off_t)db->size) &&
	    !sys.fcntl(fd, F_OFD_SETLK, &l))
		return fd;
	err = errno;
	sys.close(fd);
	unlink(path);
	return -err;
}

int sim_dmabuf_export(struct sim_uvfile *uv, struct sim_entry *e)
{
	struct sim_dmabuf *db;
	struct sim_alloc *a;
	int fd;

	if (e->kind != SIM_ENT_MEMIC || !sim_uvfile_mine(uv))
		return -EINVAL;
	db = calloc(1, sizeof(*db));
	if (!db)
		return -ENOMEM;
	db->alloc = e->alloc;
	db->size = (uint64_t)e->npages * sim.sh->cfg.page_size;
	sim_shared_lock(sim.sh);
	a = &sim.sh->allocs[e->alloc];
	db->gen = a->gen;
	db->seq = a->export_seq;
	fd = export_file(db);
	if (fd >= 0) {
		a->export_seq++;
		a->exports++;
	}
	sim_shared_unlock(sim.sh);
	if (fd < 0) {
		free(db);
		return fd;
	}
	if (sim_fd_set(fd, SIM_FD_DMABUF, db)) {
		db->refs = 1;
		sys.close(fd);
		sim_dmabuf_put(db);
		return -EMFILE;
	}
	return fd;
}

/* fd was inherited over exec or received over a socket: know it again. */
void sim_dmabuf_adopt(int fd)
{
	char path[64], link[SIM_PATH_LEN + 64], prefix[SIM_PATH_LEN + 16];
	struct sim_dmabuf *db;
	struct stat st;
	ssize_t n;
	int alloc;

	if (sim_fd_tracked(fd) || fd < 0 || fd >= SIM_MAX_FDS)
		return;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = sys.readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return;
	link[n] = 0;
	n = snprintf(prefix, sizeof(prefix), "%s/dmabuf-", sim.dir);
	if (strncmp(link, prefix, (size_t)n) || sys.fstat(fd, &st))
		return;
	db = calloc(1, sizeof(*db));
	if (!db)
		return;
	if (sscanf(link + n, "%d-%u-%u", &alloc, &db->gen, &db->seq) != 3 ||
	    alloc < 0 || alloc >= SIM_MAX_ALLOCS ||
	    sim_fd_set(fd, SIM_FD_DMABUF, db)) {
		free(db);
		return;
	}
	db->alloc = alloc;
	db->size = (uint64_t)st.st_size;
}

struct sim_dmabuf_import *sim_dmabuf_import(int fd, int *err)
{
	struct sim_fd *f = sim_fd_get(fd);
	struct sim_dmabuf_import *imp;

	if (!f || f->kind != SIM_FD_DMABUF) {
		*err = -EINVAL;
		return NULL;
	}
	imp = calloc(1, sizeof(*imp));
	if (!imp) {
		*err = -ENOMEM;
		return NULL;
	}
	imp->hold = sys.fcntl(fd, F_DUPFD_CLOEXEC, 0);
	*err = imp->hold < 0 ? -errno : sim_internal_fd_add(&imp->hold);
	if (*err) {
		free(imp);
		return NULL;
	}
	imp->db = f->db;
	imp->db->refs++;
	return imp;
}

void sim_dmabuf_release(struct sim_dmabuf_import *imp)
{
	if (!imp)
		return;
	sim_internal_fd_close(&imp->hold);
	sim_dmabuf_put(imp->db);
	free(imp);
}

int64_t sim_dmabuf_memic_offset(const struct sim_dmabuf_import *imp,
				unsigned int *dev)
{
	const struct sim_alloc *a = &sim.sh->allocs[imp->db->alloc];

	if (sim_dmabuf_revoked(imp->db))
		return -1;
	*dev = a->dev;
	return (int64_t)(a->first_page * sim.sh->cfg.page_size);
}

/* ---- peer-device access, used by librdmasim_peer.so via dlsym ---- */

struct sim_dmabuf_import *rdma_sim_internal_dmabuf_get(int fd, int *err);
void rdma_sim_internal_dmabuf_put(struct sim_dmabuf_import *imp);
uint64_t rdma_sim_internal_dmabuf_size(struct sim_dmabuf_import *imp);
int rdma_sim_internal_dmabuf_rw(struct sim_dmabuf_import *imp, uint64_t off,
				void *buf, size_t len, int write);

/* A reference to the export behind fd, as an importer takes one. */
struct sim_dmabuf_import *rdma_sim_internal_dmabuf_get(int fd, int *err)
{
	struct sim_dmabuf_import *imp = NULL;
	int ret = -EINVAL;

	sim_real_init();
	if (fd < 0 || sim_fd_internal(fd) || sys.fcntl(fd, F_GETFD) < 0) {
		*err = EBADF;
		return NULL;
	}
	pthread_mutex_lock(&sim_lock);
	if (sim.active)
		imp = sim_dmabuf_import(fd, &ret);
	if (imp && sim_dmabuf_revoked(imp->db)) {
		sim_dmabuf_release(imp);
		imp = NULL;
		ret = -ENODEV;
	}
	pthread_mutex_unlock(&sim_lock);
	*err = -ret;
	return imp;
}

void rdma_sim_internal_dmabuf_put(struct sim_dmabuf_import *imp)
{
	pthread_mutex_lock(&sim_lock);
	sim_dmabuf_release(imp);
	pthread_mutex_unlock(&sim_lock);
}

uint64_t rdma_sim_internal_dmabuf_size(struct sim_dmabuf_import *imp)
{
	return imp->db->size;
}

int rdma_sim_internal_dmabuf_rw(struct sim_dmabuf_import *imp, uint64_t off,
				void *buf, size_t len, int write)
{
	const struct sim_dmabuf *db = imp->db;
	const struct sim_alloc *a = &sim.sh->allocs[db->alloc];
	off_t pos;
	ssize_t n;
	int ret = 0;

	if (off > db->size || len > db->size - off)
		return -EINVAL;
	sim_shared_lock(sim.sh);
	if (sim_dmabuf_revoked(db)) {
		ret = -ENODEV;
		goto out;
	}
	pos = sim_memic_pos(a->dev, a->first_page) + (off_t)off;
	n = write ? sys.pwrite(sim.memic_fd, buf, len, pos)
		  : sys.pread(sim.memic_fd, buf, len, pos);
	if (n != (ssize_t)len)
		ret = n < 0 ? -errno : -EIO;
out:
	sim_shared_unlock(sim.sh);
	return ret;
}
