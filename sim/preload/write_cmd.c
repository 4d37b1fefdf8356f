// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Legacy write() commands, also reached through INVOKE_WRITE. One table:
 * command number, name, core request/response sizes, handler.
 */
#include "uapi.h"

#include <endian.h>
#include <errno.h>
#include <rdma/ib_user_verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sim_wcmd {
	uint32_t cmd;
	const char *name;
	uint16_t req, resp; /* core sizes; non-ex req includes 'response' */
	uint8_t has_resp_ptr;
	uint8_t needs_ctx;
	int (*fn)(struct sim_wcall *w);
};

/* The core response: min(len, buffer) bytes, the rest of it zeroed. */
static int wc_out(struct sim_wcall *w, const void *src, size_t len)
{
	int ret;

	ret = sim_copy_to_user(w->out, src,
			       len < w->out_len ? len : w->out_len);
	if (!ret && w->out_len > len)
		ret = sim_clear_user((uint8_t *)w->out + len, w->out_len - len);
	return ret;
}

/* The driver's udata response: min(len, buffer) bytes. */
static int uhw_out(struct sim_wcall *w, const void *src, size_t len)
{
	return sim_copy_to_user(w->uhw_out, src,
				len < w->uhw_out_len ? len : w->uhw_out_len);
}

static struct sim_obj *lookup(struct sim_uvfile *uv, uint32_t h, uint8_t type,
			      int *err)
{
	struct sim_obj *o = sim_obj_find(uv, h);

	*err = !o ? -ENOENT : o->type != type ? -EINVAL : 0;
	return *err ? NULL : o;
}

static int w_get_context(struct sim_wcall *w)
{
	struct ib_uverbs_get_context_resp r = {};
	uint8_t drv[256];
	int ret, fd;

	ret = sim_get_context(w->uv, w->uhw_in, w->uhw_in_len, drv,
			      w->uhw_out_len < sizeof(drv) ? w->uhw_out_len
							   : sizeof(drv));
	if (ret >= 0)
		ret = uhw_out(w, drv, (size_t)ret);
	if (ret < 0)
		return ret;
	fd = sim_alloc_async_fd(1);
	if (fd < 0)
		return fd;
	r.async_fd = (uint32_t)fd;
	r.num_comp_vectors = sim_num_comp_vectors();
	return wc_out(w, &r, sizeof(r));
}

static void fill_device(unsigned int dev, struct ib_uverbs_query_device_resp *r)
{
	const struct sim_device_model *m = sim.model;
	unsigned int a, b, c;

	memset(r, 0, sizeof(*r));
	if (sscanf(m->fw_ver, "%u.%u.%u", &a, &b, &c) == 3)
		r->fw_ver = ((uint64_t)a << 32) | ((uint64_t)b << 16) | c;
	r->node_guid = htobe64(sim_guid(dev));
	r->sys_image_guid = htobe64(sim_guid(dev));
	r->max_mr_size = ~0ULL;
	r->page_size_cap = 0xfffffffffffff000ULL;
	r->vendor_id = m->vendor_id;
	r->vendor_part_id = m->vendor_part_id;
	r->hw_ver = m->hw_ver;
	r->max_qp = 1 << 18;
	r->max_qp_wr = 1 << 15;
	r->device_cap_flags = 0x25321c36;
	r->max_sge = 30;
	r->max_sge_rd = 30;
	r->max_cq = 1 << 24;
	r->max_cqe = (1 << 22) - 1;
	r->max_mr = 1 << 24;
	r->max_pd = 1 << 24;
	r->max_qp_rd_atom = 16;
	r->max_ee_rd_atom = 0;
	r->max_res_rd_atom = (1 << 18) * 16;
	r->max_qp_init_rd_atom = 16;
	r->atomic_cap = 1; /* IB_ATOMIC_HCA */
	r->max_mcast_grp = 1 << 21;
	r->max_mcast_qp_attach = 240;
	r->max_total_mcast_qp_attach = 240 << 21;
	r->max_ah = 0x7fffffff;
	r->max_srq = 1 << 23;
	r->max_srq_wr = (1 << 15) - 1;
	r->max_srq_sge = 31;
	r->max_pkeys = SIM_NUM_PKEYS;
	r->local_ca_ack_delay = 16;
	r->phys_port_cnt = 1;
}

static int w_query_device(struct sim_wcall *w)
{
	struct ib_uverbs_query_device_resp r;

	fill_device(w->uv->dev, &r);
	return wc_out(w, &r, sizeof(r));
}

static int w_ex_query_device(struct sim_wcall *w)
{
	const struct ib_uverbs_ex_query_device *req = w->in;
	struct ib_uverbs_ex_query_device_resp r;

	if (req->comp_mask || req->reserved)
		return -EINVAL;
	memset(&r, 0, sizeof(r));
	fill_device(w->uv->dev, &r.base);
	r.timestamp_mask = (1ULL << 63) - 1;
	r.hca_core_clock = 156250;
	if (sim.model->has_dm)
		r.max_dm_size = sim.sh->cfg.dm_size;
	r.response_length = w->out_len < sizeof(r) ? w->out_len : sizeof(r);
	if (sim_driver()->query_device_uhw && w->uhw_out_len) {
		uint8_t drv[256];
		size_t n = w->uhw_out_len < sizeof(drv) ? w->uhw_out_len
							: sizeof(drv);

		sim_driver()->query_device_uhw(w->uv, drv, n);
		if (uhw_out(w, drv, n))
			return -EFAULT;
	}
	return wc_out(w, &r, sizeof(r));
}

static int w_query_port(struct sim_wcall *w)
{
	const struct ib_uverbs_query_port *req = w->in;
	struct ib_uverbs_query_port_resp_ex r;

	if (req->port_num != 1)
		return -EINVAL;
	sim_fill_port(w->uv->dev, &r);
	return wc_out(w, &r.legacy_resp, sizeof(r.legacy_resp));
}

static int w_alloc_pd(struct sim_wcall *w)
{
	struct ib_uverbs_alloc_pd_resp r = {};
	struct sim_obj *pd = sim_obj_new(w->uv, SIM_OBJ_PD);
	int ret;

	if (!pd)
		return -ENOMEM;
	pd->pd.pdn = w->uv->next_pdn++;
	r.pd_handle = pd->handle;
	ret = wc_out(w, &r, sizeof(r));
	if (!ret && sim_driver()->alloc_pd_uhw && w->uhw_out_len >= 4)
		ret = uhw_out(w, &pd->pd.pdn, 4);
	if (ret)
		sim_obj_destroy(w->uv, pd);
	return ret;
}

static int w_destroy(struct sim_wcall *w, uint8_t type)
{
	uint32_t h;
	struct sim_obj *o;
	int err;

	memcpy(&h, w->in, sizeof(h));
	o = lookup(w->uv, h, type, &err);
	return o ? sim_obj_destroy(w->uv, o) : err;
}

static int w_dealloc_pd(struct sim_wcall *w)
{
	return w_destroy(w, SIM_OBJ_PD);
}

static int w_dereg_mr(struct sim_wcall *w)
{
	return w_destroy(w, SIM_OBJ_MR);
}

static int w_reg_mr(struct sim_wcall *w)
{
	const struct ib_uverbs_reg_mr *req = w->in;
	uint64_t page = sim.sh->cfg.page_size;
	struct ib_uverbs_reg_mr_resp r = {};
	struct sim_obj *pd, *mr;
	int err;

	if ((req->start & (page - 1)) != (req->hca_va & (page - 1)) ||
	    !req->length || req->start + req->length < req->start)
		return -EINVAL;
	if (sim_check_mr_access(req->access_flags))
		return -EINVAL;
	pd = lookup(w->uv, req->pd_handle, SIM_OBJ_PD, &err);
	if (!pd)
		return err;
	mr = sim_mr_new(w->uv, pd, NULL);
	if (!mr)
		return -ENOMEM;
	r.mr_handle = mr->handle;
	r.lkey = mr->mr.lkey;
	r.rkey = mr->mr.lkey;
	err = wc_out(w, &r, sizeof(r));
	if (err)
		sim_obj_destroy(w->uv, mr);
	return err;
}

#define EX IB_USER_VERBS_CMD_FLAG_EXTENDED

static const struct sim_wcmd wcmds[] = {
	{IB_USER_VERBS_CMD_GET_CONTEXT, "GET_CONTEXT",
	 sizeof(struct ib_uverbs_get_context),
	 sizeof(struct ib_uverbs_get_context_resp), 1, 0, w_get_context},
	{IB_USER_VERBS_CMD_QUERY_DEVICE, "QUERY_DEVICE",
	 sizeof(struct ib_uverbs_query_device),
	 sizeof(struct ib_uverbs_query_device_resp), 1, 1, w_query_device},
	{IB_USER_VERBS_CMD_QUERY_PORT, "QUERY_PORT",
	 sizeof(struct ib_uverbs_query_port),
	 sizeof(struct ib_uverbs_query_port_resp), 1, 1, w_query_port},
	{IB_USER_VERBS_CMD_ALLOC_PD, "ALLOC_PD",
	 sizeof(struct ib_uverbs_alloc_pd),
	 sizeof(struct ib_uverbs_alloc_pd_resp), 1, 1, w_alloc_pd},
	{IB_USER_VERBS_CMD_DEALLOC_PD, "DEALLOC_PD",
	 sizeof(struct ib_uverbs_dealloc_pd), 0, 0, 1, w_dealloc_pd},
	{IB_USER_VERBS_CMD_REG_MR, "REG_MR", sizeof(struct ib_uverbs_reg_mr),
	 sizeof(struct ib_uverbs_reg_mr_resp), 1, 1, w_reg_mr},
	{IB_USER_VERBS_CMD_DEREG_MR, "DEREG_MR",
	 sizeof(struct ib_uverbs_dereg_mr), 0, 0, 1, w_dereg_mr},
	{EX | IB_USER_VERBS_EX_CMD_QUERY_DEVICE, "EX_QUERY_DEVICE",
	 sizeof(struct ib_uverbs_ex_query_device),
	 offsetof(struct ib_uverbs_ex_query_device_resp, odp_caps), 0, 1,
	 w_ex_query_device},
};

static const struct sim_wcmd *find_wcmd(uint32_t cmd, int *err)
{
	unsigned int i;

	*err = 0;
	if (cmd & ~(uint32_t)(EX | IB_USER_VERBS_CMD_COMMAND_MASK)) {
		*err = -EINVAL;
		return NULL;
	}
	for (i = 0; i < ARRAY_SIZE(wcmds); i++)
		if (wcmds[i].cmd == cmd)
			return &wcmds[i];
	*err = -EOPNOTSUPP;
	return NULL;
}

static int run_wcmd(const struct sim_wcmd *c, struct sim_wcall *w)
{
	int err;

	if (c->needs_ctx && !w->uv->has_ctx)
		return -EINVAL;
	err = sim_fail(c->name);
	if (err)
		return -err;
	return c->fn(w);
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
	uint64_t resp = 0;

	if ((size_t)h->in_words * 4 != count)
		return -EINVAL;
	if (in < c->req || out < c->resp)
		return -ENOSPC;
	w->in = h + 1;
	w->in_len = c->req;
	w->uhw_in = (const uint8_t *)w->in + c->req;
	w->uhw_in_len = in - c->req;
	if (c->has_resp_ptr)
		memcpy(&resp, w->in, sizeof(resp));
	w->out = (void *)(uintptr_t)resp;
	w->out_len = c->resp;
	w->uhw_out = w->out ? (uint8_t *)w->out + c->resp : NULL;
	w->uhw_out_len = out - c->resp;
	return 0;
}

#define SIM_WRITE_MAX (1u << 20)

ssize_t sim_write_cmd(struct sim_uvfile *uv, const void *buf, size_t count)
{
	struct sim_wcall w = {.uv = uv};
	const struct sim_wcmd *c = NULL;
	struct ib_uverbs_cmd_hdr h;
	uint8_t *k = NULL;
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
	k = count <= SIM_WRITE_MAX ? malloc(count) : NULL;
	if (!k) {
		ret = count <= SIM_WRITE_MAX ? -ENOMEM : -EINVAL;
		goto out;
	}
	ret = sim_copy_from_user(k, buf, count);
	if (!ret)
		ret = (c->cmd & EX) ? parse_ex(k, count, &w)
				    : parse_plain(c, k, count, &w);
	/* ex responses may be shorter than ours: the kernel copies a part */
	if (!ret && (c->cmd & EX) && w.in_len < c->req)
		ret = -ENOSPC;
	if (!ret)
		ret = run_wcmd(c, &w);
out:
	free(k);
	sim_trace("write %s len %zu -> %s", c ? c->name : "?", count,
		  ret ? strerrorname_np(-ret) : "ok");
	return ret ? ret : (ssize_t)count;
}
