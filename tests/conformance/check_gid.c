// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DEVICE/QUERY_GID_ENTRY: which widths the kernel accepts for its constant
 * inputs (port, index) and what GID 0 of rxe0 is.
 */
#include <errno.h>
#include <string.h>

#include "conf.h"

struct ib_uverbs_gid_entry conf_gid0;
uint64_t conf_gid_count;

/* The whole table; 0 or the errno, the entry count in *num. */
static int query_gid_table(uint16_t flags_len, uint64_t *num)
{
	struct ib_uverbs_gid_entry entries[16];
	struct raw_ioctl cmd;

	raw_init(&cmd, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_TABLE);
	raw_add(&cmd, UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, sizeof(uint64_t),
		UVERBS_ATTR_F_MANDATORY, sizeof(entries[0]));
	raw_add(&cmd, UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, flags_len,
		UVERBS_ATTR_F_MANDATORY, 0);
	raw_add(&cmd, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, sizeof(entries),
		UVERBS_ATTR_F_MANDATORY, (uintptr_t)entries);
	raw_add(&cmd, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES,
		sizeof(*num), UVERBS_ATTR_F_MANDATORY, (uintptr_t)num);
	return raw_exec(conf_fd, &cmd);
}

static int query_gid_entry(uint16_t const_len, uint16_t flags_len,
			   struct ib_uverbs_gid_entry *entry)
{
	struct raw_ioctl cmd;

	raw_init(&cmd, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY);
	raw_add(&cmd, UVERBS_ATTR_QUERY_GID_ENTRY_PORT, const_len,
		UVERBS_ATTR_F_MANDATORY, 1);
	raw_add(&cmd, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, const_len,
		UVERBS_ATTR_F_MANDATORY, 0);
	raw_add(&cmd, UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, flags_len,
		UVERBS_ATTR_F_MANDATORY, 0);
	raw_add(&cmd, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, sizeof(*entry),
		UVERBS_ATTR_F_MANDATORY, (uintptr_t)entry);
	return raw_exec(conf_fd, &cmd);
}

void check_gid(void)
{
	struct ib_uverbs_gid_entry entry;

	conf_print_header("GID entry (DEVICE/QUERY_GID_ENTRY)");
	conf_expect("gid.entry.consts_u64_flags_u32", 0,
		    query_gid_entry(8, 4, &conf_gid0));
	conf_expect("gid.entry.consts_u64_flags_u64", 0,
		    query_gid_entry(8, 8, &entry));
	conf_expect("gid.entry.consts_u32_flags_u32", EINVAL,
		    query_gid_entry(4, 4, &entry));
	conf_expect_u("gid.entry0.type_roce_v2", IB_UVERBS_GID_TYPE_ROCE_V2,
		      conf_gid0.gid_type);
	conf_expect("gid.table.flags_u32", 0,
		    query_gid_table(4, &conf_gid_count));
	/* dummy0 has only its IPv6 link-local address: one RoCE v2 GID. */
	conf_expect_u("gid.table.entries", 1, conf_gid_count);
}
