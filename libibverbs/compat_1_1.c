// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibv_register_driver@IBVERBS_1.1: how providers registered before the
 * private provider ABI existed. Debian's libibverbs 44 still exports it,
 * so binaries (and old plug-ins) that reference it must load here too.
 * Such a provider cannot work with this library: say so and ignore it.
 * As upstream, only the non-default version exists: old binaries resolve
 * it, new links cannot bind it (the C name stays global for the static
 * library's white-box tests; the version script keeps it local).
 */
#include "driver.h"

struct ibv_device;
typedef struct ibv_device *(*ibv_driver_init_func)(const char *uverbs_sys_path,
						    int abi_version);

void ibv_register_driver(const char *name, ibv_driver_init_func init_func);

void ibv_register_driver(const char *name, ibv_driver_init_func init_func)
{
	(void)init_func;
	verbs_warn(NULL,
		   "driver %s uses the obsolete ibv_register_driver() interface; ignored\n",
		   name ? name : "(null)");
}
__asm__(".symver ibv_register_driver, ibv_register_driver@IBVERBS_1.1");
