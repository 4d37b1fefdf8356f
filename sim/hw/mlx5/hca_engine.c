// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The engine loop. One pass (hca_step) takes arrived packets, new send
 * WQEs, due timers, queued responses and pending arms. A doorbell runs a
 * pass in the thread that rang it (hca_doorbell.c); the engine thread
 * runs passes while there is work, then sleeps on its ring
 * (hca_fabric_wait) with a timeout of 1 ms, growing to 10 ms after 50 ms
 * without work, so an idle process costs ~100 short wake-ups a second. A
 * packet's arrival wakes it at once (the sender wakes a sleeping engine),
 * as the program may be waiting for the bytes without calling anything.
 * Where doorbells are only watched (hca_doorbell_watching), the thread
 * spins (yielding) for a millisecond after the last work before it
 * sleeps, to see the next doorbell record move. A UAR page left
 * writable while the program streams is not watched that way: the
 * answers to the WQEs in flight wake the thread, whose passes take what
 * was posted meanwhile, and once none is in flight the page traps again.
 *
 * The thread allocates memory only in its passes, under sim_lock, which
 * fork's prepare handler takes (boundary/init.c): a fork child never
 * inherits an allocator lock the thread held. Its start-up, which
 * allocates too (a sanitizer's thread set-up, whose allocator has no
 * fork handler of its own in gcc 12's libasan), is over before
 * hca_engine_start() returns: a program that forks right after its first
 * QP (tests/sim/debian_land.c) had children whose own engine thread
 * waited forever at its start for the lock the parent's was holding.
 */
#include "hca.h"
#include "hca_cmd.h"

#include <endian.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <string.h>
#include <time.h>

struct hca_cq *hca_cqs;
struct hca_qp *hca_qps;
struct hca_srq *hca_srqs;
const struct hca_soft_ops *hca_soft;

static pthread_t engine_thread;
static pid_t engine_pid;
static sem_t engine_up; /* posted as the thread enters engine_main */

uint64_t hca_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct hca_qp *hca_qp_by_qpn(unsigned int dev, uint32_t qpn)
{
	struct hca_qp *qp;

	for (qp = hca_qps; qp; qp = qp->next)
		if (qp->qpn == qpn && qp->dev == dev && !qp->dct_parent)
			return qp;
	return NULL;
}

/* Receive WQEs of a QP in ERR complete as flushed. */
static int rq_flush(struct hca_qp *qp)
{
	struct hca_sge sge[HCA_MAX_SGE];
	uint32_t n, wc;
	int did = 0;

	if (qp->srq)
		return 0;
	while (!hca_recv_wqe(qp, sge, &n, &wc)) {
		hca_recv_complete(qp, wc, NULL, 0, HCA_SYND_FLUSH);
		did = 1;
	}
	return did;
}

void hca_qp_to_err(struct hca_qp *qp)
{
	if (qp->state == IB_QPS_ERR)
		return;
	hca_qp_set_state(qp, IB_QPS_ERR);
	/* a SEND being received holds its receive WQE: it flushes too */
	if (qp->in_msg && qp->msg_op == HCA_PKT_SEND)
		hca_recv_complete(qp, qp->msg_wqe, NULL, 0, HCA_SYND_FLUSH);
	qp->in_msg = 0;
	qp->rr_head = qp->rr_tail = 0;
	qp->ack_pending = 0;
	hca_req_flush(qp);
	rq_flush(qp);
	/* an XRC instance has no handle here to tell */
	if (qp->srq && !qp->xrc_inst)
		hca_eq_post(HCA_EQE_SRQ_LAST_WQE, 0, qp->dev, qp->qpn);
}

void hca_qp_reset(struct hca_qp *qp)
{
	qp->sq_taken = 0;
	qp->head = qp->tail = 0;
	qp->rq_consumed = 0;
	qp->in_msg = 0;
	qp->rr_head = qp->rr_tail = 0;
	qp->ack_pending = 0;
	qp->nak_pending = 0;
	qp->seq_nak_sent = 0;
	qp->nres = 0;
	qp->retries = qp->rnr_retries = 0;
	qp->mark.pid = 0;
	qp->cq_overran = 0;
	qp->dc_live = 0; /* a DCI connects again */
}

int hca_step(void)
{
	uint64_t now = hca_now();
	struct hca_qp *qp;
	struct hca_cq *cq;
	int did;

	hca_land_write_acks(); /* one a QP's destroy left, before the ring */
	hca_land_settle(); /* landed SENDs come before what follows them */
	did = hca_fabric_poll(64) > 0;
	did |= hca_fault_step(now);
	if (hca_soft)
		did |= hca_soft->step(now);
	for (qp = hca_qps; qp; qp = qp->next) {
		if (qp->state == IB_QPS_ERR)
			did |= rq_flush(qp);
		did |= hca_sq_process(qp);
		hca_land_write_acks(); /* landed WRITEs answered at once */
		hca_req_timers(qp, now);
		did |= hca_resp_flush(qp);
	}
	did |= hca_cq_overrun_errors();
	for (cq = hca_cqs; cq; cq = cq->next)
		hca_cq_check_arm(cq);
	hca_land_offer();
	hca_fabric_pass_done();
	hca_stats.passes++;
	hca_stats.busy_passes += did;
	return did;
}

/*
 * Doorbell pages left open while streaming trap again only after the
 * engine found nothing to do for this long: a sender whose WQEs complete
 * within the pass that took them (landed WRITEs) has none in flight
 * between two posts, and would trap on every other one.
 */
#define DB_CLOSE_IDLE_NS 200000

/* One pass of the thread: 1 if there is more to do at once (work done,
 * a doorbell left to it, or a peer's ring found full: try again). With
 * may_close, open doorbell pages may trap again. */
static int thread_pass(int may_close)
{
	unsigned int busy;
	uint64_t full;
	int did;

	pthread_mutex_lock(&sim_lock);
	hca_fabric_alive_hold();
	full = hca_stats.ring_full;
	busy = hca_doorbell_busy_take();
	did = hca_step();
	if (busy)
		hca_doorbell_busy_decide();
	/* about to sleep with nothing in flight: untrapped doorbells trap
	 * again, and one more pass looks for a store made just before */
	if (!did && may_close)
		did = hca_doorbell_close() > 0;
	if (hca_stats.ring_full != full) {
		did = 1;
		sched_yield(); /* the peer needs the CPU to make room */
	}
	pthread_mutex_unlock(&sim_lock);
	return did | (int)__atomic_exchange_n(&hca_doorbell_pending, 0,
					      __ATOMIC_SEQ_CST);
}

static void *engine_main(void *arg)
{
	uint64_t last = hca_now(), now, idle;
	int sleep_ms;

	(void)arg;
	sim_sigmask_async(NULL);
	sem_post(&engine_up);
	for (;;) {
		now = hca_now();
		if (thread_pass(now - last >= DB_CLOSE_IDLE_NS))
			last = now;
		idle = now - last;
		if (!idle)
			continue;
		/* an open page is looked at until it closes: its stores
		 * wake no one */
		if ((idle < 1000000 && hca_doorbell_watching()) ||
		    (idle <= DB_CLOSE_IDLE_NS && hca_doorbell_open())) {
			sched_yield();
			continue;
		}
		sleep_ms = idle < 50000000 ? 1 : 10;
		hca_fabric_wait(hca_doorbell_idle_ms() ?: sleep_ms);
	}
	return NULL;
}

/* A fork child's HCA starts empty: the queues and keys it inherited are
 * the parent's (its copies of the objects are snapshots, as the core
 * says), so the command tables and the engine's lists forget them. */
static void forked(void)
{
	memset(&hca_stats, 0, sizeof(hca_stats));
	hca_cmd_forked();
}

void hca_engine_fork_hook(void)
{
	static int atfork_done;

	if (!atfork_done) {
		pthread_atfork(NULL, NULL, forked);
		atfork_done = 1;
	}
}

void hca_engine_start(void)
{
	pthread_attr_t a;

	hca_engine_fork_hook();
	if (engine_pid == getpid())
		return;
	sem_init(&engine_up, 0, 0);
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	if (!pthread_create(&engine_thread, &a, engine_main, NULL)) {
		engine_pid = getpid();
		/* its start-up done before a fork can copy it half-way */
		while (sem_wait(&engine_up) && errno == EINTR)
			;
	}
	pthread_attr_destroy(&a);
	sem_destroy(&engine_up);
}
