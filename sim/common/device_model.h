/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What one simulated device looks like from outside: names, ids, sysfs
 * strings. One row per driver model; the launcher writes sysfs from it and
 * the preload library answers queries from it, so both always agree.
 */
#ifndef RDMA_SIM_DEVICE_MODEL_H
#define RDMA_SIM_DEVICE_MODEL_H

#include <stdint.h>

#define SIM_UVERBS_MAJOR      231
#define SIM_UVERBS_MINOR_BASE 192
#define SIM_NUM_GIDS	      4
#define SIM_NUM_PKEYS	      4
/* umadN/issmN exist for the first 64 ports (the static minors) */
#define SIM_UMAD_MAX_PORTS 64

struct sim_device_model {
	const char *cli_name;	  /* --driver value */
	const char *ibdev_prefix; /* ibdev = prefix + index */
	uint32_t driver_id;	  /* RDMA_DRIVER_* */
	uint32_t uverbs_abi;	  /* uverbsN/abi_version */
	uint32_t node_type;	  /* RDMA_NODE_* */
	const char *node_type_str;
	const char *link_layer;
	uint16_t pci_vendor, pci_device; /* 0 = no PCI device */
	uint32_t vendor_id, vendor_part_id, hw_ver;
	uint64_t guid_base; /* node_guid = guid_base + index */
	const char *fw_ver, *hca_type, *board_id;
	const char *rate;
	uint8_t gid_is_roce;	    /* gids from a MAC-derived link-local */
	uint8_t has_dm;		    /* driver implements alloc_dm */
	uint8_t has_dmabuf;	    /* pgoff_to_mmap_entry + mmap_get_pfns */
	uint8_t has_query_ucontext; /* QUERY_CONTEXT works (else EOPNOTSUPP) */
	uint32_t gid_tbl_len; /* port GID table; sysfs lists SIM_NUM_GIDS */
};

/* The model for a --driver name, or NULL. */
const struct sim_device_model *sim_model_by_name(const char *name);
/* The model for enum sim_driver_kind. */
const struct sim_device_model *sim_model_by_kind(unsigned int kind);
int sim_model_kind(const struct sim_device_model *m);

/*
 * The PCI function of device dev (models with a PCI id): domain 0, bus
 * 3 + dev / 256, slot (dev / 8) % 32, function dev % 8, below the root
 * port 0000:00:<bus - 1>.0. Its sysfs directory, and the BDF alone.
 */
void sim_pci_dir(char *buf, unsigned int len, unsigned int dev);
void sim_pci_bdf(char *buf, unsigned int len, unsigned int dev);
/* The device whose PCI directory (or /sys/bus/pci/devices entry) path
 * starts with, component-wise, or -1. */
int sim_pci_dev_of_path(const char *path, unsigned int ndev);

/* "xxxx:xxxx:xxxx:xxxx" from a host-order GUID. */
void sim_format_guid(char *buf, unsigned int len, uint64_t guid);

#endif
