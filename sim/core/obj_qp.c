// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UVERBS_OBJECT_QP: create (ioctl QP_CREATE, write CREATE_QP and
 * EX_CREATE_QP), query (write), destroy (both). Modify is qp_modify.c.
 * RC, UC, UD, (with a driver that has XRC) XRC_INI and XRC_TGT QPs and
 * mlx5's DC driver QPs are modelled; RAW_PACKET is not (EOPNOTSUPP once the
 * uverbs checks passed). An XRC_INI QP has a send CQ only and no receive queue;
 * an XRC_TGT QP has its XRCD and nothing else: no PD, CQs, SRQ or caps (the
 * kernel creates it for itself; its receives land on the XRC SRQ each
 * packet names). OPEN_QP handles of it are obj_xrcd.c's. QP numbers are unique
 * per device across every process of the world (sim_shared).
 */
#include "uapi.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* uverbs' accepted create flags (ioctl FLAGS / EX_CREATE_QP) */
#define IB_QP_IOCTL_FLAGS                                                     \
	(IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK |                        \
	 IB_UVERBS_QP_CREATE_SCATTER_FCS |                                     \
	 IB_UVERBS_QP_CREATE_CVLAN_STRIPPING |                                 \
	 IB_UVERBS_QP_CREATE_PCI_WRITE_END_PADDING |                           \
	 IB_UVERBS_QP_CREATE_SQ_SIG_ALL)
#define IB_QP_CREATE_SOURCE_QPN (1u << 10)
#define IB_QP_WRITE_FLAGS                                                     \
	((1u << 1) | (1u << 2) | (1u << 3) | (1u << 4) | (1u << 8) |           \
	 (1u << 9) | IB_QP_CREATE_SOURCE_QPN | (1u << 11))

struct qp_args {
	uint64_t user_handle;
	uint32_t type, create_flags;
	uint8_t sq_sig_all;
	struct sim_pd *pd;
	struct sim_cq *send_cq, *recv_cq;
	struct sim_srq *srq;
	struct sim_xrcd *xrcd; /* XRC_TGT */
	struct sim_qp_cap cap;
	struct sim_evq *async;
	struct sim_udata uhw;
};

SIM_HW_HOOKS(qp)

static uint32_t alloc_qpn(void)
{
	uint32_t n;

	sim_shared_lock(sim.sh);
	n = sim.sh->next_qpn++;
	sim_shared_unlock(sim.sh);
	return (sim_driver()->rules->qpn_base + n) & 0xffffff;
}

/* The object head of an optional holder (XRC QPs lack some). */
#define OBJ_OF(p) ((p) ? &(p)->obj : NULL)

static void hold(struct sim_obj *o)
{
	if (o)
		o->usecnt++;
}

static void release(struct sim_obj *o)
{
	if (o)
		o->usecnt--;
}

/* The uAPI's QP types (enum ib_uverbs_qp_type). */
static int qp_type_known(uint32_t type)
{
	switch (type) {
	case IB_UVERBS_QPT_RC:
	case IB_UVERBS_QPT_UC:
	case IB_UVERBS_QPT_UD:
	case IB_UVERBS_QPT_RAW_PACKET:
	case IB_UVERBS_QPT_XRC_INI:
	case IB_UVERBS_QPT_XRC_TGT:
	case IB_UVERBS_QPT_DRIVER:
		return 1;
	}
	return 0;
}

static int qp_type_modelled(uint32_t type)
{
	if (type == IB_QPT_XRC_INI || type == IB_QPT_XRC_TGT)
		return sim_driver()->xrc;
	if (type == IB_QPT_DRIVER)
		return sim_driver()->rules->driver_qp; /* mlx5's DC */
	return type >= IB_QPT_RC && type <= IB_QPT_UD;
}

/* The CQs a type needs: XRC_INI sends only, XRC_TGT has none. */
static int qp_cqs_ok(const struct qp_args *a)
{
	if (a->type == IB_QPT_XRC_TGT)
		return 1;
	if (a->type == IB_QPT_XRC_INI)
		return !!a->send_cq;
	return a->send_cq && a->recv_cq;
}

/* Fill in the framework's new QP. */
static int qp_create(struct sim_uvfile *uv, const struct qp_args *a,
		     struct sim_qp *qp)
{
	const struct sim_driver_ops *d = sim_driver();

	if (!qp_type_known(a->type))
		return -EINVAL;
	if (!qp_type_modelled(a->type))
		return -EOPNOTSUPP; /* RAW_PACKET: not modelled */
	if (a->create_flags & ~d->rules->qp_create_flags)
		return -EOPNOTSUPP;
	if (!qp_cqs_ok(a))
		return -EINVAL;
	if (!a->srq && a->type != IB_QPT_XRC_TGT &&
	    a->cap.max_recv_wr > d->rules->max_qp_wr)
		return -EINVAL; /* both drivers size the RQ against this */
	qp->qp_type = (uint8_t)a->type;
	qp->sq_sig_all = a->sq_sig_all;
	qp->create_flags = a->create_flags;
	qp->user_handle = a->user_handle;
	qp->pd = a->pd;
	qp->send_cq = a->send_cq;
	qp->recv_cq = a->recv_cq;
	qp->srq = a->srq;
	qp->xrcd = a->xrcd;
	qp->attr.qp_state = IB_QPS_RESET;
	qp->attr.cap = a->cap;
	if (a->type == IB_QPT_XRC_TGT)
		memset(&qp->attr.cap, 0, sizeof(qp->attr.cap));
	if (a->type == IB_QPT_XRC_INI)
		qp->attr.cap.max_recv_wr = qp->attr.cap.max_recv_sge = 0;
	qp->qpn = alloc_qpn();
	hold(OBJ_OF(qp->pd));
	hold(OBJ_OF(qp->send_cq));
	hold(OBJ_OF(qp->recv_cq));
	hold(OBJ_OF(qp->srq));
	hold(OBJ_OF(qp->xrcd));
	return sim_obj_hw_create(uv, &qp->obj, a->async, &a->uhw);
}

/* After the driver's destroy_qp: the QP's multicast, domain and holds. */
static void qp_destroy(struct sim_uvfile *uv, struct sim_obj *o)
{
	struct sim_qp *qp = sim_qp(o);

	if (o->live && qp->qp_type == IB_QPT_UD)
		sim_mcast_qp_gone(uv->dev, qp->qpn);
	if (qp->qp_type == IB_QPT_XRC_TGT)
		sim_xrc_tgt_put(qp); /* the last handle anywhere takes it */
	release(OBJ_OF(qp->pd));
	release(OBJ_OF(qp->send_cq));
	release(OBJ_OF(qp->recv_cq));
	release(OBJ_OF(qp->srq));
	release(OBJ_OF(qp->xrcd));
	release(OBJ_OF(qp->real));
}

static void cap_to_user(const struct sim_qp_cap *c, struct ib_uverbs_qp_cap *u)
{
	u->max_send_wr = c->max_send_wr;
	u->max_recv_wr = c->max_recv_wr;
	u->max_send_sge = c->max_send_sge;
	u->max_recv_sge = c->max_recv_sge;
	u->max_inline_data = c->max_inline_data;
}

/* ---- ioctl ---- */

/* The type rules of the ioctl handler, before any object is made. */
static int ioctl_type_check(struct sim_call *c, uint64_t type)
{
	switch (type) {
	case IB_UVERBS_QPT_XRC_TGT:
		if (sim_attr(c, UVERBS_ATTR_CREATE_QP_PD_HANDLE) ||
		    sim_attr(c, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE) ||
		    sim_attr(c, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE))
			return -EINVAL;
		return sim_attr(c, UVERBS_ATTR_CREATE_QP_XRCD_HANDLE) ? 0
								      : -ENOENT;
	case IB_UVERBS_QPT_RAW_PACKET:
		return sim_has_cap(CAP_NET_RAW) ? 0 : -EPERM;
	}
	return qp_type_known((uint32_t)type) ? 0 : -EINVAL;
}

static int ioctl_args(struct sim_call *c, struct qp_args *a)
{
	struct ib_uverbs_qp_cap cap;
	uint64_t flags;
	int ret;

	a->type = (uint32_t)sim_attr_u64(c, UVERBS_ATTR_CREATE_QP_TYPE, 0);
	ret = ioctl_type_check(c,
			       sim_attr_u64(c, UVERBS_ATTR_CREATE_QP_TYPE, 0));
	if (ret)
		return ret;
	if (a->type != IB_UVERBS_QPT_XRC_TGT &&
	    sim_attr(c, UVERBS_ATTR_CREATE_QP_XRCD_HANDLE))
		return -EINVAL;
	a->xrcd = sim_xrcd(sim_attr_obj(c, UVERBS_ATTR_CREATE_QP_XRCD_HANDLE));
	a->pd = sim_pd(sim_attr_obj(c, UVERBS_ATTR_CREATE_QP_PD_HANDLE));
	if (!a->pd && !a->xrcd)
		return -ENOENT; /* uverbs_attr_get_obj of an absent attr */
	a->send_cq =
		sim_cq(sim_attr_obj(c, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE));
	a->recv_cq =
		sim_cq(sim_attr_obj(c, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE));
	a->srq = sim_srq(sim_attr_obj(c, UVERBS_ATTR_CREATE_QP_SRQ_HANDLE));
	if (a->srq && (a->srq->srq_type == IB_UVERBS_SRQT_XRC ||
		       a->type == IB_UVERBS_QPT_XRC_INI))
		return -EINVAL;
	if (sim_attr_flags(c, UVERBS_ATTR_CREATE_QP_FLAGS, IB_QP_IOCTL_FLAGS,
			   &flags))
		return -EINVAL;
	a->sq_sig_all = !!(flags & IB_UVERBS_QP_CREATE_SQ_SIG_ALL);
	a->create_flags =
		(uint32_t)(flags & ~(uint64_t)IB_UVERBS_QP_CREATE_SQ_SIG_ALL);
	if (sim_attr(c, UVERBS_ATTR_CREATE_QP_SOURCE_QPN)) {
		if (!sim_has_cap(CAP_NET_RAW))
			return -EPERM;
		a->create_flags |= IB_QP_CREATE_SOURCE_QPN;
	}
	sim_attr_copy_in(c, UVERBS_ATTR_CREATE_QP_CAP, &cap, sizeof(cap));
	a->cap = (struct sim_qp_cap){cap.max_send_wr, cap.max_recv_wr,
				     cap.max_send_sge, cap.max_recv_sge,
				     cap.max_inline_data};
	a->user_handle = sim_attr_u64(c, UVERBS_ATTR_CREATE_QP_USER_HANDLE, 0);
	a->async = sim_attr_evq(c, UVERBS_ATTR_CREATE_QP_EVENT_FD);
	return 0;
}

static int qp_create_ioctl(struct sim_call *c)
{
	struct sim_qp *qp =
		sim_qp(sim_attr_obj(c, UVERBS_ATTR_CREATE_QP_HANDLE));
	struct ib_uverbs_qp_cap cap;
	struct qp_args a = {};
	int ret;

	ret = ioctl_args(c, &a);
	if (ret)
		return ret;
	ret = sim_attr_udata(c, &a.uhw);
	if (ret)
		return ret;
	ret = qp_create(c->uv, &a, qp);
	if (!ret) {
		cap_to_user(&qp->attr.cap, &cap);
		ret = sim_attr_copy_out(c, UVERBS_ATTR_CREATE_QP_RESP_CAP, &cap,
					sizeof(cap));
	}
	if (!ret)
		ret = sim_attr_copy_out(c, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM,
					&qp->qpn, sizeof(qp->qpn));
	ret = sim_attr_udata_put(c, &a.uhw, ret);
	if (ret)
		return ret;
	snprintf(c->note, sizeof(c->note), "handle=%u qpn=%#x type=%u",
		 qp->obj.handle, qp->qpn, qp->qp_type);
	return 0;
}

static const struct sim_attr_spec qp_create_attrs[] = {
	A_IDR(UVERBS_ATTR_CREATE_QP_HANDLE, sim_type_qp, SA_NEW),
	A_IDR_OPT(UVERBS_ATTR_CREATE_QP_XRCD_HANDLE, sim_type_xrcd, SA_READ),
	A_IDR_OPT(UVERBS_ATTR_CREATE_QP_PD_HANDLE, sim_type_pd, SA_READ),
	A_IDR_OPT(UVERBS_ATTR_CREATE_QP_SRQ_HANDLE, sim_type_srq, SA_READ),
	A_IDR_OPT(UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE, sim_type_cq, SA_READ),
	A_IDR_OPT(UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE, sim_type_cq, SA_READ),
	A_U64(UVERBS_ATTR_CREATE_QP_USER_HANDLE, 1),
	A_IN_STRUCT(UVERBS_ATTR_CREATE_QP_CAP, sizeof(struct ib_uverbs_qp_cap),
		    sizeof(struct ib_uverbs_qp_cap), 1),
	A_CONST(UVERBS_ATTR_CREATE_QP_TYPE, 1),
	A_FLAGS(UVERBS_ATTR_CREATE_QP_FLAGS, 0),
	A_U32(UVERBS_ATTR_CREATE_QP_SOURCE_QPN, 0),
	A_FD_READ(UVERBS_ATTR_CREATE_QP_EVENT_FD, 0),
	A_IN_STRUCT(RDMA_DM_ATTR_CREATE_QP_BUF_UMEM,
		    sizeof(struct rdma_dm_buffer_desc),
		    sizeof(struct rdma_dm_buffer_desc), 0),
	A_OUT_STRUCT(UVERBS_ATTR_CREATE_QP_RESP_CAP,
		     sizeof(struct ib_uverbs_qp_cap),
		     sizeof(struct ib_uverbs_qp_cap), 1),
	A_OUT(UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, 4, 4, 1),
	A_UHW_IN,
	A_UHW_OUT,
};

static const struct sim_attr_spec qp_destroy_attrs[] = {
	A_IDR(UVERBS_ATTR_DESTROY_QP_HANDLE, sim_type_qp, SA_DESTROY),
	A_OUT(UVERBS_ATTR_DESTROY_QP_RESP,
	      sizeof(struct ib_uverbs_destroy_qp_resp),
	      sizeof(struct ib_uverbs_destroy_qp_resp), 1),
};

#define QP_M(m, n, f, a)                                                       \
	SIM_METHOD(UVERBS_OBJECT_QP, "QP", m, n, f, a, SIM_M_NEEDS_CTX)

static const struct sim_method qp_methods[] = {
	QP_M(UVERBS_METHOD_QP_CREATE, "QP_CREATE", qp_create_ioctl,
	     qp_create_attrs),
	QP_M(UVERBS_METHOD_QP_DESTROY, "QP_DESTROY", sim_destroy_method,
	     qp_destroy_attrs),
};

/* ---- write() ---- */

/* XRC_TGT by write: the XRCD handle travels in pd_handle (bad: EINVAL),
 * CQ, SRQ and caps are ignored. */
static int w_xrc_tgt(struct sim_wcall *w, const struct ib_uverbs_create_qp *q,
		     struct qp_args *a)
{
	int err;

	a->xrcd = sim_xrcd(
		sim_obj_get(w->uv, q->pd_handle, &sim_type_xrcd, &err));
	if (!a->xrcd)
		return -EINVAL;
	a->user_handle = q->user_handle;
	a->type = q->qp_type;
	return 0;
}

/* The objects of a write create, in the kernel's lookup order. */
static int w_objects(struct sim_wcall *w, const struct ib_uverbs_create_qp *q,
		     struct qp_args *a)
{
	if (q->qp_type == IB_UVERBS_QPT_RAW_PACKET && !sim_has_cap(CAP_NET_RAW))
		return -EPERM;
	int err;

	if (q->qp_type == IB_UVERBS_QPT_XRC_TGT)
		return w_xrc_tgt(w, q, a);

	if (q->is_srq) {
		a->srq = sim_srq(
			sim_obj_get(w->uv, q->srq_handle, &sim_type_srq, &err));
		if (!a->srq)
			return err;
		if (a->srq->srq_type == IB_UVERBS_SRQT_XRC)
			return -EINVAL;
	}
	if (q->qp_type != IB_UVERBS_QPT_XRC_INI &&
	    q->recv_cq_handle != q->send_cq_handle) {
		a->recv_cq = sim_cq(sim_obj_get(w->uv, q->recv_cq_handle,
						&sim_type_cq, &err));
		if (!a->recv_cq)
			return err;
	}
	a->send_cq = sim_cq(
		sim_obj_get(w->uv, q->send_cq_handle, &sim_type_cq, &err));
	if (!a->send_cq)
		return err;
	if (!a->recv_cq && q->qp_type != IB_UVERBS_QPT_XRC_INI)
		a->recv_cq = a->send_cq;
	a->pd = sim_pd(sim_obj_get(w->uv, q->pd_handle, &sim_type_pd, &err));
	if (!a->pd)
		return err;
	a->user_handle = q->user_handle;
	a->type = q->qp_type;
	a->sq_sig_all = !!q->sq_sig_all;
	a->cap = (struct sim_qp_cap){q->max_send_wr, q->max_recv_wr,
				     q->max_send_sge, q->max_recv_sge,
				     q->max_inline_data};
	if (a->type == IB_UVERBS_QPT_XRC_INI)
		a->cap.max_recv_wr = a->cap.max_recv_sge = 0;
	return 0;
}

static int w_create(struct sim_wcall *w, struct qp_args *a,
		    struct ib_uverbs_create_qp_resp *r)
{
	struct sim_qp *qp = sim_qp(w->obj);
	struct ib_uverbs_qp_cap cap;
	int ret;

	ret = sim_wc_udata(w, &a->uhw);
	if (ret)
		return ret;
	ret = qp_create(w->uv, a, qp);
	if (!ret) {
		r->qp_handle = qp->obj.handle;
		r->qpn = qp->qpn;
		snprintf(w->note, sizeof(w->note), "handle=%u qpn=%#x type=%u",
			 r->qp_handle, r->qpn, qp->qp_type);
		cap_to_user(&qp->attr.cap, &cap);
		memcpy(&r->max_send_wr, &cap, sizeof(cap));
	}
	return sim_wc_udata_put(w, &a->uhw, ret);
}

static int w_create_qp(struct sim_wcall *w)
{
	struct ib_uverbs_create_qp_resp r = {};
	struct qp_args a = {};
	int ret;

	ret = w_objects(w, w->in, &a);
	if (!ret)
		ret = w_create(w, &a, &r);
	return ret ? ret : sim_wc_out(w, &r, sizeof(r));
}

static int w_ex_create_qp(struct sim_wcall *w)
{
	struct ib_uverbs_ex_create_qp_resp r = {};
	struct ib_uverbs_ex_create_qp xr, *x = &xr;
	struct ib_uverbs_create_qp q = {};
	struct qp_args a = {};
	int ret = sim_wc_in(w, &xr, sizeof(xr));

	if (ret)
		return ret;
	if (x->comp_mask & ~(uint32_t)IB_UVERBS_CREATE_QP_SUP_COMP_MASK ||
	    x->reserved)
		return -EINVAL;
	if (x->comp_mask & IB_UVERBS_CREATE_QP_MASK_IND_TABLE)
		return -EINVAL; /* no RWQ indirection table is modelled */
	/* the ex request is the legacy one without 'response' */
	memcpy(&q.user_handle, &x->user_handle,
	       offsetof(struct ib_uverbs_ex_create_qp, comp_mask));
	ret = w_objects(w, &q, &a);
	if (!ret && (x->create_flags & ~(uint32_t)IB_QP_WRITE_FLAGS))
		ret = -EINVAL;
	if (!ret && (x->create_flags & IB_QP_CREATE_SOURCE_QPN) &&
	    !sim_has_cap(CAP_NET_RAW))
		ret = -EPERM;
	a.create_flags = x->create_flags;
	if (!ret)
		ret = w_create(w, &a, &r.base);
	r.response_length = w->out_len < sizeof(r) ? w->out_len : sizeof(r);
	return ret ? ret : sim_wc_out(w, &r, sizeof(r));
}

static void dest_to_user(const struct sim_ah_attr *a,
			 struct ib_uverbs_qp_dest *d)
{
	memcpy(d->dgid, a->dgid, sizeof(d->dgid));
	d->flow_label = a->flow_label;
	d->dlid = a->dlid;
	d->sgid_index = a->sgid_index;
	d->hop_limit = a->hop_limit;
	d->traffic_class = a->traffic_class;
	d->sl = a->sl;
	d->src_path_bits = a->src_path_bits;
	d->static_rate = a->static_rate;
	d->is_global = a->is_global;
	d->port_num = a->port_num;
}

static int w_query_qp(struct sim_wcall *w)
{
	const struct ib_uverbs_query_qp *req = w->in;
	struct ib_uverbs_query_qp_resp r = {};
	struct sim_qp *qp;
	const struct sim_qp_attr *at;
	int err;

	qp = sim_qp(sim_obj_get(w->uv, req->qp_handle, &sim_type_qp, &err));
	if (!qp)
		return err;
	qp = sim_qp_real(qp);
	if (qp->qp_type == IB_QPT_XRC_TGT)
		sim_xrc_tgt_load(qp);
	at = &qp->attr;
	dest_to_user(&at->ah, &r.dest);
	dest_to_user(&at->alt_ah, &r.alt_dest);
	r.max_send_wr = at->cap.max_send_wr;
	r.max_recv_wr = at->cap.max_recv_wr;
	r.max_send_sge = at->cap.max_send_sge;
	r.max_recv_sge = at->cap.max_recv_sge;
	r.max_inline_data = at->cap.max_inline_data;
	r.qkey = at->qkey;
	r.rq_psn = at->rq_psn;
	r.sq_psn = at->sq_psn;
	r.dest_qp_num = at->dest_qp_num;
	r.qp_access_flags = at->qp_access_flags;
	r.pkey_index = at->pkey_index;
	r.alt_pkey_index = at->alt_pkey_index;
	r.qp_state = at->qp_state;
	r.cur_qp_state = at->qp_state;
	r.path_mtu = at->path_mtu;
	r.path_mig_state = at->path_mig_state;
	r.max_rd_atomic = at->max_rd_atomic;
	r.max_dest_rd_atomic = at->max_dest_rd_atomic;
	r.min_rnr_timer = at->min_rnr_timer;
	r.port_num = at->port_num;
	r.timeout = at->timeout;
	r.retry_cnt = at->retry_cnt;
	r.rnr_retry = at->rnr_retry;
	r.alt_port_num = at->alt_port_num;
	r.alt_timeout = at->alt_timeout;
	r.sq_sig_all = qp->sq_sig_all;
	return sim_wc_out(w, &r, sizeof(r));
}

static int w_destroy_qp(struct sim_wcall *w)
{
	return sim_wc_destroy(w, &sim_type_qp);
}

static const struct sim_wcmd qp_wcmds[] = {
	{IB_USER_VERBS_CMD_CREATE_QP, "CREATE_QP",
	 sizeof(struct ib_uverbs_create_qp),
	 sizeof(struct ib_uverbs_create_qp_resp), 1, 1, w_create_qp},
	{IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_QP,
	 "EX_CREATE_QP", offsetof(struct ib_uverbs_ex_create_qp, create_flags),
	 sizeof(struct ib_uverbs_ex_create_qp_resp), 0, 1, w_ex_create_qp},
	{IB_USER_VERBS_CMD_QUERY_QP, "QUERY_QP",
	 sizeof(struct ib_uverbs_query_qp),
	 sizeof(struct ib_uverbs_query_qp_resp), 1, 1, w_query_qp},
	{IB_USER_VERBS_CMD_MODIFY_QP, "MODIFY_QP",
	 sizeof(struct ib_uverbs_modify_qp), 0, 0, 1, sim_w_modify_qp},
	{IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_MODIFY_QP,
	 "EX_MODIFY_QP", sizeof(struct ib_uverbs_modify_qp),
	 sizeof(struct ib_uverbs_ex_modify_qp_resp), 0, 1, sim_w_ex_modify_qp},
	{IB_USER_VERBS_CMD_POST_SEND, "POST_SEND",
	 sizeof(struct ib_uverbs_post_send),
	 sizeof(struct ib_uverbs_post_send_resp), 1, 1, sim_w_post_send},
	{IB_USER_VERBS_CMD_POST_RECV, "POST_RECV",
	 sizeof(struct ib_uverbs_post_recv),
	 sizeof(struct ib_uverbs_post_recv_resp), 1, 1, sim_w_post_recv},
	{IB_USER_VERBS_CMD_DESTROY_QP, "DESTROY_QP",
	 sizeof(struct ib_uverbs_destroy_qp),
	 sizeof(struct ib_uverbs_destroy_qp_resp), 1, 1, w_destroy_qp},
	{IB_USER_VERBS_CMD_ATTACH_MCAST, "ATTACH_MCAST",
	 sizeof(struct ib_uverbs_attach_mcast), 0, 0, 1, sim_w_attach_mcast},
	{IB_USER_VERBS_CMD_DETACH_MCAST, "DETACH_MCAST",
	 sizeof(struct ib_uverbs_detach_mcast), 0, 0, 1, sim_w_detach_mcast},
};

const struct sim_obj_type sim_type_qp = {
	.name = "QP",
	.uapi_id = UVERBS_OBJECT_QP,
	.size = sizeof(struct sim_qp),
	.order = SIM_ORDER_USERS,
	.hw_create = qp_hw_create,
	.hw_destroy = qp_hw_destroy,
	.destroy = qp_destroy,
	.parts = SIM_QUEUE_PARTS(struct sim_qp, RDMA_DM_ATTR_CREATE_QP_BUF_UMEM,
				 events_reported,
				 sizeof(struct ib_uverbs_destroy_qp_resp)),
	.methods = qp_methods,
	.nmethods = ARRAY_SIZE(qp_methods),
	.wcmds = qp_wcmds,
	.nwcmds = ARRAY_SIZE(qp_wcmds),
	.wcreates = {IB_USER_VERBS_CMD_CREATE_QP,
		     IB_USER_VERBS_CMD_FLAG_EXTENDED |
			     IB_USER_VERBS_EX_CMD_CREATE_QP,
		     IB_USER_VERBS_CMD_OPEN_QP},
};
SIM_OBJ_TYPE(sim_type_qp);
