// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UVERBS_OBJECT_MW: memory windows as uverbs handles them. ALLOC_MW (write
 * 14): PD lookup, then mw_type 1 or 2 (else EINVAL), then the driver
 * (mlx5: its udata), the PD held; the response gives the handle and the
 * rkey. DEALLOC_MW (write 16) and MW_DESTROY (ioctl) free it whatever its
 * bind state: the old key then matches nothing. BIND_MW (write 15) was
 * never implemented (EOPNOTSUPP): binds are WQEs the HCA executes. A
 * driver without memory windows answers EOPNOTSUPP.
 */
#include "uapi.h"

#include <errno.h>
#include <stdio.h>

static void mw_release(struct sim_uvfile *uv, struct sim_obj *o)
{
	(void)uv;
	if (sim_driver()->dealloc_mw_key)
		sim_driver()->dealloc_mw_key(sim_mw(o));
	if (sim_mw(o)->pd) /* NULL: its create failed before taking it */
		sim_mw(o)->pd->obj.usecnt--;
}

static const struct sim_attr_spec mw_destroy_attrs[] = {
	A_IDR(UVERBS_ATTR_DESTROY_MW_HANDLE, sim_type_mw, SA_DESTROY),
};

static const struct sim_method mw_methods[] = {
	SIM_METHOD(UVERBS_OBJECT_MW, "MW", UVERBS_METHOD_MW_DESTROY,
		   "MW_DESTROY", sim_destroy_method, mw_destroy_attrs,
		   SIM_M_NEEDS_CTX),
};

/* A fresh key: the world's object counter as index (so no MR or other
 * window shares it), and a variant byte that moves on every window. */
static uint32_t new_mw_key(void)
{
	uint32_t idx;

	sim_shared_lock(sim.sh);
	do
		idx = (uint32_t)sim.sh->next_id++ & 0xffffff;
	while (idx <= 1); /* keys 0 and 0x1xx are no keys */
	sim_shared_unlock(sim.sh);
	return idx << 8 | ((idx * 7) & 0xff);
}

static int w_alloc_mw(struct sim_wcall *w)
{
	const struct ib_uverbs_alloc_mw *req = w->in;
	struct ib_uverbs_alloc_mw_resp r = {};
	struct sim_mw *mw = sim_mw(w->obj);
	struct sim_obj *pd;
	int err;

	if (!sim_driver()->rules->max_mw)
		return -EOPNOTSUPP;
	pd = sim_obj_get(w->uv, req->pd_handle, &sim_type_pd, &err);
	if (!pd)
		return err;
	if (req->mw_type != 1 && req->mw_type != 2)
		return -EINVAL;
	if (sim_driver()->alloc_mw) {
		err = sim_driver()->alloc_mw(w->uhw_in, w->uhw_in_len);
		if (err)
			return err;
	}
	mw->pd = sim_pd(pd);
	mw->pd->obj.usecnt++;
	mw->type = req->mw_type;
	mw->rkey = new_mw_key();
	r.mw_handle = mw->obj.handle;
	r.rkey = mw->rkey;
	err = sim_driver()->alloc_mw_key ? sim_driver()->alloc_mw_key(mw) : 0;
	if (err)
		return err;
	snprintf(w->note, sizeof(w->note), "handle=%u type=%u rkey=%#x",
		 mw->obj.handle, mw->type, mw->rkey);
	return sim_wc_out(w, &r, sizeof(r));
}

static int w_dealloc_mw(struct sim_wcall *w)
{
	return sim_wc_destroy(w, &sim_type_mw);
}

static const struct sim_wcmd mw_wcmds[] = {
	{IB_USER_VERBS_CMD_ALLOC_MW, "ALLOC_MW",
	 sizeof(struct ib_uverbs_alloc_mw),
	 sizeof(struct ib_uverbs_alloc_mw_resp), 1, 1, w_alloc_mw},
	{IB_USER_VERBS_CMD_DEALLOC_MW, "DEALLOC_MW",
	 sizeof(struct ib_uverbs_dealloc_mw), 0, 0, 1, w_dealloc_mw},
};

const struct sim_obj_type sim_type_mw = {
	.name = "MW",
	.uapi_id = UVERBS_OBJECT_MW,
	.size = sizeof(struct sim_mw),
	.order = SIM_ORDER_USERS,
	.destroy = mw_release,
	.methods = mw_methods,
	.nmethods = ARRAY_SIZE(mw_methods),
	.wcmds = mw_wcmds,
	.nwcmds = ARRAY_SIZE(mw_wcmds),
	.wcreates = {IB_USER_VERBS_CMD_ALLOC_MW},
};
SIM_OBJ_TYPE(sim_type_mw);
