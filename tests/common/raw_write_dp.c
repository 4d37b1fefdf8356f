// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <string.h>
#include <rdma/rdma_user_rxe.h>

#include "raw_ioctl.h"
#include "raw_write_dp.h"

int raw_destroy_cq(int fd, uint32_t handle,
		   struct ib_uverbs_destroy_cq_resp *resp)
{
	struct ib_uverbs_destroy_cq_resp r = {};
	struct ib_uverbs_destroy_cq c = {.response = (uintptr_t)&r,
					 .cq_handle = handle};
	int ret = raw_write(fd, IB_USER_VERBS_CMD_DESTROY_CQ, &c, sizeof(c),
			    sizeof(r));

	if (resp)
		*resp = r;
	return ret;
}

int raw_destroy_qp(int fd, uint32_t handle, uint32_t *events_reported)
{
	struct ib_uverbs_destroy_qp_resp r = {};
	struct ib_uverbs_destroy_qp c = {.response = (uintptr_t)&r,
					 .qp_handle = handle};
	int ret = raw_write(fd, IB_USER_VERBS_CMD_DESTROY_QP, &c, sizeof(c),
			    sizeof(r));

	if (events_reported)
		*events_reported = r.events_reported;
	return ret;
}

int raw_destroy_srq(int fd, uint32_t handle)
{
	struct ib_uverbs_destroy_srq_resp r = {};
	struct ib_uverbs_destroy_srq c = {.response = (uintptr_t)&r,
					  .srq_handle = handle};

	return raw_write(fd, IB_USER_VERBS_CMD_DESTROY_SRQ, &c, sizeof(c),
			 sizeof(r));
}

void raw_modify_qp_init(struct ib_uverbs_modify_qp *m, uint32_t qp,
			uint8_t state, uint32_t mask)
{
	memset(m, 0, sizeof(*m));
	m->qp_handle = qp;
	m->attr_mask = mask;
	m->qp_state = state;
	m->port_num = 1;
	m->qkey = 0x11111111;
	m->path_mtu = 3; /* IBV_MTU_1024 */
	m->max_dest_rd_atomic = 1;
	m->min_rnr_timer = 12;
	m->timeout = 14;
	m->retry_cnt = 7;
	m->rnr_retry = 7;
	m->max_rd_atomic = 1;
	m->dest.port_num = 1;
}

int raw_modify_qp(int fd, const struct ib_uverbs_modify_qp *m)
{
	return raw_write(fd, IB_USER_VERBS_CMD_MODIFY_QP, (void *)m,
			 sizeof(*m), 0);
}

int raw_modify_srq(int fd, uint32_t handle, uint32_t mask, uint32_t max_wr,
		   uint32_t limit, bool with_udata)
{
	struct ib_uverbs_modify_srq core = {.srq_handle = handle,
					    .attr_mask = mask,
					    .max_wr = max_wr,
					    .srq_limit = limit};
	struct mminfo mi = {};
	struct rxe_modify_srq_cmd drv = {.mmap_info_addr = (uintptr_t)&mi};
	uint8_t body[sizeof(core) + sizeof(drv)];

	/* rxe reads where to put the new ring's mminfo; mlx5 takes none. */
	memcpy(body, &core, sizeof(core));
	memcpy(body + sizeof(core), &drv, sizeof(drv));
	return raw_write(fd, IB_USER_VERBS_CMD_MODIFY_SRQ, body,
			 with_udata ? sizeof(body) : sizeof(core), 0);
}
