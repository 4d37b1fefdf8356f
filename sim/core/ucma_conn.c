// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RDMA CM connections: CONNECT/ACCEPT/REJECT/DISCONNECT and the IB CM
 * messages they send (REQ, REP, RTU, REJ, DREQ, DREP, SIDR_REQ/REP),
 * applied to the peer id's entry under the world's lock with the event the
 * peer's kernel would queue; INIT_QP_ATTR from what the exchange agreed;
 * the retries of a REQ or REP left unanswered (a full backlog, a passive
 * side slow to accept, an active side slow to send the RTU: the MRA),
 * ending in UNREACHABLE as the kernel's CM does; what an id's destroy
 * sends.
 */
#include "sim.h"
#include "ucma.h"

#include <errno.h>
#include <string.h>

/* CM payload sizes (ib_cm.h) less the 36-byte CMA header of IP ids. */
#define REQ_PDATA	 92
#define REP_PDATA	 196
#define REJ_PDATA	 148
#define SIDR_REQ_PDATA	 216
#define SIDR_REP_PDATA	 136
#define CMA_HDR		 36
#define REJ_NO_LISTENER	 8  /* IB_CM_REJ_INVALID_SERVICE_ID */
#define REJ_TIMEOUT	 4  /* IB_CM_REJ_TIMEOUT */
#define REJ_CONSUMER	 28 /* IB_CM_REJ_CONSUMER_DEFINED */
#define REJ_ECE		 35 /* IB_CM_REJ_VENDOR_OPTION_NOT_SUPPORTED */
#define SIDR_NO_LISTENER 1
#define SIDR_REJECT	 2
#define CM_RETRIES	 15 /* CMA_MAX_CM_RETRIES */
#define CM_RESPONSE	 20 /* CMA_CM_RESPONSE_TIMEOUT */
#define CM_MRA_SERVICE	 24 /* CMA_CM_MRA_SETTING's service timeout */
#define CA_ACK_DELAY 16 /* the device's local_ca_ack_delay */

/* An IB time (4.096 us << t) in ms as the CM rounds it (cm_convert_to_ms). */
static uint64_t iba_ms(unsigned int t)
{
	return 1ull << (t > 8 ? t - 8 : 0);
}

/*
 * How long id waits for the answer to what it sent (ns): a REQ the
 * response timeout plus twice the packet life, a SIDR_REQ and a REP the
 * response timeout; once the peer's MRA came, its service timeout plus
 * the path's (life + 1).
 */
static uint64_t answer_wait(const struct ucma_id *id)
{
	unsigned int life = ucma_path_life(id);
	uint64_t ms = iba_ms(CM_RESPONSE);

	if (id->mra)
		ms = iba_ms(CM_MRA_SERVICE) + iba_ms(life + 1);
	else if (id->timer == TIMER_REQ && id->qp_type != IB_QPT_UD)
		ms += 2 * iba_ms(life);
	return ms * 1000000ull;
}

/* Start waiting for the answer to the message id just sent. */
static void await(struct ucma_id *id, uint8_t timer)
{
	id->timer = timer;
	id->tries = 0;
	id->mra = 0;
	id->deadline_ns = ucma_now_ns() + answer_wait(id);
}

static int ud(const struct ucma_id *id)
{
	return id->qp_type == IB_QPT_UD;
}

/* The CMA header of IP addressing (cma_user_data_offset: AF_IB has
 * none, whatever the port space). */
static int hdr_len(const struct ucma_id *id)
{
	return id->src.ss_family == UCMA_AF_IB ? 0 : CMA_HDR;
}

/* The peer of id i, if it still exists. */
static struct ucma_id *peer_of(const struct ucma_id *id)
{
	return ucma_id_live(id->peer, id->peer_gen);
}

static int index_of(const struct ucma_id *id)
{
	return (int)(id - ucma_w->ids);
}

static void link_peers(struct ucma_id *a, struct ucma_id *b)
{
	a->peer = index_of(b);
	a->peer_gen = b->gen;
	b->peer = index_of(a);
	b->peer_gen = a->gen;
}

/* An event with conn param private data: the sender's bytes, then zeros
 * up to the message's size as the receiver's kernel reports it. */
static void pdata_param(struct rdma_ucm_event_resp *r, const uint8_t *data,
			uint8_t len, uint8_t size)
{
	memset(r, 0, sizeof(*r));
	if (len) /* data is NULL when the sender gave none */
		memcpy(r->param.conn.private_data, data, len);
	r->param.conn.private_data_len = size;
}

/* The conn param of a REQ or REP event from sender `from`: resources
 * swapped to the receiver's view. */
static void peer_param(struct rdma_ucm_event_resp *r,
		       const struct ucma_id *from, const uint8_t *data,
		       uint8_t len, uint8_t size)
{
	pdata_param(r, data, len, size);
	r->param.conn.responder_resources = from->init_depth;
	r->param.conn.initiator_depth = from->resp_res;
	r->param.conn.flow_control = from->flow;
	r->param.conn.rnr_retry_count = from->rnr_retry;
	r->param.conn.srq = from->srq;
	r->param.conn.qp_num = from->qpn;
}

/* What CONNECT or ACCEPT's conn param sets of the sender's side. */
static void take_param(struct ucma_id *id, const struct rdma_ucm_conn_param *cp)
{
	id->qpn = cp->qp_num & 0xffffff;
	id->resp_res = cp->responder_resources;
	id->init_depth = cp->initiator_depth;
	id->rnr_retry = cp->rnr_retry_count < 7 ? cp->rnr_retry_count : 7;
	id->srq = cp->srq;
	id->flow = cp->flow_control;
}

/* The path to id's peer as an address vector (RoCE: GRH, no LID; IB
 * within the subnet: the LID, no GRH). */
static void fill_ah(const struct ucma_id *id, struct ib_uverbs_ah_attr *ah)
{
	ah->port_num = id->port;
	if (ucma_id_ib(id)) {
		ah->dlid = id->dlid;
		return;
	}
	memcpy(ah->grh.dgid, id->dgid, 16);
	ah->grh.sgid_index = (uint8_t)id->sgid_index;
	ah->grh.hop_limit = id->hop_limit;
	ah->grh.traffic_class = id->tos;
	ah->is_global = 1;
}

/* The CM's timewait after a disconnect (cm_enter_timewait): the path's
 * packet life time plus one, as IB time (4.096 us << t), about 2^(t-8)
 * ms: 512 ms on RoCE (2 s on 6.1); then TIMEWAIT_EXIT if the id is still there.
 */
static void timewait(struct ucma_id *id)
{
	int t = ucma_path_life(id) + 1 - 8;

	id->cm = CM_TIMEWAIT;
	id->timer = TIMER_TIMEWAIT;
	id->deadline_ns = ucma_now_ns() + (1000000ull << (t > 0 ? t : 0));
}

static void disconnected(struct ucma_id *id, int32_t status)
{
	if (id->state != UCMA_CONNECT)
		return;
	id->state = UCMA_DISCONNECT;
	ucma_event(index_of(id), RDMA_CM_EVENT_DISCONNECTED, status, NULL);
}

static void rej_to(struct ucma_id *p, uint8_t reason, const uint8_t *data,
		   uint8_t len)
{
	struct rdma_ucm_event_resp r;

	p->cm = CM_NONE;
	p->timer = TIMER_NONE;
	if (ud(p)) {
		pdata_param(&r, data, len, SIDR_REP_PDATA);
		ucma_event(index_of(p), RDMA_CM_EVENT_UNREACHABLE, reason, &r);
		return;
	}
	pdata_param(&r, data, len, REJ_PDATA);
	ucma_event(index_of(p), RDMA_CM_EVENT_REJECTED, reason, &r);
}

/* ---- REQ / SIDR_REQ ---- */

/* The new passive id of a REQ from a to listener l. */
static int new_conn_id(struct ucma_id *a, int l, uint32_t dev, uint32_t gi)
{
	struct ucma_id *lid = &ucma_w->ids[l], *p;
	int n = ucma_id_alloc();

	if (n < 0)
		return n;
	p = &ucma_w->ids[n];
	p->file = lid->file;
	p->ps = lid->ps;
	p->qp_type = lid->qp_type;
	p->state = UCMA_CONNECT;
	p->cm = ud(a) ? CM_SIDR_REQ_RCVD : CM_REQ_RCVD;
	ucma_id_set_dev(p, dev, gi);
	p->src = a->dst;
	p->dst = a->src;
	memcpy(p->dgid, a->sgid, 16);
	p->dlid = ucma_id_ib(p) ? ucma_lid(a->dev) : 0;
	p->mtu = a->mtu;
	p->hop_limit = a->hop_limit;
	p->tos = a->tos;
	p->ack_timeout = a->ack_timeout;
	p->route = 1;
	p->via_netdev = a->via_netdev;
	p->peer_qpn = a->qpn;
	p->peer_psn = a->psn;
	p->resp_res = a->init_depth;
	p->init_depth = a->resp_res;
	p->retry = a->retry;
	p->rnr_retry = a->rnr_retry;
	p->listener = l;
	lid->pending++;
	link_peers(a, p);
	return n;
}

/* Send a's REQ: 0 delivered, 1 dropped (backlog full), or a REJ/SIDR
 * status came back (queued on a). */
static int send_req(struct ucma_id *a)
{
	struct rdma_ucm_event_resp r;
	uint32_t dev, gi;
	int l, n, size;
	char buf[64];

	l = ucma_listener_for(a, &dev, &gi);
	if (l < 0) {
		sim_trace("ucma: REQ to %s (port space 0x%x) meets no listener",
			  ucma_sa_str(&a->dst, buf, sizeof(buf)), a->ps);
		rej_to(a, ud(a) ? SIDR_NO_LISTENER : REJ_NO_LISTENER, NULL, 0);
		return 0;
	}
	if (ucma_w->ids[l].pending >= ucma_w->ids[l].backlog)
		return 1; /* no REJ: the active side's CM sends it again */
	n = new_conn_id(a, l, dev, gi);
	if (n < 0)
		return 1;
	size = (ud(a) ? SIDR_REQ_PDATA : REQ_PDATA) - hdr_len(a);
	memset(&r, 0, sizeof(r));
	if (ud(a)) {
		memcpy(r.param.ud.private_data, a->pdata, a->pdata_len);
		r.param.ud.private_data_len = (uint8_t)size;
	} else {
		peer_param(&r, a, a->pdata, a->pdata_len, (uint8_t)size);
		r.param.conn.retry_count = a->retry;
	}
	r.uid = ucma_w->ids[l].uid;
	r.id = (uint32_t)n;
	r.event = RDMA_CM_EVENT_CONNECT_REQUEST;
	ucma_event_raw(ucma_w->ids[l].file, l, &r);
	return 0;
}

static int cmd_connect(struct ucma_id *a, const struct rdma_ucm_connect *c)
{
	const struct rdma_ucm_conn_param *cp = &c->conn_param;
	int max = (ud(a) ? SIDR_REQ_PDATA : REQ_PDATA) - hdr_len(a);

	if (!cp->valid || cp->private_data_len > max)
		return -EINVAL;
	if (a->state != UCMA_ROUTE_RESOLVED)
		return -EINVAL;
	take_param(a, cp);
	a->retry = cp->retry_count < 7 ? cp->retry_count : 7;
	a->pdata_len = cp->private_data_len;
	memcpy(a->pdata, cp->private_data, cp->private_data_len);
	a->state = UCMA_CONNECT;
	a->cm = ud(a) ? CM_SIDR_REQ_SENT : CM_REQ_SENT;
	await(a, TIMER_REQ);
	send_req(a);
	return 0;
}

/* ---- REP / RTU / SIDR_REP ---- */

static int accept_ud(struct ucma_id *p, const struct rdma_ucm_conn_param *cp)
{
	struct ucma_id *a = peer_of(p);
	struct rdma_ucm_event_resp r;
	struct ib_uverbs_ah_attr *ah = &r.param.ud.ah_attr;

	if (cp->private_data_len > SIDR_REP_PDATA)
		return -EINVAL;
	p->qpn = cp->qp_num & 0xffffff;
	p->cm = CM_NONE;
	if (!a || a->cm != CM_SIDR_REQ_SENT)
		return 0;
	memset(&r, 0, sizeof(r));
	memcpy(r.param.ud.private_data, cp->private_data, cp->private_data_len);
	r.param.ud.private_data_len = SIDR_REP_PDATA;
	r.param.ud.qp_num = p->qpn;
	r.param.ud.qkey = UCMA_UDP_QKEY;
	fill_ah(a, ah);
	a->cm = CM_NONE;
	a->timer = TIMER_NONE;
	ucma_event(index_of(a), RDMA_CM_EVENT_ESTABLISHED, 0, &r);
	return 0;
}

static int send_rep(struct ucma_id *p, const struct rdma_ucm_conn_param *cp)
{
	struct ucma_id *a = peer_of(p);
	struct rdma_ucm_event_resp r;

	if (cp->private_data_len > REP_PDATA)
		return -EINVAL;
	take_param(p, cp);
	p->cm = CM_REP_SENT;
	await(p, TIMER_REP);
	if (!a || a->cm != CM_REQ_SENT)
		return 0; /* the active side went away: no RTU will come */
	a->cm = CM_REP_RCVD;
	a->timer = TIMER_NONE;
	a->peer_qpn = p->qpn;
	a->peer_psn = p->psn;
	a->resp_res = p->init_depth;
	a->init_depth = p->resp_res;
	a->rnr_retry = p->rnr_retry;
	peer_param(&r, p, cp->private_data, cp->private_data_len, REP_PDATA);
	ucma_event(index_of(a), RDMA_CM_EVENT_CONNECT_RESPONSE, 0, &r);
	return 0;
}

static int send_rtu(struct ucma_id *a)
{
	struct ucma_id *p = peer_of(a);

	a->cm = CM_ESTABLISHED;
	if (p && p->cm == CM_REP_SENT) {
		p->cm = CM_ESTABLISHED;
		p->timer = TIMER_NONE;
		ucma_event(index_of(p), RDMA_CM_EVENT_ESTABLISHED, 0, NULL);
	}
	return 0;
}

static int cmd_reject(struct ucma_id *id, const struct rdma_ucm_reject *c);

static int accept_param(struct ucma_id *id, const struct rdma_ucm_accept *c)
{
	if (c->conn_param.valid) {
		if (id->cm == CM_SIDR_REQ_RCVD) {
			id->uid = c->uid;
			return accept_ud(id, &c->conn_param);
		}
		if (id->cm != CM_REQ_RCVD)
			return -EINVAL;
		id->uid = c->uid;
		return send_rep(id, &c->conn_param);
	}
	if (id->cm != CM_REP_RCVD)
		return -EINVAL;
	return send_rtu(id);
}

/* An ACCEPT that fails rejects the connection (consumer defined, no
 * private data), as rdma_accept does. */
static int cmd_accept(struct ucma_id *id, const struct rdma_ucm_accept *c)
{
	struct rdma_ucm_reject rej = {0};
	int ret;

	if (id->state != UCMA_CONNECT)
		return -EINVAL;
	ret = accept_param(id, c);
	if (ret)
		cmd_reject(id, &rej);
	return ret;
}

static int cmd_reject(struct ucma_id *id, const struct rdma_ucm_reject *c)
{
	uint8_t reason = c->reason ? c->reason : REJ_CONSUMER;
	struct ucma_id *p = peer_of(id);

	if (reason != REJ_CONSUMER && reason != REJ_ECE)
		return -EINVAL;
	if (id->cm == CM_SIDR_REQ_RCVD) {
		if (c->private_data_len > SIDR_REP_PDATA)
			return -EINVAL;
		id->cm = CM_NONE;
		if (p && p->cm == CM_SIDR_REQ_SENT)
			rej_to(p, SIDR_REJECT, c->private_data,
			       c->private_data_len);
		return 0;
	}
	if (id->cm != CM_REQ_RCVD && id->cm != CM_REP_RCVD)
		return -EINVAL;
	if (c->private_data_len > REJ_PDATA)
		return -EINVAL;
	id->cm = CM_NONE;
	if (p && (p->cm == CM_REQ_SENT || p->cm == CM_REP_SENT))
		rej_to(p, reason, c->private_data, c->private_data_len);
	return 0;
}

/* ---- DREQ / DREP ---- */

static int connected(uint8_t cm)
{
	return cm == CM_ESTABLISHED || cm == CM_REP_SENT || cm == CM_REP_RCVD;
}

static void send_dreq(struct ucma_id *id)
{
	struct ucma_id *p = peer_of(id);

	if (!p || (!connected(p->cm) && p->cm != CM_DREQ_SENT)) {
		/* the peer's CM is in timewait or gone: it answers DREP */
		timewait(id);
		disconnected(id, 0);
		return;
	}
	if (p->cm == CM_DREQ_SENT) { /* both sent DREQ */
		timewait(p);
		timewait(id);
		disconnected(p, 0);
		disconnected(id, 0);
		return;
	}
	p->cm = CM_DREQ_RCVD;
	id->cm = CM_DREQ_SENT;
	disconnected(p, 0);
}

static void send_drep(struct ucma_id *id)
{
	struct ucma_id *p = peer_of(id);

	timewait(id);
	if (p && p->cm == CM_DREQ_SENT) {
		timewait(p);
		disconnected(p, 0);
	}
}

static int cmd_disconnect(struct ucma_id *id)
{
	if (connected(id->cm))
		send_dreq(id);
	else if (id->cm == CM_DREQ_RCVD)
		send_drep(id);
	else if (id->cm == CM_NONE)
		return -EINVAL;
	/* with nothing left to send (DREQ sent, timewait) it still succeeds */
	return 0;
}

/* ---- INIT_QP_ATTR ---- */

/* The QP's local ACK timeout (cm_ack_timeout), capped at 31. */
static uint8_t ack_timeout(const struct ucma_id *id)
{
	unsigned int life = ucma_path_life(id);
	unsigned int d = CA_ACK_DELAY, t = life + 1;

	if (id->ack_timeout)
		return id->ack_timeout;
	if (t >= d)
		t += d >= t - 1;
	else
		t = d + (t >= d - 1);
	return (uint8_t)(t > 31 ? 31 : t);
}

static int init_qp_attr(const struct ucma_id *id, uint32_t state,
			struct ib_uverbs_qp_attr *q)
{
	memset(q, 0, sizeof(*q));
	q->qp_state = state;
	q->port_num = id->port;
	if (ud(id) || id->cm == CM_NONE) {
		q->qp_attr_mask = IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT |
				  (ud(id) ? IB_QP_QKEY : IB_QP_ACCESS_FLAGS);
		q->qkey = UCMA_UDP_QKEY;
		if (state == IB_QPS_RTR)
			q->rq_psn = id->psn;
		return 0;
	}
	switch (state) {
	case IB_QPS_INIT:
		q->qp_attr_mask = IB_QP_STATE | IB_QP_ACCESS_FLAGS |
				  IB_QP_PKEY_INDEX | IB_QP_PORT;
		q->qp_access_flags =
			IB_ACCESS_REMOTE_WRITE |
			(id->resp_res ? IB_ACCESS_REMOTE_READ |
						IB_ACCESS_REMOTE_ATOMIC
				      : 0);
		return 0;
	case IB_QPS_RTR:
		if (id->cm == CM_REQ_SENT)
			return -EINVAL;
		q->qp_attr_mask = IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
				  IB_QP_DEST_QPN | IB_QP_RQ_PSN |
				  IB_QP_MAX_DEST_RD_ATOMIC |
				  IB_QP_MIN_RNR_TIMER;
		fill_ah(id, &q->ah_attr);
		q->path_mtu = id->mtu;
		q->dest_qp_num = id->peer_qpn;
		q->rq_psn = id->psn;
		q->max_dest_rd_atomic = id->resp_res;
		return 0;
	case IB_QPS_RTS:
		if (id->cm == CM_REQ_SENT)
			return -EINVAL;
		q->qp_attr_mask = IB_QP_STATE | IB_QP_SQ_PSN | IB_QP_RETRY_CNT |
				  IB_QP_RNR_RETRY | IB_QP_MAX_QP_RD_ATOMIC |
				  IB_QP_TIMEOUT;
		q->sq_psn = id->peer_psn;
		q->retry_cnt = id->retry;
		q->rnr_retry = id->rnr_retry;
		q->max_rd_atomic = id->init_depth;
		q->timeout = ack_timeout(id);
		return 0;
	}
	return -EINVAL;
}

static int cmd_init_qp_attr(struct ucma_id *id,
			    const struct rdma_ucm_init_qp_attr *c, uint16_t out)
{
	struct ib_uverbs_qp_attr q;
	int ret;

	if (out < sizeof(q))
		return -ENOSPC;
	if (c->qp_state > IB_QPS_ERR)
		return -EINVAL;
	if (!id->has_dev)
		return -EINVAL;
	ret = init_qp_attr(id, c->qp_state, &q);
	if (ret)
		return ret;
	return sim_copy_to_user((void *)(uintptr_t)c->response, &q, sizeof(q));
}

/* ---- destroy, timers ---- */

void ucma_credit_return(int n)
{
	struct ucma_id *id = &ucma_w->ids[n];

	if (id->listener >= 0 && ucma_w->ids[id->listener].pending)
		ucma_w->ids[id->listener].pending--;
	id->listener = -1;
}

void ucma_id_destroy(int i)
{
	struct ucma_id *id = &ucma_w->ids[i], *p = peer_of(id);
	int n;

	if (!id->used)
		return;
	id->used = 0; /* first: the peer's answers find it gone */
	switch (id->cm) {
	case CM_REQ_SENT:
		if (p && (p->cm == CM_REQ_RCVD || p->cm == CM_REP_SENT))
			rej_to(p, REJ_TIMEOUT, NULL, 0);
		break;
	case CM_REQ_RCVD:
	case CM_REP_SENT:
	case CM_REP_RCVD:
		if (p && (p->cm == CM_REQ_SENT || p->cm == CM_REP_RCVD ||
			  p->cm == CM_REP_SENT))
			rej_to(p, REJ_CONSUMER, NULL, 0);
		break;
	case CM_ESTABLISHED:
		if (p && connected(p->cm)) {
			p->cm = CM_DREQ_RCVD;
			disconnected(p, 0);
		}
		break;
	case CM_DREQ_RCVD:
		if (p && p->cm == CM_DREQ_SENT) {
			timewait(p);
			disconnected(p, 0);
		}
		break;
	}
	if (id->listener >= 0) {
		id->used = 1;
		ucma_credit_return(i);
		id->used = 0;
	}
	for (n = 0; n < UCMA_MAX_IDS; n++)
		if (ucma_w->ids[n].used && ucma_w->ids[n].listener == i)
			ucma_w->ids[n].listener = -1;
	ucma_mc_drop(i);
}

/*
 * The REQ or REP id sent is still unanswered when its wait ends: the CM
 * sends it again (a REQ a full backlog dropped may now reach the
 * listener). A peer that holds it unanswered (its user has not accepted,
 * or not sent the RTU) answers the duplicate with the CMA's MRA, after
 * which every wait is the MRA's; UD's SIDR has no MRA. After the last
 * retry's wait: UNREACHABLE -ETIMEDOUT.
 */
static void resend(int i)
{
	struct ucma_id *id = &ucma_w->ids[i], *p = peer_of(id);
	uint8_t holds = id->timer == TIMER_REQ ? CM_REQ_RCVD : CM_REP_RCVD;

	if (++id->tries > CM_RETRIES) {
		id->timer = TIMER_NONE;
		id->cm = CM_NONE;
		ucma_event(i, RDMA_CM_EVENT_UNREACHABLE, -ETIMEDOUT, NULL);
		return;
	}
	if (id->timer == TIMER_REQ && !p)
		send_req(id);
	else if (p && p->cm == holds)
		id->mra = 1;
	id->deadline_ns = ucma_now_ns() + answer_wait(id);
}

static void timer_fire(int i)
{
	struct ucma_id *id = &ucma_w->ids[i];

	if (id->timer == TIMER_ADDR) {
		id->timer = TIMER_NONE;
		id->state = UCMA_ADDR_BOUND;
		ucma_event(i, RDMA_CM_EVENT_ADDR_ERROR, id->addr_err, NULL);
		return;
	}
	if (id->timer == TIMER_TIMEWAIT) {
		id->timer = TIMER_NONE;
		id->cm = CM_NONE;
		ucma_event(i, RDMA_CM_EVENT_TIMEWAIT_EXIT, 0, NULL);
		return;
	}
	resend(i);
}

uint64_t ucma_timers(int f)
{
	uint64_t now = ucma_now_ns(), next = 0;
	int i;

	for (i = 0; i < UCMA_MAX_IDS; i++) {
		struct ucma_id *id = &ucma_w->ids[i];

		if (!id->used || id->file != f || id->timer == TIMER_NONE)
			continue;
		if (id->deadline_ns <= now)
			timer_fire(i);
		if (id->timer != TIMER_NONE &&
		    (!next || id->deadline_ns - now < next))
			next = id->deadline_ns > now ? id->deadline_ns - now
						     : 1;
	}
	return next;
}

/* ---- the commands ---- */

int ucma_cmd_conn(int f, uint32_t cmd, const uint8_t *in, uint16_t out)
{
	/* every command here starts with the id but these three */
	uint32_t off = cmd == RDMA_USER_CM_CMD_INIT_QP_ATTR ? 8
		       : cmd == RDMA_USER_CM_CMD_CONNECT
			       ? offsetof(struct rdma_ucm_connect, id)
		       : cmd == RDMA_USER_CM_CMD_ACCEPT
			       ? offsetof(struct rdma_ucm_accept, id)
			       : 0;
	struct ucma_id *id;
	uint32_t idn;
	int i;

	memcpy(&idn, in + off, sizeof(idn));
	i = ucma_id_find(f, idn);
	if (i < 0)
		return i;
	id = &ucma_w->ids[i];
	if (cmd == RDMA_USER_CM_CMD_NOTIFY)
		return id->cm == CM_NONE ? -EINVAL : 0;
	if (cmd == RDMA_USER_CM_CMD_INIT_QP_ATTR)
		return cmd_init_qp_attr(id, (const void *)in, out);
	if (!id->has_dev)
		return -EINVAL;
	switch (cmd) {
	case RDMA_USER_CM_CMD_CONNECT:
		return cmd_connect(id, (const void *)in);
	case RDMA_USER_CM_CMD_ACCEPT:
		return cmd_accept(id, (const void *)in);
	case RDMA_USER_CM_CMD_REJECT:
		return cmd_reject(id, (const void *)in);
	}
	return cmd_disconnect(id);
}
