// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Protection domains: ALLOC_PD returns the PD number in the mlx5 response.
 */
#include <errno.h>
#include <stdlib.h>

#include "mlx5.h"

struct ibv_pd *mlx5_alloc_pd(struct ibv_context *ibctx)
{
	struct mlx5_ib_alloc_pd_resp resp = {};
	struct ibv_udata udata = { .out = &resp, .out_len = sizeof(resp) };
	struct mlx5_pd *pd;
	int err;

	pd = calloc(1, sizeof(*pd));
	if (!pd)
		return NULL;
	err = ibv_cmd_alloc_pd(ibctx, &pd->ibv_pd, &udata);
	if (err) {
		free(pd);
		errno = err;
		return NULL;
	}
	pd->pdn = resp.pdn;
	return &pd->ibv_pd;
}

int mlx5_dealloc_pd(struct ibv_pd *ibpd)
{
	int err = ibv_cmd_dealloc_pd(ibpd);

	if (err)
		return err;
	free(to_mpd(ibpd));
	return 0;
}
