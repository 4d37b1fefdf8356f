/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Entry points kept only so that binaries built against another libibverbs
 * load: each is a refusal exported under a non-default version with the
 * old name, so nothing new can link against it.
 */
#ifndef VERBS_COMPAT_SYMVER_H
#define VERBS_COMPAT_SYMVER_H

#include <errno.h>

#include <config.h>

#include "log.h"

/*
 * @prefix##@name, exported as @name@@ver. Parameters are not declared on
 * purpose: the refusal reads none, and a caller of any prototype gets
 * @value (0 reads as NULL to a pointer-returning caller) with errno
 * EOPNOTSUPP.
 */
#define COMPAT_REFUSAL(prefix, name, ver, value)                               \
	long prefix##name(void);                                               \
	long prefix##name(void)                                                \
	{                                                                      \
		errno = EOPNOTSUPP;                                            \
		return (value);                                                \
	}                                                                      \
	__asm__(".symver " #prefix #name ", " #name "@" ver);

/*
 * verbs_register_driver_<pabi>@IBVERBS_PRIVATE_<pabi>: a provider built
 * for that private ABI registers here. Its structs are not ours, so it
 * must never run: the registration is declined, with a warning.
 */
#define COMPAT_IGNORED_PROVIDER(pabi)                                          \
	void compat##pabi##_verbs_register_driver_##pabi(const void *ops);     \
	void compat##pabi##_verbs_register_driver_##pabi(const void *ops)      \
	{                                                                      \
		(void)ops;                                                     \
		verbs_lib_warn("ignoring a provider built for "                \
			       "rdma-core's private ABI " #pabi                \
			       " (providers here are lib<name>"                \
			       VERBS_PROVIDER_SUFFIX ")\n");                   \
	}                                                                      \
	__asm__(".symver compat" #pabi "_verbs_register_driver_" #pabi         \
		", verbs_register_driver_" #pabi "@IBVERBS_PRIVATE_" #pabi);

#endif
