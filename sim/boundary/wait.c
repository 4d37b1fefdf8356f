// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A served call that must block (read of an event file or a umad file,
 * rdma_cm GET_EVENT) waits here, outside sim_lock. In a dynamic program
 * each thread runs the sim on its own stack, so it simply polls. A static
 * program's traps all run the sim one at a time on the helper's stack
 * (sigsys.c): a thread waiting there would hold it, and every other
 * thread's trapped call would wait behind it. There the call does not
 * wait: it notes what it waits for and returns -SIM_EWAIT; the trap
 * leaves the sim, waits with a raw ppoll and serves the call again.
 */
#include "sim.h"
#include "syscall_trap.h"

#include <errno.h>
#include <poll.h>
#include <sys/syscall.h>
#include <time.h>

__thread int sim_static_serving;
struct sim_static_wait sim_static_wait; /* under sigsys.c's serve lock */

int sim_wait_readable(int fd, int timeout_ms)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	int n;

	if (!sim_static_serving) {
		n = poll(&p, 1, timeout_ms);
		return n < 0 ? -errno : n;
	}
	/* already readable: no need to leave */
	n = (int)sim_cookie_syscall(__NR_poll, (long)(uintptr_t)&p, 1, 0, 0, 0);
	if (n)
		return n;
	sim_static_wait.fd = fd;
	sim_static_wait.timeout_ms = timeout_ms;
	return -SIM_EWAIT;
}

void sim_static_wait_out(const struct sim_static_wait *w)
{
	struct pollfd p = {.fd = w->fd, .events = POLLIN};
	struct timespec ts = {w->timeout_ms / 1000,
			      (w->timeout_ms % 1000) * 1000000L};

	/* a signal or the timeout ends it too: the call is served again */
	sim_cookie_syscall(__NR_ppoll, (long)(uintptr_t)&p, 1,
			   w->timeout_ms < 0 ? 0 : (long)(uintptr_t)&ts, 0,
			   8 /* the kernel's sigset_t */);
}
