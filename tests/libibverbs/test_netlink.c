// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Parsing RDMA netlink replies from canned messages: complete records,
 * each required attribute missing, wrong attribute sizes, unterminated
 * strings, the huge_encode_dev() char device and the optional driver id.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include <cmocka.h>
#include <netlink/msg.h>
#include <rdma/rdma_netlink.h>

#include "discover.h"

/* Which attributes a canned message carries, and in which shape. */
enum shape { ABSENT, NORMAL, SHORT, UNTERMINATED };

struct device_msg {
	enum shape index, name, ports, guid, type;
};

static void put(struct nl_msg *msg, int type, enum shape shape,
		const void *data, int len)
{
	if (shape == ABSENT)
		return;
	if (shape == SHORT)
		len /= 2;
	if (shape == UNTERMINATED)
		len--;
	assert_int_equal(nla_put(msg, type, len, data), 0);
}

static struct nl_msg *device_msg(const struct device_msg *m)
{
	struct nl_msg *msg = nlmsg_alloc_simple(
		RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET), 0);
	uint32_t index = 3, ports = 2;
	uint64_t guid = 0x0c42a10300b3d0e0ULL;
	uint8_t type = 1;

	put(msg, RDMA_NLDEV_ATTR_DEV_INDEX, m->index, &index, 4);
	put(msg, RDMA_NLDEV_ATTR_DEV_NAME, m->name, "mlx5_3", 7);
	put(msg, RDMA_NLDEV_ATTR_PORT_INDEX, m->ports, &ports, 4);
	put(msg, RDMA_NLDEV_ATTR_NODE_GUID, m->guid, &guid, 8);
	put(msg, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, m->type, &type, 1);
	return msg;
}

static int parse_device(const struct device_msg *m, struct verbs_sysfs_dev *dev)
{
	struct nl_msg *msg = device_msg(m);
	int ret = verbs_nl_parse_device(nlmsg_hdr(msg), dev);

	nlmsg_free(msg);
	return ret;
}

static void test_device_complete(void **state)
{
	struct device_msg m = {NORMAL, NORMAL, NORMAL, NORMAL, NORMAL};
	struct verbs_sysfs_dev dev = {};

	assert_int_equal(parse_device(&m, &dev), 0);
	assert_int_equal(dev.ibdev_idx, 3);
	assert_string_equal(dev.ibdev_name, "mlx5_3");
	assert_int_equal(dev.num_ports, 2);
	assert_int_equal(dev.node_guid, 0x0c42a10300b3d0e0ULL);
	assert_true(dev.have_node_guid);
	assert_int_equal(dev.node_type, IBV_NODE_CA);
	assert_true(dev.from_netlink);
}

static void test_device_bad_records(void **state)
{
	static const struct device_msg bad[] = {
		{ABSENT, NORMAL, NORMAL, NORMAL, NORMAL},
		{NORMAL, ABSENT, NORMAL, NORMAL, NORMAL},
		{NORMAL, NORMAL, ABSENT, NORMAL, NORMAL},
		{NORMAL, NORMAL, NORMAL, ABSENT, NORMAL},
		{NORMAL, NORMAL, NORMAL, NORMAL, ABSENT},
		{SHORT, NORMAL, NORMAL, NORMAL, NORMAL},
		{NORMAL, NORMAL, SHORT, NORMAL, NORMAL},
		{NORMAL, NORMAL, NORMAL, SHORT, NORMAL},
		{NORMAL, UNTERMINATED, NORMAL, NORMAL, NORMAL},
	};
	struct verbs_sysfs_dev dev;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&dev, 0, sizeof(dev));
		assert_int_equal(parse_device(&bad[i], &dev), EINVAL);
	}
}

static void test_device_oversized_attr(void **state)
{
	struct nl_msg *msg = nlmsg_alloc_simple(
		RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET), 0);
	uint64_t eight = 1, guid = 2;
	uint8_t type = 1;
	struct verbs_sysfs_dev dev = {};

	/* A u32 attribute sent as 8 bytes is a different ABI: refuse. */
	nla_put(msg, RDMA_NLDEV_ATTR_DEV_INDEX, 8, &eight);
	nla_put_string(msg, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
	nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	nla_put(msg, RDMA_NLDEV_ATTR_NODE_GUID, 8, &guid);
	nla_put(msg, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, 1, &type);
	assert_int_equal(verbs_nl_parse_device(nlmsg_hdr(msg), &dev), EINVAL);
	nlmsg_free(msg);
}

/* The kernel's huge_encode_dev() for a given major/minor. */
static uint64_t huge_encode(unsigned int maj, unsigned int min)
{
	return (min & 0xff) | ((uint64_t)maj << 8) |
	       ((uint64_t)(min & ~0xffu) << 12);
}

static struct nl_msg *chardev_msg(bool with_abi, int driver_id_len)
{
	struct nl_msg *msg = nlmsg_alloc_simple(
		RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET_CHARDEV), 0);
	uint64_t drv64 = 1;
	uint32_t drv32 = 1;

	nla_put_u64(msg, RDMA_NLDEV_ATTR_CHARDEV, huge_encode(231, 300));
	if (with_abi)
		nla_put_u64(msg, RDMA_NLDEV_ATTR_CHARDEV_ABI,
			    0xffffffff00000001ULL);
	nla_put_string(msg, RDMA_NLDEV_ATTR_CHARDEV_NAME, "uverbs3");
	if (driver_id_len == 4)
		nla_put(msg, RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID, 4, &drv32);
	if (driver_id_len == 8)
		nla_put(msg, RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID, 8, &drv64);
	return msg;
}

static void test_chardev(void **state)
{
	struct verbs_sysfs_dev dev;
	struct nl_msg *msg;
	int len;

	for (len = 0; len <= 8; len += 4) {
		memset(&dev, 0, sizeof(dev));
		msg = chardev_msg(true, len);
		assert_int_equal(verbs_nl_parse_chardev(nlmsg_hdr(msg), &dev),
				 0);
		nlmsg_free(msg);
		assert_string_equal(dev.sysfs_name, "uverbs3");
		assert_int_equal(dev.sysfs_cdev, makedev(231, 300));
		/* The reserved upper half of the ABI attribute is ignored. */
		assert_int_equal(dev.abi_ver, 1);
		assert_int_equal(dev.driver_id, len ? RDMA_DRIVER_MLX5 : 0);
	}

	msg = chardev_msg(false, 0);
	assert_int_equal(verbs_nl_parse_chardev(nlmsg_hdr(msg), &dev), EINVAL);
	nlmsg_free(msg);
}

static void test_decode_dev(void **state)
{
	assert_int_equal(verbs_nl_decode_dev(huge_encode(231, 192)),
			 makedev(231, 192));
	assert_int_equal(verbs_nl_decode_dev(huge_encode(4095, 0xfffff)),
			 makedev(4095, 0xfffff));
	assert_int_equal(verbs_nl_decode_dev(0), makedev(0, 0));
}

static void test_truncated_message(void **state)
{
	struct nlmsghdr hdr = {.nlmsg_len = 4};
	struct verbs_sysfs_dev dev = {};

	assert_int_equal(verbs_nl_parse_device(&hdr, &dev), EINVAL);
	assert_int_equal(verbs_nl_parse_chardev(&hdr, &dev), EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_device_complete),
		cmocka_unit_test(test_device_bad_records),
		cmocka_unit_test(test_device_oversized_attr),
		cmocka_unit_test(test_chardev),
		cmocka_unit_test(test_decode_dev),
		cmocka_unit_test(test_truncated_message),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
