// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5 DMA handles (mlx5_ib's alloc_dmah, kernels after 6.12): the device
 * is a ConnectX-7 with PCIe TPH steering tags. PH is required (PCIe), the
 * steering tag is optional but needs both the CPU and the memory type.
 * The tag table is not exhausted here: each (CPU, memory type) pair has
 * its own entry, the index the device would use in the MR's mkey.
 */
#include "mlx5.h"

#include <errno.h>

int mlx5_sim_alloc_dmah(struct sim_dmah *d)
{
	const uint8_t st = SIM_DMAH_CPU_ID | SIM_DMAH_MEM_TYPE;

	if (!(d->valid & SIM_DMAH_PH))
		return -EINVAL;
	if ((d->valid & st) && (d->valid & st) != st)
		return -EINVAL;
	if (d->valid & st)
		d->st_index = 1 + d->cpu_id * 2 + d->mem_type;
	return 0;
}
