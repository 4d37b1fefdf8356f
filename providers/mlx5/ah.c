// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UD address handles: the mlx5 address vector is built once here and
 * copied into every UD send WQE. On an IB port the AH never reaches the
 * kernel; on Ethernet the kernel resolves the destination MAC, and a
 * RoCE v2 source GID puts the UDP source port in the AV.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "datapath.h"

/* The GID type of the source GID says RoCE v1 or v2 (UDP/IP). */
static int set_roce_v2_sport(struct ibv_context *ibctx,
			     const struct ibv_ah_attr *attr,
			     struct mlx5_wqe_av *av)
{
	struct ibv_gid_entry entry = {};
	int err;

	err = _ibv_query_gid_ex(ibctx, attr->port_num, attr->grh.sgid_index,
				&entry, 0, sizeof(entry));
	if (err)
		return err;
	if (entry.gid_type == IBV_GID_TYPE_ROCE_V2)
		mlx5_av_set_udp_sport(av, attr->grh.flow_label);
	return 0;
}

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
	if (!err && eth)
		err = set_roce_v2_sport(pd->context, attr, &ah->av);
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
