/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Finding the uverbs devices of the machine: RDMA netlink first, sysfs
 * when netlink is unavailable. The result is a list of heap-allocated
 * struct verbs_sysfs_dev the caller owns. Parsing is split from I/O so
 * tests can feed canned netlink messages and temporary sysfs trees.
 *
 * Discovery is incremental: each path first learns a device's identity
 * (netlink: index, name, char device; sysfs: the class entry's name and
 * inode, from readdir) and asks the caller's struct verbs_known whether
 * it already has that device. A known device's sysfs is not read; its
 * entry carries the identity only. Attribute files are read relative to
 * directory fds of the class directories.
 */
#ifndef RDMA_DM_DISCOVER_H
#define RDMA_DM_DISCOVER_H

#include <stdbool.h>
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

/* The caller's answer to "is this device already known?" (may be NULL). */
struct verbs_known {
	bool (*has)(const struct verbs_known *known,
		    const struct verbs_sysfs_dev *dev);
};

/* ----- the list (discover_list.c) ----- */

/* Append @dev (ownership moves to the list). 0 or ENOMEM. */
int verbs_sysfs_list_add(struct verbs_sysfs_list *list,
			 struct verbs_sysfs_dev *dev);
void verbs_sysfs_list_free(struct verbs_sysfs_list *list);
/* Free every entry @keep says no to, keeping the order; one pass. */
void verbs_sysfs_list_filter(struct verbs_sysfs_list *list,
			     bool (*keep)(struct verbs_sysfs_dev *, void *),
			     void *arg);

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
/*
 * Enumerate over NETLINK_RDMA; a new device's modalias and creation time
 * come from sysfs. 0, or an errno when netlink is unusable.
 */
int verbs_nl_discover(const char *sysfs_root, struct verbs_sysfs_list *list,
		      const struct verbs_known *known);

/* ----- sysfs ----- */

/* The global ABI under @sysfs_root: 0 if within range, else ENOSYS. */
int verbs_sysfs_check_abi(const char *sysfs_root);
/*
 * Scan <root>/class/infiniband_verbs; new devices get every attribute.
 * 0 or an errno (ENOMEM, ENOENT...).
 */
int verbs_sysfs_scan(const char *sysfs_root, struct verbs_sysfs_list *list,
		     const struct verbs_known *known);
/*
 * Read the uverbs char device attributes (ibdev, dev, abi_version) from
 * <root>/class/infiniband_verbs/<@uverbs_name> into @dev. 0 or EINVAL.
 */
int verbs_sysfs_read_uverbs(const char *sysfs_root, const char *uverbs_name,
			    struct verbs_sysfs_dev *dev);
/*
 * node_type (unless from netlink), node_guid (unless known), modalias and
 * creation time of @dev, relative to @class_fd (<root>/class/infiniband).
 */
void verbs_sysfs_read_ibdev(int class_fd, struct verbs_sysfs_dev *dev);

/* ----- the whole pipeline ----- */

/* Drop every device whose <@cdev_dir>/<sysfs_name> does not exist. */
void verbs_filter_missing_cdev(struct verbs_sysfs_list *list,
			       const char *cdev_dir);
/* Netlink or sysfs, then the char device filter. 0 or an errno. */
int verbs_discover_devices(struct verbs_sysfs_list *list,
			   const struct verbs_known *known);

#endif /* RDMA_DM_DISCOVER_H */
