/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A system call made from the sim's own syscall instruction: no libc
 * wrapper (which the program may have interposed), no errno.
 */
#ifndef RDMA_SIM_RAW_SYSCALL_H
#define RDMA_SIM_RAW_SYSCALL_H

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

#endif
