// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion and asynchronous events, fed through pipes standing in for
 * the kernel's event files: decoding, the provider hook, acknowledgement
 * counters, channel reference counts, and short reads.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <rdma/ib_user_verbs.h>

#include <cmocka.h>

#include "fake_ctx.h"

static int cq_events, async_events;
static enum ibv_event_type last_async;

static void count_cq_event(struct ibv_cq *cq)
{
	cq_events++;
}

static void count_async_event(struct ibv_context *context,
			      struct ibv_async_event *event)
{
	async_events++;
	last_async = event->event_type;
}

static struct verbs_context *event_ctx(void)
{
	struct verbs_context *vctx = fake_ctx_new(sizeof(*vctx));
	const struct verbs_context_ops ops = {
		.cq_event = count_cq_event,
		.async_event = count_async_event,
	};

	verbs_set_ops(vctx, &ops);
	cq_events = async_events = 0;
	return vctx;
}

static void test_cq_event(void **state)
{
	struct verbs_context *vctx = event_ctx();
	struct ibv_comp_channel channel = { .context = &vctx->context };
	struct ib_uverbs_comp_event_desc desc;
	struct ibv_cq cq = { .context = &vctx->context };
	struct ibv_cq *got_cq = NULL;
	void *got_ctx = NULL;
	int fds[2];

	cq.cq_context = &channel;
	pthread_mutex_init(&cq.mutex, NULL);
	pthread_cond_init(&cq.cond, NULL);
	assert_int_equal(pipe(fds), 0);
	channel.fd = fds[0];

	desc.cq_handle = (uintptr_t)&cq;
	assert_int_equal(write(fds[1], &desc, sizeof(desc)), sizeof(desc));
	assert_int_equal(ibv_get_cq_event(&channel, &got_cq, &got_ctx), 0);
	assert_ptr_equal(got_cq, &cq);
	assert_ptr_equal(got_ctx, &channel);
	assert_int_equal(cq_events, 1);
	ibv_ack_cq_events(&cq, 3);
	assert_int_equal(cq.comp_events_completed, 3);

	/* A truncated event is an error, not garbage. */
	assert_int_equal(write(fds[1], &desc, 4), 4);
	close(fds[1]);
	errno = 0;
	assert_int_equal(ibv_get_cq_event(&channel, &got_cq, &got_ctx), -1);
	assert_int_equal(errno, EIO);
	assert_int_equal(cq_events, 1);
	close(fds[0]);
	fake_ctx_free(vctx);
}

static void send_async(int fd, uint64_t element, uint32_t type)
{
	struct ib_uverbs_async_event_desc desc = {
		.element = element,
		.event_type = type,
	};

	assert_int_equal(write(fd, &desc, sizeof(desc)), sizeof(desc));
}

static void test_async_events(void **state)
{
	struct verbs_context *vctx = event_ctx();
	struct ibv_context *ctx = &vctx->context;
	struct ibv_async_event ev;
	struct ibv_qp qp = { .context = NULL };
	struct ibv_cq cq = { .context = NULL };
	int fds[2];

	pthread_mutex_init(&qp.mutex, NULL);
	pthread_cond_init(&qp.cond, NULL);
	pthread_mutex_init(&cq.mutex, NULL);
	pthread_cond_init(&cq.cond, NULL);
	assert_int_equal(pipe(fds), 0);
	ctx->async_fd = fds[0];

	send_async(fds[1], (uintptr_t)&qp, IBV_EVENT_QP_FATAL);
	assert_int_equal(ibv_get_async_event(ctx, &ev), 0);
	assert_int_equal(ev.event_type, IBV_EVENT_QP_FATAL);
	assert_ptr_equal(ev.element.qp, &qp);
	ibv_ack_async_event(&ev);
	assert_int_equal(qp.events_completed, 1);

	send_async(fds[1], (uintptr_t)&cq, IBV_EVENT_CQ_ERR);
	assert_int_equal(ibv_get_async_event(ctx, &ev), 0);
	assert_ptr_equal(ev.element.cq, &cq);
	ibv_ack_async_event(&ev);
	assert_int_equal(cq.async_events_completed, 1);
	assert_int_equal(cq.comp_events_completed, 0);

	send_async(fds[1], 2, IBV_EVENT_PORT_ACTIVE);
	assert_int_equal(ibv_get_async_event(ctx, &ev), 0);
	assert_int_equal(ev.element.port_num, 2);
	ibv_ack_async_event(&ev);
	assert_int_equal(async_events, 3);
	assert_int_equal(last_async, IBV_EVENT_PORT_ACTIVE);

	close(fds[1]);
	errno = 0;
	assert_int_equal(ibv_get_async_event(ctx, &ev), -1);
	assert_int_equal(errno, EIO);
	close(fds[0]);
	ctx->async_fd = -1;
	fake_ctx_free(vctx);
}

static struct ibv_cq fake_cq;

/* What ibv_cmd_create_cq() does for a real provider (driver.h). */
static struct ibv_cq *fake_create_cq(struct ibv_context *context, int cqe,
				     struct ibv_comp_channel *channel,
				     int comp_vector)
{
	memset(&fake_cq, 0, sizeof(fake_cq));
	fake_cq.context = context;
	fake_cq.channel = channel;
	fake_cq.cqe = cqe;
	channel->refcnt++;
	return &fake_cq;
}

static int fake_destroy_cq(struct ibv_cq *cq)
{
	cq->channel->refcnt--;
	return 0;
}

/*
 * The provider's command helpers own the channel reference (they count it
 * with the kernel object); the wrapper adds only the application's
 * cq_context, and a channel with CQs on it cannot go away.
 */
static void test_channel_refcount(void **state)
{
	struct verbs_context *vctx = fake_ctx_new(sizeof(*vctx));
	const struct verbs_context_ops ops = {
		.create_cq = fake_create_cq,
		.destroy_cq = fake_destroy_cq,
	};
	struct ibv_comp_channel channel = { .context = &vctx->context };
	int tag;
	struct ibv_cq *cq;

	verbs_set_ops(vctx, &ops);
	channel.fd = -1;
	cq = ibv_create_cq(&vctx->context, 16, &tag, &channel, 0);
	assert_ptr_equal(cq, &fake_cq);
	assert_ptr_equal(cq->context, &vctx->context);
	assert_ptr_equal(cq->channel, &channel);
	assert_ptr_equal(cq->cq_context, &tag);
	assert_int_equal(channel.refcnt, 1);
	assert_int_equal(ibv_destroy_comp_channel(&channel), EBUSY);
	assert_int_equal(ibv_destroy_cq(cq), 0);
	assert_int_equal(channel.refcnt, 0);
	fake_ctx_free(vctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cq_event),
		cmocka_unit_test(test_async_events),
		cmocka_unit_test(test_channel_refcount),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
