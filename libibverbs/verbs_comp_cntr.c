// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion counters (IBVERBS_1.18): each verb goes to the provider's
 * op of the same name; providers without the kernel object keep the
 * defaults, which answer EOPNOTSUPP.
 */
#include <errno.h>
#include <string.h>

#include "ibverbs.h"
#include "verbs_internal.h"

int _ibv_query_comp_cntr_caps(struct ibv_context *context,
			      struct ibv_comp_cntr_caps *caps,
			      size_t caps_size)
{
	if (!context || !caps)
		return verbs_einval();
	memset(caps, 0, caps_size);
	return get_ops(context)->query_comp_cntr_caps(context, caps,
						      caps_size);
}

struct ibv_comp_cntr *
ibv_create_comp_cntr(struct ibv_context *context,
		     struct ibv_comp_cntr_init_attr *cc_attr)
{
	if (!context || !cc_attr)
		return verbs_null_einval();
	return get_ops(context)->create_comp_cntr(context, cc_attr);
}

int ibv_destroy_comp_cntr(struct ibv_comp_cntr *comp_cntr)
{
	if (!comp_cntr)
		return verbs_einval();
	return get_ops(comp_cntr->context)->destroy_comp_cntr(comp_cntr);
}

/* The four writers share one shape: op, counter, value. */
#define COMP_CNTR_WRITER(name)                                                 \
	int ibv_##name(struct ibv_comp_cntr *comp_cntr, uint64_t value)        \
	{                                                                      \
		if (!comp_cntr)                                                \
			return verbs_einval();                                 \
		return get_ops(comp_cntr->context)->name(comp_cntr, value);   \
	}

COMP_CNTR_WRITER(set_comp_cntr)
COMP_CNTR_WRITER(set_err_comp_cntr)
COMP_CNTR_WRITER(inc_comp_cntr)
COMP_CNTR_WRITER(inc_err_comp_cntr)

int ibv_read_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)
{
	if (!comp_cntr || !value)
		return verbs_einval();
	return get_ops(comp_cntr->context)->read_comp_cntr(comp_cntr, value);
}

int ibv_read_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)
{
	if (!comp_cntr || !value)
		return verbs_einval();
	return get_ops(comp_cntr->context)->read_err_comp_cntr(comp_cntr,
							       value);
}

int ibv_qp_attach_comp_cntr(struct ibv_qp *qp, struct ibv_comp_cntr *comp_cntr,
			    struct ibv_qp_attach_comp_cntr_attr *attr)
{
	if (!qp || !comp_cntr || !attr)
		return verbs_einval();
	return get_ops(qp->context)->qp_attach_comp_cntr(qp, comp_cntr, attr);
}
