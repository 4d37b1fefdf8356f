/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Provider plug-ins: the registry filled by verbs_register_driver(), the
 * matching of discovered devices to providers, and loading plug-ins named
 * by config files and the environment.
 */
#ifndef RDMA_DM_PROVIDER_H
#define RDMA_DM_PROVIDER_H

#include <stdbool.h>
#include <stddef.h>

#include "driver.h"

/* ----- matching (pure) ----- */

/*
 * Does @ops drive @dev? Table order: driver-id entries, then the device
 * name ("rdma_device:N<ibdev>") against modalias patterns, then the sysfs
 * modalias against modalias and PCI entries; @driver_id_only stops after
 * the first step. match_device(), when set, has the final say. The
 * device's ABI must lie in the provider's range. Sets dev->match.
 */
bool verbs_match_provider(const struct verbs_device_ops *ops,
			  struct verbs_sysfs_dev *dev, bool driver_id_only);
/*
 * The first of @num providers that drives @dev: a pass over driver ids
 * (when netlink gave one), then a full pass in order. NULL if none.
 */
const struct verbs_device_ops *
verbs_find_provider_in(const struct verbs_device_ops *const *ops, size_t num,
		       struct verbs_sysfs_dev *dev);

/* ----- the registry ----- */

/* verbs_find_provider_in() over every registered provider. */
const struct verbs_device_ops *verbs_find_provider(struct verbs_sysfs_dev *dev);
size_t verbs_num_providers(void);

/* ----- configuration ----- */

struct verbs_name_list {
	char **names;
	size_t num;
};

/* Append @name unless present. 0 or ENOMEM. */
int verbs_name_list_add(struct verbs_name_list *list, const char *name);
void verbs_name_list_free(struct verbs_name_list *list);

/*
 * Parse one config file's text (@source names it in warnings): blank
 * lines and '#' comments skipped, "driver NAME" collected, anything else
 * warned about. Returns the number of junk lines, or -errno.
 */
int verbs_parse_driver_config(const char *source, const char *text,
			      struct verbs_name_list *list);
/* Every regular file of @dir, in name order. 0 or an errno. */
int verbs_read_config_dir(const char *dir, struct verbs_name_list *list);
/* A ':' or ';' separated RDMAV_DRIVERS-style value. 0 or ENOMEM. */
int verbs_parse_driver_env(const char *value, struct verbs_name_list *list);

/*
 * The names to load: $RDMAV_DRIVERS (or $IBV_DRIVERS) when uid == euid,
 * then the files of @config_dir.
 */
int verbs_collect_driver_names(const char *config_dir,
			       struct verbs_name_list *list);

/*
 * dlopen one provider: "/abs/libfoo" + suffix, else
 * <provider_dir>/lib<name><suffix>, else lib<name><suffix> on the
 * default search path. 0 or ENOENT (warned when logging is on).
 */
int verbs_load_provider(const char *provider_dir, const char *name);

/* Load every configured provider, once per process. */
void verbs_load_drivers_once(void);

/* ENABLE_STATIC: register the providers linked into libibverbs.a. */
void verbs_register_static_providers(void);

#endif /* RDMA_DM_PROVIDER_H */
