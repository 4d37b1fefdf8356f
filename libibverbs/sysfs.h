/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Reading and parsing sysfs attribute files. Every parser is strict and
 * pure so tests can feed it truncated or garbage text.
 */
#ifndef RDMA_DM_SYSFS_H
#define RDMA_DM_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The sysfs root: $SYSFS_PATH (only when uid == euid, trailing slashes
 * removed) or "/sys". Cached; verbs_sysfs_path_reset() forgets it.
 */
const char *ibv_get_sysfs_path(void);
void verbs_sysfs_path_reset(void);

/*
 * Read <dir>/<file> into @buf (NUL-terminated, one trailing newline
 * removed). Returns the length, or -1 with errno set.
 */
int ibv_read_sysfs_file(const char *dir, const char *file, char *buf,
			size_t size);

/*
 * The same for <dir>/<file> relative to the directory fd @dirfd: no
 * snprintf of the whole path, no walk from the root.
 */
int verbs_read_sysfs_at(int dirfd, const char *dir, const char *file, char *buf,
			size_t size);

/* "<dir>/<name>" into @buf; false (and ENAMETOOLONG) if it did not fit. */
bool verbs_path_join(char *buf, size_t size, const char *dir, const char *name);

/* Decimal number that fits in int, optionally followed by a newline. */
int verbs_parse_int(const char *text, int *value);
/* "major:minor" as the `dev` attribute prints it. */
int verbs_parse_devnum(const char *text, dev_t *dev);
/* "xxxx:xxxx:xxxx:xxxx" (16 hex digits in four groups), host order. */
int verbs_parse_guid(const char *text, uint64_t *guid);
/* A GID as sysfs prints it: eight groups of four hex digits. */
int verbs_parse_gid(const char *text, uint8_t gid[16]);

#endif /* RDMA_DM_SYSFS_H */
