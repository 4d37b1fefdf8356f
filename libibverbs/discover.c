// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The discovery pipeline: netlink, else sysfs, then the char devices. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <config.h>

#include "discover.h"
#include "log.h"
#include "sysfs.h"

/*
 * Names present in the char-device directory, from one listing: a few
 * getdents calls instead of a stat per device. Open addressing over
 * FNV-1a; the strings live in one growing pool.
 */
struct name_set {
	char *pool;
	size_t pool_len, pool_cap;
	size_t *slots; /* pool offset + 1; 0 = empty */
	size_t mask;
};

static size_t name_hash(const char *name)
{
	size_t h = 2166136261u;

	while (*name)
		h = (h ^ (unsigned char)*name++) * 16777619u;
	return h;
}

static bool set_has(const struct name_set *set, const char *name)
{
	size_t i;

	for (i = name_hash(name) & set->mask; set->slots[i];
	     i = (i + 1) & set->mask)
		if (!strcmp(set->pool + set->slots[i] - 1, name))
			return true;
	return false;
}

static int set_add(struct name_set *set, const char *name)
{
	size_t len = strlen(name) + 1, i;
	char *pool;

	if (set->pool_len + len > set->pool_cap) {
		size_t cap = 2 * (set->pool_cap + len);

		pool = realloc(set->pool, cap);
		if (!pool)
			return ENOMEM;
		set->pool = pool;
		set->pool_cap = cap;
	}
	memcpy(set->pool + set->pool_len, name, len);
	for (i = name_hash(name) & set->mask; set->slots[i];
	     i = (i + 1) & set->mask)
		;
	set->slots[i] = set->pool_len + 1;
	set->pool_len += len;
	return 0;
}

/* Every name of @dir, at most @max of them (a table sized for the list). */
static int list_dir(const char *dir_path, size_t max, struct name_set *set)
{
	size_t size = 16, count = 0;
	struct dirent *ent;
	int ret = 0;
	DIR *dir;

	while (size < 2 * max)
		size *= 2;
	set->mask = size - 1;
	set->slots = calloc(size, sizeof(*set->slots));
	if (!set->slots)
		return ENOMEM;
	dir = opendir(dir_path);
	if (!dir)
		return errno;
	while (!ret && (ent = readdir(dir))) {
		if (ent->d_name[0] == '.')
			continue;
		if (++count > max) {
			ret = E2BIG; /* more than devices: stat instead */
			break;
		}
		ret = set_add(set, ent->d_name);
	}
	closedir(dir);
	return ret;
}

struct cdev_filter {
	int dir_fd;	       /* stat relative to it, or... */
	struct name_set names; /* ...look the name up in the listing */
	bool listed;
};

static bool has_cdev(struct verbs_sysfs_dev *dev, void *arg)
{
	struct cdev_filter *f = arg;
	struct stat st;

	if (f->listed ? set_has(&f->names, dev->sysfs_name)
		      : f->dir_fd >= 0 &&
				!fstatat(f->dir_fd, dev->sysfs_name, &st, 0))
		return true;
	verbs_lib_debug("%s: no char device %s, skipped\n", dev->ibdev_name,
			dev->sysfs_name);
	return false;
}

/*
 * A few devices: a stat each. Many: one listing of the directory, as
 * long as it holds no more than four names per device (uverbs, umad,
 * issm and a spare); a larger one is stat'ed after all.
 */
#define CDEV_LIST_MIN 8

void verbs_filter_missing_cdev(struct verbs_sysfs_list *list,
			       const char *cdev_dir)
{
	struct cdev_filter f = {.dir_fd = -1};

	if (!list->num)
		return;
	if (list->num >= CDEV_LIST_MIN)
		f.listed = !list_dir(cdev_dir, 4 * list->num, &f.names);
	if (!f.listed)
		f.dir_fd = open(cdev_dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	verbs_sysfs_list_filter(list, has_cdev, &f);
	if (f.dir_fd >= 0)
		close(f.dir_fd);
	free(f.names.slots);
	free(f.names.pool);
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
