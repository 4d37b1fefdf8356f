// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * sysfs discovery against temporary trees: the attribute parsers with
 * truncated and garbage text, missing files, the global ABI check, the
 * SYSFS_PATH rules and the char-device filter.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "discover.h"
#include "sysfs.h"
#include "skip.h"
#include "test_util.h"

static void test_parse_int(void **state)
{
	int v = -1;

	assert_int_equal(verbs_parse_int("6\n", &v), 0);
	assert_int_equal(v, 6);
	assert_int_equal(verbs_parse_int("-3", &v), 0);
	assert_int_equal(v, -3);
	assert_int_equal(verbs_parse_int("", &v), EINVAL);
	assert_int_equal(verbs_parse_int("6x", &v), EINVAL);
	assert_int_equal(verbs_parse_int("6\n\n", &v), EINVAL);
	assert_int_equal(verbs_parse_int("99999999999", &v), EINVAL);
	assert_int_equal(v, -3);
}

static void test_parse_devnum(void **state)
{
	dev_t dev = 0;

	assert_int_equal(verbs_parse_devnum("231:192\n", &dev), 0);
	assert_int_equal(major(dev), 231);
	assert_int_equal(minor(dev), 192);
	assert_int_equal(verbs_parse_devnum("231", &dev), EINVAL);
	assert_int_equal(verbs_parse_devnum("231:", &dev), EINVAL);
	assert_int_equal(verbs_parse_devnum("a:1", &dev), EINVAL);
	assert_int_equal(verbs_parse_devnum("1:2:3", &dev), EINVAL);
}

static void test_parse_guid_and_gid(void **state)
{
	uint8_t gid[16], expect[16] = {0xfe, 0x80, [8] = 0x0e, 0x42, 0xa1,
				       0xff, 0xfe, 0xb3,       0xd0, 0xe0};
	uint64_t guid = 0;

	assert_int_equal(verbs_parse_guid("0c42:a103:00b3:d0e0\n", &guid), 0);
	assert_int_equal(guid, 0x0c42a10300b3d0e0ULL);
	assert_int_equal(verbs_parse_guid("0C42:A103:00B3:D0E0", &guid), 0);
	assert_int_equal(guid, 0x0c42a10300b3d0e0ULL);
	/* Truncated, too long, wrong separators, non-hex. */
	assert_int_equal(verbs_parse_guid("0c42:a103:00b3", &guid), EINVAL);
	assert_int_equal(verbs_parse_guid("0c42:a103:00b3:d0e0:1", &guid),
			 EINVAL);
	assert_int_equal(verbs_parse_guid("0c42-a103-00b3-d0e0", &guid),
			 EINVAL);
	assert_int_equal(verbs_parse_guid("0c42:a103:00b3:d0eg", &guid),
			 EINVAL);
	assert_int_equal(verbs_parse_guid("", &guid), EINVAL);

	assert_int_equal(verbs_parse_gid("fe80:0000:0000:0000:0e42:a1ff:"
					 "feb3:d0e0\n",
					 gid),
			 0);
	assert_memory_equal(gid, expect, 16);
	assert_int_equal(verbs_parse_gid("fe80:0000", gid), EINVAL);
}

#define UV "class/infiniband_verbs/"
#define IB "class/infiniband/"

/* A sysfs tree with one good, two broken and one half-readable device. */
static const char *const tree[][2] = {
	{UV "abi_version", "6\n"},
	{UV "uverbs0/ibdev", "mlx5_0\n"},
	{UV "uverbs0/dev", "231:192\n"},
	{UV "uverbs0/abi_version", "1\n"},
	{IB "mlx5_0/node_type", "1: CA\n"},
	{IB "mlx5_0/node_guid", "0c42:a103:00b3:d0e0\n"},
	{IB "mlx5_0/device/modalias",
	 "pci:v000015B3d0000101Bsv000015B3sd00000008bc02sc00i00\n"},
	/* No ibdev file: skipped. */
	{UV "uverbs1/abi_version", "1\n"},
	/* Garbage ABI: skipped. */
	{UV "uverbs2/ibdev", "x_0\n"},
	{UV "uverbs2/abi_version", "one\n"},
	/* Garbage dev, truncated files: kept, details unknown. */
	{UV "uverbs3/ibdev", "rxe0"},
	{UV "uverbs3/abi_version", "2"},
	{UV "uverbs3/dev", "junk"},
	{IB "rxe0/node_type", "garbage\n"},
	{IB "rxe0/node_guid", "0c42:a1"},
	/* A regular file among the devices is not a device. */
	{UV "notadir", "x"},
};

static void build_tree(const char *root)
{
	size_t i;

	for (i = 0; i < sizeof(tree) / sizeof(tree[0]); i++)
		test_write_file(root, tree[i][0], tree[i][1]);
}

static struct verbs_sysfs_dev *find(struct verbs_sysfs_list *list,
				    const char *name)
{
	size_t i;

	for (i = 0; i < list->num; i++)
		if (!strcmp(list->devs[i]->sysfs_name, name))
			return list->devs[i];
	return NULL;
}

static void test_scan_tree(void **state)
{
	struct verbs_sysfs_list list = {};
	struct verbs_sysfs_dev *dev;
	char *root = test_mkdtemp();
	char path[512];

	build_tree(root);
	assert_int_equal(verbs_sysfs_scan(root, &list, NULL), 0);
	assert_int_equal(list.num, 2);

	dev = find(&list, "uverbs0");
	assert_non_null(dev);
	assert_string_equal(dev->ibdev_name, "mlx5_0");
	assert_int_equal(dev->abi_ver, 1);
	assert_int_equal(dev->sysfs_cdev, makedev(231, 192));
	assert_int_equal(dev->node_type, IBV_NODE_CA);
	assert_true(dev->have_node_guid);
	assert_int_equal(dev->node_guid, 0x0c42a10300b3d0e0ULL);
	assert_string_equal(dev->modalias, "pci:v000015B3d0000101Bsv000015B3"
					   "sd00000008bc02sc00i00");
	snprintf(path, sizeof(path), "%s/class/infiniband/mlx5_0", root);
	assert_string_equal(dev->ibdev_path, path);
	snprintf(path, sizeof(path), "%s/class/infiniband_verbs/uverbs0", root);
	assert_string_equal(dev->sysfs_path, path);
	assert_int_equal(dev->ibdev_idx, VERBS_IBDEV_IDX_UNKNOWN);
	assert_false(dev->from_netlink);
	assert_true(dev->time_created.tv_sec > 0);

	dev = find(&list, "uverbs3");
	assert_non_null(dev);
	assert_string_equal(dev->ibdev_name, "rxe0");
	assert_int_equal(dev->abi_ver, 2);
	assert_int_equal(dev->sysfs_cdev, 0);
	assert_int_equal(dev->node_type, IBV_NODE_UNKNOWN);
	assert_false(dev->have_node_guid);
	assert_string_equal(dev->modalias, "");

	/* Only devices with a node in the char-device directory stay. */
	test_write_file(root, "dev/uverbs3", "");
	snprintf(path, sizeof(path), "%s/dev", root);
	verbs_filter_missing_cdev(&list, path);
	assert_int_equal(list.num, 1);
	assert_string_equal(list.devs[0]->sysfs_name, "uverbs3");

	verbs_sysfs_list_free(&list);
	test_rmtree(root);
}

/* Many devices: the char-device directory is listed once, same result. */
static void test_filter_by_listing(void **state)
{
	struct verbs_sysfs_list list = {};
	char *root = test_mkdtemp();
	char name[32], path[512];
	unsigned int i;

	for (i = 0; i < 20; i++) {
		struct verbs_sysfs_dev *dev = verbs_sysfs_dev_new();

		snprintf(dev->sysfs_name, sizeof(dev->sysfs_name), "uverbs%u",
			 i);
		assert_int_equal(verbs_sysfs_list_add(&list, dev), 0);
		/* Every third node is missing; umad nodes sit beside. */
		snprintf(name, sizeof(name), "dev/%s%u",
			 i % 3 ? "uverbs" : "umad", i);
		test_write_file(root, name, "");
	}
	snprintf(path, sizeof(path), "%s/dev", root);
	verbs_filter_missing_cdev(&list, path);
	assert_int_equal(list.num, 13);
	for (i = 0; i < list.num; i++) {
		unsigned int n =
			(unsigned int)atoi(list.devs[i]->sysfs_name + 6);

		assert_true(n % 3);
		assert_true(i == 0 ||
			    n > (unsigned int)atoi(
					list.devs[i - 1]->sysfs_name + 6));
	}
	verbs_sysfs_list_free(&list);
	/* No directory at all: nothing is usable. */
	for (i = 0; i < 10; i++)
		assert_int_equal(
			verbs_sysfs_list_add(&list, verbs_sysfs_dev_new()), 0);
	snprintf(path, sizeof(path), "%s/missing", root);
	verbs_filter_missing_cdev(&list, path);
	assert_int_equal(list.num, 0);
	verbs_sysfs_list_free(&list);
	test_rmtree(root);
}

static void test_global_abi(void **state)
{
	static const struct {
		const char *text;
		int ret;
	} cases[] = {
		{"6\n", 0},	 {"3", 0},	    {"7\n", ENOSYS},
		{"2\n", ENOSYS}, {"six\n", ENOSYS}, {"", ENOSYS},
	};
	struct verbs_sysfs_list list = {};
	char *root = test_mkdtemp();
	size_t i;

	assert_int_equal(verbs_sysfs_check_abi(root), ENOSYS);
	assert_int_equal(verbs_sysfs_scan(root, &list, NULL), ENOENT);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		test_write_file(root, "class/infiniband_verbs/abi_version",
				cases[i].text);
		assert_int_equal(verbs_sysfs_check_abi(root), cases[i].ret);
	}
	test_rmtree(root);
}

static void test_sysfs_path_env(void **state)
{
	setenv("SYSFS_PATH", "/tmp/fake-sys///", 1);
	verbs_sysfs_path_reset();
	assert_string_equal(ibv_get_sysfs_path(), "/tmp/fake-sys");
	setenv("SYSFS_PATH", "/", 1);
	verbs_sysfs_path_reset();
	assert_string_equal(ibv_get_sysfs_path(), "/");
	unsetenv("SYSFS_PATH");
	verbs_sysfs_path_reset();
	assert_string_equal(ibv_get_sysfs_path(), "/sys");
}

static void test_discover_falls_back_to_sysfs(void **state)
{
	struct verbs_sysfs_list list = {};
	char *root = test_mkdtemp();

	/* Meaningful only where RDMA netlink and /dev/infiniband are absent. */
	if (!verbs_nl_discover(root, &list, NULL) ||
	    !access("/dev/infiniband", F_OK)) {
		verbs_sysfs_list_free(&list);
		test_rmtree(root);
		test_skip("this host has RDMA netlink or /dev/infiniband");
	}
	build_tree(root);
	setenv("SYSFS_PATH", root, 1);
	verbs_sysfs_path_reset();
	assert_int_equal(verbs_discover_devices(&list, NULL), 0);
	/* ...and no /dev/infiniband/uverbsN here, so nothing is usable. */
	assert_int_equal(list.num, 0);
	test_write_file(root, "class/infiniband_verbs/abi_version", "9\n");
	assert_int_equal(verbs_discover_devices(&list, NULL), ENOSYS);
	unsetenv("SYSFS_PATH");
	verbs_sysfs_path_reset();
	test_rmtree(root);
}

static void test_read_file(void **state)
{
	char *root = test_mkdtemp();
	char buf[8];

	test_write_file(root, "f", "0123456789\n");
	/* Truncated to the buffer, always terminated. */
	assert_int_equal(ibv_read_sysfs_file(root, "f", buf, sizeof(buf)), 7);
	assert_string_equal(buf, "0123456");
	assert_int_equal(ibv_read_sysfs_file(root, "missing", buf, sizeof(buf)),
			 -1);
	assert_int_equal(errno, ENOENT);
	test_rmtree(root);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_int),
		cmocka_unit_test(test_parse_devnum),
		cmocka_unit_test(test_parse_guid_and_gid),
		cmocka_unit_test(test_scan_tree),
		cmocka_unit_test(test_filter_by_listing),
		cmocka_unit_test(test_global_abi),
		cmocka_unit_test(test_sysfs_path_env),
		cmocka_unit_test(test_read_file),
	};
	/* Host-dependent, hence a ctest test of its own that may SKIP. */
	const struct CMUnitTest fallback[] = {
		cmocka_unit_test(test_discover_falls_back_to_sysfs),
	};

	if (argc > 1 && !strcmp(argv[1], "fallback"))
		return test_exit_status(
			cmocka_run_group_tests(fallback, NULL, NULL));
	return test_exit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
