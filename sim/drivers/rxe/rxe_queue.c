// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe queue buffers (struct rxe_queue_buf): what the kernel's
 * rxe_queue_init allocates and rxe_mmap hands out. The "kernel" copy is a
 * shared anonymous mapping; userspace mmap()s the offset the create
 * response gave (once, length up to the entry's size) and gets a second
 * mapping of the same pages (mremap of size 0), so both see one ring.
 * Where mremap cannot do that (valgrind refuses an old size of 0) the
 * ring's pages are a device page file (core/page_file.c), mapped twice.
 */
#include "rxe.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define RXE_QUEUE_HDR 384 /* offsetof(struct rxe_queue_buf, data) */

static struct rxe_sim_queue *queues;
/* the kernel's per-device offset counter; starts at ALIGN(PAGE, SHMLBA) */
static uint64_t next_offset[SIM_MAX_DEVICES];

static uint32_t pow2_at_least(uint32_t v)
{
	uint32_t p = 1;

	while (p < v && p)
		p <<= 1;
	return p;
}

/* Does mremap of size 0 map kbuf's pages again here? Asked once. */
static int dup_works(void *kbuf, size_t len)
{
	static int works = -1;
	void *p;

	if (works < 0) {
		p = sys.mremap(kbuf, 0, len, MREMAP_MAYMOVE);
		works = p != MAP_FAILED;
		if (works)
			sys.munmap(p, len);
	}
	return works;
}

/* The kernel's mapping of q's pages: shared anonymous memory, or a page
 * file where it cannot be mapped twice. */
static void *kbuf_new(struct rxe_sim_queue *q)
{
	uint32_t npages = q->size / (uint32_t)sim.sh->cfg.page_size;
	int64_t id;
	void *p;

	p = sys.mmap(NULL, q->size, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || dup_works(p, q->size))
		return p;
	sys.munmap(p, q->size);
	id = sim_page_file_new(npages);
	if (id < 0)
		return MAP_FAILED;
	q->pages = (uint32_t)id;
	q->pages_pid = getpid();
	p = sim_page_file_map(q->pages_pid, q->pages, NULL, q->size,
			      PROT_READ | PROT_WRITE, 0);
	if (p == MAP_FAILED)
		sim_page_file_remove(q->pages);
	return p;
}

static uint32_t ilog2(uint32_t v)
{
	uint32_t l = 0;

	while (v >>= 1)
		l++;
	return l;
}

struct rxe_sim_queue *rxe_queue_new(struct sim_uvfile *uv, uint32_t nelem,
				    uint32_t elem_size, struct mminfo *mi)
{
	uint64_t page = sim.sh->cfg.page_size;
	uint32_t slot = pow2_at_least(elem_size < 64 ? 64 : elem_size);
	uint32_t slots = pow2_at_least(nelem + 1);
	struct rxe_sim_queue *q;
	struct rxe_queue_buf *b;
	uint64_t bytes;

	if (!slots || !slot)
		return NULL;
	bytes = RXE_QUEUE_HDR + (uint64_t)slots * slot;
	q = calloc(1, sizeof(*q));
	if (!q)
		return NULL;
	q->size = (uint32_t)((bytes + page - 1) & ~(page - 1));
	q->kbuf = kbuf_new(q);
	if (q->kbuf == MAP_FAILED) {
		free(q);
		return NULL;
	}
	b = q->kbuf;
	b->log2_elem_size = ilog2(slot);
	b->index_mask = slots - 1;
	q->usable = slots - 1;
	if (!next_offset[uv->dev])
		next_offset[uv->dev] = page;
	q->offset = next_offset[uv->dev];
	next_offset[uv->dev] += q->size;
	q->uv = uv;
	q->pending = 1;
	q->next = queues;
	queues = q;
	mi->offset = q->offset;
	mi->size = q->size;
	mi->pad = 0;
	return q;
}

void rxe_queue_free(struct rxe_sim_queue *q)
{
	struct rxe_sim_queue **p;

	if (!q)
		return;
	for (p = &queues; *p; p = &(*p)->next) {
		if (*p == q) {
			*p = q->next;
			break;
		}
	}
	/* a user mapping keeps the pages, as the vma keeps the kernel's */
	sys.munmap(q->kbuf, q->size);
	if (q->pages)
		sim_page_file_remove(q->pages);
	free(q);
}

void *rxe_queue_mmap(struct sim_uvfile *uv, void *addr, size_t len, int flags,
		     uint64_t offset)
{
	struct rxe_sim_queue *q;
	void *p;

	for (q = queues; q; q = q->next)
		if (q->uv == uv && q->pending && q->offset == offset)
			break;
	if (!q || len > q->size) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	if (q->pages)
		p = sim_page_file_map(q->pages_pid, q->pages, addr, len,
				      PROT_READ | PROT_WRITE, flags & MAP_FIXED);
	else if (flags & MAP_FIXED)
		p = sys.mremap(q->kbuf, 0, len, MREMAP_MAYMOVE | MREMAP_FIXED,
				addr);
	else
		p = sys.mremap(q->kbuf, 0, len, MREMAP_MAYMOVE);
	if (p != MAP_FAILED)
		q->pending = 0; /* an entry maps once */
	return p;
}

static struct rxe_queue_buf *qbuf(const struct rxe_sim_queue *q)
{
	return q->kbuf;
}

/* addressed by the kernel's own mask, never by what userspace wrote */
void *rxe_queue_slot(const struct rxe_sim_queue *q, uint32_t i)
{
	struct rxe_queue_buf *b = qbuf(q);

	return b->data + ((size_t)(i & q->usable) << b->log2_elem_size);
}

/* userspace produces SQ/RQ/SRQ entries and consumes CQEs */
uint32_t rxe_queue_user_index(const struct rxe_sim_queue *q)
{
	struct rxe_queue_buf *b = qbuf(q);

	return __atomic_load_n(q->to_client ? &b->consumer_index
					    : &b->producer_index,
			       __ATOMIC_ACQUIRE) &
	       q->usable;
}

void rxe_queue_advance(struct rxe_sim_queue *q)
{
	struct rxe_queue_buf *b = qbuf(q);

	q->index = (q->index + 1) & q->usable;
	__atomic_store_n(q->to_client ? &b->producer_index : &b->consumer_index,
			 q->index, __ATOMIC_RELEASE);
}

uint32_t rxe_queue_count(const struct rxe_sim_queue *q)
{
	uint32_t user = rxe_queue_user_index(q);

	return (q->to_client ? q->index - user : user - q->index) & q->usable;
}

void rxe_queue_clear(struct rxe_sim_queue *q)
{
	memset(qbuf(q)->data, 0,
	       (size_t)(q->usable + 1) << qbuf(q)->log2_elem_size);
}

void rxe_queue_move(struct rxe_sim_queue *to, struct rxe_sim_queue *from)
{
	uint32_t n = rxe_queue_count(from), i;
	uint32_t first =
		from->to_client ? rxe_queue_user_index(from) : from->index;
	size_t slot = (size_t)1 << qbuf(from)->log2_elem_size;

	if (slot > (size_t)1 << qbuf(to)->log2_elem_size)
		slot = (size_t)1 << qbuf(to)->log2_elem_size;
	for (i = 0; i < n && i < to->usable; i++)
		memcpy(rxe_queue_slot(to, i), rxe_queue_slot(from, first + i),
		       slot);
	/* the entries from slot 0: producer at their count, consumer 0 */
	to->to_client = from->to_client;
	to->index = to->to_client ? i & to->usable : 0;
	__atomic_store_n(&qbuf(to)->producer_index, i & to->usable,
			 __ATOMIC_RELEASE);
}
