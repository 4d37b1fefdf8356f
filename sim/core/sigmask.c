// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The signals the sim's own threads and its locked sections hold off.
 * Asynchronous ones only: SIGSYS is the system-call trap, which a thread
 * must take even inside the sim (a program that patched libc's mmap to
 * call syscall(2), as libfabric's memory hooks do, makes every mmap of
 * the sim's trap), and the kernel kills a process whose thread meets
 * SECCOMP_RET_TRAP with SIGSYS blocked; SIGSEGV and SIGTRAP are the
 * doorbell trap's, SIGBUS a fault's. A program's thread holds them off
 * while it holds sim_lock (sim_lock_take): a handler that ran there and
 * called exit() would meet the lock again in the program's atexit work,
 * held by the very thread that waits for it.
 */
#include "sim.h"

#include <signal.h>

void sim_sigmask_async(sigset_t *old)
{
	sigset_t set;

	sigfillset(&set);
	sigdelset(&set, SIGSYS);
	sigdelset(&set, SIGSEGV);
	sigdelset(&set, SIGTRAP);
	sigdelset(&set, SIGBUS);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

/* The mask the thread holding sim_lock had before it took it. */
static __thread sigset_t lock_old;

void sim_lock_take(void)
{
	sigset_t old;

	sim_sigmask_async(&old);
	pthread_mutex_lock(&sim_lock);
	lock_old = old;
}

void sim_lock_drop(void)
{
	sigset_t old = lock_old;

	pthread_mutex_unlock(&sim_lock);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}
