/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Signals the sim holds: SIGSYS (its system-call traps, sigsys.c), SIGSEGV
 * and SIGTRAP (the HCA's doorbell trap, hw/mlx5/hca_doorbell.c; SIGSEGV
 * also for stores into memory being pinned, core/dma_pin.c). While the
 * sim's handler is installed for one, the program's own action for it
 * (sigaction, signal, a raw rt_sigaction trapped by seccomp) is recorded,
 * not installed, and gets every such signal that is not the sim's.
 */
#ifndef RDMA_SIM_SIG_HELD_H
#define RDMA_SIM_SIG_HELD_H

#include "sig_trap.h"

#include <signal.h>

/* A handler that may run on a static program's thread block, whose
 * stack-protector canary is not where the sim's code would look. */
#if __has_attribute(__no_stack_protector__)
#define NO_SSP __attribute__((__no_stack_protector__))
#else
#define NO_SSP
#endif

/*
 * Install fn for sig (SA_SIGINFO | flags, blocking mask, or only sig
 * if NULL). The first time, the program's action so far becomes the
 * recorded one and noted (may be NULL) is told of every action the
 * program sets later. 0 or -errno.
 */
int sim_sig_hold(int sig, sim_sig_fn fn, int flags, const sigset_t *mask,
		 void (*noted)(const struct sigaction *act));
/*
 * fn ahead of the held handler's own for sig, for good: the sim's handler
 * is installed (SA_ONSTACK | SA_RESTART) if it was not, and stays when its
 * fn is released. 0 or -errno (-EBUSY: another fn is there).
 */
int sim_sig_hold_first(int sig, sim_sig_fn fn);
/* Put the program's recorded action back in place. */
void sim_sig_release(int sig);
/* sim_sig_hold and sim_sig_release for the layers below (sig_trap.h),
 * registered by the constructor. */
extern const struct sim_sig_trap_ops sim_sig_held_trap;
/* Is sig held (the sim's handler installed)? */
int sim_sig_held(int sig);
/*
 * The program's rt_sigaction for sig in the kernel's layout, from a
 * trapped system call: recorded if sig is held (0), else made (the
 * kernel's result).
 */
long sim_sig_rt_sigaction(int sig, const void *act, void *oldact,
			  long sigsetsize);

#endif
