/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Finding the uverbs devices of the machine: RDMA netlink first, sysfs
 * when netlink is unavailable. The result is a list of heap-allocated
 * struct verbs_sysfs_dev the caller owns. Parsing is split from I/O so
 * tests can feed canned netlink messages and temporary sysfs trees.
 */
#ifndef RDMA_DM_DISCOVER_H
#define RDMA_DM_DISCOVER_H

#include <stddef.h>

#include "driver.h"

struct nlmsghdr;

/* The accepted range of the global uverbs ABI (class abi_version). */
#define VERBS_MIN_GLOBAL_ABI 3
#define VERBS_MAX_GLOBAL_ABI 6

/* ibdev_idx of a device found through sysfs only. */
#define VERBS_IBDEV_IDX_UNKNOWN UINT32_MAX

struct verbs_sysfs_list {
	struct verbs_sysfs_dev **devs;
	size_t num;
	size_t cap;
};

/* Append @dev (ownership moves to the list). 0 or ENOMEM. */
int verbs_sysfs_list_add(struct verbs_sysfs_list *list,
			 struct verbs_sysfs_dev *dev);
/* Remove entry @i, freeing it, keeping the order of the others. */
void verbs_sysfs_list_drop(struct verbs_sysfs_list *list, size_t i);
void verbs_sysfs_list_free(struct verbs_sysfs_list *list);

/* A zeroed device with the "unknown" markers set. NULL on ENOMEM. */
struct verbs_sysfs_dev *verbs_sysfs_dev_new(void);

/* ----- netlink ----- */

/*
 * Fill @dev from one RDMA_NLDEV_CMD_GET reply. Requires DEV_INDEX,
 * DEV_NAME, PORT_INDEX, NODE_GUID and DEV_NODE_TYPE. 0 or EINVAL.
 */
int verbs_nl_parse_device(struct nlmsghdr *nlh, struct verbs_sysfs_dev *dev);
/*
 * Fill the char device of @dev from one RDMA_NLDEV_CMD_GET_CHARDEV reply.
 * Requires CHARDEV, CHARDEV_ABI and CHARDEV_NAME; UVERBS_DRIVER_ID is
 * optional. 0 or EINVAL.
 */
int verbs_nl_parse_chardev(struct nlmsghdr *nlh, struct verbs_sysfs_dev *dev);
/* The kernel's huge_encode_dev() format back to a dev_t. */
dev_t verbs_nl_decode_dev(uint64_t encoded);
/* Enumerate over NETLINK_RDMA. 0, or an errno when netlink is unusable. */
int verbs_nl_discover(const char *sysfs_root, struct verbs_sysfs_list *list);

/* ----- sysfs ----- */

/* The global ABI under @sysfs_root: 0 if within range, else ENOSYS. */
int verbs_sysfs_check_abi(const char *sysfs_root);
/* Scan <root>/class/infiniband_verbs. 0 or an errno (ENOMEM, ENOENT...). */
int verbs_sysfs_scan(const char *sysfs_root, struct verbs_sysfs_list *list);
/*
 * Read the uverbs char device attributes (ibdev, dev, abi_version) from
 * <root>/class/infiniband_verbs/<@uverbs_name> into @dev. 0 or EINVAL.
 */
int verbs_sysfs_read_uverbs(const char *sysfs_root, const char *uverbs_name,
			    struct verbs_sysfs_dev *dev);
/* node_type, node_guid (unless known), modalias, creation time. */
void verbs_sysfs_read_ibdev(struct verbs_sysfs_dev *dev);

/* ----- the whole pipeline ----- */

/* Drop every device whose <@cdev_dir>/<sysfs_name> does not exist. */
void verbs_filter_missing_cdev(struct verbs_sysfs_list *list,
			       const char *cdev_dir);
/* Netlink or sysfs, then the char device filter. 0 or an errno. */
int verbs_discover_devices(struct verbs_sysfs_list *list);

#endif /* RDMA_DM_DISCOVER_H */
