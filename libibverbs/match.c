// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The provider registry and the rules that pair devices with providers. */
#include <fnmatch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "log.h"
#include "provider.h"

enum match_step {
	MATCH_BY_DRIVER_ID,
	MATCH_BY_NAME,
	MATCH_BY_MODALIAS,
};

static bool entry_matches(const struct verbs_match_ent *ent,
			  const struct verbs_sysfs_dev *dev,
			  enum match_step step, const char *name_alias)
{
	char pattern[64];

	switch (step) {
	case MATCH_BY_DRIVER_ID:
		return ent->kind == VERBS_MATCH_DRIVER_ID && dev->driver_id &&
		       ent->u.driver_id == dev->driver_id;
	case MATCH_BY_NAME:
		return ent->kind == VERBS_MATCH_MODALIAS &&
		       !fnmatch(ent->u.modalias, name_alias, 0);
	case MATCH_BY_MODALIAS:
		if (!dev->modalias[0])
			return false;
		if (ent->kind == VERBS_MATCH_MODALIAS)
			return !fnmatch(ent->u.modalias, dev->modalias, 0);
		if (ent->kind != VERBS_MATCH_PCI)
			return false;
		snprintf(pattern, sizeof(pattern), "pci:v%08Xd%08Xsv*",
			 ent->vendor, ent->device);
		return !fnmatch(pattern, dev->modalias, 0);
	}
	return false;
}

static const struct verbs_match_ent *
match_table(const struct verbs_device_ops *ops,
	    const struct verbs_sysfs_dev *dev, bool driver_id_only)
{
	enum match_step last =
		driver_id_only ? MATCH_BY_DRIVER_ID : MATCH_BY_MODALIAS;
	char name_alias[IBV_SYSFS_NAME_MAX + 16];
	const struct verbs_match_ent *ent;
	enum match_step step;

	if (!ops->match_table)
		return NULL;
	snprintf(name_alias, sizeof(name_alias), "rdma_device:N%s",
		 dev->ibdev_name);
	for (step = MATCH_BY_DRIVER_ID; step <= last; step++)
		for (ent = ops->match_table; ent->kind != VERBS_MATCH_SENTINEL;
		     ent++)
			if (entry_matches(ent, dev, step, name_alias))
				return ent;
	return NULL;
}

bool verbs_match_provider(const struct verbs_device_ops *ops,
			  struct verbs_sysfs_dev *dev, bool driver_id_only)
{
	dev->match = match_table(ops, dev, driver_id_only);
	if (ops->match_device) {
		if (!ops->match_device(dev))
			return false;
	} else if (!dev->match) {
		return false;
	}

	if (dev->abi_ver < ops->match_min_abi_version ||
	    dev->abi_ver > ops->match_max_abi_version) {
		verbs_lib_warn("%s: provider %s wants uverbs ABI %d..%d, the "
			       "kernel offers %d\n",
			       dev->ibdev_name, ops->name,
			       ops->match_min_abi_version,
			       ops->match_max_abi_version, dev->abi_ver);
		return false;
	}
	return true;
}

const struct verbs_device_ops *
verbs_find_provider_in(const struct verbs_device_ops *const *ops, size_t num,
		       struct verbs_sysfs_dev *dev)
{
	size_t i;

	if (dev->driver_id)
		for (i = 0; i < num; i++)
			if (verbs_match_provider(ops[i], dev, true))
				return ops[i];
	for (i = 0; i < num; i++)
		if (verbs_match_provider(ops[i], dev, false))
			return ops[i];
	dev->match = NULL;
	return NULL;
}

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static const struct verbs_device_ops **registry;
static size_t registry_num;

void verbs_register_driver(const struct verbs_device_ops *ops)
{
	const struct verbs_device_ops **grown;
	size_t i;

	pthread_mutex_lock(&registry_lock);
	for (i = 0; i < registry_num; i++)
		if (registry[i] == ops)
			goto out;
	grown = realloc(registry, (registry_num + 1) * sizeof(*registry));
	if (!grown) {
		verbs_lib_warn("no memory to register provider %s\n",
			       ops->name);
		goto out;
	}
	registry = grown;
	registry[registry_num++] = ops;
out:
	pthread_mutex_unlock(&registry_lock);
}

const struct verbs_device_ops *verbs_find_provider(struct verbs_sysfs_dev *dev)
{
	const struct verbs_device_ops *ops;

	pthread_mutex_lock(&registry_lock);
	ops = verbs_find_provider_in(registry, registry_num, dev);
	pthread_mutex_unlock(&registry_lock);
	return ops;
}

size_t verbs_num_providers(void)
{
	size_t num;

	pthread_mutex_lock(&registry_lock);
	num = registry_num;
	pthread_mutex_unlock(&registry_lock);
	return num;
}
