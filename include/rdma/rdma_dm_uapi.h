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

/* UVERBS_OBJECT_DMAH: DMA handles (TPH hints). */
#define RDMA_DM_METHOD_DMAH_ALLOC	0
#define RDMA_DM_METHOD_DMAH_FREE	1
#define RDMA_DM_ATTR_ALLOC_DMAH_HANDLE	0 /* IDR new */
#define RDMA_DM_ATTR_ALLOC_DMAH_CPU_ID	1 /* u32 */
#define RDMA_DM_ATTR_ALLOC_DMAH_TPH_MEM_TYPE 2 /* enum, elem_id = type */
#define RDMA_DM_ATTR_ALLOC_DMAH_PH	3 /* u8 */
#define RDMA_DM_ATTR_FREE_DMA_HANDLE	0 /* IDR destroy */
#define RDMA_DM_TPH_MEM_TYPE_VM		0
#define RDMA_DM_TPH_MEM_TYPE_PM		1

/* UVERBS_OBJECT_MR / UVERBS_METHOD_REG_MR attributes. */
#define RDMA_DM_ATTR_REG_MR_HANDLE	0  /* IDR new */
#define RDMA_DM_ATTR_REG_MR_PD_HANDLE	1  /* IDR in */
#define RDMA_DM_ATTR_REG_MR_DMA_HANDLE	2  /* IDR in, optional */
#define RDMA_DM_ATTR_REG_MR_IOVA	3  /* u64 */
#define RDMA_DM_ATTR_REG_MR_ADDR	4  /* u64 */
#define RDMA_DM_ATTR_REG_MR_LENGTH	5  /* u64 */
#define RDMA_DM_ATTR_REG_MR_ACCESS_FLAGS 6 /* u32 */
#define RDMA_DM_ATTR_REG_MR_FD		7  /* raw fd */
#define RDMA_DM_ATTR_REG_MR_FD_OFFSET	8  /* u64 */
#define RDMA_DM_ATTR_REG_MR_RESP_LKEY	9  /* out u32 */
#define RDMA_DM_ATTR_REG_MR_RESP_RKEY	10 /* out u32 */

/* UVERBS_OBJECT_COMP_CNTR: completion counters. */
#define RDMA_DM_METHOD_COMP_CNTR_CREATE	0
#define RDMA_DM_METHOD_COMP_CNTR_DESTROY 1
#define RDMA_DM_METHOD_COMP_CNTR_MODIFY	2
#define RDMA_DM_METHOD_COMP_CNTR_READ	3
#define RDMA_DM_ATTR_CREATE_COMP_CNTR_HANDLE 0	/* IDR new */
#define RDMA_DM_ATTR_DESTROY_COMP_CNTR_HANDLE 0	/* IDR destroy */
#define RDMA_DM_ATTR_MODIFY_COMP_CNTR_HANDLE 0	/* IDR write */
#define RDMA_DM_ATTR_MODIFY_COMP_CNTR_ENTRY 1	/* const u64 */
#define RDMA_DM_ATTR_MODIFY_COMP_CNTR_OP 2	/* const u64 */
#define RDMA_DM_ATTR_MODIFY_COMP_CNTR_VALUE 3	/* u64 */
#define RDMA_DM_ATTR_READ_COMP_CNTR_HANDLE 0	/* IDR read */
#define RDMA_DM_ATTR_READ_COMP_CNTR_ENTRY 1	/* const u64 */
#define RDMA_DM_ATTR_READ_COMP_CNTR_RESP_VALUE 2 /* out u64 */
#define RDMA_DM_COMP_CNTR_ENTRY_COMP	0
#define RDMA_DM_COMP_CNTR_ENTRY_ERR	1
#define RDMA_DM_COMP_CNTR_OP_SET	0
#define RDMA_DM_COMP_CNTR_OP_INC	1

/* UVERBS_OBJECT_DEVICE / UVERBS_METHOD_QUERY_COMP_CNTR_CAPS. */
#define RDMA_DM_METHOD_QUERY_COMP_CNTR_CAPS 8
#define RDMA_DM_ATTR_COMP_CNTR_CAPS_MAX_COUNTERS 0 /* out u32 */
#define RDMA_DM_ATTR_COMP_CNTR_CAPS_MAX_VALUE 1 /* out u64 */
#define RDMA_DM_ATTR_COMP_CNTR_CAPS_QP_ATTACH_OPS 2 /* out u32 */

/* UVERBS_OBJECT_QP / UVERBS_METHOD_QP_ATTACH_COMP_CNTR. */
#define RDMA_DM_METHOD_QP_ATTACH_COMP_CNTR 2
#define RDMA_DM_ATTR_QP_ATTACH_COMP_CNTR_QP_HANDLE 0 /* IDR write */
#define RDMA_DM_ATTR_QP_ATTACH_COMP_CNTR_HANDLE 1 /* IDR write */
#define RDMA_DM_ATTR_QP_ATTACH_COMP_CNTR_OP_MASK 2 /* u32 */
#define RDMA_DM_QP_ATTACH_COMP_CNTR_OP_SEND		(1U << 0)
#define RDMA_DM_QP_ATTACH_COMP_CNTR_OP_RECV		(1U << 1)
#define RDMA_DM_QP_ATTACH_COMP_CNTR_OP_RDMA_READ	(1U << 2)
#define RDMA_DM_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_READ	(1U << 3)
#define RDMA_DM_QP_ATTACH_COMP_CNTR_OP_RDMA_WRITE	(1U << 4)
#define RDMA_DM_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_WRITE (1U << 5)

/*
 * Device capability (device_cap_flags_ex): the device must DMA through
 * bounce memory shared with the host (a confidential-computing guest).
 */
#define RDMA_DM_DEVICE_CC_DMA_BOUNCE	(1ULL << 41)

/* Pre-allocated ring buffers (ib_uverbs_buffer_desc, 32 bytes). */
#define RDMA_DM_BUFFER_DESC_TYPE_DMABUF	0
#define RDMA_DM_BUFFER_DESC_TYPE_VA	1
struct rdma_dm_buffer_desc {
	__u32 type;
	__s32 fd;
	__u32 flags; /* must be 0 */
	__u32 optional_flags;
	__aligned_u64 addr; /* offset in the dma-buf, or a VA */
	__aligned_u64 length;
};
#define RDMA_DM_ATTR_CREATE_CQ_BUF_UMEM	12
#define RDMA_DM_ATTR_CREATE_QP_BUF_UMEM	15
#define RDMA_DM_ATTR_CREATE_QP_RQ_BUF_UMEM 16
#define RDMA_DM_ATTR_CREATE_QP_SQ_BUF_UMEM 17
#define RDMA_DM_MLX5_ATTR_CREATE_QP_DBR_BUF_UMEM 0x1002
#define RDMA_DM_MLX5_ATTR_CREATE_CQ_DBR_BUF_UMEM 0x1003

/*
 * mlx5 out-of-order receive WR consumption (kernel 6.13, after Debian's
 * 6.12): the query-device response flag (the firmware forces data-path
 * ordering for some QP type) and mlx5_ib_modify_qp.comp_mask's request.
 */
#define RDMA_DM_MLX5_QUERY_DEV_RESP_FLAGS_OOO_DP (1U << 4)
#define RDMA_DM_MLX5_MODIFY_QP_OOO_DP		 (1U << 0)

#endif /* RDMA_DM_UAPI_H */
