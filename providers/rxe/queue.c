// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Mapping the kernel's rings, and the work queue wrapper around one. */
#include <errno.h>
#include <sys/mman.h>

#include "rxe.h"

int rxe_queue_map(struct ibv_context *ctx, struct rxe_queue *q,
		  const struct mminfo *mi)
{
	struct rxe_queue_buf *buf;
	size_t need;

	if (mi->size < sizeof(*buf))
		return EINVAL;
	buf = mmap(NULL, mi->size, PROT_READ | PROT_WRITE, MAP_SHARED,
		   ctx->cmd_fd, (off_t)mi->offset);
	if (buf == MAP_FAILED)
		return errno;
	/* The header must describe a ring that fits in what was mapped. */
	need = sizeof(*buf) +
	       (((size_t)buf->index_mask + 1) << buf->log2_elem_size);
	if (buf->log2_elem_size > 16 ||
	    buf->index_mask & (buf->index_mask + 1) || need > mi->size) {
		munmap(buf, mi->size);
		return EPROTO;
	}
	q->buf = buf;
	q->map_size = mi->size;
	q->mask = buf->index_mask;
	return 0;
}

void rxe_queue_unmap(struct rxe_queue *q)
{
	if (q->buf)
		munmap(q->buf, q->map_size);
	q->buf = NULL;
	q->map_size = 0;
}

int rxe_wq_init(struct rxe_wq *wq, uint32_t max_sge, uint32_t max_inline)
{
	wq->max_sge = max_sge;
	wq->max_inline = max_inline;
	return pthread_spin_init(&wq->lock, PTHREAD_PROCESS_PRIVATE);
}

void rxe_wq_destroy(struct rxe_wq *wq)
{
	rxe_queue_unmap(&wq->q);
	pthread_spin_destroy(&wq->lock);
}
