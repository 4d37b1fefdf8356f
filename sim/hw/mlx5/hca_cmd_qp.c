// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * QP and DCT commands. CREATE_QP takes the rings and doorbell record the
 * driver pinned and makes the QP reachable on the fabric; the transition
 * commands (RST2INIT_QP ... 2RST_QP) set the context fields their mask
 * names and move the QP to the command's state; QUERY_QP reads the state
 * back, which is how the driver learns of a state the HCA chose itself
 * (hca_qp_set_state raises an EQE for it). A DCT is created whole at
 * INIT->RTR time, reachable at once.
 */
#include "hca.h"
#include "hca_cmd.h"
#include "hca_cmd_int.h"

#include <stdlib.h>

static struct hca_table qp_table;

void hca_qp_set_state(struct hca_qp *qp, uint32_t state)
{
	qp->state = state;
	if (!qp->dct_parent) /* a DCT's connection: not the DCT */
		hca_eq_post(HCA_EQE_QP_STATE, 0, qp->dev, qp->qpn);
}

/* The engine's type of a QPC service type; 0 if it has none. */
static uint32_t engine_type(uint8_t st)
{
	switch (st) {
	case HCA_ST_RC:
	case HCA_ST_XRC:
	case HCA_ST_DCI:
		return IB_QPT_RC; /* XRC and DCI request as RC */
	case HCA_ST_UC:
		return IB_QPT_UC;
	case HCA_ST_UD:
		return IB_QPT_UD;
	}
	return 0;
}

static void qp_free(struct hca_qp *qp)
{
	uint32_t i;

	for (i = 0; i < qp->ring_size; i++)
		free(qp->ring[i].inline_buf);
	free(qp->ring);
	free(qp);
}

/* Into the table and the engine's list, reachable on the fabric. */
static uint8_t qp_publish(struct hca_qp *qp)
{
	if (hca_table_add(&qp_table, qp->qpn, qp))
		return HCA_STAT_LIM_ERR;
	if (hca_fabric_attach(qp->dev, qp->qpn)) {
		hca_table_take(&qp_table, qp->qpn);
		return HCA_STAT_INT_ERR;
	}
	qp->next = hca_qps;
	hca_qps = qp;
	hca_engine_start();
	return HCA_STAT_OK;
}

/* cs_res and cs_req hold none of the values the QPC defines for them */
static int bad_cs(const struct hca_create_qp_in *c)
{
	return (c->cs_res != HCA_CS_RES_DISABLE &&
		c->cs_res != HCA_CS_RES_UP_TO_32B &&
		c->cs_res != HCA_CS_RES_UP_TO_64B) ||
	       (c->cs_req != HCA_CS_REQ_DISABLE &&
		c->cs_req != HCA_CS_REQ_UP_TO_32B &&
		c->cs_req != HCA_CS_REQ_UP_TO_64B);
}

static uint8_t create_qp(const void *in, void *out)
{
	const struct hca_create_qp_in *c = in;
	uint8_t tgt = c->st == HCA_ST_XRC && c->xrc_half == HCA_XRC_HALF_TGT;
	struct hca_qp *qp;
	uint8_t status;

	(void)out;
	if (!engine_type(c->st) || (c->st == HCA_ST_XRC && !c->xrc_half) ||
	    (tgt ? !c->xrcdn : !c->dbrec) ||
	    (c->sq_wqe_cnt & (c->sq_wqe_cnt - 1)) || bad_cs(c) ||
	    hca_table_find(&qp_table, c->qpn))
		return HCA_STAT_BAD_PARAM_ERR;
	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return HCA_STAT_LIM_ERR;
	qp->ring_size = c->sq_wqe_cnt;
	if (qp->ring_size) {
		qp->ring = calloc(qp->ring_size, sizeof(*qp->ring));
		if (!qp->ring) {
			free(qp);
			return HCA_STAT_LIM_ERR;
		}
	}
	qp->dev = c->dev;
	qp->qpn = c->qpn;
	qp->type = engine_type(c->st);
	if (c->st == HCA_ST_XRC)
		qp->xrc = tgt ? HCA_XRC_TGT : HCA_XRC_INI;
	qp->dci = c->st == HCA_ST_DCI;
	qp->xrcdn = c->xrcdn;
	qp->uidx = c->uidx;
	qp->pdn = c->pdn;
	qp->scq = hca_cq_by_cqn(c->cqn_snd);
	qp->rcq = hca_cq_by_cqn(c->cqn_rcv);
	qp->srq = hca_srq_by_srqn(c->srqn);
	qp->buf = (uint8_t *)(uintptr_t)c->buf;
	qp->dbrec = (volatile uint32_t *)(uintptr_t)c->dbrec;
	qp->rq_wqe_cnt = c->rq_wqe_cnt;
	qp->rq_wqe_shift = c->rq_wqe_shift;
	qp->sq_wqe_cnt = c->sq_wqe_cnt;
	qp->cs_res = c->cs_res;
	qp->cs_req = c->cs_req;
	qp->sq_start = qp->buf + ((uint64_t)c->rq_wqe_cnt << c->rq_wqe_shift);
	status = qp_publish(qp);
	if (status) {
		qp_free(qp);
		return status;
	}
	if (!tgt)
		hca_trace_rings(qp, c);
	return HCA_STAT_OK;
}

/* The context's data-path ordering: traced, nothing else reads it. */
static void set_dp_ooo(struct hca_qp *qp, uint8_t ooo)
{
	qp->dp_ooo = ooo;
	sim_trace("hca qp %#x dp_ordering %s", qp->qpn,
		  ooo ? "ooo_all" : "in_order");
}

static uint8_t create_dct(const void *in, void *out)
{
	const struct hca_create_dct_in *c = in;
	struct hca_qp *qp;
	uint8_t status;

	(void)out;
	if (!hca_cq_by_cqn(c->cqn) || !hca_srq_by_srqn(c->srqn) ||
	    hca_table_find(&qp_table, c->dctn))
		return HCA_STAT_BAD_PARAM_ERR;
	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return HCA_STAT_LIM_ERR;
	qp->dev = c->dev;
	qp->qpn = c->dctn;
	qp->type = IB_QPT_RC;
	qp->dct = 1;
	qp->dc_key = c->dc_key;
	qp->uidx = c->uidx;
	qp->pdn = c->pdn;
	qp->rcq = hca_cq_by_cqn(c->cqn);
	qp->srq = hca_srq_by_srqn(c->srqn);
	qp->access = c->access;
	qp->min_rnr_timer = c->min_rnr_timer;
	qp->cs_res = c->cs_res;
	qp->state = IB_QPS_RTR;
	set_dp_ooo(qp, c->dp_ooo);
	status = qp_publish(qp);
	if (status)
		free(qp);
	return status;
}

static uint8_t destroy_qp(const void *in, void *out)
{
	const struct hca_num_in *c = in;
	struct hca_qp *qp = hca_table_take(&qp_table, c->num), **p;

	(void)out;
	if (!qp || qp->dct != (c->hdr.opcode == HCA_CMD_DESTROY_DCT))
		return qp ? HCA_STAT_BAD_PARAM_ERR : HCA_STAT_BAD_RES_ERR;
	if (qp->dct)
		hca_dct_release(qp);
	for (p = &hca_qps; *p; p = &(*p)->next)
		if (*p == qp) {
			/* What was rung goes out first: hardware takes it
			 * in microseconds, long before a firmware command
			 * (a program may destroy the QP right after
			 * posting, as mckey's sender does). */
			hca_sq_process(qp);
			*p = qp->next;
			/* not a fork child's copy of the parent's QP */
			hca_fabric_detach(qp->dev, qp->qpn);
			break;
		}
	qp_free(qp);
	if (!hca_qps) /* nothing left to write into peers */
		hca_peer_forget();
	return HCA_STAT_OK;
}

/* The state each transition command leads to. */
static const struct {
	uint16_t opcode;
	uint8_t state;
} transitions[] = {
	{HCA_CMD_RST2INIT_QP, IB_QPS_INIT},
	{HCA_CMD_INIT2INIT_QP, IB_QPS_INIT},
	{HCA_CMD_INIT2RTR_QP, IB_QPS_RTR},
	{HCA_CMD_RTR2RTS_QP, IB_QPS_RTS},
	{HCA_CMD_RTS2RTS_QP, IB_QPS_RTS},
	{HCA_CMD_SQERR2RTS_QP, IB_QPS_RTS},
	{HCA_CMD_SQD_RTS_QP, IB_QPS_RTS},
	{HCA_CMD_2ERR_QP, IB_QPS_ERR},
	{HCA_CMD_2RST_QP, IB_QPS_RESET},
};

static uint32_t target_state(const struct hca_modify_qp_in *c)
{
	size_t i;

	for (i = 0; i < sizeof(transitions) / sizeof(transitions[0]); i++)
		if (transitions[i].opcode == c->hdr.opcode)
			return transitions[i].state;
	return c->state;
}

static void set_context(struct hca_qp *qp, const struct hca_modify_qp_in *c)
{
	uint32_t m = c->mask;

	if (m & HCA_QPC_ACCESS)
		qp->access = c->access;
	if (m & HCA_QPC_QKEY)
		qp->qkey = c->qkey;
	if (m & HCA_QPC_PATH) {
		qp->dlid_dev = c->path_dev;
		qp->udp_sport = c->udp_sport;
	}
	if (m & HCA_QPC_TIMEOUT)
		qp->timeout = c->timeout;
	if (m & HCA_QPC_RETRY)
		qp->retry_cnt = c->retry_cnt;
	if (m & HCA_QPC_RNR_RETRY)
		qp->rnr_retry = c->rnr_retry;
	if (m & HCA_QPC_MIN_RNR)
		qp->min_rnr_timer = c->min_rnr_timer;
	if (m & HCA_QPC_SRA)
		qp->log_rd_atom = c->log_sra_max;
	if (m & HCA_QPC_RRA)
		qp->dest_rd_atom = c->rra_max;
	if (m & HCA_QPC_RQ_PSN)
		qp->epsn = c->rq_psn & 0xffffff;
	if (m & HCA_QPC_SQ_PSN)
		qp->npsn = c->sq_psn & 0xffffff;
	if (m & HCA_QPC_DEST_QPN)
		qp->dest_qpn = c->dest_qpn;
	if (m & HCA_QPC_DP_ORDERING)
		set_dp_ooo(qp, c->dp_ooo);
}

static uint8_t modify_qp(const void *in, void *out)
{
	const struct hca_modify_qp_in *c = in;
	struct hca_qp *qp = hca_table_find(&qp_table, c->qpn);
	uint32_t next = target_state(c);

	(void)out;
	if (!qp || qp->dct)
		return HCA_STAT_BAD_RES_ERR;
	if (next > IB_QPS_ERR)
		return HCA_STAT_BAD_PARAM_ERR;
	set_context(qp, c);
	if (next == IB_QPS_RESET)
		hca_qp_reset(qp);
	if (next == IB_QPS_ERR)
		hca_qp_to_err(qp);
	qp->state = next;
	return HCA_STAT_OK;
}

/* The QP's errors come to this process's ring from the process that finds
 * them (hca_xrc.c): it needs a ring and an engine, no queue of its own. */
static uint8_t open_xrc_tgt(const void *in, void *out)
{
	(void)in, (void)out;
	if (hca_fabric_open())
		return HCA_STAT_INT_ERR;
	hca_engine_start();
	return HCA_STAT_OK;
}

static uint8_t query_qp(const void *in, void *out)
{
	const struct hca_num_in *c = in;
	struct hca_query_qp_out *o = out;
	struct hca_qp *qp = hca_table_find(&qp_table, c->num);

	if (!qp || qp->dct != (c->hdr.opcode == HCA_CMD_QUERY_DCT))
		return HCA_STAT_BAD_RES_ERR;
	o->state = qp->state;
	return HCA_STAT_OK;
}

#define MODIFY(op)                                                             \
	HCA_CMD(op, modify_qp, struct hca_modify_qp_in, struct hca_cmd_out)

static const struct hca_cmd_def qp_defs[] = {
	HCA_CMD(CREATE_QP, create_qp, struct hca_create_qp_in,
		struct hca_cmd_out),
	HCA_CMD(DESTROY_QP, destroy_qp, struct hca_num_in, struct hca_cmd_out),
	MODIFY(RST2INIT_QP),
	MODIFY(INIT2INIT_QP),
	MODIFY(INIT2RTR_QP),
	MODIFY(RTR2RTS_QP),
	MODIFY(RTS2RTS_QP),
	MODIFY(SQERR2RTS_QP),
	MODIFY(SQD_RTS_QP),
	MODIFY(2ERR_QP),
	MODIFY(2RST_QP),
	MODIFY(SIM_2STATE_QP),
	HCA_CMD(QUERY_QP, query_qp, struct hca_num_in, struct hca_query_qp_out),
	HCA_CMD(CREATE_DCT, create_dct, struct hca_create_dct_in,
		struct hca_cmd_out),
	HCA_CMD(DESTROY_DCT, destroy_qp, struct hca_num_in, struct hca_cmd_out),
	HCA_CMD(SIM_OPEN_XRC_TGT, open_xrc_tgt, struct hca_num_in,
		struct hca_cmd_out),
	HCA_CMD(QUERY_DCT, query_qp, struct hca_num_in,
		struct hca_query_qp_out),
};
/* The engine's list holds every QP: the table's, a DCT's connections and
 * XRC_TGT instances (hca_dc.c, hca_xrc.c). */
static void qp_forked(void)
{
	struct hca_qp *qp, *next;

	for (qp = hca_qps; qp; qp = next) {
		next = qp->next;
		qp_free(qp);
	}
	hca_qps = NULL;
	hca_table_clear(&qp_table, NULL);
}

HCA_CMD_TOPIC(qp, qp_defs, qp_forked);
