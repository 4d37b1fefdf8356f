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
