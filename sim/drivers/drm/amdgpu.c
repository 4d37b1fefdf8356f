// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A GPU without a GPU: /dev/dri/renderD128 (char 226:128), an amdgpu-style
 * DRM render node. GEM objects are buffers of their own memory (dmabuf.c),
 * so the CPU (mmap through the node), the HCA (a dma-buf MR over their
 * PRIME export) and the peer device see the same bytes; dma-bufs from
 * elsewhere (a DM or UAR export, a heap buffer) import as GEM objects.
 *
 * The DRM core as the kernel's drm_ioctl() answers: only the number of an
 * ioctl counts (not its type byte), one past the core or driver table is
 * EINVAL, one that exists but is not allowed
 * on a render node EACCES, the argument is copied in and out at the
 * user's size (EFAULT). Core: VERSION, GEM_CLOSE (unknown handle EINVAL),
 * PRIME_HANDLE_TO_FD (flags beyond DRM_CLOEXEC|DRM_RDWR EINVAL, unknown
 * handle ENOENT; one dma-buf per object, its file O_RDWR only if the first
 * export asked), PRIME_FD_TO_HANDLE (EBADF, EINVAL for a file that is no
 * dma-buf; our own export gives back the object, a dma-buf this file
 * imported before its handle). amdgpu: GEM_CREATE (unknown flags or
 * domains EINVAL, size 0 EINVAL, larger than the domain ENOMEM), GEM_MMAP
 * (ENOENT, NO_CPU_ACCESS EPERM). mmap of the node: the fake offset of an
 * object this file holds a handle to (else EACCES), within its size (else
 * EINVAL).
 */
#include "sim.h"

#include <errno.h>
#include <fcntl.h>
#include <libdrm/amdgpu_drm.h>
#include <libdrm/drm.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#define DRM_MAJOR	   226
#define RENDER_MINOR	   128
#define VRAM_BYTES	   (1ULL << 30) /* a 1 GiB board */
#define FILE_PAGE_OFFSET   0x100000ULL	/* DRM_FILE_PAGE_OFFSET_START */
#define CORE_IOCTL_COUNT   0xcf		/* MODE_GETFB2 (0xce) is the last */
#define AMDGPU_IOCTL_COUNT 0x17		/* amdgpu's table (6.1) */

#define CREATE_FLAGS                                                           \
	(AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED |                               \
	 AMDGPU_GEM_CREATE_NO_CPU_ACCESS | AMDGPU_GEM_CREATE_CPU_GTT_USWC |    \
	 AMDGPU_GEM_CREATE_VRAM_CLEARED | AMDGPU_GEM_CREATE_VM_ALWAYS_VALID |  \
	 AMDGPU_GEM_CREATE_EXPLICIT_SYNC)
/* memory domains modelled: CPU, GTT, VRAM (not GDS, GWS, OA) */
#define DOMAINS                                                                \
	(AMDGPU_GEM_DOMAIN_CPU | AMDGPU_GEM_DOMAIN_GTT | AMDGPU_GEM_DOMAIN_VRAM)

struct gem {
	struct gem *next; /* every object of the device (this process) */
	int refs;	  /* handles in any file of this process */
	uint64_t size;
	uint32_t flags;
	uint64_t node;	       /* fake mmap offset, in pages */
	struct sim_dmabuf *db; /* own memory, or NULL if imported */
	int hold;	       /* internal O_RDWR fd of the memory */
	int dmabuf_file;       /* internal fd of its dma-buf file, or -1 */
	struct sim_dmabuf_import *imp; /* imported */
};

struct handle {
	struct handle *next;
	uint32_t id;
	struct gem *obj;
};

struct drm_file {
	struct handle *handles;
};

static uint64_t next_node = FILE_PAGE_OFFSET;
static struct gem *objects;

static struct handle *handle_find(struct drm_file *df, uint32_t id)
{
	struct handle *h;

	for (h = df->handles; h; h = h->next)
		if (h->id == id)
			return h;
	return NULL;
}

static struct handle *handle_of(struct drm_file *df, const struct gem *obj)
{
	struct handle *h;

	for (h = df->handles; h; h = h->next)
		if (h->obj == obj)
			return h;
	return NULL;
}

static void gem_put(struct gem *obj)
{
	struct gem **p;

	if (--obj->refs > 0)
		return;
	for (p = &objects; *p != obj; p = &(*p)->next)
		;
	*p = obj->next;
	if (obj->dmabuf_file >= 0)
		sim_internal_fd_close(&obj->dmabuf_file);
	if (obj->db) {
		sim_internal_fd_close(&obj->hold);
		sim_dmabuf_put(obj->db);
	}
	sim_dmabuf_release(obj->imp);
	free(obj);
}

/* A new handle (lowest free from 1, as the idr) to obj: 0 or -ENOMEM. */
static int handle_new(struct drm_file *df, struct gem *obj, uint32_t *id)
{
	struct handle *h = calloc(1, sizeof(*h));

	if (!h)
		return -ENOMEM;
	for (*id = 1; handle_find(df, *id); (*id)++)
		;
	h->id = *id;
	h->obj = obj;
	obj->refs++;
	h->next = df->handles;
	df->handles = h;
	return 0;
}

static struct gem *gem_new(uint64_t size)
{
	struct gem *obj = calloc(1, sizeof(*obj));

	if (!obj)
		return NULL;
	obj->size = size;
	obj->hold = obj->dmabuf_file = -1;
	obj->node = next_node;
	next_node += size / sim.sh->cfg.page_size;
	obj->next = objects;
	objects = obj;
	return obj;
}

static long gem_create(struct drm_file *df, void *arg)
{
	union drm_amdgpu_gem_create *a = arg;
	uint64_t page = sim.sh->cfg.page_size;
	uint64_t size = (a->in.bo_size + page - 1) & ~(page - 1);
	struct gem *obj;
	int ret;

	if (a->in.domain_flags & ~(uint64_t)CREATE_FLAGS)
		return -EINVAL;
	if (a->in.domains & ~(uint64_t)AMDGPU_GEM_DOMAIN_MASK)
		return -EINVAL;
	if ((a->in.domains & ~(uint64_t)DOMAINS) || !size ||
	    size < a->in.bo_size)
		return -EINVAL;
	if (size > ((a->in.domains & AMDGPU_GEM_DOMAIN_VRAM)
			    ? VRAM_BYTES
			    : (uint64_t)sysconf(_SC_PHYS_PAGES) * page))
		return -ENOMEM;
	obj = gem_new(size);
	if (!obj)
		return -ENOMEM;
	obj->flags = (uint32_t)a->in.domain_flags;
	obj->db = sim_dmabuf_mem_hold(size, &obj->hold);
	if (!obj->db) {
		/* gem_new() listed it: gem_put() unlinks as it frees */
		obj->refs = 1;
		gem_put(obj);
		return -ENOMEM;
	}
	memset(a, 0, sizeof(*a));
	ret = handle_new(df, obj, &a->out.handle);
	if (ret) {
		obj->refs = 1;
		gem_put(obj);
	}
	return ret;
}

static long gem_mmap(struct drm_file *df, void *arg)
{
	union drm_amdgpu_gem_mmap *a = arg;
	struct handle *h = handle_find(df, a->in.handle);

	if (!h)
		return -ENOENT;
	if (h->obj->flags & AMDGPU_GEM_CREATE_NO_CPU_ACCESS)
		return -EPERM;
	a->out.addr_ptr = h->obj->node * sim.sh->cfg.page_size;
	return 0;
}

static long gem_close(struct drm_file *df, void *arg)
{
	struct drm_gem_close *a = arg;
	struct handle **p, *h;

	for (p = &df->handles; (h = *p); p = &h->next) {
		if (h->id != a->handle)
			continue;
		*p = h->next;
		gem_put(h->obj);
		free(h);
		return 0;
	}
	return -EINVAL;
}

/* drm_copy_field: at most the user's length, which then says the whole. */
static int copy_field(char *ubuf, __kernel_size_t *len, const char *value)
{
	size_t n = strlen(value);

	if (n > *len)
		n = *len;
	*len = strlen(value);
	return n && ubuf && sim_copy_to_user(ubuf, value, n) ? -EFAULT : 0;
}

static long version_ioctl(struct drm_file *df, void *arg)
{
	struct drm_version *v = arg;

	(void)df;
	v->version_major = 3; /* amdgpu's KMS interface in 6.1 */
	v->version_minor = 49;
	v->version_patchlevel = 0;
	if (copy_field(v->name, &v->name_len, "amdgpu") ||
	    copy_field(v->date, &v->date_len, "20150101") ||
	    copy_field(v->desc, &v->desc_len, "AMD GPU"))
		return -EFAULT;
	return 0;
}

static long prime_export(struct drm_file *df, void *arg)
{
	struct drm_prime_handle *a = arg;
	struct handle *h;
	struct gem *obj;
	int fd;

	if (a->flags & ~(uint32_t)(DRM_CLOEXEC | DRM_RDWR))
		return -EINVAL;
	h = handle_find(df, a->handle);
	if (!h)
		return -ENOENT;
	obj = h->obj;
	if (obj->imp) { /* the dma-buf it came from */
		fd = sim_dmabuf_install(obj->imp->db, obj->imp->hold,
					a->flags & DRM_CLOEXEC);
	} else {
		/* Made once and kept with the object, even when no fd
		 * can be installed (a full table: EMFILE below). */
		if (obj->dmabuf_file < 0) {
			fd = sim_dmabuf_open_again(
				obj->db,
				(a->flags & DRM_RDWR) ? O_RDWR : O_RDONLY);
			if (fd < 0)
				return fd;
			obj->dmabuf_file = fd;
			if (sim_internal_fd_add(&obj->dmabuf_file))
				return obj->dmabuf_file = -1, -ENOMEM;
		}
		fd = sim_dmabuf_install(obj->db, obj->dmabuf_file,
					a->flags & DRM_CLOEXEC);
	}
	if (fd < 0)
		return fd;
	a->fd = fd;
	return 0;
}

/* The object behind a dma-buf: the device's own (from any file), or one
 * this file imported before. */
static struct gem *known_object(struct drm_file *df,
				const struct sim_dmabuf *db)
{
	struct handle *h;
	struct gem *obj;

	for (obj = objects; obj; obj = obj->next)
		if (obj->db && sim_dmabuf_same(obj->db, db))
			return obj;
	for (h = df->handles; h; h = h->next)
		if (h->obj->imp && sim_dmabuf_same(h->obj->imp->db, db))
			return h->obj;
	return NULL;
}

static long prime_import(struct drm_file *df, void *arg)
{
	struct drm_prime_handle *a = arg;
	struct sim_fd *f = a->fd >= 0 ? sim_fd_get(a->fd) : NULL;
	struct sim_dmabuf_import *imp;
	struct handle *h;
	struct gem *obj;
	int err;

	if (!sim_fd_of_program(a->fd))
		return -EBADF;
	if (!f || f->kind != SIM_FD_DMABUF)
		return -EINVAL;
	obj = known_object(df, f->db);
	h = obj ? handle_of(df, obj) : NULL;
	if (h) {
		a->handle = h->id;
		return 0;
	}
	if (obj) /* the device's own object, opened in another file */
		return handle_new(df, obj, &a->handle);
	imp = sim_dmabuf_import(a->fd, &err);
	if (!imp)
		return err;
	obj = gem_new(imp->db->size);
	if (!obj) {
		sim_dmabuf_release(imp);
		return -ENOMEM;
	}
	obj->imp = imp;
	err = handle_new(df, obj, &a->handle);
	if (err) {
		obj->refs = 1;
		gem_put(obj);
	}
	return err;
}

/* One ioctl of the tables: its command, handler and argument size. */
struct drm_ioctl_desc {
	unsigned long cmd;
	long (*fn)(struct drm_file *df, void *arg);
	uint8_t render; /* DRM_RENDER_ALLOW */
};

#define IOCTL(c, f)                                                            \
	{                                                                      \
		.cmd = (c), .fn = (f), .render = 1                             \
	}

static const struct drm_ioctl_desc ioctls[] = {
	IOCTL(DRM_IOCTL_VERSION, version_ioctl),
	IOCTL(DRM_IOCTL_GEM_CLOSE, gem_close),
	IOCTL(DRM_IOCTL_PRIME_HANDLE_TO_FD, prime_export),
	IOCTL(DRM_IOCTL_PRIME_FD_TO_HANDLE, prime_import),
	IOCTL(DRM_IOCTL_AMDGPU_GEM_CREATE, gem_create),
	IOCTL(DRM_IOCTL_AMDGPU_GEM_MMAP, gem_mmap),
	/* core ioctls of a primary node only */
	{.cmd = DRM_IOCTL_GEM_FLINK},
	{.cmd = DRM_IOCTL_GEM_OPEN},
	{.cmd = DRM_IOCTL_SET_MASTER},
	{.cmd = DRM_IOCTL_DROP_MASTER},
	{.cmd = DRM_IOCTL_AUTH_MAGIC},
};

static long drm_ioctl(struct sim_devfile *f, unsigned long req, void *arg)
{
	unsigned int nr = _IOC_NR(req), i;
	const struct drm_ioctl_desc *d = NULL;
	uint8_t kdata[128];
	size_t out;
	long ret;

	if (nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_END
		    ? nr - DRM_COMMAND_BASE >= AMDGPU_IOCTL_COUNT
		    : nr >= CORE_IOCTL_COUNT)
		return -EINVAL; /* past the driver's or the core's table */
	for (i = 0; i < sizeof(ioctls) / sizeof(ioctls[0]); i++)
		if (_IOC_NR(ioctls[i].cmd) == nr)
			d = &ioctls[i];
	if (!d)
		return -EINVAL; /* not modelled (see sim/README.md) */
	if (!d->render)
		return -EACCES;
	if (sim_ioctl_in(req, d->cmd, arg, kdata, _IOC_SIZE(d->cmd), &out))
		return -EFAULT;
	ret = d->fn(f->priv, kdata);
	if (sim_copy_to_user(arg, kdata, out))
		return -EFAULT;
	return ret;
}

static int drm_open(struct sim_devfile *f, int flags)
{
	(void)flags;
	f->priv = calloc(1, sizeof(struct drm_file));
	return f->priv ? 0 : -ENOMEM;
}

static void drm_release(struct sim_devfile *f)
{
	struct drm_file *df = f->priv;
	struct handle *h;

	while (df && (h = df->handles)) {
		df->handles = h->next;
		gem_put(h->obj);
		free(h);
	}
	free(df);
}

static void *drm_mmap(struct sim_devfile *f, void *addr, size_t len, int prot,
		      int flags, off_t off)
{
	uint64_t page = sim.sh->cfg.page_size, pgoff = (uint64_t)off / page;
	struct drm_file *df = f->priv;
	struct gem *obj;

	for (obj = objects; obj && obj->node != pgoff; obj = obj->next)
		;
	if (!obj || (len + page - 1) / page > obj->size / page) {
		errno = EINVAL; /* no object starts there, or it is smaller */
		return MAP_FAILED;
	}
	if (!handle_of(df, obj)) {
		errno = EACCES; /* not this file's object */
		return MAP_FAILED;
	}
	if (obj->imp)
		return sim_dmabuf_cpu_map(obj->imp, addr, len, prot, flags);
	return sys.mmap(addr, len, prot, flags, obj->hold, 0);
}

static const struct sim_devnode render_node = {
	.path = "/dev/dri/renderD128",
	.major = DRM_MAJOR,
	.minor = RENDER_MINOR,
	.open = drm_open,
	.ioctl = drm_ioctl,
	.mmap = drm_mmap,
	.release = drm_release,
};
SIM_DEVNODE(render_node);
