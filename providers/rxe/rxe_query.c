// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Device and port queries. */
#include <stdio.h>

#include "rxe.h"

int rxe_query_device_ex(struct ibv_context *ctx,
			const struct ibv_query_device_ex_input *input,
			struct ibv_device_attr_ex *attr, size_t attr_size)
{
	unsigned int major, minor, sub;
	int err;

	err = ibv_cmd_query_device_any(ctx, input, attr, attr_size, NULL);
	if (err)
		return err;
	/*
	 * rxe spells its firmware version without zero padding (the kernel's
	 * u64 is major.minor.sub in 32/16/16 bits); respell the core's
	 * rendering so tools print what they print with other libibverbs.
	 */
	if (sscanf(attr->orig_attr.fw_ver, "%u.%u.%u", &major, &minor, &sub) ==
	    3)
		snprintf(attr->orig_attr.fw_ver, sizeof(attr->orig_attr.fw_ver),
			 "%u.%u.%u", major, minor, sub);
	return 0;
}

int rxe_query_port(struct ibv_context *ctx, uint8_t port_num,
		   struct ibv_port_attr *attr)
{
	return ibv_cmd_query_port(ctx, port_num, attr);
}
