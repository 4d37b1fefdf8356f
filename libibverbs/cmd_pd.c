// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Protection domains: ALLOC_PD is write-only, destroy has an ioctl. */
#include <rdma/ib_user_verbs.h>

#include "cmd_write.h"

int ibv_cmd_alloc_pd(struct ibv_context *ctx, struct ibv_pd *pd,
		     const struct ibv_udata *udata)
{
	struct ib_uverbs_alloc_pd_resp resp;
	struct ib_uverbs_alloc_pd req;
	int ret;

	ret = verbs_write_cmd(ctx, IB_USER_VERBS_CMD_ALLOC_PD, &req,
			      sizeof(req), &resp, sizeof(resp), udata);
	if (ret)
		return ret;
	pd->context = ctx;
	pd->handle = resp.pd_handle;
	return 0;
}

int ibv_cmd_dealloc_pd(struct ibv_pd *pd)
{
	return verbs_cmd_destroy(pd->context, VERBS_OP_IDX(dealloc_pd),
				 UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY,
				 pd->handle, IB_USER_VERBS_CMD_DEALLOC_PD);
}
