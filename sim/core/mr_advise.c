// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UVERBS_METHOD_ADVISE_MR (MR object, ioctl only) as uverbs parses it
 * before the driver's advise_mr: a driver without it → EOPNOTSUPP; the
 * advice a u32 constant (EINVAL above); flags only FLUSH (EINVAL, by the
 * framework's flags check); the SGE list an array of 16-byte
 * ib_uverbs_sge (a length that is no multiple → EINVAL).
 *
 * And the ODP rule of REG_MR: an implicit ODP MR (start 0, length
 * U64_MAX, ON_DEMAND) needs an iova of 0 (mlx5: EINVAL otherwise).
 */
#include "uapi.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int sim_mr_advise(struct sim_call *c)
{
	const struct sim_driver_ops *d = sim_driver();
	struct sim_pd *pd =
		sim_pd(sim_attr_obj(c, UVERBS_ATTR_ADVISE_MR_PD_HANDLE));
	uint64_t advice = sim_attr_u64(c, UVERBS_ATTR_ADVISE_MR_ADVICE, 0);
	struct ib_uverbs_sge *sge;
	uint64_t flags;
	size_t len;
	int ret;

	if (!d->advise_mr)
		return -EOPNOTSUPP;
	if (advice > UINT32_MAX)
		return -EINVAL;
	if (sim_attr_flags(c, UVERBS_ATTR_ADVISE_MR_FLAGS,
			   IB_UVERBS_ADVISE_MR_FLAG_FLUSH, &flags))
		return -EINVAL;
	if (!sim_attr_in_ptr(c, UVERBS_ATTR_ADVISE_MR_SGE_LIST, &len) || !len ||
	    len % sizeof(*sge))
		return -EINVAL;
	sge = malloc(len);
	if (!sge)
		return -ENOMEM;
	ret = sim_attr_copy_in(c, UVERBS_ATTR_ADVISE_MR_SGE_LIST, sge, len);
	if (!ret)
		ret = d->advise_mr(c->uv, pd, (uint32_t)advice, (uint32_t)flags,
				   sge, (uint32_t)(len / sizeof(*sge)));
	snprintf(c->note, sizeof(c->note), "advice=%u flags=%#x sges=%zu",
		 (unsigned int)advice, (unsigned int)flags, len / sizeof(*sge));
	free(sge);
	return ret;
}

int sim_mr_odp_check(uint64_t addr, uint64_t len, uint64_t iova, uint64_t acc)
{
	if (!(acc & IB_UVERBS_ACCESS_ON_DEMAND) || !sim_driver()->advise_mr)
		return 0;
	if (!addr && len == UINT64_MAX && iova)
		return -EINVAL; /* implicit ODP is zero-based */
	return 0;
}
