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
#include "hca.h"

#include <dlfcn.h>
#include <errno.h>
#include <gnu/lib-names.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <asm/prctl.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef SYS_SECCOMP
#define SYS_SECCOMP 1 /* si_code of a seccomp SECCOMP_RET_TRAP */
#endif

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

#if defined(__x86_64__)
/*
 * fn(nr, a) on the stack that ends at top (16-byte aligned): a static
 * program's thread may trap on a small stack (a goroutine's, an
 * alternate signal stack), too small for the sim.
 */
long sim_call_on_stack(long (*fn)(long, const long *), long nr, const long *a,
		       void *top);
__asm__(".text\n"
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
#endif

long sim_cookie_syscall(long nr, long a0, long a1, long a2, long a3, long a4)
{
	const long a[5] = {a0, a1, a2, a3, a4};

	return sim_raw_syscall(nr, a, (long)SIM_TRAP_COOKIE);
}

static int (*libc_sigaction)(int, const struct sigaction *, struct sigaction *);
static int installed;
/* What the program asked for SIGSYS; SIG_DFL until it asks. */
static struct sigaction program_act;
/*
 * Spin locks, not mutexes: a statically linked program's thread enters
 * the handler with its own thread pointer, where a mutex would read the
 * wrong thread block (static_exec.c).
 */
static int act_busy, serve_busy;
/* The helper's thread block, the sim's TLS for a static program's traps. */
static unsigned long static_tcb;
/* and the stack they run on, one at a time */
#define STATIC_STACK (1u << 20)
static char *static_stack;

#if __has_attribute(__no_stack_protector__)
#define NO_SSP __attribute__((__no_stack_protector__))
#else
#define NO_SSP
#endif

static void spin_lock(int *busy)
{
	while (__atomic_exchange_n(busy, 1, __ATOMIC_ACQUIRE))
		sim_cookie_syscall(__NR_sched_yield, 0, 0, 0, 0, 0);
}

static void spin_unlock(int *busy)
{
	__atomic_store_n(busy, 0, __ATOMIC_RELEASE);
}

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
	struct kernel_sigaction dfl = {.handler = SIG_DFL};
	struct sigaction pa;

	spin_lock(&act_busy);
	pa = program_act;
	spin_unlock(&act_busy);
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
	sim_cookie_syscall(__NR_rt_sigaction, SIGSYS, (long)(uintptr_t)&dfl, 0,
			   sizeof(dfl.mask), 0);
	sim_cookie_syscall(__NR_tgkill, getpid(), gettid(), SIGSYS, 0, 0);
}

#if defined(__x86_64__)
/* Serve on this thread's own TLS (errno is the program's: keep it). */
static __attribute__((noinline)) long serve(long nr, const long *a)
{
	int saved = errno;
	long r = sim_syscall_serve(nr, a);

	errno = saved;
	return r;
}

/* Serve on the helper's thread block, noting what a blocking call
 * waits for (wait.c). */
static long serve_noting(long nr, const long *a)
{
	long r;

	sim_static_serving = 1;
	r = serve(nr, a);
	sim_static_serving = 0;
	return r;
}

/*
 * Serve a static program's trap on the helper's thread block. A call
 * that must block waits after the sim is left (so the other threads'
 * traps go on), then is served again.
 */
static NO_SSP __attribute__((noinline)) long serve_static(long nr,
							  const long *a)
{
	struct sim_static_wait w;
	unsigned long own = 0;
	long r;

	for (;;) {
		spin_lock(&serve_busy);
		sim_cookie_syscall(__NR_arch_prctl, ARCH_GET_FS,
				   (long)(uintptr_t)&own, 0, 0, 0);
		sim_cookie_syscall(__NR_arch_prctl, ARCH_SET_FS,
				   (long)static_tcb, 0, 0, 0);
		r = sim_call_on_stack(serve_noting, nr, a,
				      static_stack + STATIC_STACK);
		w = sim_static_wait;
		sim_cookie_syscall(__NR_arch_prctl, ARCH_SET_FS, (long)own, 0,
				   0, 0);
		spin_unlock(&serve_busy);
		if (r != -SIM_EWAIT)
			return r;
		sim_static_wait_out(&w);
	}
}

static NO_SSP void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	greg_t *g = ((ucontext_t *)ctx)->uc_mcontext.gregs;
	long a[6], r;

	if (si->si_code != SYS_SECCOMP || si->si_errno != SIM_TRAP_DATA) {
		pass_on(sig, si, ctx);
		return;
	}
	a[0] = g[REG_RDI];
	a[1] = g[REG_RSI];
	a[2] = g[REG_RDX];
	a[3] = g[REG_R10];
	a[4] = g[REG_R8];
	a[5] = g[REG_R9];
	if (!sim_syscall_fast(si->si_syscall, a, &r))
		r = static_tcb ? serve_static(si->si_syscall, a)
			       : serve(si->si_syscall, a);
	g[REG_RAX] = r;
}
#endif

static int set_handler(int static_mode)
{
	struct sigaction sa = {.sa_sigaction = on_sigsys,
			       .sa_flags = SA_SIGINFO | SA_RESTART};

	/* a static program's signal stack if it has one (Go's runtime runs
	 * goroutines on stacks too small for a signal frame), and no handler
	 * of its own may run while the sim holds the helper's TLS */
	if (static_mode) {
		sa.sa_flags |= SA_ONSTACK;
		sigfillset(&sa.sa_mask);
	}
	return libc_sigaction(SIGSYS, &sa, NULL) ? -errno : 0;
}

int sim_sigsys_static_mode(void)
{
	int ret;

	static_stack = sys.mmap(NULL, STATIC_STACK, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (static_stack == MAP_FAILED)
		return -errno;
	/* its faults would run the sim on the program's thread block */
	hca_doorbell_watch_only("static program");
	ret = set_handler(1);
	if (!ret)
		ret = (int)sim_cookie_syscall(__NR_arch_prctl, ARCH_GET_FS,
					      (long)(uintptr_t)&static_tcb, 0,
					      0, 0);
	return ret;
}

int sim_sigsys_install(void)
{
#if defined(__x86_64__)
	int ret;
	void *libc = dlopen(LIBC_SO, RTLD_LAZY | RTLD_NOLOAD);

	/* libc's own: a sanitizer's interceptor would wrap or defer it */
	*(void **)&libc_sigaction = libc ? dlsym(libc, "sigaction") : NULL;
	if (!libc_sigaction)
		return -ENOSYS;
	program_act.sa_handler = SIG_DFL;
	ret = set_handler(0);
	if (ret)
		return ret;
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
	sim_trap_note(
		SIM_NOTE_OWN_SIGSYS,
		"%s installs its own SIGSYS handler: it gets every SIGSYS "
		"but the sim's own system-call traps, which stay with "
		"the sim",
		program_invocation_short_name);
}

/* Swap the program's recorded SIGSYS action (glibc's layout). */
static void program_swap(const struct sigaction *act, struct sigaction *old)
{
	spin_lock(&act_busy);
	if (old)
		*old = program_act;
	if (act)
		program_act = *act;
	spin_unlock(&act_busy);
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
	/* SIGSEGV, SIGTRAP while the doorbell trap holds them */
	if (sim.active && !hca_doorbell_sigaction(sig, act, old))
		return 0;
	if (!next)
		*(void **)&next = dlsym_next("sigaction");
	return next(sig, act, old);
}

__sighandler_t signal(int sig, __sighandler_t handler)
{
	static __sighandler_t (*next)(int, __sighandler_t);
	struct sigaction act = {.sa_handler = handler, .sa_flags = SA_RESTART},
			 old;

	if (sig == SIGSYS && sim_sigsys_active()) {
		program_swap(&act, &old);
		return old.sa_handler;
	}
	if (sim.active && !hca_doorbell_sigaction(sig, &act, &old))
		return old.sa_handler;
	if (!next)
		*(void **)&next = dlsym_next("signal");
	return next(sig, handler);
}
