/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mlx5 direct verbs (libmlx5.so.1): the device-memory part of the mlx5dv
 * API. Names, values and struct layouts match upstream rdma-core, so code
 * written for upstream's <infiniband/mlx5dv.h> builds and runs unchanged for
 * everything declared here.
 *
 * Every function that takes an object of another provider fails with
 * EOPNOTSUPP and does not touch it.
 */
#ifndef INFINIBAND_MLX5DV_H
#define INFINIBAND_MLX5DV_H

#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include <infiniband/verbs.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- */
/* Opening a device                                                   */

enum mlx5dv_context_attr_flags {
	MLX5DV_CONTEXT_FLAGS_DEVX = 1 << 0,
};

/* Upstream's way to hand a provider file descriptors; not supported here. */
enum mlx5dv_context_attr_comp_mask {
	MLX5DV_CONTEXT_ATTR_MASK_FD_ARRAY = 1 << 0,
};

struct mlx5dv_context_attr {
	uint32_t flags;		/* enum mlx5dv_context_attr_flags */
	uint64_t comp_mask;	/* must be 0: fds is never read */
	struct ibv_fd_arr *fds;
};

/*
 * True if @device is driven by this provider (a ConnectX device).
 */
bool mlx5dv_is_supported(struct ibv_device *device);

/*
 * ibv_open_device() with mlx5 options. With MLX5DV_CONTEXT_FLAGS_DEVX the
 * context must get DEVX rights or the open fails. Returns NULL with errno:
 * EINVAL (unknown flag or non-zero comp_mask), EOPNOTSUPP (not an mlx5
 * device), or the kernel's error.
 */
struct ibv_context *mlx5dv_open_device(struct ibv_device *device,
				       struct mlx5dv_context_attr *attr);

/* ---------------------------------------------------------------- */
/* Querying a context                                                 */

enum mlx5dv_context_comp_mask {
	MLX5DV_CONTEXT_MASK_CQE_COMPRESION = 1 << 0,
	MLX5DV_CONTEXT_MASK_SWP = 1 << 1,
	MLX5DV_CONTEXT_MASK_STRIDING_RQ = 1 << 2,
	MLX5DV_CONTEXT_MASK_TUNNEL_OFFLOADS = 1 << 3,
	MLX5DV_CONTEXT_MASK_DYN_BFREGS = 1 << 4,
	MLX5DV_CONTEXT_MASK_CLOCK_INFO_UPDATE = 1 << 5,
	MLX5DV_CONTEXT_MASK_FLOW_ACTION_FLAGS = 1 << 6,
	MLX5DV_CONTEXT_MASK_DC_ODP_CAPS = 1 << 7,
	MLX5DV_CONTEXT_MASK_HCA_CORE_CLOCK = 1 << 8,
	MLX5DV_CONTEXT_MASK_NUM_LAG_PORTS = 1 << 9,
	MLX5DV_CONTEXT_MASK_SIGNATURE_OFFLOAD = 1 << 10,
	MLX5DV_CONTEXT_MASK_DCI_STREAMS = 1 << 11,
	MLX5DV_CONTEXT_MASK_WR_MEMCPY_LENGTH = 1 << 12,
	MLX5DV_CONTEXT_MASK_CRYPTO_OFFLOAD = 1 << 13,
	MLX5DV_CONTEXT_MASK_MAX_DC_RD_ATOM = 1 << 14,
	MLX5DV_CONTEXT_MASK_REG_C0 = 1 << 15,
	MLX5DV_CONTEXT_MASK_OOO_RECV_WRS = 1 << 16,
};

enum mlx5dv_context_flags {
	MLX5DV_CONTEXT_FLAGS_CQE_V1 = 1 << 0,
	MLX5DV_CONTEXT_FLAGS_OBSOLETE = 1 << 1,
	MLX5DV_CONTEXT_FLAGS_MPW_ALLOWED = 1 << 2,
	MLX5DV_CONTEXT_FLAGS_ENHANCED_MPW = 1 << 3,
	MLX5DV_CONTEXT_FLAGS_CQE_128B_COMP = 1 << 4,
	MLX5DV_CONTEXT_FLAGS_CQE_128B_PAD = 1 << 5,
	MLX5DV_CONTEXT_FLAGS_PACKET_BASED_CREDIT_MODE = 1 << 6,
	MLX5DV_CONTEXT_FLAGS_REAL_TIME_TS = 1 << 7,
};

enum mlx5dv_cqe_comp_res_format {
	MLX5DV_CQE_RES_FORMAT_HASH = 1 << 0,
	MLX5DV_CQE_RES_FORMAT_CSUM = 1 << 1,
	MLX5DV_CQE_RES_FORMAT_CSUM_STRIDX = 1 << 2,
};

struct mlx5dv_cqe_comp_caps {
	uint32_t max_num;
	uint32_t supported_format; /* enum mlx5dv_cqe_comp_res_format */
};

enum mlx5dv_sw_parsing_offloads {
	MLX5DV_SW_PARSING = 1 << 0,
	MLX5DV_SW_PARSING_CSUM = 1 << 1,
	MLX5DV_SW_PARSING_LSO = 1 << 2,
};

/* supported_qpts members: bit (1 << enum ibv_qp_type) per QP type. */
struct mlx5dv_sw_parsing_caps {
	uint32_t sw_parsing_offloads; /* enum mlx5dv_sw_parsing_offloads */
	uint32_t supported_qpts;
};

struct mlx5dv_striding_rq_caps {
	uint32_t min_single_stride_log_num_of_bytes;
	uint32_t max_single_stride_log_num_of_bytes;
	uint32_t min_single_wqe_log_num_of_strides;
	uint32_t max_single_wqe_log_num_of_strides;
	uint32_t supported_qpts;
};

struct mlx5dv_dci_streams_caps {
	uint8_t max_log_num_concurent;
	uint8_t max_log_num_errored;
};

enum mlx5dv_tunnel_offloads {
	MLX5DV_RAW_PACKET_CAP_TUNNELED_OFFLOAD_VXLAN = 1 << 0,
	MLX5DV_RAW_PACKET_CAP_TUNNELED_OFFLOAD_GRE = 1 << 1,
	MLX5DV_RAW_PACKET_CAP_TUNNELED_OFFLOAD_GENEVE = 1 << 2,
	MLX5DV_RAW_PACKET_CAP_TUNNELED_OFFLOAD_CW_MPLS_OVER_GRE = 1 << 3,
	MLX5DV_RAW_PACKET_CAP_TUNNELED_OFFLOAD_CW_MPLS_OVER_UDP = 1 << 4,
};

enum mlx5dv_flow_action_cap_flags {
	MLX5DV_FLOW_ACTION_FLAGS_ESP_AES_GCM = 1 << 0,
	MLX5DV_FLOW_ACTION_FLAGS_ESP_AES_GCM_REQ_METADATA = 1 << 1,
	MLX5DV_FLOW_ACTION_FLAGS_ESP_AES_GCM_SPI_STEERING = 1 << 2,
	MLX5DV_FLOW_ACTION_FLAGS_ESP_AES_GCM_FULL_OFFLOAD = 1 << 3,
	MLX5DV_FLOW_ACTION_FLAGS_ESP_AES_GCM_TX_IV_IS_ESN = 1 << 4,
};

enum mlx5dv_sig_type {
	MLX5DV_SIG_TYPE_T10DIF,
	MLX5DV_SIG_TYPE_CRC,
};

enum mlx5dv_sig_prot_caps {
	MLX5DV_SIG_PROT_CAP_T10DIF = 1 << MLX5DV_SIG_TYPE_T10DIF,
	MLX5DV_SIG_PROT_CAP_CRC = 1 << MLX5DV_SIG_TYPE_CRC,
};

enum mlx5dv_sig_t10dif_bg_type {
	MLX5DV_SIG_T10DIF_CRC,
	MLX5DV_SIG_T10DIF_CSUM,
};

enum mlx5dv_sig_t10dif_bg_caps {
	MLX5DV_SIG_T10DIF_BG_CAP_CRC = 1 << MLX5DV_SIG_T10DIF_CRC,
	MLX5DV_SIG_T10DIF_BG_CAP_CSUM = 1 << MLX5DV_SIG_T10DIF_CSUM,
};

enum mlx5dv_sig_crc_type {
	MLX5DV_SIG_CRC_TYPE_CRC32,
	MLX5DV_SIG_CRC_TYPE_CRC32C,
	MLX5DV_SIG_CRC_TYPE_CRC64_XP10,
};

enum mlx5dv_sig_crc_type_caps {
	MLX5DV_SIG_CRC_TYPE_CAP_CRC32 = 1 << MLX5DV_SIG_CRC_TYPE_CRC32,
	MLX5DV_SIG_CRC_TYPE_CAP_CRC32C = 1 << MLX5DV_SIG_CRC_TYPE_CRC32C,
	MLX5DV_SIG_CRC_TYPE_CAP_CRC64_XP10 = 1 << MLX5DV_SIG_CRC_TYPE_CRC64_XP10,
};

enum mlx5dv_block_size {
	MLX5DV_BLOCK_SIZE_512,
	MLX5DV_BLOCK_SIZE_520,
	MLX5DV_BLOCK_SIZE_4048,
	MLX5DV_BLOCK_SIZE_4096,
	MLX5DV_BLOCK_SIZE_4160,
};

enum mlx5dv_block_size_caps {
	MLX5DV_BLOCK_SIZE_CAP_512 = 1 << MLX5DV_BLOCK_SIZE_512,
	MLX5DV_BLOCK_SIZE_CAP_520 = 1 << MLX5DV_BLOCK_SIZE_520,
	MLX5DV_BLOCK_SIZE_CAP_4048 = 1 << MLX5DV_BLOCK_SIZE_4048,
	MLX5DV_BLOCK_SIZE_CAP_4096 = 1 << MLX5DV_BLOCK_SIZE_4096,
	MLX5DV_BLOCK_SIZE_CAP_4160 = 1 << MLX5DV_BLOCK_SIZE_4160,
};

struct mlx5dv_sig_caps {
	uint64_t block_size; /* enum mlx5dv_block_size_caps */
	uint32_t block_prot; /* enum mlx5dv_sig_prot_caps */
	uint16_t t10dif_bg;  /* enum mlx5dv_sig_t10dif_bg_caps */
	uint16_t crc_type;   /* enum mlx5dv_sig_crc_type_caps */
};

enum mlx5dv_crypto_engines_caps {
	MLX5DV_CRYPTO_ENGINES_CAP_AES_XTS = 1 << 0,
	MLX5DV_CRYPTO_ENGINES_CAP_AES_XTS_SINGLE_BLOCK = 1 << 1,
	MLX5DV_CRYPTO_ENGINES_CAP_AES_XTS_MULTI_BLOCK = 1 << 2,
};

enum mlx5dv_crypto_wrapped_import_method_caps {
	MLX5DV_CRYPTO_WRAPPED_IMPORT_METHOD_CAP_AES_XTS = 1 << 0,
};

enum mlx5dv_crypto_caps_flags {
	MLX5DV_CRYPTO_CAPS_CRYPTO = 1 << 0,
	MLX5DV_CRYPTO_CAPS_WRAPPED_CRYPTO_OPERATIONAL = 1 << 1,
	MLX5DV_CRYPTO_CAPS_WRAPPED_CRYPTO_GOING_TO_COMMISSIONING = 1 << 2,
};

/* failed_selftests != 0: some crypto engine failed its self test. */
struct mlx5dv_crypto_caps {
	uint16_t failed_selftests;
	uint8_t crypto_engines; /* enum mlx5dv_crypto_engines_caps */
	uint8_t wrapped_import_method;
	uint8_t log_max_num_deks;
	uint32_t flags; /* enum mlx5dv_crypto_caps_flags */
};

struct mlx5dv_ooo_recv_wrs_caps {
	uint32_t max_rc;
	uint32_t max_xrc;
	uint32_t max_dct;
	uint32_t max_ud;
	uint32_t max_uc;
};

struct mlx5dv_reg {
	uint32_t value;
	uint32_t mask;
};

/*
 * Upstream's (rdma-core 65) layout. Members after comp_mask are written
 * only when their MLX5DV_CONTEXT_MASK_* bit is set in comp_mask on input;
 * on output comp_mask holds the bits whose member is valid, so a caller
 * compiled against an older, shorter struct is never written past it.
 */
struct mlx5dv_context {
	uint8_t version;
	uint64_t flags;		/* enum mlx5dv_context_flags */
	uint64_t comp_mask;	/* in: wanted; out: the valid subset */
	struct mlx5dv_cqe_comp_caps cqe_comp_caps;
	struct mlx5dv_sw_parsing_caps sw_parsing_caps;
	struct mlx5dv_striding_rq_caps striding_rq_caps;
	uint32_t tunnel_offloads_caps; /* enum mlx5dv_tunnel_offloads */
	uint32_t max_dynamic_bfregs;
	uint64_t max_clock_info_update_nsec;
	uint32_t flow_action_flags; /* enum mlx5dv_flow_action_cap_flags */
	uint32_t dc_odp_caps;	    /* enum ibv_odp_transport_cap_bits */
	void *hca_core_clock;	    /* the free-running counter, BE64 */
	uint8_t num_lag_ports;
	struct mlx5dv_sig_caps sig_caps;
	struct mlx5dv_dci_streams_caps dci_streams_caps;
	size_t max_wr_memcpy_length;
	struct mlx5dv_crypto_caps crypto_caps;
	uint64_t max_dc_rd_atom;
	uint64_t max_dc_init_rd_atom;
	struct mlx5dv_reg reg_c0;
	struct mlx5dv_ooo_recv_wrs_caps ooo_recv_wrs_caps;
};

/*
 * Fill @attrs_out for @context: version, flags, and each optional member
 * whose MLX5DV_CONTEXT_MASK_* bit the caller set in comp_mask and the
 * device reports (comp_mask comes back as that subset; others are not
 * written). Returns 0, EINVAL (NULL argument), or EOPNOTSUPP for a
 * context of another provider.
 */
int mlx5dv_query_device(struct ibv_context *context,
			struct mlx5dv_context *attrs_out);

/* ---------------------------------------------------------------- */
/* Device memory                                                      */

/* Values are the kernel's enum mlx5_ib_uapi_dm_type. */
enum mlx5dv_alloc_dm_type {
	MLX5DV_DM_TYPE_MEMIC = 0,
	MLX5DV_DM_TYPE_STEERING_SW_ICM = 1,
	MLX5DV_DM_TYPE_HEADER_MODIFY_SW_ICM = 2,
	MLX5DV_DM_TYPE_HEADER_MODIFY_PATTERN_SW_ICM = 3,
	MLX5DV_DM_TYPE_ENCAP_SW_ICM = 4,
};

struct mlx5dv_alloc_dm_attr {
	enum mlx5dv_alloc_dm_type type;
	uint64_t comp_mask;	/* must be 0 */
};

/*
 * Allocate device memory of @dm_attr->type. MEMIC memory is mapped into the
 * process and works with ibv_memcpy_to_dm()/ibv_memcpy_from_dm() and
 * ibv_dm_export_dmabuf_fd(); the SW-ICM types have no CPU mapping (their
 * copy functions fail with EOPNOTSUPP) and give a device address through
 * mlx5dv_init_obj(). Returns NULL with errno: EOPNOTSUPP (type unknown here
 * or in the kernel, device without that memory, not an mlx5 context),
 * EINVAL (non-zero comp_mask, MEMIC length above max_dm_size), EPERM
 * (SW-ICM without CAP_SYS_RAWIO and CAP_NET_RAW), ENOMEM, or the kernel's
 * error.
 */
struct ibv_dm *mlx5dv_alloc_dm(struct ibv_context *context,
			       struct ibv_alloc_dm_attr *dm_attr,
			       struct mlx5dv_alloc_dm_attr *mlx5_dm_attr);

/*
 * Map the MEMIC operation page for @op (0: atomic increment, 1: test and
 * set, ... as the device's memic_operations capability says) and return
 * the address that corresponds to offset 0 of @dm. The caller owns the
 * mapping and releases it with munmap() of ibv_dm length rounded up to
 * pages, from the page holding the returned address. It does not change
 * what ibv_dm_export_dmabuf_fd() exports (always the base memory). NULL
 * with errno: EOPNOTSUPP (op not supported, no CPU mapping, not mlx5), or
 * the kernel's / mmap's error.
 */
void *mlx5dv_dm_map_op_addr(struct ibv_dm *dm, uint8_t op);

/* ---------------------------------------------------------------- */
/* Memory regions                                                     */

enum mlx5dv_reg_dmabuf_access {
	MLX5DV_REG_DMABUF_ACCESS_DATA_DIRECT = 1 << 0,
};

/*
 * ibv_reg_dmabuf_mr() with mlx5 access flags (enum
 * mlx5dv_reg_dmabuf_access). Returns NULL with errno: EINVAL (unknown
 * mlx5_access bit or bad ibv access flags), EOPNOTSUPP (not mlx5, or a
 * kernel without the mlx5 flag while one was asked for), or the kernel's.
 */
struct ibv_mr *mlx5dv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
				    size_t length, uint64_t iova, int fd,
				    int access, int mlx5_access);

/* ---------------------------------------------------------------- */
/* Reaching into objects                                              */

enum mlx5dv_dm_comp_mask {
	MLX5DV_DM_MASK_REMOTE_VA = 1 << 0,
};

struct mlx5dv_dm {
	void *buf;		/* CPU address of offset 0, NULL for SW-ICM */
	uint64_t length;
	uint64_t comp_mask;	/* in: wanted; out: the valid subset */
	uint64_t remote_va;	/* SW-ICM device address */
};

enum mlx5dv_qp_comp_mask {
	MLX5DV_QP_MASK_UAR_MMAP_OFFSET = 1 << 0,
	MLX5DV_QP_MASK_RAW_QP_HANDLES = 1 << 1,
	MLX5DV_QP_MASK_RAW_QP_TIR_ADDR = 1 << 2,
};

/* A QP's rings as the hardware sees them (post WQEs by hand). */
struct mlx5dv_qp {
	__be32 *dbrec;		/* [MLX5_RCV_DBR], [MLX5_SND_DBR] */
	struct {
		void *buf;
		uint32_t wqe_cnt;	/* in 64-byte basic blocks */
		uint32_t stride;	/* 64 */
	} sq;
	struct {
		void *buf;
		uint32_t wqe_cnt;
		uint32_t stride;
	} rq;
	struct {
		void *reg;	/* doorbell / BlueFlame register */
		uint32_t size;	/* BlueFlame buffer size, 0: doorbell only */
	} bf;
	uint64_t comp_mask;	/* in: wanted; out: the valid subset */
	off_t uar_mmap_offset;
	uint32_t tirn;
	uint32_t tisn;
	uint32_t rqn;
	uint32_t sqn;
	uint64_t tir_icm_addr;
};

struct mlx5dv_cq {
	void *buf;
	__be32 *dbrec;		/* [0] consumer index, [1] arm */
	uint32_t cqe_cnt;
	uint32_t cqe_size;
	void *cq_uar;		/* UAR page; the arm doorbell is at +0x20 */
	uint32_t cqn;
	uint64_t comp_mask;
};

enum mlx5dv_srq_comp_mask {
	MLX5DV_SRQ_MASK_SRQN = 1 << 0,
};

struct mlx5dv_srq {
	void *buf;
	__be32 *dbrec;
	uint32_t stride;
	uint32_t head;
	uint32_t tail;
	uint64_t comp_mask;
	uint32_t srqn;
};

struct mlx5dv_rwq {
	void *buf;
	__be32 *dbrec;
	uint32_t wqe_cnt;
	uint32_t stride;
	uint64_t comp_mask;
};

/* ---------------------------------------------------------------- */
/* Creating QPs with mlx5 options                                     */

enum mlx5dv_qp_create_flags {
	MLX5DV_QP_CREATE_TUNNEL_OFFLOADS = 1 << 0,
	MLX5DV_QP_CREATE_TIR_ALLOW_SELF_LOOPBACK_UC = 1 << 1,
	MLX5DV_QP_CREATE_TIR_ALLOW_SELF_LOOPBACK_MC = 1 << 2,
	MLX5DV_QP_CREATE_DISABLE_SCATTER_TO_CQE = 1 << 3,
	MLX5DV_QP_CREATE_ALLOW_SCATTER_TO_CQE = 1 << 4,
	MLX5DV_QP_CREATE_PACKET_BASED_CREDIT_MODE = 1 << 5,
	MLX5DV_QP_CREATE_SIG_PIPELINING = 1 << 6,
	/* receives consumed out of order (both ends must ask) */
	MLX5DV_QP_CREATE_OOO_DP = 1 << 7,
};

enum mlx5dv_qp_init_attr_mask {
	MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS = 1 << 0,
	MLX5DV_QP_INIT_ATTR_MASK_DC = 1 << 1,
	MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS = 1 << 2,
	MLX5DV_QP_INIT_ATTR_MASK_DCI_STREAMS = 1 << 3,
};

enum mlx5dv_dc_type {
	MLX5DV_DCTYPE_DCT = 1,
	MLX5DV_DCTYPE_DCI,
};

struct mlx5dv_dci_streams {
	uint8_t log_num_concurent;
	uint8_t log_num_errored;
};

struct mlx5dv_dc_init_attr {
	enum mlx5dv_dc_type dc_type;
	union {
		uint64_t dct_access_key;
		struct mlx5dv_dci_streams dci_streams;
	};
};

enum mlx5dv_qp_create_send_ops_flags {
	MLX5DV_QP_EX_WITH_MR_INTERLEAVED = 1 << 0,
	MLX5DV_QP_EX_WITH_MR_LIST = 1 << 1,
	MLX5DV_QP_EX_WITH_MKEY_CONFIGURE = 1 << 2,
	MLX5DV_QP_EX_WITH_RAW_WQE = 1 << 3,
	MLX5DV_QP_EX_WITH_MEMCPY = 1 << 4,
};

struct mlx5dv_qp_init_attr {
	uint64_t comp_mask;	/* enum mlx5dv_qp_init_attr_mask */
	uint32_t create_flags;	/* enum mlx5dv_qp_create_flags */
	struct mlx5dv_dc_init_attr dc_init_attr;
	uint64_t send_ops_flags; /* enum mlx5dv_qp_create_send_ops_flags */
};

/*
 * ibv_create_qp_ex() with mlx5 options (mlx5dv_create_qp(3)): the create
 * flags (the kernel judges those it is sent; SIG_PIPELINING fails with
 * EOPNOTSUPP, OOO_DP without the type's ooo_recv_wrs_caps too, and with
 * them doubles the RQ), the send op MLX5DV_QP_EX_WITH_RAW_WQE, and DC QPs
 * (IBV_QPT_DRIVER: a DCT on an SRQ, or a DCI addressed per WQE with
 * mlx5dv_wr_set_dc_addr()). The other send ops fail with EOPNOTSUPP. NULL
 * with errno.
 */
struct ibv_qp *mlx5dv_create_qp(struct ibv_context *context,
				struct ibv_qp_init_attr_ex *qp_attr,
				struct mlx5dv_qp_init_attr *mlx5_qp_attr);

struct mlx5dv_qp_ex;
/* The mlx5 builders of an extended QP (mlx5dv_wr_raw_wqe() and co.). */
struct mlx5dv_qp_ex *mlx5dv_qp_ex_from_ibv_qp_ex(struct ibv_qp_ex *qp);

/*
 * Not implemented by this library: each fails with EOPNOTSUPP (NULL with
 * errno for the constructors). Declared so that programs written for
 * upstream's libmlx5 build and load; their attribute types stay opaque.
 */
struct mlx5dv_mkey;
struct mlx5dv_mkey_init_attr;
struct mlx5dv_crypto_login_attr;
struct mlx5dv_dek;
struct mlx5dv_dek_init_attr;

struct mlx5dv_mkey *mlx5dv_create_mkey(struct mlx5dv_mkey_init_attr *attr);
int mlx5dv_destroy_mkey(struct mlx5dv_mkey *mkey);
int mlx5dv_crypto_login(struct ibv_context *context,
			struct mlx5dv_crypto_login_attr *login_attr);
struct mlx5dv_dek *mlx5dv_dek_create(struct ibv_context *context,
				     struct mlx5dv_dek_init_attr *init_attr);
int mlx5dv_dek_destroy(struct mlx5dv_dek *dek);
int mlx5dv_devx_general_cmd(struct ibv_context *context, const void *in,
			    size_t inlen, void *out, size_t outlen);

/* Not supported by this library; declared for struct mlx5dv_obj. */
struct mlx5dv_ah;
struct mlx5dv_pd;

struct mlx5dv_obj {
	struct {
		struct ibv_qp *in;
		struct mlx5dv_qp *out;
	} qp;
	struct {
		struct ibv_cq *in;
		struct mlx5dv_cq *out;
	} cq;
	struct {
		struct ibv_srq *in;
		struct mlx5dv_srq *out;
	} srq;
	struct {
		struct ibv_wq *in;
		struct mlx5dv_rwq *out;
	} rwq;
	struct {
		struct ibv_dm *in;
		struct mlx5dv_dm *out;
	} dm;
	struct {
		struct ibv_ah *in;
		struct mlx5dv_ah *out;
	} ah;
	struct {
		struct ibv_pd *in;
		struct mlx5dv_pd *out;
	} pd;
};

enum mlx5dv_obj_type {
	MLX5DV_OBJ_QP = 1 << 0,
	MLX5DV_OBJ_CQ = 1 << 1,
	MLX5DV_OBJ_SRQ = 1 << 2,
	MLX5DV_OBJ_RWQ = 1 << 3,
	MLX5DV_OBJ_DM = 1 << 4,
	MLX5DV_OBJ_AH = 1 << 5,
	MLX5DV_OBJ_PD = 1 << 6,
};

/*
 * Fill the out member of every object selected in @obj_type (a mask of
 * enum mlx5dv_obj_type). Returns 0, EOPNOTSUPP (a type other than QP, CQ,
 * SRQ and DM, or an object of another provider), or EINVAL (a NULL in or
 * out pointer).
 */
int mlx5dv_init_obj(struct mlx5dv_obj *obj, uint64_t obj_type);

#include <infiniband/mlx5dv_wqe.h>
#include <infiniband/mlx5dv_offload.h>

#ifdef __cplusplus
}
#endif

#endif /* INFINIBAND_MLX5DV_H */
