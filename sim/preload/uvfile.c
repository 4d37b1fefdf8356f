// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Open files of /dev/infiniband/uverbsN: their object handles (lowest free
 * id, like the kernel's xarray), their mmap entries, and the teardown when
 * the last fd of the file is closed.
 */
#include "sim.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

struct sim_fd *sim_fds;

struct sim_fd *sim_fd_get(int fd)
{
	return sim_fd_tracked(fd) ? &sim_fds[fd] : NULL;
}

static void ref_get(uint8_t kind, void *obj)
{
	if (kind == SIM_FD_UVERBS)
		((struct sim_uvfile *)obj)->refs++;
	else if (kind == SIM_FD_DMABUF)
		((struct sim_dmabuf *)obj)->refs++;
	else if (kind == SIM_FD_NETLINK)
		((struct sim_nlsock *)obj)->refs++;
}

int sim_fd_set(int fd, uint8_t kind, void *obj)
{
	if (!sim_fds || fd < 0 || fd >= SIM_MAX_FDS)
		return -EMFILE;
	sim_fd_drop(fd);
	sim_fds[fd].any = obj;
	ref_get(kind, obj);
	__atomic_store_n(&sim_fds[fd].kind, kind, __ATOMIC_RELEASE);
	return 0;
}

void sim_fd_drop(int fd)
{
	struct sim_fd *f = sim_fd_get(fd);

	if (!f || f->kind == SIM_FD_INTERNAL)
		return;
	if (f->kind == SIM_FD_UVERBS)
		sim_uvfile_put(f->uv);
	else if (f->kind == SIM_FD_DMABUF)
		sim_dmabuf_put(f->db);
	else if (f->kind == SIM_FD_NETLINK)
		sim_nlsock_put(f->nl);
	__atomic_store_n(&f->kind, SIM_FD_NONE, __ATOMIC_RELEASE);
	f->any = NULL;
}

struct sim_uvfile *sim_uvfile_new(unsigned int dev)
{
	struct sim_uvfile *uv = calloc(1, sizeof(*uv));

	if (!uv)
		return NULL;
	uv->dev = dev;
	uv->next_pdn = 1;
	uv->owner_pid = getpid();
	return uv;
}

/* Dependants first: MRs hold PDs and DMs. */
static const uint8_t teardown_order[] = {SIM_OBJ_MR, SIM_OBJ_DM, SIM_OBJ_UAR,
					 SIM_OBJ_PD};

void sim_uvfile_put(struct sim_uvfile *uv)
{
	struct sim_obj *o, *next;
	unsigned int i;

	if (--uv->refs > 0)
		return;
	for (i = 0; i < sizeof(teardown_order); i++) {
		for (o = uv->objs; o; o = next) {
			next = o->next;
			if (o->type != teardown_order[i])
				continue;
			o->usecnt = 0;
			sim_obj_destroy(uv, o);
			next = uv->objs; /* the list changed */
		}
	}
	while (uv->entries)
		sim_entry_remove(uv, uv->entries);
	free(uv);
}

struct sim_obj *sim_obj_find(struct sim_uvfile *uv, uint32_t handle)
{
	struct sim_obj *o;

	for (o = uv->objs; o; o = o->next)
		if (o->handle == handle)
			return o;
	return NULL;
}

struct sim_obj *sim_obj_new(struct sim_uvfile *uv, uint8_t type)
{
	struct sim_obj *o = calloc(1, sizeof(*o));
	uint32_t h = 0;

	if (!o)
		return NULL;
	while (sim_obj_find(uv, h))
		h++;
	o->handle = h;
	o->type = type;
	o->next = uv->objs;
	uv->objs = o;
	return o;
}

static void obj_unlink(struct sim_uvfile *uv, struct sim_obj *o)
{
	struct sim_obj **p;

	for (p = &uv->objs; *p; p = &(*p)->next) {
		if (*p == o) {
			*p = o->next;
			break;
		}
	}
	free(o);
}

/* Entries (base and op addresses) that map this DM's pages. */
static void remove_dm_entries(struct sim_uvfile *uv, struct sim_obj *dm)
{
	struct sim_entry *e, *next;

	for (e = uv->entries; e; e = next) {
		next = e->next;
		if (e->owner == dm)
			sim_entry_remove(uv, e);
	}
}

static void destroy_dm(struct sim_uvfile *uv, struct sim_obj *o)
{
	int slot = o->dm.alloc;

	remove_dm_entries(uv, o);
	if (slot < 0 || !sim_uvfile_mine(uv))
		return;
	sim_shared_lock(sim.sh);
	sim_export_revoke_alloc(sim.sh, slot);
	sim.sh->allocs[slot].dm_alive = 0;
	sim_alloc_put(sim.sh, slot);
	sim_shared_unlock(sim.sh);
}

int sim_obj_destroy(struct sim_uvfile *uv, struct sim_obj *o)
{
	if (o->usecnt)
		return -EBUSY;
	switch (o->type) {
	case SIM_OBJ_MR:
		if (o->mr.pd)
			o->mr.pd->usecnt--;
		if (o->mr.dm)
			o->mr.dm->usecnt--;
		break;
	case SIM_OBJ_DM:
		destroy_dm(uv, o);
		break;
	case SIM_OBJ_UAR:
		if (o->uar.entry)
			sim_entry_remove(uv, o->uar.entry);
		break;
	}
	obj_unlink(uv, o);
	return 0;
}

struct sim_entry *sim_entry_find(struct sim_uvfile *uv, uint32_t key)
{
	struct sim_entry *e;

	for (e = uv->entries; e; e = e->next)
		if (e->key == key)
			return e;
	return NULL;
}

struct sim_entry *sim_entry_add(struct sim_uvfile *uv, uint32_t key,
				uint8_t kind, uint32_t npages, int alloc,
				struct sim_obj *owner)
{
	struct sim_entry *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->key = key;
	e->kind = kind;
	e->npages = npages;
	e->alloc = alloc;
	e->owner = owner;
	e->op = 0xff;
	e->next = uv->entries;
	uv->entries = e;
	return e;
}

void sim_entry_remove(struct sim_uvfile *uv, struct sim_entry *e)
{
	struct sim_entry **p;
	struct sim_obj *o;

	for (o = uv->objs; o; o = o->next) {
		if (o->type == SIM_OBJ_DM && o->dm.base == e)
			o->dm.base = NULL;
		if (o->type == SIM_OBJ_UAR && o->uar.entry == e)
			o->uar.entry = NULL;
	}
	for (p = &uv->entries; *p; p = &(*p)->next) {
		if (*p == e) {
			*p = e->next;
			break;
		}
	}
	free(e);
}

/* Lowest free start in [lo, hi] for npages keys, like the mmap xarray. */
int sim_entry_key_alloc(struct sim_uvfile *uv, uint32_t lo, uint32_t hi,
			uint32_t npages, uint32_t *key)
{
	struct sim_entry *e;
	uint32_t k = lo;

again:
	if (k + npages - 1 > hi || k + npages < k)
		return -ENOMEM;
	for (e = uv->entries; e; e = e->next) {
		if (e->key < k + npages && k < e->key + e->npages) {
			k = e->key + e->npages;
			goto again;
		}
	}
	*key = k;
	return 0;
}
