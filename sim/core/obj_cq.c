// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UVERBS_OBJECT_CQ: create (ioctl CQ_CREATE, write CREATE_CQ and
 * EX_CREATE_CQ), resize and notify (write only), destroy (both). The core
 * checks what uverbs and both drivers check; the driver hook parses its
 * udata. Destroy while a QP or SRQ uses the CQ is EBUSY.
 */
#include "restrack.h"
#include "uapi.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define SIM_CQ_FLAGS                                                           \
	(IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION |                             \
	 IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN)

/* A create request, from either path; uin/uout: the driver udata. */
struct cq_args {
	uint64_t user_handle;
	uint32_t cqe, comp_vector, flags;
	struct sim_evq *channel, *async;
	struct sim_udata uhw;
};

SIM_HW_HOOKS(cq)

/* Fill in the framework's new CQ. */
static int cq_create(struct sim_uvfile *uv, const struct cq_args *a,
		     struct sim_cq *cq)
{
	const struct sim_driver_ops *d = sim_driver();

	if (a->comp_vector >= sim_num_comp_vectors())
		return -EINVAL;
	if (a->cqe > d->rules->max_cqe)
		return -EINVAL;
	if (a->flags & ~(uint32_t)SIM_CQ_FLAGS)
		return -EOPNOTSUPP;
	cq->user_handle = a->user_handle;
	cq->cqe = a->cqe;
	cq->comp_vector = a->comp_vector;
	cq->flags = a->flags;
	cq->channel = a->channel;
	if (cq->channel)
		sim_evq_get(cq->channel);
	return sim_obj_hw_create(uv, &cq->obj, a->async, &a->uhw);
}

/* The completion channel's events and hold go with the CQ. */
static void cq_destroy(struct sim_uvfile *uv, struct sim_obj *o)
{
	struct sim_cq *cq = sim_cq(o);

	(void)uv;
	if (cq->channel) {
		sim_evq_purge(cq->channel, o);
		sim_evq_put(cq->channel);
	}
}

/* ---- ioctl ---- */

static int cq_create_ioctl(struct sim_call *c)
{
	struct cq_args a = {
		.user_handle =
			sim_attr_u64(c, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 0),
		.cqe = (uint32_t)sim_attr_u64(c, UVERBS_ATTR_CREATE_CQ_CQE, 0),
		.comp_vector = (uint32_t)sim_attr_u64(
			c, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 0),
		.channel = sim_attr_evq(c, UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL),
		.async = sim_attr_evq(c, UVERBS_ATTR_CREATE_CQ_EVENT_FD),
	};
	struct sim_cq *cq =
		sim_cq(sim_attr_obj(c, UVERBS_ATTR_CREATE_CQ_HANDLE));
	uint64_t flags;
	int ret;

	if (sim_attr_flags(c, UVERBS_ATTR_CREATE_CQ_FLAGS, SIM_CQ_FLAGS,
			   &flags))
		return -EINVAL; /* FLAGS_IN: length or unknown bits */
	a.flags = (uint32_t)flags;
	ret = sim_attr_udata(c, &a.uhw);
	if (ret)
		return ret;
	ret = cq_create(c->uv, &a, cq);
	if (!ret)
		ret = sim_attr_copy_out(c, UVERBS_ATTR_CREATE_CQ_RESP_CQE,
					&cq->cqe, sizeof(cq->cqe));
	ret = sim_attr_udata_put(c, &a.uhw, ret);
	if (ret)
		return ret;
	snprintf(c->note, sizeof(c->note), "handle=%u cqe=%u", cq->obj.handle,
		 cq->cqe);
	return 0;
}

static const struct sim_attr_spec cq_create_attrs[] = {
	A_IDR(UVERBS_ATTR_CREATE_CQ_HANDLE, sim_type_cq, SA_NEW),
	A_U32(UVERBS_ATTR_CREATE_CQ_CQE, 1),
	A_U64(UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 1),
	A_FD_READ(UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL, 1),
	A_U32(UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 1),
	A_FLAGS(UVERBS_ATTR_CREATE_CQ_FLAGS, 0),
	A_OUT(UVERBS_ATTR_CREATE_CQ_RESP_CQE, 4, 4, 1),
	A_FD_READ(UVERBS_ATTR_CREATE_CQ_EVENT_FD, 0),
	A_IN_STRUCT(RDMA_DM_ATTR_CREATE_CQ_BUF_UMEM,
		    sizeof(struct rdma_dm_buffer_desc),
		    sizeof(struct rdma_dm_buffer_desc), 0),
	A_UHW_IN,
	A_UHW_OUT,
};

static const struct sim_attr_spec cq_destroy_attrs[] = {
	A_IDR(UVERBS_ATTR_DESTROY_CQ_HANDLE, sim_type_cq, SA_DESTROY),
	A_OUT(UVERBS_ATTR_DESTROY_CQ_RESP,
	      sizeof(struct ib_uverbs_destroy_cq_resp),
	      sizeof(struct ib_uverbs_destroy_cq_resp), 1),
};

#define CQ_M(m, n, f, a)                                                       \
	SIM_METHOD(UVERBS_OBJECT_CQ, "CQ", m, n, f, a, SIM_M_NEEDS_CTX)

static const struct sim_method cq_methods[] = {
	CQ_M(UVERBS_METHOD_CQ_CREATE, "CQ_CREATE", cq_create_ioctl,
	     cq_create_attrs),
	CQ_M(UVERBS_METHOD_CQ_DESTROY, "CQ_DESTROY", sim_destroy_method,
	     cq_destroy_attrs),
};

/* ---- write() ---- */

/* comp_channel < 0: none; else a completion channel fd of this context */
static int lookup_channel(struct sim_uvfile *uv, int32_t fd,
			  struct sim_evq **out)
{
	struct sim_fd *f;

	*out = NULL;
	if (fd < 0)
		return 0;
	f = sim_fd_get(fd);
	if (!f || f->kind != SIM_FD_EVENT || !f->evq->comp || f->evq->uv != uv)
		return -EBADF;
	*out = f->evq;
	return 0;
}

/* Create from a write request; resp: the core response (cq_handle, cqe). */
static int w_create(struct sim_wcall *w, struct cq_args *a, int32_t channel,
		    struct ib_uverbs_create_cq_resp *resp)
{
	struct sim_cq *cq = sim_cq(w->obj);
	int ret;

	if (a->comp_vector >= sim_num_comp_vectors())
		return -EINVAL; /* before the channel is looked up */
	ret = lookup_channel(w->uv, channel, &a->channel);
	if (ret)
		return ret;
	ret = sim_wc_udata(w, &a->uhw);
	if (ret)
		return ret;
	ret = cq_create(w->uv, a, cq);
	if (!ret) {
		resp->cq_handle = cq->obj.handle;
		resp->cqe = cq->cqe;
		snprintf(w->note, sizeof(w->note), "handle=%u cqe=%u",
			 resp->cq_handle, resp->cqe);
	}
	return sim_wc_udata_put(w, &a->uhw, ret);
}

static int w_create_cq(struct sim_wcall *w)
{
	const struct ib_uverbs_create_cq *req = w->in;
	struct cq_args a = {
		.user_handle = req->user_handle,
		.cqe = req->cqe,
		.comp_vector = req->comp_vector,
	};
	struct ib_uverbs_create_cq_resp r = {};
	int ret = w_create(w, &a, req->comp_channel, &r);

	return ret ? ret : sim_wc_out(w, &r, sizeof(r));
}

static int w_ex_create_cq(struct sim_wcall *w)
{
	const struct ib_uverbs_ex_create_cq *req = w->in;
	struct cq_args a = {
		.user_handle = req->user_handle,
		.cqe = req->cqe,
		.comp_vector = req->comp_vector,
		.flags = req->flags,
	};
	struct ib_uverbs_ex_create_cq_resp r = {};
	int ret;

	if (req->comp_mask || req->reserved)
		return -EINVAL;
	ret = w_create(w, &a, req->comp_channel, &r.base);
	r.response_length = w->out_len < sizeof(r) ? w->out_len : sizeof(r);
	return ret ? ret : sim_wc_out(w, &r, sizeof(r));
}

static struct sim_cq *w_cq(struct sim_wcall *w, uint32_t handle, int *err)
{
	return sim_cq(sim_obj_get(w->uv, handle, &sim_type_cq, err));
}

static int w_resize_cq(struct sim_wcall *w)
{
	const struct ib_uverbs_resize_cq *req = w->in;
	const struct sim_driver_ops *d = sim_driver();
	struct ib_uverbs_resize_cq_resp r = {};
	struct sim_udata u;
	struct sim_cq *cq;
	int ret;

	cq = w_cq(w, req->cq_handle, &ret);
	if (!cq)
		return ret;
	/* both drivers: 1..max_cqe */
	if (req->cqe < 1 || req->cqe > d->rules->max_cqe)
		return -EINVAL;
	ret = sim_wc_udata(w, &u);
	if (ret)
		return ret;
	if (d->resize_cq)
		ret = d->resize_cq(w->uv, cq, req->cqe, u.in, u.in_len, u.out,
				   u.out_len);
	else
		cq->cqe = req->cqe;
	r.cqe = cq->cqe;
	if (!ret)
		sim_res_touch(&cq->obj);
	if (!ret)
		ret = sim_wc_out(w, &r, sizeof(r));
	return sim_wc_udata_put(w, &u, ret);
}

/* The kernel ignores what the driver says: 0 for any live CQ. */
static int w_req_notify_cq(struct sim_wcall *w)
{
	const struct ib_uverbs_req_notify_cq *req = w->in;
	const struct sim_driver_ops *d = sim_driver();
	struct sim_cq *cq;
	int ret;

	cq = w_cq(w, req->cq_handle, &ret);
	if (!cq)
		return ret;
	if (d->req_notify_cq)
		d->req_notify_cq(cq, !!req->solicited_only);
	return 0;
}

/*
 * EX_MODIFY_CQ as ib_uverbs_ex_modify_cq: attr_mask 0 or reserved set →
 * EINVAL, bits past IB_CQ_MODERATE → EOPNOTSUPP, the CQ, then the
 * driver (none: EOPNOTSUPP; mlx5: cq_period past 12 bits → EINVAL).
 */
static int w_ex_modify_cq(struct sim_wcall *w)
{
	const struct ib_uverbs_ex_modify_cq *req = w->in;
	uint16_t max = sim_driver()->rules->max_cq_period;
	struct sim_cq *cq;
	int ret;

	if (!req->attr_mask || req->reserved)
		return -EINVAL;
	if (req->attr_mask > 1)
		return -EOPNOTSUPP;
	cq = w_cq(w, req->cq_handle, &ret);
	if (!cq)
		return ret;
	if (!max)
		return -EOPNOTSUPP;
	if (req->attr.cq_period > max)
		return -EINVAL;
	if (sim_driver()->modify_cq &&
	    (ret = sim_driver()->modify_cq(cq, req->attr.cq_count,
					   req->attr.cq_period)))
		return ret;
	cq->mod_count = req->attr.cq_count;
	cq->mod_period = req->attr.cq_period;
	snprintf(w->note, sizeof(w->note), "count=%u period=%u us",
		 cq->mod_count, cq->mod_period);
	return 0;
}

static int w_destroy_cq(struct sim_wcall *w)
{
	return sim_wc_destroy(w, &sim_type_cq);
}

static const struct sim_wcmd cq_wcmds[] = {
	{IB_USER_VERBS_CMD_CREATE_CQ, "CREATE_CQ",
	 sizeof(struct ib_uverbs_create_cq),
	 sizeof(struct ib_uverbs_create_cq_resp), 1, 1, w_create_cq},
	{IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_CQ,
	 "EX_CREATE_CQ", sizeof(struct ib_uverbs_ex_create_cq),
	 sizeof(struct ib_uverbs_ex_create_cq_resp), 0, 1, w_ex_create_cq},
	{IB_USER_VERBS_CMD_RESIZE_CQ, "RESIZE_CQ",
	 sizeof(struct ib_uverbs_resize_cq),
	 sizeof(struct ib_uverbs_resize_cq_resp), 1, 1, w_resize_cq},
	{IB_USER_VERBS_CMD_DESTROY_CQ, "DESTROY_CQ",
	 sizeof(struct ib_uverbs_destroy_cq),
	 sizeof(struct ib_uverbs_destroy_cq_resp), 1, 1, w_destroy_cq},
	{IB_USER_VERBS_CMD_REQ_NOTIFY_CQ, "REQ_NOTIFY_CQ",
	 sizeof(struct ib_uverbs_req_notify_cq), 0, 0, 1, w_req_notify_cq},
	{IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_MODIFY_CQ,
	 "EX_MODIFY_CQ", sizeof(struct ib_uverbs_ex_modify_cq), 0, 0, 1,
	 w_ex_modify_cq},
};

/* The destroy response is the two counters as the CQ keeps them. */
_Static_assert(offsetof(struct sim_cq, async_events_reported) ==
		       offsetof(struct sim_cq, comp_events_reported) + 4,
	       "ib_uverbs_destroy_cq_resp: comp, then async events");

const struct sim_obj_type sim_type_cq = {
	.name = "CQ",
	.uapi_id = UVERBS_OBJECT_CQ,
	.size = sizeof(struct sim_cq),
	.order = SIM_ORDER_QUEUES,
	.hw_create = cq_hw_create,
	.hw_destroy = cq_hw_destroy,
	.destroy = cq_destroy,
	.parts = SIM_QUEUE_PARTS(struct sim_cq, RDMA_DM_ATTR_CREATE_CQ_BUF_UMEM,
				 comp_events_reported,
				 sizeof(struct ib_uverbs_destroy_cq_resp)),
	.methods = cq_methods,
	.nmethods = ARRAY_SIZE(cq_methods),
	.wcmds = cq_wcmds,
	.nwcmds = ARRAY_SIZE(cq_wcmds),
	.wcreates = {IB_USER_VERBS_CMD_CREATE_CQ,
		     IB_USER_VERBS_CMD_FLAG_EXTENDED |
			     IB_USER_VERBS_EX_CMD_CREATE_CQ},
};
SIM_OBJ_TYPE(sim_type_cq);
