// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Legacy write() forms of the data-path objects (CQ, QP, SRQ, AH), with
 * rxe's driver data appended the way the provider sends it. Each returns 0
 * or the errno the kernel answered.
 */
#include <string.h>
#include <rdma/rdma_user_rxe.h>

#include "conf.h"

/* Room for a core response and rxe's driver part after it. */
#define RESP_WORDS 8

_Static_assert(sizeof(struct ib_uverbs_create_ah_resp) == 4 &&
		       sizeof(struct rxe_create_ah_resp) == 8,
	       "AH response: 4-byte handle, then rxe's ah_num");

int raw_create_cq(int fd, int cqe, int comp_vector, int channel,
		  size_t resp_len, uint32_t *handle, uint32_t *granted)
{
	struct {
		struct ib_uverbs_create_cq_resp core;
		struct rxe_create_cq_resp drv;
	} resp = {};
	struct ib_uverbs_create_cq cmd = {
		.response = (uintptr_t)&resp,
		.cqe = (uint32_t)cqe,
		.comp_vector = (uint32_t)comp_vector,
		.comp_channel = channel,
	};
	int err;

	err = raw_write(fd, IB_USER_VERBS_CMD_CREATE_CQ, &cmd, sizeof(cmd),
			resp_len ? resp_len : sizeof(resp));
	if (handle)
		*handle = resp.core.cq_handle;
	if (granted)
		*granted = resp.core.cqe;
	return err;
}

int raw_resize_cq(int fd, uint32_t handle, int cqe)
{
	uint64_t resp[RESP_WORDS] = {};
	struct ib_uverbs_resize_cq cmd = {
		.response = (uintptr_t)resp,
		.cq_handle = handle,
		.cqe = (uint32_t)cqe,
	};

	return raw_write(fd, IB_USER_VERBS_CMD_RESIZE_CQ, &cmd, sizeof(cmd),
			 sizeof(struct ib_uverbs_resize_cq_resp) +
				 sizeof(struct rxe_resize_cq_resp));
}

int raw_destroy_cq(int fd, uint32_t handle)
{
	struct ib_uverbs_destroy_cq_resp resp = {};
	struct ib_uverbs_destroy_cq cmd = {
		.response = (uintptr_t)&resp,
		.cq_handle = handle,
	};

	return raw_write(fd, IB_USER_VERBS_CMD_DESTROY_CQ, &cmd, sizeof(cmd),
			 sizeof(resp));
}

void raw_qp_cmd_init(struct ib_uverbs_create_qp *cmd, uint32_t pd, uint32_t cq,
		     uint8_t type)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->pd_handle = pd;
	cmd->send_cq_handle = cq;
	cmd->recv_cq_handle = cq;
	cmd->max_send_wr = 8;
	cmd->max_recv_wr = 8;
	cmd->max_send_sge = 1;
	cmd->max_recv_sge = 1;
	cmd->qp_type = type;
}

int raw_create_qp(int fd, struct ib_uverbs_create_qp *cmd, size_t resp_len,
		  struct ib_uverbs_create_qp_resp *out)
{
	struct {
		struct ib_uverbs_create_qp_resp core;
		struct rxe_create_qp_resp drv;
	} resp = {};
	int err;

	cmd->response = (uintptr_t)&resp;
	err = raw_write(fd, IB_USER_VERBS_CMD_CREATE_QP, cmd, sizeof(*cmd),
			resp_len ? resp_len : sizeof(resp));
	if (out)
		*out = resp.core;
	return err;
}

int raw_modify_qp(int fd, struct ib_uverbs_modify_qp *cmd)
{
	return raw_write(fd, IB_USER_VERBS_CMD_MODIFY_QP, cmd, sizeof(*cmd), 0);
}

int raw_destroy_qp(int fd, uint32_t handle)
{
	struct ib_uverbs_destroy_qp_resp resp = {};
	struct ib_uverbs_destroy_qp cmd = {
		.response = (uintptr_t)&resp,
		.qp_handle = handle,
	};

	return raw_write(fd, IB_USER_VERBS_CMD_DESTROY_QP, &cmd, sizeof(cmd),
			 sizeof(resp));
}

int raw_create_srq(int fd, uint32_t pd, uint32_t max_wr, uint32_t max_sge,
		   size_t resp_len, struct ib_uverbs_create_srq_resp *out)
{
	uint64_t resp[RESP_WORDS] = {};
	struct ib_uverbs_create_srq cmd = {
		.response = (uintptr_t)resp,
		.pd_handle = pd,
		.max_wr = max_wr,
		.max_sge = max_sge,
	};
	int err;

	err = raw_write(fd, IB_USER_VERBS_CMD_CREATE_SRQ, &cmd, sizeof(cmd),
			resp_len ? resp_len
				 : sizeof(*out) +
					   sizeof(struct rxe_create_srq_resp));
	if (out)
		memcpy(out, resp, sizeof(*out));
	return err;
}

int raw_modify_srq(int fd, uint32_t handle, uint32_t mask, uint32_t max_wr,
		   uint32_t limit, bool with_udata)
{
	struct ib_uverbs_modify_srq core = {
		.srq_handle = handle,
		.attr_mask = mask,
		.max_wr = max_wr,
		.srq_limit = limit,
	};
	struct mminfo mi = {};
	struct rxe_modify_srq_cmd drv = {.mmap_info_addr = (uintptr_t)&mi};
	uint8_t cmd[sizeof(core) + sizeof(drv)];

	/* rxe's modify data follows the core command. */
	memcpy(cmd, &core, sizeof(core));
	memcpy(cmd + sizeof(core), &drv, sizeof(drv));
	return raw_write(fd, IB_USER_VERBS_CMD_MODIFY_SRQ, cmd,
			 with_udata ? sizeof(cmd) : sizeof(core), 0);
}

int raw_destroy_srq(int fd, uint32_t handle)
{
	struct ib_uverbs_destroy_srq_resp resp = {};
	struct ib_uverbs_destroy_srq cmd = {
		.response = (uintptr_t)&resp,
		.srq_handle = handle,
	};

	return raw_write(fd, IB_USER_VERBS_CMD_DESTROY_SRQ, &cmd, sizeof(cmd),
			 sizeof(resp));
}

int raw_create_ah(int fd, uint32_t pd, const struct ib_uverbs_ah_attr *attr,
		  uint32_t *handle, uint32_t *ah_num)
{
	uint32_t resp[3] = {}; /* core ah_handle, then rxe's ah_num */
	struct ib_uverbs_create_ah cmd = {
		.response = (uintptr_t)resp,
		.pd_handle = pd,
		.attr = *attr,
	};
	int err;

	err = raw_write(fd, IB_USER_VERBS_CMD_CREATE_AH, &cmd, sizeof(cmd),
			sizeof(resp));
	if (handle)
		*handle = resp[0];
	if (ah_num)
		*ah_num = resp[1];
	return err;
}

int raw_destroy_ah(int fd, uint32_t handle)
{
	struct ib_uverbs_destroy_ah cmd = {.ah_handle = handle};

	return raw_write(fd, IB_USER_VERBS_CMD_DESTROY_AH, &cmd, sizeof(cmd),
			 0);
}
