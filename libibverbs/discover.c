// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The discovery pipeline: netlink, else sysfs, then the char devices. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <config.h>

#include "discover.h"
#include "log.h"
#include "sysfs.h"

static bool has_cdev(struct verbs_sysfs_dev *dev, void *arg)
{
	int dir_fd = *(int *)arg;
	struct stat st;

	if (dir_fd >= 0 && !fstatat(dir_fd, dev->sysfs_name, &st, 0))
		return true;
	verbs_lib_debug("%s: no char device %s, skipped\n", dev->ibdev_name,
			dev->sysfs_name);
	return false;
}

void verbs_filter_missing_cdev(struct verbs_sysfs_list *list,
			       const char *cdev_dir)
{
	int dir_fd;

	if (!list->num)
		return;
	dir_fd = open(cdev_dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	verbs_sysfs_list_filter(list, has_cdev, &dir_fd);
	if (dir_fd >= 0)
		close(dir_fd);
}

int verbs_discover_devices(struct verbs_sysfs_list *list,
			   const struct verbs_known *known)
{
	const char *root = ibv_get_sysfs_path();
	int ret;

	ret = verbs_nl_discover(root, list, known);
	if (ret) {
		verbs_lib_debug("netlink discovery failed (%s), using sysfs\n",
				strerror(ret));
		verbs_sysfs_list_free(list);
		ret = verbs_sysfs_check_abi(root);
		if (!ret)
			ret = verbs_sysfs_scan(root, list, known);
		if (ret) {
			verbs_sysfs_list_free(list);
			return ret;
		}
	}
	verbs_filter_missing_cdev(list, RDMA_CDEV_DIR);
	return 0;
}
