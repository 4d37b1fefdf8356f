// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* ibv_get_device_list() and the lifetime of struct verbs_device. */
#include <endian.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "log.h"
#include "provider.h"

static pthread_mutex_t devices_lock = PTHREAD_MUTEX_INITIALIZER;
static struct verbs_device *devices;

void verbs_device_get(struct verbs_device *vdev)
{
	__atomic_add_fetch(&vdev->refcount, 1, __ATOMIC_RELAXED);
}

void verbs_device_put(struct verbs_device *vdev)
{
	struct verbs_sysfs_dev *sysfs = vdev->sysfs;

	if (__atomic_sub_fetch(&vdev->refcount, 1, __ATOMIC_ACQ_REL))
		return;
	if (vdev->ops->uninit_device)
		vdev->ops->uninit_device(vdev);
	free(sysfs);
}

static bool same_device(const struct verbs_sysfs_dev *a,
			const struct verbs_sysfs_dev *b)
{
	return !strcmp(a->ibdev_name, b->ibdev_name) &&
	       !strcmp(a->sysfs_name, b->sysfs_name) &&
	       a->ibdev_idx == b->ibdev_idx && a->sysfs_cdev == b->sysfs_cdev &&
	       a->time_created.tv_sec == b->time_created.tv_sec &&
	       a->time_created.tv_nsec == b->time_created.tv_nsec;
}

static bool listed_in(const struct verbs_sysfs_list *found,
		      const struct verbs_sysfs_dev *dev)
{
	size_t i;

	for (i = 0; i < found->num; i++)
		if (found->devs[i] && same_device(found->devs[i], dev))
			return true;
	return false;
}

/* Called with devices_lock held. */
static void forget_vanished(const struct verbs_sysfs_list *found)
{
	struct verbs_device **link = &devices, *vdev;

	while ((vdev = *link)) {
		if (listed_in(found, vdev->sysfs)) {
			link = &vdev->next;
			continue;
		}
		*link = vdev->next;
		verbs_device_put(vdev);
	}
}

static bool already_known(const struct verbs_sysfs_dev *dev)
{
	struct verbs_device *vdev;

	for (vdev = devices; vdev; vdev = vdev->next)
		if (same_device(vdev->sysfs, dev))
			return true;
	return false;
}

static enum ibv_transport_type transport_of(enum ibv_node_type type)
{
	switch (type) {
	case IBV_NODE_CA:
	case IBV_NODE_SWITCH:
	case IBV_NODE_ROUTER:
		return IBV_TRANSPORT_IB;
	case IBV_NODE_RNIC:
		return IBV_TRANSPORT_IWARP;
	case IBV_NODE_USNIC:
		return IBV_TRANSPORT_USNIC;
	case IBV_NODE_USNIC_UDP:
		return IBV_TRANSPORT_USNIC_UDP;
	case IBV_NODE_UNSPECIFIED:
		return IBV_TRANSPORT_UNSPECIFIED;
	default:
		return IBV_TRANSPORT_UNKNOWN;
	}
}

/* Takes @sysfs on success. Called with devices_lock held. */
static int add_device(const struct verbs_device_ops *ops,
		      struct verbs_sysfs_dev *sysfs)
{
	struct verbs_device *vdev;
	struct ibv_device *dev;

	vdev = ops->alloc_device(sysfs);
	if (!vdev)
		return errno ? errno : ENOMEM;
	vdev->ops = ops;
	vdev->sysfs = sysfs;
	vdev->refcount = 1; /* the list's reference */
	dev = &vdev->device;
	dev->node_type = sysfs->node_type;
	dev->transport_type = transport_of(sysfs->node_type);
	strcpy(dev->name, sysfs->ibdev_name);
	strcpy(dev->dev_name, sysfs->sysfs_name);
	strcpy(dev->dev_path, sysfs->sysfs_path);
	strcpy(dev->ibdev_path, sysfs->ibdev_path);
	vdev->next = devices;
	devices = vdev;
	return 0;
}

/* Match and add what is new; returns how many are left unmatched. */
static size_t add_matched(struct verbs_sysfs_list *found, bool last_try)
{
	const struct verbs_device_ops *ops;
	size_t i, unmatched = 0;

	for (i = 0; i < found->num; i++) {
		if (!found->devs[i])
			continue;
		ops = verbs_find_provider(found->devs[i]);
		if (!ops) {
			unmatched++;
			if (last_try)
				verbs_lib_warn("no userspace driver for %s\n",
					       found->devs[i]->ibdev_name);
			continue;
		}
		if (add_device(ops, found->devs[i])) {
			verbs_lib_warn("%s: provider %s failed to attach\n",
				       found->devs[i]->ibdev_name, ops->name);
			continue;
		}
		found->devs[i] = NULL;
	}
	return unmatched;
}

static struct ibv_device **snapshot(int *num)
{
	struct ibv_device **array;
	struct verbs_device *vdev;
	int count = 0, i = 0;

	for (vdev = devices; vdev; vdev = vdev->next)
		count++;
	array = calloc(count + 1, sizeof(*array));
	if (!array)
		return NULL;
	/* The list is newest first; hand devices out in discovery order. */
	for (vdev = devices; vdev; vdev = vdev->next) {
		verbs_device_get(vdev);
		array[count - 1 - i++] = &vdev->device;
	}
	if (num)
		*num = count;
	return array;
}

struct ibv_device **verbs_update_device_list(struct verbs_sysfs_list *found,
					     int *num)
{
	struct ibv_device **array;
	size_t i;

	static pthread_once_t static_once = PTHREAD_ONCE_INIT;

	/* Providers linked in (static builds) match before any dlopen. */
	pthread_once(&static_once, verbs_register_static_providers);
	pthread_mutex_lock(&devices_lock);
	forget_vanished(found);
	for (i = 0; i < found->num; i++)
		if (already_known(found->devs[i])) {
			free(found->devs[i]);
			found->devs[i] = NULL;
		}
	if (add_matched(found, false)) {
		verbs_load_drivers_once();
		add_matched(found, true);
	}
	array = snapshot(num);
	pthread_mutex_unlock(&devices_lock);
	verbs_sysfs_list_free(found);
	if (!array)
		errno = ENOMEM;
	return array;
}

struct ibv_device **ibv_get_device_list(int *num)
{
	struct verbs_sysfs_list found = {};
	int ret;

	if (num)
		*num = 0;
	ret = verbs_discover_devices(&found);
	if (ret) {
		errno = ret;
		return NULL;
	}
	return verbs_update_device_list(&found, num);
}

void ibv_free_device_list(struct ibv_device **list)
{
	struct ibv_device **dev;

	if (!list)
		return;
	for (dev = list; *dev; dev++)
		verbs_device_put(verbs_get_device(*dev));
	free(list);
}

const char *ibv_get_device_name(struct ibv_device *device)
{
	return device->name;
}

__be64 ibv_get_device_guid(struct ibv_device *device)
{
	struct verbs_sysfs_dev *sysfs = verbs_get_device(device)->sysfs;

	return htobe64(sysfs->have_node_guid ? sysfs->node_guid : 0);
}

int ibv_get_device_index(struct ibv_device *device)
{
	struct verbs_sysfs_dev *sysfs = verbs_get_device(device)->sysfs;

	return sysfs->ibdev_idx == VERBS_IBDEV_IDX_UNKNOWN
		       ? -1
		       : (int)sysfs->ibdev_idx;
}
