/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rxe: provider for the kernel's soft-RoCE driver (rdma_rxe), control path
 * only. Context, device/port queries, PD and MR go to the kernel through the
 * ibv_cmd_* helpers; DM and dma-buf requests are passed through so the
 * caller sees the kernel's own answer; everything else keeps the default
 * ops, which fail with EOPNOTSUPP.
 */
#ifndef RXE_H
#define RXE_H

#include <driver.h>

/* The per-device uverbs ABI rdma_rxe reports (2 on 6.1 and 6.12). */
#define RXE_UVERBS_ABI_VERSION 2

struct rxe_device {
	struct verbs_device vdev;
};

struct rxe_context {
	struct verbs_context vctx;
};

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

#endif /* RXE_H */
