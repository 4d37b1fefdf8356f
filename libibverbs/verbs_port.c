// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Device and port attribute queries. */
#include <errno.h>
#include <string.h>

#include "ibverbs.h"
#include "verbs_internal.h"

/* verbs.h maps the name to its inline wrapper; this is the symbol. */
#undef ibv_query_port

/*
 * Binaries built before port_cap_flags2 existed pass a struct that ends
 * right before it; the exported symbol fills exactly that much.
 */
#define COMPAT_PORT_ATTR_LEN offsetof(struct ibv_port_attr, port_cap_flags2)

int ibv_query_device(struct ibv_context *context,
		     struct ibv_device_attr *device_attr)
{
	if (!context || !device_attr)
		return verbs_einval();
	/* orig_attr is the first member: the provider fills only that. */
	return get_ops(context)->query_device_ex(
		context, NULL, (struct ibv_device_attr_ex *)device_attr,
		sizeof(*device_attr));
}

int verbs_query_port_sized(struct ibv_context *context, uint8_t port_num,
			   struct ibv_port_attr *port_attr,
			   size_t port_attr_len)
{
	struct ibv_port_attr full;
	int ret;

	memset(&full, 0, sizeof(full));
	ret = get_ops(context)->query_port(context, port_num, &full);
	if (ret)
		return ret;
	if (port_attr_len > sizeof(full)) {
		memset(port_attr, 0, port_attr_len);
		port_attr_len = sizeof(full);
	}
	memcpy(port_attr, &full, port_attr_len);
	return 0;
}

int ibv_query_port(struct ibv_context *context, uint8_t port_num,
		   struct _compat_ibv_port_attr *port_attr)
{
	if (!context || !port_attr)
		return verbs_einval();
	return verbs_query_port_sized(context, port_num,
				      (struct ibv_port_attr *)port_attr,
				      COMPAT_PORT_ATTR_LEN);
}

/* IB lane counts by active_width bit. */
static const struct {
	uint8_t width;
	uint8_t lanes;
} port_widths[] = {
	{ 1, 1 }, { 2, 4 }, { 4, 8 }, { 8, 12 }, { 16, 2 },
};

/* Per-lane data rate in 100 Mb/s by active_speed / active_speed_ex bit. */
static const struct {
	uint32_t speed;
	uint32_t rate;
} lane_rates[] = {
	{ 1, 25 },    /* SDR */
	{ 2, 50 },    /* DDR */
	{ 4, 100 },   /* QDR */
	{ 8, 100 },   /* FDR10 */
	{ 16, 140 },  /* FDR */
	{ 32, 250 },  /* EDR */
	{ 64, 500 },  /* HDR */
	{ 128, 1000 }, /* NDR */
	{ 256, 2000 }, /* XDR, only in active_speed_ex */
};

/*
 * Lanes times per-lane rate; an encoding this table does not know (a
 * port without link included) reads as speed 0.
 */
static uint64_t port_speed_of(const struct ibv_port_attr *attr)
{
	uint32_t speed = attr->active_speed_ex ? attr->active_speed_ex :
						 attr->active_speed;
	uint64_t lanes = 0, rate = 0;
	size_t i;

	for (i = 0; i < sizeof(port_widths) / sizeof(port_widths[0]); i++)
		if (port_widths[i].width == attr->active_width)
			lanes = port_widths[i].lanes;
	for (i = 0; i < sizeof(lane_rates) / sizeof(lane_rates[0]); i++)
		if (lane_rates[i].speed == speed)
			rate = lane_rates[i].rate;
	return lanes * rate;
}

int ibv_query_port_speed(struct ibv_context *context, uint32_t port_num,
			 uint64_t *port_speed)
{
	struct ibv_port_attr attr;
	int ret;

	if (!context || !port_speed)
		return verbs_einval();
	if (port_num > UINT8_MAX)
		return EINVAL;
	ret = verbs_query_port_sized(context, (uint8_t)port_num, &attr,
				     sizeof(attr));
	if (ret)
		return ret;
	*port_speed = port_speed_of(&attr);
	return 0;
}
