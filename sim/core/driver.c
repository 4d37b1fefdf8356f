// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The driver-model table: --driver picks one row. */
#include "uapi.h"

static const struct sim_driver_ops *const drivers[] = {
	[SIM_DRIVER_MLX5] = &sim_mlx5_ops,
	[SIM_DRIVER_RXE] = &sim_rxe_ops,
};

const struct sim_driver_ops *sim_driver(void)
{
	unsigned int k = sim.sh->cfg.driver;

	return k < ARRAY_SIZE(drivers) ? drivers[k] : drivers[0];
}

const struct sim_driver_ops *sim_driver_at(unsigned int i)
{
	return i < ARRAY_SIZE(drivers) ? drivers[i] : NULL;
}
