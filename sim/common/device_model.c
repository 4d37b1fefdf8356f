// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "device_model.h"
#include "sim_shared.h"

#include <stdio.h>
#include <string.h>

static const struct sim_device_model models[] = {
	[SIM_DRIVER_MLX5] =
		{
			.cli_name = "mlx5",
			.ibdev_prefix = "mlx5_",
			.driver_id = 1, /* RDMA_DRIVER_MLX5 */
			.uverbs_abi = 1,
			.node_type = 1,
			.node_type_str = "1: CA",
			.link_layer = "InfiniBand",
			.pci_vendor = 0x15b3,
			.pci_device = 0x101d, /* ConnectX-6 Dx */
			.vendor_id = 0x02c9,
			.vendor_part_id = 0x101d,
			.hw_ver = 0,
			.guid_base = 0x0c42a10300b3d0e0ULL,
			.fw_ver = "22.36.1010",
			.hca_type = "MT4125",
			.board_id = "MT_0000000359",
			.rate = "100 Gb/sec (4X EDR)",
			.has_dm = 1,
			.has_dmabuf = 1,
			.has_query_ucontext = 1,
			.gid_tbl_len = SIM_NUM_GIDS,
		},
	[SIM_DRIVER_RXE] =
		{
			.cli_name = "rxe",
			.ibdev_prefix = "rxe",
			.driver_id = 14, /* RDMA_DRIVER_RXE */
			.uverbs_abi = 2,
			.node_type = 1,
			.node_type_str = "1: CA",
			.link_layer = "Ethernet",
			.vendor_id = 0xffffff,
			.vendor_part_id = 0,
			.hw_ver = 0,
			.guid_base = 0x505400fffe123400ULL,
			.fw_ver = "",
			.hca_type = "",
			.board_id = "",
			.rate = "10 Gb/sec (1X QDR)",
			.gid_is_roce = 1,
			.gid_tbl_len = 1024, /* RXE_PORT_GID_TBL_LEN */
		},
};

const struct sim_device_model *sim_model_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (!strcmp(models[i].cli_name, name))
			return &models[i];
	return NULL;
}

const struct sim_device_model *sim_model_by_kind(unsigned int kind)
{
	if (kind >= sizeof(models) / sizeof(models[0]))
		return &models[0];
	return &models[kind];
}

int sim_model_kind(const struct sim_device_model *m)
{
	return (int)(m - models);
}

void sim_format_guid(char *buf, unsigned int len, uint64_t guid)
{
	snprintf(buf, len, "%04x:%04x:%04x:%04x", (unsigned int)(guid >> 48),
		 (unsigned int)(guid >> 32) & 0xffff,
		 (unsigned int)(guid >> 16) & 0xffff,
		 (unsigned int)guid & 0xffff);
}

void sim_pci_bdf(char *buf, unsigned int len, unsigned int dev)
{
	snprintf(buf, len, "0000:%02x:%02x.%x", (3 + dev / 256) & 0xff,
		 (dev / 8) % 32, dev % 8);
}

void sim_pci_dir(char *buf, unsigned int len, unsigned int dev)
{
	char bdf[16];

	sim_pci_bdf(bdf, sizeof(bdf), dev);
	snprintf(buf, len, "/sys/devices/pci0000:00/0000:00:%02x.0/%s",
		 (2 + dev / 256) & 0xff, bdf);
}

/* path begins with prefix, which ends there or at a '/' of path */
static int under(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	return !strncmp(path, prefix, n) && (!path[n] || path[n] == '/');
}

int sim_pci_dev_of_path(const char *path, unsigned int ndev)
{
	static const char bus[] = "/sys/bus/pci/devices/0000:";
	static const char root[] = "/sys/devices/pci0000:00/0000:00:";
	unsigned int b, d, f, dev;
	char want[128], bdf[16];
	const char *p;
	int in_bus;

	in_bus = !strncmp(path, bus, sizeof(bus) - 1);
	if (in_bus)
		p = path + sizeof(bus) - 1;
	else if (!strncmp(path, root, sizeof(root) - 1) &&
		 strlen(path) >= sizeof(root) - 1 + 10)
		p = path + sizeof(root) - 1 + 10; /* past "xx.0/0000:" */
	else
		return -1;
	if (sscanf(p, "%2x:%2x.%1x", &b, &d, &f) != 3 || b < 3 || d > 31 ||
	    f > 7)
		return -1;
	dev = (b - 3) * 256 + d * 8 + f;
	if (dev >= ndev)
		return -1;
	if (in_bus) {
		sim_pci_bdf(bdf, sizeof(bdf), dev);
		snprintf(want, sizeof(want), "/sys/bus/pci/devices/%s", bdf);
	} else {
		sim_pci_dir(want, sizeof(want), dev);
	}
	return under(path, want) ? (int)dev : -1;
}
