// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Pairing devices with providers: driver-id entries, the device name,
 * PCI ids and modalias patterns, the match_device() hook, the ABI range,
 * and the netlink driver-id pass that beats table order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "provider.h"

static const struct verbs_match_ent pci_table[] = {
	VERBS_PCI_MATCH(0x15b3, 0x101b, "cx6"),
	VERBS_MODALIAS_MATCH("vmbus:*", "hyperv"),
	VERBS_MATCH_END,
};
static const struct verbs_device_ops pci_ops = {
	.name = "pci",
	.match_min_abi_version = 1,
	.match_max_abi_version = 1,
	.match_table = pci_table,
};

static const struct verbs_match_ent id_table[] = {
	VERBS_DRIVER_ID(RDMA_DRIVER_MLX5),
	VERBS_PCI_MATCH(0x15b3, 0x1017, NULL),
	VERBS_MATCH_END,
};
static const struct verbs_device_ops id_ops = {
	.name = "by-id",
	.match_min_abi_version = 1,
	.match_max_abi_version = 1,
	.match_table = id_table,
};

static const struct verbs_match_ent name_table[] = {
	VERBS_NAME_MATCH("rxe", "soft"),
	VERBS_MATCH_END,
};
static const struct verbs_device_ops name_ops = {
	.name = "name",
	.match_min_abi_version = 0,
	.match_max_abi_version = 2,
	.match_table = name_table,
};

static int hook_calls;
static bool hook_answer;

static bool hook(struct verbs_sysfs_dev *dev)
{
	hook_calls++;
	return hook_answer;
}

static const struct verbs_device_ops hook_ops = {
	.name = "hook",
	.match_min_abi_version = 0,
	.match_max_abi_version = 9,
	.match_device = hook,
};

static struct verbs_sysfs_dev make_dev(const char *name, const char *modalias,
				       uint32_t driver_id, int abi)
{
	struct verbs_sysfs_dev dev = {.driver_id = driver_id, .abi_ver = abi};

	strcpy(dev.ibdev_name, name);
	strcpy(dev.modalias, modalias);
	return dev;
}

#define MLX5_CX6 "pci:v000015B3d0000101Bsv000015B3sd00000008bc02sc00i00"
#define MLX5_CX5 "pci:v000015B3d00001017sv000015B3sd00000008bc02sc00i00"

static void test_pci_and_modalias(void **state)
{
	struct verbs_sysfs_dev dev = make_dev("mlx5_0", MLX5_CX6, 0, 1);

	assert_true(verbs_match_provider(&pci_ops, &dev, false));
	assert_string_equal(dev.match->driver_data, "cx6");
	/* The driver-id step alone does not look at PCI ids. */
	assert_false(verbs_match_provider(&pci_ops, &dev, true));
	assert_null(dev.match);

	dev = make_dev("mana_0", "vmbus:1234", 0, 1);
	assert_true(verbs_match_provider(&pci_ops, &dev, false));
	assert_string_equal(dev.match->driver_data, "hyperv");

	/* Another vendor, or no modalias at all. */
	dev = make_dev("x", "pci:v00008086d0000101Bsv0sd0", 0, 1);
	assert_false(verbs_match_provider(&pci_ops, &dev, false));
	dev = make_dev("x", "", 0, 1);
	assert_false(verbs_match_provider(&pci_ops, &dev, false));
}

static void test_driver_id(void **state)
{
	struct verbs_sysfs_dev dev =
		make_dev("mlx5_7", "", RDMA_DRIVER_MLX5, 1);

	assert_true(verbs_match_provider(&id_ops, &dev, true));
	assert_int_equal(dev.match->kind, VERBS_MATCH_DRIVER_ID);
	dev.driver_id = RDMA_DRIVER_RXE;
	assert_false(verbs_match_provider(&id_ops, &dev, false));
	/* Driver id 0 means "unknown", never a match. */
	dev.driver_id = 0;
	assert_false(verbs_match_provider(&id_ops, &dev, true));
}

static void test_name(void **state)
{
	struct verbs_sysfs_dev dev = make_dev("rxe_eth0", "", 0, 2);

	assert_true(verbs_match_provider(&name_ops, &dev, false));
	assert_string_equal(dev.match->driver_data, "soft");
	dev = make_dev("mlx5_0", "", 0, 2);
	assert_false(verbs_match_provider(&name_ops, &dev, false));
}

static void test_abi_range(void **state)
{
	struct verbs_sysfs_dev dev = make_dev("mlx5_0", MLX5_CX6, 0, 1);

	assert_true(verbs_match_provider(&pci_ops, &dev, false));
	dev.abi_ver = 0;
	assert_false(verbs_match_provider(&pci_ops, &dev, false));
	dev.abi_ver = 2;
	assert_false(verbs_match_provider(&pci_ops, &dev, false));
}

static void test_match_device_hook(void **state)
{
	struct verbs_sysfs_dev dev = make_dev("anything", "", 0, 5);

	hook_calls = 0;
	hook_answer = true;
	assert_true(verbs_match_provider(&hook_ops, &dev, false));
	hook_answer = false;
	assert_false(verbs_match_provider(&hook_ops, &dev, false));
	assert_int_equal(hook_calls, 2);
	/* The hook decides, but the ABI range still applies. */
	hook_answer = true;
	dev.abi_ver = 10;
	assert_false(verbs_match_provider(&hook_ops, &dev, false));
}

static void test_search_order(void **state)
{
	const struct verbs_device_ops *ops[] = {&pci_ops, &id_ops, &name_ops};
	struct verbs_sysfs_dev dev;

	/* PCI id known to both: registration order decides... */
	dev = make_dev("mlx5_0", MLX5_CX5, 0, 1);
	assert_ptr_equal(verbs_find_provider_in(ops, 3, &dev), &id_ops);
	dev = make_dev("mlx5_0", MLX5_CX6, 0, 1);
	assert_ptr_equal(verbs_find_provider_in(ops, 3, &dev), &pci_ops);
	/* ...unless netlink named the driver: that pass comes first. */
	dev = make_dev("mlx5_0", MLX5_CX6, RDMA_DRIVER_MLX5, 1);
	assert_ptr_equal(verbs_find_provider_in(ops, 3, &dev), &id_ops);
	dev = make_dev("rxe0", "", RDMA_DRIVER_RXE, 0);
	assert_ptr_equal(verbs_find_provider_in(ops, 3, &dev), &name_ops);
	dev = make_dev("efa_0", "pci:v00001D0Fd0000EFA0sv0", 0, 1);
	assert_null(verbs_find_provider_in(ops, 3, &dev));
	assert_null(dev.match);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pci_and_modalias),
		cmocka_unit_test(test_driver_id),
		cmocka_unit_test(test_name),
		cmocka_unit_test(test_abi_range),
		cmocka_unit_test(test_match_device_hook),
		cmocka_unit_test(test_search_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
