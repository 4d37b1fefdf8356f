// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The HCA's memory keys of MRs and MWs (mlx5_ib's mkeys): each MR the core
 * registers becomes a CREATE_MKEY carrying what the HCA needs to reach
 * its bytes (PD, range, access, pinned / on-demand / asked at each access
 * / none, the address), each MW a free window the HCA binds by UMR. The
 * translation of dma-buf and MEMIC MRs is the driver's: the HCA raises
 * PAGE_FAULT at each access and is answered with PAGE_FAULT_RESUME (no
 * bytes once the exporter revoked the buffer), where mlx5_ib would
 * invalidate the mkey when the buffer moves.
 */
#include "mlx5.h"
#include "hca_cmd.h"

#include <errno.h>

/* Where the HCA finds byte 0 of a DM MR (MEMIC), 0 for SW ICM. */
static uint64_t dm_bytes(const struct sim_mr *mr)
{
	const struct sim_alloc *a;
	uint8_t *base;

	if (!mr->dm || mr->dm->alloc < 0)
		return 0;
	base = sim_memic_base();
	if (!base)
		return 0;
	a = &sim.sh->allocs[mr->dm->alloc];
	return (uintptr_t)(base + sim_memic_pos(a->dev, a->first_page) +
			   mr->dm->start_offset + mr->offset);
}

static int create_mkey(struct hca_create_mkey_in *c, struct sim_obj *obj)
{
	int ret;

	c->hdr.opcode = HCA_CMD_CREATE_MKEY;
	c->dev = obj->uv->dev;
	ret = mlx5_sim_cmd(c, sizeof(*c), NULL, 0);
	if (ret)
		return ret;
	if (!mlx5_sim_res_add(MLX5_RES_MKEY, c->key, obj)) {
		mlx5_sim_hca_destroy(HCA_CMD_DESTROY_MKEY, c->key);
		return -ENOMEM;
	}
	return 0;
}

static void destroy_mkey(struct sim_obj *obj)
{
	if (!obj->drv)
		return;
	mlx5_sim_hca_destroy(HCA_CMD_DESTROY_MKEY, mlx5_sim_res_num(obj));
	mlx5_sim_res_del(obj);
}

int mlx5_sim_reg_mkey(struct sim_mr *mr)
{
	struct hca_create_mkey_in c = {
		.hdr.op_mod = HCA_MKEY_MR,
		.key = mr->lkey,
		.pdn = mlx5_sim_pdn(mr->pd),
		.access = mr->access,
		.start = mr->iova,
		.length = mr->length,
	};

	if (mr->backing == SIM_MR_DMABUF) {
		c.translation = HCA_MKEY_FAULT;
	} else if (mr->backing == SIM_MR_DM) {
		/* MEMIC is mapped when the HCA first reaches it */
		c.translation =
			mr->dm->alloc < 0 ? HCA_MKEY_NONE : HCA_MKEY_FAULT;
	} else {
		c.addr = mr->addr;
		c.translation = (mr->access & IB_UVERBS_ACCESS_ON_DEMAND)
					? HCA_MKEY_ODP
					: HCA_MKEY_PINNED;
	}
	return create_mkey(&c, &mr->obj);
}

void mlx5_sim_dereg_mkey(struct sim_mr *mr)
{
	destroy_mkey(&mr->obj);
}

int mlx5_sim_alloc_mw_mkey(struct sim_mw *mw)
{
	struct hca_create_mkey_in c = {
		.hdr.op_mod = HCA_MKEY_MW,
		.key = mw->rkey,
		.pdn = mlx5_sim_pdn(mw->pd),
		.mw_type = mw->type,
	};

	return create_mkey(&c, &mw->obj);
}

void mlx5_sim_dealloc_mw_mkey(struct sim_mw *mw)
{
	destroy_mkey(&mw->obj);
}

void mlx5_sim_mkey_fault(const struct hca_eqe *e)
{
	struct mlx5_sim_res *r = mlx5_sim_res_find(MLX5_RES_MKEY, e->num);
	struct hca_page_fault_resume_in in = {
		.hdr.opcode = HCA_CMD_PAGE_FAULT_RESUME,
		.key = e->num,
	};
	struct sim_mr *mr;
	uint8_t *bytes;
	int faulted;

	if (!r)
		return;
	mr = sim_mr(r->obj);
	if (e->sub_type != HCA_PF_TRANSLATE) {
		in.error = !!mlx5_sim_odp_fault(e->va, e->len,
						e->sub_type == HCA_PF_ODP_WRITE,
						0, &faulted);
		in.faulted = (uint8_t)faulted;
	} else if (mr->backing == SIM_MR_DM) {
		in.addr = dm_bytes(mr);
	} else {
		bytes = sim_dmabuf_bytes(mr->dmabuf);
		in.addr = bytes ? (uintptr_t)(bytes + mr->offset) : 0;
	}
	mlx5_sim_cmd(&in, sizeof(in), NULL, 0);
}
