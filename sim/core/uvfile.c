// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Open files of /dev/infiniband/uverbsN: their object handles (lowest free
 * id, like the kernel's xarray), their mmap entries, and the teardown when
 * the last fd of the file is closed.
 */
#include "uapi.h"
#include "restrack.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static struct sim_uvfile *uvfiles;

struct sim_uvfile *sim_uvfile_new(unsigned int dev)
{
	struct sim_uvfile *uv = calloc(1, sizeof(*uv));

	if (!uv)
		return NULL;
	uv->dev = dev;
	uv->next_pdn = 1;
	uv->owner_pid = getpid();
	uv->next_uv = uvfiles;
	uvfiles = uv;
	return uv;
}

static void uvfile_unlink(struct sim_uvfile *uv)
{
	struct sim_uvfile **p;

	for (p = &uvfiles; *p; p = &(*p)->next_uv) {
		if (*p == uv) {
			*p = uv->next_uv;
			return;
		}
	}
}

void sim_for_each_context(unsigned int dev,
			  void (*fn)(struct sim_uvfile *uv, void *arg),
			  void *arg)
{
	struct sim_uvfile *uv;

	for (uv = uvfiles; uv; uv = uv->next_uv)
		if (uv->dev == dev && uv->has_ctx && sim_uvfile_mine(uv))
			fn(uv, arg);
}

/* Objects of type t on device dev of this process, until fn says stop. */
static struct sim_obj *find_live(unsigned int dev, const struct sim_obj_type *t,
				 int (*match)(struct sim_obj *o, uint32_t key),
				 uint32_t key)
{
	struct sim_uvfile *uv;
	struct sim_obj *o;

	for (uv = uvfiles; uv; uv = uv->next_uv) {
		if (uv->dev != dev || !sim_uvfile_mine(uv))
			continue;
		for (o = uv->objs; o; o = o->next)
			if (o->type == t && match(o, key))
				return o;
	}
	return NULL;
}

static int mr_has_key(struct sim_obj *o, uint32_t key)
{
	return sim_mr(o)->lkey == key || sim_mr(o)->rkey == key;
}

static int qp_has_num(struct sim_obj *o, uint32_t qpn)
{
	return sim_qp(o)->qpn == qpn;
}

struct sim_mr *sim_mr_by_key(unsigned int dev, uint32_t key)
{
	return sim_mr(find_live(dev, &sim_type_mr, mr_has_key, key));
}

static int mw_has_index(struct sim_obj *o, uint32_t key)
{
	return (sim_mw(o)->rkey >> 8) == (key >> 8);
}

struct sim_mw *sim_mw_by_key(unsigned int dev, uint32_t key)
{
	return sim_mw(find_live(dev, &sim_type_mw, mw_has_index, key));
}

struct sim_qp *sim_qp_by_num(unsigned int dev, uint32_t qpn)
{
	return sim_qp(find_live(dev, &sim_type_qp, qp_has_num, qpn));
}

/* sim_for_each_qp_num's visit, under sim_lock: a match that never stops
 * the search. */
static struct {
	void (*fn)(struct sim_qp *, uint32_t);
	uint32_t arg;
} each;

static int each_qp(struct sim_obj *o, uint32_t qpn)
{
	if (o->live && qp_has_num(o, qpn))
		each.fn(sim_qp(o), each.arg);
	return 0;
}

void sim_for_each_qp_num(unsigned int dev, uint32_t qpn,
			 void (*fn)(struct sim_qp *, uint32_t), uint32_t arg)
{
	each.fn = fn;
	each.arg = arg;
	find_live(dev, &sim_type_qp, each_qp, qpn);
}

const struct sim_obj_type *sim_type_by_id(uint16_t uapi_id)
{
	const struct sim_obj_type *const *t;

	sim_for_each_type (t)
		if ((*t)->uapi_id == uapi_id)
			return *t;
	return NULL;
}

/* Every object of this order; destroying one may free others' holds. */
static void destroy_order(struct sim_uvfile *uv, uint8_t order)
{
	struct sim_obj *o, *next;

	for (o = uv->objs; o; o = next) {
		next = o->next;
		if (o->type->order != order)
			continue;
		o->usecnt = 0;
		sim_obj_destroy(uv, o);
		next = uv->objs; /* the list changed */
	}
}

void sim_uvfile_put(struct sim_uvfile *uv)
{
	struct sim_evq *q;
	uint8_t order;

	if (--uv->refs > 0)
		return;
	for (order = 0; order < SIM_ORDER_COUNT; order++)
		destroy_order(uv, order);
	while (uv->entries)
		sim_entry_remove(uv, uv->entries);
	while ((q = uv->evqs)) {
		uv->evqs = q->next;
		sim_evq_close(q);
		sim_evq_put(q);
	}
	sim_res_forget_ctx(uv);
	uvfile_unlink(uv);
	free(uv);
}

/* Committed or not: a reserved handle is taken. */
static struct sim_obj *find_any(struct sim_uvfile *uv, uint32_t handle)
{
	struct sim_obj *o;

	for (o = uv->objs; o; o = o->next)
		if (o->handle == handle)
			return o;
	return NULL;
}

struct sim_obj *sim_obj_find(struct sim_uvfile *uv, uint32_t handle)
{
	struct sim_obj *o = find_any(uv, handle);

	return o && o->committed ? o : NULL;
}

struct sim_obj *sim_obj_get(struct sim_uvfile *uv, uint32_t handle,
			    const struct sim_obj_type *t, int *err)
{
	struct sim_obj *o = sim_obj_find(uv, handle);

	*err = !o ? -ENOENT : o->type != t ? -EINVAL : 0;
	return *err ? NULL : o;
}

struct sim_obj *sim_obj_alloc_begin(struct sim_uvfile *uv,
				    const struct sim_obj_type *t)
{
	struct sim_obj *o = calloc(1, t->size);
	uint32_t h = 0;

	if (!o)
		return NULL;
	while (find_any(uv, h))
		h++;
	o->handle = h;
	o->type = t;
	o->uv = uv;
	o->next = uv->objs;
	uv->objs = o;
	return o;
}

void sim_obj_alloc_commit(struct sim_obj *o)
{
	o->committed = 1;
}

void sim_obj_alloc_abort(struct sim_uvfile *uv, struct sim_obj *o)
{
	o->usecnt = 0; /* nothing can have found it */
	sim_obj_destroy(uv, o);
}

int sim_obj_destroy(struct sim_uvfile *uv, struct sim_obj *o)
{
	struct sim_obj **p;

	if (o->usecnt)
		return -EBUSY;
	if (o->live && o->type->hw_destroy)
		o->type->hw_destroy(uv, o);
	if (o->type->destroy)
		o->type->destroy(uv, o);
	sim_obj_parts_put(uv, o);
	sim_res_forget(uv, o);
	for (p = &uv->objs; *p; p = &(*p)->next) {
		if (*p == o) {
			*p = o->next;
			break;
		}
	}
	free(o);
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

	/* only owners remove their entries, or the final teardown */
	for (p = &uv->entries; *p; p = &(*p)->next) {
		if (*p == e) {
			*p = e->next;
			break;
		}
	}
	/* a fork child's copy never had the pages: only the maker removes */
	if (e->pages && sim_uvfile_mine(uv))
		sim_page_file_remove(e->pages);
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
