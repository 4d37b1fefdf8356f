// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Protection domains: ALLOC_PD returns the PD number in the mlx5 response;
 * a PD imported from another context sharing the cmd fd gets it from the
 * driver's PD_QUERY.
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
	pd->refcount = 1;
	return &pd->ibv_pd;
}

int mlx5_dealloc_pd(struct ibv_pd *ibpd)
{
	struct mlx5_parent_domain *mparent = to_mparent_domain(ibpd);
	int err;

	if (mparent)
		return mlx5_dealloc_parent_domain(mparent);
	if (__atomic_load_n(&to_mpd(ibpd)->refcount, __ATOMIC_RELAXED) > 1)
		return EBUSY;
	err = ibv_cmd_dealloc_pd(ibpd);
	if (err)
		return err;
	free(to_mpd(ibpd));
	return 0;
}

struct ibv_pd *mlx5_import_pd(struct ibv_context *ibctx, uint32_t pd_handle)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_PD, MLX5_IB_METHOD_PD_QUERY, 2);
	struct mlx5_pd *pd;
	int err;

	pd = calloc(1, sizeof(*pd));
	if (!pd)
		return NULL;
	uverbs_attr_in_obj(cmd, MLX5_IB_ATTR_QUERY_PD_HANDLE, pd_handle);
	uverbs_attr_out_ptr(cmd, MLX5_IB_ATTR_QUERY_PD_RESP_PDN, &pd->pdn,
			    sizeof(pd->pdn));
	err = uverbs_cmd_execute(ibctx, cmd);
	if (err) {
		free(pd);
		errno = err;
		return NULL;
	}
	pd->ibv_pd.context = ibctx;
	pd->ibv_pd.handle = pd_handle;
	pd->refcount = 1;
	return &pd->ibv_pd;
}

/*
 * Local only: the PD stays the allocating context's. Not for a parent
 * domain (ibv_dealloc_pd frees those) nor while a parent domain holds it:
 * a void verb cannot say so, so it leaves the PD alone.
 */
void mlx5_unimport_pd(struct ibv_pd *ibpd)
{
	if (to_mparent_domain(ibpd) ||
	    __atomic_load_n(&to_mpd(ibpd)->refcount, __ATOMIC_RELAXED) > 1)
		return;
	free(to_mpd(ibpd));
}
