// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What every kernel object's command file shares: the destroy command
 * (ioctl first, legacy write() on fallback, a disassociated device counted
 * as success), the event counters destroy waits on, and the async event
 * fd attribute the create commands carry.
 */
#include <errno.h>
#include <string.h>

#include <rdma/ib_user_verbs.h>

#include "cmd_write.h"

/* The legacy destroy request of objects that report event counters. */
struct destroy_counted_req {
	uint64_t response;
	uint32_t handle;
	uint32_t reserved;
};

int verbs_cmd_destroy_resp(struct ibv_context *ctx, unsigned int op_idx,
			   uint16_t object, uint16_t method, uint32_t handle,
			   uint32_t write_cmd, void *resp, size_t resp_len,
			   bool *gone)
{
	DECLARE_UVERBS_CMD(cmd, object, method, 2);
	struct destroy_counted_req req = {.handle = handle};
	int ret;

	if (resp_len)
		memset(resp, 0, resp_len);
	uverbs_attr_in_obj(cmd, 0, handle);
	if (resp_len)
		uverbs_attr_out_ptr(cmd, 1, resp, resp_len);
	ret = verbs_execute_or_fallback(ctx, op_idx, cmd);
	if (ret == VERBS_USE_WRITE) {
		if (resp_len)
			ret = verbs_write_cmd(ctx, write_cmd, &req, sizeof(req),
					      resp, resp_len, NULL);
		else
			ret = verbs_write_cmd(ctx, write_cmd, &handle,
					      sizeof(handle), NULL, 0, NULL);
	}
	if (ret == EIO && resp_len)
		memset(resp, 0, resp_len);
	return verbs_destroy_result(ret, gone);
}

int verbs_cmd_destroy(struct ibv_context *ctx, unsigned int op_idx,
		      uint16_t object, uint16_t method, uint32_t handle,
		      uint32_t write_cmd)
{
	return verbs_cmd_destroy_resp(ctx, op_idx, object, method, handle,
				      write_cmd, NULL, 0, NULL);
}

void verbs_init_events(pthread_mutex_t *mutex, pthread_cond_t *cond,
		       uint32_t *completed)
{
	*completed = 0;
	pthread_mutex_init(mutex, NULL);
	pthread_cond_init(cond, NULL);
}

void verbs_wait_events(pthread_mutex_t *mutex, pthread_cond_t *cond,
		       const uint32_t *completed, uint32_t reported)
{
	pthread_mutex_lock(mutex);
	/* Wrap-safe "completed < reported": over-acking must not hang. */
	while ((int32_t)(reported - *completed) > 0)
		pthread_cond_wait(cond, mutex);
	pthread_mutex_unlock(mutex);
}

void verbs_attr_event_fd(struct uverbs_cmd *cmd, struct ibv_context *ctx,
			 uint16_t attr_id, bool mandatory)
{
	struct ib_uverbs_attr *attr;

	attr = uverbs_attr_in_fd(cmd, attr_id, ctx->async_fd);
	if (!mandatory)
		uverbs_attr_optional(attr);
}

int verbs_execute_create(struct ibv_context *ctx, unsigned int op_idx,
			 struct uverbs_cmd *cmd)
{
	if (get_priv(ctx)->imported)
		return verbs_execute_ioctl_only(ctx, cmd);
	return verbs_execute_or_fallback(ctx, op_idx, cmd);
}
