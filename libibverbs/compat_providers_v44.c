// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The provider interface of rdma-core 44 (IBVERBS_PRIVATE_34), as names only.
 *
 * Programs such as Debian's perftest link rdma-core 44's provider libraries
 * (libefa.so.1) directly, and those are built with BIND_NOW: without these
 * names the program does not load against this libibverbs at all. A provider
 * built for another libibverbs must never run here (its structs differ), so
 * its registration is ignored and every other entry point refuses with
 * EOPNOTSUPP; none of them is reachable once registration is ignored.
 */
#include "compat_symver.h"

/* Every PRIVATE_34 name that rdma-core 44's libefa binds at load. */
#define COMPAT34_REFUSED(X)                                                    \
	X(__verbs_log)                                                         \
	X(_verbs_init_and_alloc_context)                                       \
	X(ibv_cmd_alloc_pd)                                                    \
	X(ibv_cmd_create_ah)                                                   \
	X(ibv_cmd_create_cq_ex)                                                \
	X(ibv_cmd_create_qp_ex)                                                \
	X(ibv_cmd_dealloc_pd)                                                  \
	X(ibv_cmd_dereg_mr)                                                    \
	X(ibv_cmd_destroy_ah)                                                  \
	X(ibv_cmd_destroy_cq)                                                  \
	X(ibv_cmd_destroy_qp)                                                  \
	X(ibv_cmd_get_context)                                                 \
	X(ibv_cmd_modify_qp)                                                   \
	X(ibv_cmd_query_device_any)                                            \
	X(ibv_cmd_query_port)                                                  \
	X(ibv_cmd_query_qp)                                                    \
	X(ibv_cmd_reg_dmabuf_mr)                                               \
	X(ibv_cmd_reg_mr)                                                      \
	X(verbs_set_ops)                                                       \
	X(verbs_uninit_context)

#define COMPAT34_DEFINE(name)                                                  \
	COMPAT_REFUSAL(compat34_, name, "IBVERBS_PRIVATE_34", 0)

COMPAT34_REFUSED(COMPAT34_DEFINE)

COMPAT_IGNORED_PROVIDER(34)
