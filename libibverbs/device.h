/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The process-wide list of devices and their reference counts. */
#ifndef RDMA_DM_DEVICE_H
#define RDMA_DM_DEVICE_H

#include <sys/types.h>

#include "discover.h"

/* A device stays allocated while a list or a context refers to it. */
void verbs_device_get(struct verbs_device *vdev);
void verbs_device_put(struct verbs_device *vdev);

/*
 * Merge freshly discovered devices into the global list: vanished ones
 * are unlinked, new ones matched (loading plug-ins once if needed) and
 * allocated. Consumes every entry of @found. Returns a NULL-terminated
 * array holding one reference per device, or NULL with errno.
 */
struct ibv_device **verbs_update_device_list(struct verbs_sysfs_list *found,
					     int *num);

/*
 * Open @path read-write, close-on-exec; it must be a character device
 * and, when @cdev is not 0, that very one (else ENODEV). A missing or
 * wrong node waits up to 5 s for udev's /dev/char/<maj>:<min>.
 * Returns the fd, or -1 with errno.
 */
int verbs_open_cdev(const char *path, dev_t cdev);

#endif /* RDMA_DM_DEVICE_H */
