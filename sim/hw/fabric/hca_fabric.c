// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The wire between simulated ports. Every process that has QPs owns a
 * receive ring, <dir>/r<pid>: a file of packets that senders append to
 * (under the ring's robust process-shared mutex) and only the owner's
 * engine reads, copying payloads into its own registered memory. A QP is
 * reachable at <dir>/q<dev>.<qpn>, a symlink naming its process
 * ("p<pid>"). An owner's engine with nothing to do sleeps on a futex in
 * its ring's header; a sender wakes it only when it said it sleeps.
 * Packets from one sender to one ring keep their order and are not
 * dropped; they are lost, as on IB, at a QP that does not exist or a
 * process that is gone, and where --fault says (hca_fault.c, applied as
 * each packet is taken from the ring). The ring's header page also holds
 * the owner's landing offers (hca_land.c, hca_land_write.c): a SEND or
 * RDMA WRITE that takes one is written into the owner's memory by the
 * sender instead.
 */
#include "hca.h"
#include "hca_fabric.h"
#include "pid_gone.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define RING_BYTES (1u << 20) /* power of two; small keeps it in cache */
#define REC_PAD	   1u	      /* skip to the start of the ring */

struct ring_hdr {
	pthread_mutex_t lock;
	uint64_t head;	   /* bytes published (producers, under lock) */
	uint64_t tail;	   /* bytes consumed (the owner) */
	uint32_t sleeping; /* the owner's engine thread waits (a futex) */
	uint32_t ready;
	uint32_t app_pass; /* the owner's application is in a pass */
	uint64_t done;	   /* tail when the owner's last pass ended */
	uint64_t passes;   /* passes the owner's engine finished */
	uint32_t full;	   /* times a sender found the ring full */
	/* held by the owner's engine thread from its first pass on, never
	 * let go: the owner's kernel marks it (robust futex) when that
	 * thread ends, with the process or its image, before anyone can
	 * learn of the end (hca_fabric_peer_alive) */
	pthread_mutex_t alive;
};

#define RING_DATA 4096 /* header page, then the bytes */
#define WLAND_OFF 256  /* its WRITE landings (hca_land_write.c) */
#define LAND_OFF  1024 /* the header page's landings (hca_land.c) */
_Static_assert(sizeof(struct ring_hdr) <= WLAND_OFF &&
		       WLAND_OFF + HCA_WLANDINGS *
					   sizeof(struct hca_wlanding) <=
			       LAND_OFF &&
		       LAND_OFF + HCA_LANDINGS * sizeof(struct hca_landing) <=
			       RING_DATA,
	       "the landings fit the ring's header page");

/* A record: its length (8-aligned, header included), then the packet. */
struct ring_rec {
	uint32_t len;
	uint32_t flags;
};

struct ring_map {
	struct ring_map *next;
	pid_t pid;
	struct ring_hdr *h;
};

static pid_t fabric_pid;
static struct ring_hdr *own;
static struct ring_map *peers;
/* Which process owns a QP, remembered (QP numbers are never reused). */
#define OWNER_CACHE 256
static struct {
	uint32_t dev_qpn;
	pid_t pid;
} owners[OWNER_CACHE];

static int dir_path(char *buf, size_t len, const char *fmt, unsigned int a,
		    unsigned int b)
{
	char name[40];
	int n;

	snprintf(name, sizeof(name), fmt, a, b);
	n = snprintf(buf, len, "%s/%s", sim.dir, name);
	return n < 0 || n >= (int)len ? -ENAMETOOLONG : 0;
}

static struct ring_hdr *map_ring(pid_t pid, int create)
{
	char path[SIM_PATH_LEN + 48];
	struct ring_hdr *h;
	int fd;

	if (dir_path(path, sizeof(path), "r%u", (unsigned int)pid, 0))
		return NULL;
	fd = sim_open_private(path, O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0),
			      0600);
	if (fd < 0)
		return NULL;
	if (create && ftruncate(fd, RING_DATA + RING_BYTES)) {
		sim_close_private(fd);
		return NULL;
	}
	h = sys.mmap(NULL, RING_DATA + RING_BYTES, PROT_READ | PROT_WRITE,
		      MAP_SHARED, fd, 0);
	sim_close_private(fd);
	return h == MAP_FAILED ? NULL : h;
}

static int atfork_done;
static struct ring_hdr *alive_held; /* the ring whose alive lock we hold */

/* A fork child's ring is its own, made when it first needs one. */
static void forked(void)
{
	own = NULL;
	alive_held = NULL;
}

static int open_ring(void)
{
	pthread_mutexattr_t a;

	own = map_ring(getpid(), 1);
	if (!own)
		return -ENOMEM;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&own->lock, &a);
	pthread_mutex_init(&own->alive, &a);
	pthread_mutexattr_destroy(&a);
	__atomic_store_n(&own->ready, 1, __ATOMIC_RELEASE);
	return 0;
}

int hca_fabric_open(void)
{
	struct ring_map *m;
	int ret;

	if (own)
		return 0;
	/* a fork child's copies of the parent's peer rings: let go */
	while ((m = peers)) {
		peers = m->next;
		sys.munmap(m->h, RING_DATA + RING_BYTES);
		free(m);
	}
	memset(owners, 0, sizeof(owners));
	ret = open_ring();
	if (ret)
		return ret;
	fabric_pid = getpid();
	if (!atfork_done) {
		pthread_atfork(NULL, NULL, forked);
		atfork_done = 1;
	}
	return 0;
}

/* Name (dev, num) under fmt as this process's: q<dev>.<qpn> for a QP,
 * x<dev>.<srqn> for an XRC SRQ. */
static int name_attach(const char *fmt, unsigned int dev, uint32_t num)
{
	char path[SIM_PATH_LEN + 48], target[32];
	int ret = hca_fabric_open();

	if (ret)
		return ret;
	ret = dir_path(path, sizeof(path), fmt, dev, num);
	if (ret)
		return ret;
	snprintf(target, sizeof(target), "p%u", (unsigned int)getpid());
	unlink(path); /* a number left by a process that died */
	return symlink(target, path) ? -errno : 0;
}

static void name_detach(const char *fmt, unsigned int dev, uint32_t num)
{
	char path[SIM_PATH_LEN + 48];

	if (!dir_path(path, sizeof(path), fmt, dev, num))
		unlink(path);
}

/* The process a name names, or 0. */
static pid_t name_owner(const char *fmt, unsigned int dev, uint32_t num)
{
	char path[SIM_PATH_LEN + 48], t[32];
	ssize_t n;

	if (dir_path(path, sizeof(path), fmt, dev, num))
		return 0;
	n = sys.readlink(path, t, sizeof(t) - 1);
	if (n < 2 || t[0] != 'p')
		return 0;
	t[n] = 0;
	return (pid_t)atoi(t + 1);
}

int hca_fabric_attach(unsigned int dev, uint32_t qpn)
{
	return name_attach("q%u.%u", dev, qpn);
}

void hca_fabric_detach(unsigned int dev, uint32_t qpn)
{
	name_detach("q%u.%u", dev, qpn);
}

/* The process owning (dev, qpn), or 0. */
static pid_t owner_of(unsigned int dev, uint32_t qpn)
{
	return name_owner("q%u.%u", dev, qpn);
}

int hca_fabric_srq_name(unsigned int dev, uint32_t srqn, int attach)
{
	if (attach)
		return name_attach("x%u.%u", dev, srqn);
	/* a fork child's copy of the parent's SRQ leaves the name alone */
	if (name_owner("x%u.%u", dev, srqn) == getpid())
		name_detach("x%u.%u", dev, srqn);
	return 0;
}

static struct ring_hdr *peer_ring(pid_t pid)
{
	struct ring_map *m;

	if (pid == fabric_pid)
		return own;
	for (m = peers; m; m = m->next)
		if (m->pid == pid)
			return m->h;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->h = map_ring(pid, 0);
	if (!m->h || !__atomic_load_n(&m->h->ready, __ATOMIC_ACQUIRE)) {
		free(m);
		return NULL;
	}
	m->pid = pid;
	m->next = peers;
	peers = m;
	return m->h;
}

/* The ring's sleeping word is a futex in the shared file: the first
 * sender that finds the owner asleep clears it and wakes the owner. */
static void poke(struct ring_hdr *h)
{
	if (__atomic_exchange_n(&h->sleeping, 0, __ATOMIC_SEQ_CST)) {
		syscall(SYS_futex, &h->sleeping, FUTEX_WAKE, 1, NULL, NULL, 0);
		hca_stats.pokes++;
	}
}

static int ring_lock(struct ring_hdr *h)
{
	int ret = pthread_mutex_lock(&h->lock);

	if (ret == EOWNERDEAD) /* a sender died inside: nothing half-made */
		ret = pthread_mutex_consistent(&h->lock);
	return ret;
}

static uint8_t *ring_at(struct ring_hdr *h, uint64_t pos)
{
	return (uint8_t *)h + RING_DATA + (pos & (RING_BYTES - 1));
}

/*
 * A full ring whose owner has taken nothing for a millisecond: is the
 * owner gone (a zombie makes no room either)? Reading its state costs
 * system calls, so a ring that drains is not asked about.
 */
#define STALL_NS 1000000
static int stalled(pid_t pid, struct ring_hdr *h)
{
	static pid_t last_pid;
	static uint64_t last_tail, moved;
	uint64_t tail = __atomic_load_n(&h->tail, __ATOMIC_ACQUIRE);
	uint64_t now = hca_now();

	if (pid != last_pid || tail != last_tail) {
		last_pid = pid;
		last_tail = tail;
		moved = now;
	}
	return now - moved > STALL_NS;
}

static int send_to(pid_t pid, const struct hca_pkt *p, const struct iovec *iov,
		   int iovcnt, struct hca_mark *mark)
{
	size_t len = sizeof(struct ring_rec) + sizeof(*p), room, off;
	struct ring_hdr *h;
	struct ring_rec *r;
	uint64_t head;
	uint8_t *d;
	int i;

	if (!pid || hca_fabric_open())
		return -EHOSTUNREACH;
	h = peer_ring(pid);
	if (!h)
		return -EHOSTUNREACH;
	for (i = 0; i < iovcnt; i++)
		len += iov[i].iov_len;
	len = (len + 7) & ~(size_t)7;
	if (ring_lock(h))
		return -EAGAIN;
	head = h->head;
	room = RING_BYTES - (head & (RING_BYTES - 1));
	if (room < len) /* records never wrap: pad to the start */
		len += room;
	if (head + len - __atomic_load_n(&h->tail, __ATOMIC_ACQUIRE) >
	    RING_BYTES) {
		h->full++;
		pthread_mutex_unlock(&h->lock);
		if (stalled(pid, h) && sim_pid_gone(pid))
			return -EHOSTUNREACH;
		hca_stats.ring_full++;
		return -EAGAIN;
	}
	if (room < len) {
		r = (struct ring_rec *)ring_at(h, head);
		r->len = (uint32_t)room;
		r->flags = REC_PAD;
		head += room;
		len -= room;
	}
	r = (struct ring_rec *)ring_at(h, head);
	r->len = (uint32_t)len;
	r->flags = 0;
	d = (uint8_t *)(r + 1);
	memcpy(d, p, sizeof(*p));
	for (off = sizeof(*p), i = 0; i < iovcnt; i++) {
		memcpy(d + off, iov[i].iov_base, iov[i].iov_len);
		off += iov[i].iov_len;
	}
	__atomic_store_n(&h->head, head + len, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&h->lock);
	if (mark) {
		mark->pid = pid;
		mark->pos = head + len;
	}
	/* an application in a pass looks again before it leaves */
	if (__atomic_load_n(&h->sleeping, __ATOMIC_SEQ_CST) &&
	    !__atomic_load_n(&h->app_pass, __ATOMIC_SEQ_CST))
		poke(h);
	return 0;
}

void hca_fabric_alive_hold(void)
{
	int ret;

	if (!own || alive_held == own)
		return;
	ret = pthread_mutex_trylock(&own->alive);
	if (ret == EOWNERDEAD) /* an image before this one held it */
		ret = pthread_mutex_consistent(&own->alive);
	if (!ret || ret == EBUSY)
		alive_held = own;
}

int hca_fabric_peer_alive(int32_t pid)
{
	struct ring_hdr *h = peer_ring((pid_t)pid);
	uint32_t w;

	if (!h)
		return -1;
	w = (uint32_t)__atomic_load_n(&h->alive.__data.__lock,
				      __ATOMIC_ACQUIRE);
	if (w & FUTEX_OWNER_DIED)
		return 0;
	return w & FUTEX_TID_MASK ? 1 : -1;
}

struct hca_landing *hca_fabric_landings(int32_t pid)
{
	struct ring_hdr *h = pid ? peer_ring((pid_t)pid) : own;

	return h ? (struct hca_landing *)((uint8_t *)h + LAND_OFF) : NULL;
}

struct hca_wlanding *hca_fabric_wlandings(int32_t pid)
{
	struct ring_hdr *h = pid ? peer_ring((pid_t)pid) : own;

	return h ? (struct hca_wlanding *)((uint8_t *)h + WLAND_OFF) : NULL;
}

int hca_fabric_send_pid(int32_t pid, const struct hca_pkt *p)
{
	return send_to((pid_t)pid, p, NULL, 0, NULL);
}

int hca_fabric_send(const struct hca_pkt *p, const struct iovec *iov,
		    int iovcnt)
{
	return hca_fabric_send_mark(p, iov, iovcnt, NULL);
}

int hca_fabric_send_mark(const struct hca_pkt *p, const struct iovec *iov,
			 int iovcnt, struct hca_mark *mark)
{
	uint32_t key = (uint32_t)p->dst_dev << 24 | p->dst_qpn;
	unsigned int slot = (p->dst_qpn ^ p->dst_dev * 131u) % OWNER_CACHE;
	int ret;

	pid_t xrc =
		p->xrc_srqn ? name_owner("x%u.%u", p->dst_dev, p->xrc_srqn) : 0;

	if (owners[slot].dev_qpn != key || !owners[slot].pid) {
		owners[slot].pid = owner_of(p->dst_dev, p->dst_qpn);
		owners[slot].dev_qpn = key;
	}
	/* an XRC request runs where the SRQ it names lives (hca_xrc.c) */
	if (!xrc && hca_land(owners[slot].pid, fabric_pid, p, iov, iovcnt)) {
		ret = 0; /* placed, and acknowledged: nothing in flight */
		if (mark)
			mark->pid = 0;
	} else {
		ret = send_to(xrc ? xrc : owners[slot].pid, p, iov, iovcnt,
			      mark);
	}
	if (ret != -EAGAIN) { /* a full ring (ring_full) is tried again */
		hca_stats.pkts_out++;
		hca_hw_count(p->src_dev, SIM_HWC_XMIT_PKTS);
		hca_hw_add(p->src_dev, SIM_HWC_XMIT_BYTES, p->len);
	}
	if (ret == -EHOSTUNREACH) {
		owners[slot].pid = 0; /* look again next time */
		if (mark)
			mark->pid = 0;
	}
	return ret;
}

/*
 * The ACK timer's question: did the receiver's engine get to run since
 * the packet was put in its ring? A real HCA answers within microseconds
 * whatever its host's CPUs do; here the answer waits for a process to be
 * scheduled, and that wait is not network time. A receiver that is gone
 * had its chance: its packets are lost.
 */
int hca_fabric_reached(struct hca_mark *m)
{
	struct ring_hdr *h;
	uint32_t full;

	if (!m->pid)
		return 1;
	h = peer_ring(m->pid);
	if (!h)
		return 1;
	if (sim_pid_gone(m->pid))
		return 1;
	if (__atomic_load_n(&h->done, __ATOMIC_ACQUIRE) < m->pos)
		return 0;
	/*
	 * It took our packet, but its answer may have found our ring full
	 * and wait in it for its next pass: then it has had its chance
	 * only once it finished a pass that began after we made room.
	 */
	full = own ? __atomic_load_n(&own->full, __ATOMIC_ACQUIRE) : 0;
	if (full != m->full) {
		m->full = full;
		m->passes = __atomic_load_n(&h->passes, __ATOMIC_ACQUIRE) + 2;
		return 0;
	}
	return __atomic_load_n(&h->passes, __ATOMIC_ACQUIRE) >= m->passes;
}

uint64_t hca_fabric_ring_end(int32_t pid)
{
	struct ring_hdr *h = pid ? peer_ring((pid_t)pid) : own;

	return h ? __atomic_load_n(&h->head, __ATOMIC_SEQ_CST) : 0;
}

int hca_fabric_backlog(void)
{
	return own && __atomic_load_n(&own->head, __ATOMIC_ACQUIRE) !=
			      __atomic_load_n(&own->tail, __ATOMIC_RELAXED);
}

/* Answers to what the pass took were sent before done moves past it. */
void hca_fabric_pass_done(void)
{
	if (!own)
		return;
	__atomic_store_n(&own->done, own->tail, __ATOMIC_RELEASE);
	__atomic_add_fetch(&own->passes, 1, __ATOMIC_RELEASE);
}

int hca_fabric_poll(int max)
{
	const struct ring_rec *r;
	const uint8_t *payload;
	struct hca_pkt p;
	uint64_t tail;
	int done = 0;

	if (!own)
		return 0;
	tail = own->tail;
	while (done < max &&
	       tail != __atomic_load_n(&own->head, __ATOMIC_ACQUIRE)) {
		r = (const struct ring_rec *)ring_at(own, tail);
		if (r->flags & REC_PAD) {
			tail += r->len;
			continue;
		}
		memcpy(&p, r + 1, sizeof(p));
		payload = (const uint8_t *)(r + 1) + sizeof(p);
		done++;
		hca_rx(&p, payload);
		tail += r->len;
		__atomic_store_n(&own->tail, tail, __ATOMIC_RELEASE);
	}
	hca_stats.pkts_in += (uint64_t)done;
	return done;
}

int hca_fabric_app_pass(int in)
{
	if (!own)
		return 0;
	__atomic_store_n(&own->app_pass, (uint32_t)in, __ATOMIC_SEQ_CST);
	return __atomic_load_n(&own->head, __ATOMIC_SEQ_CST) !=
	       __atomic_load_n(&own->tail, __ATOMIC_RELAXED);
}

void hca_fabric_wake_self(void)
{
	if (own)
		poke(own);
}

void hca_fabric_wait(int ms)
{
	struct timespec ts = {.tv_sec = ms / 1000,
			      .tv_nsec = (ms % 1000) * 1000000l};

	if (!own) {
		nanosleep(&ts, NULL);
		return;
	}
	/* sleeping before head is read, as a sender publishes head before
	 * it reads sleeping: one of the two sees the other (so with a
	 * doorbell left to this thread) */
	__atomic_store_n(&own->sleeping, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&own->head, __ATOMIC_SEQ_CST) ==
		    __atomic_load_n(&own->tail, __ATOMIC_RELAXED) &&
	    !__atomic_load_n(&hca_doorbell_pending, __ATOMIC_SEQ_CST)) {
		hca_stats.waits++;
		syscall(SYS_futex, &own->sleeping, FUTEX_WAIT, 1, &ts, NULL, 0);
		if (!__atomic_load_n(&own->sleeping, __ATOMIC_SEQ_CST))
			hca_stats.woken++;
	}
	__atomic_store_n(&own->sleeping, 0, __ATOMIC_SEQ_CST);
}

/* A doorbell of process pid's UAR pages was rung from outside its own
 * stores (a peer device through a dma-buf): its engine runs a pass now.
 * The peer library calls it on the program's thread, so the lock is
 * taken as every such thread takes it, its asynchronous signals held. */
void sim_doorbell_rung(int32_t pid)
{
	struct ring_hdr *h;

	sim_lock_take();
	h = pid == getpid() ? own : peer_ring(pid);
	if (h)
		poke(h);
	sim_lock_drop();
	sim_trace("doorbell of pid %d rung through a dma-buf%s", pid,
		  h ? "" : " (no engine there yet)");
}
