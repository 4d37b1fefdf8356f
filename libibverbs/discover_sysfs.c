// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Device discovery through sysfs (the fallback when netlink fails). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "discover.h"
#include "log.h"
#include "sysfs.h"

#define UVERBS_CLASS "class/infiniband_verbs"
#define IBDEV_CLASS  "class/infiniband"

int verbs_sysfs_check_abi(const char *sysfs_root)
{
	char path[PATH_MAX], text[16];
	int abi;

	snprintf(path, sizeof(path), "%s/" UVERBS_CLASS, sysfs_root);
	if (ibv_read_sysfs_file(path, "abi_version", text, sizeof(text)) < 0 ||
	    verbs_parse_int(text, &abi)) {
		verbs_lib_warn("no uverbs ABI version under %s\n", path);
		return ENOSYS;
	}
	if (abi < VERBS_MIN_GLOBAL_ABI || abi > VERBS_MAX_GLOBAL_ABI) {
		verbs_lib_warn("kernel uverbs ABI %d is not in %d..%d\n", abi,
			       VERBS_MIN_GLOBAL_ABI, VERBS_MAX_GLOBAL_ABI);
		return ENOSYS;
	}
	return 0;
}

static bool fits(const char *text, size_t size)
{
	return strnlen(text, size) < size;
}

int verbs_sysfs_read_uverbs(const char *sysfs_root, const char *uverbs_name,
			    struct verbs_sysfs_dev *dev)
{
	char text[IBV_SYSFS_NAME_MAX + 1];
	char dir[PATH_MAX];

	if (!fits(uverbs_name, sizeof(dev->sysfs_name)))
		return EINVAL;
	snprintf(dir, sizeof(dir), "%s/" UVERBS_CLASS "/%s", sysfs_root,
		 uverbs_name);

	/* Without a name or an ABI the device cannot be matched. */
	if (ibv_read_sysfs_file(dir, "ibdev", text, sizeof(text)) <= 0 ||
	    !fits(text, sizeof(dev->ibdev_name)) || strchr(text, '/'))
		return EINVAL;
	strcpy(dev->ibdev_name, text);
	if (ibv_read_sysfs_file(dir, "abi_version", text, sizeof(text)) < 0 ||
	    verbs_parse_int(text, &dev->abi_ver))
		return EINVAL;
	/* An unreadable dev only disables the st_rdev check at open. */
	if (ibv_read_sysfs_file(dir, "dev", text, sizeof(text)) < 0 ||
	    verbs_parse_devnum(text, &dev->sysfs_cdev))
		dev->sysfs_cdev = 0;

	strcpy(dev->sysfs_name, uverbs_name);
	if (!fits(dir, sizeof(dev->sysfs_path)))
		return EINVAL;
	strcpy(dev->sysfs_path, dir);
	if (snprintf(dev->ibdev_path, sizeof(dev->ibdev_path),
		     "%s/" IBDEV_CLASS "/%s", sysfs_root,
		     dev->ibdev_name) >= (int)sizeof(dev->ibdev_path))
		return EINVAL;
	return 0;
}

static enum ibv_node_type parse_node_type(const char *text)
{
	int type;

	/* "1: CA" - only the number counts. */
	if (sscanf(text, "%d", &type) != 1 || type < IBV_NODE_CA ||
	    type > IBV_NODE_UNSPECIFIED)
		return IBV_NODE_UNKNOWN;
	return (enum ibv_node_type)type;
}

void verbs_sysfs_read_ibdev(struct verbs_sysfs_dev *dev)
{
	char text[64];
	struct stat st;

	if (!dev->from_netlink) {
		dev->node_type = IBV_NODE_UNKNOWN;
		if (ibv_read_sysfs_file(dev->ibdev_path, "node_type", text,
					sizeof(text)) > 0)
			dev->node_type = parse_node_type(text);
	}
	if (!dev->have_node_guid &&
	    ibv_read_sysfs_file(dev->ibdev_path, "node_guid", text,
				sizeof(text)) > 0 &&
	    !verbs_parse_guid(text, &dev->node_guid))
		dev->have_node_guid = true;
	if (ibv_read_sysfs_file(dev->ibdev_path, "device/modalias",
				dev->modalias, sizeof(dev->modalias)) < 0)
		dev->modalias[0] = '\0';
	/* Tells a re-created device of the same name from the old one. */
	if (!stat(dev->ibdev_path, &st))
		dev->time_created = st.st_mtim;
}

static bool is_directory(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	return verbs_path_join(path, sizeof(path), dir, name) &&
	       !stat(path, &st) && S_ISDIR(st.st_mode);
}

int verbs_sysfs_scan(const char *sysfs_root, struct verbs_sysfs_list *list)
{
	struct verbs_sysfs_dev *dev;
	char class_dir[PATH_MAX];
	struct dirent *ent;
	int ret = 0;
	DIR *dir;

	snprintf(class_dir, sizeof(class_dir), "%s/" UVERBS_CLASS, sysfs_root);
	dir = opendir(class_dir);
	if (!dir)
		return errno;

	while ((ent = readdir(dir))) {
		if (ent->d_name[0] == '.' ||
		    !is_directory(class_dir, ent->d_name))
			continue;
		dev = verbs_sysfs_dev_new();
		if (!dev) {
			ret = ENOMEM;
			break;
		}
		if (verbs_sysfs_read_uverbs(sysfs_root, ent->d_name, dev)) {
			verbs_lib_warn(
				"ignoring %s/%s: unreadable attributes\n",
				class_dir, ent->d_name);
			free(dev);
			continue;
		}
		verbs_sysfs_read_ibdev(dev);
		ret = verbs_sysfs_list_add(list, dev);
		if (ret) {
			free(dev);
			break;
		}
	}
	closedir(dir);
	return ret;
}
