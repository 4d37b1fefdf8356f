/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A fault the simulated hardware takes in a program's thread (the HCA's
 * doorbell trap: a store to a write-protected UAR page, hw/mlx5) arrives
 * as a signal, and the program's signal actions are the boundary's
 * (boundary/sig_held.c). The boundary registers here how a signal is
 * held, so the hardware asks sim/common, never the layer above it.
 */
#ifndef RDMA_SIM_SIG_TRAP_H
#define RDMA_SIM_SIG_TRAP_H

#include <signal.h>

/* The sim's part of a held signal: 1 if it was the sim's (handled), 0 to
 * give it to the program's action. Runs in the signal handler. */
typedef int (*sim_sig_fn)(int sig, siginfo_t *si, void *ctx);

struct sim_sig_trap_ops {
	int (*hold)(int sig, sim_sig_fn fn, int flags);
	void (*release)(int sig);
};

/* The boundary's ops, set once at start before any device is used. */
void sim_sig_trap_register(const struct sim_sig_trap_ops *ops);
/* fn for sig (SA_SIGINFO | flags) ahead of the program's action: 0, or
 * -errno (-ENOSYS when no boundary registered: the caller does without). */
int sim_sig_trap(int sig, sim_sig_fn fn, int flags);
/* The program's action for sig back in place. */
void sim_sig_untrap(int sig);

#endif
