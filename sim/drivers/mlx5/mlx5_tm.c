// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5_ib and tag matching: the device's tm_caps and the TM SRQ check.
 *
 * The capabilities follow mlx5_ib_query_device: max_num_tags =
 * (1 << log_tag_matching_list_sz) - 1, max_ops = 1 << log_max_qp_sz,
 * max_sge 1, IBV_TM_CAP_RC, and max_rndv_hdr_size 64 (rndv_offload_rc: the
 * HCA READs a matched rendezvous itself). A port on Ethernet
 * models the ConnectX-6 Dx, which reports no tag matching at all (list
 * size 0); an IB port models a ConnectX with a 128-slot list.
 *
 * mlx5_ib_create_srq for IB_SRQT_TM: log list size = ilog2(max_num_tags)
 * + 1, EINVAL above the device's (so every TM SRQ on a device without TM),
 * after the checks every SRQ has. The SRQ is an XRQ with a tag list of
 * that many slots (hw/mlx5/hca_tm.c).
 */
#include "mlx5.h"
#include "hca_cmd.h"

#include <errno.h>

#define MLX5_SIM_LOG_TM_LIST_SZ 7
#define MLX5_TM_CAP_RC		1 /* IB_TM_CAP_RNDV_RC */

static uint32_t log_tm_list_sz(unsigned int dev)
{
	return sim_port_is_eth(sim.sh, dev) ? 0 : MLX5_SIM_LOG_TM_LIST_SZ;
}

void mlx5_sim_tm_caps(unsigned int dev, struct ib_uverbs_tm_caps *caps)
{
	uint32_t log = log_tm_list_sz(dev);

	if (!log)
		return;
	caps->max_num_tags = (1u << log) - 1;
	caps->max_ops = 1u << MLX5_SIM_LOG_MAX_QP_SZ;
	caps->max_sge = 1;
	caps->flags = MLX5_TM_CAP_RC;
	caps->max_rndv_hdr_size = HCA_TM_RNDV_HDR;
}

int mlx5_sim_tm_srq(unsigned int dev, struct sim_srq *gsrq, uint32_t *slots)
{
	uint32_t log = 0;

	/* ilog2(max_num_tags) + 1; the kernel's ilog2(0) is -1 */
	if (gsrq->max_num_tags)
		log = 32 - (uint32_t)__builtin_clz(gsrq->max_num_tags);
	if (log > log_tm_list_sz(dev))
		return -EINVAL;
	*slots = 1u << log;
	return 0;
}
