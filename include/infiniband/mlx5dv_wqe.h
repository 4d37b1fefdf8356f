/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The mlx5 hardware formats of <infiniband/mlx5dv.h>: send/receive WQE
 * segments, CQEs, their opcodes and the inline helpers direct-verbs users
 * post with. Every multi-byte field is big-endian, as the HCA reads it.
 * Names, values and layouts are upstream's; included by mlx5dv.h.
 */
#ifndef INFINIBAND_MLX5DV_WQE_H
#define INFINIBAND_MLX5DV_WQE_H

#include <endian.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/tm_types.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MLX5DV_ALWAYS_INLINE inline __attribute__((always_inline))

enum {
	MLX5_RCV_DBR = 0,
	MLX5_SND_DBR = 1,
};

enum {
	MLX5_OPCODE_NOP = 0x00,
	MLX5_OPCODE_SEND_INVAL = 0x01,
	MLX5_OPCODE_RDMA_WRITE = 0x08,
	MLX5_OPCODE_RDMA_WRITE_IMM = 0x09,
	MLX5_OPCODE_SEND = 0x0a,
	MLX5_OPCODE_SEND_IMM = 0x0b,
	MLX5_OPCODE_TSO = 0x0e,
	MLX5_OPCODE_RDMA_READ = 0x10,
	MLX5_OPCODE_ATOMIC_CS = 0x11,
	MLX5_OPCODE_ATOMIC_FA = 0x12,
	MLX5_OPCODE_ATOMIC_MASKED_CS = 0x14,
	MLX5_OPCODE_ATOMIC_MASKED_FA = 0x15,
	MLX5_OPCODE_FMR = 0x19,
	MLX5_OPCODE_LOCAL_INVAL = 0x1b,
	MLX5_OPCODE_CONFIG_CMD = 0x1f,
	MLX5_OPCODE_SET_PSV = 0x20,
	MLX5_OPCODE_UMR = 0x25,
	MLX5_OPCODE_TAG_MATCHING = 0x28,
	MLX5_OPCODE_FLOW_TBL_ACCESS = 0x2c,
	MLX5_OPCODE_MMO = 0x2f,
};

/* ---------------------------------------------------------------- */
/* Completion queue entries                                           */

enum {
	MLX5_INLINE_SCATTER_32 = 0x4,
	MLX5_INLINE_SCATTER_64 = 0x8,
};

enum {
	MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR = 0x01,
	MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR = 0x02,
	MLX5_CQE_SYNDROME_LOCAL_PROT_ERR = 0x04,
	MLX5_CQE_SYNDROME_WR_FLUSH_ERR = 0x05,
	MLX5_CQE_SYNDROME_MW_BIND_ERR = 0x06,
	MLX5_CQE_SYNDROME_BAD_RESP_ERR = 0x10,
	MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR = 0x11,
	MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR = 0x12,
	MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR = 0x13,
	MLX5_CQE_SYNDROME_REMOTE_OP_ERR = 0x14,
	MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR = 0x15,
	MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR = 0x16,
	MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR = 0x22,
};

enum {
	MLX5_CQE_VENDOR_SYNDROME_ODP_PFAULT = 0x93,
};

enum {
	MLX5_CQE_L2_OK = 1 << 0,
	MLX5_CQE_L3_OK = 1 << 1,
	MLX5_CQE_L4_OK = 1 << 2,
};

enum {
	MLX5_CQE_L3_HDR_TYPE_NONE = 0x0,
	MLX5_CQE_L3_HDR_TYPE_IPV6 = 0x1,
	MLX5_CQE_L3_HDR_TYPE_IPV4 = 0x2,
};

enum {
	MLX5_CQE_OWNER_MASK = 1,
	MLX5_CQE_REQ = 0,
	MLX5_CQE_RESP_WR_IMM = 1,
	MLX5_CQE_RESP_SEND = 2,
	MLX5_CQE_RESP_SEND_IMM = 3,
	MLX5_CQE_RESP_SEND_INV = 4,
	MLX5_CQE_RESIZE_CQ = 5,
	MLX5_CQE_NO_PACKET = 6,
	MLX5_CQE_SIG_ERR = 12,
	MLX5_CQE_REQ_ERR = 13,
	MLX5_CQE_RESP_ERR = 14,
	MLX5_CQE_INVALID = 15,
};

enum {
	MLX5_CQ_DOORBELL = 0x20,
};

enum {
	MLX5_CQ_DB_REQ_NOT_SOL = 1 << 24,
	MLX5_CQ_DB_REQ_NOT = 0 << 24,
};

/* The overlay of struct mlx5_cqe64 that error CQEs use. */
struct mlx5_err_cqe {
	uint8_t rsvd0[32];
	uint32_t srqn;
	uint8_t rsvd1[18];
	uint8_t vendor_err_synd;
	uint8_t syndrome;
	uint32_t s_wqe_opcode_qpn;
	uint16_t wqe_counter;
	uint8_t signature;
	uint8_t op_own;
};

struct mlx5_tm_cqe {
	__be32 success;
	__be16 hw_phase_cnt;
	uint8_t rsvd0[12];
};

/* 64 bytes; in a 128-byte CQE it is the second half. */
struct mlx5_cqe64 {
	union {
		/* Anonymous as upstream (a GNU extension in C++). */
		__extension__ struct {
			uint8_t rsvd0[2];
			__be16 wqe_id;
			uint8_t rsvd4[13];
			uint8_t ml_path;
			uint8_t rsvd20[4];
			__be16 slid;
			__be32 flags_rqpn;
			uint8_t hds_ip_ext;
			uint8_t l4_hdr_type_etc;
			__be16 vlan_info;
		};
		struct mlx5_tm_cqe tm_cqe;
		struct ibv_tmh tmh; /* scattered on a tag match */
	};
	__be32 srqn_uidx;
	__be32 imm_inval_pkey;
	uint8_t app;
	uint8_t app_op;
	__be16 app_info;
	__be32 byte_cnt;
	__be64 timestamp;
	__be32 sop_drop_qpn;
	__be16 wqe_counter;
	uint8_t signature;
	uint8_t op_own;
};

enum {
	MLX5_TMC_SUCCESS = 0x80000000U,
};

static MLX5DV_ALWAYS_INLINE uint8_t
mlx5dv_get_cqe_owner(struct mlx5_cqe64 *cqe)
{
	return cqe->op_own & 0x1;
}

static MLX5DV_ALWAYS_INLINE void mlx5dv_set_cqe_owner(struct mlx5_cqe64 *cqe,
						       uint8_t val)
{
	cqe->op_own = (uint8_t)((val & 0x1) | (cqe->op_own & ~0x1));
}

/* Solicited event. */
static MLX5DV_ALWAYS_INLINE uint8_t mlx5dv_get_cqe_se(struct mlx5_cqe64 *cqe)
{
	return (cqe->op_own >> 1) & 0x1;
}

static MLX5DV_ALWAYS_INLINE uint8_t
mlx5dv_get_cqe_format(struct mlx5_cqe64 *cqe)
{
	return (cqe->op_own >> 2) & 0x3;
}

static MLX5DV_ALWAYS_INLINE uint8_t
mlx5dv_get_cqe_opcode(struct mlx5_cqe64 *cqe)
{
	return cqe->op_own >> 4;
}

/* ---------------------------------------------------------------- */
/* Work queue entries                                                 */

enum {
	MLX5_INVALID_LKEY = 0x100,
};

enum {
	MLX5_EXTENDED_UD_AV = 0x80000000,
};

enum {
	MLX5_WQE_CTRL_CQ_UPDATE = 2 << 2,
	MLX5_WQE_CTRL_SOLICITED = 1 << 1,
	MLX5_WQE_CTRL_FENCE = 4 << 5,
	MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE = 1 << 5,
};

enum {
	MLX5_SEND_WQE_BB = 64,
	MLX5_SEND_WQE_SHIFT = 6,
};

enum {
	MLX5_INLINE_SEG = 0x80000000,
};

enum {
	MLX5_ETH_WQE_L3_CSUM = 1 << 6,
	MLX5_ETH_WQE_L4_CSUM = 1 << 7,
};

struct mlx5_wqe_srq_next_seg {
	uint8_t rsvd0[2];
	__be16 next_wqe_index;
	uint8_t signature;
	uint8_t rsvd1[11];
};

struct mlx5_wqe_data_seg {
	__be32 byte_count;
	__be32 lkey;
	__be64 addr;
};

struct mlx5_wqe_ctrl_seg {
	__be32 opmod_idx_opcode;
	__be32 qpn_ds;
	uint8_t signature;
	__be16 dci_stream_channel_id;
	uint8_t fm_ce_se;
	__be32 imm;
} __attribute__((__packed__)) __attribute__((__aligned__(4)));

struct mlx5_mprq_wqe {
	struct mlx5_wqe_srq_next_seg nseg;
	struct mlx5_wqe_data_seg dseg;
};

/* UD address vector (also the datagram segment of a UD send WQE). */
struct mlx5_wqe_av {
	union {
		struct {
			__be32 qkey;
			__be32 reserved;
		} qkey;
		__be64 dc_key;
	} key;
	__be32 dqp_dct;
	uint8_t stat_rate_sl;
	uint8_t fl_mlid;
	__be16 rlid;
	uint8_t reserved0[4];
	uint8_t rmac[6];
	uint8_t tclass;
	uint8_t hop_limit;
	__be32 grh_gid_fl;
	uint8_t rgid[16];
};

struct mlx5_wqe_datagram_seg {
	struct mlx5_wqe_av av;
};

struct mlx5_wqe_raddr_seg {
	__be64 raddr;
	__be32 rkey;
	__be32 reserved;
};

struct mlx5_wqe_atomic_seg {
	__be64 swap_add;
	__be64 compare;
};

/* byte_count = length | MLX5_INLINE_SEG (big-endian); data follows. */
struct mlx5_wqe_inl_data_seg {
	uint32_t byte_count;
};

struct mlx5_wqe_eth_seg {
	__be32 rsvd0;
	uint8_t cs_flags;
	uint8_t rsvd1;
	__be16 mss;
	__be32 rsvd2;
	__be16 inline_hdr_sz;
	uint8_t inline_hdr_start[2];
	uint8_t inline_hdr[16];
};

/*
 * Control segment. @pi is the WQE index (the SQ producer counter in basic
 * blocks), @ds the WQE size in 16-byte units. @imm goes in as given: the
 * caller byte-swaps it when the opcode wants a host value in BE (SEND_INV).
 */
static MLX5DV_ALWAYS_INLINE void
mlx5dv_set_ctrl_seg(struct mlx5_wqe_ctrl_seg *seg, uint16_t pi,
		    uint8_t opcode, uint8_t opmod, uint32_t qp_num,
		    uint8_t fm_ce_se, uint8_t ds, uint8_t signature,
		    uint32_t imm)
{
	seg->opmod_idx_opcode =
		htobe32(((uint32_t)opmod << 24) | ((uint32_t)pi << 8) | opcode);
	seg->qpn_ds = htobe32((qp_num << 8) | ds);
	seg->fm_ce_se = fm_ce_se;
	seg->signature = signature;
	seg->imm = imm;
}

static MLX5DV_ALWAYS_INLINE void
mlx5dv_set_dgram_seg(struct mlx5_wqe_datagram_seg *seg, uint64_t key,
		     uint32_t dqp_dct, uint8_t ext, uint8_t stat_rate_sl,
		     uint8_t fl_mlid, uint16_t rlid, uint8_t *rmac,
		     uint8_t tclass, uint8_t hop_limit, uint32_t grh_gid_fi,
		     uint8_t *rgid)
{
	/* 64 bits into the key: a Q_Key's reserved half stays 0. */
	seg->av.key.dc_key = htobe64(key);
	seg->av.dqp_dct = htobe32(((uint32_t)ext << 31) | dqp_dct);
	seg->av.stat_rate_sl = stat_rate_sl;
	seg->av.fl_mlid = fl_mlid;
	seg->av.rlid = htobe16(rlid);
	memcpy(seg->av.rmac, rmac, 6);
	seg->av.tclass = tclass;
	seg->av.hop_limit = hop_limit;
	seg->av.grh_gid_fl = htobe32(grh_gid_fi);
	memcpy(seg->av.rgid, rgid, 16);
}

static MLX5DV_ALWAYS_INLINE void
mlx5dv_set_data_seg(struct mlx5_wqe_data_seg *seg, uint32_t length,
		    uint32_t lkey, uintptr_t address)
{
	seg->byte_count = htobe32(length);
	seg->lkey = htobe32(lkey);
	seg->addr = htobe64((uint64_t)address);
}

static MLX5DV_ALWAYS_INLINE void
mlx5dv_set_eth_seg(struct mlx5_wqe_eth_seg *seg, uint8_t cs_flags,
		   uint16_t mss, uint16_t inline_hdr_sz,
		   uint8_t *inline_hdr_start)
{
	seg->cs_flags = cs_flags;
	seg->mss = htobe16(mss);
	seg->inline_hdr_sz = htobe16(inline_hdr_sz);
	memcpy(seg->inline_hdr_start, inline_hdr_start, inline_hdr_sz);
}

#ifdef __cplusplus
}
#endif

#endif /* INFINIBAND_MLX5DV_WQE_H */
