/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Conversions between the kernel's uverbs/ucma structs and the verbs
 * API's, for code (such as librdmacm) that talks to the kernel itself.
 */
#ifndef INFINIBAND_MARSHALL_H
#define INFINIBAND_MARSHALL_H

#include <rdma/ib_user_sa.h>
#include <rdma/ib_user_verbs.h>

#include <infiniband/sa.h>
#include <infiniband/verbs.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fill @dst from the kernel's QP attributes (all fields, any mask). */
void ibv_copy_qp_attr_from_kern(struct ibv_qp_attr *dst,
				struct ib_uverbs_qp_attr *src);

/* Fill @dst from the kernel's address vector. */
void ibv_copy_ah_attr_from_kern(struct ibv_ah_attr *dst,
				struct ib_uverbs_ah_attr *src);

/* Convert a path record from / to the kernel's struct ib_user_path_rec. */
void ibv_copy_path_rec_from_kern(struct ibv_sa_path_rec *dst,
				 struct ib_user_path_rec *src);
void ibv_copy_path_rec_to_kern(struct ib_user_path_rec *dst,
			       struct ibv_sa_path_rec *src);

#ifdef __cplusplus
}
#endif

#endif /* INFINIBAND_MARSHALL_H */
