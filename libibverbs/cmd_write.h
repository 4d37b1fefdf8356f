/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Choosing between the ioctl form of a command and its legacy write()
 * form. Each context remembers, per operation, that the kernel lacks the
 * ioctl (bit index = the op's slot in struct verbs_context_ops).
 */
#ifndef RDMA_DM_CMD_WRITE_H
#define RDMA_DM_CMD_WRITE_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibverbs.h"

#define VERBS_OP_IDX(member)                                                   \
	(offsetof(struct verbs_context_ops, member) / sizeof(void *))

/*
 * An optional object (NULL: none) given to a command of context @ctx must
 * belong to @ctx: kernel handles are numbered per context, so an object of
 * another context would name whatever object has its number in this one.
 */
#define VERBS_IN_CTX(obj, ctx) (!(obj) || (obj)->context == (ctx))

/* Returned by verbs_execute_or_fallback(): issue the write() form now. */
#define VERBS_USE_WRITE (-1)

/*
 * Run @cmd unless op @op_idx is known to lack its ioctl. ENOTTY marks all
 * ops, EPROTONOSUPPORT marks this one; both then lead to VERBS_USE_WRITE,
 * unless @cmd carries a mandatory driver attribute (other than UHW) that
 * the write() form cannot express: EOPNOTSUPP. Otherwise the ioctl result
 * (0 or a positive errno). errno is set on every failure.
 */
int verbs_execute_or_fallback(struct ibv_context *ctx, unsigned int op_idx,
			      struct uverbs_cmd *cmd);

/*
 * Run @cmd, an ioctl with no legacy form: a kernel without the method or
 * without any ioctl (EPROTONOSUPPORT, ENOTTY) yields EOPNOTSUPP; other
 * results pass through. 0 or a positive errno (errno set).
 */
static inline int verbs_execute_ioctl_only(struct ibv_context *ctx,
					   struct uverbs_cmd *cmd)
{
	int ret = uverbs_cmd_execute(ctx, cmd);

	if (ret == EPROTONOSUPPORT || ret == ENOTTY) {
		errno = EOPNOTSUPP;
		return EOPNOTSUPP;
	}
	return ret;
}

/* Mark op @op_idx (or all ops, for ENOTTY) after @err; true if marked. */
bool verbs_note_unsupported(struct ibv_context *ctx, unsigned int op_idx,
			    int err);
bool verbs_is_unsupported(struct ibv_context *ctx, unsigned int op_idx);

/*
 * Destroy the object @handle: (@object, @method) with the handle as attr
 * 0, or the legacy @write_cmd whose request is that one u32. Op @op_idx
 * keeps the fallback state. 0 or a positive errno; EIO (the device was
 * disassociated, the kernel already freed the object) counts as success.
 */
int verbs_cmd_destroy(struct ibv_context *ctx, unsigned int op_idx,
		      uint16_t object, uint16_t method, uint32_t handle,
		      uint32_t write_cmd);

/*
 * The same for CQ, QP and SRQ, whose destroy answers the object's event
 * counters: attr 1 (PTR_OUT) on the ioctl, and the legacy request
 * {response, handle, reserved}. @resp is zero when the result is a
 * disassociated device (EIO, returned as 0 with *@gone set).
 */
int verbs_cmd_destroy_resp(struct ibv_context *ctx, unsigned int op_idx,
			   uint16_t object, uint16_t method, uint32_t handle,
			   uint32_t write_cmd, void *resp, size_t resp_len,
			   bool *gone);

/* EIO from a destroy: the device is gone and so is the object. */
static inline int verbs_destroy_result(int ret, bool *gone)
{
	if (gone)
		*gone = ret == EIO;
	return ret == EIO ? 0 : ret;
}

/*
 * Block until @completed (under @mutex) reaches @reported: destroy waits
 * for the application to acknowledge every event the kernel handed out.
 */
void verbs_wait_events(pthread_mutex_t *mutex, pthread_cond_t *cond,
		       const uint32_t *completed, uint32_t reported);

/* A fresh object's event bookkeeping: counters to 0, lock and condition. */
void verbs_init_events(pthread_mutex_t *mutex, pthread_cond_t *cond,
		       uint32_t *completed);

/*
 * The context's async event fd as the EVENT_FD attribute of a create
 * (@mandatory: kernels without it must refuse rather than ignore it).
 */
void verbs_attr_event_fd(struct uverbs_cmd *cmd, struct ibv_context *ctx,
			 uint16_t attr_id, bool mandatory);

/*
 * Run a create that has a legacy form: verbs_execute_or_fallback(), but an
 * imported context never falls back (its EVENT_FD would be lost):
 * EOPNOTSUPP where the ioctl is missing.
 */
int verbs_execute_create(struct ibv_context *ctx, unsigned int op_idx,
			 struct uverbs_cmd *cmd);

#endif /* RDMA_DM_CMD_WRITE_H */
