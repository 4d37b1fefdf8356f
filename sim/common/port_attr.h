/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A port's attributes as the device reports them (port_attr.c): what
 * QUERY_PORT and RDMA netlink answer (core) and what the HCA's SMA puts
 * in PortInfo (hw/mlx5/hca_mad.c) are one answer.
 */
#ifndef RDMA_SIM_PORT_ATTR_H
#define RDMA_SIM_PORT_ATTR_H

#include <rdma/ib_user_ioctl_verbs.h>

#include "device_model.h"
#include "sim_shared.h"

#define SIM_SM_LID 1 /* the SM (and its SA) the world is swept by */

/* Port 1 of device dev: its link, MTU, LIDs and capabilities now (a
 * RoCE port's follow its netdev; --fault link-flap takes it DOWN). */
void sim_port_attr(struct sim_shared *sh, const struct sim_device_model *m,
		   unsigned int dev, struct ib_uverbs_query_port_resp_ex *r);

#endif
