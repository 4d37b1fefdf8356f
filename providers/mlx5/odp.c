// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * On-demand paging on mlx5: the capabilities come from the kernel as they
 * are (EX_QUERY_DEVICE); registration is the generic one with
 * IBV_ACCESS_ON_DEMAND (implicit: addr NULL, length SIZE_MAX); prefetch
 * advice goes to the kernel as ADVISE_MR. A page fault on an SRQ receive
 * is the HCA's and the kernel's business (see cq_poll.c).
 */
#include "datapath.h"

int mlx5_advise_mr(struct ibv_pd *pd, enum ibv_advise_mr_advice advice,
		   uint32_t flags, struct ibv_sge *sg_list, uint32_t num_sge)
{
	return ibv_cmd_advise_mr(pd, advice, flags, sg_list, num_sge);
}
