/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The RDMA part of ibv_dm_export: an RC queue pair from the owner context
 * (a host buffer) to the importer context, whose dma-buf MR is the target
 * of RDMA WRITE and READ.
 */
#ifndef DM_EXPORT_RDMA_H
#define DM_EXPORT_RDMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

struct rdma_link {
	/* initiator, on the owner context */
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	uint8_t *host;
	struct ibv_mr *host_mr;
	/* target, on the importer context and its PD */
	struct ibv_cq *tcq;
	struct ibv_qp *tqp;
};

/* 0 or an errno, *what says which verb failed; partial state is kept
 * for rdma_link_close(). */
int rdma_link_open(struct rdma_link *l, struct ibv_context *owner,
		   struct ibv_context *importer, struct ibv_pd *importer_pd,
		   size_t size, const char **what);
void rdma_link_close(struct rdma_link *l);

/* One signaled RDMA WRITE or READ of @len bytes between l->host and the
 * remote (@rkey, @raddr), waited for: 0, an errno, or -(wc status)-1000. */
int rdma_link_xfer(struct rdma_link *l, bool write, size_t len,
		   uint32_t rkey, uint64_t raddr);

#endif /* DM_EXPORT_RDMA_H */
