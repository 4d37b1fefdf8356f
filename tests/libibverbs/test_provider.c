// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A provider plug-in for the loader tests: it only registers itself, the
 * way every provider does (PROVIDER_DRIVER's constructor).
 */
#include "driver.h"

static const struct verbs_match_ent test_table[] = {
	VERBS_NAME_MATCH("testdev", NULL),
	VERBS_MATCH_END,
};

static const struct verbs_device_ops test_provider_ops = {
	.name = "testprov",
	.match_min_abi_version = 0,
	.match_max_abi_version = 0,
	.match_table = test_table,
};

PROVIDER_DRIVER(testprov, test_provider_ops);
