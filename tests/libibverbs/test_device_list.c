// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The process-wide device list: new devices are matched and allocated
 * once, known ones are reused, vanished or re-created ones are dropped,
 * and a device is freed only when the last list or context lets go.
 */
#include <endian.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "device.h"

static int allocs, frees;

static struct verbs_device *count_alloc(struct verbs_sysfs_dev *sdev)
{
	allocs++;
	return calloc(1, sizeof(struct verbs_device));
}

static void count_uninit(struct verbs_device *vdev)
{
	frees++;
	free(vdev);
}

static const struct verbs_match_ent table[] = {
	VERBS_NAME_MATCH("dev", NULL),
	VERBS_MATCH_END,
};

static const struct verbs_device_ops ops = {
	.name = "counting",
	.match_min_abi_version = 1,
	.match_max_abi_version = 1,
	.match_table = table,
	.alloc_device = count_alloc,
	.uninit_device = count_uninit,
};

static struct verbs_sysfs_dev *make(const char *name, long created)
{
	struct verbs_sysfs_dev *dev = verbs_sysfs_dev_new();

	strcpy(dev->ibdev_name, name);
	snprintf(dev->sysfs_name, sizeof(dev->sysfs_name), "uverbs_%s", name);
	strcpy(dev->sysfs_path, "/sys/class/infiniband_verbs/x");
	dev->abi_ver = 1;
	dev->node_type = IBV_NODE_CA;
	dev->node_guid = 0x1122334455667788ULL;
	dev->have_node_guid = true;
	dev->time_created.tv_sec = created;
	dev->sysfs_ino = (uint64_t)created; /* re-created: a new inode */
	return dev;
}

/* One discovery round with the named devices, all created at @created. */
static struct ibv_device **round_of(const char *const *names, size_t num,
				    long created, int *count)
{
	struct verbs_sysfs_list found = {};
	size_t i;

	for (i = 0; i < num; i++)
		assert_int_equal(
			verbs_sysfs_list_add(&found, make(names[i], created)),
			0);
	return verbs_update_device_list(&found, count);
}

static void test_lifecycle(void **state)
{
	static const char *const ab[] = {"dev_a", "dev_b"};
	struct ibv_device **first, **second, **third, *a;
	int num;

	verbs_register_driver(&ops);
	first = round_of(ab, 1, 100, &num);
	assert_int_equal(num, 1);
	a = first[0];
	assert_null(first[1]);
	assert_string_equal(ibv_get_device_name(a), "dev_a");
	assert_string_equal(a->dev_name, "uverbs_dev_a");
	assert_int_equal(a->transport_type, IBV_TRANSPORT_IB);
	assert_int_equal(ibv_get_device_guid(a),
			 htobe64(0x1122334455667788ULL));
	assert_int_equal(ibv_get_device_index(a), -1);
	assert_ptr_equal(verbs_get_device(a)->ops, &ops);
	assert_int_equal(allocs, 1);

	/* dev_a again plus dev_b: dev_a is the same object, in order. */
	second = round_of(ab, 2, 100, &num);
	assert_int_equal(num, 2);
	assert_ptr_equal(second[0], a);
	assert_string_equal(ibv_get_device_name(second[1]), "dev_b");
	assert_int_equal(allocs, 2);

	/* A context holds dev_a; then dev_a disappears from the system. */
	verbs_device_get(verbs_get_device(a));
	third = round_of(ab + 1, 1, 100, &num);
	assert_int_equal(num, 1);
	assert_string_equal(ibv_get_device_name(third[0]), "dev_b");
	ibv_free_device_list(first);
	ibv_free_device_list(second);
	assert_int_equal(frees, 0);
	/* Still readable: the context's reference keeps it. */
	assert_string_equal(ibv_get_device_name(a), "dev_a");
	verbs_device_put(verbs_get_device(a));
	assert_int_equal(frees, 1);

	/* dev_b re-created (newer time stamp): a new object. */
	first = round_of(ab + 1, 1, 200, &num);
	assert_ptr_not_equal(first[0], third[0]);
	assert_int_equal(allocs, 3);
	ibv_free_device_list(third);
	assert_int_equal(frees, 2);
	ibv_free_device_list(first);

	/* Nothing left on the system: everything goes. */
	first = round_of(NULL, 0, 0, &num);
	assert_int_equal(num, 0);
	assert_null(first[0]);
	ibv_free_device_list(first);
	assert_int_equal(frees, 3);
	ibv_free_device_list(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lifecycle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
