// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Providers linked into a static libibverbs. The static archive's copy of
 * this file is built with VERBS_STATIC_PROVIDERS="X(mlx5) X(rxe)..." and
 * refers to each provider's verbs_provider_<name> (from PROVIDER_DRIVER);
 * the shared library's copy registers nothing - it dlopen()s plug-ins.
 */
#include "provider.h"

#ifdef VERBS_STATIC_PROVIDERS
#define X(name) extern const struct verbs_device_ops verbs_provider_##name;
VERBS_STATIC_PROVIDERS
#undef X
#endif

void verbs_register_static_providers(void)
{
#ifdef VERBS_STATIC_PROVIDERS
#define X(name) verbs_register_driver(&verbs_provider_##name);
	VERBS_STATIC_PROVIDERS
#undef X
#endif
}
