// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * CQ moderation on rdma-sim: the capabilities EX_QUERY_DEVICE reports,
 * ibv_modify_cq's refusals (library and kernel), and what it does to
 * completion events: an armed CQ with cq_count N raises no event for N-1
 * completions and one at the Nth; with a period the event comes once the
 * period passed, without more completions.
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

#include "host_pair.h"
#include "skip.h"

static struct host_pair hp;

static int group_setup(void **state)
{
	return host_pair_open(&hp, 1, 65536,
			      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
}

static int group_teardown(void **state)
{
	test_teardown_begin();
	assert_true(host_pair_close(&hp));
	return test_teardown_end();
}

static int modify(struct ibv_cq *cq, uint32_t mask, uint16_t count,
		  uint16_t period)
{
	struct ibv_modify_cq_attr attr = {mask, {count, period}};

	return ibv_modify_cq(cq, &attr);
}

/* Is a completion event waiting on @ep's channel within @ms? */
static bool event_within(struct rdma_ep *ep, int ms)
{
	struct pollfd p = {.fd = ep->channel->fd, .events = POLLIN};

	return poll(&p, 1, ms) == 1;
}

static void take_event(struct rdma_ep *ep)
{
	struct ibv_cq *cq;
	void *ctx;

	assert_int_equal(ibv_get_cq_event(ep->channel, &cq, &ctx), 0);
	assert_ptr_equal(cq, ep->cq);
	ibv_ack_cq_events(cq, 1);
}

/* One signaled WRITE from A, its completion polled from A's CQ. */
static void write_once(struct rdma_ep *a)
{
	struct ibv_wc wc;

	assert_int_equal(ep_post(a, IBV_WR_RDMA_WRITE, hp.a.buf, 64,
				 hp.a.mr->lkey, (uintptr_t)hp.b.buf,
				 hp.b.mr->rkey, IBV_SEND_SIGNALED, 1),
			 0);
	assert_int_equal(ep_poll(a, &wc, 1), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
}

/* One more completion, and the event it releases. */
static void event_after_write(struct rdma_ep *a)
{
	write_once(a);
	assert_true(event_within(a, 5000));
	take_event(a);
}

static void test_caps_and_errors(void **state)
{
	struct ibv_device_attr_ex attr;
	struct ep_opts o = {.type = IBV_QPT_RC};
	struct rdma_ep a;

	assert_int_equal(ibv_query_device_ex(hp.a.ctx, NULL, &attr), 0);
	assert_int_equal(attr.cq_mod_caps.max_cq_count, 65535);
	assert_int_equal(attr.cq_mod_caps.max_cq_period, 4095);
	assert_int_equal(ep_open(&a, hp.a.ctx, hp.a.pd, &o), 0);
	/* the library: a mask past MODERATE is never sent */
	assert_int_equal(modify(a.cq, IBV_CQ_ATTR_RESERVED, 1, 1), EINVAL);
	/* the kernel: no attribute, then mlx5's 12-bit period */
	assert_int_equal(modify(a.cq, 0, 1, 1), EINVAL);
	assert_int_equal(modify(a.cq, IBV_CQ_ATTR_MODERATE, 1, 4096), EINVAL);
	assert_int_equal(modify(a.cq, IBV_CQ_ATTR_MODERATE, 65535, 4095), 0);
	assert_int_equal(modify(a.cq, IBV_CQ_ATTR_MODERATE, 0, 0), 0);
	ep_close(&a);
}

/* cq_count 4, no period: three completions wake nobody, the fourth does. */
static void test_count(void **state)
{
	struct ep_opts o = {.type = IBV_QPT_RC, .channel = true};
	struct rdma_ep a, b;
	int i;

	assert_int_equal(ep_pair(&a, hp.a.pd, &o, &b, hp.b.pd, &o), 0);
	assert_int_equal(modify(a.cq, IBV_CQ_ATTR_MODERATE, 4, 0), 0);
	assert_int_equal(ibv_req_notify_cq(a.cq, 0), 0);
	for (i = 0; i < 3; i++)
		write_once(&a);
	assert_false(event_within(&a, 50));
	event_after_write(&a);
	/* back to no moderation: the next completion raises the event */
	assert_int_equal(modify(a.cq, IBV_CQ_ATTR_MODERATE, 0, 0), 0);
	assert_int_equal(ibv_req_notify_cq(a.cq, 0), 0);
	event_after_write(&a);
	ep_close(&a);
	ep_close(&b);
}

/* A count never reached: the period releases the event on its own. */
static void test_period(void **state)
{
	struct ep_opts o = {.type = IBV_QPT_RC, .channel = true};
	struct rdma_ep a, b;

	assert_int_equal(ep_pair(&a, hp.a.pd, &o, &b, hp.b.pd, &o), 0);
	assert_int_equal(modify(a.cq, IBV_CQ_ATTR_MODERATE, 1000, 2000), 0);
	assert_int_equal(ibv_req_notify_cq(a.cq, 0), 0);
	event_after_write(&a);
	ep_close(&a);
	ep_close(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caps_and_errors),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_period),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
