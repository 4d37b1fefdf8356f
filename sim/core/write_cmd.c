// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Legacy write() commands, also reached through INVOKE_WRITE: the framework
 * (header parsing, sizes, context check, fault injection, the lifetime of
 * a create's new object). The commands themselves are in their objects'
 * files (struct sim_obj_type.wcmds).
 */
#include "uapi.h"
#include "restrack.h"

#include <errno.h>
#include <rdma/ib_user_verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The core response: min(len, buffer) bytes, the rest of it zeroed. */
int sim_wc_out(struct sim_wcall *w, const void *src, size_t len)
{
	int ret;

	ret = sim_copy_to_user(w->out, src,
			       len < w->out_len ? len : w->out_len);
	if (!ret && w->out_len > len)
		ret = sim_clear_user((uint8_t *)w->out + len, w->out_len - len);
	return ret;
}

int sim_wc_uhw_out(struct sim_wcall *w, const void *src, size_t len)
{
	return sim_copy_to_user(w->uhw_out, src,
				len < w->uhw_out_len ? len : w->uhw_out_len);
}

int sim_wc_udata(struct sim_wcall *w, struct sim_udata *u)
{
	*u = (struct sim_udata){.in = w->uhw_in,
				.in_len = w->uhw_in_len,
				.out_len = w->uhw_out_len};
	u->out = calloc(1, u->out_len ? u->out_len : 1);
	return u->out ? 0 : -ENOMEM;
}

int sim_wc_udata_put(struct sim_wcall *w, struct sim_udata *u, int ret)
{
	if (!ret)
		ret = sim_wc_uhw_out(w, u->out, u->out_len);
	free(u->out);
	return ret;
}

int sim_wc_in(struct sim_wcall *w, void *dst, size_t len)
{
	const uint8_t *in = w->in;
	size_t i;

	for (i = len; i < w->in_len; i++)
		if (in[i])
			return -EOPNOTSUPP;
	memset(dst, 0, len);
	memcpy(dst, in, w->in_len < len ? w->in_len : len);
	return 0;
}

int sim_wc_destroy(struct sim_wcall *w, const struct sim_obj_type *t)
{
	size_t at = t->parts.events_len ? sizeof(uint64_t) : 0;
	uint8_t resp[SIM_OBJ_EVENTS_MAX];
	struct sim_obj *o;
	size_t len;
	uint32_t h;
	int err;

	memcpy(&h, (const uint8_t *)w->in + at, sizeof(h));
	o = sim_obj_get(w->uv, h, t, &err);
	if (!o)
		return err;
	len = sim_obj_events(o, resp);
	err = sim_obj_destroy(w->uv, o);
	return err || !len ? err : sim_wc_out(w, resp, len);
}

#define EX IB_USER_VERBS_CMD_FLAG_EXTENDED

/* The command in the write tables of the registered object types. */
static const struct sim_wcmd *lookup_wcmd(uint32_t cmd)
{
	const struct sim_obj_type *const *t;
	unsigned int i;

	sim_for_each_type (t)
		for (i = 0; i < (*t)->nwcmds; i++)
			if ((*t)->wcmds[i].cmd == cmd)
				return &(*t)->wcmds[i];
	return NULL;
}

static const struct sim_wcmd *find_wcmd(uint32_t cmd, int *err)
{
	const struct sim_wcmd *c;

	*err = 0;
	if (cmd & ~(uint32_t)(EX | IB_USER_VERBS_CMD_COMMAND_MASK)) {
		*err = -EINVAL;
		return NULL;
	}
	c = lookup_wcmd(cmd);
	if (!c)
		*err = -EOPNOTSUPP;
	return c;
}

/* The type whose object command cmd creates, or NULL. */
static const struct sim_obj_type *creates(uint32_t cmd)
{
	const struct sim_obj_type *const *t;
	unsigned int i;

	sim_for_each_type (t)
		for (i = 0; i < ARRAY_SIZE((*t)->wcreates); i++)
			if ((*t)->wcreates[i] == cmd && cmd)
				return *t;
	return NULL;
}

/* Commit what a create made, or abort it (obj.h). */
static void finish_new(const struct sim_obj_type *t, struct sim_wcall *w,
		       int err)
{
	if (w->obj && err)
		sim_obj_alloc_abort(w->uv, w->obj);
	else if (w->obj)
		sim_obj_alloc_commit(w->obj);
	if (w->new_fd >= 0 && err && t && t->abort_fd)
		t->abort_fd(w->uv, w->new_fd);
	if (!err)
		sim_res_sync(w->uv);
}

static int run_wcmd(const struct sim_wcmd *c, struct sim_wcall *w)
{
	const struct sim_obj_type *t = creates(c->cmd);
	int err;

	if (c->needs_ctx && !w->uv->has_ctx)
		return -EINVAL;
	err = sim_fail(c->name);
	if (err)
		return -err;
	w->obj = NULL;
	w->new_fd = -1;
	if (t && t->size) {
		w->obj = sim_obj_alloc_begin(w->uv, t);
		if (!w->obj)
			return -ENOMEM;
	}
	err = c->fn(w);
	if (!err && t) {
		err = -sim_fail_commit(c->name);
		if (err)
			snprintf(w->note + strlen(w->note),
				 sizeof(w->note) - strlen(w->note),
				 " (injected at commit)");
	}
	finish_new(t, w, err);
	return err;
}

int sim_invoke_write(struct sim_uvfile *uv, uint32_t cmd, struct sim_wcall *w)
{
	const struct sim_wcmd *c;
	int err;

	c = find_wcmd(cmd, &err);
	if (!c)
		return err;
	if (w->in_len < c->req || w->out_len < c->resp)
		return -ENOSPC;
	return run_wcmd(c, w);
}

/* Split an ex write: hdr, ex_hdr, core req, driver req. */
static int parse_ex(const uint8_t *buf, size_t count, struct sim_wcall *w)
{
	const struct ib_uverbs_cmd_hdr *h = (const void *)buf;
	const struct ib_uverbs_ex_cmd_hdr *x = (const void *)(h + 1);

	if (count < sizeof(*h) + sizeof(*x))
		return -EINVAL;
	if ((size_t)(h->in_words + x->provider_in_words) * 8 !=
	    count - sizeof(*h) - sizeof(*x))
		return -EINVAL;
	if (x->cmd_hdr_reserved)
		return -EINVAL;
	if (x->response ? !h->out_words && !x->provider_out_words
			: h->out_words || x->provider_out_words)
		return -EINVAL;
	w->in = x + 1;
	w->in_len = (size_t)h->in_words * 8;
	w->uhw_in = (const uint8_t *)w->in + w->in_len;
	w->uhw_in_len = (size_t)x->provider_in_words * 8;
	w->out = (void *)(uintptr_t)x->response;
	w->out_len = (size_t)h->out_words * 8;
	w->uhw_out = w->out ? (uint8_t *)w->out + w->out_len : NULL;
	w->uhw_out_len = (size_t)x->provider_out_words * 8;
	return 0;
}

/* Split a plain write: hdr, core req (response ptr first), driver req. */
static int parse_plain(const struct sim_wcmd *c, const uint8_t *buf,
		       size_t count, struct sim_wcall *w)
{
	const struct ib_uverbs_cmd_hdr *h = (const void *)buf;
	size_t in = count - sizeof(*h), out = (size_t)h->out_words * 4;

	if ((size_t)h->in_words * 4 != count)
		return -EINVAL;
	if (in < c->req || out < c->resp)
		return -ENOSPC;
	w->in = h + 1;
	w->in_len = c->req;
	w->uhw_in = (const uint8_t *)w->in + c->req;
	w->uhw_in_len = in - c->req;
	w->out_len = c->resp;
	w->uhw_out_len = out - c->resp;
	return 0;
}

/* The response pointer leads a plain request; read once the body is in. */
static void plain_response(const struct sim_wcmd *c, struct sim_wcall *w)
{
	uint64_t resp = 0;

	if (c->has_resp_ptr)
		memcpy(&resp, w->in, sizeof(resp));
	w->out = (void *)(uintptr_t)resp;
	w->uhw_out = w->out ? (uint8_t *)w->out + c->resp : NULL;
}

#define SIM_WRITE_MAX (1u << 20)

ssize_t sim_write_cmd(struct sim_uvfile *uv, const void *buf, size_t count)
{
	struct sim_wcall w = {.uv = uv};
	const struct sim_wcmd *c = NULL;
	struct ib_uverbs_cmd_hdr h;
	uint8_t *k = NULL;
	size_t hlen;
	int ret;

	if (count < sizeof(h)) {
		ret = -EINVAL;
		goto out;
	}
	if (sim_copy_from_user(&h, buf, sizeof(h))) {
		ret = -EFAULT;
		goto out;
	}
	c = find_wcmd(h.command, &ret);
	if (!c)
		goto out;
	hlen = sizeof(h) +
	       ((c->cmd & EX) ? sizeof(struct ib_uverbs_ex_cmd_hdr) : 0);
	k = count <= SIM_WRITE_MAX ? malloc(count) : NULL;
	if (count < hlen || !k) {
		ret = count < hlen || count > SIM_WRITE_MAX ? -EINVAL : -ENOMEM;
		goto out;
	}
	/* as verify_hdr: the headers are checked before the body is read */
	ret = sim_copy_from_user(k, buf, hlen);
	if (!ret)
		ret = (c->cmd & EX) ? parse_ex(k, count, &w)
				    : parse_plain(c, k, count, &w);
	if (!ret)
		ret = sim_copy_from_user(k + hlen, (const uint8_t *)buf + hlen,
					 count - hlen);
	if (!ret && !(c->cmd & EX))
		plain_response(c, &w);
	/* ex responses may be shorter than ours: the kernel copies a part */
	if (!ret && (c->cmd & EX) && w.in_len < c->req)
		ret = -ENOSPC;
	if (!ret)
		ret = run_wcmd(c, &w);
out:
	free(k);
	sim_trace("write %s len %zu -> %s %s", c ? c->name : "?", count,
		  ret ? strerrorname_np(-ret) : "ok", w.note);
	return ret ? ret : (ssize_t)count;
}
