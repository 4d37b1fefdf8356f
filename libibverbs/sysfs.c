// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* sysfs root, file reads and the parsers of sysfs attribute text. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "driver.h"
#include "sysfs.h"

static pthread_mutex_t sysfs_lock = PTHREAD_MUTEX_INITIALIZER;
static char sysfs_root[IBV_SYSFS_PATH_MAX];

static void sysfs_root_load(void)
{
	const char *env = NULL;
	size_t len;

	if (getuid() == geteuid())
		env = getenv("SYSFS_PATH");
	if (!env || !*env)
		env = "/sys";
	snprintf(sysfs_root, sizeof(sysfs_root), "%s", env);
	len = strlen(sysfs_root);
	/* "/" alone stays; "/tmp/x//" becomes "/tmp/x". */
	while (len > 1 && sysfs_root[len - 1] == '/')
		sysfs_root[--len] = '\0';
}

const char *ibv_get_sysfs_path(void)
{
	pthread_mutex_lock(&sysfs_lock);
	if (!sysfs_root[0])
		sysfs_root_load();
	pthread_mutex_unlock(&sysfs_lock);
	return sysfs_root;
}

void verbs_sysfs_path_reset(void)
{
	pthread_mutex_lock(&sysfs_lock);
	sysfs_root[0] = '\0';
	pthread_mutex_unlock(&sysfs_lock);
}

/* @dirfd is AT_FDCWD for an absolute @path. */
static int read_path(int dirfd, const char *path, char *buf, size_t size)
{
	ssize_t len;
	int fd;

	if (!size) {
		errno = EINVAL;
		return -1;
	}
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len < 0)
		return -1;
	buf[len] = '\0';
	if (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	return (int)len;
}

bool verbs_path_join(char *buf, size_t size, const char *dir, const char *name)
{
	int len = snprintf(buf, size, "%s/%s", dir, name);

	if (len < 0 || (size_t)len >= size) {
		errno = ENAMETOOLONG;
		return false;
	}
	return true;
}

int ibv_read_sysfs_file(const char *dir, const char *file, char *buf,
			size_t size)
{
	char path[PATH_MAX];

	if (!dir || !file || !buf) {
		errno = EINVAL;
		return -1;
	}
	if (!verbs_path_join(path, sizeof(path), dir, file))
		return -1;
	return read_path(AT_FDCWD, path, buf, size);
}

int verbs_read_sysfs_at(int dirfd, const char *dir, const char *file, char *buf,
			size_t size)
{
	char path[2 * NAME_MAX + 2];

	if (!verbs_path_join(path, sizeof(path), dir, file))
		return -1;
	return read_path(dirfd, path, buf, size);
}

int ibv_read_ibdev_sysfs_file(char *buf, size_t size,
			      struct verbs_sysfs_dev *sysfs_dev,
			      const char *fmt, ...)
{
	char file[PATH_MAX];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(file, sizeof(file), fmt, ap);
	va_end(ap);
	if (len < 0 || len >= (int)sizeof(file)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return ibv_read_sysfs_file(sysfs_dev->ibdev_path, file, buf, size);
}

int verbs_parse_int(const char *text, int *value)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || v < INT_MIN || v > INT_MAX)
		return EINVAL;
	if (*end == '\n')
		end++;
	if (*end)
		return EINVAL;
	*value = (int)v;
	return 0;
}

int verbs_parse_devnum(const char *text, dev_t *dev)
{
	unsigned int major_nr, minor_nr;
	int consumed = 0;

	if (sscanf(text, "%u:%u%n", &major_nr, &minor_nr, &consumed) != 2 ||
	    !isdigit((unsigned char)text[0]))
		return EINVAL;
	if (text[consumed] == '\n')
		consumed++;
	if (text[consumed])
		return EINVAL;
	*dev = makedev(major_nr, minor_nr);
	return 0;
}

/* @groups groups of four hex digits split by ':' into big-endian bytes. */
static int parse_hex_groups(const char *text, int groups, uint8_t *out)
{
	int group, i;
	unsigned int nibble;

	for (group = 0; group < groups; group++) {
		for (i = 0; i < 4; i++, text++) {
			if (!isxdigit((unsigned char)*text))
				return EINVAL;
			nibble = isdigit((unsigned char)*text)
					 ? (unsigned int)(*text - '0')
					 : (unsigned int)(tolower(*text) - 'a' +
							  10);
			if (i % 2)
				out[group * 2 + i / 2] |= nibble;
			else
				out[group * 2 + i / 2] = nibble << 4;
		}
		if (group < groups - 1 && *text++ != ':')
			return EINVAL;
	}
	if (*text == '\n')
		text++;
	return *text ? EINVAL : 0;
}

int verbs_parse_guid(const char *text, uint64_t *guid)
{
	uint8_t raw[8];
	uint64_t value = 0;
	int i;

	if (parse_hex_groups(text, 4, raw))
		return EINVAL;
	for (i = 0; i < 8; i++)
		value = value << 8 | raw[i];
	*guid = value;
	return 0;
}

int verbs_parse_gid(const char *text, uint8_t gid[16])
{
	uint8_t raw[16];

	if (parse_hex_groups(text, 8, raw))
		return EINVAL;
	memcpy(gid, raw, sizeof(raw));
	return 0;
}
