// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Multicast group membership of a QP: ATTACH_MCAST and DETACH_MCAST are
 * write() commands only (the kernel has no ioctl method for them), with
 * the same request layout and no response.
 */
#include <string.h>

#include <rdma/ib_user_verbs.h>

#include "cmd_write.h"

static int mcast_cmd(struct ibv_qp *qp, uint32_t command,
		     const union ibv_gid *gid, uint16_t lid)
{
	struct ib_uverbs_attach_mcast req = {
		.qp_handle = qp->handle,
		.mlid = lid,
	};

	memcpy(req.gid, gid->raw, sizeof(req.gid));
	return verbs_write_cmd(qp->context, command, &req, sizeof(req), NULL, 0,
			       NULL);
}

int ibv_cmd_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
			 uint16_t lid)
{
	return mcast_cmd(qp, IB_USER_VERBS_CMD_ATTACH_MCAST, gid, lid);
}

/* struct ib_uverbs_detach_mcast is laid out as the attach request. */
_Static_assert(sizeof(struct ib_uverbs_detach_mcast) ==
		       sizeof(struct ib_uverbs_attach_mcast),
	       "detach and attach requests differ");

int ibv_cmd_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
			 uint16_t lid)
{
	return mcast_cmd(qp, IB_USER_VERBS_CMD_DETACH_MCAST, gid, lid);
}
