// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Device discovery through sysfs (the fallback when netlink fails). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

static int open_dir(const char *sysfs_root, const char *class)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", sysfs_root, class) >=
	    (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/* ibdev, abi_version and dev of <class_fd>/<uverbs_name>; the paths. */
static int read_uverbs_at(const char *sysfs_root, int class_fd,
			  const char *uverbs_name, struct verbs_sysfs_dev *dev)
{
	char text[IBV_SYSFS_NAME_MAX + 1];

	if (!fits(uverbs_name, sizeof(dev->sysfs_name)))
		return EINVAL;
	/* Without a name or an ABI the device cannot be matched. */
	if (verbs_read_sysfs_at(class_fd, uverbs_name, "ibdev", text,
				sizeof(text)) <= 0 ||
	    !fits(text, sizeof(dev->ibdev_name)) || strchr(text, '/'))
		return EINVAL;
	strcpy(dev->ibdev_name, text);
	if (verbs_read_sysfs_at(class_fd, uverbs_name, "abi_version", text,
				sizeof(text)) < 0 ||
	    verbs_parse_int(text, &dev->abi_ver))
		return EINVAL;
	/* An unreadable dev only disables the st_rdev check at open. */
	if (verbs_read_sysfs_at(class_fd, uverbs_name, "dev", text,
				sizeof(text)) < 0 ||
	    verbs_parse_devnum(text, &dev->sysfs_cdev))
		dev->sysfs_cdev = 0;

	strcpy(dev->sysfs_name, uverbs_name);
	if (snprintf(dev->sysfs_path, sizeof(dev->sysfs_path),
		     "%s/" UVERBS_CLASS "/%s", sysfs_root,
		     uverbs_name) >= (int)sizeof(dev->sysfs_path) ||
	    snprintf(dev->ibdev_path, sizeof(dev->ibdev_path),
		     "%s/" IBDEV_CLASS "/%s", sysfs_root,
		     dev->ibdev_name) >= (int)sizeof(dev->ibdev_path))
		return EINVAL;
	return 0;
}

int verbs_sysfs_read_uverbs(const char *sysfs_root, const char *uverbs_name,
			    struct verbs_sysfs_dev *dev)
{
	int class_fd = open_dir(sysfs_root, UVERBS_CLASS), ret;

	if (class_fd < 0)
		return EINVAL;
	ret = read_uverbs_at(sysfs_root, class_fd, uverbs_name, dev);
	close(class_fd);
	return ret;
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

void verbs_sysfs_read_ibdev(int class_fd, struct verbs_sysfs_dev *dev)
{
	const char *name = dev->ibdev_name;
	char text[64];
	struct stat st;

	if (!dev->from_netlink) {
		dev->node_type = IBV_NODE_UNKNOWN;
		if (verbs_read_sysfs_at(class_fd, name, "node_type", text,
					sizeof(text)) > 0)
			dev->node_type = parse_node_type(text);
	}
	if (!dev->have_node_guid &&
	    verbs_read_sysfs_at(class_fd, name, "node_guid", text,
				sizeof(text)) > 0 &&
	    !verbs_parse_guid(text, &dev->node_guid))
		dev->have_node_guid = true;
	if (verbs_read_sysfs_at(class_fd, name, "device/modalias",
				dev->modalias, sizeof(dev->modalias)) < 0)
		dev->modalias[0] = '\0';
	/* Tells a re-created device of the same name from the old one. */
	if (!fstatat(class_fd, name, &st, 0))
		dev->time_created = st.st_mtim;
}

/*
 * A class entry that may be a device: sysfs lists them as symlinks to
 * the device directories. A symlink that is not one fails its reads.
 */
static bool may_be_device(int class_fd, const struct dirent *ent)
{
	struct stat st;

	if (ent->d_name[0] == '.')
		return false;
	if (ent->d_type == DT_DIR || ent->d_type == DT_LNK)
		return true;
	return ent->d_type == DT_UNKNOWN &&
	       !fstatat(class_fd, ent->d_name, &st, 0) && S_ISDIR(st.st_mode);
}

struct scan {
	const char *root;
	const struct verbs_known *known;
	int uverbs_fd, ibdev_fd;
};

/* Identity from readdir; the attributes only for a device not known. */
static struct verbs_sysfs_dev *scan_one(struct scan *s,
					const struct dirent *ent)
{
	struct verbs_sysfs_dev *dev = verbs_sysfs_dev_new();

	if (!dev)
		return NULL;
	dev->sysfs_ino = ent->d_ino;
	if (fits(ent->d_name, sizeof(dev->sysfs_name))) {
		strcpy(dev->sysfs_name, ent->d_name);
		if (s->known && s->known->has(s->known, dev))
			return dev;
		dev->sysfs_name[0] = '\0';
	}
	if (read_uverbs_at(s->root, s->uverbs_fd, ent->d_name, dev)) {
		verbs_lib_warn("ignoring %s/" UVERBS_CLASS
			       "/%s: unreadable attributes\n",
			       s->root, ent->d_name);
		dev->sysfs_name[0] = '\0';
		return dev;
	}
	if (s->ibdev_fd < 0)
		s->ibdev_fd = open_dir(s->root, IBDEV_CLASS);
	verbs_sysfs_read_ibdev(s->ibdev_fd, dev);
	return dev;
}

int verbs_sysfs_scan(const char *sysfs_root, struct verbs_sysfs_list *list,
		     const struct verbs_known *known)
{
	struct scan s = {.root = sysfs_root, .known = known, .ibdev_fd = -1};
	struct verbs_sysfs_dev *dev;
	struct dirent *ent;
	int ret = 0;
	DIR *dir;

	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/" UVERBS_CLASS, sysfs_root);
	dir = opendir(path);
	if (!dir)
		return errno;
	s.uverbs_fd = dirfd(dir);
	while ((ent = readdir(dir))) {
		if (!may_be_device(s.uverbs_fd, ent))
			continue;
		dev = scan_one(&s, ent);
		if (!dev) {
			ret = ENOMEM;
			break;
		}
		if (!dev->sysfs_name[0]) {
			free(dev);
			continue;
		}
		ret = verbs_sysfs_list_add(list, dev);
		if (ret) {
			free(dev);
			break;
		}
	}
	closedir(dir);
	if (s.ibdev_fd >= 0)
		close(s.ibdev_fd);
	return ret;
}
