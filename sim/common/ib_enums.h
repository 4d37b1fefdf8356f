/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The one numbering of QP states, QP types, modify_qp attribute mask bits
 * and access flags for all of rdma-sim (core, drivers, HCA), under the
 * kernel's names (ib_verbs.h). The uAPI fixes every value: QP types and
 * access flags are those of <rdma/ib_user_verbs.h> and
 * <rdma/ib_user_ioctl_verbs.h>, the states and mask bits are the ones
 * struct ib_uverbs_modify_qp carries.
 */
#ifndef RDMA_SIM_IB_ENUMS_H
#define RDMA_SIM_IB_ENUMS_H

#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>

/* enum ib_qp_state */
enum ib_qp_state {
	IB_QPS_RESET,
	IB_QPS_INIT,
	IB_QPS_RTR,
	IB_QPS_RTS,
	IB_QPS_SQD,
	IB_QPS_SQE,
	IB_QPS_ERR,
};

/* enum ib_qp_type: SMI and GSI are the kernel's own QPs 0 and 1 */
enum ib_qp_type {
	IB_QPT_SMI = 0,
	IB_QPT_GSI = 1,
	IB_QPT_RC = IB_UVERBS_QPT_RC,
	IB_QPT_UC = IB_UVERBS_QPT_UC,
	IB_QPT_UD = IB_UVERBS_QPT_UD,
	IB_QPT_RAW_PACKET = IB_UVERBS_QPT_RAW_PACKET,
	IB_QPT_XRC_INI = IB_UVERBS_QPT_XRC_INI,
	IB_QPT_XRC_TGT = IB_UVERBS_QPT_XRC_TGT,
	IB_QPT_DRIVER = IB_UVERBS_QPT_DRIVER,
};

/* enum ib_qp_attr_mask: the fields a modify_qp sets */
enum ib_qp_attr_mask {
	IB_QP_STATE = 1 << 0,
	IB_QP_CUR_STATE = 1 << 1,
	IB_QP_EN_SQD_ASYNC_NOTIFY = 1 << 2,
	IB_QP_ACCESS_FLAGS = 1 << 3,
	IB_QP_PKEY_INDEX = 1 << 4,
	IB_QP_PORT = 1 << 5,
	IB_QP_QKEY = 1 << 6,
	IB_QP_AV = 1 << 7,
	IB_QP_PATH_MTU = 1 << 8,
	IB_QP_TIMEOUT = 1 << 9,
	IB_QP_RETRY_CNT = 1 << 10,
	IB_QP_RNR_RETRY = 1 << 11,
	IB_QP_RQ_PSN = 1 << 12,
	IB_QP_MAX_QP_RD_ATOMIC = 1 << 13,
	IB_QP_ALT_PATH = 1 << 14,
	IB_QP_MIN_RNR_TIMER = 1 << 15,
	IB_QP_SQ_PSN = 1 << 16,
	IB_QP_MAX_DEST_RD_ATOMIC = 1 << 17,
	IB_QP_PATH_MIG_STATE = 1 << 18,
	IB_QP_CAP = 1 << 19,
	IB_QP_DEST_QPN = 1 << 20,
	IB_QP_RATE_LIMIT = 1 << 25,
};
/* The bits every kernel knows (IB_QP_DEST_QPN and below). */
#define IB_QP_STANDARD_BITS ((1 << 21) - 1)

/* enum ib_access_flags: an MR's, MW's or QP's rights */
enum ib_access_flags {
	IB_ACCESS_LOCAL_WRITE = IB_UVERBS_ACCESS_LOCAL_WRITE,
	IB_ACCESS_REMOTE_WRITE = IB_UVERBS_ACCESS_REMOTE_WRITE,
	IB_ACCESS_REMOTE_READ = IB_UVERBS_ACCESS_REMOTE_READ,
	IB_ACCESS_REMOTE_ATOMIC = IB_UVERBS_ACCESS_REMOTE_ATOMIC,
	IB_ACCESS_MW_BIND = IB_UVERBS_ACCESS_MW_BIND,
	IB_ACCESS_ZERO_BASED = IB_UVERBS_ACCESS_ZERO_BASED,
	IB_ACCESS_ON_DEMAND = IB_UVERBS_ACCESS_ON_DEMAND,
};

#endif
