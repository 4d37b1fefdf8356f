// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Every public header whose struct layouts are compared with upstream's. */
#include <infiniband/verbs.h>
#include <infiniband/sa.h>
#include <infiniband/tm_types.h>
