// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Completion queues, completion channels and completion events. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <rdma/ib_user_verbs.h>

#include "ibverbs.h"
#include "verbs_internal.h"

struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *context)
{
	struct ib_uverbs_create_comp_channel req = {};
	struct ib_uverbs_create_comp_channel_resp resp = {};
	struct ibv_comp_channel *channel;
	int ret;

	if (!context)
		return verbs_null_einval();
	channel = malloc(sizeof(*channel));
	if (!channel) {
		errno = ENOMEM;
		return NULL;
	}
	ret = verbs_write_cmd(context, IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL,
			      &req, sizeof(req), &resp, sizeof(resp), NULL);
	if (ret) {
		free(channel);
		errno = ret;
		return NULL;
	}
	channel->context = context;
	channel->fd = (int)resp.fd;
	channel->refcnt = 0;
	return channel;
}

int ibv_destroy_comp_channel(struct ibv_comp_channel *channel)
{
	struct ibv_context *context;
	int ret = 0;

	if (!channel)
		return verbs_einval();
	context = channel->context;
	pthread_mutex_lock(&context->mutex);
	if (channel->refcnt) {
		ret = EBUSY;
		goto out;
	}
	close(channel->fd);
	free(channel);
out:
	pthread_mutex_unlock(&context->mutex);
	return verbs_set_errno(ret);
}

/*
 * The provider's create_cq fills every generic field through
 * ibv_cmd_create_cq() (which also counts the CQ on its channel); only the
 * application's cq_context is unknown there.
 */
struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe,
			     void *cq_context,
			     struct ibv_comp_channel *channel, int comp_vector)
{
	struct ibv_cq *cq;

	if (!context)
		return verbs_null_einval();
	/* Another context's channel: the kernel's EBADF for its fd. */
	if (channel && channel->context != context) {
		errno = EBADF;
		return NULL;
	}
	cq = get_ops(context)->create_cq(context, cqe, channel, comp_vector);
	if (cq)
		cq->cq_context = cq_context;
	return cq;
}

int ibv_resize_cq(struct ibv_cq *cq, int cqe)
{
	if (!cq)
		return verbs_einval();
	return verbs_set_errno(get_ops(cq->context)->resize_cq(cq, cqe));
}

/* ibv_cmd_destroy_cq() waits for acked events and uncounts the channel. */
int ibv_destroy_cq(struct ibv_cq *cq)
{
	if (!cq)
		return verbs_einval();
	return verbs_set_errno(get_ops(cq->context)->destroy_cq(cq));
}

int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq,
		     void **cq_context)
{
	struct ib_uverbs_comp_event_desc ev;
	ssize_t got;

	if (!channel || !cq || !cq_context) {
		errno = EINVAL;
		return -1;
	}
	got = read(channel->fd, &ev, sizeof(ev));
	if (got != (ssize_t)sizeof(ev)) {
		if (got >= 0)
			errno = EIO;
		return -1;
	}
	/* The kernel hands back the user handle given at creation: the CQ. */
	*cq = (struct ibv_cq *)(uintptr_t)ev.cq_handle;
	*cq_context = (*cq)->cq_context;
	get_ops((*cq)->context)->cq_event(*cq);
	return 0;
}

void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)
{
	if (!cq) {
		errno = EINVAL;
		return;
	}
	pthread_mutex_lock(&cq->mutex);
	cq->comp_events_completed += nevents;
	pthread_cond_broadcast(&cq->cond);
	pthread_mutex_unlock(&cq->mutex);
}
