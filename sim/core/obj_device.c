// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* UVERBS_OBJECT_DEVICE: context, ports, GIDs, write tunnelling. */
#include "ib_gid.h"
#include "uapi.h"

#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int invoke_write(struct sim_call *c)
{
	struct sim_wcall w = {.uv = c->uv};
	uint64_t cmd = sim_attr_u64(c, UVERBS_ATTR_WRITE_CMD, 0);
	struct sim_call_attr *a;

	w.in = sim_attr_in_ptr(c, UVERBS_ATTR_CORE_IN, &w.in_len);
	w.uhw_in = sim_attr_in_ptr(c, UVERBS_ATTR_UHW_IN, &w.uhw_in_len);
	a = sim_attr(c, UVERBS_ATTR_CORE_OUT);
	if (a) {
		w.out = (void *)(uintptr_t)a->data;
		w.out_len = a->len;
	}
	a = sim_attr(c, UVERBS_ATTR_UHW_OUT);
	if (a) {
		w.uhw_out = (void *)(uintptr_t)a->data;
		w.uhw_out_len = a->len;
	}
	int ret;

	if (cmd > UINT32_MAX)
		return -EINVAL;
	ret = sim_invoke_write(c->uv, (uint32_t)cmd, &w);
	snprintf(c->note, sizeof(c->note), "cmd=%#llx %s",
		 (unsigned long long)cmd, w.note);
	return ret;
}

static int query_port(struct sim_call *c)
{
	struct ib_uverbs_query_port_resp_ex r;
	uint64_t port = sim_attr_u64(c, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 0);

	if (port != 1)
		return -EINVAL;
	sim_port_attr(sim.sh, sim.model, c->uv->dev, &r);
	return sim_attr_copy_out(c, UVERBS_ATTR_QUERY_PORT_RESP, &r, sizeof(r));
}

static int put_ctx_outputs(struct sim_call *c)
{
	uint32_t vecs = sim_num_comp_vectors();
	uint64_t support = IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS;
	int ret;

	ret = sim_attr_copy_out(c, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
				&vecs, sizeof(vecs));
	if (!ret)
		ret = sim_attr_copy_out(c, UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT,
					&support, sizeof(support));
	return ret;
}

static int get_context(struct sim_call *c)
{
	uint8_t out[256];
	size_t in_len;
	const void *in = sim_attr_in_ptr(c, UVERBS_ATTR_UHW_IN, &in_len);
	struct sim_call_attr *o = sim_attr(c, UVERBS_ATTR_UHW_OUT);
	size_t out_len = o ? o->len : 0;
	int ret;

	if (out_len > sizeof(out))
		out_len = sizeof(out);
	ret = sim_get_context(c->uv, in, in_len, out, out_len);
	if (ret < 0)
		return ret;
	out_len = (size_t)ret;
	ret = put_ctx_outputs(c);
	if (!ret)
		ret = sim_attr_copy_out(c, UVERBS_ATTR_UHW_OUT, out, out_len);
	return ret;
}

static int query_context(struct sim_call *c)
{
	int ret;

	/* The core refuses when the driver has no query_ucontext (rxe). */
	if (!sim.model->has_query_ucontext)
		return -EOPNOTSUPP;
	ret = put_ctx_outputs(c);
	if (!ret)
		ret = sim_attr_copy_out(c, MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX,
					c->uv->ctx_resp, c->uv->ctx_resp_len);
	return ret;
}

/* A RoCE port's entry, from the table the network monitor keeps. */
static int roce_gid_entry(struct sim_netdev *nd, uint32_t index,
			  struct ib_uverbs_gid_entry *e)
{
	struct sim_gid_slot g;
	int ret = sim_gid_get(sim.sh, nd, index, &g);

	if (ret)
		return ret;
	memset(e, 0, sizeof(*e));
	memcpy(e->gid, g.gid, 16);
	e->gid_index = index;
	e->port_num = 1;
	e->gid_type = g.type;
	e->netdev_ifindex = (uint32_t)g.ifindex;
	return 0;
}

static int gid_entry(unsigned int dev, uint32_t index,
		     struct ib_uverbs_gid_entry *e)
{
	struct sim_netdev *nd = sim_netdev_of(sim.sh, dev, 1);

	if (nd)
		return roce_gid_entry(nd, index, e);
	if (index >= sim.model->gid_tbl_len)
		return -EINVAL;
	memset(e, 0, sizeof(*e));
	if (sim_ib_gid(dev, index, (uint8_t *)e->gid))
		return -ENODATA;
	e->gid_index = index;
	e->port_num = 1;
	e->gid_type = sim.model->gid_is_roce ? IB_UVERBS_GID_TYPE_ROCE_V2
					     : IB_UVERBS_GID_TYPE_IB;
	return 0;
}

static int query_gid_table(struct sim_call *c)
{
	uint64_t esz =
		sim_attr_u64(c, UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, 0);
	struct sim_call_attr *a =
		sim_attr(c, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES);
	struct ib_uverbs_gid_entry e;
	uint64_t n = 0, flags;
	uint32_t i;
	uint8_t *buf;
	int ret = 0;

	if (sim_attr_flags(c, UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, 0, &flags))
		return -EINVAL;
	if (!esz || esz > a->len || a->len % esz)
		return -EINVAL;
	buf = calloc(1, a->len);
	if (!buf)
		return -ENOMEM;
	/* valid entries only, port by port (rdma_query_gid_table) */
	for (i = 0; i < SIM_GID_SLOTS && !ret; i++) {
		if (gid_entry(c->uv->dev, i, &e))
			continue;
		if ((n + 1) * esz > a->len)
			ret = -EINVAL; /* more entries than room */
		else
			memcpy(buf + n++ * esz, &e,
			       esz < sizeof(e) ? esz : sizeof(e));
	}
	if (ret) {
		free(buf);
		return ret;
	}
	ret = sim_attr_copy_out(c, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES,
				buf, (size_t)(n * esz));
	free(buf);
	if (ret)
		return ret;
	return sim_attr_copy_out(
		c, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, &n, sizeof(n));
}

static int query_gid_entry(struct sim_call *c)
{
	uint64_t port = sim_attr_u64(c, UVERBS_ATTR_QUERY_GID_ENTRY_PORT, 0);
	uint64_t idx =
		sim_attr_u64(c, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, 0);
	struct ib_uverbs_gid_entry e;
	uint64_t flags;
	int ret;

	if (sim_attr_flags(c, UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 0, &flags))
		return -EINVAL;
	if (port != 1 || idx > UINT32_MAX)
		return -EINVAL;
	ret = gid_entry(c->uv->dev, (uint32_t)idx, &e);
	if (ret)
		return ret;
	return sim_attr_copy_out(c, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, &e,
				 sizeof(e));
}

static int info_handles(struct sim_call *c)
{
	uint64_t obj = sim_attr_u64(c, UVERBS_ATTR_INFO_OBJECT_ID, ~0ULL);
	struct sim_call_attr *list = sim_attr(c, UVERBS_ATTR_INFO_HANDLES_LIST);
	const struct sim_obj_type *type = NULL;
	uint32_t handles[256], total = 0, max;
	struct sim_obj *o;

	/* objects that have handles (fd objects and the device do not) */
	if (obj <= UINT16_MAX)
		type = sim_type_by_id((uint16_t)obj);
	if (!type || !type->size)
		return -EINVAL;
	if (list && list->len % sizeof(uint32_t))
		return -EINVAL;
	max = list ? list->len / sizeof(uint32_t) : 0;
	for (o = c->uv->objs; o; o = o->next) {
		if (o->type != type || !o->committed)
			continue;
		if (list && total >= max)
			return -EOVERFLOW;
		if (total < ARRAY_SIZE(handles))
			handles[total] = o->handle;
		total++;
	}
	if (sim_attr_copy_out(c, UVERBS_ATTR_INFO_TOTAL_HANDLES, &total,
			      sizeof(total)))
		return -EFAULT;
	return sim_attr_copy_out(c, UVERBS_ATTR_INFO_HANDLES_LIST, handles,
				 total * sizeof(uint32_t));
}

static const struct sim_attr_spec info_handles_attrs[] = {
	A_CONST(UVERBS_ATTR_INFO_OBJECT_ID, 1),
	A_OUT(UVERBS_ATTR_INFO_TOTAL_HANDLES, 4, 4, 0),
	A_OUT(UVERBS_ATTR_INFO_HANDLES_LIST, 4, SIM_NO_MAX, 0),
};

static const struct sim_attr_spec invoke_write_attrs[] = {
	A_IN(UVERBS_ATTR_CORE_IN, 4, SIM_NO_MAX, 0),
	A_OUT(UVERBS_ATTR_CORE_OUT, 0, SIM_NO_MAX, 0),
	A_CONST(UVERBS_ATTR_WRITE_CMD, 1),
	A_UHW_IN,
	A_UHW_OUT,
};

static const struct sim_attr_spec query_port_attrs[] = {
	A_CONST(UVERBS_ATTR_QUERY_PORT_PORT_NUM, 1),
	A_OUT_STRUCT(UVERBS_ATTR_QUERY_PORT_RESP, 48, 48, 1),
};

static const struct sim_attr_spec get_context_attrs[] = {
	A_OUT(UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, 4, 4, 0),
	A_OUT(UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT, 8, 8, 0),
	A_UHW_IN,
	A_UHW_OUT,
};

static const struct sim_attr_spec query_context_attrs[] = {
	A_OUT(UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS, 4, 4, 0),
	A_OUT(UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT, 8, 8, 0),
};

static const struct sim_attr_spec gid_table_attrs[] = {
	A_CONST(UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, 1),
	A_FLAGS(UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, 0),
	A_OUT(UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, 0, SIM_NO_MAX, 1),
	A_OUT(UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, 8, 8, 1),
};

static const struct sim_attr_spec gid_entry_attrs[] = {
	A_CONST(UVERBS_ATTR_QUERY_GID_ENTRY_PORT, 1),
	A_CONST(UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, 1),
	A_FLAGS(UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 1),
	A_OUT_STRUCT(UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, 32, 32, 1),
};

/* ---- write() commands of the device ---- */

static int w_get_context(struct sim_wcall *w)
{
	struct ib_uverbs_get_context_resp r = {};
	uint8_t drv[256];
	int ret, fd;

	ret = sim_get_context(w->uv, w->uhw_in, w->uhw_in_len, drv,
			      w->uhw_out_len < sizeof(drv) ? w->uhw_out_len
							   : sizeof(drv));
	if (ret >= 0)
		ret = sim_wc_uhw_out(w, drv, (size_t)ret);
	if (ret < 0)
		return ret;
	fd = sim_alloc_async_fd(w->uv, 1);
	if (fd < 0)
		return fd;
	r.async_fd = (uint32_t)fd;
	r.num_comp_vectors = sim_num_comp_vectors();
	return sim_wc_out(w, &r, sizeof(r));
}

static int w_query_device(struct sim_wcall *w)
{
	struct ib_uverbs_query_device_resp r;

	sim_fill_device(w->uv->dev, &r);
	return sim_wc_out(w, &r, sizeof(r));
}

static int w_ex_query_device(struct sim_wcall *w)
{
	const struct ib_uverbs_ex_query_device *req = w->in;
	struct ib_uverbs_ex_query_device_resp r;

	if (req->comp_mask || req->reserved)
		return -EINVAL;
	memset(&r, 0, sizeof(r));
	sim_fill_device(w->uv->dev, &r.base);
	r.timestamp_mask = (1ULL << 63) - 1;
	r.hca_core_clock = 156250;
	if (sim.model->has_dm)
		r.max_dm_size = sim.sh->cfg.dm_size;
	if (sim_driver()->odp_caps)
		sim_driver()->odp_caps(&r);
	if (sim_driver()->tm_caps)
		sim_driver()->tm_caps(w->uv->dev, &r.tm_caps);
	if (sim_driver()->rules->max_cq_period) {
		r.cq_moderation_caps.max_cq_moderation_count = 0xffff;
		r.cq_moderation_caps.max_cq_moderation_period =
			sim_driver()->rules->max_cq_period;
	}
	/* in a CoCo guest DMA must go through shared (bounce) memory */
	if (sim.sh->cfg.cc_guest)
		r.device_cap_flags_ex |= RDMA_DM_DEVICE_CC_DMA_BOUNCE;
	r.response_length = w->out_len < sizeof(r) ? w->out_len : sizeof(r);
	if (sim_driver()->query_device_uhw && w->uhw_out_len) {
		uint8_t drv[256];
		size_t n = w->uhw_out_len < sizeof(drv) ? w->uhw_out_len
							: sizeof(drv);

		sim_driver()->query_device_uhw(w->uv, drv, n);
		if (sim_wc_uhw_out(w, drv, n))
			return -EFAULT;
	}
	return sim_wc_out(w, &r, sizeof(r));
}

static int w_query_port(struct sim_wcall *w)
{
	const struct ib_uverbs_query_port *req = w->in;
	struct ib_uverbs_query_port_resp_ex r;

	if (req->port_num != 1)
		return -EINVAL;
	sim_port_attr(sim.sh, sim.model, w->uv->dev, &r);
	return sim_wc_out(w, &r.legacy_resp, sizeof(r.legacy_resp));
}

#define EX IB_USER_VERBS_CMD_FLAG_EXTENDED

static const struct sim_wcmd device_wcmds[] = {
	{IB_USER_VERBS_CMD_GET_CONTEXT, "GET_CONTEXT",
	 sizeof(struct ib_uverbs_get_context),
	 sizeof(struct ib_uverbs_get_context_resp), 1, 0, w_get_context},
	{IB_USER_VERBS_CMD_QUERY_DEVICE, "QUERY_DEVICE",
	 sizeof(struct ib_uverbs_query_device),
	 sizeof(struct ib_uverbs_query_device_resp), 1, 1, w_query_device},
	{IB_USER_VERBS_CMD_QUERY_PORT, "QUERY_PORT",
	 sizeof(struct ib_uverbs_query_port),
	 sizeof(struct ib_uverbs_query_port_resp), 1, 1, w_query_port},
	{EX | IB_USER_VERBS_EX_CMD_QUERY_DEVICE, "EX_QUERY_DEVICE",
	 sizeof(struct ib_uverbs_ex_query_device),
	 offsetof(struct ib_uverbs_ex_query_device_resp, odp_caps), 0, 1,
	 w_ex_query_device},
};

#define DEV(m, n, f, a, fl)                                                    \
	SIM_METHOD(UVERBS_OBJECT_DEVICE, "DEVICE", m, n, f, a, fl)

static const struct sim_method device_methods[] = {
	DEV(UVERBS_METHOD_INVOKE_WRITE, "INVOKE_WRITE", invoke_write,
	    invoke_write_attrs, 0),
	DEV(UVERBS_METHOD_INFO_HANDLES, "INFO_HANDLES", info_handles,
	    info_handles_attrs, SIM_M_NEEDS_CTX),
	DEV(UVERBS_METHOD_QUERY_PORT, "QUERY_PORT", query_port,
	    query_port_attrs, SIM_M_NEEDS_CTX),
	DEV(UVERBS_METHOD_GET_CONTEXT, "GET_CONTEXT", get_context,
	    get_context_attrs, 0),
	DEV(UVERBS_METHOD_QUERY_CONTEXT, "QUERY_CONTEXT", query_context,
	    query_context_attrs, SIM_M_NEEDS_CTX),
	DEV(UVERBS_METHOD_QUERY_GID_TABLE, "QUERY_GID_TABLE", query_gid_table,
	    gid_table_attrs, SIM_M_NEEDS_CTX),
	DEV(UVERBS_METHOD_QUERY_GID_ENTRY, "QUERY_GID_ENTRY", query_gid_entry,
	    gid_entry_attrs, SIM_M_NEEDS_CTX),
};

/* The device itself: methods and commands, no instances. */
static const struct sim_obj_type device_type = {
	.name = "DEVICE",
	.uapi_id = UVERBS_OBJECT_DEVICE,
	.methods = device_methods,
	.nmethods = ARRAY_SIZE(device_methods),
	.wcmds = device_wcmds,
	.nwcmds = ARRAY_SIZE(device_wcmds),
};
SIM_OBJ_TYPE(device_type);
