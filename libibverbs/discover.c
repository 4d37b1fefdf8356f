// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The discovery pipeline and the list of discovered devices. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <config.h>

#include "discover.h"
#include "log.h"
#include "sysfs.h"

struct verbs_sysfs_dev *verbs_sysfs_dev_new(void)
{
	struct verbs_sysfs_dev *dev = calloc(1, sizeof(*dev));

	if (!dev)
		return NULL;
	dev->ibdev_idx = VERBS_IBDEV_IDX_UNKNOWN;
	dev->node_type = IBV_NODE_UNKNOWN;
	return dev;
}

int verbs_sysfs_list_add(struct verbs_sysfs_list *list,
			 struct verbs_sysfs_dev *dev)
{
	if (list->num == list->cap) {
		size_t cap = list->cap ? list->cap * 2 : 8;
		void *devs = realloc(list->devs, cap * sizeof(*list->devs));

		if (!devs)
			return ENOMEM;
		list->devs = devs;
		list->cap = cap;
	}
	list->devs[list->num++] = dev;
	return 0;
}

void verbs_sysfs_list_drop(struct verbs_sysfs_list *list, size_t i)
{
	free(list->devs[i]);
	memmove(&list->devs[i], &list->devs[i + 1],
		(list->num - i - 1) * sizeof(*list->devs));
	list->num--;
}

void verbs_sysfs_list_free(struct verbs_sysfs_list *list)
{
	while (list->num)
		verbs_sysfs_list_drop(list, list->num - 1);
	free(list->devs);
	memset(list, 0, sizeof(*list));
}

void verbs_filter_missing_cdev(struct verbs_sysfs_list *list,
			       const char *cdev_dir)
{
	char path[PATH_MAX];
	struct stat st;
	size_t i = 0;

	while (i < list->num) {
		if (verbs_path_join(path, sizeof(path), cdev_dir,
				    list->devs[i]->sysfs_name) &&
		    !stat(path, &st)) {
			i++;
			continue;
		}
		verbs_lib_debug("%s: no %s, skipped\n",
				list->devs[i]->ibdev_name, path);
		verbs_sysfs_list_drop(list, i);
	}
}

int verbs_discover_devices(struct verbs_sysfs_list *list)
{
	const char *root = ibv_get_sysfs_path();
	int ret;

	ret = verbs_nl_discover(root, list);
	if (ret) {
		verbs_lib_debug("netlink discovery failed (%s), using sysfs\n",
				strerror(ret));
		verbs_sysfs_list_free(list);
		ret = verbs_sysfs_check_abi(root);
		if (!ret)
			ret = verbs_sysfs_scan(root, list);
		if (ret) {
			verbs_sysfs_list_free(list);
			return ret;
		}
	}
	verbs_filter_missing_cdev(list, RDMA_CDEV_DIR);
	return 0;
}
