// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5_ib's half of the firmware-command interface: the resources it made
 * in the HCA, by number (as mlx5_core's QP/CQ/SRQ tables are), the event
 * queue that turns the HCA's EQEs into uverbs events, and the PD numbers
 * the HCA sees.
 */
#include "mlx5.h"
#include "restrack.h"
#include "hca_cmd.h"
#include "dev_event.h"

#include <errno.h>
#include <stdlib.h>

static struct mlx5_sim_res *res_list;

struct mlx5_sim_res *mlx5_sim_res_add(uint8_t kind, uint32_t num,
				      struct sim_obj *obj)
{
	struct mlx5_sim_res *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->kind = kind;
	r->num = num;
	r->obj = obj;
	r->next = res_list;
	res_list = r;
	obj->drv = r;
	return r;
}

struct mlx5_sim_res *mlx5_sim_res_find(uint8_t kind, uint32_t num)
{
	struct mlx5_sim_res *r;

	for (r = res_list; r; r = r->next)
		if (r->kind == kind && r->num == num)
			return r;
	return NULL;
}

void mlx5_sim_res_del(struct sim_obj *obj)
{
	struct mlx5_sim_res **p, *r = obj->drv;

	for (p = &res_list; *p; p = &(*p)->next)
		if (*p == r) {
			*p = r->next;
			break;
		}
	if (r)
		free(r->dct);
	free(r);
	obj->drv = NULL;
}

uint32_t mlx5_sim_res_num(const struct sim_obj *obj)
{
	const struct mlx5_sim_res *r = obj ? obj->drv : NULL;

	return r ? r->num : 0;
}

/*
 * The HCA's number of a PD. The core numbers PDs per context; the HCA
 * needs one number per PD of the process (two contexts' PDs must not
 * match). Kept in the PD's driver word, made at first use.
 */
uint32_t mlx5_sim_pdn(struct sim_pd *pd)
{
	static uint32_t next_pdn;

	if (!pd)
		return 0;
	if (!pd->obj.drv)
		pd->obj.drv = (void *)(uintptr_t)++next_pdn;
	return (uint32_t)(uintptr_t)pd->obj.drv;
}

int mlx5_sim_cmd(const void *in, size_t in_len, void *out, size_t out_len)
{
	struct hca_cmd_out o = {};

	mlx5_sim_eq_init();
	if (!out) {
		out = &o;
		out_len = sizeof(o);
	}
	return hca_cmd_exec(in, in_len, out, out_len);
}

void mlx5_sim_hca_destroy(uint16_t destroy_op, uint32_t num)
{
	struct hca_num_in in = {.hdr.opcode = destroy_op, .num = num};

	mlx5_sim_cmd(&in, sizeof(in), NULL, 0);
}

/* ---- events ---- */
/* mlx5_ib's affiliated events: the EQE type, the IB event it becomes */
static const struct {
	uint8_t eqe, kind;
	uint32_t ib;
} affiliated[] = {
	{HCA_EQE_CQ_ERROR, MLX5_RES_CQ, SIM_EVENT_CQ_ERR},
	{HCA_EQE_WQ_CATAS_ERROR, MLX5_RES_QP, SIM_EVENT_QP_FATAL},
	{HCA_EQE_WQ_INVAL_REQ_ERROR, MLX5_RES_QP, SIM_EVENT_QP_REQ_ERR},
	{HCA_EQE_WQ_ACCESS_ERROR, MLX5_RES_QP, SIM_EVENT_QP_ACCESS_ERR},
	{HCA_EQE_COMM_EST, MLX5_RES_QP, SIM_EVENT_COMM_EST},
	{HCA_EQE_SQ_DRAINED, MLX5_RES_QP, SIM_EVENT_SQ_DRAINED},
	{HCA_EQE_PATH_MIG, MLX5_RES_QP, 7},
	{HCA_EQE_PATH_MIG_FAILED, MLX5_RES_QP, 6},
	{HCA_EQE_SRQ_LAST_WQE, MLX5_RES_QP, SIM_EVENT_QP_LAST_WQE_REACHED},
	{HCA_EQE_SRQ_CATAS_ERROR, MLX5_RES_SRQ, SIM_EVENT_SRQ_ERR},
	{HCA_EQE_SRQ_RQ_LIMIT, MLX5_RES_SRQ, SIM_EVENT_SRQ_LIMIT_REACHED},
};

/* The HCA moved a QP by itself: the core's state follows QUERY_QP. */
static void qp_state(const struct mlx5_sim_res *r)
{
	struct hca_num_in in = {
		.hdr.opcode = r->dct ? HCA_CMD_QUERY_DCT : HCA_CMD_QUERY_QP,
		.num = r->num,
	};
	struct hca_query_qp_out out = {};

	if (!hca_cmd_exec(&in, sizeof(in), &out, sizeof(out))) {
		sim_qp(r->obj)->attr.qp_state = (uint8_t)out.state;
		sim_res_touch(r->obj);
	}
}

/* An XRC TGT QP is the domain's: its errors go to every handle of every
 * process holding it (core/xrc_tgt.c), whichever HCA found them. */
static void xrc_tgt_event(const struct hca_eqe *e, uint32_t ib)
{
	struct sim_xrc_tgt *t = sim_xrc_tgt_row(sim.sh, e->dev, e->num);

	if (!t)
		return;
	if (e->type != HCA_EQE_XRC_TGT_ERR)
		sim_xrc_tgt_error(t, ib); /* found here */
	else if (e->sub_type == HCA_EQE_SUB_XRC_TGT)
		sim_xrc_tgt_error(t, 0); /* found here, no event */
	else
		sim_xrc_tgt_event(t, t->err_event); /* found elsewhere */
}

static void eq_handler(const struct hca_eqe *e)
{
	struct mlx5_sim_res *r;
	size_t i;

	if (e->type == HCA_EQE_PAGE_FAULT) {
		mlx5_sim_mkey_fault(e);
		return;
	}
	if (e->type == HCA_EQE_XRC_TGT_ERR) {
		xrc_tgt_event(e, 0);
		return;
	}
	if (e->type == HCA_EQE_COMP || e->type == HCA_EQE_QP_STATE) {
		r = mlx5_sim_res_find(e->type == HCA_EQE_COMP ? MLX5_RES_CQ
							      : MLX5_RES_QP,
				      e->num);
		if (r && e->type == HCA_EQE_COMP)
			sim_cq_comp_event(sim_cq(r->obj));
		else if (r)
			qp_state(r);
		return;
	}
	for (i = 0; i < sizeof(affiliated) / sizeof(affiliated[0]); i++) {
		if (affiliated[i].eqe != e->type)
			continue;
		if (e->sub_type == HCA_EQE_SUB_XRC_TGT) {
			xrc_tgt_event(e, affiliated[i].ib);
			return;
		}
		r = mlx5_sim_res_find(affiliated[i].kind, e->num);
		if (!r)
			return;
		/* one limit event per arming; QUERY_SRQ then reads 0 */
		if (e->type == HCA_EQE_SRQ_RQ_LIMIT)
			sim_srq(r->obj)->limit = 0;
		sim_async_event(NULL, affiliated[i].ib, r->obj);
		return;
	}
	sim_drv_dev_event(e);
}

void mlx5_sim_eq_init(void)
{
	sim_drv_eq_open(eq_handler);
}
