// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * CQ commands: CREATE_CQ takes the ring and doorbell record the driver
 * pinned, MODIFY_CQ resizes the ring (refused with BAD_SIZE_OUTS_CQES
 * when the new ring cannot hold the CQEs not yet consumed) or sets the
 * event moderation, QUERY_CQ reads the context back.
 */
#include "hca.h"
#include "hca_cmd.h"
#include "hca_cmd_int.h"

#include <endian.h>
#include <stdlib.h>

static struct hca_table cq_table;

struct hca_cq *hca_cq_by_cqn(uint32_t cqn)
{
	return cqn ? hca_table_find(&cq_table, cqn) : NULL;
}

static uint8_t create_cq(const void *in, void *out)
{
	const struct hca_create_cq_in *c = in;
	struct hca_create_cq_out *o = out;
	struct hca_cq *cq;

	if (!c->ncqe || (c->ncqe & (c->ncqe - 1)) ||
	    (c->cqe_size != 64 && c->cqe_size != 128) || !c->buf || !c->dbrec)
		return HCA_STAT_BAD_PARAM_ERR;
	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return HCA_STAT_LIM_ERR;
	cq->dev = c->dev;
	cq->cqn = sim_shared_number(sim.sh);
	cq->ncqe = c->ncqe;
	cq->cqe_size = c->cqe_size;
	cq->ignore_overrun = c->ignore_overrun;
	cq->buf = (uint8_t *)(uintptr_t)c->buf;
	cq->dbrec = (volatile uint32_t *)(uintptr_t)c->dbrec;
	if (hca_table_add(&cq_table, cq->cqn, cq)) {
		free(cq);
		return HCA_STAT_LIM_ERR;
	}
	/* no arm yet: a value no arm doorbell can carry */
	cq->dbrec[1] = htobe32(HCA_CQ_ARM_IDLE);
	cq->next = hca_cqs;
	hca_cqs = cq;
	o->cqn = cq->cqn;
	hca_trace_cq_ring(cq);
	return HCA_STAT_OK;
}

static uint8_t destroy_cq(const void *in, void *out)
{
	const struct hca_num_in *c = in;
	struct hca_cq *cq = hca_table_take(&cq_table, c->num);

	(void)out;
	if (!cq)
		return HCA_STAT_BAD_RES_ERR;
	HCA_LIST_UNLINK(&hca_cqs, cq);
	free(cq);
	return HCA_STAT_OK;
}

static uint8_t query_cq(const void *in, void *out)
{
	const struct hca_num_in *c = in;
	struct hca_query_cq_out *o = out;
	struct hca_cq *cq = hca_cq_by_cqn(c->num);

	if (!cq)
		return HCA_STAT_BAD_RES_ERR;
	o->ncqe = cq->ncqe;
	o->cqe_size = cq->cqe_size;
	return HCA_STAT_OK;
}

static uint8_t modify_cq(const void *in, void *out)
{
	const struct hca_modify_cq_in *c = in;
	struct hca_cq *cq = hca_cq_by_cqn(c->cqn);
	uint32_t set_ci;

	(void)out;
	if (!cq)
		return HCA_STAT_BAD_RES_ERR;
	if (c->hdr.op_mod == HCA_MODIFY_CQ_MODERATE) {
		cq->mod_count = c->cq_max_count;
		cq->mod_period = c->cq_period;
		return HCA_STAT_OK;
	}
	if (c->hdr.op_mod != HCA_MODIFY_CQ_RESIZE || !c->ncqe ||
	    (c->ncqe & (c->ncqe - 1)) || !c->buf)
		return HCA_STAT_BAD_PARAM_ERR;
	set_ci = be32toh(cq->dbrec[0]) & 0xffffff;
	if (((cq->pi - set_ci) & 0xffffff) > c->ncqe)
		return HCA_STAT_BAD_SIZE_OUTS_CQES_ERR;
	hca_cq_resize(cq, (uint8_t *)(uintptr_t)c->buf, c->ncqe);
	return HCA_STAT_OK;
}

static const struct hca_cmd_def cq_defs[] = {
	HCA_CMD(CREATE_CQ, create_cq, struct hca_create_cq_in,
		struct hca_create_cq_out),
	HCA_CMD(DESTROY_CQ, destroy_cq, struct hca_num_in, struct hca_cmd_out),
	HCA_CMD(QUERY_CQ, query_cq, struct hca_num_in, struct hca_query_cq_out),
	HCA_CMD(MODIFY_CQ, modify_cq, struct hca_modify_cq_in,
		struct hca_cmd_out),
};
/* the engine's list of CQs is the table's */
static void cq_forked(void)
{
	hca_table_clear(&cq_table, free);
	hca_cqs = NULL;
}

HCA_CMD_TOPIC(cq, cq_defs, cq_forked);
