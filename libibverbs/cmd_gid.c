// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* QUERY_GID_ENTRY / QUERY_GID_TABLE ioctls (sysfs fallback in gid.c). */
#include <errno.h>
#include <string.h>

#include "cmd_write.h"
#include "gid.h"

_Static_assert(sizeof(struct ib_uverbs_gid_entry) ==
		       sizeof(struct ibv_gid_entry),
	       "ibv_gid_entry mirrors the kernel's gid entry");

int verbs_cmd_query_gid_entry(struct ibv_context *ctx, uint32_t port_num,
			      uint32_t gid_index, struct ibv_gid_entry *entry)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_QUERY_GID_ENTRY, 4);
	struct ib_uverbs_gid_entry kern;
	int ret;

	/* Constant inputs: the kernel takes them as u64 only (len 4: EINVAL).
	 */
	uverbs_attr_in_u64(cmd, UVERBS_ATTR_QUERY_GID_ENTRY_PORT, port_num);
	uverbs_attr_in_u64(cmd, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX,
			   gid_index);
	uverbs_attr_in_u32(cmd, UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 0);
	uverbs_attr_out_ptr(cmd, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, &kern,
			    sizeof(kern));
	ret = verbs_execute_or_fallback(ctx, VERBS_OP_QUERY_GID, cmd);
	if (!ret)
		memcpy(entry, &kern, sizeof(*entry));
	return ret;
}

ssize_t verbs_cmd_query_gid_table(struct ibv_context *ctx,
				  struct ibv_gid_entry *entries,
				  size_t max_entries, size_t entry_size)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_QUERY_GID_TABLE, 4);
	uint64_t num = 0;
	int ret;

	uverbs_attr_in_u64(cmd, UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE,
			   entry_size);
	uverbs_attr_in_u32(cmd, UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, 0);
	uverbs_attr_out_ptr(cmd, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES,
			    entries, max_entries * entry_size);
	uverbs_attr_out_ptr(cmd, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES,
			    &num, sizeof(num));
	ret = verbs_execute_or_fallback(ctx, VERBS_OP_QUERY_GID, cmd);
	if (ret == VERBS_USE_WRITE)
		return VERBS_USE_WRITE;
	return ret ? -ret : (ssize_t)num;
}
