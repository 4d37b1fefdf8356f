// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The sim's own system-call instruction (raw_syscall.h): for calls that
 * must not pass through libc's wrappers, which the sim interposes and its
 * seccomp filter watches.
 */
#include "raw_syscall.h"

#include <errno.h>
#include <unistd.h>

#if defined(__x86_64__)
/* x86-64 system-call convention: a[0..4] in rdi, rsi, rdx, r10, r8. */
__asm__(".text\n"
	".globl sim_raw_syscall\n"
	".hidden sim_raw_syscall\n"
	".type sim_raw_syscall, @function\n"
	"sim_raw_syscall:\n"
	"	mov %rdi, %rax\n"
	"	mov %rsi, %r11\n"
	"	mov %rdx, %r9\n"
	"	mov (%r11), %rdi\n"
	"	mov 8(%r11), %rsi\n"
	"	mov 16(%r11), %rdx\n"
	"	mov 24(%r11), %r10\n"
	"	mov 32(%r11), %r8\n"
	"	syscall\n"
	"	ret\n"
	".size sim_raw_syscall, .-sim_raw_syscall\n");
#else
long sim_raw_syscall(long nr, const long *a, long a5)
{
	long r = syscall(nr, a[0], a[1], a[2], a[3], a[4], a5);

	return r == -1 ? -errno : r;
}
#endif

long sim_cookie_syscall(long nr, long a0, long a1, long a2, long a3, long a4)
{
	const long a[5] = {a0, a1, a2, a3, a4};

	return sim_raw_syscall(nr, a, (long)SIM_TRAP_COOKIE);
}
