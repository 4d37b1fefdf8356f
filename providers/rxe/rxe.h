/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rxe: provider for the kernel's soft-RoCE driver (rdma_rxe). Control
 * objects go to the kernel through the ibv_cmd_* helpers; DM and dma-buf
 * requests are passed through so the caller sees the kernel's own answer.
 * The data path runs on rings the kernel maps (queue.h): WQEs are written
 * into the SQ/RQ/SRQ rings, a zero-WR POST_SEND write() makes the kernel
 * run the requester, and completions are read from the CQ ring.
 */
#ifndef RXE_H
#define RXE_H

#include <pthread.h>
#include <driver.h>

#include "queue.h"

/* The per-device uverbs ABI rdma_rxe reports (2 on 6.1 and 6.12). */
#define RXE_UVERBS_ABI_VERSION 2

struct rxe_device {
	struct verbs_device vdev;
};

struct rxe_context {
	struct verbs_context vctx;
};

struct rxe_cq {
	struct verbs_cq vcq;
	struct rxe_queue q;
	pthread_spinlock_t lock;
	/* Extended poll: the completion start/next_poll stopped at. */
	struct ib_uverbs_wc *cur;
};

struct rxe_qp {
	struct verbs_qp vqp;
	struct rxe_wq sq;
	struct rxe_wq rq; /* ring unmapped when the QP uses an SRQ */
	/* ibv_wr_* state between wr_start and wr_complete/abort. */
	uint32_t wr_index;
	int wr_err;
};

struct rxe_srq {
	struct verbs_srq vsrq;
	struct rxe_wq rq;
};

struct rxe_ah {
	struct ibv_ah ibv_ah;
	uint32_t ah_num;
};

static inline struct rxe_context *to_rctx(struct ibv_context *ctx)
{
	return (struct rxe_context *)verbs_get_ctx(ctx);
}

static inline struct rxe_cq *to_rcq(struct ibv_cq *cq)
{
	return (struct rxe_cq *)cq;
}

static inline struct rxe_qp *to_rqp(struct ibv_qp *qp)
{
	return (struct rxe_qp *)qp;
}

static inline struct rxe_srq *to_rsrq(struct ibv_srq *srq)
{
	return (struct rxe_srq *)srq;
}

static inline struct rxe_ah *to_rah(struct ibv_ah *ah)
{
	return (struct rxe_ah *)ah;
}

/* rxe_context.c */
struct verbs_context *rxe_alloc_context(struct ibv_device *ibdev, int cmd_fd,
					void *private_data);

/* rxe_query.c */
int rxe_query_device_ex(struct ibv_context *ctx,
			const struct ibv_query_device_ex_input *input,
			struct ibv_device_attr_ex *attr, size_t attr_size);
int rxe_query_port(struct ibv_context *ctx, uint8_t port_num,
		   struct ibv_port_attr *attr);

/* rxe_pd_mr.c */
struct ibv_pd *rxe_alloc_pd(struct ibv_context *ctx);
int rxe_dealloc_pd(struct ibv_pd *pd);
struct ibv_mr *rxe_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			  uint64_t hca_va, int access);
struct ibv_mr *rxe_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
				 size_t length, uint64_t iova, int fd,
				 int access);
int rxe_dereg_mr(struct verbs_mr *vmr);

/* rxe_dm.c */
struct ibv_dm *rxe_alloc_dm(struct ibv_context *ctx,
			    struct ibv_alloc_dm_attr *attr);
int rxe_free_dm(struct ibv_dm *dm);
int rxe_dm_export_dmabuf_fd(struct ibv_dm *dm);

/* cq.c */
struct ibv_cq *rxe_create_cq(struct ibv_context *ctx, int cqe,
			     struct ibv_comp_channel *channel, int comp_vector);
struct ibv_cq_ex *rxe_create_cq_ex(struct ibv_context *ctx,
				   struct ibv_cq_init_attr_ex *attr);
int rxe_resize_cq(struct ibv_cq *cq, int cqe);
int rxe_destroy_cq(struct ibv_cq *cq);
int rxe_poll_cq(struct ibv_cq *cq, int ne, struct ibv_wc *wc);
int rxe_req_notify_cq(struct ibv_cq *cq, int solicited_only);

/* cq_ex.c */
void rxe_cq_ex_set_ops(struct rxe_cq *cq);

/* qp.c */
struct ibv_qp *rxe_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr);
struct ibv_qp *rxe_create_qp_ex(struct ibv_context *ctx,
				struct ibv_qp_init_attr_ex *attr);
int rxe_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask);
int rxe_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
		 struct ibv_qp_init_attr *init_attr);
int rxe_destroy_qp(struct ibv_qp *qp);
int rxe_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
		  struct ibv_recv_wr **bad_wr);

/* send.c: the old post API and the WQE builders both APIs share. */
int rxe_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
		  struct ibv_send_wr **bad_wr);
int rxe_ring_doorbell(struct rxe_qp *qp);
struct rxe_send_wqe *rxe_wqe_start(struct rxe_qp *qp, uint32_t idx,
				   uint64_t wr_id, uint32_t opcode,
				   uint32_t flags);
void rxe_wqe_rdma(struct rxe_send_wqe *wqe, uint32_t rkey, uint64_t raddr);
void rxe_wqe_atomic(struct rxe_send_wqe *wqe, uint32_t rkey, uint64_t raddr,
		    uint64_t compare_add, uint64_t swap);
void rxe_wqe_ud(struct rxe_send_wqe *wqe, struct ibv_ah *ah, uint32_t qpn,
		uint32_t qkey);
int rxe_wqe_add_sge(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
		    const struct ibv_sge *sge);
int rxe_wqe_add_inline(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
		       const void *addr, size_t len);

/* mw.c: memory windows; the BIND_MW WQE fields both post APIs fill. */
int rxe_bind_mw(struct ibv_qp *qp, struct ibv_mw *mw,
		struct ibv_mw_bind *mw_bind);
void rxe_wqe_bind(struct rxe_send_wqe *wqe, struct ibv_mw *mw, uint32_t rkey,
		  const struct ibv_mw_bind_info *info);

/* qp_ex.c: the ibv_wr_* API. check: 0, or EOPNOTSUPP for an op rxe
 * cannot do on that QP type. */
int rxe_qp_ex_check(enum ibv_qp_type type, uint64_t send_ops);
void rxe_qp_ex_set_ops(struct rxe_qp *qp);

/* srq.c */
struct ibv_srq *rxe_create_srq(struct ibv_pd *pd,
			       struct ibv_srq_init_attr *attr);
struct ibv_srq *rxe_create_srq_ex(struct ibv_context *ctx,
				  struct ibv_srq_init_attr_ex *attr);
int rxe_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr, int mask);
int rxe_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr);
int rxe_destroy_srq(struct ibv_srq *srq);
int rxe_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr,
		      struct ibv_recv_wr **bad_wr);

/* ah.c */
struct ibv_ah *rxe_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr);
int rxe_destroy_ah(struct ibv_ah *ah);

#endif /* RXE_H */
