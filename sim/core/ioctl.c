// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RDMA_VERBS_IOCTL: header checks, method lookup, one generic attribute
 * parser, then the handler. Only this file returns EPROTONOSUPPORT. A
 * create's new object is the framework's: reserved before the handler,
 * committed or aborted after it (obj.h).
 */
#include "uapi.h"
#include "restrack.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIM_IOCTL_MAX_LEN 4096

/* Objects the driver cannot back do not exist (uapi "needs fn" rules). */
static int object_hidden(uint16_t obj)
{
	const struct sim_obj_type *t = sim_type_by_id(obj);

	return t && t->hidden && t->hidden();
}

static const struct sim_method *find_in(const struct sim_method *t,
					unsigned int n, uint16_t obj,
					uint16_t method)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (t[i].obj == obj && t[i].method == method)
			return t[i].hidden && t[i].hidden() ? NULL : &t[i];
	return NULL;
}

static const struct sim_method *find_method(uint16_t obj, uint16_t method)
{
	const struct sim_driver_ops *d = sim_driver();
	const struct sim_obj_type *t;
	const struct sim_method *m;

	if (object_hidden(obj))
		return NULL;
	t = sim_type_by_id(obj);
	m = t ? find_in(t->methods, t->nmethods, obj, method) : NULL;
	if (m)
		return m;
	return d->methods ? find_in(d->methods, *d->nmethods, obj, method)
			  : NULL;
}

/* A method declaring more attributes than c->a[] holds is a sim bug. */
static void add_spec(struct sim_call *c, const struct sim_attr_spec *s)
{
	if (c->n == SIM_MAX_CALL_ATTRS) {
		fprintf(stderr,
			"librdmasim: %s.%s declares more than %d "
			"attributes\n",
			c->m->obj_name, c->m->name, SIM_MAX_CALL_ATTRS);
		abort();
	}
	c->a[c->n++].spec = s;
}

/* The method's own attrs, then any driver attrs, into c->a[]. */
static void load_specs(struct sim_call *c)
{
	const struct sim_driver_ops *d = sim_driver();
	const struct sim_method *m = c->m;
	unsigned int i, j;

	c->n = 0;
	for (i = 0; i < m->nattrs; i++)
		add_spec(c, &m->attrs[i]);
	for (i = 0; d->ext && i < *d->next; i++) {
		if (d->ext[i].obj != m->obj || d->ext[i].method != m->method)
			continue;
		for (j = 0; j < d->ext[i].nattrs; j++)
			add_spec(c, &d->ext[i].attrs[j]);
	}
}

static struct sim_call_attr *spec_slot(struct sim_call *c, uint16_t id)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		if (c->a[i].spec->id == id)
			return &c->a[i];
	return NULL;
}

static int check_idr(struct sim_call *c, struct sim_call_attr *a)
{
	const struct sim_attr_spec *s = a->spec;
	struct sim_obj *o;

	if (s->access == SA_NEW)
		return c->uv->has_ctx ? 0 : -EINVAL;
	/* the id is an s64: negative is EINVAL, others just are not there */
	if (a->data > INT64_MAX)
		return -EINVAL;
	if (a->data > UINT32_MAX)
		return -ENOENT;
	o = sim_obj_find(c->uv, (uint32_t)a->data);
	if (!o)
		return -ENOENT;
	if (o->type != s->type)
		return -EINVAL;
	a->obj = o;
	return 0;
}

/* An FD attribute: a new fd, or an event file of this context. */
static int check_fd(struct sim_call *c, struct sim_call_attr *a)
{
	struct sim_fd *f;

	if (!c->uv->has_ctx)
		return -EINVAL;
	if (a->spec->access == SA_NEW)
		return 0;
	if ((int64_t)a->data < 0 || (int64_t)a->data > INT32_MAX)
		return -EINVAL;
	f = sim_fd_get((int)a->data);
	if (!f || f->kind != SIM_FD_EVENT || f->evq->comp != a->spec->fd_comp ||
	    f->evq->uv != c->uv)
		return -EBADF;
	a->evq = f->evq;
	return 0;
}

static int tail_is_zero(const struct ib_uverbs_attr *u, const uint8_t *p,
			size_t from)
{
	size_t i;

	if (u->len <= 8)
		p = (const uint8_t *)&u->data;
	for (i = from; i < u->len; i++)
		if (p[i])
			return 0;
	return 1;
}

static int check_ptr(struct sim_call_attr *a, const struct ib_uverbs_attr *u)
{
	const struct sim_attr_spec *s = a->spec;

	if (s->kind == SA_ENUM_IN) {
		if (u->attr_data.enum_data.elem_id >= s->num_elems)
			return -EOPNOTSUPP;
		if (u->attr_data.enum_data.reserved)
			return -EINVAL;
	}
	if (u->len < s->min_len || (!s->zero_trailing && u->len > s->max_len))
		return -EINVAL;
	if (s->kind != SA_ENUM_IN && u->attr_data.reserved)
		return -EINVAL;
	if (s->kind == SA_PTR_OUT || u->len <= 8)
		return 0;
	a->kdata = malloc(u->len);
	if (!a->kdata)
		return -ENOMEM;
	if (sim_copy_from_user(a->kdata, (const void *)(uintptr_t)u->data,
			       u->len))
		return -EFAULT;
	/* a longer struct than we know: only zeros may follow */
	if (s->zero_trailing && u->len > s->max_len &&
	    !tail_is_zero(u, a->kdata, s->max_len))
		return -EOPNOTSUPP;
	return 0;
}

static int process_attr(struct sim_call *c, struct ib_uverbs_attr *u)
{
	struct sim_call_attr *a = spec_slot(c, u->attr_id);
	int ret;

	if (!a)
		return (u->flags & UVERBS_ATTR_F_MANDATORY) ? -EPROTONOSUPPORT
							    : 0;
	if (a->present)
		return -EINVAL;
	a->present = 1;
	a->u = u;
	a->len = u->len;
	a->data = u->data;
	switch (a->spec->kind) {
	case SA_RAW_FD: /* UVERBS_ATTR_RAW_FD: the fd is the s64 data */
		if (u->attr_data.reserved || u->len ||
		    (int64_t)u->data < INT32_MIN ||
		    (int64_t)u->data > INT32_MAX)
			return -EINVAL;
		return 0;
	case SA_IDR:
	case SA_FD:
		if (u->attr_data.reserved || u->len)
			return -EINVAL;
		if (a->spec->kind == SA_FD)
			return check_fd(c, a);
		return check_idr(c, a);
	default:
		ret = check_ptr(a, u);
		return ret;
	}
}

/* "LENGTH" for UVERBS_ATTR_ALLOC_DM_LENGTH: the name minus its family. */
static const char *short_name(const char *name)
{
	static const char *const prefixes[] = {"UVERBS_ATTR_", "MLX5_IB_ATTR_",
					       "RDMA_DM_ATTR_",
					       "RDMA_DM_MLX5_ATTR_"};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return name + strlen(prefixes[i]);
	return name;
}

/* The attrs as sent (before outputs are written), named when known. */
static void trace_attrs(struct sim_call *c, char *buf, size_t len,
			const struct ib_uverbs_attr *u, unsigned int n)
{
	struct sim_call_attr *a;
	size_t off = 0;
	unsigned int i;

	buf[0] = 0;
	for (i = 0; i < n && off < len; i++) {
		a = c->m ? spec_slot(c, u[i].attr_id) : NULL;
		if (a && a->spec->name)
			off += snprintf(buf + off, len - off, "%s%s",
					i ? " " : "",
					short_name(a->spec->name));
		else
			off += snprintf(buf + off, len - off, "%s%#x",
					i ? " " : "", u[i].attr_id);
		if (off < len)
			off += snprintf(buf + off, len - off,
					":len=%u,flags=%#x,data=%#llx",
					u[i].len, u[i].flags,
					(unsigned long long)u[i].data);
	}
}

static int is_new(const struct sim_call_attr *a)
{
	return a->present && a->spec->access == SA_NEW &&
	       (a->spec->kind == SA_IDR || a->spec->kind == SA_FD);
}

/* alloc_begin: the object a NEW IDR attribute names, before the handler
 * (the handler reaches it with sim_attr_obj). */
static int begin_new(struct sim_call *c)
{
	struct sim_call_attr *a;
	unsigned int i;

	for (i = 0; i < c->n; i++) {
		a = &c->a[i];
		if (!is_new(a) || a->spec->kind != SA_IDR)
			continue;
		a->obj = sim_obj_alloc_begin(c->uv, a->spec->type);
		if (!a->obj)
			return -ENOMEM;
		a->new_value = a->obj->handle;
		a->has_new = 1;
	}
	return 0;
}

/* The new handles and fds go back in the attributes' data. */
static void report_new(struct sim_call *c)
{
	unsigned int i;

	for (i = 0; i < c->n; i++) {
		if (is_new(&c->a[i]) && c->a[i].has_new) {
			c->a[i].u->data = c->a[i].new_value;
			c->dirty = 1;
		}
	}
}

/* alloc_commit on success, else alloc_abort of what the handler made. */
static void finish_new(struct sim_call *c, int ret)
{
	const struct sim_obj_type *t;
	struct sim_call_attr *a;
	unsigned int i;

	for (i = 0; i < c->n; i++) {
		a = &c->a[i];
		if (!is_new(a) || !a->has_new)
			continue;
		if (a->spec->kind == SA_IDR && ret)
			sim_obj_alloc_abort(c->uv, a->obj);
		else if (a->spec->kind == SA_IDR)
			sim_obj_alloc_commit(a->obj);
		t = sim_type_by_id(c->m->obj);
		if (a->spec->kind == SA_FD && ret && t && t->abort_fd)
			t->abort_fd(c->uv, (int)a->new_value);
	}
	if (!ret)
		sim_res_sync(c->uv);
}

static int run_call(struct sim_call *c, struct ib_uverbs_attr *u,
		    unsigned int n)
{
	unsigned int i;
	int ret, err;

	for (i = 0; i < n; i++) {
		ret = process_attr(c, &u[i]);
		if (ret)
			return ret;
	}
	for (i = 0; i < c->n; i++)
		if (c->a[i].spec->mandatory && !c->a[i].present)
			return -EINVAL;
	if ((c->m->flags & SIM_M_NEEDS_CTX) && !c->uv->has_ctx)
		return -EINVAL;
	err = sim_fail(c->m->name);
	if (err) {
		snprintf(c->note, sizeof(c->note), "(injected)");
		return -err;
	}
	ret = begin_new(c);
	if (!ret)
		ret = c->m->fn(c);
	if (ret == -EPROTONOSUPPORT)
		ret = -EINVAL;
	err = ret ? 0 : sim_fail_commit(c->m->name);
	if (err) {
		snprintf(c->note + strlen(c->note),
			 sizeof(c->note) - strlen(c->note),
			 " (injected at commit)");
		return -err;
	}
	if (!ret)
		report_new(c);
	return ret;
}

/* The header and attrs, copied in as the kernel does. */
union sim_ioctl_buf {
	struct ib_uverbs_ioctl_hdr hdr; /* attrs follow in raw[] */
	uint8_t raw[SIM_IOCTL_MAX_LEN];
};

static void release_call(struct sim_call *c)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		free(c->a[i].kdata);
}

static int copy_attrs(union sim_ioctl_buf *k, void *arg)
{
	return sim_copy_from_user(k->hdr.attrs, (uint8_t *)arg + sizeof(k->hdr),
				  k->hdr.num_attrs *
					  sizeof(struct ib_uverbs_attr));
}

int sim_ioctl(int fd, struct sim_uvfile *uv, void *arg)
{
	union sim_ioctl_buf k;
	struct ib_uverbs_ioctl_hdr *hdr = NULL;
	char attrs[1024] = "";
	struct sim_call c;
	int ret, have_attrs = 0, len_ok = 0;

	memset(&c, 0, sizeof(c));
	c.uv = uv;
	if (sim_copy_from_user(&k.hdr, arg, sizeof(k.hdr))) {
		snprintf(c.note, sizeof(c.note), "(header not readable)");
		ret = -EFAULT;
		goto out;
	}
	hdr = &k.hdr;
	if (hdr->length > SIM_IOCTL_MAX_LEN ||
	    hdr->length !=
		    sizeof(*hdr) +
			    hdr->num_attrs * sizeof(struct ib_uverbs_attr)) {
		snprintf(c.note, sizeof(c.note), "(bad header length %u)",
			 hdr->length);
		ret = -EINVAL;
		goto out;
	}
	len_ok = 1;
	if (hdr->reserved1 || hdr->reserved2) {
		snprintf(c.note, sizeof(c.note), "(reserved header field set)");
		ret = -EPROTONOSUPPORT;
		goto out;
	}
	if (hdr->driver_id != sim.model->driver_id) {
		snprintf(c.note, sizeof(c.note), "(driver_id %u, device is %u)",
			 hdr->driver_id, sim.model->driver_id);
		ret = -EINVAL;
		goto out;
	}
	c.m = find_method(hdr->object_id, hdr->method_id);
	if (!c.m) {
		ret = -EPROTONOSUPPORT;
		goto out;
	}
	load_specs(&c);
	/* the attribute array is read only once the method is known */
	if (copy_attrs(&k, arg)) {
		snprintf(c.note, sizeof(c.note), "(attributes not readable)");
		ret = -EFAULT;
		goto out;
	}
	have_attrs = 1;
	if (sim_tracing())
		trace_attrs(&c, attrs, sizeof(attrs), k.hdr.attrs,
			    hdr->num_attrs);
	ret = run_call(&c, k.hdr.attrs, hdr->num_attrs);
	if (c.dirty &&
	    sim_copy_to_user((uint8_t *)arg + sizeof(k.hdr), k.hdr.attrs,
			     hdr->num_attrs * sizeof(struct ib_uverbs_attr)))
		ret = -EFAULT;
	if (c.m)
		finish_new(&c, ret);
out:
	release_call(&c);
	if (!sim_tracing())
		return ret;
	if (!c.m && hdr && hdr->driver_id == sim.model->driver_id) {
		c.m = find_method(hdr->object_id, hdr->method_id);
		if (c.m) /* only to name it in the trace */
			load_specs(&c);
	}
	if (!have_attrs && len_ok) /* for the trace only */
		have_attrs = !copy_attrs(&k, arg);
	if (!attrs[0] && have_attrs)
		trace_attrs(&c, attrs, sizeof(attrs), k.hdr.attrs,
			    hdr->num_attrs);
	if (c.m)
		sim_trace("ioctl fd %d %s.%s attrs={%s} -> %s %s", fd,
			  c.m->obj_name, c.m->name, attrs,
			  ret ? strerrorname_np(-ret) : "0", c.note);
	else if (hdr)
		sim_trace(
			"ioctl fd %d object %#x method %#x attrs={%s} -> %s %s",
			fd, hdr->object_id, hdr->method_id, attrs,
			strerrorname_np(-ret), c.note);
	else
		sim_trace("ioctl fd %d NULL header -> EFAULT", fd);
	return ret;
}

/* ---- accessors ---- */

struct sim_call_attr *sim_attr(struct sim_call *c, uint16_t id)
{
	struct sim_call_attr *a = spec_slot(c, id);

	return a && a->present ? a : NULL;
}

int sim_attr_raw_fd(struct sim_call *c, uint16_t id)
{
	struct sim_call_attr *a = sim_attr(c, id);

	return a ? (int)(int64_t)a->data : -1;
}

uint64_t sim_attr_u64(struct sim_call *c, uint16_t id, uint64_t dflt)
{
	struct sim_call_attr *a = sim_attr(c, id);
	uint64_t v = 0;

	if (!a)
		return dflt;
	memcpy(&v, &a->data, a->len < 8 ? a->len : 8);
	return v;
}

int sim_attr_flags(struct sim_call *c, uint16_t id, uint64_t allowed,
		   uint64_t *flags)
{
	struct sim_call_attr *a = sim_attr(c, id);
	uint32_t v32;

	*flags = 0;
	if (!a)
		return 0;
	if (a->len == 8) {
		*flags = a->data;
	} else if (a->len == 4) {
		memcpy(&v32, &a->data, sizeof(v32));
		*flags = v32;
	} else {
		return -EINVAL;
	}
	return *flags & ~allowed ? -EINVAL : 0;
}

const void *sim_attr_in_ptr(struct sim_call *c, uint16_t id, size_t *len)
{
	struct sim_call_attr *a = sim_attr(c, id);

	*len = 0;
	if (!a)
		return NULL;
	*len = a->len;
	if (a->len <= 8)
		return &a->u->data;
	return a->kdata;
}

int sim_attr_copy_in(struct sim_call *c, uint16_t id, void *dst, size_t len)
{
	size_t have;
	const void *src = sim_attr_in_ptr(c, id, &have);

	memset(dst, 0, len);
	if (src)
		memcpy(dst, src, have < len ? have : len);
	return 0;
}

int sim_attr_copy_out(struct sim_call *c, uint16_t id, const void *src,
		      size_t len)
{
	struct sim_call_attr *a = sim_attr(c, id);
	void *dst;
	int ret;

	if (!a)
		return 0;
	dst = (void *)(uintptr_t)a->data;
	ret = sim_copy_to_user(dst, src, a->len < len ? a->len : len);
	if (!ret && a->spec->zero_trailing && a->len > len)
		ret = sim_clear_user((uint8_t *)dst + len, a->len - len);
	if (ret)
		return ret;
	a->u->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
	c->dirty = 1;
	return 0;
}

struct sim_obj *sim_attr_obj(struct sim_call *c, uint16_t id)
{
	struct sim_call_attr *a = sim_attr(c, id);

	return a ? a->obj : NULL;
}

struct sim_evq *sim_attr_evq(struct sim_call *c, uint16_t id)
{
	struct sim_call_attr *a = sim_attr(c, id);

	return a ? a->evq : NULL;
}

/* Declared by the method itself (not added by the driver). */
static int own_attr(const struct sim_call *c, const struct sim_call_attr *a)
{
	return a->spec >= c->m->attrs && a->spec < c->m->attrs + c->m->nattrs;
}

int sim_destroy_method(struct sim_call *c)
{
	struct sim_call_attr *a, *obj = NULL, *out = NULL;
	uint8_t resp[SIM_OBJ_EVENTS_MAX];
	unsigned int i;
	size_t len;
	int ret;

	for (i = 0; i < c->n; i++) {
		a = &c->a[i];
		if (!a->present || !own_attr(c, a))
			continue;
		if (a->spec->kind == SA_IDR && a->spec->access == SA_DESTROY)
			obj = a;
		else if (a->spec->kind == SA_PTR_OUT)
			out = a;
	}
	if (!obj)
		return -EINVAL; /* a method declared without its handle */
	len = sim_obj_events(obj->obj, resp);
	ret = sim_obj_destroy(c->uv, obj->obj);
	if (ret || !out)
		return ret;
	return sim_attr_copy_out(c, out->spec->id, resp, len);
}

int sim_attr_udata(struct sim_call *c, struct sim_udata *u)
{
	struct sim_call_attr *o = sim_attr(c, UVERBS_ATTR_UHW_OUT);

	u->in = sim_attr_in_ptr(c, UVERBS_ATTR_UHW_IN, &u->in_len);
	u->out_len = o ? o->len : 0;
	u->out = calloc(1, u->out_len ? u->out_len : 1);
	u->call = c;
	return u->out ? 0 : -ENOMEM;
}

int sim_attr_udata_put(struct sim_call *c, struct sim_udata *u, int ret)
{
	if (!ret)
		ret = sim_attr_copy_out(c, UVERBS_ATTR_UHW_OUT, u->out,
					u->out_len);
	free(u->out);
	return ret;
}

void sim_attr_set_new(struct sim_call *c, uint16_t id, uint64_t value)
{
	struct sim_call_attr *a = sim_attr(c, id);

	if (a) {
		a->new_value = value;
		a->has_new = 1;
	}
}
