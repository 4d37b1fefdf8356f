// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The mlx5dv offload API of <infiniband/mlx5dv_offload.h> (flow steering,
 * DR, DEVX objects and events, UMEMs, mkeys/signature/crypto, scheduling,
 * VFIO, clock info...), none of which this provider implements. Each entry
 * point exists at upstream's symbol version so programs built against
 * rdma-core link and load, and fails the way upstream's reports errors:
 * NULL with errno EOPNOTSUPP, EOPNOTSUPP returned, or -1 with errno
 * EOPNOTSUPP (ssize_t reads, file descriptors); void ones do nothing.
 */
#include <errno.h>
#include <stddef.h>

#include "mlx5.h"

/* The header routes calls to __mlx5dv_create_flow; this is the symbol. */
#undef mlx5dv_create_flow

#define UNSUP_PTR(ret, name, params)                                           \
	ret name params                                                        \
	{                                                                      \
		errno = EOPNOTSUPP;                                            \
		return NULL;                                                   \
	}
#define UNSUP_INT(ret, name, params)                                           \
	ret name params                                                        \
	{                                                                      \
		return EOPNOTSUPP;                                             \
	}
#define UNSUP_MINUS1(ret, name, params)                                        \
	ret name params                                                        \
	{                                                                      \
		errno = EOPNOTSUPP;                                            \
		return -1;                                                     \
	}
#define UNSUP_VOID(ret, name, params)                                          \
	ret name params                                                        \
	{                                                                      \
	}

UNSUP_INT(int, _mlx5dv_mkey_check,
	  (struct mlx5dv_mkey * mkey, struct mlx5dv_mkey_err *err_info,
	   size_t err_info_size))
UNSUP_INT(int, mlx5dv_qp_cancel_posted_send_wrs,
	  (struct mlx5dv_qp_ex * mqp, uint64_t wr_id))
UNSUP_INT(int, mlx5dv_crypto_login_query_state,
	  (struct ibv_context * context, enum mlx5dv_crypto_login_state *state))
UNSUP_INT(int, mlx5dv_crypto_logout, (struct ibv_context * context))
UNSUP_PTR(struct mlx5dv_crypto_login_obj *, mlx5dv_crypto_login_create,
	  (struct ibv_context * context,
	   struct mlx5dv_crypto_login_attr_ex *login_attr))
UNSUP_INT(int, mlx5dv_crypto_login_query,
	  (struct mlx5dv_crypto_login_obj * crypto_login,
	   struct mlx5dv_crypto_login_query_attr *query_attr))
UNSUP_INT(int, mlx5dv_crypto_login_destroy,
	  (struct mlx5dv_crypto_login_obj * crypto_login))
UNSUP_INT(int, mlx5dv_dek_query,
	  (struct mlx5dv_dek * dek, struct mlx5dv_dek_attr *attr))
UNSUP_PTR(struct mlx5dv_flow_matcher *, mlx5dv_create_flow_matcher,
	  (struct ibv_context * context,
	   struct mlx5dv_flow_matcher_attr *matcher_attr))
UNSUP_INT(int, mlx5dv_destroy_flow_matcher,
	  (struct mlx5dv_flow_matcher * matcher))
UNSUP_PTR(struct mlx5dv_steering_anchor *, mlx5dv_create_steering_anchor,
	  (struct ibv_context * context,
	   struct mlx5dv_steering_anchor_attr *attr))
UNSUP_INT(int, mlx5dv_destroy_steering_anchor,
	  (struct mlx5dv_steering_anchor * sa))
UNSUP_PTR(struct ibv_flow *, mlx5dv_create_flow,
	  (struct mlx5dv_flow_matcher * matcher,
	   struct mlx5dv_flow_match_parameters *match_value, size_t num_actions,
	   struct mlx5dv_flow_action_attr actions_attr[]))
UNSUP_PTR(struct ibv_flow *, __mlx5dv_create_flow,
	  (struct mlx5dv_flow_matcher * matcher,
	   struct mlx5dv_flow_match_parameters *match_value, size_t num_actions,
	   struct mlx5dv_flow_action_attr actions_attr[],
	   size_t actions_attr_len))
UNSUP_PTR(struct ibv_flow_action *, mlx5dv_create_flow_action_esp,
	  (struct ibv_context * ctx, struct ibv_flow_action_esp_attr *esp,
	   struct mlx5dv_flow_action_esp *mlx5_attr))
UNSUP_PTR(struct ibv_flow_action *, mlx5dv_create_flow_action_modify_header,
	  (struct ibv_context * ctx, size_t actions_sz, uint64_t actions[],
	   enum mlx5_ib_uapi_flow_table_type ft_type))
UNSUP_PTR(struct ibv_flow_action *, mlx5dv_create_flow_action_packet_reformat,
	  (struct ibv_context * ctx, size_t data_sz, void *data,
	   enum mlx5_ib_uapi_flow_action_packet_reformat_type reformat_type,
	   enum mlx5_ib_uapi_flow_table_type ft_type))
UNSUP_INT(int, mlx5dv_map_ah_to_qp, (struct ibv_ah * ah, uint32_t qp_num))
UNSUP_PTR(struct ibv_wq *, mlx5dv_create_wq,
	  (struct ibv_context * context, struct ibv_wq_init_attr *wq_init_attr,
	   struct mlx5dv_wq_init_attr *mlx5_wq_attr))
UNSUP_INT(int, mlx5dv_set_context_attr,
	  (struct ibv_context * context, enum mlx5dv_set_ctx_attr_type type,
	   void *attr))
UNSUP_PTR(struct ibv_device **, mlx5dv_get_vfio_device_list,
	  (struct mlx5dv_vfio_context_attr * attr))
UNSUP_MINUS1(int, mlx5dv_vfio_get_events_fd, (struct ibv_context * ibctx))
UNSUP_INT(int, mlx5dv_vfio_process_events, (struct ibv_context * context))
UNSUP_PTR(struct mlx5dv_devx_obj *, mlx5dv_devx_obj_create,
	  (struct ibv_context * context, const void *in, size_t inlen,
	   void *out, size_t outlen))
UNSUP_INT(int, mlx5dv_devx_obj_query,
	  (struct mlx5dv_devx_obj * obj, const void *in, size_t inlen,
	   void *out, size_t outlen))
UNSUP_INT(int, mlx5dv_devx_obj_modify,
	  (struct mlx5dv_devx_obj * obj, const void *in, size_t inlen,
	   void *out, size_t outlen))
UNSUP_INT(int, mlx5dv_devx_obj_destroy, (struct mlx5dv_devx_obj * obj))
UNSUP_INT(int, _mlx5dv_query_port,
	  (struct ibv_context * context, uint32_t port_num,
	   struct mlx5_ib_uapi_query_port *info, size_t info_len))
UNSUP_PTR(struct mlx5dv_devx_umem *, mlx5dv_devx_umem_reg,
	  (struct ibv_context * ctx, void *addr, size_t size, uint32_t access))
UNSUP_PTR(struct mlx5dv_devx_umem *, mlx5dv_devx_umem_reg_ex,
	  (struct ibv_context * ctx, struct mlx5dv_devx_umem_in *umem_in))
UNSUP_INT(int, mlx5dv_devx_umem_dereg, (struct mlx5dv_devx_umem * umem))
UNSUP_PTR(struct mlx5dv_var *, mlx5dv_alloc_var,
	  (struct ibv_context * context, uint32_t flags))
UNSUP_VOID(void, mlx5dv_free_var, (struct mlx5dv_var * dv_var))
/* No object above can exist here, so none is exported or imported. */
UNSUP_INT(int, mlx5dv_devx_obj_export,
	  (struct mlx5dv_devx_obj * obj, void *data))
UNSUP_PTR(struct mlx5dv_devx_obj *, mlx5dv_devx_obj_import,
	  (struct ibv_context * context, void *data))
UNSUP_VOID(void, mlx5dv_devx_obj_unimport, (struct mlx5dv_devx_obj * obj))
UNSUP_INT(int, mlx5dv_devx_umem_export,
	  (struct mlx5dv_devx_umem * umem, void *data))
UNSUP_PTR(struct mlx5dv_devx_umem *, mlx5dv_devx_umem_import,
	  (struct ibv_context * context, void *data))
UNSUP_VOID(void, mlx5dv_devx_umem_unimport, (struct mlx5dv_devx_umem * umem))
UNSUP_INT(int, mlx5dv_var_export, (struct mlx5dv_var * var, void *data))
UNSUP_PTR(struct mlx5dv_var *, mlx5dv_var_import,
	  (struct ibv_context * context, void *data))
UNSUP_VOID(void, mlx5dv_var_unimport, (struct mlx5dv_var * var))
UNSUP_INT(int, mlx5dv_devx_query_eqn,
	  (struct ibv_context * context, uint32_t vector, uint32_t *eqn))
UNSUP_INT(int, mlx5dv_devx_cq_query,
	  (struct ibv_cq * cq, const void *in, size_t inlen, void *out,
	   size_t outlen))
UNSUP_INT(int, mlx5dv_devx_cq_modify,
	  (struct ibv_cq * cq, const void *in, size_t inlen, void *out,
	   size_t outlen))
UNSUP_INT(int, mlx5dv_devx_qp_query,
	  (struct ibv_qp * qp, const void *in, size_t inlen, void *out,
	   size_t outlen))
UNSUP_INT(int, mlx5dv_devx_qp_modify,
	  (struct ibv_qp * qp, const void *in, size_t inlen, void *out,
	   size_t outlen))
UNSUP_INT(int, mlx5dv_devx_srq_query,
	  (struct ibv_srq * srq, const void *in, size_t inlen, void *out,
	   size_t outlen))
UNSUP_INT(int, mlx5dv_devx_srq_modify,
	  (struct ibv_srq * srq, const void *in, size_t inlen, void *out,
	   size_t outlen))
UNSUP_INT(int, mlx5dv_devx_wq_query,
	  (struct ibv_wq * wq, const void *in, size_t inlen, void *out,
	   size_t outlen))
UNSUP_INT(int, mlx5dv_devx_wq_modify,
	  (struct ibv_wq * wq, const void *in, size_t inlen, void *out,
	   size_t outlen))
UNSUP_INT(int, mlx5dv_devx_ind_tbl_query,
	  (struct ibv_rwq_ind_table * ind_tbl, const void *in, size_t inlen,
	   void *out, size_t outlen))
UNSUP_INT(int, mlx5dv_devx_ind_tbl_modify,
	  (struct ibv_rwq_ind_table * ind_tbl, const void *in, size_t inlen,
	   void *out, size_t outlen))
UNSUP_PTR(struct mlx5dv_devx_cmd_comp *, mlx5dv_devx_create_cmd_comp,
	  (struct ibv_context * context))
UNSUP_VOID(void, mlx5dv_devx_destroy_cmd_comp,
	   (struct mlx5dv_devx_cmd_comp * cmd_comp))
UNSUP_INT(int, mlx5dv_devx_obj_query_async,
	  (struct mlx5dv_devx_obj * obj, const void *in, size_t inlen,
	   size_t outlen, uint64_t wr_id,
	   struct mlx5dv_devx_cmd_comp *cmd_comp))
UNSUP_INT(int, mlx5dv_devx_get_async_cmd_comp,
	  (struct mlx5dv_devx_cmd_comp * cmd_comp,
	   struct mlx5_ib_uapi_devx_async_cmd_hdr *cmd_resp,
	   size_t cmd_resp_len))
UNSUP_PTR(struct mlx5dv_devx_event_channel *, mlx5dv_devx_create_event_channel,
	  (struct ibv_context * context,
	   enum mlx5_ib_uapi_devx_create_event_channel_flags flags))
UNSUP_VOID(void, mlx5dv_devx_destroy_event_channel,
	   (struct mlx5dv_devx_event_channel * event_channel))
UNSUP_INT(int, mlx5dv_devx_subscribe_devx_event,
	  (struct mlx5dv_devx_event_channel * event_channel,
	   struct mlx5dv_devx_obj *obj, uint16_t events_sz,
	   uint16_t events_num[], uint64_t cookie))
UNSUP_INT(int, mlx5dv_devx_subscribe_devx_event_fd,
	  (struct mlx5dv_devx_event_channel * event_channel, int fd,
	   struct mlx5dv_devx_obj *obj, uint16_t event_num))
UNSUP_MINUS1(ssize_t, mlx5dv_devx_get_event,
	     (struct mlx5dv_devx_event_channel * event_channel,
	      struct mlx5_ib_uapi_devx_async_event_hdr *event_data,
	      size_t event_resp_len))
UNSUP_PTR(struct mlx5dv_dr_domain *, mlx5dv_dr_domain_create,
	  (struct ibv_context * ctx, enum mlx5dv_dr_domain_type type))
UNSUP_INT(int, mlx5dv_dr_domain_destroy, (struct mlx5dv_dr_domain * domain))
UNSUP_INT(int, mlx5dv_dr_domain_sync,
	  (struct mlx5dv_dr_domain * domain, uint32_t flags))
UNSUP_VOID(void, mlx5dv_dr_domain_set_reclaim_device_memory,
	   (struct mlx5dv_dr_domain * dmn, _Bool enable))
UNSUP_VOID(void, mlx5dv_dr_domain_allow_duplicate_rules,
	   (struct mlx5dv_dr_domain * domain, _Bool allow))
UNSUP_PTR(struct mlx5dv_dr_table *, mlx5dv_dr_table_create,
	  (struct mlx5dv_dr_domain * domain, uint32_t level))
UNSUP_INT(int, mlx5dv_dr_table_destroy, (struct mlx5dv_dr_table * table))
UNSUP_PTR(struct mlx5dv_dr_matcher *, mlx5dv_dr_matcher_create,
	  (struct mlx5dv_dr_table * table, uint16_t priority,
	   uint8_t match_criteria_enable,
	   struct mlx5dv_flow_match_parameters *mask))
UNSUP_INT(int, mlx5dv_dr_matcher_destroy, (struct mlx5dv_dr_matcher * matcher))
UNSUP_INT(int, mlx5dv_dr_matcher_set_layout,
	  (struct mlx5dv_dr_matcher * matcher,
	   struct mlx5dv_dr_matcher_layout *layout))
UNSUP_PTR(struct mlx5dv_dr_rule *, mlx5dv_dr_rule_create,
	  (struct mlx5dv_dr_matcher * matcher,
	   struct mlx5dv_flow_match_parameters *value, size_t num_actions,
	   struct mlx5dv_dr_action *actions[]))
UNSUP_INT(int, mlx5dv_dr_rule_destroy, (struct mlx5dv_dr_rule * rule))
UNSUP_PTR(struct mlx5dv_dr_action *, mlx5dv_dr_action_create_dest_ibv_qp,
	  (struct ibv_qp * ibqp))
UNSUP_PTR(struct mlx5dv_dr_action *, mlx5dv_dr_action_create_dest_table,
	  (struct mlx5dv_dr_table * table))
UNSUP_PTR(struct mlx5dv_dr_action *, mlx5dv_dr_action_create_dest_vport,
	  (struct mlx5dv_dr_domain * domain, uint32_t vport))
UNSUP_PTR(struct mlx5dv_dr_action *, mlx5dv_dr_action_create_dest_ib_port,
	  (struct mlx5dv_dr_domain * domain, uint32_t ib_port))
UNSUP_PTR(struct mlx5dv_dr_action *, mlx5dv_dr_action_create_dest_devx_tir,
	  (struct mlx5dv_devx_obj * devx_obj))
UNSUP_PTR(struct mlx5dv_dr_action *, mlx5dv_dr_action_create_dest_array,
	  (struct mlx5dv_dr_domain * domain, size_t num_dest,
	   struct mlx5dv_dr_action_dest_attr *dests[]))
UNSUP_PTR(struct mlx5dv_dr_action *, mlx5dv_dr_action_create_drop, (void))
UNSUP_PTR(struct mlx5dv_dr_action *, mlx5dv_dr_action_create_default_miss, (void))
UNSUP_PTR(struct mlx5dv_dr_action *, mlx5dv_dr_action_create_tag,
	  (uint32_t tag_value))
UNSUP_PTR(struct mlx5dv_dr_action *, mlx5dv_dr_action_create_flow_counter,
	  (struct mlx5dv_devx_obj * devx_obj, uint32_t offset))
UNSUP_PTR(struct mlx5dv_dr_action *, mlx5dv_dr_action_create_aso,
	  (struct mlx5dv_dr_domain * domain, struct mlx5dv_devx_obj *devx_obj,
	   uint32_t offset, uint32_t flags, uint8_t return_reg_c))
UNSUP_INT(int, mlx5dv_dr_action_modify_aso,
	  (struct mlx5dv_dr_action * action, uint32_t offset, uint32_t flags,
	   uint8_t return_reg_c))
UNSUP_PTR(struct mlx5dv_dr_action *, mlx5dv_dr_action_create_packet_reformat,
	  (struct mlx5dv_dr_domain * domain, uint32_t flags,
	   enum mlx5_ib_uapi_flow_action_packet_reformat_type reformat_type,
	   size_t data_sz, void *data))
UNSUP_PTR(struct mlx5dv_dr_action *, mlx5dv_dr_action_create_modify_header,
	  (struct mlx5dv_dr_domain * domain, uint32_t flags, size_t actions_sz,
	   __be64 actions[]))
UNSUP_PTR(struct mlx5dv_dr_action *, mlx5dv_dr_action_create_flow_meter,
	  (struct mlx5dv_dr_flow_meter_attr * attr))
UNSUP_INT(int, mlx5dv_dr_action_modify_flow_meter,
	  (struct mlx5dv_dr_action * action,
	   struct mlx5dv_dr_flow_meter_attr *attr, __be64 modify_field_select))
UNSUP_PTR(struct mlx5dv_dr_action *, mlx5dv_dr_action_create_flow_sampler,
	  (struct mlx5dv_dr_flow_sampler_attr * attr))
UNSUP_PTR(struct mlx5dv_dr_action *, mlx5dv_dr_action_create_pop_vlan, (void))
UNSUP_PTR(struct mlx5dv_dr_action *, mlx5dv_dr_action_create_push_vlan,
	  (struct mlx5dv_dr_domain * domain, __be32 vlan_hdr))
UNSUP_PTR(struct mlx5dv_dr_action *, mlx5dv_dr_action_create_dest_root_table,
	  (struct mlx5dv_dr_table * table, uint16_t priority))
UNSUP_INT(int, mlx5dv_dr_action_destroy, (struct mlx5dv_dr_action * action))
UNSUP_INT(int, mlx5dv_dump_dr_domain,
	  (FILE * fout, struct mlx5dv_dr_domain *domain))
UNSUP_INT(int, mlx5dv_dump_dr_table,
	  (FILE * fout, struct mlx5dv_dr_table *table))
UNSUP_INT(int, mlx5dv_dump_dr_matcher,
	  (FILE * fout, struct mlx5dv_dr_matcher *matcher))
UNSUP_INT(int, mlx5dv_dump_dr_rule, (FILE * fout, struct mlx5dv_dr_rule *rule))
UNSUP_PTR(struct mlx5dv_pp *, mlx5dv_pp_alloc,
	  (struct ibv_context * context, size_t pp_context_sz,
	   const void *pp_context, uint32_t flags))
UNSUP_VOID(void, mlx5dv_pp_free, (struct mlx5dv_pp * pp))
UNSUP_INT(int, mlx5dv_query_qp_lag_port,
	  (struct ibv_qp * qp, uint8_t *port_num, uint8_t *active_port_num))
UNSUP_INT(int, mlx5dv_modify_qp_lag_port,
	  (struct ibv_qp * qp, uint8_t port_num))
UNSUP_INT(int, mlx5dv_modify_qp_udp_sport,
	  (struct ibv_qp * qp, uint16_t udp_sport))
UNSUP_INT(int, mlx5dv_dci_stream_id_reset,
	  (struct ibv_qp * qp, uint16_t stream_id))
UNSUP_PTR(struct mlx5dv_sched_node *, mlx5dv_sched_node_create,
	  (struct ibv_context * context,
	   const struct mlx5dv_sched_attr *sched_attr))
UNSUP_PTR(struct mlx5dv_sched_leaf *, mlx5dv_sched_leaf_create,
	  (struct ibv_context * context,
	   const struct mlx5dv_sched_attr *sched_attr))
UNSUP_INT(int, mlx5dv_sched_node_modify,
	  (struct mlx5dv_sched_node * node,
	   const struct mlx5dv_sched_attr *sched_attr))
UNSUP_INT(int, mlx5dv_sched_leaf_modify,
	  (struct mlx5dv_sched_leaf * leaf,
	   const struct mlx5dv_sched_attr *sched_attr))
UNSUP_INT(int, mlx5dv_sched_node_destroy, (struct mlx5dv_sched_node * node))
UNSUP_INT(int, mlx5dv_sched_leaf_destroy, (struct mlx5dv_sched_leaf * leaf))
UNSUP_INT(int, mlx5dv_modify_qp_sched_elem,
	  (struct ibv_qp * qp, const struct mlx5dv_sched_leaf *requestor,
	   const struct mlx5dv_sched_leaf *responder))
UNSUP_INT(int, mlx5dv_reserved_qpn_alloc,
	  (struct ibv_context * ctx, uint32_t *qpn))
UNSUP_INT(int, mlx5dv_reserved_qpn_dealloc,
	  (struct ibv_context * ctx, uint32_t qpn))
UNSUP_INT(int, mlx5dv_dr_aso_other_domain_link,
	  (struct mlx5dv_devx_obj * devx_obj, struct mlx5dv_dr_domain *peer_dmn,
	   struct mlx5dv_dr_domain *dmn, uint32_t flags, uint8_t return_reg_c))
UNSUP_INT(int, mlx5dv_dr_aso_other_domain_unlink,
	  (struct mlx5dv_devx_obj * devx_obj, struct mlx5dv_dr_domain *dmn))
UNSUP_PTR(struct mlx5dv_devx_msi_vector *, mlx5dv_devx_alloc_msi_vector,
	  (struct ibv_context * ibctx))
UNSUP_INT(int, mlx5dv_devx_free_msi_vector,
	  (struct mlx5dv_devx_msi_vector * msi))
UNSUP_PTR(struct mlx5dv_devx_eq *, mlx5dv_devx_create_eq,
	  (struct ibv_context * ibctx, const void *in, size_t inlen, void *out,
	   size_t outlen))
UNSUP_INT(int, mlx5dv_devx_destroy_eq, (struct mlx5dv_devx_eq * eq))
UNSUP_INT(int, mlx5dv_get_data_direct_sysfs_path,
	  (struct ibv_context * context, char *buf, size_t buf_len))
