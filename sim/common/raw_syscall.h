/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A system call made from the sim's own syscall instruction: no libc
 * wrapper (which the program may have interposed), no errno.
 */
#ifndef RDMA_SIM_RAW_SYSCALL_H
#define RDMA_SIM_RAW_SYSCALL_H

#include <stddef.h>
#include <sys/syscall.h>
#include <sys/types.h>

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
 * The sim's own memory calls, libc's signatures and errno convention, made
 * by its own syscall instruction: a program's hooks that patch libc's
 * mmap family (UCX, libfabric) neither see them nor, by calling
 * syscall(2) from there, trap inside the sim's own trap.
 */
void *sim_raw_mmap(void *addr, size_t len, int prot, int flags, int fd,
		   off_t off);
int sim_raw_munmap(void *addr, size_t len);
void *sim_raw_mremap(void *old, size_t old_len, size_t new_len, int flags,
		     ...);
int sim_raw_mprotect(void *addr, size_t len, int prot);

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
