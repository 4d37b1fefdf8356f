// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* UVERBS_OBJECT_DMABUF (18): export an mmap entry as a dma-buf fd. */
#include "uapi.h"

#include <errno.h>
#include <stdio.h>

static int dmabuf_alloc(struct sim_call *c)
{
	uint64_t off = sim_attr_u64(c, RDMA_SIM_ATTR_ALLOC_DMABUF_PGOFF, 0);
	struct sim_entry *e = sim_driver()->pgoff_to_entry(c->uv, off);
	int fd;

	if (!e)
		return -EINVAL;
	fd = sim_dmabuf_export(c->uv, e);
	if (fd < 0)
		return fd;
	sim_attr_set_new(c, RDMA_SIM_ATTR_ALLOC_DMABUF_HANDLE, (uint64_t)fd);
	snprintf(c->note, sizeof(c->note), "fd=%d size=%llu", fd,
		 (unsigned long long)e->npages * sim.sh->cfg.page_size);
	return 0;
}

static const struct sim_attr_spec dmabuf_alloc_attrs[] = {
	A_FD_NEW(RDMA_SIM_ATTR_ALLOC_DMABUF_HANDLE),
	A_IN(RDMA_SIM_ATTR_ALLOC_DMABUF_PGOFF, 8, 8, 1),
};

const struct sim_method sim_dmabuf_methods[] = {
	SIM_METHOD(RDMA_SIM_OBJECT_DMABUF, "DMABUF", 0, "DMABUF_ALLOC",
		   dmabuf_alloc, dmabuf_alloc_attrs, SIM_M_NEEDS_CTX),
};
const unsigned int sim_dmabuf_nmethods = ARRAY_SIZE(sim_dmabuf_methods);
