/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The rest of upstream's mlx5dv API (rdma-core 44 to 65): flow steering and
 * the DR (direct rule) engine, DEVX objects, UMEMs, events and async
 * commands, memory keys with signature and crypto, DEKs, the scheduling
 * tree, VFIO contexts, clock info, mlx5 CQ/WQ creation and port queries.
 * Names, values, prototypes and layouts are upstream's so that consumers
 * build unchanged. This provider implements mlx5dv_create_cq, the clock
 * info and, of the struct mlx5dv_qp_ex builders, wr_raw_wqe; every other
 * exported entry point here fails cleanly (NULL with errno EOPNOTSUPP, or
 * returns EOPNOTSUPP, as upstream's function reports errors), see
 * providers/mlx5/dv_offload_unsupported.c, and the other builders of a
 * struct mlx5dv_qp_ex stay NULL. Included by mlx5dv.h.
 */
#ifndef INFINIBAND_MLX5DV_OFFLOAD_H
#define INFINIBAND_MLX5DV_OFFLOAD_H

#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/types.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/mlx5_user_ioctl_verbs.h>

#include <infiniband/verbs.h>
/* needs mlx5dv.h's types; mlx5dv.h includes this file last */
#include <infiniband/mlx5dv.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Objects only ever handled through pointers. */
struct mlx5_wqe_av;
struct mlx5dv_crypto_login_obj;
struct mlx5dv_dek;
struct mlx5dv_devx_obj;
struct mlx5dv_dr_action;
struct mlx5dv_dr_domain;
struct mlx5dv_dr_matcher;
struct mlx5dv_dr_rule;
struct mlx5dv_dr_table;
struct mlx5dv_flow_matcher;
struct mlx5dv_sched_leaf;
struct mlx5dv_sched_node;

/* Names upstream takes from the kernel's mlx5 uAPI. */
#define mlx5dv_flow_action_flags mlx5_ib_uapi_flow_action_flags
#define MLX5DV_FLOW_ACTION_FLAGS_REQUIRE_METADATA                              \
	MLX5_IB_UAPI_FLOW_ACTION_FLAGS_REQUIRE_METADATA
#define mlx5dv_flow_table_type	       mlx5_ib_uapi_flow_table_type
#define MLX5DV_FLOW_TABLE_TYPE_NIC_RX  MLX5_IB_UAPI_FLOW_TABLE_TYPE_NIC_RX
#define MLX5DV_FLOW_TABLE_TYPE_NIC_TX  MLX5_IB_UAPI_FLOW_TABLE_TYPE_NIC_TX
#define MLX5DV_FLOW_TABLE_TYPE_FDB     MLX5_IB_UAPI_FLOW_TABLE_TYPE_FDB
#define MLX5DV_FLOW_TABLE_TYPE_RDMA_RX MLX5_IB_UAPI_FLOW_TABLE_TYPE_RDMA_RX
#define MLX5DV_FLOW_TABLE_TYPE_RDMA_TX MLX5_IB_UAPI_FLOW_TABLE_TYPE_RDMA_TX
#define mlx5dv_flow_action_packet_reformat_type                                \
	mlx5_ib_uapi_flow_action_packet_reformat_type
#define MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2                \
	MLX5_IB_UAPI_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2
#define MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL                \
	MLX5_IB_UAPI_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL
#define MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2                \
	MLX5_IB_UAPI_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2
#define MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL                \
	MLX5_IB_UAPI_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL
#define mlx5dv_devx_async_cmd_hdr   mlx5_ib_uapi_devx_async_cmd_hdr
#define mlx5dv_devx_async_event_hdr mlx5_ib_uapi_devx_async_event_hdr
#define mlx5dv_devx_create_event_channel_flags                                 \
	mlx5_ib_uapi_devx_create_event_channel_flags
#define MLX5DV_DEVX_CREATE_EVENT_CHANNEL_FLAGS_OMIT_EV_DATA                    \
	MLX5_IB_UAPI_DEVX_CR_EV_CH_FLAGS_OMIT_DATA
#define MLX5DV_PP_ALLOC_FLAGS_DEDICATED_INDEX                                  \
	MLX5_IB_UAPI_PP_ALLOC_FLAGS_DEDICATED_INDEX
#define MLX5DV_UAR_ALLOC_TYPE_BF	MLX5_IB_UAPI_UAR_ALLOC_TYPE_BF
#define MLX5DV_UAR_ALLOC_TYPE_NC	MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC
#define MLX5DV_QUERY_PORT_VPORT		MLX5_IB_UAPI_QUERY_PORT_VPORT
#define MLX5DV_QUERY_PORT_VPORT_VHCA_ID MLX5_IB_UAPI_QUERY_PORT_VPORT_VHCA_ID
#define MLX5DV_QUERY_PORT_VPORT_STEERING_ICM_RX                                \
	MLX5_IB_UAPI_QUERY_PORT_VPORT_STEERING_ICM_RX
#define MLX5DV_QUERY_PORT_VPORT_STEERING_ICM_TX                                \
	MLX5_IB_UAPI_QUERY_PORT_VPORT_STEERING_ICM_TX
#define MLX5DV_QUERY_PORT_VPORT_REG_C0 MLX5_IB_UAPI_QUERY_PORT_VPORT_REG_C0
#define MLX5DV_QUERY_PORT_ESW_OWNER_VHCA_ID                                    \
	MLX5_IB_UAPI_QUERY_PORT_ESW_OWNER_VHCA_ID
#define mlx5dv_port mlx5_ib_uapi_query_port

/* A non-cached UAR page of its own, not shared with other users */
#define MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED (1U << 31)

/*
 * The sysfs path of the Data Direct DMA device serving @context (written
 * to @buf, at most @buf_len bytes). Fails here: no Data Direct.
 */
int mlx5dv_get_data_direct_sysfs_path(struct ibv_context *context, char *buf,
				      size_t buf_len);

/* rdma-tool resource types: the mlx5 driver id in the upper half */
#define MLX5DV_RES_TYPE_QP  ((uint64_t)RDMA_DRIVER_MLX5 << 32 | 1)
#define MLX5DV_RES_TYPE_RWQ ((uint64_t)RDMA_DRIVER_MLX5 << 32 | 2)
#define MLX5DV_RES_TYPE_DBR ((uint64_t)RDMA_DRIVER_MLX5 << 32 | 3)
#define MLX5DV_RES_TYPE_SRQ ((uint64_t)RDMA_DRIVER_MLX5 << 32 | 4)
#define MLX5DV_RES_TYPE_CQ  ((uint64_t)RDMA_DRIVER_MLX5 << 32 | 5)

enum mlx5dv_cq_init_attr_mask {
	MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE = 1,
	MLX5DV_CQ_INIT_ATTR_MASK_FLAGS = 2,
	MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE = 4,
};

enum mlx5dv_cq_init_attr_flags {
	MLX5DV_CQ_INIT_ATTR_FLAGS_CQE_PAD = 1,
	MLX5DV_CQ_INIT_ATTR_FLAGS_RESERVED = 2,
};

struct mlx5dv_cq_init_attr {
	uint64_t comp_mask;
	uint8_t cqe_comp_res_format;
	uint32_t flags;
	uint16_t cqe_size;
};

struct ibv_cq_ex *mlx5dv_create_cq(struct ibv_context *context,
				   struct ibv_cq_init_attr_ex *cq_attr,
				   struct mlx5dv_cq_init_attr *mlx5_cq_attr);

enum mlx5dv_mkey_init_attr_flags {
	MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT = 1,
	MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE = 2,
	MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO = 4,
	MLX5DV_MKEY_INIT_ATTR_FLAGS_UPDATE_TAG = 8,
	MLX5DV_MKEY_INIT_ATTR_FLAGS_REMOTE_INVALIDATE = 1 << 4,
};

struct mlx5dv_mkey_init_attr {
	struct ibv_pd *pd;
	uint32_t create_flags;
	uint16_t max_entries;
};

struct mlx5dv_mkey {
	uint32_t lkey;
	uint32_t rkey;
};

struct mlx5dv_mr_interleaved {
	uint64_t addr;
	uint32_t bytes_count;
	uint32_t bytes_skip;
	uint32_t lkey;
};

enum mlx5dv_sig_t10dif_flags {
	MLX5DV_SIG_T10DIF_FLAG_REF_REMAP = 1,
	MLX5DV_SIG_T10DIF_FLAG_APP_ESCAPE = 2,
	MLX5DV_SIG_T10DIF_FLAG_APP_REF_ESCAPE = 4,
};

struct mlx5dv_sig_t10dif {
	enum mlx5dv_sig_t10dif_bg_type bg_type;
	uint16_t bg;
	uint16_t app_tag;
	uint32_t ref_tag;
	uint16_t flags;
};

struct mlx5dv_sig_crc {
	enum mlx5dv_sig_crc_type type;
	uint64_t seed;
};

struct mlx5dv_sig_block_domain {
	enum mlx5dv_sig_type sig_type;
	union {
		const struct mlx5dv_sig_t10dif *dif;
		const struct mlx5dv_sig_crc *crc;
	} sig;
	enum mlx5dv_block_size block_size;
	uint64_t comp_mask;
};

enum mlx5dv_sig_mask {
	MLX5DV_SIG_MASK_T10DIF_GUARD = 192,
	MLX5DV_SIG_MASK_T10DIF_APPTAG = 48,
	MLX5DV_SIG_MASK_T10DIF_REFTAG = 15,
	MLX5DV_SIG_MASK_CRC32 = 240,
	MLX5DV_SIG_MASK_CRC32C = 240,
	MLX5DV_SIG_MASK_CRC64_XP10 = 255,
};

enum mlx5dv_sig_block_attr_flags {
	MLX5DV_SIG_BLOCK_ATTR_FLAG_COPY_MASK = 1,
};

struct mlx5dv_sig_block_attr {
	const struct mlx5dv_sig_block_domain *mem;
	const struct mlx5dv_sig_block_domain *wire;
	uint32_t flags;
	uint8_t check_mask;
	uint8_t copy_mask;
	uint64_t comp_mask;
};

enum mlx5dv_crypto_standard {
	MLX5DV_CRYPTO_STANDARD_AES_XTS = 0,
};

enum mlx5dv_signature_crypto_order {
	MLX5DV_SIGNATURE_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX = 0,
	MLX5DV_SIGNATURE_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX = 1,
};

struct mlx5dv_crypto_attr {
	enum mlx5dv_crypto_standard crypto_standard;
	bool encrypt_on_tx;
	enum mlx5dv_signature_crypto_order signature_crypto_order;
	enum mlx5dv_block_size data_unit_size;
	char initial_tweak[16];
	struct mlx5dv_dek *dek;
	char keytag[8];
	uint64_t comp_mask;
};

enum mlx5dv_mkey_conf_flags {
	MLX5DV_MKEY_CONF_FLAG_RESET_SIG_ATTR = 1,
};

struct mlx5dv_mkey_conf_attr {
	uint32_t conf_flags;
	uint64_t comp_mask;
};

enum mlx5dv_wc_opcode {
	MLX5DV_WC_UMR = 135,
	MLX5DV_WC_RAW_WQE = 136,
	MLX5DV_WC_MEMCPY = 137,
};

struct mlx5dv_qp_ex {
	uint64_t comp_mask;
	void (*wr_set_dc_addr)(struct mlx5dv_qp_ex *, struct ibv_ah *, uint32_t,
			       uint64_t);
	void (*wr_mr_interleaved)(struct mlx5dv_qp_ex *, struct mlx5dv_mkey *,
				  uint32_t, uint32_t, uint16_t,
				  struct mlx5dv_mr_interleaved *);
	void (*wr_mr_list)(struct mlx5dv_qp_ex *, struct mlx5dv_mkey *,
			   uint32_t, uint16_t, struct ibv_sge *);
	void (*wr_mkey_configure)(struct mlx5dv_qp_ex *, struct mlx5dv_mkey *,
				  uint8_t, struct mlx5dv_mkey_conf_attr *);
	void (*wr_set_mkey_access_flags)(struct mlx5dv_qp_ex *, uint32_t);
	void (*wr_set_mkey_layout_list)(struct mlx5dv_qp_ex *, uint16_t,
					const struct ibv_sge *);
	void (*wr_set_mkey_layout_interleaved)(
		struct mlx5dv_qp_ex *, uint32_t, uint16_t,
		const struct mlx5dv_mr_interleaved *);
	void (*wr_set_mkey_sig_block)(struct mlx5dv_qp_ex *,
				      const struct mlx5dv_sig_block_attr *);
	void (*wr_raw_wqe)(struct mlx5dv_qp_ex *, const void *);
	void (*wr_set_dc_addr_stream)(struct mlx5dv_qp_ex *, struct ibv_ah *,
				      uint32_t, uint64_t, uint16_t);
	void (*wr_memcpy)(struct mlx5dv_qp_ex *, uint32_t, uint64_t, uint32_t,
			  uint64_t, size_t);
	void (*wr_set_mkey_crypto)(struct mlx5dv_qp_ex *,
				   const struct mlx5dv_crypto_attr *);
};

static inline void mlx5dv_wr_set_dc_addr(struct mlx5dv_qp_ex *mqp,
					 struct ibv_ah *ah,
					 uint32_t remote_dctn,
					 uint64_t remote_dc_key)
{
	mqp->wr_set_dc_addr(mqp, ah, remote_dctn, remote_dc_key);
}

static inline void mlx5dv_wr_set_dc_addr_stream(struct mlx5dv_qp_ex *mqp,
						struct ibv_ah *ah,
						uint32_t remote_dctn,
						uint64_t remote_dc_key,
						uint16_t stream_id)
{
	mqp->wr_set_dc_addr_stream(mqp, ah, remote_dctn, remote_dc_key,
				   stream_id);
}

static inline void mlx5dv_wr_mr_interleaved(struct mlx5dv_qp_ex *mqp,
					    struct mlx5dv_mkey *mkey,
					    uint32_t access_flags,
					    uint32_t repeat_count,
					    uint16_t num_interleaved,
					    struct mlx5dv_mr_interleaved *data)
{
	mqp->wr_mr_interleaved(mqp, mkey, access_flags, repeat_count,
			       num_interleaved, data);
}

static inline void mlx5dv_wr_mr_list(struct mlx5dv_qp_ex *mqp,
				     struct mlx5dv_mkey *mkey,
				     uint32_t access_flags, uint16_t num_sges,
				     struct ibv_sge *sge)
{
	mqp->wr_mr_list(mqp, mkey, access_flags, num_sges, sge);
}

static inline void mlx5dv_wr_mkey_configure(struct mlx5dv_qp_ex *mqp,
					    struct mlx5dv_mkey *mkey,
					    uint8_t num_setters,
					    struct mlx5dv_mkey_conf_attr *attr)
{
	mqp->wr_mkey_configure(mqp, mkey, num_setters, attr);
}

static inline void mlx5dv_wr_set_mkey_access_flags(struct mlx5dv_qp_ex *mqp,
						   uint32_t access_flags)
{
	mqp->wr_set_mkey_access_flags(mqp, access_flags);
}

static inline void mlx5dv_wr_set_mkey_layout_list(struct mlx5dv_qp_ex *mqp,
						  uint16_t num_sges,
						  const struct ibv_sge *sge)
{
	mqp->wr_set_mkey_layout_list(mqp, num_sges, sge);
}

static inline void mlx5dv_wr_set_mkey_layout_interleaved(
	struct mlx5dv_qp_ex *mqp, uint32_t repeat_count,
	uint16_t num_interleaved, const struct mlx5dv_mr_interleaved *data)
{
	mqp->wr_set_mkey_layout_interleaved(mqp, repeat_count, num_interleaved,
					    data);
}

static inline void
mlx5dv_wr_set_mkey_sig_block(struct mlx5dv_qp_ex *mqp,
			     const struct mlx5dv_sig_block_attr *attr)
{
	mqp->wr_set_mkey_sig_block(mqp, attr);
}

static inline void
mlx5dv_wr_set_mkey_crypto(struct mlx5dv_qp_ex *mqp,
			  const struct mlx5dv_crypto_attr *attr)
{
	mqp->wr_set_mkey_crypto(mqp, attr);
}

static inline void mlx5dv_wr_memcpy(struct mlx5dv_qp_ex *mqp,
				    uint32_t dest_lkey, uint64_t dest_addr,
				    uint32_t src_lkey, uint64_t src_addr,
				    size_t length)
{
	mqp->wr_memcpy(mqp, dest_lkey, dest_addr, src_lkey, src_addr, length);
}

enum mlx5dv_mkey_err_type {
	MLX5DV_MKEY_NO_ERR = 0,
	MLX5DV_MKEY_SIG_BLOCK_BAD_GUARD = 1,
	MLX5DV_MKEY_SIG_BLOCK_BAD_REFTAG = 2,
	MLX5DV_MKEY_SIG_BLOCK_BAD_APPTAG = 3,
};

struct mlx5dv_sig_err {
	uint64_t actual_value;
	uint64_t expected_value;
	uint64_t offset;
};

struct mlx5dv_mkey_err {
	enum mlx5dv_mkey_err_type err_type;
	union {
		struct mlx5dv_sig_err sig;
	} err;
};

int _mlx5dv_mkey_check(struct mlx5dv_mkey *mkey,
		       struct mlx5dv_mkey_err *err_info, size_t err_info_size);

/* The error report, sized by the caller's struct. */
static inline int mlx5dv_mkey_check(struct mlx5dv_mkey *mkey,
				    struct mlx5dv_mkey_err *err_info)
{
	return _mlx5dv_mkey_check(mkey, err_info, sizeof(*err_info));
}

int mlx5dv_qp_cancel_posted_send_wrs(struct mlx5dv_qp_ex *mqp, uint64_t wr_id);

static inline void mlx5dv_wr_raw_wqe(struct mlx5dv_qp_ex *mqp, const void *wqe)
{
	mqp->wr_raw_wqe(mqp, wqe);
}

struct mlx5dv_crypto_login_attr {
	uint32_t credential_id;
	uint32_t import_kek_id;
	char credential[48];
	uint64_t comp_mask;
};

struct mlx5dv_crypto_login_attr_ex {
	uint32_t credential_id;
	uint32_t import_kek_id;
	const void *credential;
	size_t credential_len;
	uint64_t comp_mask;
};

enum mlx5dv_crypto_login_state {
	MLX5DV_CRYPTO_LOGIN_STATE_VALID = 0,
	MLX5DV_CRYPTO_LOGIN_STATE_NO_LOGIN = 1,
	MLX5DV_CRYPTO_LOGIN_STATE_INVALID = 2,
};

struct mlx5dv_crypto_login_query_attr {
	enum mlx5dv_crypto_login_state state;
	uint64_t comp_mask;
};

int mlx5dv_crypto_login_query_state(struct ibv_context *context,
				    enum mlx5dv_crypto_login_state *state);

int mlx5dv_crypto_logout(struct ibv_context *context);

struct mlx5dv_crypto_login_obj *
mlx5dv_crypto_login_create(struct ibv_context *context,
			   struct mlx5dv_crypto_login_attr_ex *login_attr);

int mlx5dv_crypto_login_query(
	struct mlx5dv_crypto_login_obj *crypto_login,
	struct mlx5dv_crypto_login_query_attr *query_attr);

int mlx5dv_crypto_login_destroy(struct mlx5dv_crypto_login_obj *crypto_login);

enum mlx5dv_crypto_key_size {
	MLX5DV_CRYPTO_KEY_SIZE_128 = 0,
	MLX5DV_CRYPTO_KEY_SIZE_256 = 1,
};

enum mlx5dv_crypto_key_purpose {
	MLX5DV_CRYPTO_KEY_PURPOSE_AES_XTS = 0,
};

enum mlx5dv_dek_state {
	MLX5DV_DEK_STATE_READY = 0,
	MLX5DV_DEK_STATE_ERROR = 1,
};

enum mlx5dv_dek_init_attr_mask {
	MLX5DV_DEK_INIT_ATTR_CRYPTO_LOGIN = 1,
};

struct mlx5dv_dek_init_attr {
	enum mlx5dv_crypto_key_size key_size;
	bool has_keytag;
	enum mlx5dv_crypto_key_purpose key_purpose;
	struct ibv_pd *pd;
	char opaque[8];
	char key[128];
	uint64_t comp_mask;
	struct mlx5dv_crypto_login_obj *crypto_login;
};

struct mlx5dv_dek_attr {
	enum mlx5dv_dek_state state;
	char opaque[8];
	uint64_t comp_mask;
};

int mlx5dv_dek_query(struct mlx5dv_dek *dek, struct mlx5dv_dek_attr *attr);

enum mlx5dv_flow_action_esp_mask {
	MLX5DV_FLOW_ACTION_ESP_MASK_FLAGS = 1,
};

struct mlx5dv_flow_action_esp {
	uint64_t comp_mask;
	uint32_t action_flags;
};

struct mlx5dv_flow_match_parameters {
	size_t match_sz;
#ifdef __cplusplus
	__extension__ uint64_t match_buf[0]; /* C++ has no flexible arrays */
#else
	uint64_t match_buf[];
#endif
};

enum mlx5dv_flow_matcher_attr_mask {
	MLX5DV_FLOW_MATCHER_MASK_FT_TYPE = 1,
};

struct mlx5dv_flow_matcher_attr {
	enum ibv_flow_attr_type type;
	uint32_t flags;
	uint16_t priority;
	uint8_t match_criteria_enable;
	struct mlx5dv_flow_match_parameters *match_mask;
	uint64_t comp_mask;
	enum mlx5_ib_uapi_flow_table_type ft_type;
};

struct mlx5dv_flow_matcher *
mlx5dv_create_flow_matcher(struct ibv_context *context,
			   struct mlx5dv_flow_matcher_attr *matcher_attr);

int mlx5dv_destroy_flow_matcher(struct mlx5dv_flow_matcher *matcher);

struct mlx5dv_steering_anchor_attr {
	enum mlx5_ib_uapi_flow_table_type ft_type;
	uint16_t priority;
	uint64_t comp_mask;
};

struct mlx5dv_steering_anchor {
	uint32_t id;
};

struct mlx5dv_steering_anchor *
mlx5dv_create_steering_anchor(struct ibv_context *context,
			      struct mlx5dv_steering_anchor_attr *attr);

int mlx5dv_destroy_steering_anchor(struct mlx5dv_steering_anchor *sa);

enum mlx5dv_flow_action_type {
	MLX5DV_FLOW_ACTION_DEST_IBV_QP = 0,
	MLX5DV_FLOW_ACTION_DROP = 1,
	MLX5DV_FLOW_ACTION_IBV_COUNTER = 2,
	MLX5DV_FLOW_ACTION_IBV_FLOW_ACTION = 3,
	MLX5DV_FLOW_ACTION_TAG = 4,
	MLX5DV_FLOW_ACTION_DEST_DEVX = 5,
	MLX5DV_FLOW_ACTION_COUNTERS_DEVX = 6,
	MLX5DV_FLOW_ACTION_DEFAULT_MISS = 7,
	MLX5DV_FLOW_ACTION_COUNTERS_DEVX_WITH_OFFSET = 8,
};

struct mlx5dv_flow_action_attr {
	enum mlx5dv_flow_action_type type;
	union {
		struct ibv_qp *qp;
		struct ibv_counters *counter;
		struct ibv_flow_action *action;
		uint32_t tag_value;
		struct mlx5dv_devx_obj *obj;
		struct {
			struct mlx5dv_devx_obj *obj;
			uint32_t offset;
		} bulk_obj;
	};
};

/*
 * The array's element size is the caller's: binaries built before
 * bulk_obj grew the struct pass 16-byte elements to the plain symbol,
 * newer ones reach __mlx5dv_create_flow through the macro below, which
 * passes the size they were compiled with.
 */
struct ibv_flow *
mlx5dv_create_flow(struct mlx5dv_flow_matcher *matcher,
		   struct mlx5dv_flow_match_parameters *match_value,
		   size_t num_actions,
		   struct mlx5dv_flow_action_attr actions_attr[]);

struct ibv_flow *
__mlx5dv_create_flow(struct mlx5dv_flow_matcher *matcher,
		     struct mlx5dv_flow_match_parameters *match_value,
		     size_t num_actions,
		     struct mlx5dv_flow_action_attr actions_attr[],
		     size_t actions_attr_len);

#define mlx5dv_create_flow(matcher, match_value, num_actions, actions_attr)   \
	__mlx5dv_create_flow(matcher, match_value, num_actions, actions_attr, \
			     sizeof(struct mlx5dv_flow_action_attr))

struct ibv_flow_action *
mlx5dv_create_flow_action_esp(struct ibv_context *ctx,
			      struct ibv_flow_action_esp_attr *esp,
			      struct mlx5dv_flow_action_esp *mlx5_attr);

struct ibv_flow_action *mlx5dv_create_flow_action_modify_header(
	struct ibv_context *ctx, size_t actions_sz, uint64_t actions[],
	enum mlx5_ib_uapi_flow_table_type ft_type);

struct ibv_flow_action *mlx5dv_create_flow_action_packet_reformat(
	struct ibv_context *ctx, size_t data_sz, void *data,
	enum mlx5_ib_uapi_flow_action_packet_reformat_type reformat_type,
	enum mlx5_ib_uapi_flow_table_type ft_type);

int mlx5dv_map_ah_to_qp(struct ibv_ah *ah, uint32_t qp_num);

struct mlx5dv_ah {
	struct mlx5_wqe_av *av;
	uint64_t comp_mask;
};

struct mlx5dv_pd {
	uint32_t pdn;
	uint64_t comp_mask;
};

enum mlx5dv_wq_init_attr_mask {
	MLX5DV_WQ_INIT_ATTR_MASK_STRIDING_RQ = 1,
};

struct mlx5dv_striding_rq_init_attr {
	uint32_t single_stride_log_num_of_bytes;
	uint32_t single_wqe_log_num_of_strides;
	uint8_t two_byte_shift_en;
};

struct mlx5dv_wq_init_attr {
	uint64_t comp_mask;
	struct mlx5dv_striding_rq_init_attr striding_rq_attrs;
};

struct ibv_wq *mlx5dv_create_wq(struct ibv_context *context,
				struct ibv_wq_init_attr *wq_init_attr,
				struct mlx5dv_wq_init_attr *mlx5_wq_attr);

struct mlx5_wqe_tm_seg {
	uint8_t opcode;
	uint8_t flags;
	__be16 index;
	uint8_t rsvd0[2];
	__be16 sw_cnt;
	uint8_t rsvd1[8];
	__be64 append_tag;
	__be64 append_mask;
};

enum {
	MLX5_WQE_UMR_CTRL_FLAG_INLINE = 1 << 7,
	MLX5_WQE_UMR_CTRL_FLAG_CHECK_FREE = 1 << 5,
	MLX5_WQE_UMR_CTRL_FLAG_TRNSLATION_OFFSET = 1 << 4,
	MLX5_WQE_UMR_CTRL_FLAG_CHECK_QPN = 8,
};

enum {
	MLX5_WQE_UMR_CTRL_MKEY_MASK_LEN = 1,
	MLX5_WQE_UMR_CTRL_MKEY_MASK_START_ADDR = 1 << 6,
	MLX5_WQE_UMR_CTRL_MKEY_MASK_SIG_ERR = 1 << 9,
	MLX5_WQE_UMR_CTRL_MKEY_MASK_BSF_ENABLE = 1 << 12,
	MLX5_WQE_UMR_CTRL_MKEY_MASK_MKEY = 1 << 13,
	MLX5_WQE_UMR_CTRL_MKEY_MASK_QPN = 1 << 14,
	MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_LOCAL_WRITE = 1 << 18,
	MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_REMOTE_READ = 1 << 19,
	MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_REMOTE_WRITE = 1 << 20,
	MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_ATOMIC = 1 << 21,
	MLX5_WQE_UMR_CTRL_MKEY_MASK_FREE = 1 << 29,
};

struct mlx5_wqe_umr_ctrl_seg {
	uint8_t flags;
	uint8_t rsvd0[3];
	__be16 klm_octowords;
	union {
		__be16 translation_offset;
		__be16 bsf_octowords;
	};
	__be64 mkey_mask;
	uint8_t rsvd1[32];
};

struct mlx5_wqe_umr_klm_seg {
	__be32 byte_count;
	__be32 mkey;
	__be64 address;
};

union mlx5_wqe_umr_inline_seg {
	struct mlx5_wqe_umr_klm_seg klm;
};

struct mlx5_wqe_umr_repeat_ent_seg {
	__be16 stride;
	__be16 byte_count;
	__be32 memkey;
	__be64 va;
};

struct mlx5_wqe_umr_repeat_block_seg {
	__be32 byte_count;
	__be32 op;
	__be32 repeat_count;
	__be16 reserved;
	__be16 num_ent;
	__extension__ struct mlx5_wqe_umr_repeat_ent_seg entries[0];
};

enum {
	MLX5_WQE_MKEY_CONTEXT_FREE = 1 << 6,
};

enum {
	MLX5_WQE_MKEY_CONTEXT_ACCESS_FLAGS_ATOMIC = 1 << 6,
	MLX5_WQE_MKEY_CONTEXT_ACCESS_FLAGS_REMOTE_WRITE = 1 << 5,
	MLX5_WQE_MKEY_CONTEXT_ACCESS_FLAGS_REMOTE_READ = 1 << 4,
	MLX5_WQE_MKEY_CONTEXT_ACCESS_FLAGS_LOCAL_WRITE = 8,
	MLX5_WQE_MKEY_CONTEXT_ACCESS_FLAGS_LOCAL_READ = 4,
};

struct mlx5_wqe_mkey_context_seg {
	uint8_t free;
	uint8_t reserved1;
	uint8_t access_flags;
	uint8_t sf;
	__be32 qpn_mkey;
	__be32 reserved2;
	__be32 flags_pd;
	__be64 start_addr;
	__be64 len;
	__be32 bsf_octword_size;
	__be32 reserved3[4];
	__be32 translations_octword_size;
	uint8_t reserved4[3];
	uint8_t log_page_size;
	__be32 reserved;
	__extension__ union mlx5_wqe_umr_inline_seg inseg[0];
};

enum mlx5dv_set_ctx_attr_type {
	MLX5DV_CTX_ATTR_BUF_ALLOCATORS = 1,
};

enum {
	MLX5_MMAP_GET_REGULAR_PAGES_CMD = 0,
	MLX5_MMAP_GET_NC_PAGES_CMD = 3,
};

struct mlx5dv_ctx_allocators {
	void *(*alloc)(size_t, void *);
	void (*free)(void *, void *);
	void *data;
};

int mlx5dv_set_context_attr(struct ibv_context *context,
			    enum mlx5dv_set_ctx_attr_type type, void *attr);

struct mlx5dv_clock_info {
	uint64_t nsec;
	uint64_t last_cycles;
	uint64_t frac;
	uint32_t mult;
	uint32_t shift;
	uint64_t mask;
};

int mlx5dv_get_clock_info(struct ibv_context *context,
			  struct mlx5dv_clock_info *clock_info);

/*
 * A device timestamp in nanoseconds, from a clock_info snapshot: the cycle
 * distance from the snapshot (forwards or, past half the counter's range,
 * backwards) scaled by mult >> shift with the carried fraction.
 */
static inline uint64_t mlx5dv_ts_to_ns(struct mlx5dv_clock_info *clock_info,
				       uint64_t device_timestamp)
{
	uint64_t ahead =
		(device_timestamp - clock_info->last_cycles) & clock_info->mask;
	uint64_t behind;

	if (ahead <= clock_info->mask / 2)
		return clock_info->nsec +
		       ((ahead * clock_info->mult + clock_info->frac) >>
			clock_info->shift);
	behind =
		(clock_info->last_cycles - device_timestamp) & clock_info->mask;
	return clock_info->nsec -
	       ((behind * clock_info->mult - clock_info->frac) >>
		clock_info->shift);
}

enum mlx5dv_vfio_context_attr_flags {
	MLX5DV_VFIO_CTX_FLAGS_INIT_LINK_DOWN = 1,
};

struct mlx5dv_vfio_context_attr {
	const char *pci_name;
	uint32_t flags;
	uint64_t comp_mask;
};

struct ibv_device **
mlx5dv_get_vfio_device_list(struct mlx5dv_vfio_context_attr *attr);

int mlx5dv_vfio_get_events_fd(struct ibv_context *ibctx);

int mlx5dv_vfio_process_events(struct ibv_context *context);

struct mlx5dv_devx_obj *mlx5dv_devx_obj_create(struct ibv_context *context,
					       const void *in, size_t inlen,
					       void *out, size_t outlen);

int mlx5dv_devx_obj_query(struct mlx5dv_devx_obj *obj, const void *in,
			  size_t inlen, void *out, size_t outlen);

int mlx5dv_devx_obj_modify(struct mlx5dv_devx_obj *obj, const void *in,
			   size_t inlen, void *out, size_t outlen);

int mlx5dv_devx_obj_destroy(struct mlx5dv_devx_obj *obj);

int _mlx5dv_query_port(struct ibv_context *context, uint32_t port_num,
		       struct mlx5dv_port *info, size_t info_len);

/* Port information, sized by the caller's struct. */
static inline int mlx5dv_query_port(struct ibv_context *context,
				    uint32_t port_num, struct mlx5dv_port *info)
{
	return _mlx5dv_query_port(context, port_num, info, sizeof(*info));
}

struct mlx5dv_devx_umem {
	uint32_t umem_id;
};

struct mlx5dv_devx_umem *mlx5dv_devx_umem_reg(struct ibv_context *ctx,
					      void *addr, size_t size,
					      uint32_t access);

enum mlx5dv_devx_umem_in_mask {
	MLX5DV_UMEM_MASK_DMABUF = 1,
};

struct mlx5dv_devx_umem_in {
	void *addr;
	size_t size;
	uint32_t access;
	uint64_t pgsz_bitmap;
	uint64_t comp_mask;
	int dmabuf_fd;
};

struct mlx5dv_devx_umem *
mlx5dv_devx_umem_reg_ex(struct ibv_context *ctx,
			struct mlx5dv_devx_umem_in *umem_in);

int mlx5dv_devx_umem_dereg(struct mlx5dv_devx_umem *umem);

struct mlx5dv_devx_uar {
	void *reg_addr;
	void *base_addr;
	uint32_t page_id;
	off_t mmap_off;
	uint64_t comp_mask;
};

struct mlx5dv_devx_uar *mlx5dv_devx_alloc_uar(struct ibv_context *context,
					      uint32_t flags);

void mlx5dv_devx_free_uar(struct mlx5dv_devx_uar *devx_uar);

/*
 * The UAR page of @devx_uar as a dma-buf (MLX5_1.26), for another device
 * to ring its doorbells. A new fd, or -1 with errno (EOPNOTSUPP: not an
 * mlx5 context, or a kernel without dma-buf export).
 */
int mlx5dv_devx_uar_export_dmabuf_fd(struct mlx5dv_devx_uar *devx_uar);

struct mlx5dv_var {
	uint32_t page_id;
	uint32_t length;
	off_t mmap_off;
	uint64_t comp_mask;
};

struct mlx5dv_var *mlx5dv_alloc_var(struct ibv_context *context,
				    uint32_t flags);

void mlx5dv_free_var(struct mlx5dv_var *dv_var);

/*
 * Sharing DEVX objects, UMEMs and VARs with another process that imported
 * the context: the bytes export writes and import reads, per object type.
 */
struct mlx5dv_export_sizes {
	uint32_t var_attrs_size;
	uint32_t devx_umem_attrs_size;
	uint32_t devx_obj_attrs_size;
};

void _mlx5dv_get_export_sizes(struct mlx5dv_export_sizes *sizes,
			      size_t sizes_len);

/* Sized by the caller's struct, so an older one is filled as it knows. */
static inline void mlx5dv_get_export_sizes(struct mlx5dv_export_sizes *sizes)
{
	_mlx5dv_get_export_sizes(sizes, sizeof(*sizes));
}

int mlx5dv_devx_obj_export(struct mlx5dv_devx_obj *obj, void *data);
struct mlx5dv_devx_obj *mlx5dv_devx_obj_import(struct ibv_context *context,
					       void *data);
void mlx5dv_devx_obj_unimport(struct mlx5dv_devx_obj *obj);

int mlx5dv_devx_umem_export(struct mlx5dv_devx_umem *umem, void *data);
struct mlx5dv_devx_umem *mlx5dv_devx_umem_import(struct ibv_context *context,
						 void *data);
void mlx5dv_devx_umem_unimport(struct mlx5dv_devx_umem *umem);

int mlx5dv_var_export(struct mlx5dv_var *var, void *data);
struct mlx5dv_var *mlx5dv_var_import(struct ibv_context *context, void *data);
void mlx5dv_var_unimport(struct mlx5dv_var *var);

int mlx5dv_devx_query_eqn(struct ibv_context *context, uint32_t vector,
			  uint32_t *eqn);

int mlx5dv_devx_cq_query(struct ibv_cq *cq, const void *in, size_t inlen,
			 void *out, size_t outlen);

int mlx5dv_devx_cq_modify(struct ibv_cq *cq, const void *in, size_t inlen,
			  void *out, size_t outlen);

int mlx5dv_devx_qp_query(struct ibv_qp *qp, const void *in, size_t inlen,
			 void *out, size_t outlen);

int mlx5dv_devx_qp_modify(struct ibv_qp *qp, const void *in, size_t inlen,
			  void *out, size_t outlen);

int mlx5dv_devx_srq_query(struct ibv_srq *srq, const void *in, size_t inlen,
			  void *out, size_t outlen);

int mlx5dv_devx_srq_modify(struct ibv_srq *srq, const void *in, size_t inlen,
			   void *out, size_t outlen);

int mlx5dv_devx_wq_query(struct ibv_wq *wq, const void *in, size_t inlen,
			 void *out, size_t outlen);

int mlx5dv_devx_wq_modify(struct ibv_wq *wq, const void *in, size_t inlen,
			  void *out, size_t outlen);

int mlx5dv_devx_ind_tbl_query(struct ibv_rwq_ind_table *ind_tbl, const void *in,
			      size_t inlen, void *out, size_t outlen);

int mlx5dv_devx_ind_tbl_modify(struct ibv_rwq_ind_table *ind_tbl,
			       const void *in, size_t inlen, void *out,
			       size_t outlen);

struct mlx5dv_devx_cmd_comp {
	int fd;
};

struct mlx5dv_devx_cmd_comp *
mlx5dv_devx_create_cmd_comp(struct ibv_context *context);

void mlx5dv_devx_destroy_cmd_comp(struct mlx5dv_devx_cmd_comp *cmd_comp);

int mlx5dv_devx_obj_query_async(struct mlx5dv_devx_obj *obj, const void *in,
				size_t inlen, size_t outlen, uint64_t wr_id,
				struct mlx5dv_devx_cmd_comp *cmd_comp);

int mlx5dv_devx_get_async_cmd_comp(
	struct mlx5dv_devx_cmd_comp *cmd_comp,
	struct mlx5_ib_uapi_devx_async_cmd_hdr *cmd_resp, size_t cmd_resp_len);

struct mlx5dv_devx_event_channel {
	int fd;
};

struct mlx5dv_devx_event_channel *mlx5dv_devx_create_event_channel(
	struct ibv_context *context,
	enum mlx5_ib_uapi_devx_create_event_channel_flags flags);

void mlx5dv_devx_destroy_event_channel(
	struct mlx5dv_devx_event_channel *event_channel);

int mlx5dv_devx_subscribe_devx_event(
	struct mlx5dv_devx_event_channel *event_channel,
	struct mlx5dv_devx_obj *obj, uint16_t events_sz, uint16_t events_num[],
	uint64_t cookie);

int mlx5dv_devx_subscribe_devx_event_fd(
	struct mlx5dv_devx_event_channel *event_channel, int fd,
	struct mlx5dv_devx_obj *obj, uint16_t event_num);

ssize_t
mlx5dv_devx_get_event(struct mlx5dv_devx_event_channel *event_channel,
		      struct mlx5_ib_uapi_devx_async_event_hdr *event_data,
		      size_t event_resp_len);

/*
 * DEVX field access. A consumer describes a command layout as
 * struct mlx5_ifc_<name>_bits, one uint8_t per bit (the PRM's notation);
 * these macros turn a field of it into a bit offset and width and read or
 * write that field, big-endian, in a command buffer.
 */
#define __devx_nullp(typ)	 ((struct mlx5_ifc_##typ##_bits *)NULL)
#define __devx_st_sz_bits(typ)	 sizeof(struct mlx5_ifc_##typ##_bits)
#define __devx_bit_sz(typ, fld)	 sizeof(__devx_nullp(typ)->fld)
#define __devx_bit_off(typ, fld) offsetof(struct mlx5_ifc_##typ##_bits, fld)
#define __devx_dw_off(bit_off)	 ((bit_off) / 32)
#define __devx_64_off(bit_off)	 ((bit_off) / 64)
/* where, counted from bit 0 of its big-endian dword, a field's LSB sits */
#define __devx_dw_bit_off(bit_sz, bit_off) (32 - (bit_sz) - ((bit_off)&0x1f))
#define __devx_mask(bit_sz)		   ((uint32_t)((1ull << (bit_sz)) - 1))
#define __devx_dw_mask(bit_sz, bit_off)                                        \
	(__devx_mask(bit_sz) << __devx_dw_bit_off(bit_sz, bit_off))

#define DEVX_FLD_SZ_BYTES(typ, fld) (__devx_bit_sz(typ, fld) / 8)
#define DEVX_ST_SZ_BYTES(typ)	    (__devx_st_sz_bits(typ) / 8)
#define DEVX_ST_SZ_DW(typ)	    (__devx_st_sz_bits(typ) / 32)
#define DEVX_ST_SZ_QW(typ)	    (__devx_st_sz_bits(typ) / 64)
#define DEVX_UN_SZ_BYTES(typ)	    (sizeof(union mlx5_ifc_##typ##_bits) / 8)
#define DEVX_UN_SZ_DW(typ)	    (sizeof(union mlx5_ifc_##typ##_bits) / 32)
#define DEVX_BYTE_OFF(typ, fld)	    (__devx_bit_off(typ, fld) / 8)
#define DEVX_ADDR_OF(typ, p, fld)                                              \
	((unsigned char *)(p) + DEVX_BYTE_OFF(typ, fld))

static inline void _devx_set(void *p, uint32_t value, size_t bit_off,
			     size_t bit_sz)
{
	__be32 *dw = (__be32 *)p + __devx_dw_off(bit_off);
	uint32_t shift = __devx_dw_bit_off(bit_sz, bit_off);
	uint32_t keep = be32toh(*dw) & ~__devx_dw_mask(bit_sz, bit_off);

	*dw = htobe32(keep | ((value & __devx_mask(bit_sz)) << shift));
}

static inline uint32_t _devx_get(const void *p, size_t bit_off, size_t bit_sz)
{
	uint32_t dw = be32toh(*((const __be32 *)p + __devx_dw_off(bit_off)));

	return (dw >> __devx_dw_bit_off(bit_sz, bit_off)) & __devx_mask(bit_sz);
}

/* 64-bit fields are naturally aligned: a whole big-endian qword. */
static inline void _devx_set64(void *p, uint64_t v, size_t bit_off)
{
	*((__be64 *)p + __devx_64_off(bit_off)) = htobe64(v);
}

static inline uint64_t _devx_get64(const void *p, size_t bit_off)
{
	return be64toh(*((const __be64 *)p + __devx_64_off(bit_off)));
}

#define DEVX_SET(typ, p, fld, v)                                               \
	_devx_set(p, v, __devx_bit_off(typ, fld), __devx_bit_sz(typ, fld))
#define DEVX_GET(typ, p, fld)                                                  \
	_devx_get(p, __devx_bit_off(typ, fld), __devx_bit_sz(typ, fld))
#define DEVX_SET64(typ, p, fld, v) _devx_set64(p, v, __devx_bit_off(typ, fld))
#define DEVX_GET64(typ, p, fld)	   _devx_get64(p, __devx_bit_off(typ, fld))
#define DEVX_ARRAY_SET64(typ, p, fld, idx, v)                                  \
	do {                                                                   \
		DEVX_SET64(typ, p, fld[idx], v);                               \
	} while (0)

enum mlx5dv_dr_domain_type {
	MLX5DV_DR_DOMAIN_TYPE_NIC_RX = 0,
	MLX5DV_DR_DOMAIN_TYPE_NIC_TX = 1,
	MLX5DV_DR_DOMAIN_TYPE_FDB = 2,
};

enum mlx5dv_dr_domain_sync_flags {
	MLX5DV_DR_DOMAIN_SYNC_FLAGS_SW = 1,
	MLX5DV_DR_DOMAIN_SYNC_FLAGS_HW = 2,
	MLX5DV_DR_DOMAIN_SYNC_FLAGS_MEM = 4,
};

struct mlx5dv_dr_flow_meter_attr {
	struct mlx5dv_dr_table *next_table;
	uint8_t active;
	uint8_t reg_c_index;
	size_t flow_meter_parameter_sz;
	void *flow_meter_parameter;
};

struct mlx5dv_dr_flow_sampler_attr {
	uint32_t sample_ratio;
	struct mlx5dv_dr_table *default_next_table;
	uint32_t num_sample_actions;
	struct mlx5dv_dr_action **sample_actions;
	__be64 action;
};

struct mlx5dv_dr_domain *
mlx5dv_dr_domain_create(struct ibv_context *ctx,
			enum mlx5dv_dr_domain_type type);

int mlx5dv_dr_domain_destroy(struct mlx5dv_dr_domain *domain);

int mlx5dv_dr_domain_sync(struct mlx5dv_dr_domain *domain, uint32_t flags);

void mlx5dv_dr_domain_set_reclaim_device_memory(struct mlx5dv_dr_domain *dmn,
						bool enable);

void mlx5dv_dr_domain_allow_duplicate_rules(struct mlx5dv_dr_domain *domain,
					    bool allow);

struct mlx5dv_dr_table *mlx5dv_dr_table_create(struct mlx5dv_dr_domain *domain,
					       uint32_t level);

int mlx5dv_dr_table_destroy(struct mlx5dv_dr_table *table);

struct mlx5dv_dr_matcher *
mlx5dv_dr_matcher_create(struct mlx5dv_dr_table *table, uint16_t priority,
			 uint8_t match_criteria_enable,
			 struct mlx5dv_flow_match_parameters *mask);

int mlx5dv_dr_matcher_destroy(struct mlx5dv_dr_matcher *matcher);

enum mlx5dv_dr_matcher_layout_flags {
	MLX5DV_DR_MATCHER_LAYOUT_RESIZABLE = 1,
	MLX5DV_DR_MATCHER_LAYOUT_NUM_RULE = 2,
};

struct mlx5dv_dr_matcher_layout {
	uint32_t flags;
	uint32_t log_num_of_rules_hint;
};

int mlx5dv_dr_matcher_set_layout(struct mlx5dv_dr_matcher *matcher,
				 struct mlx5dv_dr_matcher_layout *layout);

struct mlx5dv_dr_rule *
mlx5dv_dr_rule_create(struct mlx5dv_dr_matcher *matcher,
		      struct mlx5dv_flow_match_parameters *value,
		      size_t num_actions, struct mlx5dv_dr_action *actions[]);

int mlx5dv_dr_rule_destroy(struct mlx5dv_dr_rule *rule);

enum mlx5dv_dr_action_flags {
	MLX5DV_DR_ACTION_FLAGS_ROOT_LEVEL = 1,
};

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_dest_ibv_qp(struct ibv_qp *ibqp);

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_dest_table(struct mlx5dv_dr_table *table);

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_dest_vport(struct mlx5dv_dr_domain *domain,
				   uint32_t vport);

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_dest_ib_port(struct mlx5dv_dr_domain *domain,
				     uint32_t ib_port);

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_dest_devx_tir(struct mlx5dv_devx_obj *devx_obj);

enum mlx5dv_dr_action_dest_type {
	MLX5DV_DR_ACTION_DEST = 0,
	MLX5DV_DR_ACTION_DEST_REFORMAT = 1,
};

struct mlx5dv_dr_action_dest_reformat {
	struct mlx5dv_dr_action *reformat;
	struct mlx5dv_dr_action *dest;
};

struct mlx5dv_dr_action_dest_attr {
	enum mlx5dv_dr_action_dest_type type;
	union {
		struct mlx5dv_dr_action *dest;
		struct mlx5dv_dr_action_dest_reformat *dest_reformat;
	};
};

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_dest_array(struct mlx5dv_dr_domain *domain,
				   size_t num_dest,
				   struct mlx5dv_dr_action_dest_attr *dests[]);

struct mlx5dv_dr_action *mlx5dv_dr_action_create_drop(void);

struct mlx5dv_dr_action *mlx5dv_dr_action_create_default_miss(void);

struct mlx5dv_dr_action *mlx5dv_dr_action_create_tag(uint32_t tag_value);

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_flow_counter(struct mlx5dv_devx_obj *devx_obj,
				     uint32_t offset);

enum mlx5dv_dr_action_aso_first_hit_flags {
	MLX5DV_DR_ACTION_FLAGS_ASO_FIRST_HIT_SET = 1,
};

enum mlx5dv_dr_action_aso_flow_meter_flags {
	MLX5DV_DR_ACTION_FLAGS_ASO_FLOW_METER_RED = 1,
	MLX5DV_DR_ACTION_FLAGS_ASO_FLOW_METER_YELLOW = 2,
	MLX5DV_DR_ACTION_FLAGS_ASO_FLOW_METER_GREEN = 4,
	MLX5DV_DR_ACTION_FLAGS_ASO_FLOW_METER_UNDEFINED = 8,
};

enum mlx5dv_dr_action_aso_ct_flags {
	MLX5DV_DR_ACTION_FLAGS_ASO_CT_DIRECTION_INITIATOR = 1,
	MLX5DV_DR_ACTION_FLAGS_ASO_CT_DIRECTION_RESPONDER = 2,
};

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_aso(struct mlx5dv_dr_domain *domain,
			    struct mlx5dv_devx_obj *devx_obj, uint32_t offset,
			    uint32_t flags, uint8_t return_reg_c);

int mlx5dv_dr_action_modify_aso(struct mlx5dv_dr_action *action,
				uint32_t offset, uint32_t flags,
				uint8_t return_reg_c);

struct mlx5dv_dr_action *mlx5dv_dr_action_create_packet_reformat(
	struct mlx5dv_dr_domain *domain, uint32_t flags,
	enum mlx5_ib_uapi_flow_action_packet_reformat_type reformat_type,
	size_t data_sz, void *data);

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_modify_header(struct mlx5dv_dr_domain *domain,
				      uint32_t flags, size_t actions_sz,
				      __be64 actions[]);

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_flow_meter(struct mlx5dv_dr_flow_meter_attr *attr);

int mlx5dv_dr_action_modify_flow_meter(struct mlx5dv_dr_action *action,
				       struct mlx5dv_dr_flow_meter_attr *attr,
				       __be64 modify_field_select);

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_flow_sampler(struct mlx5dv_dr_flow_sampler_attr *attr);

struct mlx5dv_dr_action *mlx5dv_dr_action_create_pop_vlan(void);

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_push_vlan(struct mlx5dv_dr_domain *domain,
				  __be32 vlan_hdr);

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_dest_root_table(struct mlx5dv_dr_table *table,
					uint16_t priority);

int mlx5dv_dr_action_destroy(struct mlx5dv_dr_action *action);

int mlx5dv_dump_dr_domain(FILE *fout, struct mlx5dv_dr_domain *domain);

int mlx5dv_dump_dr_table(FILE *fout, struct mlx5dv_dr_table *table);

int mlx5dv_dump_dr_matcher(FILE *fout, struct mlx5dv_dr_matcher *matcher);

int mlx5dv_dump_dr_rule(FILE *fout, struct mlx5dv_dr_rule *rule);

struct mlx5dv_pp {
	uint16_t index;
};

struct mlx5dv_pp *mlx5dv_pp_alloc(struct ibv_context *context,
				  size_t pp_context_sz, const void *pp_context,
				  uint32_t flags);

void mlx5dv_pp_free(struct mlx5dv_pp *pp);

int mlx5dv_query_qp_lag_port(struct ibv_qp *qp, uint8_t *port_num,
			     uint8_t *active_port_num);

int mlx5dv_modify_qp_lag_port(struct ibv_qp *qp, uint8_t port_num);

int mlx5dv_modify_qp_udp_sport(struct ibv_qp *qp, uint16_t udp_sport);

int mlx5dv_dci_stream_id_reset(struct ibv_qp *qp, uint16_t stream_id);

enum mlx5dv_sched_elem_attr_flags {
	MLX5DV_SCHED_ELEM_ATTR_FLAGS_BW_SHARE = 1,
	MLX5DV_SCHED_ELEM_ATTR_FLAGS_MAX_AVG_BW = 2,
};

struct mlx5dv_sched_attr {
	struct mlx5dv_sched_node *parent;
	uint32_t flags;
	uint32_t bw_share;
	uint32_t max_avg_bw;
	uint64_t comp_mask;
};

struct mlx5dv_sched_node *
mlx5dv_sched_node_create(struct ibv_context *context,
			 const struct mlx5dv_sched_attr *sched_attr);

struct mlx5dv_sched_leaf *
mlx5dv_sched_leaf_create(struct ibv_context *context,
			 const struct mlx5dv_sched_attr *sched_attr);

int mlx5dv_sched_node_modify(struct mlx5dv_sched_node *node,
			     const struct mlx5dv_sched_attr *sched_attr);

int mlx5dv_sched_leaf_modify(struct mlx5dv_sched_leaf *leaf,
			     const struct mlx5dv_sched_attr *sched_attr);

int mlx5dv_sched_node_destroy(struct mlx5dv_sched_node *node);

int mlx5dv_sched_leaf_destroy(struct mlx5dv_sched_leaf *leaf);

int mlx5dv_modify_qp_sched_elem(struct ibv_qp *qp,
				const struct mlx5dv_sched_leaf *requestor,
				const struct mlx5dv_sched_leaf *responder);

int mlx5dv_reserved_qpn_alloc(struct ibv_context *ctx, uint32_t *qpn);

int mlx5dv_reserved_qpn_dealloc(struct ibv_context *ctx, uint32_t qpn);

int mlx5dv_dr_aso_other_domain_link(struct mlx5dv_devx_obj *devx_obj,
				    struct mlx5dv_dr_domain *peer_dmn,
				    struct mlx5dv_dr_domain *dmn,
				    uint32_t flags, uint8_t return_reg_c);

int mlx5dv_dr_aso_other_domain_unlink(struct mlx5dv_devx_obj *devx_obj,
				      struct mlx5dv_dr_domain *dmn);

struct mlx5dv_devx_msi_vector {
	int vector;
	int fd;
};

struct mlx5dv_devx_msi_vector *
mlx5dv_devx_alloc_msi_vector(struct ibv_context *ibctx);

int mlx5dv_devx_free_msi_vector(struct mlx5dv_devx_msi_vector *msi);

struct mlx5dv_devx_eq {
	void *vaddr;
};

struct mlx5dv_devx_eq *mlx5dv_devx_create_eq(struct ibv_context *ibctx,
					     const void *in, size_t inlen,
					     void *out, size_t outlen);

int mlx5dv_devx_destroy_eq(struct mlx5dv_devx_eq *eq);

#ifdef __cplusplus
}
#endif

#endif /* INFINIBAND_MLX5DV_OFFLOAD_H */
