/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The rings rdma_rxe shares with user space (struct rxe_queue_buf): a
 * header page of indices, then 2^n slots of 2^log2_elem_size bytes. Both
 * indices are stored masked. Userspace produces into SQ, RQ and SRQ rings
 * and consumes from CQ rings; the kernel owns the other index and keeps a
 * private copy of its own, so a user index is never trusted for
 * addressing. One slot always stays empty: full is producer + 1 ==
 * consumer.
 */
#ifndef RXE_QUEUE_H
#define RXE_QUEUE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <rdma/rdma_user_rxe.h>

struct ibv_context;

struct rxe_queue {
	struct rxe_queue_buf *buf; /* NULL when not mapped */
	size_t map_size;
	uint32_t mask; /* cached index_mask, read once at map time */
};

/* The other side's index is read with acquire, our own one relaxed. */
static inline uint32_t rxe_load_acq(uint32_t *idx)
{
	return atomic_load_explicit((_Atomic uint32_t *)idx,
				    memory_order_acquire);
}

static inline uint32_t rxe_load_rlx(uint32_t *idx)
{
	return atomic_load_explicit((_Atomic uint32_t *)idx,
				    memory_order_relaxed);
}

static inline void rxe_store_rel(uint32_t *idx, uint32_t val)
{
	atomic_store_explicit((_Atomic uint32_t *)idx, val,
			      memory_order_release);
}

static inline void *rxe_slot(struct rxe_queue *q, uint32_t idx)
{
	return q->buf->data +
	       ((size_t)(idx & q->mask) << q->buf->log2_elem_size);
}

/* Consumer side (CQ). */
static inline bool rxe_queue_empty(struct rxe_queue *q)
{
	return rxe_load_acq(&q->buf->producer_index) ==
	       rxe_load_rlx(&q->buf->consumer_index);
}

static inline void *rxe_consumer_slot(struct rxe_queue *q)
{
	return rxe_slot(q, rxe_load_rlx(&q->buf->consumer_index));
}

static inline void rxe_advance_consumer(struct rxe_queue *q)
{
	uint32_t ci = rxe_load_rlx(&q->buf->consumer_index);

	rxe_store_rel(&q->buf->consumer_index, (ci + 1) & q->mask);
}

/* Producer side (SQ, RQ, SRQ): is slot @idx free to write? */
static inline bool rxe_queue_full_at(struct rxe_queue *q, uint32_t idx)
{
	return ((idx + 1) & q->mask) == rxe_load_acq(&q->buf->consumer_index);
}

static inline uint32_t rxe_producer(struct rxe_queue *q)
{
	return rxe_load_rlx(&q->buf->producer_index);
}

/* Publish every slot before @idx (already masked by the caller or not). */
static inline void rxe_publish_producer(struct rxe_queue *q, uint32_t idx)
{
	rxe_store_rel(&q->buf->producer_index, idx & q->mask);
}

/* queue.c: mmap the ring the kernel described in @mi (0 or errno). */
int rxe_queue_map(struct ibv_context *ctx, struct rxe_queue *q,
		  const struct mminfo *mi);
void rxe_queue_unmap(struct rxe_queue *q);

/*
 * A work queue the provider produces into: the ring, its lock and the
 * limits the kernel granted (SQ: max_inline too).
 */
struct rxe_wq {
	struct rxe_queue q;
	pthread_spinlock_t lock;
	uint32_t max_sge;
	uint32_t max_inline;
};

int rxe_wq_init(struct rxe_wq *wq, uint32_t max_sge, uint32_t max_inline);
void rxe_wq_destroy(struct rxe_wq *wq);

/* recv.c: the RQ/SRQ posting loop shared by QPs and SRQs. */
struct ibv_recv_wr;
int rxe_post_recv_list(struct rxe_wq *wq, struct ibv_recv_wr *wr,
		       struct ibv_recv_wr **bad_wr);

#endif /* RXE_QUEUE_H */
