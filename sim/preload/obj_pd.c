// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* UVERBS_OBJECT_PD (allocation is write-only, see write_cmd.c). */
#include "uapi.h"

static int pd_destroy(struct sim_call *c)
{
	return sim_obj_destroy(c->uv,
			       sim_attr_obj(c, UVERBS_ATTR_DESTROY_PD_HANDLE));
}

static const struct sim_attr_spec pd_destroy_attrs[] = {
	A_IDR(UVERBS_ATTR_DESTROY_PD_HANDLE, SIM_OBJ_PD, SA_DESTROY),
};

const struct sim_method sim_pd_methods[] = {
	SIM_METHOD(UVERBS_OBJECT_PD, "PD", UVERBS_METHOD_PD_DESTROY,
		   "PD_DESTROY", pd_destroy, pd_destroy_attrs, SIM_M_NEEDS_CTX),
};
const unsigned int sim_pd_nmethods = ARRAY_SIZE(sim_pd_methods);
