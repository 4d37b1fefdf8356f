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

/* UVERBS_METHOD_REG_MR (5) attributes (UVERBS_ATTR_REG_MR_*). */
#define RDMA_DM_ATTR_REG_MR_HANDLE	 0 /* IDR new */
#define RDMA_DM_ATTR_REG_MR_PD_HANDLE	 1 /* IDR read */
#define RDMA_DM_ATTR_REG_MR_DMA_HANDLE	 2 /* IDR read, optional */
#define RDMA_DM_ATTR_REG_MR_IOVA	 3 /* u64 */
#define RDMA_DM_ATTR_REG_MR_ADDR	 4 /* u64, optional */
#define RDMA_DM_ATTR_REG_MR_LENGTH	 5 /* u64 */
#define RDMA_DM_ATTR_REG_MR_ACCESS_FLAGS 6 /* flags */
#define RDMA_DM_ATTR_REG_MR_FD		 7 /* raw fd, optional */
#define RDMA_DM_ATTR_REG_MR_FD_OFFSET	 8 /* u64, optional */
#define RDMA_DM_ATTR_REG_MR_RESP_LKEY	 9 /* u32 out */
#define RDMA_DM_ATTR_REG_MR_RESP_RKEY	 10 /* u32 out */

/* UVERBS_OBJECT_DMAH (17): DMA handles (TPH steering tags). */
#define RDMA_DM_METHOD_DMAH_ALLOC		0
#define RDMA_DM_METHOD_DMAH_FREE		1
#define RDMA_DM_ATTR_ALLOC_DMAH_HANDLE		0 /* IDR new */
#define RDMA_DM_ATTR_ALLOC_DMAH_CPU_ID		1 /* u32, optional */
#define RDMA_DM_ATTR_ALLOC_DMAH_TPH_MEM_TYPE	2 /* enum, optional */
#define RDMA_DM_ATTR_ALLOC_DMAH_PH		3 /* u8, optional */
#define RDMA_DM_ATTR_FREE_DMA_HANDLE		0 /* IDR destroy */
/* enum ib_uverbs_tph_mem_type: the TPH_MEM_TYPE enum's elements */
#define RDMA_DM_TPH_MEM_TYPE_VM			0
#define RDMA_DM_TPH_MEM_TYPE_PM			1

/* UVERBS_OBJECT_COMP_CNTR (19) and the methods on other objects. */
#define RDMA_DM_METHOD_COMP_CNTR_CREATE		0
#define RDMA_DM_METHOD_COMP_CNTR_DESTROY	1
#define RDMA_DM_METHOD_COMP_CNTR_MODIFY		2
#define RDMA_DM_METHOD_COMP_CNTR_READ		3
#define RDMA_DM_METHOD_QUERY_COMP_CNTR_CAPS	8 /* on DEVICE */
#define RDMA_DM_METHOD_QP_ATTACH_COMP_CNTR	2 /* on QP */

/* device_cap_flags_ex: the device needs DMA bounce buffers (CoCo guest). */
#define RDMA_DM_DEVICE_CC_DMA_BOUNCE	(1ULL << 41)

/* mlx5: access flags attribute on REG_DMABUF_MR, not in 6.1. */
#define RDMA_DM_MLX5_ATTR_REG_DMABUF_MR_ACCESS_FLAGS 0x1000

/* mlx5 DM type ENCAP_SW_ICM, not in 6.1. */
#define RDMA_DM_MLX5_DM_TYPE_ENCAP_SW_ICM 4

/* GET_CONTEXT/QUERY_CONTEXT core support bit after 6.1. */
#define RDMA_DM_CORE_SUPPORT_ROBUST_UDATA (1ULL << 1)

#endif /* RDMA_DM_UAPI_H */
