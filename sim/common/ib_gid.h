/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * An IB port's GIDs, as its SMA describes them (PortInfo's GidPrefix,
 * GUIDInfo's GUIDs) and as every layer hands them out: query_gid, the
 * RDMA CM, netlink, the HCA's GRH. One source for all of them.
 */
#ifndef RDMA_SIM_IB_GID_H
#define RDMA_SIM_IB_GID_H

#include <endian.h>
#include <stdint.h>
#include <string.h>

#include "sim_world.h"

/* PortInfo.GidPrefix of every port: the link-local subnet. */
#define SIM_IB_GID_PREFIX 0xfe80000000000000ULL

/* GUIDInfo's GUID index of device dev's port: the port GUID at 0, the
 * rest unset (0). */
static inline uint64_t sim_ib_guid(unsigned int dev, uint32_t index)
{
	return index ? 0 : sim_guid(dev);
}

/* GID index of device dev's port into gid: GidPrefix, then that GUID,
 * big-endian. 0, or -1 (gid zeroed) where the GUID is unset. */
static inline int sim_ib_gid(unsigned int dev, uint32_t index,
			     uint8_t gid[16])
{
	uint64_t w[2] = {htobe64(SIM_IB_GID_PREFIX),
			 htobe64(sim_ib_guid(dev, index))};

	if (!w[1]) {
		memset(gid, 0, 16);
		return -1;
	}
	memcpy(gid, w, 16);
	return 0;
}

#endif
