// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Address handles: CREATE_AH exists only as a write() command (for RoCE
 * the kernel resolves the destination MAC and returns it in the driver's
 * response); destroy is the AH_DESTROY ioctl with DESTROY_AH as fallback.
 */
#include <string.h>

#include <rdma/ib_user_verbs.h>

#include "cmd_write.h"

static void ah_attr_to_kern(struct ib_uverbs_ah_attr *k,
			    const struct ibv_ah_attr *a)
{
	memcpy(k->grh.dgid, a->grh.dgid.raw, sizeof(k->grh.dgid));
	k->grh.flow_label = a->grh.flow_label;
	k->grh.sgid_index = a->grh.sgid_index;
	k->grh.hop_limit = a->grh.hop_limit;
	k->grh.traffic_class = a->grh.traffic_class;
	k->dlid = a->dlid;
	k->sl = a->sl;
	k->src_path_bits = a->src_path_bits;
	k->static_rate = a->static_rate;
	k->is_global = a->is_global;
	k->port_num = a->port_num;
}

int ibv_cmd_create_ah(struct ibv_pd *pd, struct ibv_ah *ah,
		      struct ibv_ah_attr *attr, const struct ibv_udata *udata)
{
	struct ib_uverbs_create_ah req = {
		.user_handle = (uintptr_t)ah,
		.pd_handle = pd->handle,
	};
	struct ib_uverbs_create_ah_resp resp;
	int ret;

	ah_attr_to_kern(&req.attr, attr);
	ret = verbs_write_cmd(pd->context, IB_USER_VERBS_CMD_CREATE_AH, &req,
			      sizeof(req), &resp, sizeof(resp), udata);
	if (ret)
		return ret;
	ah->context = pd->context;
	ah->pd = pd;
	ah->handle = resp.ah_handle;
	return 0;
}

int ibv_cmd_destroy_ah(struct ibv_ah *ah)
{
	return verbs_cmd_destroy(ah->context, VERBS_OP_IDX(destroy_ah),
				 UVERBS_OBJECT_AH, UVERBS_METHOD_AH_DESTROY,
				 ah->handle, IB_USER_VERBS_CMD_DESTROY_AH);
}
