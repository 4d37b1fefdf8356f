// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The set-up of tests that count fds and mappings under rdma-sim. */
#include <stdio.h>

#include <rdma_sim_peer.h>

#include "dm_util.h"
#include "rdma_util.h"

int dm_env_open_sim(struct dm_env *env)
{
	const struct ep_opts o = {.type = IBV_QPT_RC, .depth = 4};
	struct rdma_ep warm;

	if (!rdma_sim_active()) {
		fprintf(stderr, "run this under rdma-sim\n");
		return -1;
	}
	if (dm_env_open(env, 0)) {
		fprintf(stderr, "cannot open mlx5_0\n");
		return -1;
	}
	sim_warm_up(env->ctx->device);
	if (ep_open(&warm, env->ctx, env->pd, &o)) {
		fprintf(stderr, "cannot create a QP\n");
		dm_env_close(env);
		return -1;
	}
	ep_close(&warm);
	return 0;
}
