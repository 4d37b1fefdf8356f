// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * GID and P_Key queries: the QUERY_GID_ENTRY/TABLE ioctl encodings, the
 * kernel's answers (ENODATA: empty slot), and the sysfs fallback when the
 * kernel lacks the ioctls, read from a temporary sysfs tree.
 */
#include <endian.h>
#include <errno.h>
#include <net/if.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mock_kernel.h"
#include "test_util.h"

#define GID_A	 "fe80:0000:0000:0000:0e42:a1ff:feb3:d0e0"
#define GID_B	 "0000:0000:0000:0000:0000:ffff:c0a8:0101"
#define GID_ZERO "0000:0000:0000:0000:0000:0000:0000:0000"

static const char *const tree[][2] = {
	{"ports/1/link_layer", "Ethernet\n"},
	{"ports/1/gids/0", GID_A "\n"},
	{"ports/1/gid_attrs/types/0", "IB/RoCE v1\n"},
	{"ports/1/gid_attrs/ndevs/0", "lo\n"},
	{"ports/1/gids/1", GID_ZERO "\n"},
	{"ports/1/gids/2", GID_B "\n"},
	{"ports/1/gid_attrs/types/2", "RoCE v2\n"},
	{"ports/2/link_layer", "InfiniBand\n"},
	{"ports/2/gids/0", GID_A "\n"},
	{"ports/2/gid_attrs/types/0", "IB/RoCE v1\n"},
	{"ports/1/pkeys/0", "0xffff\n"},
	{"ports/1/pkeys/1", "0x8001\n"},
	{"ports/1/pkeys/2", "garbage\n"},
};

static struct verbs_sysfs_dev sysfs;
static struct verbs_device vdev = {.sysfs = &sysfs};
static char *root;

static int setup(void **state)
{
	size_t i;

	vctx = mock_context(RDMA_DRIVER_MLX5, ENOSPC);
	root = test_mkdtemp();
	for (i = 0; i < sizeof(tree) / sizeof(tree[0]); i++)
		test_write_file(root, tree[i][0], tree[i][1]);
	strcpy(sysfs.ibdev_path, root);
	vctx->context.device = &vdev.device;
	return 0;
}

static int teardown(void **state)
{
	test_rmtree(root);
	mock_context_free(vctx);
	return 0;
}

static const uint8_t gid_a[16] = {0xfe, 0x80, [8] = 0x0e, 0x42, 0xa1,
				  0xff, 0xfe, 0xb3,	  0xd0, 0xe0};

static int answer_entry(struct ib_uverbs_ioctl_hdr *hdr)
{
	struct ib_uverbs_gid_entry entry = {
		.gid_index = 3,
		.port_num = 1,
		.gid_type = IBV_GID_TYPE_ROCE_V2,
		.netdev_ifindex = 7,
	};

	memcpy(entry.gid, gid_a, 16);
	memcpy((void *)(uintptr_t)mock_find(hdr, 3)->data, &entry,
	       sizeof(entry));
	return 0;
}

static void test_entry_ioctl(void **state)
{
	struct ibv_gid_entry entry;

	mock_ioctl_handler = answer_entry;
	assert_int_equal(ibv_query_gid_ex(&vctx->context, 1, 3, &entry, 0), 0);
	mock_expect_hdr(0, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY,
			4, 1);
	/* Constant inputs are always 8 bytes; the flags may be 4. */
	mock_expect_attr(0, 0, UVERBS_ATTR_QUERY_GID_ENTRY_PORT, 8, 1, 1);
	mock_expect_attr(0, 1, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, 8, 1, 3);
	mock_expect_attr(0, 2, UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 4, 1, 0);
	mock_expect_attr(0, 3, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, 32, 1,
			 MOCK_ANY);
	assert_memory_equal(entry.gid.raw, gid_a, 16);
	assert_int_equal(entry.gid_type, IBV_GID_TYPE_ROCE_V2);
	assert_int_equal(entry.ndev_ifindex, 7);

	/* Bad arguments never reach the kernel. */
	assert_int_equal(ibv_query_gid_ex(&vctx->context, 1, 3, &entry, 1),
			 EINVAL);
	assert_int_equal(_ibv_query_gid_ex(&vctx->context, 1, 3, &entry, 0,
					   sizeof(entry) - 1),
			 EINVAL);
	assert_int_equal(mock_num_calls, 1);
}

static int fail_enodata(struct ib_uverbs_ioctl_hdr *hdr)
{
	return ENODATA;
}

static void test_query_gid_empty_and_bad(void **state)
{
	union ibv_gid gid;

	/* An empty slot reads as the zero GID. */
	memset(&gid, 0xff, sizeof(gid));
	mock_ioctl_handler = fail_enodata;
	assert_int_equal(ibv_query_gid(&vctx->context, 1, 1, &gid), 0);
	assert_memory_equal(gid.raw, (uint8_t[16]){0}, 16);

	mock_ioctl_handler = mock_fail_einval;
	errno = 0;
	assert_int_equal(ibv_query_gid(&vctx->context, 1, 99, &gid), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(ibv_query_gid(&vctx->context, 1, -1, &gid), -1);
}

static void test_entry_sysfs_fallback(void **state)
{
	struct ibv_gid_entry entry;
	union ibv_gid gid;

	mock_ioctl_handler = mock_fail_eprotonosupport;
	assert_int_equal(ibv_query_gid_ex(&vctx->context, 1, 0, &entry, 0), 0);
	assert_memory_equal(entry.gid.raw, gid_a, 16);
	assert_int_equal(entry.port_num, 1);
	assert_int_equal(entry.gid_index, 0);
	/* "IB/RoCE v1" on an Ethernet port is RoCE v1. */
	assert_int_equal(entry.gid_type, IBV_GID_TYPE_ROCE_V1);
	assert_int_equal(entry.ndev_ifindex, if_nametoindex("lo"));

	assert_int_equal(ibv_query_gid_ex(&vctx->context, 1, 2, &entry, 0), 0);
	assert_int_equal(entry.gid_type, IBV_GID_TYPE_ROCE_V2);
	assert_int_equal(entry.ndev_ifindex, 0);
	assert_int_equal(ibv_query_gid_ex(&vctx->context, 2, 0, &entry, 0), 0);
	assert_int_equal(entry.gid_type, IBV_GID_TYPE_IB);

	assert_int_equal(ibv_query_gid_ex(&vctx->context, 1, 1, &entry, 0),
			 ENODATA);
	assert_int_equal(ibv_query_gid_ex(&vctx->context, 1, 9, &entry, 0),
			 EINVAL);
	assert_int_equal(ibv_query_gid(&vctx->context, 1, 0, &gid), 0);
	assert_memory_equal(gid.raw, gid_a, 16);
	/* Only the first call tried the ioctl. */
	assert_int_equal(mock_num_calls, 1);
}

static int answer_table(struct ib_uverbs_ioctl_hdr *hdr)
{
	uint64_t num = 2;

	memcpy((void *)(uintptr_t)mock_find(hdr, 3)->data, &num, sizeof(num));
	return 0;
}

static void test_table_ioctl(void **state)
{
	struct ibv_gid_entry entries[4];

	mock_ioctl_handler = answer_table;
	assert_int_equal(ibv_query_gid_table(&vctx->context, entries, 4, 0), 2);
	mock_expect_hdr(0, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_TABLE,
			4, 1);
	mock_expect_attr(0, 0, UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, 8, 1,
			 32);
	mock_expect_attr(0, 1, UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, 4, 1, 0);
	mock_expect_attr(0, 2, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, 128, 1,
			 (uintptr_t)entries);
	mock_expect_attr(0, 3, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, 8,
			 1, MOCK_ANY);

	mock_ioctl_handler = mock_fail_einval;
	assert_int_equal(ibv_query_gid_table(&vctx->context, entries, 4, 0),
			 -EINVAL);
	assert_int_equal(ibv_query_gid_table(&vctx->context, entries, 4, 2),
			 -EINVAL);
}

static void test_table_sysfs_fallback(void **state)
{
	struct ibv_gid_entry entries[3];

	mock_ioctl_handler = mock_fail_eprotonosupport;
	/* Port 1: slots 0 and 2 (1 is empty); port 2: slot 0. */
	assert_int_equal(ibv_query_gid_table(&vctx->context, entries, 3, 0), 3);
	assert_int_equal(entries[0].port_num, 1);
	assert_int_equal(entries[1].gid_index, 2);
	assert_int_equal(entries[1].gid_type, IBV_GID_TYPE_ROCE_V2);
	assert_int_equal(entries[2].port_num, 2);
	assert_int_equal(entries[2].gid_type, IBV_GID_TYPE_IB);
	/* Too small a table is an error, not a silent truncation. */
	assert_int_equal(ibv_query_gid_table(&vctx->context, entries, 2, 0),
			 -EINVAL);
}

static void test_pkeys(void **state)
{
	__be16 pkey;

	assert_int_equal(ibv_query_pkey(&vctx->context, 1, 0, &pkey), 0);
	assert_int_equal(pkey, htobe16(0xffff));
	assert_int_equal(ibv_query_pkey(&vctx->context, 1, 1, &pkey), 0);
	assert_int_equal(pkey, htobe16(0x8001));
	errno = 0;
	assert_int_equal(ibv_query_pkey(&vctx->context, 1, 2, &pkey), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(ibv_query_pkey(&vctx->context, 1, 7, &pkey), -1);
	assert_int_equal(ibv_get_pkey_index(&vctx->context, 1, htobe16(0x8001)),
			 1);
	assert_int_equal(ibv_get_pkey_index(&vctx->context, 1, htobe16(0x1234)),
			 -1);
	assert_int_equal(mock_num_calls, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_entry_ioctl),	      T(test_query_gid_empty_and_bad),
		T(test_entry_sysfs_fallback), T(test_table_ioctl),
		T(test_table_sysfs_fallback), T(test_pkeys),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
