// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Tag-matching SRQs. The kernel makes the SRQ an XRQ with a tag list; the
 * list is edited through a hidden RC "command QP" of the SRQ (same PD and
 * CQ, max_ops send WQEs, connected to itself) whose TAG_MATCHING WQEs
 * (opcode 0x28, ctrl + mlx5_wqe_tm_seg + for an append one data segment)
 * the HCA runs locally.
 *
 * Tag handles are indexes into max_num_tags + 1 entries chained into a
 * free list: an append takes the head and tells the HCA the next head, so
 * the HCA's slots and ours agree. An entry goes back to the free list when
 * no CQE still names it: "expect" counts them (the message or removal it
 * waits for, plus the list CQE of a signaled add or delete).
 *
 * CQEs with app = tag matching: a list operation (NO_PACKET, app_op
 * APPEND/REMOVE/NOOP, in post order: the op ring gives their wr_id); a
 * tagged message (app_info = the entry, TMH in bytes 0-15); a message in
 * an SRQ WQE, unexpected or without a tag.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tm.h"

/* The command QP is looped to itself: its WQEs never reach the wire. */
static int cmd_qp_connect(struct ibv_qp *qp)
{
	static const struct {
		enum ibv_qp_state state;
		int mask;
	} steps[] = {
		{IBV_QPS_INIT,
		 IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS},
		{IBV_QPS_RTR,
		 IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			 IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER},
		{IBV_QPS_RTS, IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
				      IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
				      IBV_QP_MAX_QP_RD_ATOMIC},
	};
	struct ibv_qp_attr a = {
		.path_mtu = IBV_MTU_256,
		.dest_qp_num = qp->qp_num,
		.max_rd_atomic = 1,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 12,
		.port_num = 1,
		.timeout = 14,
		.retry_cnt = 7,
		.rnr_retry = 7,
		.ah_attr = {.port_num = 1},
	};
	struct ibv_port_attr port;
	unsigned int i;
	int err = ibv_query_port(qp->context, 1, &port);

	if (err)
		return err;
	a.ah_attr.dlid = port.lid;
	a.ah_attr.is_global = port.link_layer == IBV_LINK_LAYER_ETHERNET;
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		a.qp_state = steps[i].state;
		err = ibv_modify_qp(qp, &a, IBV_QP_STATE | steps[i].mask);
		if (err)
			return err;
	}
	return 0;
}

void mlx5_tm_destroy(struct mlx5_srq *srq)
{
	struct mlx5_tm *tm = srq->tm;

	if (!tm)
		return;
	free(tm->ops);
	free(tm->tags);
	free(tm);
	srq->tm = NULL;
}

int mlx5_tm_destroy_cmd_qp(struct mlx5_srq *srq)
{
	int err;

	if (!srq->tm || !srq->tm->cmd_qp)
		return 0;
	err = ibv_destroy_qp(srq->tm->cmd_qp);
	if (!err)
		srq->tm->cmd_qp = NULL;
	return err;
}

int mlx5_tm_create(struct mlx5_srq *srq, struct ibv_srq_init_attr_ex *attr)
{
	struct ibv_qp_init_attr_ex qa = {
		.qp_type = IBV_QPT_RC,
		.send_cq = attr->cq,
		.recv_cq = attr->cq,
		.srq = &srq->verbs_srq.srq,
		.cap = {.max_send_wr = attr->tm_cap.max_ops, .max_send_sge = 1},
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = attr->pd,
	};
	struct mlx5_tm *tm = calloc(1, sizeof(*tm));
	uint32_t i;

	if (!tm)
		return ENOMEM;
	srq->tm = tm;
	tm->ntags = attr->tm_cap.max_num_tags + 1;
	tm->tags = calloc(tm->ntags, sizeof(*tm->tags));
	if (!tm->tags)
		return ENOMEM;
	for (i = 0; i < tm->ntags; i++)
		tm->tags[i].next = i + 1 < tm->ntags ? i + 1 : TM_NONE;
	tm->tail = tm->ntags - 1;
	tm->cmd_qp = ibv_create_qp_ex(attr->pd->context, &qa);
	if (!tm->cmd_qp)
		return errno;
	tm->ops = calloc(to_mqp(tm->cmd_qp)->sq.wqe_cnt, sizeof(*tm->ops));
	if (!tm->ops)
		return ENOMEM;
	return cmd_qp_connect(tm->cmd_qp);
}
