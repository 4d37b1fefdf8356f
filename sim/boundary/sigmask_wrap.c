// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * SIGSYS stays deliverable in every thread of the program. The seccomp
 * trap (seccomp.c) raises it for served calls made through libc's
 * syscall(2), and the kernel kills a process whose thread meets the trap
 * with SIGSYS blocked. Programs block "everything" in their helper
 * threads (sigfillset + pthread_sigmask) and some of them then call
 * mmap through syscall(2) (libfabric's memory hooks patch libc's mmap to
 * do so): on a real kernel nothing traps there. So the masks a program
 * sets through libc leave SIGSYS out; the rest is as it asked.
 */
#include "sim.h"
#include "syscall_trap.h"

#include <signal.h>

static const sigset_t *keep_sigsys(int how, const sigset_t *set, sigset_t *copy)
{
	if (!set || how == SIG_UNBLOCK || !sim_sigsys_active() ||
	    !sigismember(set, SIGSYS))
		return set;
	*copy = *set;
	sigdelset(copy, SIGSYS);
	return copy;
}

int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	static int (*next)(int, const sigset_t *, sigset_t *);
	sigset_t copy;

	if (!next)
		*(void **)&next = dlsym_next("pthread_sigmask");
	return next(how, keep_sigsys(how, set, &copy), old);
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	static int (*next)(int, const sigset_t *, sigset_t *);
	sigset_t copy;

	if (!next)
		*(void **)&next = dlsym_next("sigprocmask");
	return next(how, keep_sigsys(how, set, &copy), old);
}
