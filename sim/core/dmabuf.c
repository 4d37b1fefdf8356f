// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * dma-buf exports of mmap entries. Each export is a file of its own in the
 * world's directory, sized like the buffer: dmabuf-<slot>-<gen>-<n> for
 * MEMIC pages, dmabuf-p<pid>.<id>-<n> for a device page file (UAR), opened
 * read-only as the program's fd; a buffer of its own memory (DMA-buf heap,
 * GEM) is dmabuf-m<pid>.<id>, opened as asked, and holds the bytes itself.
 * dup, fork, exec and SCM_RIGHTS
 * share that one open file as they share a kernel dma-buf. The open file
 * holds an OFD read lock, so the kernel tells us when the last reference
 * anywhere is gone (close, close loop, exit); then the export is released
 * by whichever process sees it first. Importers (the peer device, dma-buf
 * MRs) hold a reference of their own: a private dup of the fd or, when
 * the program's descriptor table is full (a kernel importer's reference
 * takes no descriptor), a one-page read-only mapping of the file.
 */
#include "hca_fabric.h"
#include "uapi.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Far from where a program would put a lock of its own. */
#define LOCK_AT ((off_t)1 << 62)

static uint32_t last_seq; /* PAGES and MEM exports of this process */

static void export_path(char *buf, size_t len, const struct sim_dmabuf *db)
{
	if (db->kind == SIM_DMABUF_MEMIC)
		snprintf(buf, len, "%s/dmabuf-%d-%u-%u", sim.dir, db->alloc,
			 db->gen, db->seq);
	else if (db->kind == SIM_DMABUF_PAGES)
		snprintf(buf, len, "%s/dmabuf-p%d.%u-%u", sim.dir, db->pid,
			 db->id, db->seq);
	else
		snprintf(buf, len, "%s/dmabuf-m%d.%u", sim.dir, db->pid,
			 db->id);
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
	int fd = sim_open_private(path, O_RDONLY | O_CLOEXEC, 0), held;

	if (fd < 0)
		return -1;
	held = sys.fcntl(fd, F_OFD_GETLK, &l) ? 1 : l.l_type != F_UNLCK;
	sim_close_private(fd);
	return held;
}

/* An export nobody holds any more gives back its pages, once. Locked. */
static void export_reap(const struct sim_dmabuf *db)
{
	struct sim_alloc *a = &sim.sh->allocs[db->alloc];
	char path[SIM_PATH_LEN + 64];

	export_path(path, sizeof(path), db);
	if (export_held(path) || unlink(path))
		return;
	if (db->kind == SIM_DMABUF_MEMIC && a->in_use && a->gen == db->gen &&
	    a->exports) {
		a->exports--;
		sim_memic_put(db->alloc);
	}
}

void sim_dmabuf_reap_alloc(int alloc)
{
	struct sim_alloc *a = &sim.sh->allocs[alloc];
	struct sim_dmabuf db = {
		.kind = SIM_DMABUF_MEMIC, .alloc = alloc, .gen = a->gen};

	for (db.seq = 0; db.seq < a->export_seq && a->exports; db.seq++)
		export_reap(&db);
}

void sim_dmabuf_put(struct sim_dmabuf *db)
{
	if (--db->refs > 0)
		return;
	sim_shared_lock(sim.sh);
	export_reap(db);
	sim_shared_unlock(sim.sh);
	free(db);
}

int sim_dmabuf_revoked(const struct sim_dmabuf *db)
{
	const struct sim_alloc *a = &sim.sh->allocs[db->alloc];
	char path[SIM_PATH_LEN + 48];

	if (db->kind == SIM_DMABUF_MEM)
		return 0; /* the buffer lives as long as its holders */
	if (db->kind == SIM_DMABUF_PAGES) {
		sim_page_file_path(path, sizeof(path), db->pid, db->id);
		return access(path, F_OK) != 0;
	}
	return !a->in_use || a->gen != db->gen || !a->dm_alive;
}

/* The export's file, created (read-only unless flags say O_RDWR) with its
 * lock. fd or -errno. */
static int export_file(struct sim_dmabuf *db, int flags)
{
	struct flock l = export_lock(F_RDLCK);
	char path[SIM_PATH_LEN + 64];
	int fd, err;

	export_path(path, sizeof(path), db);
	fd = sys.open(path,
		       (flags & O_ACCMODE) | O_CREAT | O_EXCL |
			       (flags & O_CLOEXEC),
		       0600);
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

/* The program's fd for a new export file; fd or -errno (db freed). */
static int export_fd(struct sim_dmabuf *db, int fd)
{
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

/* An export of MEMIC pages, counted in the slot (shared lock held). */
static int export_memic(struct sim_dmabuf *db, struct sim_entry *e)
{
	struct sim_alloc *a = &sim.sh->allocs[e->alloc];
	int fd;

	db->kind = SIM_DMABUF_MEMIC;
	db->alloc = e->alloc;
	db->gen = a->gen;
	db->seq = a->export_seq;
	fd = export_file(db, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		a->export_seq++;
		a->exports++;
	}
	return fd;
}

int sim_dmabuf_export(struct sim_uvfile *uv, struct sim_entry *e)
{
	struct sim_dmabuf *db;
	int fd;

	if ((e->kind != SIM_ENT_MEMIC && !e->pages) || !sim_uvfile_mine(uv))
		return -EINVAL;
	db = calloc(1, sizeof(*db));
	if (!db)
		return -ENOMEM;
	db->size = (uint64_t)e->npages * sim.sh->cfg.page_size;
	sim_shared_lock(sim.sh);
	if (e->kind == SIM_ENT_MEMIC) {
		fd = export_memic(db, e);
	} else {
		db->kind = SIM_DMABUF_PAGES;
		db->pid = getpid();
		db->id = e->pages;
		db->seq = ++last_seq;
		fd = export_file(db, O_RDONLY | O_CLOEXEC);
	}
	sim_shared_unlock(sim.sh);
	return export_fd(db, fd);
}

/* A buffer of its own memory and its first open file (fd_flags). */
static struct sim_dmabuf *mem_new(uint64_t size, int fd_flags, int *fd)
{
	struct sim_dmabuf *db = calloc(1, sizeof(*db));

	*fd = -ENOMEM;
	if (!db)
		return NULL;
	db->kind = SIM_DMABUF_MEM;
	db->pid = getpid();
	db->id = ++last_seq;
	db->size = size;
	sim_shared_lock(sim.sh);
	*fd = export_file(db, fd_flags);
	sim_shared_unlock(sim.sh);
	return db;
}

int sim_dmabuf_new_mem(uint64_t size, int fd_flags)
{
	int fd;
	struct sim_dmabuf *db = mem_new(size, fd_flags, &fd);

	return db ? export_fd(db, fd) : fd;
}

struct sim_dmabuf *sim_dmabuf_mem_hold(uint64_t size, int *hold)
{
	struct sim_dmabuf *db = mem_new(size, O_RDWR | O_CLOEXEC, hold);

	if (db && *hold >= 0 && !sim_internal_fd_add(hold)) {
		db->refs = 1;
		return db;
	}
	if (db && *hold >= 0) {
		db->refs = 1;
		sim_dmabuf_put(db); /* nobody holds the new file: gone */
	} else {
		free(db);
	}
	return NULL;
}

int sim_dmabuf_open_again(struct sim_dmabuf *db, int fd_flags)
{
	struct flock l = export_lock(F_RDLCK);
	char path[SIM_PATH_LEN + 64];
	int fd;

	/* The kernel's file takes no slot of the program's table. */
	export_path(path, sizeof(path), db);
	fd = sim_open_private(path, (fd_flags & O_ACCMODE) | O_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (sys.fcntl(fd, F_OFD_SETLK, &l)) {
		sim_close_private(fd);
		return -EIO;
	}
	return fd;
}

int sim_dmabuf_install(struct sim_dmabuf *db, int file, int cloexec)
{
	int fd = sys.fcntl(file, cloexec ? F_DUPFD_CLOEXEC : F_DUPFD, 0);

	if (fd < 0)
		return -errno;
	if (sim_fd_set(fd, SIM_FD_DMABUF, db)) {
		sys.close(fd);
		return -EMFILE;
	}
	return fd;
}

int sim_dmabuf_same(const struct sim_dmabuf *a, const struct sim_dmabuf *b)
{
	if (a->kind != b->kind)
		return 0;
	if (a->kind == SIM_DMABUF_MEMIC)
		return a->alloc == b->alloc && a->gen == b->gen &&
		       a->seq == b->seq;
	return a->pid == b->pid && a->id == b->id && a->seq == b->seq;
}

/* The export's kind and numbers from its file name; 0 or -1. */
static int parse_name(const char *name, struct sim_dmabuf *db)
{
	if (name[0] == 'p') {
		db->kind = SIM_DMABUF_PAGES;
		return sscanf(name + 1, "%d.%u-%u", &db->pid, &db->id,
			      &db->seq) == 3
			       ? 0
			       : -1;
	}
	if (name[0] == 'm') {
		db->kind = SIM_DMABUF_MEM;
		return sscanf(name + 1, "%d.%u", &db->pid, &db->id) == 2 ? 0
									 : -1;
	}
	db->kind = SIM_DMABUF_MEMIC;
	if (sscanf(name, "%d-%u-%u", &db->alloc, &db->gen, &db->seq) != 3)
		return -1;
	return db->alloc >= 0 && db->alloc < SIM_MAX_ALLOCS ? 0 : -1;
}

/* fd was inherited over exec or received over a socket: know it again. */
void sim_dmabuf_adopt(int fd)
{
	char path[64], link[SIM_PATH_LEN + 64], prefix[SIM_PATH_LEN + 16];
	struct sim_dmabuf *db;
	struct stat st;
	ssize_t n;

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
	db->size = (uint64_t)st.st_size;
	if (parse_name(link + n, db) || sim_fd_set(fd, SIM_FD_DMABUF, db))
		free(db);
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
	if (imp->hold < 0 && errno == EMFILE)
		imp->hold_map = sys.mmap(NULL, (size_t)sysconf(_SC_PAGESIZE),
					  PROT_READ, MAP_SHARED, fd, 0);
	if (imp->hold >= 0)
		*err = sim_internal_fd_add(&imp->hold);
	else
		*err = imp->hold_map && imp->hold_map != MAP_FAILED ? 0
								    : -errno;
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
	if (imp->hold_map)
		sys.munmap(imp->hold_map, (size_t)sysconf(_SC_PAGESIZE));
	if (imp->map)
		sys.munmap(imp->map, imp->db->size);
	sim_internal_fd_close(&imp->hold);
	sim_dmabuf_put(imp->db);
	free(imp);
}

/* Map the bytes of a PAGES or MEM buffer for the device. */
static void *map_own_bytes(struct sim_dmabuf_import *imp)
{
	const struct sim_dmabuf *db = imp->db;
	void *p;

	if (db->kind == SIM_DMABUF_PAGES)
		p = sim_page_file_map(db->pid, db->id, NULL, db->size,
				      PROT_READ | PROT_WRITE, MAP_SHARED);
	else {
		char path[SIM_PATH_LEN + 64];
		int fd;

		export_path(path, sizeof(path), db);
		fd = sim_open_private(path, O_RDWR | O_CLOEXEC, 0);
		if (fd < 0)
			return NULL;
		p = sys.mmap(NULL, db->size, PROT_READ | PROT_WRITE,
			      MAP_SHARED, fd, 0);
		sim_close_private(fd);
	}
	return p == MAP_FAILED ? NULL : p;
}

uint8_t *sim_dmabuf_bytes(struct sim_dmabuf_import *imp)
{
	const struct sim_alloc *a = &sim.sh->allocs[imp->db->alloc];
	uint8_t *base;

	if (sim_dmabuf_revoked(imp->db))
		return NULL;
	if (imp->db->kind != SIM_DMABUF_MEMIC) {
		if (!imp->map)
			imp->map = map_own_bytes(imp);
		return imp->map;
	}
	base = sim_memic_base();
	return base ? base + sim_memic_pos(a->dev, a->first_page) : NULL;
}

void *sim_dmabuf_cpu_map(struct sim_dmabuf_import *imp, void *addr, size_t len,
			 int prot, int flags)
{
	const struct sim_dmabuf *db = imp->db;
	void *p;
	int fd, err;

	if (sim_dmabuf_revoked(db)) {
		errno = ENODEV;
		return MAP_FAILED;
	}
	if (len > db->size) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	if (db->kind == SIM_DMABUF_MEMIC)
		return sim_memic_map(db->alloc, addr, len, prot, flags);
	if (db->kind == SIM_DMABUF_PAGES)
		return sim_page_file_map(db->pid, db->id, addr, len, prot,
					 flags);
	fd = sim_dmabuf_open_again((struct sim_dmabuf *)db, O_RDWR);
	if (fd < 0) {
		errno = -fd;
		return MAP_FAILED;
	}
	p = sys.mmap(addr, len, prot, flags, fd, 0);
	err = errno;
	sim_close_private(fd); /* the mapping keeps the open file */
	errno = err;
	return p;
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
	if (!sim_fd_of_program(fd)) {
		*err = EBADF;
		return NULL;
	}
	sim_lock_take();
	if (sim.active)
		imp = sim_dmabuf_import(fd, &ret);
	if (imp && sim_dmabuf_revoked(imp->db)) {
		sim_dmabuf_release(imp);
		imp = NULL;
		ret = -ENODEV;
	}
	sim_lock_drop();
	*err = -ret;
	return imp;
}

void rdma_sim_internal_dmabuf_put(struct sim_dmabuf_import *imp)
{
	sim_lock_take();
	sim_dmabuf_release(imp);
	sim_lock_drop();
}

uint64_t rdma_sim_internal_dmabuf_size(struct sim_dmabuf_import *imp)
{
	return imp->db->size;
}

/* A store that reaches a UAR page's doorbell registers (its second half:
 * the BlueFlame/doorbell registers start at 0x800). */
static int hits_doorbell(uint64_t off, size_t len)
{
	uint64_t page = sim.sh->cfg.page_size, p;

	for (p = off & ~(page - 1); p < off + len; p += page)
		if (off + len > p + 0x800 && off < p + page)
			return 1;
	return 0;
}

/* Device access to a PAGES or MEM buffer: through its mapping. */
static int rw_own_bytes(struct sim_dmabuf_import *imp, uint64_t off, void *buf,
			size_t len, int write)
{
	uint8_t *p;

	sim_lock_take();
	p = sim_dmabuf_bytes(imp);
	sim_lock_drop();
	if (!p)
		return sim_dmabuf_revoked(imp->db) ? -ENODEV : -ENOMEM;
	if (write)
		memcpy(p + off, buf, len);
	else
		memcpy(buf, p + off, len);
	if (write && imp->db->kind == SIM_DMABUF_PAGES &&
	    hits_doorbell(off, len))
		sim_doorbell_rung(imp->db->pid); /* after the store, locked */
	return 0;
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
	if (db->kind != SIM_DMABUF_MEMIC)
		return rw_own_bytes(imp, off, buf, len, write);
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
