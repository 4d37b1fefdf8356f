// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* UVERBS_OBJECT_SRQ: the type; its methods and commands are not modelled
 * yet (they answer EPROTONOSUPPORT / EOPNOTSUPP as before). */
#include "uapi.h"

const struct sim_obj_type sim_type_srq = {
	.name = "SRQ",
	.uapi_id = UVERBS_OBJECT_SRQ,
	.size = sizeof(struct sim_srq),
	.order = SIM_ORDER_SRQ,
};
SIM_OBJ_TYPE(sim_type_srq);
