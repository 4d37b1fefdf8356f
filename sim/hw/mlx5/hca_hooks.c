// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Doorbells are plain stores, so a real HCA notices them and a simulated
 * one must look. To look at the moment that matters without a thread
 * spinning beside the application, the sim wraps the verbs context's
 * poll_cq and post_* entry points of contexts opened on a simulated
 * device: the provider's own function runs unchanged, and the engine runs
 * one pass in the caller's thread right after a post and before a poll.
 * The extended objects' entry points are function pointers in the object
 * itself: ibv_wr_complete() of a QP with send_ops_flags (wrapped after
 * every ibv_modify_qp, as a provider may set it per state) and
 * ibv_start_poll() of a CQ from ibv_create_cq_ex() (wrapped at creation).
 * Programs that ring doorbells themselves (mlx5dv) are served by those
 * passes and the engine thread.
 *
 * Interim, until the HCA listens at its doorbells alone: a libibverbs
 * that was dlopen()ed RTLD_LOCAL (Python's pyverbs, plugin loaders) is
 * not in the global scope, so RTLD_NEXT cannot see it; its functions are
 * then taken from the loaded library itself. A program that calls
 * through dlsym() of its own handle never reaches these wrappers: its
 * doorbells are served by the engine thread.
 */
#include "hca.h"

#include <dlfcn.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <sched.h>
#include <stdint.h>

#define HOOK_MAX 64

/* libibverbs' own name: the next definition in the global scope, else
 * the one of the libibverbs already loaded in a local scope. */
static void *verbs_sym(const char *name)
{
	void *h, *p = dlsym_next(name);

	if (p)
		return p;
	h = dlopen("libibverbs.so.1", RTLD_LAZY | RTLD_NOLOAD);
	if (!h)
		return NULL;
	p = dlsym(h, name);
	dlclose(h); /* drops only the reference RTLD_NOLOAD took */
	return p;
}

struct hooked {
	struct ibv_context *ctx;
	struct ibv_context_ops orig;
	struct ibv_cq_ex *(*create_cq_ex)(struct ibv_context *ctx,
					  struct ibv_cq_init_attr_ex *attr);
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

/*
 * One engine pass in this thread, unless another thread is in the sim.
 * Senders skip waking the engine thread while it runs (the pass would
 * take their packets); what came too late for it gets one more pass
 * here, and what is left after that, the thread.
 */
static void drive(void)
{
	if (pthread_mutex_trylock(&sim_lock))
		return;
	hca_fabric_app_pass(1);
	hca_step();
	hca_stats.app_passes++;
	if (hca_fabric_app_pass(0)) {
		hca_step();
		hca_stats.app_passes++;
		if (hca_fabric_app_pass(0))
			hca_fabric_wake_self();
	}
	pthread_mutex_unlock(&sim_lock);
	__atomic_store_n(&hca_app_drove, hca_now(), __ATOMIC_RELAXED);
}

/*
 * The provider's own functions of wrapped extended QPs and CQs, by the
 * object's address (open addressing; an object created at a destroyed
 * one's address takes its row over). Written under sim_lock, read
 * without it: fn before obj, so a reader that sees obj sees fn.
 */
#define XHOOK_MAX 4096 /* power of two */

union xfn {
	int (*wr_complete)(struct ibv_qp_ex *qp);
	int (*start_poll)(struct ibv_cq_ex *cq, struct ibv_poll_cq_attr *attr);
};

struct xhook {
	const void *obj;
	union xfn fn;
};

static struct xhook xhooks[XHOOK_MAX];

static struct xhook *xhook_row(const void *obj, int add)
{
	unsigned int i, s = (unsigned int)((uintptr_t)obj >> 6) * 2654435761u;
	struct xhook *x;
	const void *o;

	for (i = 0; i < XHOOK_MAX; i++) {
		x = &xhooks[(s + i) & (XHOOK_MAX - 1)];
		o = __atomic_load_n(&x->obj, __ATOMIC_ACQUIRE);
		if (o == obj || (!o && add))
			return x;
		if (!o)
			return NULL;
	}
	return NULL;
}

/* Keep fn as obj's own function: 0, or -1 if the table is full (obj then
 * stays unwrapped, its doorbells wait for the engine thread). */
static int xhook_keep(const void *obj, union xfn fn)
{
	struct xhook *x;

	pthread_mutex_lock(&sim_lock);
	x = xhook_row(obj, 1);
	if (x) {
		x->fn = fn;
		__atomic_store_n(&x->obj, obj, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&sim_lock);
	return x ? 0 : -1;
}

static int hook_wr_complete(struct ibv_qp_ex *qpx)
{
	const struct xhook *x = xhook_row(qpx, 0);
	int ret = x ? x->fn.wr_complete(qpx) : EINVAL;

	drive();
	return ret;
}

static int hook_start_poll(struct ibv_cq_ex *cq, struct ibv_poll_cq_attr *attr)
{
	const struct xhook *x = xhook_row(cq, 0);
	int ret;

	drive();
	ret = x ? x->fn.start_poll(cq, attr) : EINVAL;
	if (ret == ENOENT)
		sched_yield(); /* as an empty poll_cq */
	return ret;
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

static struct ibv_cq_ex *hook_create_cq_ex(struct ibv_context *ctx,
					   struct ibv_cq_init_attr_ex *attr)
{
	unsigned int i, n = __atomic_load_n(&nhooked, __ATOMIC_ACQUIRE);
	struct ibv_cq_ex *cq;

	for (i = 0; i < n && hooked[i].ctx != ctx; i++)
		;
	if (i == n) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	cq = hooked[i].create_cq_ex(ctx, attr);
	if (cq && cq->start_poll &&
	    !xhook_keep(cq, (union xfn){.start_poll = cq->start_poll}))
		cq->start_poll = hook_start_poll;
	return cq;
}

/* After a modify (the provider may have set wr_complete for the new
 * state): wrap the QP's current wr_complete if it is not wrapped. */
static void hook_qp_ex(struct ibv_qp *qp)
{
	static struct ibv_qp_ex *(*to_qp_ex)(struct ibv_qp *);
	struct ibv_qp_ex *qpx;
	int err = errno;

	if (!orig_ops(qp->context))
		return;
	if (!to_qp_ex)
		*(void **)&to_qp_ex = verbs_sym("ibv_qp_to_qp_ex");
	qpx = to_qp_ex ? to_qp_ex(qp) : NULL;
	errno = err; /* a QP without the extension is no error */
	if (qpx && qpx->wr_complete && qpx->wr_complete != hook_wr_complete &&
	    !xhook_keep(qpx, (union xfn){.wr_complete = qpx->wr_complete}))
		qpx->wr_complete = hook_wr_complete;
}

static void hook(struct ibv_context *ctx)
{
	struct verbs_context *vctx;
	struct hooked *h;
	struct sim_fd *f;

	if (!ctx || !sim.active || sim.sh->cfg.driver != SIM_DRIVER_MLX5)
		return;
	vctx = verbs_get_ctx_op(ctx, create_cq_ex);
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
		h->create_cq_ex = vctx ? vctx->create_cq_ex : NULL;
		if (vctx)
			vctx->create_cq_ex = hook_create_cq_ex;
	}
	pthread_mutex_unlock(&sim_lock);
}

struct ibv_context *ibv_open_device(struct ibv_device *dev)
{
	static struct ibv_context *(*next)(struct ibv_device *);
	struct ibv_context *ctx;

	if (!next)
		*(void **)&next = verbs_sym("ibv_open_device");
	if (!next) {
		errno = ENOSYS;
		return NULL;
	}
	ctx = next(dev);
	hook(ctx);
	return ctx;
}

int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask)
{
	static int (*next)(struct ibv_qp *, struct ibv_qp_attr *, int);
	int ret;

	if (!next)
		*(void **)&next = verbs_sym("ibv_modify_qp");
	if (!next)
		return ENOSYS;
	ret = next(qp, attr, mask);
	if (!ret && qp)
		hook_qp_ex(qp);
	return ret;
}
