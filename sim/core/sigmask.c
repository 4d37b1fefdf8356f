// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The signals the sim's own threads and its locked sections hold off.
 * Asynchronous ones only: SIGSYS is the system-call trap, which a thread
 * must take even inside the sim (a program that patched libc's mmap to
 * call syscall(2), as libfabric's memory hooks do, makes every mmap of
 * the sim's trap), and the kernel kills a process whose thread meets
 * SECCOMP_RET_TRAP with SIGSYS blocked; SIGSEGV and SIGTRAP are the
 * doorbell trap's, SIGBUS a fault's.
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
