// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * SIGSYS: where a trapped system call enters the simulated kernel. The
 * kernel rolled the call back and stopped the thread at the instruction
 * after it; the handler reads the arguments from the saved registers
 * (rdi, rsi, rdx, r10, r8, r9), serves the call and puts the result in
 * RAX, so the program resumes as if the kernel had answered.
 *
 * A program may want SIGSYS for itself (its own seccomp filter with
 * SECCOMP_RET_TRAP, or a plain kill). SIGSYS is one of the signals the
 * sim holds (sig_held.c): the program's action for it is recorded
 * instead of replacing the sim's handler, and every SIGSYS that is not
 * one of the sim's traps is passed on to it.
 */
#include "sim.h"
#include "syscall_trap.h"
#include "sig_held.h"
#include "hca_doorbell.h"

#include <errno.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <asm/prctl.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef SYS_SECCOMP
#define SYS_SECCOMP 1 /* si_code of a seccomp SECCOMP_RET_TRAP */
#endif

/*
 * A spin lock, not a mutex: a statically linked program's thread enters
 * the handler with its own thread pointer, where a mutex would read the
 * wrong thread block (static_exec.c).
 */
static int serve_busy;
/* The helper's thread block, the sim's TLS for a static program's traps. */
static unsigned long static_tcb;
/* and the stack they run on, one at a time */
#define STATIC_STACK (1u << 20)
static char *static_stack;

int sim_sigsys_active(void)
{
	return sim_sig_held(SIGSYS);
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
		sim_spin_lock(&serve_busy);
		sim_cookie_syscall(__NR_arch_prctl, ARCH_GET_FS,
				   (long)(uintptr_t)&own, 0, 0, 0);
		sim_cookie_syscall(__NR_arch_prctl, ARCH_SET_FS,
				   (long)static_tcb, 0, 0, 0);
		r = sim_call_on_stack(serve_noting, nr, a,
				      static_stack + STATIC_STACK);
		w = sim_static_wait;
		sim_cookie_syscall(__NR_arch_prctl, ARCH_SET_FS, (long)own, 0,
				   0, 0);
		sim_spin_unlock(&serve_busy);
		if (r != -SIM_EWAIT)
			return r;
		sim_static_wait_out(&w);
	}
}

/* A SIGSYS: 1 if it was one of the sim's traps (served), else 0. */
static NO_SSP int on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	greg_t *g = ((ucontext_t *)ctx)->uc_mcontext.gregs;
	long a[6], r;

	(void)sig;
	if (si->si_code != SYS_SECCOMP || si->si_errno != SIM_TRAP_DATA)
		return 0;
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
	return 1;
}
#endif

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

static int set_handler(int static_mode)
{
	sigset_t all;

	/* a static program's signal stack if it has one (Go's runtime runs
	 * goroutines on stacks too small for a signal frame), and no handler
	 * of its own may run while the sim holds the helper's TLS */
	if (!static_mode)
		return sim_sig_hold(SIGSYS, on_sigsys, SA_RESTART, NULL,
				    note_own_handler);
	sigfillset(&all);
	return sim_sig_hold(SIGSYS, on_sigsys, SA_RESTART | SA_ONSTACK, &all,
			    note_own_handler);
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
	return set_handler(0);
#else
	return -ENOSYS;
#endif
}

void sim_sigsys_uninstall(void)
{
	sim_sig_release(SIGSYS);
}
