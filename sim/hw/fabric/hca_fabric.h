/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the layers above the hardware may call of the fabric (the rest of
 * it is the HCA's own, hw/mlx5/hca.h): the store of a peer device into a
 * UAR page reaches the HCA here, as a bus write would.
 */
#ifndef RDMA_SIM_HCA_FABRIC_H
#define RDMA_SIM_HCA_FABRIC_H

#include <stdint.h>

/* A store into a UAR doorbell register of process pid's pages from
 * outside its own stores (a peer through a dma-buf): that process's
 * engine takes the new work at once. Takes sim_lock: call unlocked. */
void sim_doorbell_rung(int32_t pid);

#endif
