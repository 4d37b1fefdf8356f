// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The HCA's DMA into a host process it does not run in. The HCA of a
 * simulated process runs inside that process; a peer's memory is
 * reached from outside, here, and nowhere else (landings today).
 *
 * Memory the peer's kernel pinned for the device sits in its memfd
 * (common/dma_pin.h): a remote iovec inside one of its published ranges
 * is a memcpy through this process's mapping of that memfd, as a device
 * writes pinned pages; any other goes through the peer's address space
 * (process_vm_writev), which also vouches, once per peer, that this
 * process may write into it at all. The cache of peers is small and
 * bounded: each holds the peer's pidfd (hidden), its table and its
 * memfd's window, all dropped with the peer's slot, and all slots with
 * this process's last QP. Before each write the peer's alive lock
 * (hca_fabric_peer_alive: no system call) says whether it has ended;
 * only where it holds none, the pidfd is polled. The lock is the better
 * witness: it is marked before the peer's fds close, its pidfd turns
 * readable only after (a socket's EOF came before it).
 * Engine state: under sim_lock.
 */
#include "hca.h"
#include "dma_pin.h"
#include "raw_syscall.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>

#define PEERS	     8
#define RETRY_NS     1000000 /* a peer without table or memfd: look again */
#define MAX_REMOTE   64

struct peer {
	int32_t pid; /* 0: a free slot */
	int pidfd;
	int vouched; /* a write through its address space worked */
	const struct sim_dma_table *t;
	uint8_t *win; /* SIM_DMA_SPAN bytes of its memfd */
	uint64_t ino; /* of the memfd at win */
	uint64_t retry; /* hca_now() after which to look for t or win */
	uint64_t used;
};

static int denied; /* this process may not write into others */
static struct peer peers[PEERS];
static uint64_t uses;
static int atfork_done;

static void win_drop(struct peer *p)
{
	if (p->win)
		sys.munmap(p->win, SIM_DMA_SPAN);
	p->win = NULL;
	p->ino = 0;
}

static void peer_drop(struct peer *p)
{
	win_drop(p);
	if (p->t)
		sys.munmap((void *)p->t, 4096);
	sim_internal_fd_close(&p->pidfd);
	memset(p, 0, sizeof(*p));
	p->pidfd = -1;
}

void hca_peer_forget(void)
{
	unsigned int i;

	for (i = 0; i < PEERS; i++)
		if (peers[i].pid)
			peer_drop(&peers[i]);
}

/* A fork child's cache is the parent's fds and mappings: not its own. */
static void forked(void)
{
	hca_peer_forget();
}

static const struct sim_dma_table *table_map(int32_t pid)
{
	char path[SIM_PATH_LEN + 32];
	void *t;
	int fd;

	if (sim_dma_table_path(path, sizeof(path), sim.dir, pid))
		return NULL;
	fd = sim_open_private(path, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return NULL;
	t = sys.mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	sim_close_private(fd);
	return t == MAP_FAILED ? NULL : t;
}

/* The peer's memfd as its table names it (fd number, inode). */
static void win_map(struct peer *p)
{
	uint32_t seq = __atomic_load_n(&p->t->seq, __ATOMIC_ACQUIRE);
	int32_t nr = __atomic_load_n(&p->t->fd, __ATOMIC_ACQUIRE);
	uint64_t ino = __atomic_load_n(&p->t->ino, __ATOMIC_ACQUIRE);
	char path[64];
	struct stat st;
	void *w;
	int fd;

	if ((seq & 1) || nr < 0 || !ino ||
	    __atomic_load_n(&p->t->seq, __ATOMIC_ACQUIRE) != seq)
		return;
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)p->pid, (int)nr);
	fd = sim_open_private(path, O_RDWR | O_CLOEXEC, 0);
	if (fd < 0)
		return;
	w = sys.fstat(fd, &st) || st.st_ino != ino
		    ? MAP_FAILED
		    : sys.mmap(NULL, SIM_DMA_SPAN, PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_NORESERVE, fd, 0);
	sim_close_private(fd);
	if (w == MAP_FAILED)
		return;
	p->win = w;
	p->ino = ino;
}

static struct peer *peer_new(int32_t pid)
{
	struct peer *p = &peers[0];
	unsigned int i;

	if (!atfork_done) {
		pthread_atfork(NULL, NULL, forked);
		atfork_done = 1;
		for (i = 0; i < PEERS; i++)
			peers[i].pidfd = -1;
	}
	for (i = 1; i < PEERS && p->pid; i++) /* a free slot, else the oldest */
		if (!peers[i].pid || peers[i].used < p->used)
			p = &peers[i];
	if (p->pid)
		peer_drop(p);
	p->pidfd = (int)sim_cookie_syscall(__NR_pidfd_open, pid, 0, 0, 0, 0);
	if (p->pidfd < 0 || sim_internal_fd_add(&p->pidfd)) {
		p->pidfd = -1;
		return NULL;
	}
	p->pid = pid;
	return p;
}

/* The peer's slot with its table and window as current as they get. */
static struct peer *peer_get(int32_t pid)
{
	struct peer *p = NULL;
	unsigned int i;
	uint64_t now;

	for (i = 0; i < PEERS && !p; i++)
		if (peers[i].pid == pid)
			p = &peers[i];
	if (!p)
		p = peer_new(pid);
	if (!p)
		return NULL;
	p->used = ++uses;
	if (p->t && p->win &&
	    __atomic_load_n(&p->t->ino, __ATOMIC_ACQUIRE) == p->ino)
		return p;
	now = hca_now();
	if (now < p->retry)
		return p;
	p->retry = now + RETRY_NS;
	if (!p->t)
		p->t = table_map(pid);
	win_drop(p); /* another image's memfd, or none yet */
	if (p->t)
		win_map(p);
	return p;
}

static int peer_exited(const struct peer *p)
{
	struct pollfd f = {.fd = p->pidfd, .events = POLLIN};

	hca_stats.peer_polls++;
	return sim_cookie_syscall(__NR_poll, (long)&f, 1, 0, 0, 0) != 0;
}

/* Where [va, va+len) sits in the peer's window, or NULL. */
static uint8_t *lookup(const struct peer *p, uint64_t va, uint64_t len)
{
	const struct sim_dma_table *t = p->t;
	uint32_t seq = __atomic_load_n(&t->seq, __ATOMIC_ACQUIRE), n, i;
	uint64_t rva, rlen, off = SIM_DMA_SPAN;

	if (seq & 1 || __atomic_load_n(&t->ino, __ATOMIC_ACQUIRE) != p->ino)
		return NULL;
	n = __atomic_load_n(&t->n, __ATOMIC_ACQUIRE);
	for (i = 0; i < n && i < SIM_DMA_RANGES; i++) {
		rva = __atomic_load_n(&t->r[i].va, __ATOMIC_ACQUIRE);
		rlen = __atomic_load_n(&t->r[i].len, __ATOMIC_ACQUIRE);
		if (va >= rva && len <= rlen && va - rva <= rlen - len) {
			off = __atomic_load_n(&t->r[i].off, __ATOMIC_ACQUIRE) +
			      (va - rva);
			break;
		}
	}
	if (__atomic_load_n(&t->seq, __ATOMIC_ACQUIRE) != seq ||
	    off >= SIM_DMA_SPAN || len > SIM_DMA_SPAN - off)
		return NULL;
	return p->win + off;
}

/* The local bytes not yet written: iovec *i from offset *o. */
struct cursor {
	const struct iovec *loc;
	int nl, i;
	size_t o;
};

/* len bytes from the cursor to dst; the last byte of all with release
 * (a CQE's owner byte: everything before it is seen first). */
static void copy_out(struct cursor *c, uint8_t *dst, size_t len, int last)
{
	const uint8_t *src;
	size_t k;

	while (len) {
		src = (const uint8_t *)c->loc[c->i].iov_base + c->o;
		k = c->loc[c->i].iov_len - c->o;
		if (k > len)
			k = len;
		if (last && k == len) {
			memcpy(dst, src, k - 1);
			__atomic_store_n(dst + k - 1, src[k - 1],
					 __ATOMIC_RELEASE);
		} else {
			memcpy(dst, src, k);
		}
		dst += k;
		len -= k;
		c->o += k;
		if (c->o == c->loc[c->i].iov_len) {
			c->i++;
			c->o = 0;
		}
	}
}

/* len bytes from the cursor through the peer's address space to dst. */
static int write_through(int32_t pid, struct cursor *c, void *dst, size_t len)
{
	struct iovec part[HCA_MAX_SGE + 4];
	struct iovec rem = {dst, len};
	size_t left = len, k;
	int n = 0;

	while (left) {
		if (n == (int)(sizeof(part) / sizeof(part[0])) ||
		    c->i >= c->nl)
			return 0;
		k = c->loc[c->i].iov_len - c->o;
		if (k > left)
			k = left;
		part[n].iov_base = (uint8_t *)c->loc[c->i].iov_base + c->o;
		part[n++].iov_len = k;
		left -= k;
		c->o += k;
		if (c->o == c->loc[c->i].iov_len) {
			c->i++;
			c->o = 0;
		}
	}
	return process_vm_writev(pid, part, (unsigned long)n, &rem, 1, 0) ==
	       (ssize_t)len;
}

/* Each remote iovec in order: a memcpy where pinned, else the slow way. */
static int write_mixed(struct peer *p, const struct iovec *loc, int nl,
		       const struct iovec *rem, int nr)
{
	struct cursor c = {.loc = loc, .nl = nl};
	uint8_t *dst;
	int i;

	for (i = 0; i < nr; i++) {
		if (!rem[i].iov_len)
			continue;
		dst = lookup(p, (uintptr_t)rem[i].iov_base, rem[i].iov_len);
		if (dst) {
			copy_out(&c, dst, rem[i].iov_len, i == nr - 1);
			hca_stats.peer_copies++;
		} else if (!write_through(p->pid, &c, rem[i].iov_base,
					rem[i].iov_len))
			return 0;
	}
	return 1;
}

static size_t total(const struct iovec *v, int n)
{
	size_t s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += v[i].iov_len;
	return s;
}

int hca_peer_write(int32_t pid, const struct iovec *loc, int nl,
		   const struct iovec *rem, int nr, size_t want)
{
	struct peer *p;
	int alive;

	if (denied)
		return 0;
	p = nr <= MAX_REMOTE && total(loc, nl) == want &&
			    total(rem, nr) == want
		    ? peer_get(pid)
		    : NULL;
	if (p && p->vouched && p->win) {
		/* a WRITE posted after the peer's end must not land: its
		 * alive lock, where it has none its pidfd, is asked after
		 * the WQE was taken */
		alive = hca_fabric_peer_alive(pid);
		if (alive > 0 || (alive < 0 && !peer_exited(p)))
			return write_mixed(p, loc, nl, rem, nr);
		peer_drop(p); /* its pid may come back, another process */
		return 0;
	}
	if (process_vm_writev(pid, loc, (unsigned long)nl, rem,
			      (unsigned long)nr, 0) == (ssize_t)want) {
		if (p)
			p->vouched = 1;
		return 1;
	}
	if (errno == EPERM) /* e.g. yama: never again, the ring it is */
		denied = 1;
	return 0;
}

int hca_peer_denied(void)
{
	return denied;
}
