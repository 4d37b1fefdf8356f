// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A libefa.so.1 for running Debian's prebuilt perftest on rdma-dm: its
 * programs link libefa (AWS EFA direct verbs) eagerly, and Debian's libefa
 * needs Debian's private libibverbs ABI. There is no EFA device here, so
 * both entry points perftest binds answer EOPNOTSUPP.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

struct ibv_context;
struct ibv_qp;
struct ibv_qp_init_attr_ex;
struct efadv_device_attr;
struct efadv_qp_init_attr;

int efadv_query_device(struct ibv_context *ctx, struct efadv_device_attr *attr,
		       uint32_t inlen);
struct ibv_qp *efadv_create_qp_ex(struct ibv_context *ctx,
				  struct ibv_qp_init_attr_ex *attr,
				  struct efadv_qp_init_attr *efa_attr,
				  uint32_t inlen);

int efadv_query_device(struct ibv_context *ctx, struct efadv_device_attr *attr,
		       uint32_t inlen)
{
	return EOPNOTSUPP;
}

struct ibv_qp *efadv_create_qp_ex(struct ibv_context *ctx,
				  struct ibv_qp_init_attr_ex *attr,
				  struct efadv_qp_init_attr *efa_attr,
				  uint32_t inlen)
{
	errno = EOPNOTSUPP;
	return NULL;
}
