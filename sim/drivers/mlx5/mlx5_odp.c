// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5_ib's on-demand paging: the capabilities it reports and
 * ADVISE_MR (mlx5_ib_advise_mr). Capabilities as a ConnectX-6 Dx with ODP
 * firmware reports them: ODP and implicit ODP; RC send, receive, write,
 * read, atomic and SRQ receive; UD send; XRC the same six as RC; UC none.
 *
 * ADVISE_MR: advice other than PREFETCH, PREFETCH_WRITE, PREFETCH_NO_FAULT
 * → EOPNOTSUPP. Each SGE's lkey must name an ODP MR (else ENOENT) of this
 * PD (else EPERM), writable for PREFETCH_WRITE (else EPERM). With FLUSH
 * the pages are faulted in before the call returns (a range outside the
 * MR → EFAULT, a page that cannot be faulted → EFAULT); without it the
 * work is queued and the call returns 0 (here it runs at once, its errors
 * dropped, as the kernel's work item drops them).
 */
#include "mlx5.h"

#include <errno.h>

/* enum ib_odp_general_cap_bits and ib_odp_transport_cap_bits */
enum {
	ODP_SUPPORT = 1 << 0,
	ODP_SUPPORT_IMPLICIT = 1 << 1,
	ODP_SEND = 1 << 0,
	ODP_RECV = 1 << 1,
	ODP_WRITE = 1 << 2,
	ODP_READ = 1 << 3,
	ODP_ATOMIC = 1 << 4,
	ODP_SRQ_RECV = 1 << 5,
};
#define ODP_RC_CAPS                                                            \
	(ODP_SEND | ODP_RECV | ODP_WRITE | ODP_READ | ODP_ATOMIC | ODP_SRQ_RECV)

void mlx5_sim_odp_caps(struct ib_uverbs_ex_query_device_resp *r)
{
	r->odp_caps.general_caps = ODP_SUPPORT | ODP_SUPPORT_IMPLICIT;
	r->odp_caps.per_transport_caps.rc_odp_caps = ODP_RC_CAPS;
	r->odp_caps.per_transport_caps.uc_odp_caps = 0;
	r->odp_caps.per_transport_caps.ud_odp_caps = ODP_SEND;
	r->xrc_odp_caps = ODP_RC_CAPS;
}

/* The ODP MR an SGE names, checked as get_prefetchable_mr checks it. */
static int prefetchable(struct sim_uvfile *uv, struct sim_pd *pd,
			uint32_t advice, uint32_t lkey, struct sim_mr **out)
{
	struct sim_mr *mr = sim_mr_by_key(uv->dev, lkey);

	if (!mr || mr->lkey != lkey || mr->backing != SIM_MR_USER ||
	    !(mr->access & IB_UVERBS_ACCESS_ON_DEMAND))
		return -ENOENT;
	if (mr->pd != pd)
		return -EPERM;
	if (advice == IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE &&
	    !(mr->access & IB_UVERBS_ACCESS_LOCAL_WRITE))
		return -EPERM;
	*out = mr;
	return 0;
}

static int prefetch_one(const struct sim_mr *mr, uint32_t advice,
			const struct ib_uverbs_sge *sge)
{
	uint64_t off = sge->addr - mr->iova;
	int faulted;

	if (sge->addr < mr->iova || sge->addr + sge->length < sge->addr ||
	    sge->length > mr->length || off > mr->length - sge->length)
		return -EFAULT;
	return mlx5_sim_odp_fault(
		mr->addr + off, sge->length,
		advice == IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE,
		advice == IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT,
		&faulted);
}

int mlx5_sim_advise_mr(struct sim_uvfile *uv, struct sim_pd *pd,
		       uint32_t advice, uint32_t flags,
		       const struct ib_uverbs_sge *sge, uint32_t n)
{
	struct sim_mr *mr;
	uint32_t i;
	int ret;

	if (advice > IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT)
		return -EOPNOTSUPP;
	for (i = 0; i < n; i++) {
		ret = prefetchable(uv, pd, advice, sge[i].lkey, &mr);
		if (ret)
			return ret;
		ret = prefetch_one(mr, advice, &sge[i]);
		if (ret && (flags & IB_UVERBS_ADVISE_MR_FLAG_FLUSH))
			return ret;
	}
	return 0;
}
