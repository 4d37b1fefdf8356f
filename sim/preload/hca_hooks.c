// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Doorbells are plain stores, so a real HCA notices them and a simulated
 * one must look. To look at the moment that matters without a thread
 * spinning beside the application, the sim wraps the verbs context's
 * poll_cq and post_* entry points of contexts opened on a simulated
 * device: the provider's own function runs unchanged, and the engine runs
 * one pass in the caller's thread right after a post and before a poll.
 * Programs that ring doorbells themselves (mlx5dv, ibv_wr_*) are served
 * by those passes and the engine thread.
 */
#include "hca.h"

#include <infiniband/verbs.h>
#include <sched.h>

#define HOOK_MAX 64

struct hooked {
	struct ibv_context *ctx;
	struct ibv_context_ops orig;
};

static struct hooked hooked[HOOK_MAX];
static unsigned int nhooked;

static const struct ibv_context_ops *orig_ops(struct ibv_context *ctx)
{
	unsigned int i, n = __atomic_load_n(&nhooked, __ATOMIC_ACQUIRE);

	for (i = 0; i < n; i++)
		if (hooked[i].ctx == ctx)
			return &hooked[i].orig;
	return NULL;
}

/* One engine pass in this thread, unless another thread is in the sim. */
static void drive(void)
{
	if (pthread_mutex_trylock(&sim_lock))
		return;
	hca_step();
	hca_stats.app_passes++;
	pthread_mutex_unlock(&sim_lock);
	__atomic_store_n(&hca_app_drove, hca_now(), __ATOMIC_RELAXED);
}

static int hook_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	const struct ibv_context_ops *o = orig_ops(cq->context);
	int ret;

	drive(); /* a pass costs no system call: every poll may run one */
	ret = o->poll_cq(cq, n, wc);
	if (ret == 0)
		sched_yield(); /* let the peer we wait for run */
	return ret;
}

static int hook_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
			  struct ibv_send_wr **bad)
{
	int ret = orig_ops(qp->context)->post_send(qp, wr, bad);

	drive();
	return ret;
}

static int hook_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
			  struct ibv_recv_wr **bad)
{
	int ret = orig_ops(qp->context)->post_recv(qp, wr, bad);

	drive();
	return ret;
}

static int hook_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr,
			      struct ibv_recv_wr **bad)
{
	int ret = orig_ops(srq->context)->post_srq_recv(srq, wr, bad);

	drive();
	return ret;
}

static void hook(struct ibv_context *ctx)
{
	struct hooked *h;
	struct sim_fd *f;

	if (!ctx || !sim.active || sim.sh->cfg.driver != SIM_DRIVER_MLX5)
		return;
	pthread_mutex_lock(&sim_lock);
	f = sim_fd_get(ctx->cmd_fd);
	if (!f || f->kind != SIM_FD_UVERBS) {
		pthread_mutex_unlock(&sim_lock);
		return;
	}
	/* a context at the address of a closed one takes over its row */
	for (h = hooked; h < hooked + nhooked && h->ctx != ctx; h++)
		;
	if (h < hooked + HOOK_MAX && ctx->ops.poll_cq && ctx->ops.post_send &&
	    ctx->ops.post_recv) {
		h->ctx = ctx;
		h->orig = ctx->ops;
		if (h == hooked + nhooked)
			__atomic_store_n(&nhooked, nhooked + 1,
					 __ATOMIC_RELEASE);
		ctx->ops.poll_cq = hook_poll_cq;
		ctx->ops.post_send = hook_post_send;
		ctx->ops.post_recv = hook_post_recv;
		if (ctx->ops.post_srq_recv)
			ctx->ops.post_srq_recv = hook_post_srq_recv;
	}
	pthread_mutex_unlock(&sim_lock);
}

struct ibv_context *ibv_open_device(struct ibv_device *dev)
{
	static struct ibv_context *(*next)(struct ibv_device *);
	struct ibv_context *ctx;

	if (!next)
		*(void **)&next = dlsym_next("ibv_open_device");
	if (!next)
		return NULL;
	ctx = next(dev);
	hook(ctx);
	return ctx;
}
