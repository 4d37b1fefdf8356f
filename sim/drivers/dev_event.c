// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The event queue a driver opens in the simulated HCA, and the EQEs that
 * mean the same to every driver: a port that changed, a device that
 * failed (dev_event.h).
 */
#include "dev_event.h"
#include "uapi.h"

/* PORT_CHANGE sub-types and INTERNAL_ERROR: ibv_event_type */
static const struct {
	uint8_t eqe, sub;
	uint32_t ib;
} dev_events[] = {
	{HCA_EQE_INTERNAL_ERROR, 0, 8}, /* DEVICE_FATAL */
	{HCA_EQE_PORT_CHANGE, HCA_PORT_ACTIVE, 9},
	{HCA_EQE_PORT_CHANGE, HCA_PORT_DOWN, 10},
	{HCA_EQE_PORT_CHANGE, HCA_PORT_LID, 11},
	{HCA_EQE_PORT_CHANGE, HCA_PORT_PKEY, 12},
	{HCA_EQE_PORT_CHANGE, HCA_PORT_SM, 13},
	{HCA_EQE_PORT_CHANGE, HCA_PORT_CLIENT_REREG, 17},
	{HCA_EQE_PORT_CHANGE, HCA_PORT_GUID, 18},
};

struct dev_event {
	uint32_t ib, element;
};

static void device_event(struct sim_uvfile *uv, void *arg)
{
	const struct dev_event *e = arg;

	sim_device_event(uv, e->ib, e->element);
}

void sim_drv_dev_event(const struct hca_eqe *e)
{
	struct dev_event de = {.element = e->num};
	size_t i;

	for (i = 0; i < sizeof(dev_events) / sizeof(dev_events[0]); i++)
		if (dev_events[i].eqe == e->type &&
		    dev_events[i].sub == e->sub_type) {
			de.ib = dev_events[i].ib;
			sim_for_each_context(e->dev, device_event, &de);
			return;
		}
}

void sim_drv_eq_open(void (*fn)(const struct hca_eqe *e))
{
	static int done;
	struct hca_create_eq_in in = {
		.hdr.opcode = HCA_CMD_CREATE_EQ,
		.handler = fn,
	};
	struct hca_cmd_out out;

	if (!done)
		done = !hca_cmd_exec(&in, sizeof(in), &out, sizeof(out));
}
