// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Shared receive queues. The provider fills every generic field through
 * ibv_cmd_create_srq_ex(); destroy waits there for acked async events.
 */
#include "ibverbs.h"
#include "verbs_internal.h"

struct ibv_srq *ibv_create_srq(struct ibv_pd *pd,
			       struct ibv_srq_init_attr *srq_init_attr)
{
	if (!pd || !srq_init_attr)
		return verbs_null_einval();
	return get_ops(pd->context)->create_srq(pd, srq_init_attr);
}

int ibv_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr,
		   int srq_attr_mask)
{
	if (!srq || !srq_attr)
		return verbs_einval();
	return verbs_set_errno(get_ops(srq->context)->modify_srq(
		srq, srq_attr, srq_attr_mask));
}

int ibv_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr)
{
	if (!srq || !srq_attr)
		return verbs_einval();
	return verbs_set_errno(get_ops(srq->context)->query_srq(srq, srq_attr));
}

int ibv_destroy_srq(struct ibv_srq *srq)
{
	if (!srq)
		return verbs_einval();
	return verbs_set_errno(get_ops(srq->context)->destroy_srq(srq));
}
