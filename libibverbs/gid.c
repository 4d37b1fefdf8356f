// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* GID and P_Key queries: the ioctls when present, sysfs otherwise. */
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_write.h"
#include "gid.h"
#include "sysfs.h"
#include "verbs_internal.h"

static struct verbs_sysfs_dev *sysfs_of(struct ibv_context *ctx)
{
	return verbs_get_device(ctx->device)->sysfs;
}

static enum ibv_gid_type gid_type_from_sysfs(struct ibv_context *ctx,
					     uint32_t port, uint32_t index)
{
	char text[32];

	if (ibv_read_ibdev_sysfs_file(text, sizeof(text), sysfs_of(ctx),
				      "ports/%u/gid_attrs/types/%u", port,
				      index) > 0 &&
	    !strcmp(text, "RoCE v2"))
		return IBV_GID_TYPE_ROCE_V2;
	/* "IB/RoCE v1" means IB on an InfiniBand port, RoCE v1 otherwise. */
	if (ibv_read_ibdev_sysfs_file(text, sizeof(text), sysfs_of(ctx),
				      "ports/%u/link_layer", port) > 0 &&
	    !strcmp(text, "Ethernet"))
		return IBV_GID_TYPE_ROCE_V1;
	return IBV_GID_TYPE_IB;
}

/* 0, ENODATA for an empty slot, EINVAL for a slot that does not exist. */
static int gid_entry_from_sysfs(struct ibv_context *ctx, uint32_t port,
				uint32_t index, struct ibv_gid_entry *entry)
{
	static const uint8_t zero[16];
	char text[64];

	if (ibv_read_ibdev_sysfs_file(text, sizeof(text), sysfs_of(ctx),
				      "ports/%u/gids/%u", port, index) < 0)
		return EINVAL;
	if (verbs_parse_gid(text, entry->gid.raw))
		return EINVAL;
	if (!memcmp(entry->gid.raw, zero, sizeof(zero)))
		return ENODATA;
	entry->gid_index = index;
	entry->port_num = port;
	entry->gid_type = gid_type_from_sysfs(ctx, port, index);
	entry->ndev_ifindex = 0;
	if (ibv_read_ibdev_sysfs_file(text, sizeof(text), sysfs_of(ctx),
				      "ports/%u/gid_attrs/ndevs/%u", port,
				      index) > 0)
		entry->ndev_ifindex = if_nametoindex(text);
	return 0;
}

int _ibv_query_gid_ex(struct ibv_context *context, uint32_t port_num,
		      uint32_t gid_index, struct ibv_gid_entry *entry,
		      uint32_t flags, size_t entry_size)
{
	int ret;

	if (!context || !entry)
		return verbs_einval();
	if (flags || entry_size < sizeof(*entry))
		return EINVAL;
	ret = verbs_cmd_query_gid_entry(context, port_num, gid_index, entry);
	if (ret == VERBS_USE_WRITE)
		ret = gid_entry_from_sysfs(context, port_num, gid_index, entry);
	return ret;
}

int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index,
		  union ibv_gid *gid)
{
	struct ibv_gid_entry entry = {};
	int ret;

	if (index < 0) {
		errno = EINVAL;
		return -1;
	}
	ret = _ibv_query_gid_ex(context, port_num, (uint32_t)index, &entry, 0,
				sizeof(entry));
	/* An unused slot reads as the zero GID, as sysfs shows it. */
	if (ret && ret != ENODATA) {
		errno = ret;
		return -1;
	}
	memcpy(gid, &entry.gid, sizeof(*gid));
	return 0;
}

static int port_filter(const struct dirent *ent)
{
	return ent->d_name[0] >= '0' && ent->d_name[0] <= '9';
}

/* Every non-empty GID of one port into @entries; count or -errno. */
static ssize_t port_gids_from_sysfs(struct ibv_context *ctx, uint32_t port,
				    struct ibv_gid_entry *entries, size_t room,
				    size_t entry_size)
{
	struct ibv_gid_entry entry;
	ssize_t num = 0;
	uint32_t index;
	int ret;

	for (index = 0;; index++) {
		ret = gid_entry_from_sysfs(ctx, port, index, &entry);
		if (ret == EINVAL)
			return num;
		if (ret == ENODATA)
			continue;
		if ((size_t)num == room)
			return -EINVAL;
		memcpy((uint8_t *)entries + num * entry_size, &entry,
		       sizeof(entry));
		num++;
	}
}

static ssize_t gid_table_from_sysfs(struct ibv_context *ctx,
				    struct ibv_gid_entry *entries,
				    size_t max_entries, size_t entry_size)
{
	char dir[PATH_MAX];
	struct dirent **ports;
	ssize_t total = 0, got;
	int num, i;

	if (!verbs_path_join(dir, sizeof(dir), sysfs_of(ctx)->ibdev_path,
			     "ports"))
		return -ENAMETOOLONG;
	num = scandir(dir, &ports, port_filter, versionsort);
	if (num < 0)
		return -errno;
	for (i = 0; i < num; i++) {
		got = total < 0 ? 0
				: port_gids_from_sysfs(
					  ctx, (uint32_t)atoi(ports[i]->d_name),
					  (struct ibv_gid_entry
						   *)((uint8_t *)entries +
						      total * entry_size),
					  max_entries - total, entry_size);
		total = got < 0 ? got : total + got;
		free(ports[i]);
	}
	free(ports);
	return total;
}

ssize_t _ibv_query_gid_table(struct ibv_context *context,
			     struct ibv_gid_entry *entries, size_t max_entries,
			     uint32_t flags, size_t entry_size)
{
	ssize_t ret;

	if (verbs_null_arg(context))
		return -EINVAL;
	if (flags || entry_size < sizeof(*entries))
		return -EINVAL;
	ret = verbs_cmd_query_gid_table(context, entries, max_entries,
					entry_size);
	if (ret == VERBS_USE_WRITE)
		ret = gid_table_from_sysfs(context, entries, max_entries,
					   entry_size);
	return ret;
}

int ibv_query_pkey(struct ibv_context *context, uint8_t port_num, int index,
		   __be16 *pkey)
{
	char text[16], *end;
	unsigned long value;

	if (verbs_null_arg(context) || verbs_null_arg(pkey))
		return -1;
	if (index < 0 || ibv_read_ibdev_sysfs_file(
				 text, sizeof(text), sysfs_of(context),
				 "ports/%u/pkeys/%d", port_num, index) <= 0) {
		errno = EINVAL;
		return -1;
	}
	value = strtoul(text, &end, 16);
	if (*end || value > UINT16_MAX) {
		errno = EINVAL;
		return -1;
	}
	*pkey = htobe16((uint16_t)value);
	return 0;
}

int ibv_get_pkey_index(struct ibv_context *context, uint8_t port_num,
		       __be16 pkey)
{
	__be16 entry;
	int index;

	for (index = 0; !ibv_query_pkey(context, port_num, index, &entry);
	     index++)
		if (entry == pkey)
			return index;
	return -1;
}
