// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* UVERBS_OBJECT_QP: the type; its methods and commands are not modelled
 * yet (they answer EPROTONOSUPPORT / EOPNOTSUPP as before). */
#include "uapi.h"

const struct sim_obj_type sim_type_qp = {
	.name = "QP",
	.uapi_id = UVERBS_OBJECT_QP,
	.size = sizeof(struct sim_qp),
	.order = SIM_ORDER_USERS,
};
SIM_OBJ_TYPE(sim_type_qp);
