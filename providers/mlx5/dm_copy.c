// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The DM copy routines are inline in dm_copy.h (one call per copy); this
 * file holds the access counter of the bench/test builds that count them.
 */
#include "dm_copy.h"

#ifdef MLX5_DM_COUNT_ACCESSES
uint64_t mlx5_dm_access_count;
#endif
