// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory windows: ALLOC_MW is write-only, the destroy has an ioctl
 * (MW_DESTROY) with the write DEALLOC_MW as its fallback. Binding never
 * reaches the kernel: providers post bind WQEs themselves.
 */
#include <errno.h>
#include <stdlib.h>

#include <rdma/ib_user_verbs.h>

#include "cmd_write.h"

int ibv_cmd_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type,
		     struct ibv_mw *mw, const struct ibv_udata *udata)
{
	struct ib_uverbs_alloc_mw_resp resp;
	struct ib_uverbs_alloc_mw req = {
		.pd_handle = pd->handle,
		.mw_type = (uint8_t)type,
	};
	int ret;

	ret = verbs_write_cmd(pd->context, IB_USER_VERBS_CMD_ALLOC_MW, &req,
			      sizeof(req), &resp, sizeof(resp), udata);
	if (ret)
		return ret;
	mw->context = pd->context;
	mw->pd = pd;
	mw->handle = resp.mw_handle;
	mw->rkey = resp.rkey;
	mw->type = type;
	return 0;
}

int ibv_cmd_dealloc_mw(struct ibv_mw *mw)
{
	return verbs_cmd_destroy(mw->context, VERBS_OP_IDX(dealloc_mw),
				 UVERBS_OBJECT_MW, UVERBS_METHOD_MW_DESTROY,
				 mw->handle, IB_USER_VERBS_CMD_DEALLOC_MW);
}

struct ibv_mw *ibv_cmd_alloc_mw_obj(struct ibv_pd *pd, enum ibv_mw_type type)
{
	struct ibv_mw *mw = calloc(1, sizeof(*mw));
	int err;

	if (!mw)
		return NULL;
	err = ibv_cmd_alloc_mw(pd, type, mw, NULL);
	if (err) {
		free(mw);
		errno = err;
		return NULL;
	}
	return mw;
}

int ibv_cmd_dealloc_mw_obj(struct ibv_mw *mw)
{
	int err = ibv_cmd_dealloc_mw(mw);

	if (!err)
		free(mw);
	return err;
}
