// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * XRC domains: OPEN_XRCD (write only), CLOSE_XRCD as the XRCD_DESTROY ioctl
 * with the write as fallback, and OPEN_QP (write only), which opens an
 * XRC_TGT QP of a domain by number, possibly one another process made.
 */
#include <errno.h>

#include <rdma/ib_user_verbs.h>

#include "cmd_write.h"

#define XRCD_ATTR_NEEDED (IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS)
#define OPEN_QP_ATTR_NEEDED                                                    \
	(IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_XRCD | IBV_QP_OPEN_ATTR_TYPE)

static int fail(int err)
{
	errno = err;
	return err;
}

int ibv_cmd_open_xrcd(struct ibv_context *ctx, struct verbs_xrcd *xrcd,
		      const struct ibv_xrcd_init_attr *attr,
		      const struct ibv_udata *udata)
{
	struct ib_uverbs_open_xrcd_resp resp;
	struct ib_uverbs_open_xrcd req = {};
	int ret;

	if (attr->comp_mask >= IBV_XRCD_INIT_ATTR_RESERVED)
		return fail(EOPNOTSUPP);
	if ((attr->comp_mask & XRCD_ATTR_NEEDED) != XRCD_ATTR_NEEDED)
		return fail(EINVAL);
	req.fd = (uint32_t)attr->fd;
	req.oflags = (uint32_t)attr->oflags;
	ret = verbs_write_cmd(ctx, IB_USER_VERBS_CMD_OPEN_XRCD, &req,
			      sizeof(req), &resp, sizeof(resp), udata);
	if (ret)
		return ret;
	xrcd->xrcd.context = ctx;
	xrcd->comp_mask = 0;
	xrcd->handle = resp.xrcd_handle;
	return 0;
}

int ibv_cmd_close_xrcd(struct verbs_xrcd *xrcd)
{
	return verbs_cmd_destroy(xrcd->xrcd.context, VERBS_OP_IDX(close_xrcd),
				 UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_DESTROY,
				 xrcd->handle, IB_USER_VERBS_CMD_CLOSE_XRCD);
}

int ibv_cmd_open_qp(struct ibv_context *ctx, struct verbs_qp *vqp,
		    const struct ibv_qp_open_attr *attr,
		    const struct ibv_udata *udata)
{
	struct ib_uverbs_create_qp_resp resp;
	struct ib_uverbs_open_qp req = {};
	struct ibv_qp *qp = &vqp->qp;
	int ret;

	if (attr->comp_mask >= IBV_QP_OPEN_ATTR_RESERVED)
		return fail(EOPNOTSUPP);
	if ((attr->comp_mask & OPEN_QP_ATTR_NEEDED) != OPEN_QP_ATTR_NEEDED ||
	    !attr->xrcd || attr->xrcd->context != ctx)
		return fail(EINVAL);
	req.user_handle = (uintptr_t)vqp;
	/* the domain's handle travels where other creates put the PD's */
	req.pd_handle = verbs_get_xrcd(attr->xrcd)->handle;
	req.qpn = attr->qp_num;
	req.qp_type = (uint8_t)attr->qp_type;
	ret = verbs_write_cmd(ctx, IB_USER_VERBS_CMD_OPEN_QP, &req, sizeof(req),
			      &resp, sizeof(resp), udata);
	if (ret)
		return ret;
	qp->context = ctx;
	qp->qp_context = attr->comp_mask & IBV_QP_OPEN_ATTR_CONTEXT
				 ? attr->qp_context
				 : NULL;
	qp->pd = NULL;
	qp->send_cq = qp->recv_cq = NULL;
	qp->srq = NULL;
	qp->handle = resp.qp_handle;
	qp->qp_num = attr->qp_num;
	qp->qp_type = attr->qp_type;
	qp->state = IBV_QPS_UNKNOWN;
	verbs_init_events(&qp->mutex, &qp->cond, &qp->events_completed);
	vqp->comp_mask = VERBS_QP_XRCD;
	vqp->xrcd = attr->xrcd;
	return 0;
}
