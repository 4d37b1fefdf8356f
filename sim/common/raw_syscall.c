// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The sim's own system-call instruction (raw_syscall.h): for calls that
 * must not pass through libc's wrappers, which the sim interposes and its
 * seccomp filter watches.
 */
#include "raw_syscall.h"

#include <errno.h>
#include <stdarg.h>
#include <sys/mman.h>
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

/* A kernel result as libc gives it: -1 (or MAP_FAILED) and errno. */
static long libc_ret(long r)
{
	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

void *sim_raw_mmap(void *addr, size_t len, int prot, int flags, int fd,
		   off_t off)
{
	const long a[5] = {(long)addr, (long)len, prot, flags, fd};

	return (void *)libc_ret(sim_raw_syscall(__NR_mmap, a, (long)off));
}

int sim_raw_munmap(void *addr, size_t len)
{
	const long a[5] = {(long)addr, (long)len};

	return (int)libc_ret(sim_raw_syscall(__NR_munmap, a, 0));
}

void *sim_raw_mremap(void *old, size_t old_len, size_t new_len, int flags,
		     ...)
{
	long a[5] = {(long)old, (long)old_len, (long)new_len, flags};
	va_list ap;

	if (flags & MREMAP_FIXED) {
		va_start(ap, flags);
		a[4] = (long)va_arg(ap, void *);
		va_end(ap);
	}
	return (void *)libc_ret(sim_raw_syscall(__NR_mremap, a, 0));
}

int sim_raw_mprotect(void *addr, size_t len, int prot)
{
	const long a[5] = {(long)addr, (long)len, prot};

	return (int)libc_ret(sim_raw_syscall(__NR_mprotect, a, 0));
}
