// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Every exported, non-inline entry point of libibverbs and libmlx5 called
 * with NULL for its object pointer: no crash, a failure return and errno
 * EINVAL. The case table is checked against the version scripts, so a new
 * public symbol fails this test until it has a case here (or is listed as
 * taking no object pointer).
 *
 * usage: verbs_api_null_args LIBIBVERBS_MAP LIBMLX5_MAP
 * Each call runs in a child process, so a crash is a failed row, not the
 * end of the test.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <infiniband/marshall.h>
#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include "sysfs.h"

/* verbs.h maps some names to inline dispatchers: call the symbols. */
#undef ibv_reg_mr
#undef ibv_reg_mr_iova
#undef ibv_query_port
#undef mlx5dv_create_flow

/* What the entry point returns on failure. */
enum fail_kind {
	RET_NULL,	/* a NULL pointer */
	RET_MINUS1,	/* -1 */
	RET_EINVAL,	/* the errno value itself (verbs returning errnos) */
	RET_NEG_EINVAL, /* -EINVAL (verbs returning negative errnos) */
	RET_ZERO,	/* 0: a boolean, mask or GUID that cannot say more */
	RET_NONE,	/* void: must return */
	/* Entry points that support nothing: EOPNOTSUPP for any argument. */
	UNSUP_NULL,   /* NULL, errno EOPNOTSUPP */
	UNSUP_ERRNO,  /* returns EOPNOTSUPP */
	UNSUP_MINUS1, /* -1, errno EOPNOTSUPP */
	UNSUP_NONE,   /* void: must return; errno not looked at */
};

/* The mlx5dv_offload.h entry points (dv_offload_unsupported.c). */
#define MLX5DV_OFFLOAD_CASES(X)                                                \
	X(_mlx5dv_mkey_check, UNSUP_ERRNO, _mlx5dv_mkey_check(NULL, NULL, 0))  \
	X(mlx5dv_qp_cancel_posted_send_wrs, UNSUP_ERRNO,                       \
	  mlx5dv_qp_cancel_posted_send_wrs(NULL, 0))                           \
	X(mlx5dv_crypto_login_query_state, UNSUP_ERRNO,                        \
	  mlx5dv_crypto_login_query_state(NULL, NULL))                         \
	X(mlx5dv_crypto_logout, UNSUP_ERRNO, mlx5dv_crypto_logout(NULL))       \
	X(mlx5dv_crypto_login_create, UNSUP_NULL,                              \
	  mlx5dv_crypto_login_create(NULL, NULL))                              \
	X(mlx5dv_crypto_login_query, UNSUP_ERRNO,                              \
	  mlx5dv_crypto_login_query(NULL, NULL))                               \
	X(mlx5dv_crypto_login_destroy, UNSUP_ERRNO,                            \
	  mlx5dv_crypto_login_destroy(NULL))                                   \
	X(mlx5dv_dek_query, UNSUP_ERRNO, mlx5dv_dek_query(NULL, NULL))         \
	X(mlx5dv_create_flow_matcher, UNSUP_NULL,                              \
	  mlx5dv_create_flow_matcher(NULL, NULL))                              \
	X(mlx5dv_destroy_flow_matcher, UNSUP_ERRNO,                            \
	  mlx5dv_destroy_flow_matcher(NULL))                                   \
	X(mlx5dv_create_steering_anchor, UNSUP_NULL,                           \
	  mlx5dv_create_steering_anchor(NULL, NULL))                           \
	X(mlx5dv_destroy_steering_anchor, UNSUP_ERRNO,                         \
	  mlx5dv_destroy_steering_anchor(NULL))                                \
	X(mlx5dv_create_flow, UNSUP_NULL,                                      \
	  mlx5dv_create_flow(NULL, NULL, 0, NULL))                             \
	X(__mlx5dv_create_flow, UNSUP_NULL,                                    \
	  __mlx5dv_create_flow(NULL, NULL, 0, NULL, 24))                       \
	X(mlx5dv_devx_obj_export, UNSUP_ERRNO,                                 \
	  mlx5dv_devx_obj_export(NULL, NULL))                                  \
	X(mlx5dv_devx_obj_import, UNSUP_NULL,                                  \
	  mlx5dv_devx_obj_import(NULL, NULL))                                  \
	X(mlx5dv_devx_obj_unimport, UNSUP_NONE,                                \
	  (mlx5dv_devx_obj_unimport(NULL), 0))                                 \
	X(mlx5dv_devx_umem_export, UNSUP_ERRNO,                                \
	  mlx5dv_devx_umem_export(NULL, NULL))                                 \
	X(mlx5dv_devx_umem_import, UNSUP_NULL,                                 \
	  mlx5dv_devx_umem_import(NULL, NULL))                                 \
	X(mlx5dv_devx_umem_unimport, UNSUP_NONE,                               \
	  (mlx5dv_devx_umem_unimport(NULL), 0))                                \
	X(mlx5dv_var_export, UNSUP_ERRNO, mlx5dv_var_export(NULL, NULL))       \
	X(mlx5dv_var_import, UNSUP_NULL, mlx5dv_var_import(NULL, NULL))        \
	X(mlx5dv_var_unimport, UNSUP_NONE, (mlx5dv_var_unimport(NULL), 0))     \
	X(mlx5dv_create_flow_action_esp, UNSUP_NULL,                           \
	  mlx5dv_create_flow_action_esp(NULL, NULL, NULL))                     \
	X(mlx5dv_create_flow_action_modify_header, UNSUP_NULL,                 \
	  mlx5dv_create_flow_action_modify_header(NULL, 0, NULL, 0))           \
	X(mlx5dv_create_flow_action_packet_reformat, UNSUP_NULL,               \
	  mlx5dv_create_flow_action_packet_reformat(NULL, 0, NULL, 0, 0))      \
	X(mlx5dv_map_ah_to_qp, UNSUP_ERRNO, mlx5dv_map_ah_to_qp(NULL, 0))      \
	X(mlx5dv_create_wq, UNSUP_NULL, mlx5dv_create_wq(NULL, NULL, NULL))    \
	X(mlx5dv_set_context_attr, UNSUP_ERRNO,                                \
	  mlx5dv_set_context_attr(NULL, 0, NULL))                              \
	X(mlx5dv_get_vfio_device_list, UNSUP_NULL,                             \
	  mlx5dv_get_vfio_device_list(NULL))                                   \
	X(mlx5dv_vfio_get_events_fd, UNSUP_MINUS1,                             \
	  mlx5dv_vfio_get_events_fd(NULL))                                     \
	X(mlx5dv_vfio_process_events, UNSUP_ERRNO,                             \
	  mlx5dv_vfio_process_events(NULL))                                    \
	X(mlx5dv_devx_obj_create, UNSUP_NULL,                                  \
	  mlx5dv_devx_obj_create(NULL, NULL, 0, NULL, 0))                      \
	X(mlx5dv_devx_obj_query, UNSUP_ERRNO,                                  \
	  mlx5dv_devx_obj_query(NULL, NULL, 0, NULL, 0))                       \
	X(mlx5dv_devx_obj_modify, UNSUP_ERRNO,                                 \
	  mlx5dv_devx_obj_modify(NULL, NULL, 0, NULL, 0))                      \
	X(mlx5dv_devx_obj_destroy, UNSUP_ERRNO, mlx5dv_devx_obj_destroy(NULL)) \
	X(_mlx5dv_query_port, UNSUP_ERRNO,                                     \
	  _mlx5dv_query_port(NULL, 0, NULL, 0))                                \
	X(mlx5dv_devx_umem_reg, UNSUP_NULL,                                    \
	  mlx5dv_devx_umem_reg(NULL, NULL, 0, 0))                              \
	X(mlx5dv_devx_umem_reg_ex, UNSUP_NULL,                                 \
	  mlx5dv_devx_umem_reg_ex(NULL, NULL))                                 \
	X(mlx5dv_devx_umem_dereg, UNSUP_ERRNO, mlx5dv_devx_umem_dereg(NULL))   \
	X(mlx5dv_alloc_var, UNSUP_NULL, mlx5dv_alloc_var(NULL, 0))             \
	X(mlx5dv_free_var, UNSUP_NONE, (mlx5dv_free_var(NULL), 0))             \
	X(mlx5dv_devx_query_eqn, UNSUP_ERRNO,                                  \
	  mlx5dv_devx_query_eqn(NULL, 0, NULL))                                \
	X(mlx5dv_devx_cq_query, UNSUP_ERRNO,                                   \
	  mlx5dv_devx_cq_query(NULL, NULL, 0, NULL, 0))                        \
	X(mlx5dv_devx_cq_modify, UNSUP_ERRNO,                                  \
	  mlx5dv_devx_cq_modify(NULL, NULL, 0, NULL, 0))                       \
	X(mlx5dv_devx_qp_query, UNSUP_ERRNO,                                   \
	  mlx5dv_devx_qp_query(NULL, NULL, 0, NULL, 0))                        \
	X(mlx5dv_devx_qp_modify, UNSUP_ERRNO,                                  \
	  mlx5dv_devx_qp_modify(NULL, NULL, 0, NULL, 0))                       \
	X(mlx5dv_devx_srq_query, UNSUP_ERRNO,                                  \
	  mlx5dv_devx_srq_query(NULL, NULL, 0, NULL, 0))                       \
	X(mlx5dv_devx_srq_modify, UNSUP_ERRNO,                                 \
	  mlx5dv_devx_srq_modify(NULL, NULL, 0, NULL, 0))                      \
	X(mlx5dv_devx_wq_query, UNSUP_ERRNO,                                   \
	  mlx5dv_devx_wq_query(NULL, NULL, 0, NULL, 0))                        \
	X(mlx5dv_devx_wq_modify, UNSUP_ERRNO,                                  \
	  mlx5dv_devx_wq_modify(NULL, NULL, 0, NULL, 0))                       \
	X(mlx5dv_devx_ind_tbl_query, UNSUP_ERRNO,                              \
	  mlx5dv_devx_ind_tbl_query(NULL, NULL, 0, NULL, 0))                   \
	X(mlx5dv_devx_ind_tbl_modify, UNSUP_ERRNO,                             \
	  mlx5dv_devx_ind_tbl_modify(NULL, NULL, 0, NULL, 0))                  \
	X(mlx5dv_devx_create_cmd_comp, UNSUP_NULL,                             \
	  mlx5dv_devx_create_cmd_comp(NULL))                                   \
	X(mlx5dv_devx_destroy_cmd_comp, UNSUP_NONE,                            \
	  (mlx5dv_devx_destroy_cmd_comp(NULL), 0))                             \
	X(mlx5dv_devx_obj_query_async, UNSUP_ERRNO,                            \
	  mlx5dv_devx_obj_query_async(NULL, NULL, 0, 0, 0, NULL))              \
	X(mlx5dv_devx_get_async_cmd_comp, UNSUP_ERRNO,                         \
	  mlx5dv_devx_get_async_cmd_comp(NULL, NULL, 0))                       \
	X(mlx5dv_devx_create_event_channel, UNSUP_NULL,                        \
	  mlx5dv_devx_create_event_channel(NULL, 0))                           \
	X(mlx5dv_devx_destroy_event_channel, UNSUP_NONE,                       \
	  (mlx5dv_devx_destroy_event_channel(NULL), 0))                        \
	X(mlx5dv_devx_subscribe_devx_event, UNSUP_ERRNO,                       \
	  mlx5dv_devx_subscribe_devx_event(NULL, NULL, 0, NULL, 0))            \
	X(mlx5dv_devx_subscribe_devx_event_fd, UNSUP_ERRNO,                    \
	  mlx5dv_devx_subscribe_devx_event_fd(NULL, 0, NULL, 0))               \
	X(mlx5dv_devx_get_event, UNSUP_MINUS1,                                 \
	  mlx5dv_devx_get_event(NULL, NULL, 0))                                \
	X(mlx5dv_dr_domain_create, UNSUP_NULL,                                 \
	  mlx5dv_dr_domain_create(NULL, 0))                                    \
	X(mlx5dv_dr_domain_destroy, UNSUP_ERRNO,                               \
	  mlx5dv_dr_domain_destroy(NULL))                                      \
	X(mlx5dv_dr_domain_sync, UNSUP_ERRNO, mlx5dv_dr_domain_sync(NULL, 0))  \
	X(mlx5dv_dr_domain_set_reclaim_device_memory, UNSUP_NONE,              \
	  (mlx5dv_dr_domain_set_reclaim_device_memory(NULL, 0), 0))            \
	X(mlx5dv_dr_domain_allow_duplicate_rules, UNSUP_NONE,                  \
	  (mlx5dv_dr_domain_allow_duplicate_rules(NULL, 0), 0))                \
	X(mlx5dv_dr_table_create, UNSUP_NULL, mlx5dv_dr_table_create(NULL, 0)) \
	X(mlx5dv_dr_table_destroy, UNSUP_ERRNO, mlx5dv_dr_table_destroy(NULL)) \
	X(mlx5dv_dr_matcher_create, UNSUP_NULL,                                \
	  mlx5dv_dr_matcher_create(NULL, 0, 0, NULL))                          \
	X(mlx5dv_dr_matcher_destroy, UNSUP_ERRNO,                              \
	  mlx5dv_dr_matcher_destroy(NULL))                                     \
	X(mlx5dv_dr_matcher_set_layout, UNSUP_ERRNO,                           \
	  mlx5dv_dr_matcher_set_layout(NULL, NULL))                            \
	X(mlx5dv_dr_rule_create, UNSUP_NULL,                                   \
	  mlx5dv_dr_rule_create(NULL, NULL, 0, NULL))                          \
	X(mlx5dv_dr_rule_destroy, UNSUP_ERRNO, mlx5dv_dr_rule_destroy(NULL))   \
	X(mlx5dv_dr_action_create_dest_ibv_qp, UNSUP_NULL,                     \
	  mlx5dv_dr_action_create_dest_ibv_qp(NULL))                           \
	X(mlx5dv_dr_action_create_dest_table, UNSUP_NULL,                      \
	  mlx5dv_dr_action_create_dest_table(NULL))                            \
	X(mlx5dv_dr_action_create_dest_vport, UNSUP_NULL,                      \
	  mlx5dv_dr_action_create_dest_vport(NULL, 0))                         \
	X(mlx5dv_dr_action_create_dest_ib_port, UNSUP_NULL,                    \
	  mlx5dv_dr_action_create_dest_ib_port(NULL, 0))                       \
	X(mlx5dv_dr_action_create_dest_devx_tir, UNSUP_NULL,                   \
	  mlx5dv_dr_action_create_dest_devx_tir(NULL))                         \
	X(mlx5dv_dr_action_create_dest_array, UNSUP_NULL,                      \
	  mlx5dv_dr_action_create_dest_array(NULL, 0, NULL))                   \
	X(mlx5dv_dr_action_create_drop, UNSUP_NULL,                            \
	  mlx5dv_dr_action_create_drop())                                     \
	X(mlx5dv_dr_action_create_default_miss, UNSUP_NULL,                    \
	  mlx5dv_dr_action_create_default_miss())                             \
	X(mlx5dv_dr_action_create_tag, UNSUP_NULL,                             \
	  mlx5dv_dr_action_create_tag(0))                                      \
	X(mlx5dv_dr_action_create_flow_counter, UNSUP_NULL,                    \
	  mlx5dv_dr_action_create_flow_counter(NULL, 0))                       \
	X(mlx5dv_dr_action_create_aso, UNSUP_NULL,                             \
	  mlx5dv_dr_action_create_aso(NULL, NULL, 0, 0, 0))                    \
	X(mlx5dv_dr_action_modify_aso, UNSUP_ERRNO,                            \
	  mlx5dv_dr_action_modify_aso(NULL, 0, 0, 0))                          \
	X(mlx5dv_dr_action_create_packet_reformat, UNSUP_NULL,                 \
	  mlx5dv_dr_action_create_packet_reformat(NULL, 0, 0, 0, NULL))        \
	X(mlx5dv_dr_action_create_modify_header, UNSUP_NULL,                   \
	  mlx5dv_dr_action_create_modify_header(NULL, 0, 0, NULL))             \
	X(mlx5dv_dr_action_create_flow_meter, UNSUP_NULL,                      \
	  mlx5dv_dr_action_create_flow_meter(NULL))                            \
	X(mlx5dv_dr_action_modify_flow_meter, UNSUP_ERRNO,                     \
	  mlx5dv_dr_action_modify_flow_meter(NULL, NULL, 0))                   \
	X(mlx5dv_dr_action_create_flow_sampler, UNSUP_NULL,                    \
	  mlx5dv_dr_action_create_flow_sampler(NULL))                          \
	X(mlx5dv_dr_action_create_pop_vlan, UNSUP_NULL,                        \
	  mlx5dv_dr_action_create_pop_vlan())                                 \
	X(mlx5dv_dr_action_create_push_vlan, UNSUP_NULL,                       \
	  mlx5dv_dr_action_create_push_vlan(NULL, 0))                          \
	X(mlx5dv_dr_action_create_dest_root_table, UNSUP_NULL,                 \
	  mlx5dv_dr_action_create_dest_root_table(NULL, 0))                    \
	X(mlx5dv_dr_action_destroy, UNSUP_ERRNO,                               \
	  mlx5dv_dr_action_destroy(NULL))                                      \
	X(mlx5dv_dump_dr_domain, UNSUP_ERRNO,                                  \
	  mlx5dv_dump_dr_domain(NULL, NULL))                                   \
	X(mlx5dv_dump_dr_table, UNSUP_ERRNO, mlx5dv_dump_dr_table(NULL, NULL)) \
	X(mlx5dv_dump_dr_matcher, UNSUP_ERRNO,                                 \
	  mlx5dv_dump_dr_matcher(NULL, NULL))                                  \
	X(mlx5dv_dump_dr_rule, UNSUP_ERRNO, mlx5dv_dump_dr_rule(NULL, NULL))   \
	X(mlx5dv_pp_alloc, UNSUP_NULL, mlx5dv_pp_alloc(NULL, 0, NULL, 0))      \
	X(mlx5dv_pp_free, UNSUP_NONE, (mlx5dv_pp_free(NULL), 0))               \
	X(mlx5dv_query_qp_lag_port, UNSUP_ERRNO,                               \
	  mlx5dv_query_qp_lag_port(NULL, NULL, NULL))                          \
	X(mlx5dv_modify_qp_lag_port, UNSUP_ERRNO,                              \
	  mlx5dv_modify_qp_lag_port(NULL, 0))                                  \
	X(mlx5dv_modify_qp_udp_sport, UNSUP_ERRNO,                             \
	  mlx5dv_modify_qp_udp_sport(NULL, 0))                                 \
	X(mlx5dv_dci_stream_id_reset, UNSUP_ERRNO,                             \
	  mlx5dv_dci_stream_id_reset(NULL, 0))                                 \
	X(mlx5dv_sched_node_create, UNSUP_NULL,                                \
	  mlx5dv_sched_node_create(NULL, NULL))                                \
	X(mlx5dv_sched_leaf_create, UNSUP_NULL,                                \
	  mlx5dv_sched_leaf_create(NULL, NULL))                                \
	X(mlx5dv_sched_node_modify, UNSUP_ERRNO,                               \
	  mlx5dv_sched_node_modify(NULL, NULL))                                \
	X(mlx5dv_sched_leaf_modify, UNSUP_ERRNO,                               \
	  mlx5dv_sched_leaf_modify(NULL, NULL))                                \
	X(mlx5dv_sched_node_destroy, UNSUP_ERRNO,                              \
	  mlx5dv_sched_node_destroy(NULL))                                     \
	X(mlx5dv_sched_leaf_destroy, UNSUP_ERRNO,                              \
	  mlx5dv_sched_leaf_destroy(NULL))                                     \
	X(mlx5dv_modify_qp_sched_elem, UNSUP_ERRNO,                            \
	  mlx5dv_modify_qp_sched_elem(NULL, NULL, NULL))                       \
	X(mlx5dv_reserved_qpn_alloc, UNSUP_ERRNO,                              \
	  mlx5dv_reserved_qpn_alloc(NULL, NULL))                               \
	X(mlx5dv_reserved_qpn_dealloc, UNSUP_ERRNO,                            \
	  mlx5dv_reserved_qpn_dealloc(NULL, 0))                                \
	X(mlx5dv_dr_aso_other_domain_link, UNSUP_ERRNO,                        \
	  mlx5dv_dr_aso_other_domain_link(NULL, NULL, NULL, 0, 0))             \
	X(mlx5dv_dr_aso_other_domain_unlink, UNSUP_ERRNO,                      \
	  mlx5dv_dr_aso_other_domain_unlink(NULL, NULL))                       \
	X(mlx5dv_devx_alloc_msi_vector, UNSUP_NULL,                            \
	  mlx5dv_devx_alloc_msi_vector(NULL))                                  \
	X(mlx5dv_devx_free_msi_vector, UNSUP_ERRNO,                            \
	  mlx5dv_devx_free_msi_vector(NULL))                                   \
	X(mlx5dv_devx_create_eq, UNSUP_NULL,                                   \
	  mlx5dv_devx_create_eq(NULL, NULL, 0, NULL, 0))                       \
	X(mlx5dv_devx_destroy_eq, UNSUP_ERRNO, mlx5dv_devx_destroy_eq(NULL))   \
	X(mlx5dv_get_data_direct_sysfs_path, UNSUP_ERRNO,                      \
	  mlx5dv_get_data_direct_sysfs_path(NULL, NULL, 0))

/*
 * X(symbol, how it fails, the call with NULL). Each call is an expression
 * of integer or pointer type; void calls are written (call, 0).
 */
#define NULL_CASES(X)                                                          \
	X(ibv_copy_path_rec_from_kern, RET_NONE,                               \
	  (ibv_copy_path_rec_from_kern(NULL, NULL), 0))                        \
	X(ibv_copy_path_rec_to_kern, RET_NONE,                                 \
	  (ibv_copy_path_rec_to_kern(NULL, NULL), 0))                          \
	X(ibv_copy_qp_attr_from_kern, RET_NONE,                                \
	  (ibv_copy_qp_attr_from_kern(NULL, NULL), 0))                         \
	X(ibv_copy_ah_attr_from_kern, RET_NONE,                                \
	  (ibv_copy_ah_attr_from_kern(NULL, NULL), 0))                         \
	X(ibv_create_comp_channel, RET_NULL, ibv_create_comp_channel(NULL))    \
	X(ibv_destroy_comp_channel, RET_EINVAL,                                \
	  ibv_destroy_comp_channel(NULL))                                      \
	X(ibv_read_sysfs_file, RET_MINUS1,                                     \
	  ibv_read_sysfs_file(NULL, NULL, NULL, 0))                            \
	X(ibv_ack_async_event, RET_NONE, (ibv_ack_async_event(NULL), 0))       \
	X(ibv_ack_cq_events, RET_NONE, (ibv_ack_cq_events(NULL, 1), 0))        \
	X(ibv_alloc_pd, RET_NULL, ibv_alloc_pd(NULL))                          \
	X(ibv_attach_mcast, RET_EINVAL, ibv_attach_mcast(NULL, NULL, 0))       \
	X(ibv_close_device, RET_MINUS1, ibv_close_device(NULL))                \
	X(ibv_create_ah, RET_NULL, ibv_create_ah(NULL, NULL))                  \
	X(ibv_create_ah_from_wc, RET_NULL,                                     \
	  ibv_create_ah_from_wc(NULL, NULL, NULL, 1))                          \
	X(ibv_create_cq, RET_NULL, ibv_create_cq(NULL, 1, NULL, NULL, 0))      \
	X(ibv_create_qp, RET_NULL, ibv_create_qp(NULL, NULL))                  \
	X(ibv_create_srq, RET_NULL, ibv_create_srq(NULL, NULL))                \
	X(ibv_dealloc_pd, RET_EINVAL, ibv_dealloc_pd(NULL))                    \
	X(ibv_dereg_mr, RET_EINVAL, ibv_dereg_mr(NULL))                        \
	X(ibv_destroy_ah, RET_EINVAL, ibv_destroy_ah(NULL))                    \
	X(ibv_destroy_cq, RET_EINVAL, ibv_destroy_cq(NULL))                    \
	X(ibv_destroy_qp, RET_EINVAL, ibv_destroy_qp(NULL))                    \
	X(ibv_destroy_srq, RET_EINVAL, ibv_destroy_srq(NULL))                  \
	X(ibv_detach_mcast, RET_EINVAL, ibv_detach_mcast(NULL, NULL, 0))       \
	X(ibv_free_device_list, RET_NONE, (ibv_free_device_list(NULL), 0))     \
	X(ibv_get_async_event, RET_MINUS1, ibv_get_async_event(NULL, NULL))    \
	X(ibv_get_cq_event, RET_MINUS1, ibv_get_cq_event(NULL, NULL, NULL))    \
	X(ibv_get_device_guid, RET_ZERO, ibv_get_device_guid(NULL))            \
	X(ibv_get_device_name, RET_NULL, ibv_get_device_name(NULL))            \
	X(ibv_init_ah_from_wc, RET_MINUS1,                                     \
	  ibv_init_ah_from_wc(NULL, 1, NULL, NULL, NULL))                      \
	X(ibv_modify_qp, RET_EINVAL, ibv_modify_qp(NULL, NULL, 0))             \
	X(ibv_modify_srq, RET_EINVAL, ibv_modify_srq(NULL, NULL, 0))           \
	X(ibv_open_device, RET_NULL, ibv_open_device(NULL))                    \
	X(ibv_query_device, RET_EINVAL, ibv_query_device(NULL, NULL))          \
	X(ibv_query_gid, RET_MINUS1, ibv_query_gid(NULL, 1, 0, NULL))          \
	X(ibv_query_pkey, RET_MINUS1, ibv_query_pkey(NULL, 1, 0, NULL))        \
	X(ibv_query_port, RET_EINVAL, ibv_query_port(NULL, 1, NULL))           \
	X(ibv_query_qp, RET_EINVAL, ibv_query_qp(NULL, NULL, 0, NULL))         \
	X(ibv_query_srq, RET_EINVAL, ibv_query_srq(NULL, NULL))                \
	X(ibv_reg_mr, RET_NULL, ibv_reg_mr(NULL, NULL, 0, 0))                  \
	X(ibv_rereg_mr, RET_MINUS1,                                            \
	  ibv_rereg_mr(NULL, IBV_REREG_MR_CHANGE_ACCESS, NULL, NULL, 0, 0))    \
	X(ibv_resize_cq, RET_EINVAL, ibv_resize_cq(NULL, 1))                   \
	X(ibv_resolve_eth_l2_from_gid, RET_EINVAL,                             \
	  ibv_resolve_eth_l2_from_gid(NULL, NULL, NULL, NULL))                 \
	X(ibv_get_pkey_index, RET_MINUS1, ibv_get_pkey_index(NULL, 1, 0))      \
	X(ibv_qp_to_qp_ex, RET_NULL, ibv_qp_to_qp_ex(NULL))                    \
	X(ibv_reg_mr_iova, RET_NULL, ibv_reg_mr_iova(NULL, NULL, 0, 0, 0))     \
	X(ibv_reg_mr_iova2, RET_NULL, ibv_reg_mr_iova2(NULL, NULL, 0, 0, 0))   \
	X(ibv_get_device_index, RET_MINUS1, ibv_get_device_index(NULL))        \
	X(ibv_import_mr, RET_NULL, ibv_import_mr(NULL, 0))                     \
	X(ibv_import_pd, RET_NULL, ibv_import_pd(NULL, 0))                     \
	X(ibv_query_ece, RET_EINVAL, ibv_query_ece(NULL, NULL))                \
	X(ibv_set_ece, RET_EINVAL, ibv_set_ece(NULL, NULL))                    \
	X(ibv_unimport_mr, RET_NONE, (ibv_unimport_mr(NULL), 0))               \
	X(ibv_unimport_pd, RET_NONE, (ibv_unimport_pd(NULL), 0))               \
	X(_ibv_query_gid_ex, RET_EINVAL,                                       \
	  _ibv_query_gid_ex(NULL, 1, 0, NULL, 0,                               \
			    sizeof(struct ibv_gid_entry)))                     \
	X(_ibv_query_gid_table, RET_NEG_EINVAL,                                \
	  _ibv_query_gid_table(NULL, NULL, 1, 0,                               \
			       sizeof(struct ibv_gid_entry)))                  \
	X(ibv_reg_dmabuf_mr, RET_NULL,                                         \
	  ibv_reg_dmabuf_mr(NULL, 0, 0, 0, -1, 0))                             \
	X(ibv_import_dm, RET_NULL, ibv_import_dm(NULL, 0))                     \
	X(ibv_unimport_dm, RET_NONE, (ibv_unimport_dm(NULL), 0))               \
	X(ibv_query_qp_data_in_order, RET_ZERO,                                \
	  ibv_query_qp_data_in_order(NULL, IBV_WR_SEND, 0))                    \
	X(ibv_alloc_dmah, RET_NULL, ibv_alloc_dmah(NULL, NULL))                \
	X(ibv_dealloc_dmah, RET_EINVAL, ibv_dealloc_dmah(NULL))                \
	X(ibv_reg_mr_ex, RET_NULL, ibv_reg_mr_ex(NULL, NULL))                  \
	X(ibv_dm_export_dmabuf_fd, RET_MINUS1, ibv_dm_export_dmabuf_fd(NULL))  \
	X(ibv_query_port_speed, RET_EINVAL,                                    \
	  ibv_query_port_speed(NULL, 1, NULL))                                 \
	X(ibv_alloc_buf, RET_NULL, ibv_alloc_buf(NULL, 4096, NULL))           \
	X(ibv_free_buf, RET_NONE, (ibv_free_buf(NULL), 0))                     \
	X(ibv_reg_buf_mr, RET_NULL, ibv_reg_buf_mr(NULL, NULL, NULL, 0, 0))    \
	X(ibv_export_buf_dmabuf_fd, RET_MINUS1,                                \
	  ibv_export_buf_dmabuf_fd(NULL))                                      \
	X(_ibv_query_comp_cntr_caps, RET_EINVAL,                               \
	  _ibv_query_comp_cntr_caps(NULL, NULL, 16))                           \
	X(ibv_create_comp_cntr, RET_NULL, ibv_create_comp_cntr(NULL, NULL))    \
	X(ibv_destroy_comp_cntr, RET_EINVAL, ibv_destroy_comp_cntr(NULL))      \
	X(ibv_set_comp_cntr, RET_EINVAL, ibv_set_comp_cntr(NULL, 1))           \
	X(ibv_set_err_comp_cntr, RET_EINVAL, ibv_set_err_comp_cntr(NULL, 1))   \
	X(ibv_inc_comp_cntr, RET_EINVAL, ibv_inc_comp_cntr(NULL, 1))           \
	X(ibv_inc_err_comp_cntr, RET_EINVAL, ibv_inc_err_comp_cntr(NULL, 1))   \
	X(ibv_read_comp_cntr, RET_EINVAL, ibv_read_comp_cntr(NULL, NULL))      \
	X(ibv_read_err_comp_cntr, RET_EINVAL,                                  \
	  ibv_read_err_comp_cntr(NULL, NULL))                                  \
	X(ibv_qp_attach_comp_cntr, RET_EINVAL,                                 \
	  ibv_qp_attach_comp_cntr(NULL, NULL, NULL))                           \
	X(mlx5dv_query_device, RET_EINVAL, mlx5dv_query_device(NULL, NULL))    \
	X(mlx5dv_get_clock_info, RET_EINVAL,                                  \
	  mlx5dv_get_clock_info(NULL, NULL))                                   \
	X(mlx5dv_init_obj, RET_EINVAL, mlx5dv_init_obj(NULL, 0))               \
	X(_mlx5dv_get_export_sizes, RET_NONE,                                  \
	  (_mlx5dv_get_export_sizes(NULL, 12), 0))                             \
	X(mlx5dv_open_device, RET_NULL, mlx5dv_open_device(NULL, NULL))        \
	X(mlx5dv_is_supported, RET_ZERO, mlx5dv_is_supported(NULL))            \
	X(mlx5dv_alloc_dm, RET_NULL, mlx5dv_alloc_dm(NULL, NULL, NULL))        \
	X(mlx5dv_devx_alloc_uar, RET_NULL, mlx5dv_devx_alloc_uar(NULL, 0))     \
	X(mlx5dv_devx_free_uar, RET_NONE, (mlx5dv_devx_free_uar(NULL), 0))     \
	X(mlx5dv_devx_uar_export_dmabuf_fd, RET_MINUS1,                        \
	  mlx5dv_devx_uar_export_dmabuf_fd(NULL))                              \
	X(mlx5dv_dm_map_op_addr, RET_NULL, mlx5dv_dm_map_op_addr(NULL, 0))     \
	X(mlx5dv_reg_dmabuf_mr, RET_NULL,                                      \
	  mlx5dv_reg_dmabuf_mr(NULL, 0, 0, 0, -1, 0, 0))                       \
	X(mlx5dv_create_qp, RET_NULL, mlx5dv_create_qp(NULL, NULL, NULL))      \
	X(mlx5dv_create_cq, RET_NULL, mlx5dv_create_cq(NULL, NULL, NULL))      \
	X(mlx5dv_qp_ex_from_ibv_qp_ex, RET_NULL,                               \
	  mlx5dv_qp_ex_from_ibv_qp_ex(NULL))                                   \
	X(mlx5dv_devx_general_cmd, UNSUP_ERRNO,                                \
	  mlx5dv_devx_general_cmd(NULL, NULL, 0, NULL, 0))                     \
	X(mlx5dv_create_mkey, UNSUP_NULL, mlx5dv_create_mkey(NULL))            \
	X(mlx5dv_destroy_mkey, UNSUP_ERRNO, mlx5dv_destroy_mkey(NULL))         \
	X(mlx5dv_crypto_login, UNSUP_ERRNO, mlx5dv_crypto_login(NULL, NULL))   \
	X(mlx5dv_dek_create, UNSUP_NULL, mlx5dv_dek_create(NULL, NULL))        \
	X(mlx5dv_dek_destroy, UNSUP_ERRNO, mlx5dv_dek_destroy(NULL))           \
	MLX5DV_OFFLOAD_CASES(X)

/* Public symbols that take no object pointer, and why. */
static const char *const no_object[] = {
	"ibv_get_sysfs_path", /* no argument */
	"ibv_rate_to_mult",   /* enum in, number out */
	"mult_to_ibv_rate",	   "ibv_rate_to_mbps",
	"mbps_to_ibv_rate",	   "ibv_event_type_str",
	"ibv_node_type_str",	   "ibv_port_state_str",
	"ibv_wc_status_str",	   "ibv_fork_init",
	"ibv_is_fork_initialized", /* no argument */
	"ibv_get_device_list",	   /* the count pointer may be NULL */
	"ibv_dofork_range",	   /* a memory range, not an object */
	"ibv_dontfork_range",	   "ibv_import_device", /* an fd */
	"ibv_register_driver", /* obsolete, ignored (compat_1_1.c) */
};

#define THUNK(sym, kind, call)                                                 \
	static long null_##sym(void)                                           \
	{                                                                      \
		return (long)(call);                                           \
	}
NULL_CASES(THUNK)

struct null_case {
	const char *sym;
	int kind;
	long (*call)(void);
};

#define ENTRY(sym, kind, call) {#sym, kind, null_##sym},
static const struct null_case cases[] = {NULL_CASES(ENTRY)};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static bool result_ok(int kind, long ret)
{
	switch (kind) {
	case RET_NULL:
	case RET_ZERO:
	case RET_NONE:
		return ret == 0;
	case RET_MINUS1:
		return ret == -1;
	case RET_EINVAL:
		return ret == EINVAL;
	case RET_NEG_EINVAL:
		return ret == -EINVAL;
	case UNSUP_NULL:
		return ret == 0;
	case UNSUP_ERRNO:
		return ret == EOPNOTSUPP;
	case UNSUP_MINUS1:
		return ret == -1;
	case UNSUP_NONE:
		return ret == 0;
	}
	return false;
}

/* errno after the call; 0: not looked at (the result is the errno). */
static int expected_errno(int kind)
{
	if (kind == UNSUP_ERRNO || kind == UNSUP_NONE)
		return 0;
	if (kind == UNSUP_NULL || kind == UNSUP_MINUS1)
		return EOPNOTSUPP;
	return EINVAL;
}

/* Run one case in a child: 0 if it failed cleanly with EINVAL. */
static int run_case(const struct null_case *c)
{
	int status;
	pid_t pid;
	long ret;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		errno = 0;
		ret = c->call();
		if (!result_ok(c->kind, ret)) {
			printf("FAIL %s(NULL): returned %ld\n", c->sym, ret);
			fflush(stdout);
			_exit(1);
		}
		if (expected_errno(c->kind) &&
		    errno != expected_errno(c->kind)) {
			printf("FAIL %s(NULL): errno %s, want %s\n", c->sym,
			       strerrorname_np(errno),
			       strerrorname_np(expected_errno(c->kind)));
			fflush(stdout);
			_exit(1);
		}
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return 1;
	if (WIFSIGNALED(status)) {
		printf("FAIL %s(NULL): killed by %s\n", c->sym,
		       sigabbrev_np(WTERMSIG(status)));
		return 1;
	}
	return WEXITSTATUS(status) != 0;
}

static bool known(const char *sym)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (!strcmp(cases[i].sym, sym))
			return true;
	for (i = 0; i < ARRAY_SIZE(no_object); i++)
		if (!strcmp(no_object[i], sym))
			return true;
	return false;
}

/*
 * Every global name of a public node of the version script @path must
 * have a case; the provider-interface nodes (*PRIVATE*) are not public.
 * Returns the number of names without one, or -1 if nothing was read.
 */
static int check_map(const char *path)
{
	char line[256], name[128];
	bool public_node = false;
	int missing = 0, seen = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " %127[A-Za-z0-9_.@] {", name) == 1 &&
		    strchr(line, '{')) {
			public_node = !strstr(name, "PRIVATE");
			continue;
		}
		if (!public_node ||
		    sscanf(line, " %127[A-Za-z0-9_];", name) != 1 ||
		    !strchr(line, ';') || strchr(line, ':'))
			continue;
		seen++;
		if (!known(name)) {
			printf("FAIL %s (%s): public symbol without a NULL "
			       "case\n",
			       name, path);
			missing++;
		}
	}
	fclose(f);
	return seen ? missing : -1;
}

int main(int argc, char **argv)
{
	int failed = 0, i, ret;
	size_t n;

	if (argc != 3) {
		fprintf(stderr, "usage: %s LIBIBVERBS_MAP LIBMLX5_MAP\n",
			argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		ret = check_map(argv[i]);
		if (ret < 0) {
			printf("FAIL %s: no symbols read\n", argv[i]);
			return 1;
		}
		failed += ret;
	}
	for (n = 0; n < ARRAY_SIZE(cases); n++)
		failed += run_case(&cases[n]);
	printf("%zu entry points called with NULL, %d failure(s)\n",
	       ARRAY_SIZE(cases), failed);
	return failed != 0;
}
