// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UD address handles: the mlx5 address vector is built once here and
 * copied into every UD send WQE. On an IB port the AH never reaches the
 * kernel; on Ethernet the kernel resolves the destination MAC.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "datapath.h"

struct ibv_ah *mlx5_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct mlx5_context *ctx = to_mctx(pd->context);
	struct mlx5_ib_create_ah_resp resp = {};
	struct ibv_udata udata = { .out = &resp, .out_len = sizeof(resp) };
	struct mlx5_ah *ah;
	bool eth;
	int err;

	if (!attr->port_num || attr->port_num > ctx->num_ports ||
	    attr->port_num > MLX5_MAX_PORTS_NUM) {
		errno = EINVAL;
		return NULL;
	}
	eth = ctx->link_layer[attr->port_num - 1] == IBV_LINK_LAYER_ETHERNET;
	ah = calloc(1, sizeof(*ah));
	if (!ah) {
		errno = ENOMEM;
		return NULL;
	}
	err = mlx5_fill_av(&ah->av, attr, eth);
	if (!err && eth) {
		if (!(ctx->cmds_supp_uhw & MLX5_USER_CMDS_SUPP_UHW_CREATE_AH))
			err = EOPNOTSUPP;
		else
			err = ibv_cmd_create_ah(pd, &ah->ibv_ah, attr, &udata);
		if (!err) {
			memcpy(ah->av.rmac, resp.dmac, sizeof(ah->av.rmac));
			ah->kern_ah = true;
		}
	}
	if (err) {
		free(ah);
		errno = err;
		return NULL;
	}
	ah->ibv_ah.context = pd->context;
	ah->ibv_ah.pd = pd;
	return &ah->ibv_ah;
}

int mlx5_destroy_ah(struct ibv_ah *ibah)
{
	struct mlx5_ah *ah = to_mah(ibah);
	int err;

	if (ah->kern_ah) {
		err = ibv_cmd_destroy_ah(ibah);
		if (err)
			return err;
	}
	free(ah);
	return 0;
}
