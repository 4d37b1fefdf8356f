// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UVERBS_OBJECT_DMAH (17): a DMA handle, the TPH processing hint (PH) and
 * optional steering tag (CPU and memory type) that an MR's DMA carries.
 * The core checks what uverbs checks: the CPU must be one the caller may
 * run on (EPERM), PH is two bits (EINVAL), the memory type an element of
 * its enum (EOPNOTSUPP, by the framework); the driver decides the rest.
 * Drivers without the ops have no object (EPROTONOSUPPORT).
 */
#include "uapi.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>

static int cpu_allowed(uint32_t cpu)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	return cpu < CPU_SETSIZE && CPU_ISSET(cpu, &set);
}

static int dmah_alloc(struct sim_call *c)
{
	struct sim_call_attr *mt =
		sim_attr(c, RDMA_DM_ATTR_ALLOC_DMAH_TPH_MEM_TYPE);
	struct sim_dmah *d =
		sim_dmah(sim_attr_obj(c, RDMA_DM_ATTR_ALLOC_DMAH_HANDLE));
	int ret;

	if (sim_attr(c, RDMA_DM_ATTR_ALLOC_DMAH_CPU_ID)) {
		ret = sim_attr_copy_in(c, RDMA_DM_ATTR_ALLOC_DMAH_CPU_ID,
				       &d->cpu_id, sizeof(d->cpu_id));
		if (ret)
			return ret;
		if (!cpu_allowed(d->cpu_id))
			return -EPERM;
		d->valid |= SIM_DMAH_CPU_ID;
	}
	if (mt) {
		d->mem_type = (uint8_t)mt->u->attr_data.enum_data.elem_id;
		d->valid |= SIM_DMAH_MEM_TYPE;
	}
	if (sim_attr(c, RDMA_DM_ATTR_ALLOC_DMAH_PH)) {
		ret = sim_attr_copy_in(c, RDMA_DM_ATTR_ALLOC_DMAH_PH, &d->ph,
				       1);
		if (ret)
			return ret;
		if (d->ph & 0xfc) /* PCIe: only the low two bits exist */
			return -EINVAL;
		d->valid |= SIM_DMAH_PH;
	}
	ret = sim_driver()->alloc_dmah(d);
	if (ret)
		return ret;
	snprintf(c->note, sizeof(c->note), "handle=%u ph=%u st_index=%u",
		 d->obj.handle, d->ph, d->st_index);
	return 0;
}

static const struct sim_attr_spec dmah_alloc_attrs[] = {
	A_IDR(RDMA_DM_ATTR_ALLOC_DMAH_HANDLE, sim_type_dmah, SA_NEW),
	A_IN(RDMA_DM_ATTR_ALLOC_DMAH_CPU_ID, 4, 4, 0),
	A_ENUM(RDMA_DM_ATTR_ALLOC_DMAH_TPH_MEM_TYPE, 2, 0),
	A_IN(RDMA_DM_ATTR_ALLOC_DMAH_PH, 1, 1, 0),
};

static const struct sim_attr_spec dmah_free_attrs[] = {
	A_IDR(RDMA_DM_ATTR_FREE_DMA_HANDLE, sim_type_dmah, SA_DESTROY),
};

#define DMAH(m, n, f, a)                                                       \
	SIM_METHOD(RDMA_DM_OBJECT_DMAH, "DMAH", m, n, f, a, SIM_M_NEEDS_CTX)

static const struct sim_method dmah_methods[] = {
	DMAH(RDMA_DM_METHOD_DMAH_ALLOC, "DMAH_ALLOC", dmah_alloc,
	     dmah_alloc_attrs),
	DMAH(RDMA_DM_METHOD_DMAH_FREE, "DMAH_FREE", sim_destroy_method,
	     dmah_free_attrs),
};

static int dmah_hidden(void)
{
	return !sim_driver()->alloc_dmah;
}

const struct sim_obj_type sim_type_dmah = {
	.name = "DMAH",
	.uapi_id = RDMA_DM_OBJECT_DMAH,
	.size = sizeof(struct sim_dmah),
	.order = SIM_ORDER_ROOTS,
	.hidden = dmah_hidden,
	.methods = dmah_methods,
	.nmethods = ARRAY_SIZE(dmah_methods),
};
SIM_OBJ_TYPE(sim_type_dmah);
