// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Device accesses per KiB copied by the provider's copy routine (built
 * with MLX5_DM_COUNT_ACCESSES), next to what a 32-bit-word copy needs.
 */
#include <stdio.h>
#include <stdlib.h>

#include "dm_copy.h"

int main(void)
{
	static const size_t offsets[] = { 0, 4 };
	static uint64_t dev[1024 / 8 + 2];
	static uint8_t host[1024];
	size_t i;

	printf("%-28s %8s %8s\n", "case (1 KiB)", "write", "read");
	for (i = 0; i < 2; i++) {
		uint64_t w, r;

		mlx5_dm_access_count = 0;
		mlx5_dm_write((uint8_t *)dev + offsets[i], host, 1024);
		w = mlx5_dm_access_count;
		mlx5_dm_access_count = 0;
		mlx5_dm_read(host, (uint8_t *)dev + offsets[i], 1024);
		r = mlx5_dm_access_count;
		printf("mlx5 copy, DM offset %%8=%zu  %8llu %8llu\n",
		       offsets[i], (unsigned long long)w,
		       (unsigned long long)r);
	}
	printf("%-28s %8d %8d\n", "32-bit word copy", 1024 / 4, 1024 / 4);
	return 0;
}
