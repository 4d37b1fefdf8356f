// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RoCE port events reach every context: the launcher appends GID_CHANGE,
 * PORT_ERR and PORT_ACTIVE to a port's log in the shared state and bumps
 * net.seq (common/netdev.h); a thread of each process that has an async
 * event file on an Ethernet port sleeps on that word and queues the new
 * log entries on each such context's async file, as the kernel's
 * ib_dispatch_event reaches every uverbs file of the device. A context
 * sees the events that happen after its async file was made.
 */
#include "uapi.h"

#include <linux/futex.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>

static pid_t thread_pid; /* the process the thread runs in */

static void catch_up(struct sim_uvfile *uv, void *arg)
{
	struct sim_netdev *nd = sim_netdev_of(sim.sh, uv->dev, 1);
	uint32_t end;

	(void)arg;
	if (!nd || !uv->async)
		return;
	end = __atomic_load_n(&nd->nevents, __ATOMIC_ACQUIRE);
	if (end - uv->net_seen > SIM_NET_EVENTS) /* overrun: the newest */
		uv->net_seen = end - SIM_NET_EVENTS;
	for (; uv->net_seen != end; uv->net_seen++)
		sim_device_event(uv, nd->events[uv->net_seen % SIM_NET_EVENTS],
				 1);
}

static void *net_events_main(void *arg)
{
	struct timespec ts = {.tv_sec = 1};
	uint32_t seq, i;

	(void)arg;
	sim_sigmask_async(NULL);
	for (;;) {
		seq = __atomic_load_n(&sim.sh->net.seq, __ATOMIC_ACQUIRE);
		pthread_mutex_lock(&sim_lock);
		for (i = 0; i < sim.sh->net.nnetdev; i++)
			sim_for_each_context(sim.sh->net.nd[i].dev, catch_up,
					     NULL);
		pthread_mutex_unlock(&sim_lock);
		syscall(SYS_futex, &sim.sh->net.seq, FUTEX_WAIT, seq, &ts,
			NULL, 0);
	}
	return NULL;
}

void sim_net_events_watch(struct sim_uvfile *uv)
{
	struct sim_netdev *nd = sim_netdev_of(sim.sh, uv->dev, 1);
	pthread_attr_t a;
	pthread_t t;

	if (!nd)
		return;
	uv->net_seen = __atomic_load_n(&nd->nevents, __ATOMIC_ACQUIRE);
	if (thread_pid == getpid())
		return;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	if (!pthread_create(&t, &a, net_events_main, NULL))
		thread_pid = getpid();
	pthread_attr_destroy(&a);
}
