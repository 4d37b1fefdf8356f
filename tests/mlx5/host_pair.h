/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The two sides of a data-path test under rdma-sim: hosts A and B on the
 * first and on the last of @ndev devices, and the check at the end that
 * they left no fd or mapping behind.
 */
#ifndef MLX5_HOST_PAIR_H
#define MLX5_HOST_PAIR_H

#include <stdbool.h>

#include "dm_util.h"
#include "rdma_util.h"

struct host_pair {
	struct ibv_device **devs;
	struct rdma_host a, b;
	struct leak_mark mark;
};

/* 0, or -1 with nothing left open. */
int host_pair_open(struct host_pair *p, int ndev, size_t len,
		   unsigned int access);
/* Close everything; true if all closed and nothing outlived the pair. */
bool host_pair_close(struct host_pair *p);

#endif /* MLX5_HOST_PAIR_H */
