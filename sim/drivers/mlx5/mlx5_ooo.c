// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Out-of-order receive WR consumption as mlx5_ib offers it (Linux 6.13):
 * the query-device flag when the firmware can force data-path ordering
 * for some service type, and mlx5_ib_modify_qp's udata read the way
 * mlx5_ib_modify_qp reads it. A QP granted it gets dp_ordering in its
 * context at INIT->RTR (mlx5_queues.c), a DCT as it is made (mlx5_dc.c).
 * --kernel 6.1 answers as 6.1 (and 6.12) do: no flag, no comp_mask bit.
 */
#include "mlx5.h"
#include "hca_cmd.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

static bool kernel_has_ooo(void)
{
	return !sim.sh->cfg.kernel_61;
}

/* get_dp_ooo_cap(): the firmware's bit for the QP's service type. */
static bool dp_ooo_cap(const struct sim_qp *gqp)
{
	uint32_t type_cap;

	if (!HCA_CAP_DP_ORDERING_FORCE)
		return false;
	switch (gqp->qp_type) {
	case IB_QPT_RC:
		type_cap = HCA_DP_OOO_RC;
		break;
	case IB_QPT_XRC_INI:
	case IB_QPT_XRC_TGT:
		type_cap = HCA_DP_OOO_XRC;
		break;
	case IB_QPT_UC:
		type_cap = HCA_DP_OOO_UC;
		break;
	case IB_QPT_UD:
		type_cap = HCA_DP_OOO_UD;
		break;
	case IB_QPT_DRIVER: /* DCI and DCT */
		type_cap = HCA_DP_OOO_DC;
		break;
	default:
		return false;
	}
	return HCA_CAP_DP_OOO_ALL & type_cap;
}

uint32_t mlx5_sim_ooo_dev_flags(void)
{
	/* mlx5_ib: force, and "out of order, all" for some service type */
	if (kernel_has_ooo() && HCA_CAP_DP_ORDERING_FORCE &&
	    HCA_CAP_DP_OOO_ALL != 0)
		return RDMA_DM_MLX5_QUERY_DEV_RESP_FLAGS_OOO_DP;
	return 0;
}

/*
 * Shorter than the whole struct (ece_options included): EINVAL. A longer
 * one with anything past it, a comp_mask bit the kernel does not know, or
 * burst_info.reserved set: EOPNOTSUPP. OOO_DP on a type the firmware
 * cannot reorder: EOPNOTSUPP; else the QP keeps it (even if the modify
 * then fails, as mlx5_ib's is_ooo_rq).
 */
int mlx5_sim_modify_udata(struct sim_qp *gqp, const void *in, size_t in_len)
{
	const uint32_t known =
		kernel_has_ooo() ? RDMA_DM_MLX5_MODIFY_QP_OOO_DP : 0;
	struct mlx5_sim_res *r = gqp->obj.drv;
	struct mlx5_ib_modify_qp req;

	if (!in_len)
		return 0;
	if (in_len < sizeof(req))
		return -EINVAL;
	if (in_len > sizeof(req) && mlx5_sim_nonzero(in, sizeof(req), in_len))
		return -EOPNOTSUPP;
	memcpy(&req, in, sizeof(req));
	if ((req.comp_mask & ~known) || req.burst_info.reserved)
		return -EOPNOTSUPP;
	if (req.comp_mask & RDMA_DM_MLX5_MODIFY_QP_OOO_DP) {
		if (!dp_ooo_cap(gqp))
			return -EOPNOTSUPP;
		if (r)
			r->ooo_dp = 1;
	}
	return 0;
}
