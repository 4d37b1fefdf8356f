// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Legacy write() forms of the data-path objects (CQ, QP, SRQ, AH), with
 * rxe's driver data appended the way the provider sends it. Each returns 0
 * or the errno the kernel answered.
 */
#include <string.h>
#include <rdma/rdma_user_rxe.h>

#include "conf.h"

/*
 * The kernel's structs end in a flexible driver_data[]; the driver's part
 * is laid right after the core struct, exactly where the kernel reads it.
 */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wgnu-variable-sized-type-not-at-end"
#endif

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
	struct {
		struct ib_uverbs_resize_cq_resp core;
		struct rxe_resize_cq_resp drv;
	} resp = {};
	struct ib_uverbs_resize_cq cmd = {
		.response = (uintptr_t)&resp,
		.cq_handle = handle,
		.cqe = (uint32_t)cqe,
	};

	return raw_write(fd, IB_USER_VERBS_CMD_RESIZE_CQ, &cmd, sizeof(cmd),
			 sizeof(resp));
}

void raw_qp_cmd_init(struct ib_uverbs_create_qp *cmd, uint32_t pd,
		     uint32_t cq, uint8_t type)
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

int raw_create_srq(int fd, uint32_t pd, uint32_t max_wr, uint32_t max_sge,
		   size_t resp_len, struct ib_uverbs_create_srq_resp *out)
{
	struct {
		struct ib_uverbs_create_srq_resp core;
		struct rxe_create_srq_resp drv;
	} resp = {};
	struct ib_uverbs_create_srq cmd = {
		.response = (uintptr_t)&resp,
		.pd_handle = pd,
		.max_wr = max_wr,
		.max_sge = max_sge,
	};
	int err;

	err = raw_write(fd, IB_USER_VERBS_CMD_CREATE_SRQ, &cmd, sizeof(cmd),
			resp_len ? resp_len : sizeof(resp));
	if (out)
		*out = resp.core;
	return err;
}

int raw_create_ah(int fd, uint32_t pd, const struct ib_uverbs_ah_attr *attr,
		  uint32_t *handle, uint32_t *ah_num)
{
	struct {
		struct ib_uverbs_create_ah_resp core;
		struct rxe_create_ah_resp drv;
	} resp = {};
	struct ib_uverbs_create_ah cmd = {
		.response = (uintptr_t)&resp,
		.pd_handle = pd,
		.attr = *attr,
	};
	int err;

	err = raw_write(fd, IB_USER_VERBS_CMD_CREATE_AH, &cmd, sizeof(cmd),
			sizeof(resp));
	if (handle)
		*handle = resp.core.ah_handle;
	if (ah_num)
		*ah_num = resp.drv.ah_num;
	return err;
}

int raw_destroy_ah(int fd, uint32_t handle)
{
	struct ib_uverbs_destroy_ah cmd = {.ah_handle = handle};

	return raw_write(fd, IB_USER_VERBS_CMD_DESTROY_AH, &cmd, sizeof(cmd),
			 0);
}
