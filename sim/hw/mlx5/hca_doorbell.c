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
 * A trap costs a signal round trip, more than the engine's work for a
 * WQE. So while the program streams (more than one send WQE in flight
 * after the pass), the trap leaves the page writable ("open"): the next
 * posts cost nothing, and the engine thread, whose passes the answers to
 * what is in flight wake, takes their WQEs from the doorbell records.
 * A doorbell rung while another thread holds the sim (mostly the engine
 * thread in a pass, which a loaded host may have descheduled holding the
 * lock: then every post of a burst found it held, trapped, and none ran
 * the pass that would have left the page open) waits for that pass to
 * end, up to DB_WAIT_NS; past that it leaves its pass to the engine
 * thread, and with it the decision: that thread's next pass, which takes
 * the rung WQE, leaves the page open if the process streams after it, as
 * the trap would have. Which thread ran the pass does not decide whether
 * the page stays open.
 * When a pass of it finds nothing to do and nothing in flight, it
 * protects the page again and looks at the records once more before it
 * sleeps: a store that came before the protection has its record
 * written before it (x86 keeps stores in order), a store after it
 * traps. No doorbell is lost either way.
 *
 * Faults that are not at a UAR page go to the program's own action for
 * SIGSEGV and SIGTRAP, which the boundary records while the trap holds
 * them (boundary/sig_held.c: sigaction(), signal(), a raw rt_sigaction;
 * the trap asks for the signals through common/sig_trap.h).
 * Under valgrind a signal frame's registers are not those of the faulting
 * instruction, so there no page is protected: the engine thread watches
 * the doorbell records (spinning while busy, then sleeping), and says so
 * once. A page the table has no room for is watched the same way, and
 * so are all of a statically linked program's (its threads run on their
 * own thread blocks, where a handler of the sim's could not run).
 */
#include "hca.h"
#include "raw_syscall.h"
#include "sig_trap.h"
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
#include <time.h>

#define DB_PAGES  1024
#define EFL_TF	  0x100u      /* the trap flag: one instruction, SIGTRAP */
#define OWN_STACK (64u << 10) /* a handler further away is on an alt stack */
#define RED_ZONE  128u	      /* below the stack pointer: the x86-64 ABI's */

struct db_page {
	uintptr_t addr; /* 0: a free slot */
	size_t len;
	uint8_t *alias; /* a writable mapping of the same pages */
	int open;	/* writable: the engine thread watches (db_lock) */
	int busy;	/* rung while the sim was busy: DB_BUSY_* */
};

/* A page rung while another thread held the sim: its pass, and whether it
 * stays open, are the engine thread's (hca_doorbell_busy_take/_decide). */
enum { DB_BUSY_NO, DB_BUSY_RUNG, DB_BUSY_DECIDING };

enum { DB_UNSET, DB_TRAP, DB_WATCH };

static struct db_page db_pages[DB_PAGES];
static unsigned int db_used; /* slots below are or were in use */
static int db_mode;
static int db_watched; /* a page is served by watching alone */
/* Opening and closing pages; never held while taking sim_lock. */
static pthread_mutex_t db_lock = PTHREAD_MUTEX_INITIALIZER;
static int db_open; /* pages open */
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
 * lock: the pass waits for it, or past DB_WAIT_NS the engine thread runs
 * one more pass. Senders skip waking the engine thread while a pass runs
 * here (it would take their packets); what came meanwhile gets more
 * passes (a loopback message, its ACK and its completion all happen
 * here), and what is left after those, the thread.
 */
#define DB_PASSES 4

/* Send WQEs taken and not completed, counted up to enough. */
static uint32_t in_flight(uint32_t enough)
{
	uint32_t n = 0;
	struct hca_qp *qp;

	for (qp = hca_qps; qp && n < enough; qp = qp->next)
		n += qp->head - qp->tail;
	return n;
}

/* At most one send WQE in flight in this process: the application waits
 * for its answer (a ping-pong), it does not stream. */
static int waits_for_answer(void)
{
	return in_flight(2) <= 1;
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

/* sim_lock for a trap's pass: 0 if it stayed held DB_WAIT_NS (a pass is
 * microseconds; a host that deschedules its holder gives it back within
 * tens of ms; the holder is never the trapping thread, whose stores the
 * sim's locked sections do not make, but if it were, this ends). */
#define DB_WAIT_NS 100000000L
static int db_take_sim(void)
{
	struct timespec until;

	if (!pthread_mutex_trylock(&sim_lock))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_nsec += DB_WAIT_NS;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	return !pthread_mutex_clocklock(&sim_lock, CLOCK_MONOTONIC, &until);
}

/* The pass for a doorbell of pg. 1 if the process streams: more than one
 * send WQE in flight after the pass (a ping-pong's answer may come before
 * the ACK of its request, so one in flight as the doorbell rings says
 * nothing). With the sim busy elsewhere for long, pg is left to the
 * engine thread: 0. */
static int db_pass(struct db_page *pg)
{
	uint64_t full, pokes, placed;
	int n = 0, yield, streams;

	if (!db_take_sim()) {
		/* marked before the engine thread is told to pass */
		__atomic_store_n(&pg->busy, DB_BUSY_RUNG, __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&hca_stats.db_busy, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&hca_doorbell_pending, 1, __ATOMIC_SEQ_CST);
		hca_fabric_wake_self();
		return 0;
	}
	full = hca_stats.ring_full;
	pokes = hca_stats.pokes;
	placed = hca_stats.placed_writes;
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
	/* a WRITE that landed was answered within the pass: its program
	 * may stream all the same (hca_land_write.c) */
	streams = !waits_for_answer() || hca_stats.placed_writes != placed;
	yield = hca_stats.pokes != pokes && !streams;
	pthread_mutex_unlock(&sim_lock);
	if (yield)
		yield_once();
	return streams;
}

/*
 * The pass on the storing thread's own stack, with every signal blocked:
 * the kernel, seeing a stack pointer off the alternate stack, would put
 * a signal's frame at the alternate stack's top, over this handler's.
 */
static long pass_fn(long pg, const long *none)
{
	uint64_t all = ~0ull, old = 0;
	int streams;

	(void)none;
	sim_cookie_syscall(__NR_rt_sigprocmask, SIG_BLOCK, (long)&all,
			   (long)&old, sizeof(all), 0);
	streams = db_pass((struct db_page *)pg);
	sim_cookie_syscall(__NR_rt_sigprocmask, SIG_SETMASK, (long)&old, 0,
			   sizeof(old), 0);
	return streams;
}

/*
 * A streaming program's page stays writable: its next doorbells cost no
 * trap. The engine thread is told first (a pending doorbell keeps it from
 * sleeping, hca_fabric_wait), so an open page always has a watcher.
 */
static void open_page(struct db_page *pg)
{
	pthread_mutex_lock(&db_lock);
	if (!pg->open && pg->addr &&
	    !sys.mprotect((void *)pg->addr, pg->len, PROT_READ | PROT_WRITE)) {
		pg->open = 1;
		__atomic_add_fetch(&db_open, 1, __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&hca_stats.db_opens, 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&db_lock);
	__atomic_store_n(&hca_doorbell_pending, 1, __ATOMIC_SEQ_CST);
	hca_fabric_wake_self();
}

/* Pages whose doorbell was left to this pass of the engine thread: marked
 * as being decided; the number. Before the pass: a page marked after
 * this is decided by the next one (the pending doorbell runs it). */
unsigned int hca_doorbell_busy_take(void)
{
	unsigned int i, n = 0;
	int st;

	for (i = 0; i < __atomic_load_n(&db_used, __ATOMIC_ACQUIRE); i++) {
		st = DB_BUSY_RUNG;
		n += __atomic_compare_exchange_n(&db_pages[i].busy, &st,
						 DB_BUSY_DECIDING, 0,
						 __ATOMIC_SEQ_CST,
						 __ATOMIC_RELAXED);
	}
	return n;
}

/* After that pass: the pages taken stay open if the process streams, as
 * if their own trap had run the pass. */
void hca_doorbell_busy_decide(void)
{
	int streams = !waits_for_answer(), st;
	unsigned int i;

	for (i = 0; i < __atomic_load_n(&db_used, __ATOMIC_ACQUIRE); i++) {
		st = DB_BUSY_DECIDING;
		if (__atomic_compare_exchange_n(&db_pages[i].busy, &st,
						DB_BUSY_NO, 0, __ATOMIC_SEQ_CST,
						__ATOMIC_RELAXED) &&
		    streams)
			open_page(&db_pages[i]);
	}
}

/*
 * RDMA_SIM_TEST_LATE_CLOSE=MS (tests only): the engine thread waits MS
 * between deciding to trap open pages again and doing it, so a test can
 * ring a doorbell in between, and its idle sleeps last 30 times as long
 * (a doorbell no pass looked for waits that long).
 */
static int late_close_ms(void)
{
	static int ms = -1;
	const char *e;

	if (ms < 0) {
		e = getenv("RDMA_SIM_TEST_LATE_CLOSE");
		ms = e ? atoi(e) : 0;
	}
	return ms;
}

int hca_doorbell_idle_ms(void)
{
	return late_close_ms() * 30;
}

int hca_doorbell_close(void)
{
	struct timespec late;
	unsigned int i;
	int n = 0;

	/* a WQE in flight has an answer coming, which wakes the engine (or
	 * a timer: the idle wake-ups pass over a peer that never answers) */
	if (!__atomic_load_n(&db_open, __ATOMIC_SEQ_CST) || in_flight(1))
		return 0;
	if (late_close_ms()) {
		late.tv_sec = late_close_ms() / 1000;
		late.tv_nsec = late_close_ms() % 1000 * 1000000l;
		nanosleep(&late, NULL);
	}
	pthread_mutex_lock(&db_lock);
	for (i = 0; i < db_used; i++) {
		if (!db_pages[i].open)
			continue;
		sys.mprotect((void *)db_pages[i].addr, db_pages[i].len,
			     PROT_READ);
		db_pages[i].open = 0;
		n++;
	}
	__atomic_store_n(&db_open, 0, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&db_lock);
	return n;
}

/* After the store to pg: a pass here. A handler on an alternate signal
 * stack (UCX installs one, maybe small) runs it on the storing thread's
 * own stack, below the store's red zone, as if no alternate stack were
 * set. */
static void rung(const ucontext_t *uc, struct db_page *pg)
{
	uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);
	int streams;

	if (sp - here > OWN_STACK)
		streams = (int)sim_call_on_stack(
			pass_fn, (long)pg, NULL,
			(void *)((sp - RED_ZONE) & ~(uintptr_t)15));
	else
		streams = db_pass(pg);
	if (streams)
		open_page(pg);
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
		pthread_mutex_lock(&db_lock);
		if (!pg->open) /* else the engine thread closes it */
			sys.mprotect((void *)pg->addr, pg->len, PROT_READ);
		pthread_mutex_unlock(&db_lock);
		rung(uc, pg);
		errno = err;
		return 1;
	}
	pg = sig == SIGSEGV && si->si_code == SEGV_ACCERR
		     ? page_of((uintptr_t)si->si_addr)
		     : NULL;
	if (!pg)
		return 0;
	__atomic_add_fetch(&hca_stats.db_traps, 1, __ATOMIC_RELAXED);
	if (!x86_store_decode(uc, &st) && st.addr >= pg->addr &&
	    st.addr + st.width <= pg->addr + pg->len) {
		memcpy(pg->alias + (st.addr - pg->addr), st.val, st.width);
		uc->uc_mcontext.gregs[REG_RIP] += (greg_t)st.len;
		rung(uc, pg);
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
	if (sim_sig_trap(SIGSEGV, db_signal, SA_ONSTACK | SA_RESTART) ||
	    sim_sig_trap(SIGTRAP, db_signal, SA_ONSTACK | SA_RESTART)) {
		sim_sig_untrap(SIGSEGV);
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

/* A fork child's engine knows nothing of the parent's streams: its pages
 * trap again (the lock may have been held by a thread that is not here). */
static void forked(void)
{
	unsigned int i;

	db_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	for (i = 0; i < db_used; i++) {
		if (db_pages[i].open && db_pages[i].addr)
			sys.mprotect((void *)db_pages[i].addr, db_pages[i].len,
				     PROT_READ);
		db_pages[i].open = 0;
		db_pages[i].busy = DB_BUSY_NO;
	}
	db_open = 0;
}

void hca_doorbell_map(void *p, size_t len, int prot)
{
	static int atfork_done;
	struct db_page *pg;
	void *alias;

	if (!atfork_done) {
		pthread_atfork(NULL, NULL, forked);
		atfork_done = 1;
	}

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
			pthread_mutex_lock(&db_lock);
			if (db_pages[i].open)
				__atomic_sub_fetch(&db_open, 1,
						   __ATOMIC_SEQ_CST);
			db_pages[i].open = 0;
			db_pages[i].busy = DB_BUSY_NO;
			__atomic_store_n(&db_pages[i].addr, 0,
					 __ATOMIC_RELEASE);
			pthread_mutex_unlock(&db_lock);
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

int hca_doorbell_open(void)
{
	return __atomic_load_n(&db_open, __ATOMIC_SEQ_CST) != 0;
}

int hca_doorbell_watching(void)
{
	return db_mode == DB_WATCH || db_watched;
}
