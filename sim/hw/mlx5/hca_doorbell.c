// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The HCA's input: stores to its UAR pages. A provider (libmlx5, UCX's
 * rc_mlx5, a program posting by hand) writes the WQE and the doorbell
 * record in host memory, then rings: one 64-bit store of the WQE's first
 * bytes to a doorbell register of the UAR page (a BlueFlame copy is a
 * burst of such stores), or the CQ arm word at offset 0x20. Hardware sees
 * the store on the bus; here every UAR page is mapped write-protected, so
 * a store faults. The SIGSEGV handler decodes the instruction
 * (x86_store.c), puts the bytes into the page through a writable alias of
 * the same pages (a dma-buf importer reads them there), steps past it and
 * runs an engine pass in the storing thread: the work is taken before
 * ibv_post_send() returns, without a thread waiting beside the program.
 * A store it cannot decode is single-stepped with the page writable (the
 * trap flag, then SIGTRAP protects it again).
 *
 * Faults that are not at a UAR page go to the program's own action for
 * SIGSEGV and SIGTRAP, which the boundary records while the trap holds
 * them (boundary/sig_held.c: sigaction(), signal(), a raw rt_sigaction).
 * Under valgrind a signal frame's registers are not those of the faulting
 * instruction, so there no page is protected: the engine thread watches
 * the doorbell records (spinning while busy, then sleeping), and says so
 * once. A page the table has no room for is watched the same way, and
 * so are all of a statically linked program's (its threads run on their
 * own thread blocks, where a handler of the sim's could not run).
 */
#include "hca.h"
#include "raw_syscall.h"
#include "sig_held.h"
#include "x86_store.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include <sched.h>

#define DB_PAGES  1024
#define EFL_TF	  0x100u      /* the trap flag: one instruction, SIGTRAP */
#define OWN_STACK (64u << 10) /* a handler further away is on an alt stack */
#define RED_ZONE  128u	      /* below the stack pointer: the x86-64 ABI's */

struct db_page {
	uintptr_t addr; /* 0: a free slot */
	size_t len;
	uint8_t *alias; /* a writable mapping of the same pages */
};

enum { DB_UNSET, DB_TRAP, DB_WATCH };

static struct db_page db_pages[DB_PAGES];
static unsigned int db_used; /* slots below are or were in use */
static int db_mode;
static int db_watched; /* a page is served by watching alone */
/* initial-exec: no allocation on the first use, which is in a handler */
static __thread struct db_page *stepping
	__attribute__((tls_model("initial-exec")));
uint32_t hca_doorbell_pending;

static struct db_page *page_of(uintptr_t a)
{
	unsigned int i, n = __atomic_load_n(&db_used, __ATOMIC_ACQUIRE);
	uintptr_t lo;

	for (i = 0; i < n; i++) {
		lo = __atomic_load_n(&db_pages[i].addr, __ATOMIC_ACQUIRE);
		if (lo && a >= lo && a - lo < db_pages[i].len)
			return &db_pages[i];
	}
	return NULL;
}

/*
 * The engine takes what the doorbell announced. Another thread in the sim
 * (the engine thread in a pass, or a verb in a system call) holds the
 * lock: the engine thread then runs one more pass. Senders skip waking
 * the engine thread while a pass runs here (it would take their packets);
 * what came meanwhile gets more passes (a loopback message, its ACK and
 * its completion all happen here), and what is left after those, the
 * thread.
 */
#define DB_PASSES 4

/* At most one send WQE in flight in this process: the application waits
 * for its answer (a ping-pong), it does not stream. */
static int waits_for_answer(void)
{
	uint32_t n = 0;
	struct hca_qp *qp;

	for (qp = hca_qps; qp && n <= 1; qp = qp->next)
		n += qp->head - qp->tail;
	return n <= 1;
}

/*
 * Give the CPU up, unless the last time it went to someone else for long
 * (a loaded host: the woken engine thread was not the one that ran).
 * Then not for a while: on a loaded host a yield can cost milliseconds.
 */
#define YIELD_SLOW_NS 20000
#define YIELD_OFF_NS  100000000
static void yield_once(void)
{
	static uint64_t off_until;
	uint64_t t = hca_now();

	if (t < __atomic_load_n(&off_until, __ATOMIC_RELAXED))
		return;
	sched_yield();
	if (hca_now() - t > YIELD_SLOW_NS)
		__atomic_store_n(&off_until, t + YIELD_OFF_NS,
				 __ATOMIC_RELAXED);
}

void hca_doorbell_pass(void)
{
	uint64_t full, pokes;
	int n = 0, yield;

	if (pthread_mutex_trylock(&sim_lock)) {
		__atomic_store_n(&hca_doorbell_pending, 1, __ATOMIC_SEQ_CST);
		hca_fabric_wake_self();
		return;
	}
	full = hca_stats.ring_full;
	pokes = hca_stats.pokes;
	do {
		hca_fabric_app_pass(1);
		hca_step();
		hca_stats.app_passes++;
	} while (hca_fabric_app_pass(0) && ++n < DB_PASSES);
	if (n == DB_PASSES)
		hca_fabric_wake_self();
	/* a peer's ring was full: the thread tries again when it can */
	if (hca_stats.ring_full != full)
		hca_fabric_wake_self();
	/* An engine thread we woke (the peer's, to take our packet) waits
	 * for a CPU, which on a small host the spinning applications hold:
	 * this thread, about to poll for the answer, gives its CPU up first
	 * (not while it streams: the engines then keep their CPUs busy). */
	yield = hca_stats.pokes != pokes && waits_for_answer();
	pthread_mutex_unlock(&sim_lock);
	if (yield)
		yield_once();
}

/*
 * The pass on the storing thread's own stack, with every signal blocked:
 * the kernel, seeing a stack pointer off the alternate stack, would put
 * a signal's frame at the alternate stack's top, over this handler's.
 */
static long pass_fn(long unused, const long *none)
{
	uint64_t all = ~0ull, old = 0;

	(void)unused;
	(void)none;
	sim_cookie_syscall(__NR_rt_sigprocmask, SIG_BLOCK, (long)&all,
			   (long)&old, sizeof(all), 0);
	hca_doorbell_pass();
	sim_cookie_syscall(__NR_rt_sigprocmask, SIG_SETMASK, (long)&old, 0,
			   sizeof(old), 0);
	return 0;
}

/* After the store: a pass here. A handler on an alternate signal stack
 * (UCX installs one, maybe small) runs it on the storing thread's own
 * stack, below the store's red zone, as if no alternate stack were set. */
static void rung(const ucontext_t *uc)
{
	uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);

	if (sp - here > OWN_STACK) {
		sim_call_on_stack(pass_fn, 0, NULL,
				  (void *)((sp - RED_ZONE) & ~(uintptr_t)15));
		return;
	}
	hca_doorbell_pass();
}

/* A SIGSEGV or SIGTRAP: 1 if it was a store to a UAR page (or the single
 * step of one), 0 if it is the program's. */
static int db_signal(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	struct db_page *pg = stepping;
	struct x86_store st;
	int err = errno;

	if (sig == SIGTRAP && pg) { /* the single step is done */
		stepping = NULL;
		uc->uc_mcontext.gregs[REG_EFL] &= ~(greg_t)EFL_TF;
		sys.mprotect((void *)pg->addr, pg->len, PROT_READ);
		rung(uc);
		errno = err;
		return 1;
	}
	pg = sig == SIGSEGV && si->si_code == SEGV_ACCERR
		     ? page_of((uintptr_t)si->si_addr)
		     : NULL;
	if (!pg)
		return 0;
	if (!x86_store_decode(uc, &st) && st.addr >= pg->addr &&
	    st.addr + st.width <= pg->addr + pg->len) {
		memcpy(pg->alias + (st.addr - pg->addr), st.val, st.width);
		uc->uc_mcontext.gregs[REG_RIP] += (greg_t)st.len;
		rung(uc);
	} else {
		sys.mprotect((void *)pg->addr, pg->len, PROT_READ | PROT_WRITE);
		stepping = pg;
		uc->uc_mcontext.gregs[REG_EFL] |= (greg_t)EFL_TF;
	}
	errno = err;
	return 1;
}

static int under_valgrind(void)
{
	const char *pre = getenv("LD_PRELOAD");

	return pre && strstr(pre, "vgpreload");
}

/* Decide once per process: the trap (installing the handler) or watching. */
static int trap_ready(void)
{
	if (db_mode)
		return db_mode == DB_TRAP;
	db_mode = DB_WATCH;
	if (under_valgrind()) {
		fprintf(stderr, "rdma-sim: under valgrind the HCA watches its "
				"doorbell records (no UAR store traps)\n");
		sim_trace("doorbells: watched (valgrind)");
		return 0;
	}
	if (sim_sig_hold(SIGSEGV, db_signal, SA_ONSTACK | SA_RESTART, NULL,
			 NULL) ||
	    sim_sig_hold(SIGTRAP, db_signal, SA_ONSTACK | SA_RESTART, NULL,
			 NULL)) {
		sim_sig_release(SIGSEGV);
		return 0;
	}
	db_mode = DB_TRAP;
	return 1;
}

void hca_doorbell_watch_only(const char *why)
{
	if (db_mode)
		return;
	db_mode = DB_WATCH;
	sim_trace("doorbells: watched (%s)", why);
}

static struct db_page *free_slot(void)
{
	unsigned int i;

	for (i = 0; i < DB_PAGES; i++)
		if (!db_pages[i].addr)
			return &db_pages[i];
	return NULL;
}

void hca_doorbell_map(void *p, size_t len, int prot)
{
	struct db_page *pg;
	void *alias;

	if (!(prot & PROT_WRITE))
		return; /* a store faults as it would on any read-only page */
	pg = trap_ready() ? free_slot() : NULL;
	if (!pg)
		goto watch;
	alias = sys.mremap(p, 0, len, MREMAP_MAYMOVE);
	if (alias == MAP_FAILED)
		goto watch;
	/* PROT_WRITE alone (as libmlx5 maps UARs) reads on x86 as well */
	if (sys.mprotect(p, len, PROT_READ)) {
		sys.munmap(alias, len);
		goto watch;
	}
	pg->alias = alias;
	pg->len = len;
	__atomic_store_n(&pg->addr, (uintptr_t)p, __ATOMIC_RELEASE);
	if ((unsigned int)(pg - db_pages) >= db_used)
		__atomic_store_n(&db_used, (unsigned int)(pg - db_pages) + 1,
				 __ATOMIC_RELEASE);
	return;
watch:
	db_watched = 1;
}

/* Pages of [a, b) no slot traps any more: writable again (as mapped),
 * their doorbell records watched instead. */
static void untrapped(uintptr_t a, uintptr_t b)
{
	if (a >= b)
		return;
	sys.mprotect((void *)a, b - a, PROT_READ | PROT_WRITE);
	db_watched = 1;
}

void hca_doorbell_unmap(void *addr, size_t len)
{
	uintptr_t lo = (uintptr_t)addr, hi = lo + len, a, end;
	unsigned int i;

	for (i = 0; i < db_used; i++) {
		a = db_pages[i].addr;
		end = a + db_pages[i].len;
		if (a && a < hi && lo < end) {
			__atomic_store_n(&db_pages[i].addr, 0,
					 __ATOMIC_RELEASE);
			sys.munmap(db_pages[i].alias, db_pages[i].len);
			untrapped(a, lo);
			untrapped(hi, end);
		}
	}
}

void hca_doorbell_moved(void *old, void *new, size_t new_len)
{
	struct db_page *pg = page_of((uintptr_t)old);
	size_t len;

	if (!pg || pg->addr != (uintptr_t)old)
		return;
	__atomic_store_n(&pg->addr, 0, __ATOMIC_RELEASE);
	len = pg->len;
	if (new_len < len) { /* the alias keeps only what is left */
		sys.munmap(pg->alias + new_len, len - new_len);
		pg->len = new_len;
	} else { /* the alias cannot grow with it: the new part is plain */
		untrapped((uintptr_t) new + len, (uintptr_t) new + new_len);
	}
	__atomic_store_n(&pg->addr, (uintptr_t) new, __ATOMIC_RELEASE);
}

int hca_doorbell_watching(void)
{
	return db_mode == DB_WATCH || db_watched;
}
