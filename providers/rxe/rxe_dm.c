// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Device memory: rxe has none, but the request still goes to the kernel so
 * the caller gets the kernel's answer rather than one made up here.
 */
#include <stdlib.h>

#include "rxe.h"

struct ibv_dm *rxe_alloc_dm(struct ibv_context *ctx,
			    struct ibv_alloc_dm_attr *attr)
{
	struct verbs_dm *dm = calloc(1, sizeof(*dm));
	int err;

	if (!dm)
		return NULL;
	err = ibv_cmd_alloc_dm(ctx, attr, dm, NULL);
	if (err) {
		free(dm);
		/* rdma_rxe hides the DM object: the core says EOPNOTSUPP. */
		errno = err;
		return NULL;
	}
	return &dm->dm;
}

int rxe_free_dm(struct ibv_dm *ibdm)
{
	struct verbs_dm *dm = (struct verbs_dm *)ibdm;
	int err = ibv_cmd_free_dm(dm);

	if (!err)
		free(dm);
	return err;
}

/* rxe DM (if a kernel ever had it) has no mmap region: offset 0. */
int rxe_dm_export_dmabuf_fd(struct ibv_dm *dm)
{
	return ibv_cmd_export_dmabuf_fd(dm->context, 0);
}
