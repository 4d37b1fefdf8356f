// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* dlopen()ing provider plug-ins; they register from a constructor. */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>

#include <config.h>

#include "log.h"
#include "provider.h"

static bool try_dlopen(const char *path)
{
	verbs_lib_debug("loading provider %s\n", path);
	if (dlopen(path, RTLD_NOW))
		return true;
	verbs_lib_debug("dlopen(%s): %s\n", path, dlerror());
	return false;
}

int verbs_load_provider(const char *provider_dir, const char *name)
{
	char path[PATH_MAX];

	if (name[0] == '/') {
		snprintf(path, sizeof(path), "%s%s", name,
			 VERBS_PROVIDER_SUFFIX);
		if (try_dlopen(path))
			return 0;
	} else {
		snprintf(path, sizeof(path), "%s/lib%s%s", provider_dir, name,
			 VERBS_PROVIDER_SUFFIX);
		if (try_dlopen(path))
			return 0;
		snprintf(path, sizeof(path), "lib%s%s", name,
			 VERBS_PROVIDER_SUFFIX);
		if (try_dlopen(path))
			return 0;
	}
	verbs_lib_warn("couldn't load driver '%s'\n", name);
	return ENOENT;
}

static void load_drivers(void)
{
	struct verbs_name_list names = {};
	size_t i;

	if (verbs_collect_driver_names(IBV_CONFIG_DIR, &names))
		verbs_lib_warn("out of memory reading the driver list\n");
	for (i = 0; i < names.num; i++)
		verbs_load_provider(VERBS_PROVIDER_DIR, names.names[i]);
	verbs_name_list_free(&names);
}

void verbs_load_drivers_once(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, load_drivers);
}
