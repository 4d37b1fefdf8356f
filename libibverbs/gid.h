/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* GID queries: the kernel ioctls and their sysfs equivalents. */
#ifndef RDMA_DM_GID_H
#define RDMA_DM_GID_H

#include <sys/types.h>

#include <infiniband/verbs.h>

/*
 * 0, a positive errno, or VERBS_USE_WRITE when the kernel lacks the
 * ioctl (the caller then reads sysfs).
 */
int verbs_cmd_query_gid_entry(struct ibv_context *ctx, uint32_t port_num,
			      uint32_t gid_index, struct ibv_gid_entry *entry);
/* The entry count, a negative errno, or VERBS_USE_WRITE. */
ssize_t verbs_cmd_query_gid_table(struct ibv_context *ctx,
				  struct ibv_gid_entry *entries,
				  size_t max_entries, size_t entry_size);

#endif /* RDMA_DM_GID_H */
