// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The signals the sim holds (sig_held.h), one table for all of them. The
 * sim's handler runs first and takes what is its own (a trapped system
 * call, a store to a UAR page); anything else goes to the action the
 * program set, as if the sim's handler were not there: its handler, or
 * the default action. A fault re-executes its instruction and faults
 * again under the default action; a signal someone sent is sent again.
 *
 * The handler may run on a statically linked program's thread, with the
 * program's own thread pointer: no thread-local state, no stack
 * protector, spin locks rather than mutexes, the sim's own system calls.
 */
#include "sim.h"
#include "sig_held.h"
#include "syscall_trap.h"

#include <dlfcn.h>
#include <errno.h>
#include <gnu/lib-names.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct held {
	int sig;
	int refaults; /* a fault of this kind comes back when re-executed */
	int on;	      /* the sim's handler is installed */
	int busy;     /* spin lock of program */
	sim_sig_fn first; /* before fn, and stays held without it */
	sim_sig_fn fn;
	void (*noted)(const struct sigaction *act);
	struct sigaction program; /* what the program asked for */
};

static struct held held[] = {
	{.sig = SIGSYS},
	{.sig = SIGSEGV, .refaults = 1},
	{.sig = SIGTRAP},
};

#define NHELD (sizeof(held) / sizeof(held[0]))

static int (*libc_sigaction)(int, const struct sigaction *, struct sigaction *);

/* The kernel's struct sigaction on x86-64 (rt_sigaction's layout). */
struct kernel_sigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	uint64_t mask;
};

static NO_SSP struct held *slot(int sig)
{
	unsigned int i;

	for (i = 0; i < NHELD; i++)
		if (held[i].sig == sig)
			return &held[i];
	return NULL;
}

/* A signal that is not the sim's: what the program would have seen. */
static NO_SSP void pass_on(struct held *h, siginfo_t *si, void *ctx)
{
	struct kernel_sigaction dfl = {.handler = SIG_DFL};
	struct sigaction a;

	sim_spin_lock(&h->busy);
	a = h->program;
	if (a.sa_flags & SA_RESETHAND) {
		h->program.sa_handler = SIG_DFL;
		h->program.sa_flags &= ~(SA_SIGINFO | SA_RESETHAND);
	}
	sim_spin_unlock(&h->busy);
	if (a.sa_flags & SA_SIGINFO) {
		a.sa_sigaction(h->sig, si, ctx);
		return;
	}
	if (a.sa_handler != SIG_DFL && a.sa_handler != SIG_IGN) {
		a.sa_handler(h->sig);
		return;
	}
	/* the kernel ignores a sent signal, never one it forces (a fault,
	 * a seccomp trap): that gets the default action */
	if (a.sa_handler == SIG_IGN && si->si_code <= 0)
		return;
	sim_cookie_syscall(__NR_rt_sigaction, h->sig, (long)(uintptr_t)&dfl, 0,
			   sizeof(dfl.mask), 0);
	if (!h->refaults || si->si_code <= 0) /* pending until we return */
		sim_cookie_syscall(__NR_tgkill, getpid(), gettid(), h->sig, 0,
				   0);
	__atomic_store_n(&h->on, 0, __ATOMIC_RELEASE);
}

static NO_SSP void on_held(int sig, siginfo_t *si, void *ctx)
{
	struct held *h = slot(sig);
	sim_sig_fn fn = h ? __atomic_load_n(&h->fn, __ATOMIC_ACQUIRE) : NULL;
	sim_sig_fn first =
		h ? __atomic_load_n(&h->first, __ATOMIC_ACQUIRE) : NULL;

	if (first && first(sig, si, ctx))
		return;
	if (h && !(fn && fn(sig, si, ctx)))
		pass_on(h, si, ctx);
}

static int find_libc_sigaction(void)
{
	void *libc;

	if (libc_sigaction)
		return 0;
	/* libc's own: a sanitizer's interceptor would wrap or defer it */
	libc = dlopen(LIBC_SO, RTLD_LAZY | RTLD_NOLOAD);
	*(void **)&libc_sigaction = libc ? dlsym(libc, "sigaction") : NULL;
	return libc_sigaction ? 0 : -ENOSYS;
}

int sim_sig_hold(int sig, sim_sig_fn fn, int flags, const sigset_t *mask,
		 void (*noted)(const struct sigaction *act))
{
	struct sigaction sa = {.sa_sigaction = on_held,
			       .sa_flags = SA_SIGINFO | flags};
	struct held *h = slot(sig);
	int ret = find_libc_sigaction();

	if (!h)
		return -EINVAL;
	if (ret)
		return ret;
	if (mask)
		sa.sa_mask = *mask;
	else
		sigemptyset(&sa.sa_mask);
	if (!h->on && libc_sigaction(sig, NULL, &h->program))
		return -errno;
	h->noted = noted;
	__atomic_store_n(&h->fn, fn, __ATOMIC_RELEASE);
	if (libc_sigaction(sig, &sa, NULL))
		return -errno;
	__atomic_store_n(&h->on, 1, __ATOMIC_RELEASE);
	return 0;
}

static int hold_for_device(int sig, sim_sig_fn fn, int flags)
{
	return sim_sig_hold(sig, fn, flags, NULL, NULL);
}

int sim_sig_hold_first(int sig, sim_sig_fn fn)
{
	struct held *h = slot(sig);
	int ret = 0;

	if (!h)
		return -EINVAL;
	if (h->first)
		return h->first == fn ? 0 : -EBUSY;
	__atomic_store_n(&h->first, fn, __ATOMIC_RELEASE);
	if (!h->on)
		ret = sim_sig_hold(sig, h->fn, SA_ONSTACK | SA_RESTART, NULL,
				   h->noted);
	if (ret)
		__atomic_store_n(&h->first, NULL, __ATOMIC_RELEASE);
	return ret;
}

const struct sim_sig_trap_ops sim_sig_held_trap = {
	.hold = hold_for_device,
	.release = sim_sig_release,
};

void sim_sig_release(int sig)
{
	struct held *h = slot(sig);

	if (!h || !__atomic_load_n(&h->on, __ATOMIC_ACQUIRE))
		return;
	if (h->first) { /* still the sim's, for the first hook */
		__atomic_store_n(&h->fn, NULL, __ATOMIC_RELEASE);
		return;
	}
	__atomic_store_n(&h->on, 0, __ATOMIC_RELEASE);
	libc_sigaction(sig, &h->program, NULL);
}

int sim_sig_held(int sig)
{
	struct held *h = slot(sig);

	return h && __atomic_load_n(&h->on, __ATOMIC_ACQUIRE);
}

/* Swap the program's recorded action of a held signal (glibc's layout). */
static void program_swap(struct held *h, const struct sigaction *act,
			 struct sigaction *old)
{
	sim_spin_lock(&h->busy);
	if (old)
		*old = h->program;
	if (act)
		h->program = *act;
	sim_spin_unlock(&h->busy);
	if (act && h->noted)
		h->noted(act);
}

long sim_sig_rt_sigaction(int sig, const void *act, void *oldact,
			  long sigsetsize)
{
	const struct kernel_sigaction *k = act;
	struct kernel_sigaction *ko = oldact;
	struct sigaction in = {}, out;

	if (!sim_sig_held(sig))
		return sim_cookie_syscall(__NR_rt_sigaction, sig, (long)act,
					  (long)oldact, sigsetsize, 0);
	if (sigsetsize != sizeof(k->mask))
		return -EINVAL;
	if (k) {
		in.sa_handler = (__sighandler_t)k->handler;
		in.sa_flags = (int)k->flags;
		memcpy(&in.sa_mask, &k->mask, sizeof(k->mask));
	}
	program_swap(slot(sig), k ? &in : NULL, &out);
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

	if (sim_sig_held(sig)) {
		program_swap(slot(sig), act, old);
		return 0;
	}
	if (!next)
		*(void **)&next = dlsym_next("sigaction");
	return next(sig, act, old);
}

__sighandler_t signal(int sig, __sighandler_t handler)
{
	static __sighandler_t (*next)(int, __sighandler_t);
	struct sigaction act = {.sa_handler = handler, .sa_flags = SA_RESTART},
			 old;

	if (sim_sig_held(sig)) {
		program_swap(slot(sig), &act, &old);
		return old.sa_handler;
	}
	if (!next)
		*(void **)&next = dlsym_next("signal");
	return next(sig, handler);
}
