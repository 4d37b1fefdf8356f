// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <stdlib.h>
#include <string.h>

#include "dp_fixture.h"

#define FX_CQES 8
#define FX_QPN 0x123
#define FX_UIDX 5

void fx_init(struct dp_fixture *fx, enum ibv_qp_type type,
	     unsigned int sq_bbs, unsigned int rq_wqes, unsigned int bf_size)
{
	struct mlx5_qp *qp;
	struct mlx5_cq *cq;
	size_t rq_bytes = (size_t)rq_wqes * 16;

	memset(fx, 0, sizeof(*fx));
	mlx5_rsc_table_init(&fx->rsc);
	qp = calloc(1, sizeof(*qp));
	qp->qp_type = type;
	qp->qpn = FX_QPN;
	qp->verbs_qp.qp.qp_num = FX_QPN;
	qp->verbs_qp.qp.qp_type = type;
	mlx5_alloc_buf(&qp->buf, rq_bytes + (size_t)sq_bbs * 64, 4096);
	qp->rq.wqe_cnt = rq_wqes;
	qp->rq.wqe_shift = 4;
	qp->rq.max_post = rq_wqes;
	qp->rq.max_gs = 1;
	qp->rq.qp_state_max_gs = -1;
	qp->rq.wrid = calloc(rq_wqes ? rq_wqes : 1, sizeof(uint64_t));
	qp->sq.offset = (unsigned int)rq_bytes;
	qp->sq.wqe_cnt = sq_bbs;
	qp->sq.wqe_shift = 6;
	qp->sq.max_post = sq_bbs;
	qp->sq.max_gs = 4;
	qp->sq.qp_state_max_gs = -1;
	qp->sq.wrid = calloc(sq_bbs, sizeof(uint64_t));
	qp->sq.wqe_head = calloc(sq_bbs, sizeof(unsigned int));
	qp->sq.umr_inv = calloc(sq_bbs, 1);
	qp->sq_start = (uint8_t *)qp->buf.addr + rq_bytes;
	qp->sq_end = qp->sq_start + (size_t)sq_bbs * 64;
	qp->max_inline_data = 60;
	qp->atomics = true;
	qp->prefer_bf = true;
	qp->single_threaded = true;
	qp->db = fx->qp_db;
	qp->send_ops = mlx5_default_send_ops(type);
	fx->bf.reg = fx->reg;
	fx->bf.buf_size = bf_size;
	qp->bf = &fx->bf;
	mlx5_qp_init_wqe_consts(qp);
	qp->rsc.type = MLX5_RSC_QP;
	mlx5_rsc_store(&fx->rsc, FX_UIDX, &qp->rsc);
	fx->qp = qp;

	cq = calloc(1, sizeof(*cq));
	mlx5_alloc_buf(&cq->bufs[0], FX_CQES * 64, 4096);
	cq->active = &cq->bufs[0];
	cq->ncqe = FX_CQES;
	cq->cqe_sz = 64;
	mlx5_cq_init_buf(cq->active, FX_CQES, 64);
	cq->dbrec = fx->cq_db;
	cq->cqe_version = 1;
	cq->rsc = &fx->rsc;
	cq->single_threaded = true;
	pthread_spin_init(&cq->lock, PTHREAD_PROCESS_PRIVATE);
	qp->verbs_qp.qp.send_cq = &cq->verbs_cq.cq;
	qp->verbs_qp.qp.recv_cq = &cq->verbs_cq.cq;
	fx->cq = cq;
}

void fx_rts(struct dp_fixture *fx)
{
	fx->qp->rq.qp_state_max_gs = fx->qp->rq.max_gs;
	fx->qp->sq.qp_state_max_gs = fx->qp->sq.max_gs;
}

void fx_cleanup(struct dp_fixture *fx)
{
	mlx5_free_buf(&fx->qp->buf);
	free(fx->qp->rq.wrid);
	free(fx->qp->sq.wrid);
	free(fx->qp->sq.wqe_head);
	free(fx->qp->sq.umr_inv);
	free(fx->qp);
	mlx5_free_buf(&fx->cq->bufs[0]);
	pthread_spin_destroy(&fx->cq->lock);
	free(fx->cq);
	mlx5_rsc_table_cleanup(&fx->rsc);
}

void fx_cq_128(struct dp_fixture *fx)
{
	struct mlx5_cq *cq = fx->cq;

	mlx5_free_buf(&cq->bufs[0]);
	mlx5_alloc_buf(&cq->bufs[0], FX_CQES * 128, 4096);
	cq->cqe_sz = 128;
	mlx5_cq_init_buf(cq->active, FX_CQES, 128);
}

struct mlx5_cqe64 *fx_cqe(struct dp_fixture *fx, uint32_t n, uint8_t opcode,
			  uint16_t wqe_counter, uint32_t qpn)
{
	uint32_t sz = fx->cq->cqe_sz;
	struct mlx5_cqe64 *cqe = (struct mlx5_cqe64 *)
		((uint8_t *)fx->cq->active->addr + (n & (FX_CQES - 1)) * sz +
		 sz - 64);

	memset(cqe, 0, sizeof(*cqe));
	cqe->srqn_uidx = htobe32(FX_UIDX);
	cqe->sop_drop_qpn = htobe32(qpn);
	cqe->wqe_counter = htobe16(wqe_counter);
	cqe->op_own = (uint8_t)(opcode << 4 | !!(n & FX_CQES));
	return cqe;
}

/* device.c is not linked: every context here is an mlx5 one. */
bool mlx5_is_mlx5_context(struct ibv_context *ibctx)
{
	return true;
}
