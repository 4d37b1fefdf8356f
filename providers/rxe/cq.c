// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion queues: the kernel writes struct ib_uverbs_wc entries (the
 * layout of struct ibv_wc) into a ring we map; polling copies them out and
 * advances the consumer index. Arming goes through the kernel.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rxe.h"

/* Extended CQ fields rxe can report (everything struct ibv_wc has). */
#define RXE_CQ_EX_WC_FLAGS IBV_WC_STANDARD_FLAGS

_Static_assert(sizeof(struct ib_uverbs_wc) == sizeof(struct ibv_wc),
	       "the kernel's CQE is an ibv_wc");

static struct rxe_cq *cq_alloc(void)
{
	struct rxe_cq *cq = calloc(1, sizeof(*cq));

	if (!cq)
		return NULL;
	if (pthread_spin_init(&cq->lock, PTHREAD_PROCESS_PRIVATE)) {
		free(cq);
		errno = ENOMEM;
		return NULL;
	}
	return cq;
}

static void cq_free(struct rxe_cq *cq)
{
	pthread_spin_destroy(&cq->lock);
	free(cq);
}

/* Map the ring; on failure the kernel CQ is destroyed again. */
static int cq_map(struct ibv_context *ctx, struct rxe_cq *cq,
		  const struct rxe_create_cq_resp *resp)
{
	int err = rxe_queue_map(ctx, &cq->q, &resp->mi);

	if (!err &&
	    (1U << cq->q.buf->log2_elem_size) < sizeof(struct ib_uverbs_wc)) {
		rxe_queue_unmap(&cq->q);
		err = EPROTO;
	}
	if (err)
		ibv_cmd_destroy_cq(&cq->vcq.cq);
	return err;
}

struct ibv_cq *rxe_create_cq(struct ibv_context *ctx, int cqe,
			     struct ibv_comp_channel *channel, int comp_vector)
{
	struct rxe_create_cq_resp resp = {};
	struct ibv_udata udata = {.out = &resp, .out_len = sizeof(resp)};
	struct rxe_cq *cq = cq_alloc();
	int err;

	if (!cq)
		return NULL;
	err = ibv_cmd_create_cq(ctx, cqe, channel, comp_vector, &cq->vcq,
				&udata, NULL);
	if (!err)
		err = cq_map(ctx, cq, &resp);
	if (err) {
		cq_free(cq);
		errno = err;
		return NULL;
	}
	return &cq->vcq.cq;
}

struct ibv_cq_ex *rxe_create_cq_ex(struct ibv_context *ctx,
				   struct ibv_cq_init_attr_ex *attr)
{
	struct rxe_create_cq_resp resp = {};
	struct ibv_udata udata = {.out = &resp, .out_len = sizeof(resp)};
	struct rxe_cq *cq;
	int err;

	if (!attr) {
		errno = EINVAL;
		return NULL;
	}
	if (attr->wc_flags & ~(uint64_t)RXE_CQ_EX_WC_FLAGS) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	cq = cq_alloc();
	if (!cq)
		return NULL;
	err = ibv_cmd_create_cq_ex(ctx, attr, 0, &cq->vcq, &udata, NULL);
	if (!err)
		err = cq_map(ctx, cq, &resp);
	if (err) {
		cq_free(cq);
		errno = err;
		return NULL;
	}
	rxe_cq_ex_set_ops(cq);
	return &cq->vcq.cq_ex;
}

/*
 * The kernel copies the queued CQEs into a new ring and hands out a new
 * mmap offset; the old ring is swapped out under the poll lock.
 */
int rxe_resize_cq(struct ibv_cq *ibcq, int cqe)
{
	struct rxe_cq *cq = to_rcq(ibcq);
	struct rxe_resize_cq_resp resp = {};
	struct ibv_udata udata = {.out = &resp, .out_len = sizeof(resp)};
	struct rxe_queue nq = {};
	int err;

	pthread_spin_lock(&cq->lock);
	err = ibv_cmd_resize_cq(ibcq, cqe, &udata);
	if (!err)
		err = rxe_queue_map(ibcq->context, &nq, &resp.mi);
	if (!err) {
		rxe_queue_unmap(&cq->q);
		cq->q = nq;
	}
	pthread_spin_unlock(&cq->lock);
	return err;
}

int rxe_destroy_cq(struct ibv_cq *ibcq)
{
	struct rxe_cq *cq = to_rcq(ibcq);
	int err = ibv_cmd_destroy_cq(ibcq);

	if (err)
		return err;
	rxe_queue_unmap(&cq->q);
	cq_free(cq);
	return 0;
}

int rxe_poll_cq(struct ibv_cq *ibcq, int ne, struct ibv_wc *wc)
{
	struct rxe_cq *cq = to_rcq(ibcq);
	int n;

	pthread_spin_lock(&cq->lock);
	for (n = 0; n < ne && !rxe_queue_empty(&cq->q); n++) {
		memcpy(&wc[n], rxe_consumer_slot(&cq->q), sizeof(wc[n]));
		rxe_advance_consumer(&cq->q);
	}
	pthread_spin_unlock(&cq->lock);
	return n;
}

int rxe_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	return ibv_cmd_req_notify_cq(cq, solicited_only);
}
