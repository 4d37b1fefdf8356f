// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * sigaction() and signal() for SIGSEGV and SIGTRAP. While the HCA traps
 * the stores to its UAR pages (hw/mlx5/hca_doorbell.c), its handler stays
 * installed: the program's action is kept there and is what every fault
 * that is not at a UAR page gets, and what the program reads back, as
 * with nothing in between. Every other call is the program's own.
 */
#include "sim.h"
#include "hca.h"

#include <signal.h>

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	static int (*next)(int, const struct sigaction *, struct sigaction *);

	if (sim.active && !hca_doorbell_sigaction(sig, act, old))
		return 0;
	if (!next)
		*(void **)&next = dlsym_next("sigaction");
	return next(sig, act, old);
}

/* BSD semantics, as glibc's signal(): restarting, the signal blocked in
 * its handler. */
sighandler_t signal(int sig, sighandler_t handler)
{
	static sighandler_t (*next)(int, sighandler_t);
	struct sigaction act = {.sa_handler = handler, .sa_flags = SA_RESTART};
	struct sigaction old;

	sigemptyset(&act.sa_mask);
	sigaddset(&act.sa_mask, sig);
	if (sim.active && !hca_doorbell_sigaction(sig, &act, &old))
		return old.sa_handler;
	if (!next)
		*(void **)&next = dlsym_next("signal");
	return next(sig, handler);
}
