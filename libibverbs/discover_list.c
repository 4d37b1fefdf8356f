// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The list the discovery paths fill: struct verbs_sysfs_list. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "discover.h"

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

void verbs_sysfs_list_free(struct verbs_sysfs_list *list)
{
	size_t i;

	for (i = 0; i < list->num; i++)
		free(list->devs[i]);
	free(list->devs);
	memset(list, 0, sizeof(*list));
}

void verbs_sysfs_list_filter(struct verbs_sysfs_list *list,
			     bool (*keep)(struct verbs_sysfs_dev *, void *),
			     void *arg)
{
	size_t i, kept = 0;

	for (i = 0; i < list->num; i++) {
		if (keep(list->devs[i], arg))
			list->devs[kept++] = list->devs[i];
		else
			free(list->devs[i]);
	}
	list->num = kept;
}
