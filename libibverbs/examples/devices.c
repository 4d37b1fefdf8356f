// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibv_devices: list the RDMA devices libibverbs finds, with their node
 * GUID and, when the device can be opened, its device-memory capacity.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>

/* "-" when the device cannot be opened or queried. */
static void print_dm_size(struct ibv_device *dev)
{
	struct ibv_device_attr_ex attr = {};
	struct ibv_context *ctx;

	ctx = ibv_open_device(dev);
	if (!ctx) {
		printf("%16s\n", "-");
		return;
	}
	if (ibv_query_device_ex(ctx, NULL, &attr))
		printf("%16s\n", "-");
	else
		printf("%16" PRIu64 "\n", (uint64_t)attr.max_dm_size);
	ibv_close_device(ctx);
}

int main(void)
{
	struct ibv_device **list;
	int num, i;

	list = ibv_get_device_list(&num);
	if (!list) {
		fprintf(stderr, "ibv_devices: no device list: %s\n",
			strerror(errno));
		return 1;
	}
	printf("    %-16s  %-16s  %16s\n", "device", "node GUID", "DM bytes");
	printf("    %-16s  %-16s  %16s\n", "------", "---------", "--------");
	for (i = 0; i < num; i++) {
		printf("    %-16s  %016" PRIx64 "  ",
		       ibv_get_device_name(list[i]),
		       (uint64_t)be64toh(ibv_get_device_guid(list[i])));
		print_dm_size(list[i]);
	}
	ibv_free_device_list(list);
	return 0;
}
