// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe's CQ: the kernel writes a struct ib_uverbs_wc at the producer slot
 * of the ring userspace polls, publishes the producer, then fires the
 * completion event if the CQ was armed for it (any CQE, or a solicited
 * one) and disarms it. A full ring loses the CQE: CQ_ERR, -EBUSY.
 */
#include "rxe.h"

#include <errno.h>
#include <string.h>

int rxe_cq_post(struct sim_cq *cq, const struct ib_uverbs_wc *wc, int solicited)
{
	struct rxe_sim_queue *q = cq->obj.drv;
	uint32_t cons = rxe_queue_user_index(q);

	if (((q->index + 1) & q->usable) == cons) {
		sim_async_event(cq->obj.uv, SIM_EVENT_CQ_ERR, &cq->obj);
		return -EBUSY;
	}
	memcpy(rxe_queue_slot(q, q->index), wc, sizeof(*wc));
	rxe_queue_advance(q);
	hca_stats.cqes++;
	if (q->notify == RXE_CQ_NEXT_COMP ||
	    (q->notify == RXE_CQ_SOLICITED && solicited)) {
		q->notify = 0;
		sim_cq_comp_event(cq);
	}
	return 0;
}
