// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Pinning user memory for the device, as DMA from another process needs
 * it (common/dma_pin.h). When the kernel pins a user MR or a CQ buffer,
 * each private anonymous read-write piece of the range becomes a shared
 * mapping of this process's one memfd at the same address, contents
 * kept, and is published in the process's table; what is file-backed,
 * shared, locked or otherwise special stays as it is (the HCA of a peer
 * then writes it through the address space, as before).
 *
 * A conversion makes the piece read-only, copies it into the memfd and
 * maps the memfd over it: a thread that stores into it meanwhile faults,
 * and the held SIGSEGV (boundary/sig_held.c, conv_fault) waits for the
 * conversion and retries the store. A system call that writes there
 * in that moment fails with EFAULT. munmap punches the pages out of the
 * memfd (a peer's mapping stays, as DMA into pinned pages would); pieces
 * the program unmapped behind the sim are found and punched at the next
 * pin. A fork child gets a private copy of every piece not DONTFORK
 * (dma_pin_fork.c). Nothing of it under valgrind.
 *
 * Needs sim_lock throughout.
 */
#include "sim.h"
#include "dma_pin.h"
#include "dma_pin_int.h"
#include "raw_syscall.h"
#include "sig_held.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define CONV_RETRY_NS 1000000000ull /* a fault retried after a conversion */
#define MAX_PIECES    16

/* The range being converted, or last converted: a store into it that
 * faults waits while busy, and is retried until the time `until`. */
static struct {
	uintptr_t lo, hi;
	uint64_t until;
	int busy;
} conv;

struct dma_pin dma_pin = {.memfd = -1};

static NO_SSP uint64_t now_ns(void)
{
	struct timespec ts;

	sim_cookie_syscall(__NR_clock_gettime, CLOCK_MONOTONIC, (long)&ts, 0,
			   0, 0);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * A store into memory being converted found it read-only for a moment
 * (the held SIGSEGV, first): wait for the conversion, then store again.
 * A fault there long after is the program's.
 */
static NO_SSP int conv_fault(int sig, siginfo_t *si, void *ctx)
{
	uintptr_t a = (uintptr_t)si->si_addr;

	(void)ctx;
	if (sig != SIGSEGV || si->si_code != SEGV_ACCERR ||
	    a < __atomic_load_n(&conv.lo, __ATOMIC_ACQUIRE) ||
	    a >= __atomic_load_n(&conv.hi, __ATOMIC_ACQUIRE))
		return 0;
	while (__atomic_load_n(&conv.busy, __ATOMIC_ACQUIRE))
		sim_cookie_syscall(__NR_sched_yield, 0, 0, 0, 0, 0);
	return now_ns() < __atomic_load_n(&conv.until, __ATOMIC_ACQUIRE);
}

static int off_here(void)
{
	const char *pre = getenv("LD_PRELOAD");

	/* valgrind does not see a peer's stores into shared pages */
	return !sim.active || (pre && strstr(pre, "vgpreload"));
}

/* The memfd and the table, made at the first pin. 0 or -1. */
static int pin_open(void)
{
	char path[SIM_PATH_LEN + 32];
	struct stat st;
	void *t;
	int fd;

	if (dma_pin.t)
		return 0;
	if (dma_pin.off || sim_dma_table_path(path, sizeof(path), sim.dir,
					      getpid()))
		return -1;
	dma_pin.off = 1; /* unless all goes well */
	if (sim_sig_hold_first(SIGSEGV, conv_fault))
		return -1; /* a store during a conversion would kill */
	fd = sim_open_private(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	t = sim_cookie_syscall(__NR_ftruncate, fd, 4096, 0, 0, 0)
		    ? MAP_FAILED
		    : sys.mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			       fd, 0);
	sim_close_private(fd);
	if (t == MAP_FAILED)
		return -1;
	dma_pin.memfd = (int)sim_cookie_syscall(
		__NR_memfd_create, (long)SIM_DMA_MEMFD_NAME, MFD_CLOEXEC, 0,
		0, 0);
	if (dma_pin.memfd < 0 || sim_internal_fd_add(&dma_pin.memfd) ||
	    sys.fstat(dma_pin.memfd, &st)) {
		sim_internal_fd_close(&dma_pin.memfd);
		sys.munmap(t, 4096);
		return -1;
	}
	dma_pin.t = t;
	dma_pin.ino = st.st_ino;
	dma_pin.next = 0;
	/* odd, whatever a process of this pid left in it */
	__atomic_or_fetch(&dma_pin.t->seq, 1, __ATOMIC_SEQ_CST);
	memset(dma_pin.t->r, 0, sizeof(dma_pin.t->r));
	memset(dma_pin.refs, 0, sizeof(dma_pin.refs));
	dma_pin.t->n = 0;
	dma_pin.t->ino = st.st_ino;
	dma_table_end();
	dma_pin.off = 0;
	return 0;
}

void dma_table_begin(void)
{
	/* a full barrier: odd before any change is seen */
	__atomic_add_fetch(&dma_pin.t->seq, 1, __ATOMIC_SEQ_CST);
}

void dma_table_end(void)
{
	dma_pin.t->fd = dma_pin.memfd;
	__atomic_store_n(&dma_pin.t->seq, dma_pin.t->seq + 1,
			 __ATOMIC_RELEASE);
}

/* The last range went: no memfd, no table mapping, as before the first
 * pin (a program counting its fds and mappings sees none of them). The
 * table says so to the peers, whose windows go at their next look. */
static void pin_close_if_empty(void)
{
	if (!dma_pin.t || dma_pin.t->n)
		return;
	dma_table_begin();
	dma_pin.t->ino = 0;
	sim_internal_fd_close(&dma_pin.memfd); /* the table's fd: -1 */
	dma_table_end();
	sys.munmap(dma_pin.t, 4096);
	dma_pin.t = NULL;
	dma_pin.ino = 0;
	dma_pin.next = 0;
}

void dma_punch(uint64_t off, uint64_t len)
{
	sim_cookie_syscall(__NR_fallocate, dma_pin.memfd,
			   FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			   (long)off, (long)len, 0);
}

/* Slot i's range goes (its pages leave the memfd if punch). Inside
 * begin/end. */
static void drop(uint32_t i, int punch)
{
	struct sim_dma_table *t = dma_pin.t;

	if (punch)
		dma_punch(t->r[i].off, t->r[i].len);
	t->n--;
	t->r[i] = t->r[t->n];
	dma_pin.refs[i] = dma_pin.refs[t->n];
	memset(&t->r[t->n], 0, sizeof(t->r[t->n]));
	dma_pin.refs[t->n] = 0;
}

void dma_copy_data(uint8_t *dst, uint64_t off, uint64_t len)
{
	long d, h, end = (long)(off + len), pos = (long)off;

	while (pos < end) {
		d = sim_cookie_syscall(__NR_lseek, dma_pin.memfd, pos,
				       SEEK_DATA, 0, 0);
		if (d < 0 || d >= end)
			return; /* holes read as zeros */
		h = sim_cookie_syscall(__NR_lseek, dma_pin.memfd, d, SEEK_HOLE,
				       0, 0);
		if (h < 0 || h > end)
			h = end;
		/* the kernel copies: the bytes around a program's heap
		 * blocks are a sanitizer's red zones, which the sim's own
		 * reads must not trip */
		if (sim_cookie_syscall(__NR_pread64, dma_pin.memfd,
				       (long)(dst + (d - (long)off)), h - d,
				       d, 0) != h - d)
			return;
		pos = h;
	}
}

static void conv_begin(uint64_t lo, uint64_t hi)
{
	__atomic_store_n(&conv.busy, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&conv.lo, lo, __ATOMIC_RELAXED);
	__atomic_store_n(&conv.hi, hi, __ATOMIC_RELEASE);
}

static void conv_end(void)
{
	__atomic_store_n(&conv.until, now_ns() + CONV_RETRY_NS,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&conv.busy, 0, __ATOMIC_RELEASE);
}

static int ours(const struct dma_vma *v)
{
	return v->ino == dma_pin.ino && v->perms[3] == 's';
}

/* Where a table range's pages are mapped now. */
enum { ENT_GONE, ENT_ELSEWHERE, ENT_HERE };

struct survey {
	uint64_t lo, hi, cur;
	int bad;
	unsigned int n;
	struct dma_vma piece[MAX_PIECES];
	uint8_t state[SIM_DMA_RANGES];
	struct dma_vma home[SIM_DMA_RANGES]; /* ENT_HERE: the vma */
};

static void mark(struct survey *s, const struct dma_vma *v)
{
	const struct sim_dma_table *t = dma_pin.t;
	const struct sim_dma_range *r;
	uint64_t vlen = v->end - v->start;
	uint32_t i;

	for (i = 0; ours(v) && i < t->n; i++) {
		r = &t->r[i];
		if (r->off >= v->pgoff + vlen || v->pgoff >= r->off + r->len)
			continue;
		if (s->state[i] == ENT_GONE)
			s->state[i] = ENT_ELSEWHERE;
		if (r->va >= v->start && r->va + r->len <= v->end &&
		    v->pgoff + (r->va - v->start) == r->off) {
			s->state[i] = ENT_HERE;
			s->home[i] = *v;
		}
	}
}

static int survey_vma(const struct dma_vma *v, void *arg)
{
	struct survey *s = arg;
	struct dma_vma *p;

	mark(s, v);
	if (v->end <= s->cur || v->start >= s->hi || s->bad)
		return 0;
	if (v->start > s->cur) {
		s->bad = 1; /* a hole in the range */
		return 0;
	}
	s->cur = v->end < s->hi ? v->end : s->hi;
	if (ours(v))
		return 0; /* pinned before */
	if (!dma_vma_private_anon(v) || s->n == MAX_PIECES) {
		s->bad = 1;
		return 0;
	}
	p = &s->piece[s->n++];
	*p = *v;
	p->start = v->start > s->lo ? v->start : s->lo;
	p->end = s->cur;
	return 0;
}

/* Whole pages, red zones of a sanitized program's heap blocks included. */
__attribute__((no_sanitize_address)) static int
nonzero(const uint64_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len / 8; i++)
		if (p[i])
			return 1;
	return 0;
}

/* Back [va, va+len) by the memfd at off. 0 or -1 (the pages untouched). */
static int convert(const struct dma_vma *v, uint64_t off, uint64_t span)
{
	size_t len = v->end - v->start, page = sim.sh->cfg.page_size, o;
	uint8_t *a = (uint8_t *)(uintptr_t)v->start;
	void *p;

	if (sim_cookie_syscall(__NR_ftruncate, dma_pin.memfd,
			       (long)(off + span), 0, 0, 0))
		return -1;
	conv_begin(v->start, v->end);
	p = sys.mprotect(a, len, PROT_READ) ? MAP_FAILED : a;
	for (o = 0; p != MAP_FAILED && o < len; o += page)
		if (nonzero((const uint64_t *)(a + o), page) &&
		    sim_cookie_syscall(__NR_pwrite64, dma_pin.memfd,
				       (long)(a + o), (long)page,
				       (long)(off + o), 0) != (long)page)
			p = MAP_FAILED; /* the kernel copies, as above */
	if (p != MAP_FAILED)
		p = sys.mmap(a, len, PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_FIXED, dma_pin.memfd, (off_t)off);
	if (p == MAP_FAILED)
		sys.mprotect(a, len, PROT_READ | PROT_WRITE);
	else
		dma_vma_readvise(v);
	conv_end();
	if (p == MAP_FAILED)
		dma_punch(off, len);
	return p == MAP_FAILED ? -1 : 0;
}

static void publish(const struct dma_vma *v, uint64_t off)
{
	struct sim_dma_table *t = dma_pin.t;

	dma_table_begin();
	t->r[t->n].va = v->start;
	t->r[t->n].len = v->end - v->start;
	t->r[t->n].off = off;
	t->n++;
	dma_table_end();
}

static struct survey s;

/* The page-aligned [lo, hi) of [addr, addr+len); 0 if it wraps. */
static int page_range(uint64_t addr, uint64_t len, uint64_t *lo, uint64_t *hi)
{
	uint64_t page = sim.sh->cfg.page_size;

	*lo = addr & ~(page - 1);
	*hi = (addr + len + page - 1) & ~(page - 1);
	return len && addr + len >= addr && *hi > *lo;
}

/* The table ranges [lo, hi) meets: one pin more (d 1) or less (-1). */
static void ref_range(uint64_t lo, uint64_t hi, int d)
{
	const struct sim_dma_table *t = dma_pin.t;
	uint32_t i;

	for (i = 0; i < t->n; i++)
		if (t->r[i].va < hi && lo < t->r[i].va + t->r[i].len &&
		    (d > 0 || dma_pin.refs[i]))
			dma_pin.refs[i] += d;
}

/* The walk of the mappings (pieces to pin in [lo, hi)): 0 or -1. */
static int survey(uint64_t lo, uint64_t hi)
{
	memset(&s, 0, sizeof(s));
	s.lo = lo;
	s.hi = hi;
	s.cur = lo;
	return dma_vmas_each(survey_vma, &s);
}

/* Room for the next piece: the piece's length again stays free after
 * it, so that growing the mapping in place (mremap) finds zeros. */
static uint64_t piece_span(const struct dma_vma *v)
{
	uint64_t len = v->end - v->start, g = 2ull << 20;

	return len + ((len + g - 1) & ~(g - 1));
}

void sim_dma_pin(uint64_t addr, uint64_t len)
{
	uint64_t lo, hi, off;
	unsigned int i;

	if (!page_range(addr, len, &lo, &hi) || off_here() || pin_open() ||
	    survey(lo, hi))
		return;
	dma_table_begin();
	for (i = dma_pin.t->n; i-- > 0;) /* unmapped behind the sim */
		if (s.state[i] == ENT_GONE)
			drop(i, 1);
	dma_table_end();
	for (i = 0; !s.bad && s.cur == s.hi && i < s.n; i++) {
		off = dma_pin.next;
		if (dma_pin.t->n == SIM_DMA_RANGES ||
		    off + piece_span(&s.piece[i]) > SIM_DMA_SPAN ||
		    convert(&s.piece[i], off, piece_span(&s.piece[i])))
			break;
		dma_pin.next = off + piece_span(&s.piece[i]);
		publish(&s.piece[i], off);
	}
	ref_range(lo, hi, 1);
	pin_close_if_empty(); /* nothing here could be pinned */
}

/* Slot i back to private anonymous memory, contents kept; dropped. */
static void revert(uint32_t i, const struct dma_vma *home)
{
	struct sim_dma_range r = dma_pin.t->r[i];
	struct dma_vma v = *home;
	uint8_t *va = (uint8_t *)(uintptr_t)r.va, *tmp;
	void *p;

	if (strcmp(home->perms, "rw-s"))
		return; /* the program's protection: leave it */
	tmp = sys.mmap(NULL, r.len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (tmp == MAP_FAILED)
		return;
	dma_table_begin();
	drop(i, 0); /* no peer copies into it from here */
	dma_table_end();
	conv_begin(r.va, r.va + r.len);
	p = sys.mprotect(va, r.len, PROT_READ) ? MAP_FAILED : va;
	if (p != MAP_FAILED) {
		dma_copy_data(tmp, r.off, r.len);
		p = sys.mremap(tmp, r.len, r.len, MREMAP_MAYMOVE | MREMAP_FIXED,
			       va);
	}
	if (p == MAP_FAILED) {
		sys.mprotect(va, r.len, PROT_READ | PROT_WRITE);
		sys.munmap(tmp, r.len);
	} else {
		v.start = r.va;
		v.end = r.va + r.len;
		dma_vma_readvise(&v);
		dma_punch(r.off, r.len);
	}
	conv_end();
}

void sim_dma_unpin(uint64_t addr, uint64_t len)
{
	uint64_t lo, hi;
	uint32_t i;

	if (!dma_pin.t || !page_range(addr, len, &lo, &hi))
		return;
	ref_range(lo, hi, -1);
	if (survey(0, 0))
		return;
	/* from the top: a drop moves the last slot into its place */
	for (i = dma_pin.t->n; i-- > 0;) {
		if (dma_pin.refs[i] || dma_pin.t->r[i].va >= hi ||
		    dma_pin.t->r[i].va + dma_pin.t->r[i].len <= lo)
			continue;
		if (s.state[i] == ENT_HERE) {
			revert(i, &s.home[i]);
		} else if (s.state[i] == ENT_GONE) {
			dma_table_begin();
			drop(i, 1);
			dma_table_end();
		}
	}
	pin_close_if_empty();
}

/* What is left of slot i once [lo, hi) went; the middle needs a slot. */
static void cut(uint32_t i, uint64_t lo, uint64_t hi)
{
	struct sim_dma_range *r = &dma_pin.t->r[i], tail;
	uint64_t end = r->va + r->len;

	if (lo < r->va)
		lo = r->va;
	if (hi > end)
		hi = end;
	if (lo >= hi)
		return;
	if (lo == r->va && hi == end) {
		drop(i, 1);
		return;
	}
	dma_punch(r->off + (lo - r->va), hi - lo);
	tail = (struct sim_dma_range){hi, end - hi, r->off + (hi - r->va)};
	if (lo > r->va) {
		r->len = lo - r->va;
		if (hi < end && dma_pin.t->n < SIM_DMA_RANGES) {
			dma_pin.refs[dma_pin.t->n] = dma_pin.refs[i];
			dma_pin.t->r[dma_pin.t->n++] = tail;
		}
		else if (hi < end) /* no slot: the rest stays as it is */
			dma_punch(tail.off, tail.len);
	} else {
		*r = tail;
	}
}

void sim_dma_unmap(void *addr, size_t len)
{
	uint64_t page, lo = (uintptr_t)addr, hi;
	uint32_t i;

	if (!dma_pin.t || !len)
		return;
	page = sim.sh->cfg.page_size;
	hi = (lo + len + page - 1) & ~(page - 1);
	dma_table_begin();
	for (i = dma_pin.t->n; i-- > 0;)
		cut(i, lo, hi);
	dma_table_end();
	pin_close_if_empty();
}

/* A new image of this pid: what the old one published is gone. */
void sim_dma_exec_reset(void)
{
	char path[SIM_PATH_LEN + 32];
	struct sim_dma_table *t;
	int fd;

	if (sim_dma_table_path(path, sizeof(path), sim.dir, getpid()))
		return;
	fd = sim_open_private(path, O_RDWR | O_CLOEXEC, 0);
	if (fd < 0)
		return;
	t = sys.mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	sim_close_private(fd);
	if (t == MAP_FAILED)
		return;
	__atomic_or_fetch(&t->seq, 1, __ATOMIC_SEQ_CST);
	t->n = 0;
	t->ino = 0;
	t->fd = -1;
	__atomic_store_n(&t->seq, t->seq + 1, __ATOMIC_RELEASE);
	sys.munmap(t, 4096);
}
