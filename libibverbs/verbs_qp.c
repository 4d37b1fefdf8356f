// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Queue pairs and multicast attachment. */
#include <errno.h>

#include "ibverbs.h"
#include "verbs_internal.h"

struct ibv_qp *ibv_create_qp(struct ibv_pd *pd,
			     struct ibv_qp_init_attr *qp_init_attr)
{
	if (!pd || !qp_init_attr)
		return verbs_null_einval();
	return get_ops(pd->context)->create_qp(pd, qp_init_attr);
}

/* ibv_cmd_create_qp_ex() marks QPs created with send_ops_flags. */
struct ibv_qp_ex *ibv_qp_to_qp_ex(struct ibv_qp *qp)
{
	struct verbs_qp *vqp = verbs_get_qp(qp);

	if (!qp)
		return verbs_null_einval();
	if (!(vqp->comp_mask & VERBS_QP_EX)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return &vqp->qp_ex;
}

int ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
		 struct ibv_qp_init_attr *init_attr)
{
	int ret;

	if (!qp || !attr)
		return verbs_einval();
	ret = get_ops(qp->context)->query_qp(qp, attr, attr_mask, init_attr);
	if (ret)
		return verbs_set_errno(ret);
	if (attr_mask & IBV_QP_STATE)
		qp->state = attr->qp_state;
	return 0;
}

int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)
{
	int ret;

	if (!qp || !attr)
		return verbs_einval();
	ret = get_ops(qp->context)->modify_qp(qp, attr, attr_mask);
	if (ret)
		return verbs_set_errno(ret);
	if (attr_mask & IBV_QP_STATE)
		qp->state = attr->qp_state;
	return 0;
}

int ibv_query_qp_data_in_order(struct ibv_qp *qp, enum ibv_wr_opcode op,
			       uint32_t flags)
{
	/* 0 (no ordering promised) is this verb's only failure value. */
	if (verbs_null_arg(qp))
		return 0;
	return get_ops(qp->context)->query_qp_data_in_order(qp, op, flags);
}

/* ibv_cmd_destroy_qp() waits until every async event was acked. */
int ibv_destroy_qp(struct ibv_qp *qp)
{
	if (!qp)
		return verbs_einval();
	return verbs_set_errno(get_ops(qp->context)->destroy_qp(qp));
}

int ibv_set_ece(struct ibv_qp *qp, struct ibv_ece *ece)
{
	if (!qp || !ece || ece->comp_mask)
		return verbs_einval();
	return get_ops(qp->context)->set_ece(qp, ece);
}

int ibv_query_ece(struct ibv_qp *qp, struct ibv_ece *ece)
{
	if (!qp || !ece)
		return verbs_einval();
	return get_ops(qp->context)->query_ece(qp, ece);
}

int ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
		     uint16_t lid)
{
	if (!qp || !gid)
		return verbs_einval();
	return get_ops(qp->context)->attach_mcast(qp, gid, lid);
}

int ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
		     uint16_t lid)
{
	if (!qp || !gid)
		return verbs_einval();
	return get_ops(qp->context)->detach_mcast(qp, gid, lid);
}
