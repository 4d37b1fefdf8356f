// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A provider as rdma-core 65 builds one: it binds the IBVERBS_PRIVATE_65
 * names (provider_refs.c, generated) and registers itself from a
 * constructor through verbs_register_driver_65. Programs such as pyverbs'
 * modules link rc65 provider libraries directly, so the library must
 * load (every name bound at once) and the registration return.
 */
#include <stdbool.h>

/* rc65's driver.h declarations, as this provider would see them. */
extern bool verbs_allow_disassociate_destroy;
void verbs_register_driver_65(const void *ops);

/* Opaque here: the library must never read it. */
static const char fake_ops[256];
static int registered;

__attribute__((constructor)) static void fake65_register(void)
{
	verbs_register_driver_65(fake_ops);
	registered = 1 + verbs_allow_disassociate_destroy;
}

/* 1: the registration returned (and the data symbol read false). */
int fake65_registered(void);
int fake65_registered(void)
{
	return registered;
}
