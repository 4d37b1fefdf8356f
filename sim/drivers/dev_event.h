/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The event queue every driver of the simulated HCA opens (mlx5, and rxe,
 * whose wire the same engine runs): one per process, made through the
 * firmware-command interface. The device-wide EQEs (port changes, the
 * device's internal error) mean the same to every driver: a uverbs event
 * in each context of the device, as the kernel's ib_dispatch_event.
 */
#ifndef RDMA_SIM_DEV_EVENT_H
#define RDMA_SIM_DEV_EVENT_H

#include "hca_cmd.h"

/* Open the process's event queue with handler fn, once (later calls keep
 * the first handler). */
void sim_drv_eq_open(void (*fn)(const struct hca_eqe *e));
/* A device-wide EQE becomes its uverbs event in every context of its
 * device; any other EQE is not this function's. Needs sim_lock. */
void sim_drv_dev_event(const struct hca_eqe *e);

#endif
