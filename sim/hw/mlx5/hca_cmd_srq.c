// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * SRQ commands: CREATE_SRQ / CREATE_XRC_SRQ take the ring and doorbell
 * record the driver pinned (an XRC SRQ also its domain and CQ), ARM_RQ /
 * ARM_XRC_SRQ set the limit whose crossing raises SRQ_RQ_LIMIT once,
 * QUERY_SRQ reads the context back.
 */
#include "hca.h"
#include "hca_cmd.h"
#include "hca_cmd_int.h"

#include <stdlib.h>

static struct hca_table srq_table;

struct hca_srq *hca_srq_by_srqn(uint32_t srqn)
{
	return srqn ? hca_table_find(&srq_table, srqn) : NULL;
}

static uint8_t create_srq(const void *in, void *out)
{
	const struct hca_create_srq_in *c = in;
	struct hca_create_srq_out *o = out;
	int xrc = c->hdr.opcode == HCA_CMD_CREATE_XRC_SRQ;
	struct hca_cq *cq = hca_cq_by_cqn(c->cqn);
	struct hca_srq *srq;

	if ((xrc && (!c->xrcdn || !cq)) || !c->wqe_cnt ||
	    (c->wqe_cnt & (c->wqe_cnt - 1)) || !c->buf || !c->dbrec ||
	    (c->lwm && c->lwm >= c->wqe_cnt))
		return HCA_STAT_BAD_PARAM_ERR;
	srq = calloc(1, sizeof(*srq));
	if (!srq)
		return HCA_STAT_LIM_ERR;
	srq->dev = c->dev;
	srq->srqn = c->srqn ? c->srqn : sim_shared_number(sim.sh);
	srq->wqe_cnt = c->wqe_cnt;
	srq->wqe_shift = c->wqe_shift;
	srq->max_gs = c->max_gs;
	srq->buf = (uint8_t *)(uintptr_t)c->buf;
	srq->dbrec = (volatile uint32_t *)(uintptr_t)c->dbrec;
	srq->limit = c->lwm;
	srq->uidx = c->uidx;
	if (xrc)
		srq->xrcdn = c->xrcdn;
	if (cq) {
		srq->cq = cq;
		srq->pdn = c->pdn;
	}
	if (c->tm_slots && !(srq->tm = hca_tm_new(c->tm_slots))) {
		free(srq);
		return HCA_STAT_LIM_ERR;
	}
	if (hca_table_add(&srq_table, srq->srqn, srq)) {
		hca_tm_free(srq->tm);
		free(srq);
		return HCA_STAT_LIM_ERR;
	}
	srq->next = hca_srqs;
	hca_srqs = srq;
	if (cq) /* XRC and TM SRQs */
		hca_xrc_srq_made(srq);
	o->srqn = srq->srqn;
	return HCA_STAT_OK;
}

static uint8_t destroy_srq(const void *in, void *out)
{
	const struct hca_num_in *c = in;
	struct hca_srq *srq = hca_table_take(&srq_table, c->num);

	(void)out;
	if (!srq)
		return HCA_STAT_BAD_RES_ERR;
	HCA_LIST_UNLINK(&hca_srqs, srq);
	hca_xrc_srq_gone(srq);
	hca_tm_free(srq->tm);
	free(srq);
	return HCA_STAT_OK;
}

static uint8_t query_srq(const void *in, void *out)
{
	const struct hca_num_in *c = in;
	struct hca_query_srq_out *o = out;
	struct hca_srq *srq = hca_srq_by_srqn(c->num);

	if (!srq)
		return HCA_STAT_BAD_RES_ERR;
	o->wqe_cnt = srq->wqe_cnt;
	o->lwm = srq->limit;
	return HCA_STAT_OK;
}

static uint8_t arm_rq(const void *in, void *out)
{
	const struct hca_arm_rq_in *c = in;
	struct hca_srq *srq = hca_srq_by_srqn(c->srqn);

	(void)out;
	if (!srq)
		return HCA_STAT_BAD_RES_ERR;
	if (c->lwm >= srq->wqe_cnt)
		return HCA_STAT_BAD_PARAM_ERR;
	srq->limit = c->lwm;
	return HCA_STAT_OK;
}

static const struct hca_cmd_def srq_defs[] = {
	HCA_CMD(CREATE_SRQ, create_srq, struct hca_create_srq_in,
		struct hca_create_srq_out),
	HCA_CMD(CREATE_XRC_SRQ, create_srq, struct hca_create_srq_in,
		struct hca_create_srq_out),
	HCA_CMD(DESTROY_SRQ, destroy_srq, struct hca_num_in,
		struct hca_cmd_out),
	HCA_CMD(DESTROY_XRC_SRQ, destroy_srq, struct hca_num_in,
		struct hca_cmd_out),
	HCA_CMD(QUERY_SRQ, query_srq, struct hca_num_in,
		struct hca_query_srq_out),
	HCA_CMD(ARM_RQ, arm_rq, struct hca_arm_rq_in, struct hca_cmd_out),
	HCA_CMD(ARM_XRC_SRQ, arm_rq, struct hca_arm_rq_in, struct hca_cmd_out),
};
static void srq_free(void *obj)
{
	struct hca_srq *srq = obj;

	hca_tm_free(srq->tm);
	free(srq);
}

static void srq_forked(void)
{
	hca_table_clear(&srq_table, srq_free);
	hca_srqs = NULL;
}

HCA_CMD_TOPIC(srq, srq_defs, srq_forked);
