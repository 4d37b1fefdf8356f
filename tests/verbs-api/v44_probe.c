// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Built with the system's rdma-core 44 <infiniband/verbs.h>, never ours:
 * the static inline verbs below are upstream's, reaching our context
 * through the verbs_context slots and ibv_context_ops members alone.
 */
#include <errno.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "v44_probe.h"

/* Fails to build if our headers were picked up instead of v44's. */
_Static_assert(sizeof(struct verbs_context) == 648, "not rdma-core 44");
_Static_assert(sizeof(struct ibv_port_attr) == 52, "not rdma-core 44");

void v44_probe(void *ibv_context, struct v44_result *res)
{
	struct ibv_context *ctx = ibv_context;
	struct ibv_alloc_dm_attr dm_attr = { .length = 4096 };
	struct ibv_query_device_ex_input bad = { .comp_mask = 1 };
	struct ibv_device_attr_ex attr;
	struct ibv_pd pd = { .context = ctx };
	struct ibv_cq cq = { .context = ctx };
	struct {
		struct ibv_port_attr attr;
		unsigned char after[8];
	} port;
	struct ibv_wc wc;
	struct ibv_dm *dm;

	memset(res, 0, sizeof(*res));
	errno = 0;
	dm = ibv_alloc_dm(ctx, &dm_attr);
	res->dm = dm;
	res->alloc_dm_errno = errno;
	if (dm) {
		res->dm_handle = dm->handle;
		errno = 0;
		res->dm_mr = ibv_reg_dm_mr(&pd, dm, 0, 64,
					   IBV_ACCESS_ZERO_BASED);
		res->dm_mr_errno = errno;
		res->free_dm_ret = ibv_free_dm(dm);
	}

	res->query_ex_ret = ibv_query_device_ex(ctx, NULL, &attr);
	res->max_dm_size = attr.max_dm_size;
	res->query_ex_bad_mask = ibv_query_device_ex(ctx, &bad, &attr);

	memset(&port, 0x5a, sizeof(port));
	res->query_port_ret = ibv_query_port(ctx, 1, &port.attr);
	res->lid = port.attr.lid;
	res->port_bytes_past_v44_untouched = port.after[0] == 0x5a &&
					     port.after[3] == 0x5a;

	res->poll_ret = ibv_poll_cq(&cq, 1, &wc);
}
