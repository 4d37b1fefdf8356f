// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Receive WQEs, for a QP's RQ and for an SRQ alike. No doorbell: the
 * kernel's responder reads the ring when a packet arrives.
 */
#include <errno.h>
#include <string.h>

#include "rxe.h"

static int post_one_recv(struct rxe_wq *wq, struct ibv_recv_wr *wr)
{
	uint32_t idx = rxe_producer(&wq->q);
	struct rxe_recv_wqe *wqe;
	uint32_t len = 0;
	int i;

	if (rxe_queue_full_at(&wq->q, idx))
		return ENOMEM;
	if (wr->num_sge < 0 || (uint32_t)wr->num_sge > wq->max_sge)
		return EINVAL;
	wqe = rxe_slot(&wq->q, idx);
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr_id = wr->wr_id;
	for (i = 0; i < wr->num_sge; i++) {
		wqe->dma.sge[i].addr = wr->sg_list[i].addr;
		wqe->dma.sge[i].length = wr->sg_list[i].length;
		wqe->dma.sge[i].lkey = wr->sg_list[i].lkey;
		len += wr->sg_list[i].length;
	}
	wqe->dma.length = len;
	wqe->dma.resid = len;
	wqe->dma.num_sge = (uint32_t)wr->num_sge;
	rxe_publish_producer(&wq->q, idx + 1);
	return 0;
}

int rxe_post_recv_list(struct rxe_wq *wq, struct ibv_recv_wr *wr,
		       struct ibv_recv_wr **bad_wr)
{
	int err = 0;

	pthread_spin_lock(&wq->lock);
	for (; wr; wr = wr->next) {
		err = post_one_recv(wq, wr);
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	pthread_spin_unlock(&wq->lock);
	return err;
}
