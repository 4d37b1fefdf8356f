// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The HCA's management agents, as ConnectX firmware answers MAD_IFC for
 * an InfiniBand port that a subnet manager has swept (the world starts
 * swept: port ACTIVE, LID dev+1, SM LID 1, LMC 0, as QUERY_PORT and sysfs
 * say):
 *   SMA (SubnGet, LID-routed or directed): NodeDescription, NodeInfo,
 *       GUIDInfo, PortInfo, P_KeyTable; other attributes status 0x000C,
 *       bad block or port 0x001C; SubnSet is not modelled (0x000C).
 *   PMA (PerfMgt): ClassPortInfo (ExtendedWidth), PortCounters and
 *       PortCountersExtended from the port's packet and payload-octet
 *       counts (data in 4-octet units, 32-bit ones saturating); Set of
 *       PortCounters clears the selected ones.
 * A reply is the request with the method GetResp (and D for directed
 * routes) and the attribute in the data area (SMP @64, GMP @64 after the
 * 40 reserved bytes of the PerfMgt header).
 */
#include "hca.h"
#include "ib_gid.h"
#include "mad.h"
#include "port_attr.h"

#include <endian.h>
#include <stdio.h>
#include <string.h>

#define DATA 64 /* SMP data; PerfMgt data after its reserved bytes */

enum {
	ATTR_CLASS_PORT_INFO = 0x0001,
	ATTR_NODE_DESC = 0x0010,
	ATTR_NODE_INFO = 0x0011,
	ATTR_GUID_INFO = 0x0014,
	ATTR_PORT_INFO = 0x0015,
	ATTR_PKEY_TABLE = 0x0016,
	ATTR_PORT_COUNTERS = 0x0012,
	ATTR_PORT_COUNTERS_EXT = 0x001d,
};

enum {
	STATUS_BAD_VERSION = 0x0004,
	STATUS_UNSUPPORTED = 0x000c, /* method/attribute combination */
	STATUS_BAD_FIELD = 0x001c,   /* attribute or modifier invalid */
};

static void be16_at(uint8_t *p, uint16_t v)
{
	v = htobe16(v);
	memcpy(p, &v, sizeof(v));
}

static void be32_at(uint8_t *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, sizeof(v));
}

static void be64_at(uint8_t *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, sizeof(v));
}

static uint64_t hwc(unsigned int dev, enum sim_hwc c)
{
	return __atomic_load_n(&sim.sh->hwc[dev][c], __ATOMIC_RELAXED);
}

static int node_info(unsigned int dev, uint8_t *d)
{
	d[0] = 1; /* BaseVersion */
	d[1] = 1; /* ClassVersion */
	d[2] = (uint8_t)sim.model->node_type;
	d[3] = 1;			/* NumPorts */
	be64_at(d + 4, sim_guid(dev));	/* SystemImageGUID */
	be64_at(d + 12, sim_guid(dev)); /* NodeGUID */
	be64_at(d + 20, sim_guid(dev)); /* PortGUID: gids/0's low half */
	be16_at(d + 28, SIM_NUM_PKEYS); /* PartitionCap */
	be16_at(d + 30, sim.model->pci_device);
	be32_at(d + 32, sim.model->hw_ver);
	/* LocalPortNum 1, then the 24-bit VendorID */
	be32_at(d + 36, (1u << 24) | (sim.model->vendor_id & 0xffffff));
	return 0;
}

static int port_info(unsigned int dev, uint32_t port, uint8_t *d)
{
	struct ib_uverbs_query_port_resp_ex pr;
	struct ib_uverbs_query_port_resp *p = &pr.legacy_resp;

	if (port > 1)
		return STATUS_BAD_FIELD;
	sim_port_attr(sim.sh, sim.model, dev, &pr);
	be64_at(d + 8, SIM_IB_GID_PREFIX); /* GidPrefix */
	be16_at(d + 16, p->lid);
	be16_at(d + 18, p->sm_lid);
	be32_at(d + 20, p->port_cap_flags);
	d[28] = 1;			/* LocalPortNum */
	d[29] = 3;			/* LinkWidthEnabled: 1X, 4X */
	d[30] = 3;			/* LinkWidthSupported */
	d[31] = p->active_width;	/* LinkWidthActive (2: 4X) */
	d[32] = 7 << 4 | p->state;	/* LinkSpeedSupported, PortState */
	d[33] = p->phys_state << 4 | 2; /* LinkDownDefault: Polling */
	d[34] = p->lmc & 7;
	d[35] = 4 << 4 | 7; /* LinkSpeedActive 10G (EDR is ext) */
	d[36] = p->active_mtu << 4 | p->sm_sl;	 /* NeighborMTU, MasterSMSL */
	d[37] = p->max_vl_num << 4;		 /* VLCap */
	d[39] = 8;				 /* VLArbitrationHighCap */
	d[40] = 8;				 /* VLArbitrationLowCap */
	d[41] = p->max_mtu;			 /* MTUCap */
	d[42] = 7 << 5 | 20;			 /* VLStallCount, HOQLife */
	d[43] = p->max_vl_num << 4;		 /* OperationalVLs */
	d[50] = (uint8_t)sim.model->gid_tbl_len; /* GUIDCap */
	d[51] = p->subnet_timeout & 0x1f;
	d[62] = 2 << 4 | 3; /* LinkSpeedExtActive EDR, Supported FDR+EDR */
	d[63] = 3;	    /* LinkSpeedExtEnabled */
	return 0;
}

static int sma_get(unsigned int dev, uint16_t attr, uint32_t mod, uint8_t *d)
{
	char desc[64];
	uint32_t i;

	switch (attr) {
	case ATTR_NODE_DESC:
		snprintf(desc, sizeof(desc), "rdma-sim %s%u",
			 sim.model->ibdev_prefix, dev);
		memcpy(d, desc, strlen(desc));
		return 0;
	case ATTR_NODE_INFO:
		return node_info(dev, d);
	case ATTR_PORT_INFO:
		return port_info(dev, mod, d);
	case ATTR_GUID_INFO: /* 8 GUIDs a block */
		if (mod >= (sim.model->gid_tbl_len + 7) / 8)
			return STATUS_BAD_FIELD;
		for (i = 0; i < 8; i++)
			be64_at(d + i * 8, sim_ib_guid(dev, mod * 8 + i));
		return 0;
	case ATTR_PKEY_TABLE: /* 32 P_Keys a block: the default, then none */
		if ((mod & 0xffff) >= (SIM_NUM_PKEYS + 31) / 32)
			return STATUS_BAD_FIELD;
		be16_at(d, 0xffff);
		return 0;
	}
	return STATUS_UNSUPPORTED;
}

static uint32_t sat32(uint64_t v)
{
	return v > 0xffffffffULL ? 0xffffffffu : (uint32_t)v;
}

/* PortCounters: Set clears what CounterSelect names (bits 12..15). */
static int port_counters(unsigned int dev, int set, const uint8_t *in,
			 uint8_t *d)
{
	static const enum sim_hwc sel[4] = {
		SIM_HWC_XMIT_BYTES, SIM_HWC_RCV_BYTES, SIM_HWC_XMIT_PKTS,
		SIM_HWC_RCV_PKTS};
	uint16_t mask;
	unsigned int i;

	memcpy(&mask, in + 2, sizeof(mask));
	mask = be16toh(mask);
	for (i = 0; set && i < 4; i++)
		if (mask & (1u << (12 + i)))
			__atomic_store_n(&sim.sh->hwc[dev][sel[i]], 0,
					 __ATOMIC_RELAXED);
	d[1] = in[1]; /* PortSelect */
	memcpy(d + 2, in + 2, 2);
	be32_at(d + 24, sat32(hwc(dev, SIM_HWC_XMIT_BYTES) / 4));
	be32_at(d + 28, sat32(hwc(dev, SIM_HWC_RCV_BYTES) / 4));
	be32_at(d + 32, sat32(hwc(dev, SIM_HWC_XMIT_PKTS)));
	be32_at(d + 36, sat32(hwc(dev, SIM_HWC_RCV_PKTS)));
	return 0;
}

static int port_counters_ext(unsigned int dev, const uint8_t *in, uint8_t *d)
{
	d[1] = in[1];
	memcpy(d + 2, in + 2, 2);
	be64_at(d + 8, hwc(dev, SIM_HWC_XMIT_BYTES) / 4);
	be64_at(d + 16, hwc(dev, SIM_HWC_RCV_BYTES) / 4);
	be64_at(d + 24, hwc(dev, SIM_HWC_XMIT_PKTS));
	be64_at(d + 32, hwc(dev, SIM_HWC_RCV_PKTS));
	be64_at(d + 40, hwc(dev, SIM_HWC_XMIT_PKTS)); /* all unicast */
	be64_at(d + 48, hwc(dev, SIM_HWC_RCV_PKTS));
	return 0;
}

static int pma(unsigned int dev, int set, uint16_t attr, const uint8_t *in,
	       uint8_t *d)
{
	if (in[1] > 1 && attr != ATTR_CLASS_PORT_INFO)
		return STATUS_BAD_FIELD; /* PortSelect: port 1 only */
	switch (attr) {
	case ATTR_CLASS_PORT_INFO:
		if (set)
			return STATUS_UNSUPPORTED;
		d[0] = 1;
		d[1] = 1;
		be16_at(d + 2, 1 << 9); /* IsExtendedWidthSupported */
		return 0;
	case ATTR_PORT_COUNTERS:
		return port_counters(dev, set, in, d);
	case ATTR_PORT_COUNTERS_EXT:
		return set ? STATUS_UNSUPPORTED : port_counters_ext(dev, in, d);
	}
	return STATUS_UNSUPPORTED;
}

int sim_process_mad(unsigned int dev, const uint8_t *in, uint8_t *out)
{
	uint8_t cls = in[1], method = in[3] & 0x7f;
	uint16_t attr, status = 0;
	uint32_t mod;

	if (sim_port_is_eth(sim.sh, dev) || in[0] != 1 ||
	    (cls != SIM_MAD_CLASS_SMI && cls != SIM_MAD_CLASS_SMI_DR &&
	     cls != SIM_MAD_CLASS_PERF))
		return 0; /* no agent of the HCA for it */
	memcpy(&attr, in + 16, sizeof(attr));
	memcpy(&mod, in + 20, sizeof(mod));
	attr = be16toh(attr);
	mod = be32toh(mod);
	memcpy(out, in, SIM_MAD_SIZE);
	memset(out + DATA, 0, SIM_MAD_SIZE - DATA);
	if (cls == SIM_MAD_CLASS_SMI_DR) /* the return path is the caller's */
		memcpy(out + 128, in + 128, 128);
	if (in[2] != 1)
		status = STATUS_BAD_VERSION;
	else if (method != SIM_MAD_GET && method != SIM_MAD_SET)
		status = STATUS_UNSUPPORTED;
	else if (cls == SIM_MAD_CLASS_PERF)
		status = (uint16_t)pma(dev, method == SIM_MAD_SET, attr,
				       in + DATA, out + DATA);
	else if (method == SIM_MAD_SET)
		status = STATUS_UNSUPPORTED; /* SubnSet: not modelled */
	else
		status = (uint16_t)sma_get(dev, attr, mod, out + DATA);
	out[3] = SIM_MAD_RESP | SIM_MAD_GET;
	if (cls == SIM_MAD_CLASS_SMI_DR)
		status |= 0x8000; /* D: the response direction */
	be16_at(out + 4, status);
	return 1;
}
