// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * SIGSYS: where a trapped system call enters the simulated kernel. The
 * kernel rolled the call back and stopped the thread at the instruction
 * after it; the handler reads the arguments from the saved registers
 * (rdi, rsi, rdx, r10, r8, r9), serves the call and puts the result in
 * RAX, so the program resumes as if the kernel had answered.
 *
 * A program may want SIGSYS for itself (its own seccomp filter with
 * SECCOMP_RET_TRAP, or a plain kill). Its sigaction/signal for SIGSYS is
 * recorded instead of replacing the sim's handler, and every SIGSYS that
 * is not one of the sim's traps is passed on to it.
 */
#include "sim.h"
#include "syscall_trap.h"

#include <dlfcn.h>
#include <errno.h>
#include <gnu/lib-names.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef SYS_SECCOMP
#define SYS_SECCOMP 1 /* si_code of a seccomp SECCOMP_RET_TRAP */
#endif

#if defined(__x86_64__)
/* x86-64 system-call convention; the sixth argument register is the cookie. */
__asm__(".text\n"
	".globl sim_cookie_syscall\n"
	".hidden sim_cookie_syscall\n"
	".type sim_cookie_syscall, @function\n"
	"sim_cookie_syscall:\n"
	"	mov %rdi, %rax\n"
	"	mov %rsi, %rdi\n"
	"	mov %rdx, %rsi\n"
	"	mov %rcx, %rdx\n"
	"	mov %r8, %r10\n"
	"	mov %r9, %r8\n"
	"	movabs $0x73696d2d6b65726e, %r9\n"
	"	syscall\n"
	"	ret\n"
	".size sim_cookie_syscall, .-sim_cookie_syscall\n");
#else
long sim_cookie_syscall(long nr, long a0, long a1, long a2, long a3, long a4)
{
	long r = syscall(nr, a0, a1, a2, a3, a4);

	return r == -1 ? -errno : r;
}
#endif

static int (*libc_sigaction)(int, const struct sigaction *, struct sigaction *);
static int installed;
/* What the program asked for SIGSYS; SIG_DFL until it asks. */
static struct sigaction program_act;
static pthread_mutex_t act_lock = PTHREAD_MUTEX_INITIALIZER;

/* The kernel's struct sigaction on x86-64 (rt_sigaction's layout). */
struct kernel_sigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	uint64_t mask;
};

int sim_sigsys_active(void)
{
	return __atomic_load_n(&installed, __ATOMIC_ACQUIRE);
}

/* A SIGSYS that is not the sim's: what the program would have seen. */
static void pass_on(int sig, siginfo_t *si, void *ctx)
{
	struct sigaction pa, dfl = {.sa_handler = SIG_DFL};

	pthread_mutex_lock(&act_lock);
	pa = program_act;
	pthread_mutex_unlock(&act_lock);
	if (pa.sa_flags & SA_SIGINFO) {
		pa.sa_sigaction(sig, si, ctx);
		return;
	}
	if (pa.sa_handler == SIG_IGN)
		return;
	if (pa.sa_handler != SIG_DFL) {
		pa.sa_handler(sig);
		return;
	}
	/* default action: pending while blocked here, it ends the process */
	libc_sigaction(SIGSYS, &dfl, NULL);
	sim_cookie_syscall(__NR_tgkill, getpid(), gettid(), SIGSYS, 0, 0);
}

#if defined(__x86_64__)
static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	greg_t *g = ((ucontext_t *)ctx)->uc_mcontext.gregs;
	long a[6];
	int saved = errno;

	if (si->si_code != SYS_SECCOMP || si->si_errno != SIM_TRAP_DATA) {
		pass_on(sig, si, ctx);
		errno = saved;
		return;
	}
	a[0] = g[REG_RDI];
	a[1] = g[REG_RSI];
	a[2] = g[REG_RDX];
	a[3] = g[REG_R10];
	a[4] = g[REG_R8];
	a[5] = g[REG_R9];
	g[REG_RAX] = sim_syscall_serve(si->si_syscall, a);
	errno = saved;
}
#endif

int sim_sigsys_install(void)
{
#if defined(__x86_64__)
	struct sigaction sa = {.sa_sigaction = on_sigsys,
			       .sa_flags = SA_SIGINFO | SA_RESTART};
	void *libc = dlopen(LIBC_SO, RTLD_LAZY | RTLD_NOLOAD);

	/* libc's own: a sanitizer's interceptor would wrap or defer it */
	*(void **)&libc_sigaction = libc ? dlsym(libc, "sigaction") : NULL;
	if (!libc_sigaction)
		return -ENOSYS;
	program_act.sa_handler = SIG_DFL;
	if (libc_sigaction(SIGSYS, &sa, NULL))
		return -errno;
	__atomic_store_n(&installed, 1, __ATOMIC_RELEASE);
	return 0;
#else
	return -ENOSYS;
#endif
}

void sim_sigsys_uninstall(void)
{
	__atomic_store_n(&installed, 0, __ATOMIC_RELEASE);
	if (libc_sigaction)
		libc_sigaction(SIGSYS, &program_act, NULL);
}

static void note_own_handler(const struct sigaction *act)
{
	if (act->sa_handler == SIG_DFL)
		return;
	sim_trap_note(SIM_NOTE_OWN_SIGSYS,
		      "%s installs its own SIGSYS handler: it gets every SIGSYS "
		      "but the sim's own system-call traps, which stay with "
		      "the sim",
		      program_invocation_short_name);
}

/* Swap the program's recorded SIGSYS action (glibc's layout). */
static void program_swap(const struct sigaction *act, struct sigaction *old)
{
	pthread_mutex_lock(&act_lock);
	if (old)
		*old = program_act;
	if (act)
		program_act = *act;
	pthread_mutex_unlock(&act_lock);
	if (act)
		note_own_handler(act);
}

long sim_sigsys_program_action(const void *act, void *oldact)
{
	const struct kernel_sigaction *k = act;
	struct kernel_sigaction *ko = oldact;
	struct sigaction in = {}, out;

	if (k) {
		in.sa_handler = (__sighandler_t)k->handler;
		in.sa_flags = (int)k->flags;
		memcpy(&in.sa_mask, &k->mask, sizeof(k->mask));
	}
	program_swap(k ? &in : NULL, &out);
	if (ko) {
		memset(ko, 0, sizeof(*ko));
		ko->handler = (void *)out.sa_handler;
		ko->flags = (unsigned long)out.sa_flags;
		memcpy(&ko->mask, &out.sa_mask, sizeof(ko->mask));
	}
	return 0;
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	static int (*next)(int, const struct sigaction *, struct sigaction *);

	if (sig == SIGSYS && sim_sigsys_active()) {
		program_swap(act, old);
		return 0;
	}
	if (!next)
		*(void **)&next = dlsym_next("sigaction");
	return next(sig, act, old);
}

__sighandler_t signal(int sig, __sighandler_t handler)
{
	static __sighandler_t (*next)(int, __sighandler_t);
	struct sigaction act = {.sa_handler = handler,
				.sa_flags = SA_RESTART},
			 old;

	if (sig == SIGSYS && sim_sigsys_active()) {
		program_swap(&act, &old);
		return old.sa_handler;
	}
	if (!next)
		*(void **)&next = dlsym_next("signal");
	return next(sig, handler);
}
