// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UVERBS_OBJECT_SRQ: create (ioctl SRQ_CREATE, write CREATE_SRQ and
 * CREATE_XSRQ), modify and query (write), destroy (both; EBUSY while a QP
 * uses it). Basic, XRC and tag-matching SRQs are modelled (an XRC SRQ
 * holds its XRCD and its CQ, its number goes back in the response; a TM
 * SRQ holds its CQ and carries max_num_tags to the driver, which alone
 * decides whether the device can: mlx5 EINVAL past its tag list, rxe
 * EOPNOTSUPP for any type but basic).
 * The limit event (SRQ_LIMIT_REACHED) is raised by whoever consumes the
 * WQEs: the driver's engine calls sim_async_event and clears srq->limit.
 */
#include "uapi.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define SIM_SRQ_MAX_WR 1u
#define SIM_SRQ_LIMIT  2u

struct srq_args {
	uint64_t user_handle;
	uint32_t type, max_wr, max_sge, limit;
	uint32_t max_num_tags; /* TM */
	struct sim_pd *pd;
	struct sim_xrcd *xrcd; /* XRC */
	struct sim_cq *cq;     /* XRC, TM */
	struct sim_evq *async;
	struct sim_udata uhw;
};

SIM_HW_HOOKS(srq)

/* Fill in the framework's new SRQ. */
static int srq_create(struct sim_uvfile *uv, const struct srq_args *a,
		      struct sim_srq *srq)
{
	const struct sim_driver_ops *d = sim_driver();

	if (a->type != IB_UVERBS_SRQT_BASIC &&
	    !(a->type == IB_UVERBS_SRQT_XRC && d->xrc) &&
	    !(a->type == IB_UVERBS_SRQT_TM && d->tm_srq))
		return -EOPNOTSUPP;
	if (a->max_wr > d->rules->max_srq_wr ||
	    a->max_sge > d->rules->max_srq_sge)
		return -EINVAL;
	srq->srq_type = (uint8_t)a->type;
	srq->user_handle = a->user_handle;
	srq->pd = a->pd;
	srq->max_wr = a->max_wr;
	srq->max_sge = a->max_sge;
	srq->limit = a->limit;
	srq->max_num_tags = a->max_num_tags;
	/* device-wide: an XRC SRQ is named by it in every process */
	srq->srqn = sim_shared_number(sim.sh);
	srq->pd->obj.usecnt++;
	if (a->type == IB_UVERBS_SRQT_XRC) {
		srq->xrcd = a->xrcd;
		srq->xrcd->obj.usecnt++;
	}
	if (a->type == IB_UVERBS_SRQT_XRC || a->type == IB_UVERBS_SRQT_TM) {
		srq->cq = a->cq;
		srq->cq->obj.usecnt++;
	}
	return sim_obj_hw_create(uv, &srq->obj, a->async, &a->uhw);
}

/* After the driver's destroy_srq: the SRQ's holds. */
static void srq_destroy(struct sim_uvfile *uv, struct sim_obj *o)
{
	struct sim_srq *srq = sim_srq(o);

	(void)uv;
	if (srq->pd) /* NULL: its create failed before taking it */
		srq->pd->obj.usecnt--;
	if (srq->xrcd)
		srq->xrcd->obj.usecnt--;
	if (srq->cq)
		srq->cq->obj.usecnt--;
}

/* ---- ioctl ---- */

static int srq_create_ioctl(struct sim_call *c)
{
	struct srq_args a = {
		.user_handle =
			sim_attr_u64(c, UVERBS_ATTR_CREATE_SRQ_USER_HANDLE, 0),
		.type = (uint32_t)sim_attr_u64(c, UVERBS_ATTR_CREATE_SRQ_TYPE,
					       0),
		.max_wr = (uint32_t)sim_attr_u64(
			c, UVERBS_ATTR_CREATE_SRQ_MAX_WR, 0),
		.max_sge = (uint32_t)sim_attr_u64(
			c, UVERBS_ATTR_CREATE_SRQ_MAX_SGE, 0),
		.limit = (uint32_t)sim_attr_u64(c, UVERBS_ATTR_CREATE_SRQ_LIMIT,
						0),
		.pd = sim_pd(sim_attr_obj(c, UVERBS_ATTR_CREATE_SRQ_PD_HANDLE)),
		.async = sim_attr_evq(c, UVERBS_ATTR_CREATE_SRQ_EVENT_FD),
	};
	struct sim_srq *srq =
		sim_srq(sim_attr_obj(c, UVERBS_ATTR_CREATE_SRQ_HANDLE));
	int ret;

	switch (a.type) {
	case IB_UVERBS_SRQT_BASIC:
		break;
	case IB_UVERBS_SRQT_XRC:
		a.xrcd = sim_xrcd(
			sim_attr_obj(c, UVERBS_ATTR_CREATE_SRQ_XRCD_HANDLE));
		a.cq = sim_cq(sim_attr_obj(c, UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE));
		if (!a.xrcd || !a.cq)
			return -ENOENT;
		break;
	case IB_UVERBS_SRQT_TM:
		/* both are optional in the spec, required for TM (ENOENT) */
		a.cq = sim_cq(
			sim_attr_obj(c, UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE));
		if (!a.cq || !sim_attr(c, UVERBS_ATTR_CREATE_SRQ_MAX_NUM_TAGS))
			return -ENOENT;
		a.max_num_tags = (uint32_t)sim_attr_u64(
			c, UVERBS_ATTR_CREATE_SRQ_MAX_NUM_TAGS, 0);
		break;
	default:
		return -EINVAL;
	}
	ret = sim_attr_udata(c, &a.uhw);
	if (ret)
		return ret;
	ret = srq_create(c->uv, &a, srq);
	if (!ret)
		ret = sim_attr_copy_out(c, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR,
					&srq->max_wr, sizeof(srq->max_wr));
	if (!ret)
		ret = sim_attr_copy_out(c, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE,
					&srq->max_sge, sizeof(srq->max_sge));
	if (!ret && a.type == IB_UVERBS_SRQT_XRC)
		ret = sim_attr_copy_out(c, UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM,
					&srq->srqn, sizeof(srq->srqn));
	ret = sim_attr_udata_put(c, &a.uhw, ret);
	if (ret)
		return ret;
	snprintf(c->note, sizeof(c->note), "handle=%u max_wr=%u",
		 srq->obj.handle, srq->max_wr);
	return 0;
}

static const struct sim_attr_spec srq_create_attrs[] = {
	A_IDR(UVERBS_ATTR_CREATE_SRQ_HANDLE, sim_type_srq, SA_NEW),
	A_IDR(UVERBS_ATTR_CREATE_SRQ_PD_HANDLE, sim_type_pd, SA_READ),
	A_IDR_OPT(UVERBS_ATTR_CREATE_SRQ_XRCD_HANDLE, sim_type_xrcd, SA_READ),
	A_IDR_OPT(UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE, sim_type_cq, SA_READ),
	A_U64(UVERBS_ATTR_CREATE_SRQ_USER_HANDLE, 1),
	A_U32(UVERBS_ATTR_CREATE_SRQ_MAX_WR, 1),
	A_U32(UVERBS_ATTR_CREATE_SRQ_MAX_SGE, 1),
	A_U32(UVERBS_ATTR_CREATE_SRQ_LIMIT, 1),
	A_U32(UVERBS_ATTR_CREATE_SRQ_MAX_NUM_TAGS, 0),
	A_CONST(UVERBS_ATTR_CREATE_SRQ_TYPE, 1),
	A_FD_READ(UVERBS_ATTR_CREATE_SRQ_EVENT_FD, 0),
	A_OUT(UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR, 4, 4, 1),
	A_OUT(UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE, 4, 4, 1),
	A_OUT(UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM, 4, 4, 0),
	A_UHW_IN,
	A_UHW_OUT,
};

static const struct sim_attr_spec srq_destroy_attrs[] = {
	A_IDR(UVERBS_ATTR_DESTROY_SRQ_HANDLE, sim_type_srq, SA_DESTROY),
	A_OUT(UVERBS_ATTR_DESTROY_SRQ_RESP,
	      sizeof(struct ib_uverbs_destroy_srq_resp),
	      sizeof(struct ib_uverbs_destroy_srq_resp), 1),
};

#define SRQ_M(m, n, f, a)                                                      \
	SIM_METHOD(UVERBS_OBJECT_SRQ, "SRQ", m, n, f, a, SIM_M_NEEDS_CTX)

static const struct sim_method srq_methods[] = {
	SRQ_M(UVERBS_METHOD_SRQ_CREATE, "SRQ_CREATE", srq_create_ioctl,
	      srq_create_attrs),
	SRQ_M(UVERBS_METHOD_SRQ_DESTROY, "SRQ_DESTROY", sim_destroy_method,
	      srq_destroy_attrs),
};

/* ---- write() ---- */

static struct sim_srq *w_srq(struct sim_wcall *w, uint32_t handle, int *err)
{
	return sim_srq(sim_obj_get(w->uv, handle, &sim_type_srq, err));
}

/* CREATE_SRQ is CREATE_XSRQ of a basic SRQ. */
static int w_create(struct sim_wcall *w, const struct ib_uverbs_create_xsrq *x)
{
	struct ib_uverbs_create_srq_resp r = {};
	struct sim_srq *srq = sim_srq(w->obj);
	struct srq_args a = {
		.user_handle = x->user_handle,
		.type = x->srq_type,
		.max_wr = x->max_wr,
		.max_sge = x->max_sge,
		.limit = x->srq_limit,
	};
	int err, ret;

	if (x->srq_type == IB_UVERBS_SRQT_XRC) {
		a.xrcd = sim_xrcd(sim_obj_get(w->uv, x->xrcd_handle,
					      &sim_type_xrcd, &err));
		a.cq = sim_cq(
			sim_obj_get(w->uv, x->cq_handle, &sim_type_cq, &err));
		if (!a.xrcd || !a.cq)
			return -EINVAL;
	}
	if (x->srq_type == IB_UVERBS_SRQT_TM) {
		a.cq = sim_cq(
			sim_obj_get(w->uv, x->cq_handle, &sim_type_cq, &err));
		if (!a.cq)
			return err;
		a.max_num_tags = x->max_num_tags;
	}
	a.pd = sim_pd(sim_obj_get(w->uv, x->pd_handle, &sim_type_pd, &err));
	if (!a.pd)
		return err;
	ret = sim_wc_udata(w, &a.uhw);
	if (ret)
		return ret;
	ret = srq_create(w->uv, &a, srq);
	if (!ret) {
		r.srq_handle = srq->obj.handle;
		r.max_wr = srq->max_wr;
		r.max_sge = srq->max_sge;
		if (srq->xrcd)
			r.srqn = srq->srqn;
		snprintf(w->note, sizeof(w->note), "handle=%u max_wr=%u",
			 r.srq_handle, r.max_wr);
		ret = sim_wc_out(w, &r, sizeof(r));
	}
	return sim_wc_udata_put(w, &a.uhw, ret);
}

static int w_create_srq(struct sim_wcall *w)
{
	const struct ib_uverbs_create_srq *req = w->in;
	struct ib_uverbs_create_xsrq x = {
		.user_handle = req->user_handle,
		.srq_type = IB_UVERBS_SRQT_BASIC,
		.pd_handle = req->pd_handle,
		.max_wr = req->max_wr,
		.max_sge = req->max_sge,
		.srq_limit = req->srq_limit,
	};

	return w_create(w, &x);
}

static int w_create_xsrq(struct sim_wcall *w)
{
	return w_create(w, w->in);
}

static int w_modify_srq(struct sim_wcall *w)
{
	const struct ib_uverbs_modify_srq *req = w->in;
	const struct sim_driver_ops *d = sim_driver();
	int ret;
	struct sim_srq *srq = w_srq(w, req->srq_handle, &ret);
	uint32_t max_wr = srq ? srq->max_wr : 0;

	if (!srq)
		return ret;
	if (req->attr_mask & SIM_SRQ_MAX_WR) {
		if (!d->rules->srq_resize)
			return -EINVAL; /* mlx5: SRQs do not resize */
		if (!req->max_wr || req->max_wr > d->rules->max_srq_wr ||
		    req->max_wr < srq->limit)
			return -EINVAL;
		max_wr = req->max_wr;
	}
	/* the limit must fit the (new) queue */
	if ((req->attr_mask & SIM_SRQ_LIMIT) && req->srq_limit > max_wr)
		return -EINVAL;
	ret = d->modify_srq
		      ? d->modify_srq(w->uv, srq, req->max_wr, req->srq_limit,
				      req->attr_mask, w->uhw_in, w->uhw_in_len)
		      : 0;
	if (ret)
		return ret;
	if (req->attr_mask & SIM_SRQ_MAX_WR && !d->modify_srq)
		srq->max_wr = max_wr;
	if (req->attr_mask & SIM_SRQ_LIMIT)
		srq->limit = req->srq_limit;
	return 0;
}

static int w_query_srq(struct sim_wcall *w)
{
	const struct ib_uverbs_query_srq *req = w->in;
	struct ib_uverbs_query_srq_resp r = {};
	int ret;
	struct sim_srq *srq = w_srq(w, req->srq_handle, &ret);

	if (!srq)
		return ret;
	r.max_wr = srq->max_wr;
	r.max_sge = srq->max_sge;
	r.srq_limit = srq->limit;
	return sim_wc_out(w, &r, sizeof(r));
}

static int w_destroy_srq(struct sim_wcall *w)
{
	return sim_wc_destroy(w, &sim_type_srq);
}

static const struct sim_wcmd srq_wcmds[] = {
	{IB_USER_VERBS_CMD_CREATE_SRQ, "CREATE_SRQ",
	 sizeof(struct ib_uverbs_create_srq),
	 sizeof(struct ib_uverbs_create_srq_resp), 1, 1, w_create_srq},
	{IB_USER_VERBS_CMD_CREATE_XSRQ, "CREATE_XSRQ",
	 sizeof(struct ib_uverbs_create_xsrq),
	 sizeof(struct ib_uverbs_create_srq_resp), 1, 1, w_create_xsrq},
	{IB_USER_VERBS_CMD_MODIFY_SRQ, "MODIFY_SRQ",
	 sizeof(struct ib_uverbs_modify_srq), 0, 0, 1, w_modify_srq},
	{IB_USER_VERBS_CMD_QUERY_SRQ, "QUERY_SRQ",
	 sizeof(struct ib_uverbs_query_srq),
	 sizeof(struct ib_uverbs_query_srq_resp), 1, 1, w_query_srq},
	{IB_USER_VERBS_CMD_POST_SRQ_RECV, "POST_SRQ_RECV",
	 sizeof(struct ib_uverbs_post_srq_recv),
	 sizeof(struct ib_uverbs_post_srq_recv_resp), 1, 1,
	 sim_w_post_srq_recv},
	{IB_USER_VERBS_CMD_DESTROY_SRQ, "DESTROY_SRQ",
	 sizeof(struct ib_uverbs_destroy_srq),
	 sizeof(struct ib_uverbs_destroy_srq_resp), 1, 1, w_destroy_srq},
};

const struct sim_obj_type sim_type_srq = {
	.name = "SRQ",
	.uapi_id = UVERBS_OBJECT_SRQ,
	.size = sizeof(struct sim_srq),
	.order = SIM_ORDER_SRQ,
	.hw_create = srq_hw_create,
	.hw_destroy = srq_hw_destroy,
	.destroy = srq_destroy,
	.parts = {.async = offsetof(struct sim_srq, async),
		  .events = offsetof(struct sim_srq, events_reported),
		  .events_len = sizeof(struct ib_uverbs_destroy_srq_resp)},
	.methods = srq_methods,
	.nmethods = ARRAY_SIZE(srq_methods),
	.wcmds = srq_wcmds,
	.nwcmds = ARRAY_SIZE(srq_wcmds),
	.wcreates = {IB_USER_VERBS_CMD_CREATE_SRQ,
		     IB_USER_VERBS_CMD_CREATE_XSRQ},
};
SIM_OBJ_TYPE(sim_type_srq);
