// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Asynchronous events. The kernel reports the user handle of the object
 * an event is about (the object's own address, given at creation) or a
 * port number; the event type says which. Acknowledging counts the event
 * on the object so that destroying it can wait for every event it got.
 */
#include <errno.h>
#include <unistd.h>

#include <rdma/ib_user_verbs.h>

#include "ibverbs.h"
#include "verbs_internal.h"

enum event_subject { SUBJECT_PORT, SUBJECT_CQ, SUBJECT_QP, SUBJECT_SRQ,
		     SUBJECT_WQ };

static enum event_subject subject_of(enum ibv_event_type type)
{
	switch (type) {
	case IBV_EVENT_CQ_ERR:
		return SUBJECT_CQ;
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
	case IBV_EVENT_COMM_EST:
	case IBV_EVENT_SQ_DRAINED:
	case IBV_EVENT_PATH_MIG:
	case IBV_EVENT_PATH_MIG_ERR:
	case IBV_EVENT_QP_LAST_WQE_REACHED:
		return SUBJECT_QP;
	case IBV_EVENT_SRQ_ERR:
	case IBV_EVENT_SRQ_LIMIT_REACHED:
		return SUBJECT_SRQ;
	case IBV_EVENT_WQ_FATAL:
		return SUBJECT_WQ;
	default:
		return SUBJECT_PORT;
	}
}

int ibv_get_async_event(struct ibv_context *context,
			struct ibv_async_event *event)
{
	struct ib_uverbs_async_event_desc ev;
	void *handle;
	ssize_t got;

	if (!context || !event) {
		errno = EINVAL;
		return -1;
	}
	got = read(context->async_fd, &ev, sizeof(ev));
	if (got != (ssize_t)sizeof(ev)) {
		if (got >= 0)
			errno = EIO;
		return -1;
	}

	event->event_type = (enum ibv_event_type)ev.event_type;
	handle = (void *)(uintptr_t)ev.element;
	switch (subject_of(event->event_type)) {
	case SUBJECT_CQ:
		event->element.cq = handle;
		break;
	case SUBJECT_QP:
		event->element.qp = handle;
		break;
	case SUBJECT_SRQ:
		event->element.srq = handle;
		break;
	case SUBJECT_WQ:
		event->element.wq = handle;
		break;
	case SUBJECT_PORT:
		event->element.port_num = (int)ev.element;
		break;
	}
	get_ops(context)->async_event(context, event);
	return 0;
}

static void count_event(pthread_mutex_t *mutex, pthread_cond_t *cond,
			uint32_t *completed)
{
	pthread_mutex_lock(mutex);
	++*completed;
	/* Wakes a destroy waiting for this object's last event. */
	pthread_cond_broadcast(cond);
	pthread_mutex_unlock(mutex);
}

void ibv_ack_async_event(struct ibv_async_event *event)
{
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_srq *srq;
	struct ibv_wq *wq;

	if (!event) {
		errno = EINVAL;
		return;
	}
	cq = event->element.cq;
	qp = event->element.qp;
	srq = event->element.srq;
	wq = event->element.wq;
	switch (subject_of(event->event_type)) {
	case SUBJECT_CQ:
		count_event(&cq->mutex, &cq->cond, &cq->async_events_completed);
		break;
	case SUBJECT_QP:
		count_event(&qp->mutex, &qp->cond, &qp->events_completed);
		break;
	case SUBJECT_SRQ:
		count_event(&srq->mutex, &srq->cond, &srq->events_completed);
		break;
	case SUBJECT_WQ:
		count_event(&wq->mutex, &wq->cond, &wq->events_completed);
		break;
	case SUBJECT_PORT:
		break;
	}
}
