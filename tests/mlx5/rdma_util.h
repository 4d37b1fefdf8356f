/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * RDMA endpoints for the data-path tests under rdma-sim: a CQ and a QP on
 * a given PD, brought to RTS against a peer named by LID and QPN (IB link
 * layer, no GRH, as perftest connects), and a bounded wait for completions.
 */
#ifndef MLX5_RDMA_TEST_UTIL_H
#define MLX5_RDMA_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#define EP_QKEY 0x11111111
#define EP_PSN 0x123

struct rdma_ep {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_comp_channel *channel; /* NULL unless asked for */
	struct ibv_cq *cq;
	struct ibv_cq_ex *cq_ex;	  /* set when created with create_cq_ex */
	struct ibv_qp *qp;
	struct ibv_qp_ex *qpx;		  /* set when created with send ops */
	enum ibv_qp_type type;
	uint16_t lid;
	uint32_t qpn;
};

struct ep_opts {
	enum ibv_qp_type type;
	bool cq_ex;	 /* ibv_create_cq_ex */
	uint64_t wc_flags; /* cq_ex: beyond IBV_WC_STANDARD_FLAGS */
	/* Instead of ibv_create_cq_ex / ibv_create_qp_ex (mlx5dv_...). */
	struct ibv_cq_ex *(*create_cq_ex)(struct ibv_context *ctx,
					  struct ibv_cq_init_attr_ex *attr);
	struct ibv_qp *(*create_qp_ex)(struct ibv_context *ctx,
				       struct ibv_qp_init_attr_ex *attr);
	bool qp_ex;	 /* ibv_create_qp_ex with every send op of the type */
	bool channel;	 /* a completion channel on the CQ */
	/* The CQ belongs to the QP's PD, a parent domain (ibv_create_cq_ex,
	 * IBV_CQ_INIT_ATTR_MASK_PD). */
	bool cq_on_pd;
	bool sig_all;
	struct ibv_srq *srq;
	uint32_t max_inline;
	uint32_t depth;	 /* send and receive WRs, CQEs: 2 * depth */
};

/* 0 or an errno; on error nothing is left allocated. */
int ep_open(struct rdma_ep *ep, struct ibv_context *ctx, struct ibv_pd *pd,
	    const struct ep_opts *o);
/* RESET -> INIT -> RTR -> RTS against (@lid, @qpn). 0 or an errno. */
int ep_connect(struct rdma_ep *ep, uint16_t lid, uint32_t qpn);
void ep_close(struct rdma_ep *ep);

/*
 * ep_open @a on @pa (its context) and @b on @pb, then connect each to the
 * other. 0 or the first errno.
 */
int ep_pair(struct rdma_ep *a, struct ibv_pd *pa, const struct ep_opts *oa,
	    struct rdma_ep *b, struct ibv_pd *pb, const struct ep_opts *ob);

/* Poll until @n completions arrived or 10 s passed; returns how many. */
int ep_poll(struct rdma_ep *ep, struct ibv_wc *wc, int n);

/* Poll @cq for one completion, 10 s at most: true when @wc holds it. */
bool cq_wait(struct ibv_cq *cq, struct ibv_wc *wc);

/* Post one WR with one SGE; 0 or the post's errno. */
int ep_post(struct rdma_ep *ep, enum ibv_wr_opcode op, void *addr,
	    uint32_t len, uint32_t lkey, uint64_t raddr, uint32_t rkey,
	    unsigned int flags, uint64_t wr_id);
/* A CS (@swap used) or FA on 8 bytes at @raddr, result to @addr. */
int ep_atomic(struct rdma_ep *ep, enum ibv_wr_opcode op, void *addr,
	      uint32_t lkey, uint64_t raddr, uint32_t rkey,
	      uint64_t compare_add, uint64_t swap, unsigned int flags);
int ep_recv(struct rdma_ep *ep, void *addr, uint32_t len, uint32_t lkey,
	    uint64_t wr_id);

/* One side's memory: a context, a PD and a zeroed buffer registered on it. */
struct rdma_host {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	uint8_t *buf;
	struct ibv_mr *mr;
};

/*
 * Open @dev, allocate a PD and @len page-aligned bytes registered with
 * @access. 0 or an errno; on error nothing is left allocated.
 */
int host_open(struct rdma_host *h, struct ibv_device *dev, size_t len,
	      unsigned int access);
/* Release all of @h; 0 or the first errno (the rest is released too). */
int host_close(struct rdma_host *h);

/*
 * Create and destroy one QP on @dev, so that rdma-sim's fabric socket
 * (opened at a process's first QP, kept for its life) exists before a
 * test counts fds.
 */
void sim_warm_up(struct ibv_device *dev);

#endif /* MLX5_RDMA_TEST_UTIL_H */
