// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * fn(nr, a) on another stack (raw_syscall.h): a signal handler of the
 * sim's may be entered on a stack too small for the sim (a goroutine's,
 * a program's small alternate signal stack).
 */
#include "raw_syscall.h"

#if defined(__x86_64__)
__asm__(".text\n"
	".globl sim_call_on_stack\n"
	".hidden sim_call_on_stack\n"
	".type sim_call_on_stack, @function\n"
	"sim_call_on_stack:\n"
	"	push %rbp\n"
	"	mov %rsp, %rbp\n"
	"	mov %rcx, %rsp\n"
	"	mov %rdi, %rax\n"
	"	mov %rsi, %rdi\n"
	"	mov %rdx, %rsi\n"
	"	call *%rax\n"
	"	mov %rbp, %rsp\n"
	"	pop %rbp\n"
	"	ret\n"
	".size sim_call_on_stack, .-sim_call_on_stack\n");
#else
long sim_call_on_stack(long (*fn)(long, const long *), long nr, const long *a,
		       void *top)
{
	(void)top;
	return fn(nr, a);
}
#endif
