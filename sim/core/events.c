// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Event files: completion channels (8-byte ib_uverbs_comp_event_desc) and
 * async event fds (16-byte ib_uverbs_async_event_desc). Each queue sits
 * behind a real eventfd in semaphore mode; every queued event adds 1 to
 * its counter and every dequeued one takes 1 off, under sim_lock, so the
 * fd is readable for poll/epoll/select exactly while events wait.
 */
#include "uapi.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>

struct sim_event {
	struct sim_event *next;
	const struct sim_obj *obj; /* whose event (purged at its destroy) */
	uint32_t *reported;	   /* the object's counter, bumped when read */
	uint8_t desc[sizeof(struct ib_uverbs_async_event_desc)];
};

static size_t desc_len(const struct sim_evq *q)
{
	return q->comp ? sizeof(struct ib_uverbs_comp_event_desc)
		       : sizeof(struct ib_uverbs_async_event_desc);
}

int sim_evq_new(struct sim_uvfile *uv, int comp, int cloexec,
		struct sim_evq **out)
{
	struct sim_evq *q = calloc(1, sizeof(*q));
	int fd;

	if (!q)
		return -ENOMEM;
	fd = eventfd(0, EFD_SEMAPHORE | (cloexec ? EFD_CLOEXEC : 0));
	if (fd < 0) {
		free(q);
		return -errno;
	}
	q->fd = fd;
	q->comp = (uint8_t) !!comp;
	q->tail = &q->head;
	q->uv = uv;
	q->refs = 1; /* the context's */
	if (sim_fd_set(fd, SIM_FD_EVENT, q)) {
		sys.close(fd);
		free(q);
		return -EMFILE;
	}
	q->next = uv->evqs;
	uv->evqs = q;
	if (out)
		*out = q;
	return fd;
}

void sim_evq_discard(struct sim_uvfile *uv, int fd)
{
	struct sim_fd *f = sim_fd_get(fd);
	struct sim_evq **p;

	if (!f || f->kind != SIM_FD_EVENT)
		return;
	for (p = &uv->evqs; *p; p = &(*p)->next) {
		if (*p == f->evq) {
			*p = f->evq->next;
			if (uv->async == f->evq)
				uv->async = NULL;
			sim_evq_put(f->evq);
			break;
		}
	}
	sim_fd_drop(fd);
	sys.close(fd);
}

void sim_evq_get(struct sim_evq *q)
{
	q->refs++;
}

static void take_count(struct sim_evq *q, int fd)
{
	uint64_t v;

	if (fd >= 0 && sys.read(fd, &v, sizeof(v)) < 0)
		return; /* the counter was already 0: nothing to take */
}

static struct sim_event *dequeue(struct sim_evq *q)
{
	struct sim_event *e = q->head;

	if (!e)
		return NULL;
	q->head = e->next;
	if (!q->head)
		q->tail = &q->head;
	return e;
}

void sim_evq_put(struct sim_evq *q)
{
	if (--q->refs > 0)
		return;
	while (q->head)
		free(dequeue(q));
	free(q);
}

/* Readiness now rides on another fd of the same eventfd, if any. */
void sim_evq_fd_closed(struct sim_evq *q, int fd)
{
	int i;

	if (q->fd != fd)
		return;
	q->fd = -1;
	for (i = 0; i < SIM_MAX_FDS; i++) {
		if (i != fd && sim_fds[i].kind == SIM_FD_EVENT &&
		    sim_fds[i].evq == q) {
			q->fd = i;
			return;
		}
	}
}

static void enqueue(struct sim_evq *q, const struct sim_obj *obj,
		    uint32_t *reported, const void *desc)
{
	struct sim_event *e;
	uint64_t one = 1;

	if (q->closed)
		return;
	e = calloc(1, sizeof(*e));
	if (!e)
		return; /* the kernel drops events it cannot allocate too */
	e->obj = obj;
	e->reported = reported;
	memcpy(e->desc, desc, desc_len(q));
	*q->tail = e;
	q->tail = &e->next;
	if (q->fd >= 0 && sys.write(q->fd, &one, sizeof(one)) < 0)
		return;
}

void sim_evq_purge(struct sim_evq *q, const struct sim_obj *obj)
{
	struct sim_event **p = &q->head, *e;

	while ((e = *p)) {
		if (e->obj != obj) {
			p = &e->next;
			continue;
		}
		*p = e->next;
		free(e);
		take_count(q, q->fd);
	}
	q->tail = &q->head;
	for (e = q->head; e; e = e->next)
		q->tail = &e->next;
}

void sim_evq_close(struct sim_evq *q)
{
	uint64_t one = 1;

	while (q->head) {
		free(dequeue(q));
		take_count(q, q->fd);
	}
	q->closed = 1;
	q->uv = NULL;
	/* blocked readers wake up and see EIO */
	if (q->fd >= 0 && sys.write(q->fd, &one, sizeof(one)) < 0)
		return;
}

void sim_cq_comp_event(struct sim_cq *cq)
{
	struct ib_uverbs_comp_event_desc d = {.cq_handle = cq->user_handle};

	if (cq->channel)
		enqueue(cq->channel, &cq->obj, &cq->comp_events_reported, &d);
}

void sim_async_event(struct sim_uvfile *uv, uint32_t event_type,
		     struct sim_obj *obj)
{
	struct ib_uverbs_async_event_desc d = {.event_type = event_type};
	struct sim_evq *q = (uv ? uv : obj->uv)->async;
	uint32_t *reported = NULL;

	if (obj->type == &sim_type_cq) {
		d.element = sim_cq(obj)->user_handle;
		q = sim_cq(obj)->async ? sim_cq(obj)->async : q;
		reported = &sim_cq(obj)->async_events_reported;
	} else if (obj->type == &sim_type_qp) {
		d.element = sim_qp(obj)->user_handle;
		q = sim_qp(obj)->async ? sim_qp(obj)->async : q;
		reported = &sim_qp(obj)->events_reported;
	} else if (obj->type == &sim_type_srq) {
		d.element = sim_srq(obj)->user_handle;
		q = sim_srq(obj)->async ? sim_srq(obj)->async : q;
		reported = &sim_srq(obj)->events_reported;
	}
	if (q)
		enqueue(q, obj, reported, &d);
}

void sim_device_event(struct sim_uvfile *uv, uint32_t event_type,
		      uint32_t element)
{
	struct ib_uverbs_async_event_desc d = {.event_type = event_type,
					       .element = element};

	if (uv->async)
		enqueue(uv->async, NULL, NULL, &d);
}

/* One event, or 0 with *again set when the caller must wait. */
static ssize_t read_one(int fd, void *buf, size_t count, int *again)
{
	struct sim_fd *f = sim_fd_get(fd);
	struct sim_event *e;
	struct sim_evq *q;
	size_t len;

	*again = 0;
	if (!f || f->kind != SIM_FD_EVENT)
		return -EBADF;
	q = f->evq;
	len = desc_len(q);
	if (count < len)
		return -EINVAL; /* and the event stays queued */
	e = dequeue(q);
	if (!e) {
		if (q->closed)
			return -EIO;
		if (sys.fcntl(fd, F_GETFL) & O_NONBLOCK)
			return -EAGAIN;
		*again = 1;
		return 0;
	}
	take_count(q, fd);
	if (e->reported)
		(*e->reported)++;
	if (sim_copy_to_user(buf, e->desc, len)) {
		free(e);
		return -EFAULT;
	}
	free(e);
	return (ssize_t)len;
}

ssize_t sim_evq_read(int fd, void *buf, size_t count)
{
	ssize_t ret;
	int again;

	for (;;) {
		sim_lock_take();
		ret = read_one(fd, buf, count, &again);
		sim_lock_drop();
		if (!again)
			break;
		/* sleep outside the lock until an event is queued */
		ret = sim_wait_readable(fd, -1);
		if (ret < 0)
			break;
	}
	if (ret < 0) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}
