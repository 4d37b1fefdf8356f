/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A system call made from the sim's own syscall instruction: no libc
 * wrapper (which the program may have interposed), no errno.
 */
#ifndef RDMA_SIM_RAW_SYSCALL_H
#define RDMA_SIM_RAW_SYSCALL_H

#include <sys/syscall.h>

/*
 * The sim's own system calls that its seccomp filter must let through
 * carry this in the sixth argument register, which none of them uses. The
 * same in every process image: an exec'd program inherits its parent's
 * filter.
 */
#define SIM_TRAP_COOKIE 0x73696d2d6b65726eull /* "sim-kern" */

/*
 * The raw system call nr with arguments a[0..4] and a5: the kernel's
 * result (-errno), errno untouched. sim_cookie_syscall passes the cookie
 * as a5 (for calls of at most five arguments).
 */
long sim_raw_syscall(long nr, const long *a, long a5);
long sim_cookie_syscall(long nr, long a0, long a1, long a2, long a3, long a4);

/*
 * fn(nr, a) with the stack pointer at top (16-byte aligned, the stack
 * growing down from it); fn's result.
 */
long sim_call_on_stack(long (*fn)(long, const long *), long nr, const long *a,
		       void *top);

/*
 * A lock for code that may run on a statically linked program's thread
 * (with the program's thread pointer, where a mutex would read the wrong
 * thread block): spins, yielding the CPU through the sim's own call.
 */
static inline void sim_spin_lock(int *busy)
{
	while (__atomic_exchange_n(busy, 1, __ATOMIC_ACQUIRE))
		sim_cookie_syscall(__NR_sched_yield, 0, 0, 0, 0, 0);
}

static inline void sim_spin_unlock(int *busy)
{
	__atomic_store_n(busy, 0, __ATOMIC_RELEASE);
}

#endif
