// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The SRQ ring at run time: posting receives along the free list and
 * chaining completed WQEs back at its tail.
 */
#include <errno.h>

#include "datapath.h"
#include "doorbell.h"

/* Called with the CQ lock (poll, clean); the SRQ lock orders it with post. */
void mlx5_free_srq_wqe(struct mlx5_srq *srq, int idx)
{
	pthread_spin_lock(&srq->lock);
	mlx5_srq_next(srq, srq->tail)->next_wqe_index = htobe16((uint16_t)idx);
	srq->tail = idx;
	pthread_spin_unlock(&srq->lock);
}

int mlx5_post_srq_recv(struct ibv_srq *ibsrq, struct ibv_recv_wr *wr,
		       struct ibv_recv_wr **bad_wr)
{
	struct mlx5_srq *srq = to_msrq(ibsrq);
	struct mlx5_wqe_data_seg *seg;
	unsigned int nreq = 0;
	int err = 0, i;

	pthread_spin_lock(&srq->lock);
	for (; wr; wr = wr->next, nreq++) {
		if (wr->num_sge > srq->max_gs) {
			err = EINVAL;
			break;
		}
		if (srq->head == srq->tail) {
			err = ENOMEM;
			break;
		}
		seg = (struct mlx5_wqe_data_seg *)(mlx5_srq_next(srq, srq->head) +
						   1);
		for (i = 0; i < wr->num_sge; i++)
			mlx5dv_set_data_seg(seg + i, wr->sg_list[i].length,
					    wr->sg_list[i].lkey,
					    (uintptr_t)wr->sg_list[i].addr);
		if (i < srq->max_gs)
			mlx5dv_set_data_seg(seg + i, 0, MLX5_INVALID_LKEY, 0);
		srq->wrid[srq->head] = wr->wr_id;
		srq->head = be16toh(mlx5_srq_next(srq, srq->head)->next_wqe_index);
	}
	if (err)
		*bad_wr = wr;
	if (nreq) {
		srq->counter += (uint16_t)nreq;
		udma_to_device_barrier();
		mlx5_set_dbrec(&srq->db[0], srq->counter);
	}
	pthread_spin_unlock(&srq->lock);
	return err;
}
