// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ADVISE_MR: prefetch (or snapshot) the pages of ODP MRs. An ioctl with no
 * write form; the SGE list goes to the kernel as it is (struct ibv_sge and
 * struct ib_uverbs_sge share their layout).
 */
#include <errno.h>

#include <rdma/ib_user_verbs.h>

#include "cmd_write.h"

_Static_assert(sizeof(struct ibv_sge) == sizeof(struct ib_uverbs_sge),
	       "ibv_sge is the kernel's SGE");

int ibv_cmd_advise_mr(struct ibv_pd *pd, enum ibv_advise_mr_advice advice,
		      uint32_t flags, const struct ibv_sge *sg_list,
		      uint32_t num_sge)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_MR, UVERBS_METHOD_ADVISE_MR, 4);

	uverbs_attr_in_obj(cmd, UVERBS_ATTR_ADVISE_MR_PD_HANDLE, pd->handle);
	uverbs_attr_in_u64(cmd, UVERBS_ATTR_ADVISE_MR_ADVICE, advice);
	uverbs_attr_in_u32(cmd, UVERBS_ATTR_ADVISE_MR_FLAGS, flags);
	uverbs_attr_in_ptr(cmd, UVERBS_ATTR_ADVISE_MR_SGE_LIST, sg_list,
			   (size_t)num_sge * sizeof(*sg_list));
	return verbs_execute_ioctl_only(pd->context, cmd);
}
