// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UVERBS_OBJECT_COMP_CNTR, its caps (a DEVICE method) and attaching a
 * counter to a QP (a QP method). All ioctl only.
 */
#include <errno.h>

#include "cmd_write.h"

/* Kernel op bits to the verbs ones (equal today; mapped one by one). */
static const struct {
	uint32_t kernel;
	uint32_t verbs;
} attach_ops[] = {
	{ RDMA_DM_QP_ATTACH_COMP_CNTR_OP_SEND,
	  IBV_QP_ATTACH_COMP_CNTR_OP_SEND },
	{ RDMA_DM_QP_ATTACH_COMP_CNTR_OP_RECV,
	  IBV_QP_ATTACH_COMP_CNTR_OP_RECV },
	{ RDMA_DM_QP_ATTACH_COMP_CNTR_OP_RDMA_READ,
	  IBV_QP_ATTACH_COMP_CNTR_OP_RDMA_READ },
	{ RDMA_DM_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_READ,
	  IBV_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_READ },
	{ RDMA_DM_QP_ATTACH_COMP_CNTR_OP_RDMA_WRITE,
	  IBV_QP_ATTACH_COMP_CNTR_OP_RDMA_WRITE },
	{ RDMA_DM_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_WRITE,
	  IBV_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_WRITE },
};

#define N_ATTACH_OPS (sizeof(attach_ops) / sizeof(attach_ops[0]))

int ibv_cmd_query_comp_cntr_caps(struct ibv_context *ctx,
				 struct ibv_comp_cntr_caps *caps,
				 size_t caps_size)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DEVICE,
			   RDMA_DM_METHOD_QUERY_COMP_CNTR_CAPS, 3);
	uint32_t max_counters = 0, ops = 0;
	uint64_t max_value = 0;
	size_t i;
	int ret;

	if (caps_size < sizeof(*caps)) {
		errno = EINVAL;
		return EINVAL;
	}
	uverbs_attr_out_ptr(cmd, RDMA_DM_ATTR_COMP_CNTR_CAPS_MAX_COUNTERS,
			    &max_counters, sizeof(max_counters));
	uverbs_attr_out_ptr(cmd, RDMA_DM_ATTR_COMP_CNTR_CAPS_MAX_VALUE,
			    &max_value, sizeof(max_value));
	uverbs_attr_out_ptr(cmd, RDMA_DM_ATTR_COMP_CNTR_CAPS_QP_ATTACH_OPS,
			    &ops, sizeof(ops));
	ret = verbs_execute_ioctl_only(ctx, cmd);
	if (ret)
		return ret;
	caps->max_counters = max_counters;
	caps->max_value = max_value;
	caps->supported_qp_attach_ops = 0;
	for (i = 0; i < N_ATTACH_OPS; i++)
		if (ops & attach_ops[i].kernel)
			caps->supported_qp_attach_ops |= attach_ops[i].verbs;
	return 0;
}

int ibv_cmd_create_comp_cntr(struct ibv_context *ctx,
			     struct ibv_comp_cntr *comp_cntr,
			     struct uverbs_cmd *link)
{
	DECLARE_UVERBS_CMD(local, RDMA_DM_OBJECT_COMP_CNTR,
			   RDMA_DM_METHOD_COMP_CNTR_CREATE, 1);
	struct uverbs_cmd *cmd = uverbs_cmd_pick(link, local);
	struct ib_uverbs_attr *handle;
	int ret;

	comp_cntr->context = ctx;
	handle = uverbs_attr_new_obj(cmd, RDMA_DM_ATTR_CREATE_COMP_CNTR_HANDLE);
	ret = verbs_execute_ioctl_only(ctx, cmd);
	if (!ret)
		comp_cntr->handle = uverbs_attr_handle(handle);
	return ret;
}

int ibv_cmd_destroy_comp_cntr(struct ibv_comp_cntr *comp_cntr)
{
	DECLARE_UVERBS_CMD(cmd, RDMA_DM_OBJECT_COMP_CNTR,
			   RDMA_DM_METHOD_COMP_CNTR_DESTROY, 1);

	uverbs_attr_in_obj(cmd, RDMA_DM_ATTR_DESTROY_COMP_CNTR_HANDLE,
			   comp_cntr->handle);
	/* A disassociated device already destroyed it. */
	return verbs_destroy_result(
		verbs_execute_ioctl_only(comp_cntr->context, cmd), NULL);
}

/* MODIFY: @entry (completion or error count), @op (set or add) @value. */
static int modify_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t entry,
			    uint64_t op, uint64_t value)
{
	DECLARE_UVERBS_CMD(cmd, RDMA_DM_OBJECT_COMP_CNTR,
			   RDMA_DM_METHOD_COMP_CNTR_MODIFY, 4);

	uverbs_attr_in_obj(cmd, RDMA_DM_ATTR_MODIFY_COMP_CNTR_HANDLE,
			   comp_cntr->handle);
	uverbs_attr_in_u64(cmd, RDMA_DM_ATTR_MODIFY_COMP_CNTR_ENTRY, entry);
	uverbs_attr_in_u64(cmd, RDMA_DM_ATTR_MODIFY_COMP_CNTR_OP, op);
	uverbs_attr_in_u64(cmd, RDMA_DM_ATTR_MODIFY_COMP_CNTR_VALUE, value);
	return verbs_execute_ioctl_only(comp_cntr->context, cmd);
}

/* The four modifiers: which count, and set or add. */
#define COMP_CNTR_MODIFIER(name, entry, op)                                    \
	int ibv_cmd_##name(struct ibv_comp_cntr *comp_cntr, uint64_t value)    \
	{                                                                      \
		return modify_comp_cntr(comp_cntr,                             \
					RDMA_DM_COMP_CNTR_ENTRY_##entry,       \
					RDMA_DM_COMP_CNTR_OP_##op, value);     \
	}

COMP_CNTR_MODIFIER(set_comp_cntr, COMP, SET)
COMP_CNTR_MODIFIER(set_err_comp_cntr, ERR, SET)
COMP_CNTR_MODIFIER(inc_comp_cntr, COMP, INC)
COMP_CNTR_MODIFIER(inc_err_comp_cntr, ERR, INC)

static int read_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t entry,
			  uint64_t *value)
{
	DECLARE_UVERBS_CMD(cmd, RDMA_DM_OBJECT_COMP_CNTR,
			   RDMA_DM_METHOD_COMP_CNTR_READ, 3);

	uverbs_attr_in_obj(cmd, RDMA_DM_ATTR_READ_COMP_CNTR_HANDLE,
			   comp_cntr->handle);
	uverbs_attr_in_u64(cmd, RDMA_DM_ATTR_READ_COMP_CNTR_ENTRY, entry);
	uverbs_attr_out_ptr(cmd, RDMA_DM_ATTR_READ_COMP_CNTR_RESP_VALUE, value,
			    sizeof(*value));
	return verbs_execute_ioctl_only(comp_cntr->context, cmd);
}

int ibv_cmd_read_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)
{
	return read_comp_cntr(comp_cntr, RDMA_DM_COMP_CNTR_ENTRY_COMP, value);
}

int ibv_cmd_read_err_comp_cntr(struct ibv_comp_cntr *comp_cntr,
			       uint64_t *value)
{
	return read_comp_cntr(comp_cntr, RDMA_DM_COMP_CNTR_ENTRY_ERR, value);
}

int ibv_cmd_qp_attach_comp_cntr(struct ibv_qp *qp,
				struct ibv_comp_cntr *comp_cntr,
				struct ibv_qp_attach_comp_cntr_attr *attr)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_QP,
			   RDMA_DM_METHOD_QP_ATTACH_COMP_CNTR, 3);
	uint32_t op_mask = 0;
	size_t i;

	/* Unknown bits are dropped, not refused. */
	for (i = 0; i < N_ATTACH_OPS; i++)
		if (attr->op_mask & attach_ops[i].verbs)
			op_mask |= attach_ops[i].kernel;
	uverbs_attr_in_obj(cmd, RDMA_DM_ATTR_QP_ATTACH_COMP_CNTR_QP_HANDLE,
			   qp->handle);
	uverbs_attr_in_obj(cmd, RDMA_DM_ATTR_QP_ATTACH_COMP_CNTR_HANDLE,
			   comp_cntr->handle);
	uverbs_attr_in_u32(cmd, RDMA_DM_ATTR_QP_ATTACH_COMP_CNTR_OP_MASK,
			   op_mask);
	return verbs_execute_ioctl_only(qp->context, cmd);
}
