// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UVERBS_OBJECT_AH: created by write() only (CREATE_AH, there is no ioctl
 * create), destroyed by ioctl AH_DESTROY or write DESTROY_AH.
 */
#include "uapi.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

SIM_HW_HOOKS(ah)

/* After the driver's destroy_ah: the AH's hold on its PD. */
static void ah_destroy(struct sim_uvfile *uv, struct sim_obj *o)
{
	struct sim_ah *ah = sim_ah(o);

	(void)uv;
	if (ah->pd) /* NULL: its create failed before taking it */
		ah->pd->obj.usecnt--;
}

static const struct sim_attr_spec ah_destroy_attrs[] = {
	A_IDR(UVERBS_ATTR_DESTROY_AH_HANDLE, sim_type_ah, SA_DESTROY),
};

static const struct sim_method ah_methods[] = {
	SIM_METHOD(UVERBS_OBJECT_AH, "AH", UVERBS_METHOD_AH_DESTROY,
		   "AH_DESTROY", sim_destroy_method, ah_destroy_attrs,
		   SIM_M_NEEDS_CTX),
};

static void attr_from_user(const struct ib_uverbs_ah_attr *u,
			   struct sim_ah_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->dlid = u->dlid;
	a->sl = u->sl;
	a->src_path_bits = u->src_path_bits;
	a->static_rate = u->static_rate;
	a->is_global = u->is_global;
	a->port_num = u->port_num;
	if (!u->is_global)
		return;
	memcpy(a->dgid, u->grh.dgid, sizeof(a->dgid));
	a->flow_label = u->grh.flow_label;
	a->sgid_index = u->grh.sgid_index;
	a->hop_limit = u->grh.hop_limit;
	a->traffic_class = u->grh.traffic_class;
}

static int w_create_ah(struct sim_wcall *w)
{
	const struct ib_uverbs_create_ah *req = w->in;
	struct ib_uverbs_create_ah_resp r = {};
	struct sim_ah *ah = sim_ah(w->obj);
	struct sim_ah_attr attr;
	struct sim_udata u;
	struct sim_obj *pd;
	int ret;

	if (req->attr.port_num != 1)
		return -EINVAL;
	pd = sim_obj_get(w->uv, req->pd_handle, &sim_type_pd, &ret);
	if (!pd)
		return ret;
	attr_from_user(&req->attr, &attr);
	ret = sim_check_ah_attr(w->uv->dev, &attr);
	if (!ret) /* every user AH on RoCE (rdma_create_user_ah) */
		ret = sim_resolve_ah_dmac(w->uv->dev, &attr);
	if (ret)
		return ret;
	ret = sim_wc_udata(w, &u);
	if (ret)
		return ret;
	ah->pd = sim_pd(pd);
	ah->attr = attr;
	ah->user_handle = req->user_handle;
	pd->usecnt++;
	ret = sim_obj_hw_create(w->uv, &ah->obj, NULL, &u);
	r.ah_handle = ah->obj.handle;
	snprintf(w->note, sizeof(w->note), "handle=%u", r.ah_handle);
	if (!ret)
		ret = sim_wc_out(w, &r, sizeof(r));
	return sim_wc_udata_put(w, &u, ret);
}

static int w_destroy_ah(struct sim_wcall *w)
{
	return sim_wc_destroy(w, &sim_type_ah);
}

static const struct sim_wcmd ah_wcmds[] = {
	{IB_USER_VERBS_CMD_CREATE_AH, "CREATE_AH",
	 sizeof(struct ib_uverbs_create_ah),
	 sizeof(struct ib_uverbs_create_ah_resp), 1, 1, w_create_ah},
	{IB_USER_VERBS_CMD_DESTROY_AH, "DESTROY_AH",
	 sizeof(struct ib_uverbs_destroy_ah), 0, 0, 1, w_destroy_ah},
};

const struct sim_obj_type sim_type_ah = {
	.name = "AH",
	.uapi_id = UVERBS_OBJECT_AH,
	.size = sizeof(struct sim_ah),
	.order = SIM_ORDER_USERS,
	.hw_create = ah_hw_create,
	.hw_destroy = ah_hw_destroy,
	.destroy = ah_destroy,
	.methods = ah_methods,
	.nmethods = ARRAY_SIZE(ah_methods),
	.wcmds = ah_wcmds,
	.nwcmds = ARRAY_SIZE(ah_wcmds),
	.wcreates = {IB_USER_VERBS_CMD_CREATE_AH},
};
SIM_OBJ_TYPE(sim_type_ah);
