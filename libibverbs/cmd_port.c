// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* QUERY_PORT: ioctl first, the legacy write() form as fallback. */
#include <errno.h>
#include <string.h>

#include <rdma/ib_user_verbs.h>

#include "cmd_write.h"

/* The ioctl response: the legacy 40 bytes, then the newer fields. */
struct query_port_resp_ex {
	struct ib_uverbs_query_port_resp legacy;
	uint16_t port_cap_flags2;
	uint8_t reserved[2];
	uint32_t active_speed_ex; /* 6.1 headers: still reserved */
};
_Static_assert(sizeof(struct query_port_resp_ex) == 48,
	       "QUERY_PORT ioctl response is 48 bytes");

static void copy_port_attr(struct ibv_port_attr *attr,
			   const struct query_port_resp_ex *resp)
{
	const struct ib_uverbs_query_port_resp *r = &resp->legacy;

	memset(attr, 0, sizeof(*attr));
	attr->state = (enum ibv_port_state)r->state;
	attr->max_mtu = (enum ibv_mtu)r->max_mtu;
	attr->active_mtu = (enum ibv_mtu)r->active_mtu;
	attr->gid_tbl_len = (int)r->gid_tbl_len;
	attr->port_cap_flags = r->port_cap_flags;
	attr->max_msg_sz = r->max_msg_sz;
	attr->bad_pkey_cntr = r->bad_pkey_cntr;
	attr->qkey_viol_cntr = r->qkey_viol_cntr;
	attr->pkey_tbl_len = r->pkey_tbl_len;
	attr->lid = r->lid;
	attr->sm_lid = r->sm_lid;
	attr->lmc = r->lmc;
	attr->max_vl_num = r->max_vl_num;
	attr->sm_sl = r->sm_sl;
	attr->subnet_timeout = r->subnet_timeout;
	attr->init_type_reply = r->init_type_reply;
	attr->active_width = r->active_width;
	attr->active_speed = r->active_speed;
	attr->phys_state = r->phys_state;
	attr->link_layer = r->link_layer;
	attr->flags = r->flags;
	attr->port_cap_flags2 = resp->port_cap_flags2;
	attr->active_speed_ex = resp->active_speed_ex;
}

int ibv_cmd_query_port(struct ibv_context *ctx, uint8_t port_num,
		       struct ibv_port_attr *port_attr)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT,
			   0);
	struct query_port_resp_ex resp = {};
	struct ib_uverbs_query_port req;
	int ret;

	uverbs_attr_in_u64(cmd, UVERBS_ATTR_QUERY_PORT_PORT_NUM, port_num);
	uverbs_attr_out_ptr(cmd, UVERBS_ATTR_QUERY_PORT_RESP, &resp,
			    sizeof(resp));
	ret = verbs_execute_or_fallback(ctx, VERBS_OP_IDX(query_port), cmd);
	if (ret == VERBS_USE_WRITE) {
		memset(&req, 0, sizeof(req));
		req.port_num = port_num;
		ret = verbs_write_cmd(ctx, IB_USER_VERBS_CMD_QUERY_PORT, &req,
				      sizeof(req), &resp.legacy,
				      sizeof(resp.legacy), NULL);
	}
	if (ret)
		return ret;
	copy_port_attr(port_attr, &resp);
	return 0;
}
