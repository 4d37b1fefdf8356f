// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The provider interface of rdma-core 65 (IBVERBS_PRIVATE_65), as names
 * only, like compat_providers_v44.c for 44.
 *
 * rdma-core 65's provider libraries (libmlx5.so.1, libefa.so.1) and the
 * pyverbs modules linking them need every name below at load, and the
 * version node itself: the dynamic linker refuses a needed version that
 * does not exist. Such a provider's structs are not this library's, so its
 * registration is declined and the devices stay with the providers built
 * here; every other entry point refuses, the way its kind reports errors.
 * ibv_query_gid_type, which pyverbs calls on every GID it scans, is real
 * (compat_v44.c) and is the node's one default-versioned name.
 */
#include <stdbool.h>

#include "compat_symver.h"

/* Commands and helpers returning an errno value. */
#define COMPAT65_ERRNO(X)                                                      \
	X(execute_ioctl)                                                       \
	X(ibv_cmd_advise_mr)                                                   \
	X(ibv_cmd_alloc_dm)                                                    \
	X(ibv_cmd_alloc_dmah)                                                  \
	X(ibv_cmd_alloc_mw)                                                    \
	X(ibv_cmd_alloc_pd)                                                    \
	X(ibv_cmd_attach_mcast)                                                \
	X(ibv_cmd_close_xrcd)                                                  \
	X(ibv_cmd_create_ah)                                                   \
	X(ibv_cmd_create_comp_cntr)                                            \
	X(ibv_cmd_create_counters)                                             \
	X(ibv_cmd_create_cq)                                                   \
	X(ibv_cmd_create_cq_ex)                                                \
	X(ibv_cmd_create_cq_ex2)                                               \
	X(ibv_cmd_create_flow)                                                 \
	X(ibv_cmd_create_flow_action_esp)                                      \
	X(ibv_cmd_create_qp)                                                   \
	X(ibv_cmd_create_qp_ex)                                                \
	X(ibv_cmd_create_qp_ex2)                                               \
	X(ibv_cmd_create_rwq_ind_table)                                        \
	X(ibv_cmd_create_srq)                                                  \
	X(ibv_cmd_create_srq_ex)                                               \
	X(ibv_cmd_create_wq)                                                   \
	X(ibv_cmd_dealloc_mw)                                                  \
	X(ibv_cmd_dealloc_pd)                                                  \
	X(ibv_cmd_dereg_mr)                                                    \
	X(ibv_cmd_destroy_ah)                                                  \
	X(ibv_cmd_destroy_comp_cntr)                                           \
	X(ibv_cmd_destroy_counters)                                            \
	X(ibv_cmd_destroy_cq)                                                  \
	X(ibv_cmd_destroy_flow)                                                \
	X(ibv_cmd_destroy_flow_action)                                         \
	X(ibv_cmd_destroy_qp)                                                  \
	X(ibv_cmd_destroy_rwq_ind_table)                                       \
	X(ibv_cmd_destroy_srq)                                                 \
	X(ibv_cmd_destroy_wq)                                                  \
	X(ibv_cmd_detach_mcast)                                                \
	X(ibv_cmd_free_dm)                                                     \
	X(ibv_cmd_free_dmah)                                                   \
	X(ibv_cmd_get_context)                                                 \
	X(ibv_cmd_inc_comp_cntr)                                               \
	X(ibv_cmd_inc_err_comp_cntr)                                           \
	X(ibv_cmd_modify_cq)                                                   \
	X(ibv_cmd_modify_flow_action_esp)                                      \
	X(ibv_cmd_modify_qp)                                                   \
	X(ibv_cmd_modify_qp_ex)                                                \
	X(ibv_cmd_modify_srq)                                                  \
	X(ibv_cmd_modify_wq)                                                   \
	X(ibv_cmd_open_qp)                                                     \
	X(ibv_cmd_open_xrcd)                                                   \
	X(ibv_cmd_poll_cq)                                                     \
	X(ibv_cmd_post_recv)                                                   \
	X(ibv_cmd_post_send)                                                   \
	X(ibv_cmd_post_srq_recv)                                               \
	X(ibv_cmd_qp_attach_comp_cntr)                                         \
	X(ibv_cmd_query_comp_cntr_caps)                                        \
	X(ibv_cmd_query_context)                                               \
	X(ibv_cmd_query_device_any)                                            \
	X(ibv_cmd_query_mr)                                                    \
	X(ibv_cmd_query_port)                                                  \
	X(ibv_cmd_query_port_speed)                                            \
	X(ibv_cmd_query_qp)                                                    \
	X(ibv_cmd_query_srq)                                                   \
	X(ibv_cmd_read_comp_cntr)                                              \
	X(ibv_cmd_read_counters)                                               \
	X(ibv_cmd_read_err_comp_cntr)                                          \
	X(ibv_cmd_reg_dm_mr)                                                   \
	X(ibv_cmd_reg_dmabuf_mr)                                               \
	X(ibv_cmd_reg_mr)                                                      \
	X(ibv_cmd_reg_mr_ex)                                                   \
	X(ibv_cmd_req_notify_cq)                                               \
	X(ibv_cmd_rereg_mr)                                                    \
	X(ibv_cmd_resize_cq)                                                   \
	X(ibv_cmd_set_comp_cntr)                                               \
	X(ibv_cmd_set_err_comp_cntr)

/* Returning a pointer (NULL). */
#define COMPAT65_PTR(X)                                                        \
	X(_verbs_init_and_alloc_context)                                       \
	X(ibv_dmabuf_heap_alloc)                                               \
	X(ibv_dmabuf_heap_cc_shared_init)                                      \
	X(ibv_wr_opcode_str)                                                   \
	X(verbs_open_device)

/* Returning -1: a file descriptor or a read length. */
#define COMPAT65_MINUS1(X)                                                     \
	X(ibv_cmd_export_dmabuf_fd)                                            \
	X(ibv_read_ibdev_sysfs_file)

/* void, or a count nobody reads. */
#define COMPAT65_NONE(X)                                                       \
	X(__ioctl_final_num_attrs)                                             \
	X(__verbs_log)                                                         \
	X(ibv_dmabuf_heap_destroy)                                             \
	X(ibv_dmabuf_heap_free)                                                \
	X(verbs_init_cq)                                                       \
	X(verbs_set_ops)                                                       \
	X(verbs_uninit_context)

#define COMPAT65_DEFINE(name, value)                                           \
	COMPAT_REFUSAL(compat65_, name, "IBVERBS_PRIVATE_65", value)
#define COMPAT65_DEF_ERRNO(name)  COMPAT65_DEFINE(name, EOPNOTSUPP)
#define COMPAT65_DEF_PTR(name)	  COMPAT65_DEFINE(name, 0)
#define COMPAT65_DEF_MINUS1(name) COMPAT65_DEFINE(name, -1)

COMPAT65_ERRNO(COMPAT65_DEF_ERRNO)
COMPAT65_PTR(COMPAT65_DEF_PTR)
COMPAT65_MINUS1(COMPAT65_DEF_MINUS1)
COMPAT65_NONE(COMPAT65_DEF_PTR)

/* Data: rc65's libmlx5 reads it at load (a GLOB_DAT reference). */
bool compat65_verbs_allow_disassociate_destroy;
__asm__(".symver compat65_verbs_allow_disassociate_destroy, "
	"verbs_allow_disassociate_destroy@IBVERBS_PRIVATE_65");

COMPAT_IGNORED_PROVIDER(65)
