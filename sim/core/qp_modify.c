// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MODIFY_QP and EX_MODIFY_QP (write only), in the kernel's order: the
 * uverbs checks (mask bits, handle, ports, states, Q_Key privilege), the
 * core's address checks, then what both drivers check (the state table of
 * qp_state.c and the ranges) with the few per-driver rules of struct
 * sim_verbs_rules, then the driver hook. Attributes are stored only when
 * everything accepted them.
 */
#include "restrack.h"
#include "uapi.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>

#define IB_QP_SET_QKEY 0x80000000u /* privileged Q_Keys */
#define SIM_MTU_4096	5

static int port_valid(uint8_t port)
{
	return port == 1; /* one port per device */
}

static void dest_from_user(const struct ib_uverbs_qp_dest *d,
			   struct sim_ah_attr *a)
{
	memset(a, 0, sizeof(*a));
	memcpy(a->dgid, d->dgid, sizeof(a->dgid));
	a->flow_label = d->flow_label;
	a->dlid = d->dlid;
	a->sgid_index = d->sgid_index;
	a->hop_limit = d->hop_limit;
	a->traffic_class = d->traffic_class;
	a->sl = d->sl;
	a->src_path_bits = d->src_path_bits;
	a->static_rate = d->static_rate;
	a->is_global = d->is_global;
	a->port_num = d->port_num;
}

/* uverbs_cmd.c modify_qp: ports, states, Q_Key; may add PORT to *mask. */
static int uverbs_checks(const struct ib_uverbs_modify_qp *m,
			 const struct sim_qp *qp, uint32_t *mask)
{
	if ((*mask & IB_QP_PORT) && !port_valid(m->port_num))
		return -EINVAL;
	if (*mask & IB_QP_AV) {
		if (!port_valid(m->dest.port_num))
			return -EINVAL;
		if ((*mask & IB_QP_STATE) && m->qp_state == IB_QPS_RTR) {
			if (m->dest.port_num != qp->attr.port_num)
				return -EINVAL;
		} else if (*mask & IB_QP_PORT) {
			if (m->port_num != m->dest.port_num)
				return -EINVAL;
		} else {
			*mask |= IB_QP_PORT; /* the QP's own port */
		}
	}
	if ((*mask & IB_QP_ALT_PATH) &&
	    (!port_valid(m->alt_port_num) ||
	     !port_valid(m->alt_dest.port_num) ||
	     m->alt_port_num != m->alt_dest.port_num))
		return -EINVAL;
	if (((*mask & IB_QP_CUR_STATE) && m->cur_qp_state > IB_QPS_ERR) ||
	    ((*mask & IB_QP_STATE) && m->qp_state > IB_QPS_ERR))
		return -EINVAL;
	if ((*mask & IB_QP_QKEY) && (m->qkey & IB_QP_SET_QKEY) &&
	    !sim_has_cap(CAP_NET_RAW))
		return -EPERM;
	return 0;
}

static void apply(const struct ib_uverbs_modify_qp *m, uint32_t mask,
		  uint32_t rate_limit, const struct sim_qp *qp,
		  struct sim_qp_attr *n)
{
	*n = qp->attr;
#define SET(bit, field, val)                                                   \
	do {                                                                   \
		if (mask & IB_QP_##bit)                                        \
			n->field = (val);                                      \
	} while (0)
	SET(STATE, qp_state, m->qp_state);
	SET(PATH_MTU, path_mtu, m->path_mtu);
	SET(PATH_MIG_STATE, path_mig_state, m->path_mig_state);
	SET(QKEY, qkey, m->qkey);
	SET(RQ_PSN, rq_psn, m->rq_psn & 0xffffff); /* masked, as the core */
	SET(SQ_PSN, sq_psn, m->sq_psn & 0xffffff);
	SET(DEST_QPN, dest_qp_num, m->dest_qp_num);
	SET(ACCESS_FLAGS, qp_access_flags, m->qp_access_flags);
	SET(PKEY_INDEX, pkey_index, m->pkey_index);
	SET(EN_SQD_ASYNC_NOTIFY, en_sqd_async_notify, m->en_sqd_async_notify);
	SET(MAX_QP_RD_ATOMIC, max_rd_atomic, m->max_rd_atomic);
	SET(MAX_DEST_RD_ATOMIC, max_dest_rd_atomic, m->max_dest_rd_atomic);
	SET(MIN_RNR_TIMER, min_rnr_timer, m->min_rnr_timer);
	SET(PORT, port_num, (mask & IB_QP_AV) ? m->dest.port_num : m->port_num);
	SET(TIMEOUT, timeout, m->timeout);
	SET(RETRY_CNT, retry_cnt, m->retry_cnt);
	SET(RNR_RETRY, rnr_retry, m->rnr_retry);
	SET(RATE_LIMIT, rate_limit, rate_limit);
	if (mask & IB_QP_ALT_PATH) {
		dest_from_user(&m->alt_dest, &n->alt_ah);
		n->alt_port_num = m->alt_port_num;
		n->alt_timeout = m->alt_timeout;
		n->alt_pkey_index = m->alt_pkey_index;
	}
	if (mask & IB_QP_AV)
		dest_from_user(&m->dest, &n->ah);
#undef SET
}

/* What mlx5_ib and rxe check before touching the QP. */
static int driver_checks(const struct sim_qp *qp, const struct sim_qp_attr *n,
			 const struct ib_uverbs_modify_qp *m, uint32_t mask)
{
	const struct sim_verbs_rules *r = sim_driver()->rules;
	unsigned int cur =
		(mask & IB_QP_CUR_STATE) ? m->cur_qp_state : qp->attr.qp_state;
	unsigned int next = (mask & IB_QP_STATE) ? m->qp_state : cur;

	/* mlx5_ib judges DC QPs by masks of its own (the driver hook) */
	if (qp->qp_type != IB_QPT_DRIVER &&
	    !sim_qp_transition_ok(cur, next, qp->qp_type, mask))
		return -EINVAL;
	if (r->chk_pkey_index && (mask & IB_QP_PKEY_INDEX) &&
	    n->pkey_index >= SIM_NUM_PKEYS)
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    n->max_rd_atomic > r->max_qp_rd_atom)
		return -EINVAL;
	if (r->chk_dest_rd_atom && (mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    n->max_dest_rd_atomic > r->max_qp_init_rd_atom)
		return -EINVAL;
	if (r->chk_timeout &&
	    (((mask & IB_QP_TIMEOUT) && n->timeout > 31) ||
	     ((mask & IB_QP_ALT_PATH) && n->alt_timeout > 31)))
		return -EINVAL;
	if ((mask & IB_QP_PATH_MTU) &&
	    (n->path_mtu < r->min_path_mtu || n->path_mtu > SIM_MTU_4096))
		return -EINVAL;
	/* mlx5 firmware refuses a transition from a state the QP is not in */
	if (r->chk_cur_state && (mask & IB_QP_CUR_STATE) &&
	    m->cur_qp_state != qp->attr.qp_state)
		return -EINVAL;
	return 0;
}

/* Events the device raises by itself on a state change. */
static void state_events(struct sim_uvfile *uv, struct sim_qp *qp,
			 unsigned int old, const struct sim_qp_attr *n)
{
	const struct sim_verbs_rules *r = sim_driver()->rules;

	if (n->qp_state == old)
		return;
	/* nothing is outstanding in the model: draining ends at once */
	if (n->qp_state == IB_QPS_SQD &&
	    (r->sqd_event_always || n->en_sqd_async_notify))
		sim_async_event(uv, SIM_EVENT_SQ_DRAINED, &qp->obj);
	if (n->qp_state == IB_QPS_ERR && qp->srq && r->last_wqe_on_err)
		sim_async_event(uv, SIM_EVENT_QP_LAST_WQE_REACHED, &qp->obj);
}

/* the kernel's is_qp_type_connected */
static int qp_type_connected(unsigned int type)
{
	return type == IB_QPT_RC || type == IB_QPT_UC ||
	       type == IB_QPT_XRC_INI || type == IB_QPT_XRC_TGT;
}

static int modify(struct sim_wcall *w, const struct ib_uverbs_modify_qp *m,
		  uint32_t rate_limit, uint32_t allowed, int udata)
{
	const struct sim_driver_ops *d = sim_driver();
	uint32_t mask = m->attr_mask;
	struct sim_qp_attr n;
	struct sim_qp *qp;
	unsigned int old, before;
	int ret;

	if (mask & ~allowed)
		return -EOPNOTSUPP;
	qp = sim_qp(sim_obj_get(w->uv, m->qp_handle, &sim_type_qp, &ret));
	if (!qp)
		return ret;
	qp = sim_qp_real(qp); /* an opened XRC_TGT QP: the QP itself */
	if (qp->qp_type == IB_QPT_XRC_TGT)
		sim_xrc_tgt_load(qp); /* the domain's QP, whichever handle */
	mask &= ~sim_qp_mask_stripped(qp->qp_type);
	ret = uverbs_checks(m, qp, &mask);
	if (ret)
		return ret;
	apply(m, mask, rate_limit, qp, &n);
	if ((mask & IB_QP_AV) && (ret = sim_check_ah_attr(w->uv->dev, &n.ah)))
		return ret;
	/* the kernel resolves the MAC for connected QPs only: never for
	 * UD, nor for a driver QP (a DCT's or DCI's AV names no peer) */
	if ((mask & IB_QP_AV) && qp_type_connected(qp->qp_type) &&
	    (ret = sim_resolve_ah_dmac(w->uv->dev, &n.ah)))
		return ret;
	if ((mask & IB_QP_ALT_PATH) &&
	    (sim_port_is_eth(sim.sh, w->uv->dev) ||
	     (ret = sim_check_ah_attr(w->uv->dev, &n.alt_ah))))
		return ret ? ret : -EINVAL; /* no alternate path on RoCE */
	/* the note says where the QP was: the driver's HCA may already
	 * have moved the core's copy (a QP in ERR flushes at once) */
	before = qp->attr.qp_state;
	ret = driver_checks(qp, &n, m, mask);
	if (!ret && d->modify_qp)
		ret = d->modify_qp(
			w->uv, qp, &n, mask, udata ? w->uhw_in : NULL,
			udata ? w->uhw_in_len : 0, udata ? w->uhw_out : NULL,
			udata ? w->uhw_out_len : 0);
	if (ret)
		return ret;
	old = qp->attr.qp_state;
	snprintf(w->note, sizeof(w->note), "handle=%u mask=%#x state %u->%u",
		 qp->obj.handle, mask, before, n.qp_state);
	qp->attr = n;
	sim_res_touch(&qp->obj);
	if (qp->qp_type == IB_QPT_XRC_TGT)
		sim_xrc_tgt_store(qp);
	state_events(w->uv, qp, old, &n);
	return 0;
}

int sim_w_modify_qp(struct sim_wcall *w)
{
	/* MODIFY_QP carries no driver udata */
	return modify(w, w->in, 0, IB_QP_STANDARD_BITS, 0);
}

int sim_w_ex_modify_qp(struct sim_wcall *w)
{
	struct ib_uverbs_ex_modify_qp x;
	struct ib_uverbs_ex_modify_qp_resp r = {};
	int ret = sim_wc_in(w, &x, sizeof(x));

	if (!ret)
		ret = modify(w, &x.base, x.rate_limit,
			     IB_QP_STANDARD_BITS | IB_QP_RATE_LIMIT, 1);
	if (ret)
		return ret;
	r.response_length = w->out_len < sizeof(r) ? w->out_len : sizeof(r);
	return sim_wc_out(w, &r, sizeof(r));
}
