// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The IBVERBS_1.0 interface: the verbs as libibverbs 1.0 shipped them,
 * before struct ibv_context and friends took their present layout.
 * Upstream still exports them, as non-default versions, so a binary linked
 * in that era resolves; nothing links against them any more. This library
 * does not translate the 1.0 structs: each entry point exists at its node
 * and refuses the way its verb reports errors, so such a binary loads and
 * sees the verb fail instead of misreading memory.
 */
#include "compat_symver.h"

/* Verbs returning a pointer (NULL, errno EOPNOTSUPP). */
#define COMPAT10_PTR(X)                                                        \
	X(ibv_alloc_pd)                                                        \
	X(ibv_create_ah)                                                       \
	X(ibv_create_cq)                                                       \
	X(ibv_create_qp)                                                       \
	X(ibv_create_srq)                                                      \
	X(ibv_get_device_list)                                                 \
	X(ibv_get_device_name)                                                 \
	X(ibv_open_device)                                                     \
	X(ibv_reg_mr)

/* Verbs returning an errno value (EOPNOTSUPP, errno set too). */
#define COMPAT10_ERRNO(X)                                                      \
	X(ibv_attach_mcast)                                                    \
	X(ibv_close_device)                                                    \
	X(ibv_dealloc_pd)                                                      \
	X(ibv_dereg_mr)                                                        \
	X(ibv_destroy_ah)                                                      \
	X(ibv_destroy_cq)                                                      \
	X(ibv_destroy_qp)                                                      \
	X(ibv_destroy_srq)                                                     \
	X(ibv_detach_mcast)                                                    \
	X(ibv_modify_qp)                                                       \
	X(ibv_modify_srq)                                                      \
	X(ibv_query_device)                                                    \
	X(ibv_query_gid)                                                       \
	X(ibv_query_pkey)                                                      \
	X(ibv_query_port)                                                      \
	X(ibv_query_qp)                                                        \
	X(ibv_query_srq)                                                       \
	X(ibv_resize_cq)

/* Verbs returning -1 (errno EOPNOTSUPP). */
#define COMPAT10_MINUS1(X)                                                     \
	X(ibv_get_async_event)                                                 \
	X(ibv_get_cq_event)

/* Verbs with nothing to report: void, or a GUID (0). */
#define COMPAT10_NONE(X)                                                       \
	X(ibv_ack_async_event)                                                 \
	X(ibv_ack_cq_events)                                                   \
	X(ibv_free_device_list)                                                \
	X(ibv_get_device_guid)

#define COMPAT10_DEFINE(name, value)                                           \
	COMPAT_REFUSAL(compat10_, name, "IBVERBS_1.0", value)

#define COMPAT10_DEF_PTR(name)	  COMPAT10_DEFINE(name, 0)
#define COMPAT10_DEF_ERRNO(name)  COMPAT10_DEFINE(name, EOPNOTSUPP)
#define COMPAT10_DEF_MINUS1(name) COMPAT10_DEFINE(name, -1)
#define COMPAT10_DEF_NONE(name)	  COMPAT10_DEFINE(name, 0)

COMPAT10_PTR(COMPAT10_DEF_PTR)
COMPAT10_ERRNO(COMPAT10_DEF_ERRNO)
COMPAT10_MINUS1(COMPAT10_DEF_MINUS1)
COMPAT10_NONE(COMPAT10_DEF_NONE)
