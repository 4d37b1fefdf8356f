/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * uAPI ids that newer kernels have and Debian 12's linux-libc-dev (6.1) does
 * not. The system headers are included first, so if a newer libc-dev already
 * declares one of these as an enum member the macro below only restates the
 * same value for later uses.
 */
#ifndef RDMA_DM_UAPI_H
#define RDMA_DM_UAPI_H

#include <linux/types.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>

/* Namespaces of object, method and attribute ids (top 4 bits). */
#define RDMA_DM_ID_DRIVER_NS		0x1000
#define RDMA_DM_ID_DRIVER_NS_WITH_UHW	0x1002

/* Objects added after 6.1. */
#define RDMA_DM_OBJECT_DMAH		17
#define RDMA_DM_OBJECT_DMABUF		18
#define RDMA_DM_OBJECT_COMP_CNTR	19

/* UVERBS_OBJECT_DMABUF / UVERBS_METHOD_DMABUF_ALLOC */
#define RDMA_DM_METHOD_DMABUF_ALLOC	0
#define RDMA_DM_ATTR_ALLOC_DMABUF_HANDLE 0 /* FD, new, mandatory */
#define RDMA_DM_ATTR_ALLOC_DMABUF_PGOFF	1  /* u64 mmap byte offset */

/* UVERBS_METHOD_GET_CONTEXT: fd array input, not in 6.1. */
#define RDMA_DM_ATTR_GET_CONTEXT_FD_ARR	2

/* Device methods after 6.1. */
#define RDMA_DM_METHOD_QUERY_PORT_SPEED	7

/* MR methods after 6.1. */
#define RDMA_DM_METHOD_REG_MR		5

/* mlx5: access flags attribute on REG_DMABUF_MR, not in 6.1. */
#define RDMA_DM_MLX5_ATTR_REG_DMABUF_MR_ACCESS_FLAGS 0x1000

/* mlx5 DM type ENCAP_SW_ICM, not in 6.1. */
#define RDMA_DM_MLX5_DM_TYPE_ENCAP_SW_ICM 4

/* GET_CONTEXT/QUERY_CONTEXT core support bit after 6.1. */
#define RDMA_DM_CORE_SUPPORT_ROBUST_UDATA (1ULL << 1)

#endif /* RDMA_DM_UAPI_H */
