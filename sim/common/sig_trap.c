// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The hardware's way to a held signal (sig_trap.h): a pointer the
 * boundary sets at start, read by the trap's setup afterwards.
 */
#include "sig_trap.h"

#include <errno.h>
#include <stddef.h>

static const struct sim_sig_trap_ops *trap_ops;

void sim_sig_trap_register(const struct sim_sig_trap_ops *ops)
{
	trap_ops = ops;
}

int sim_sig_trap(int sig, sim_sig_fn fn, int flags)
{
	return trap_ops ? trap_ops->hold(sig, fn, flags) : -ENOSYS;
}

void sim_sig_untrap(int sig)
{
	if (trap_ops)
		trap_ops->release(sig);
}
