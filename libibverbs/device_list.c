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
#include "verbs_internal.h"

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

/*
 * The identity each discovery path gives a device before reading its
 * sysfs (see discover.h): netlink's index, name and char device, or the
 * sysfs class entry's name and inode. A re-created device differs in the
 * index (netlink) or the inode (sysfs).
 */
static bool same_device(const struct verbs_sysfs_dev *known,
			const struct verbs_sysfs_dev *found)
{
	if (known->from_netlink != found->from_netlink ||
	    strcmp(known->sysfs_name, found->sysfs_name))
		return false;
	if (!found->from_netlink)
		return known->sysfs_ino == found->sysfs_ino;
	return known->ibdev_idx == found->ibdev_idx &&
	       known->sysfs_cdev == found->sysfs_cdev &&
	       !strcmp(known->ibdev_name, found->ibdev_name);
}

/*
 * The devices known when a discovery starts, hashed by char device name
 * (open addressing), so matching N found devices against N known ones
 * is linear. Built and used with devices_lock held.
 */
struct known_slot {
	struct verbs_device *vdev;
	bool seen;
};

struct known_table {
	struct verbs_known known; /* the discovery's callback */
	struct known_slot *slots;
	size_t mask;
};

static size_t name_hash(const char *name)
{
	size_t h = 2166136261u; /* FNV-1a */

	while (*name)
		h = (h ^ (unsigned char)*name++) * 16777619u;
	return h;
}

/* The slot of a device equal to @dev (or of @vdev itself), or NULL. */
static struct known_slot *table_find(const struct known_table *t,
				     const struct verbs_sysfs_dev *dev,
				     const struct verbs_device *vdev)
{
	size_t i;

	if (!t->slots)
		return NULL;
	for (i = name_hash(dev->sysfs_name) & t->mask; t->slots[i].vdev;
	     i = (i + 1) & t->mask)
		if (vdev ? t->slots[i].vdev == vdev
			 : same_device(t->slots[i].vdev->sysfs, dev))
			return &t->slots[i];
	return NULL;
}

static bool table_has(const struct verbs_known *known,
		      const struct verbs_sysfs_dev *dev)
{
	return table_find((const struct known_table *)known, dev, NULL);
}

static int table_build(struct known_table *t)
{
	struct verbs_device *vdev;
	size_t count = 0, size = 16, i;

	t->known.has = table_has;
	for (vdev = devices; vdev; vdev = vdev->next)
		count++;
	while (size < 2 * count)
		size *= 2;
	t->mask = size - 1;
	t->slots = count ? calloc(size, sizeof(*t->slots)) : NULL;
	if (count && !t->slots)
		return ENOMEM;
	for (vdev = devices; vdev; vdev = vdev->next) {
		i = name_hash(vdev->sysfs->sysfs_name) & t->mask;
		while (t->slots[i].vdev)
			i = (i + 1) & t->mask;
		t->slots[i].vdev = vdev;
	}
	return 0;
}

/* Found devices already known are freed; their known entries marked. */
static void mark_known(struct known_table *t, struct verbs_sysfs_list *found)
{
	struct known_slot *slot;
	size_t i;

	for (i = 0; i < found->num; i++) {
		slot = table_find(t, found->devs[i], NULL);
		if (!slot)
			continue;
		slot->seen = true;
		free(found->devs[i]);
		found->devs[i] = NULL;
	}
}

/* Unlink the known devices that were not found again. */
static void forget_vanished(const struct known_table *t)
{
	struct verbs_device **link = &devices, *vdev;
	struct known_slot *slot;

	while ((vdev = *link)) {
		slot = table_find(t, vdev->sysfs, vdev);
		if (slot && slot->seen) {
			link = &vdev->next;
			continue;
		}
		*link = vdev->next;
		verbs_device_put(vdev);
	}
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

/* Called with devices_lock held; consumes @found. */
static struct ibv_device **
update_locked(struct known_table *t, struct verbs_sysfs_list *found, int *num)
{
	struct ibv_device **array;

	mark_known(t, found);
	forget_vanished(t);
	if (add_matched(found, false)) {
		verbs_load_drivers_once();
		add_matched(found, true);
	}
	array = snapshot(num);
	verbs_sysfs_list_free(found);
	if (!array)
		errno = ENOMEM;
	return array;
}

static void lock_devices(void)
{
	static pthread_once_t static_once = PTHREAD_ONCE_INIT;

	/* Providers linked in (static builds) match before any dlopen. */
	pthread_once(&static_once, verbs_register_static_providers);
	pthread_mutex_lock(&devices_lock);
}

struct ibv_device **verbs_update_device_list(struct verbs_sysfs_list *found,
					     int *num)
{
	struct known_table t = {};
	struct ibv_device **array = NULL;
	int ret;

	lock_devices();
	ret = table_build(&t);
	if (!ret)
		array = update_locked(&t, found, num);
	else
		verbs_sysfs_list_free(found);
	pthread_mutex_unlock(&devices_lock);
	free(t.slots);
	if (ret)
		errno = ret;
	return array;
}

/*
 * The lock is held across discovery, as upstream does, so the table of
 * known devices that spares their sysfs reads stays true.
 */
struct ibv_device **ibv_get_device_list(int *num)
{
	struct verbs_sysfs_list found = {};
	struct ibv_device **array = NULL;
	struct known_table t = {};
	int ret;

	if (num)
		*num = 0;
	lock_devices();
	ret = table_build(&t);
	if (!ret)
		ret = verbs_discover_devices(&found, &t.known);
	if (!ret)
		array = update_locked(&t, &found, num);
	pthread_mutex_unlock(&devices_lock);
	free(t.slots);
	if (ret)
		errno = ret;
	return array;
}

void ibv_free_device_list(struct ibv_device **list)
{
	struct ibv_device **dev;

	if (verbs_null_arg(list))
		return;
	for (dev = list; *dev; dev++)
		verbs_device_put(verbs_get_device(*dev));
	free(list);
}

const char *ibv_get_device_name(struct ibv_device *device)
{
	if (!device)
		return verbs_null_einval();
	return device->name;
}

__be64 ibv_get_device_guid(struct ibv_device *device)
{
	struct verbs_sysfs_dev *sysfs;

	if (verbs_null_arg(device))
		return 0;
	sysfs = verbs_get_device(device)->sysfs;
	return htobe64(sysfs->have_node_guid ? sysfs->node_guid : 0);
}

int ibv_get_device_index(struct ibv_device *device)
{
	struct verbs_sysfs_dev *sysfs;

	if (verbs_null_arg(device))
		return -1;
	sysfs = verbs_get_device(device)->sysfs;
	return sysfs->ibdev_idx == VERBS_IBDEV_IDX_UNKNOWN
		       ? -1
		       : (int)sysfs->ibdev_idx;
}
