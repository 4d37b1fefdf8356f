// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* UVERBS_OBJECT_PD: allocated by write() only, destroyed either way. */
#include "uapi.h"

#include <errno.h>

static const struct sim_attr_spec pd_destroy_attrs[] = {
	A_IDR(UVERBS_ATTR_DESTROY_PD_HANDLE, sim_type_pd, SA_DESTROY),
};

static const struct sim_method pd_methods[] = {
	SIM_METHOD(UVERBS_OBJECT_PD, "PD", UVERBS_METHOD_PD_DESTROY,
		   "PD_DESTROY", sim_destroy_method, pd_destroy_attrs,
		   SIM_M_NEEDS_CTX),
};

static int w_alloc_pd(struct sim_wcall *w)
{
	struct ib_uverbs_alloc_pd_resp r = {};
	struct sim_pd *pd = sim_pd(w->obj);
	int ret;

	pd->pdn = w->uv->next_pdn++;
	r.pd_handle = pd->obj.handle;
	ret = sim_wc_out(w, &r, sizeof(r));
	if (!ret && sim_driver()->alloc_pd_uhw && w->uhw_out_len >= 4)
		ret = sim_wc_uhw_out(w, &pd->pdn, 4);
	return ret;
}

static int w_dealloc_pd(struct sim_wcall *w)
{
	return sim_wc_destroy(w, &sim_type_pd);
}

static const struct sim_wcmd pd_wcmds[] = {
	{IB_USER_VERBS_CMD_ALLOC_PD, "ALLOC_PD",
	 sizeof(struct ib_uverbs_alloc_pd),
	 sizeof(struct ib_uverbs_alloc_pd_resp), 1, 1, w_alloc_pd},
	{IB_USER_VERBS_CMD_DEALLOC_PD, "DEALLOC_PD",
	 sizeof(struct ib_uverbs_dealloc_pd), 0, 0, 1, w_dealloc_pd},
};

const struct sim_obj_type sim_type_pd = {
	.name = "PD",
	.uapi_id = UVERBS_OBJECT_PD,
	.size = sizeof(struct sim_pd),
	.order = SIM_ORDER_ROOTS,
	.methods = pd_methods,
	.nmethods = ARRAY_SIZE(pd_methods),
	.wcmds = pd_wcmds,
	.nwcmds = ARRAY_SIZE(pd_wcmds),
	.wcreates = {IB_USER_VERBS_CMD_ALLOC_PD},
};
SIM_OBJ_TYPE(sim_type_pd);
