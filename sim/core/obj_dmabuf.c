// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* UVERBS_OBJECT_DMABUF (18): export an mmap entry as a dma-buf fd. */
#include "uapi.h"

#include <errno.h>
#include <stdio.h>

static int dmabuf_alloc(struct sim_call *c)
{
	uint64_t off = sim_attr_u64(c, RDMA_DM_ATTR_ALLOC_DMABUF_PGOFF, 0);
	struct sim_entry *e = sim_driver()->pgoff_to_entry(c->uv, off);
	int fd;

	if (!e)
		return -EINVAL;
	fd = sim_dmabuf_export(c->uv, e);
	if (fd < 0)
		return fd;
	sim_attr_set_new(c, RDMA_DM_ATTR_ALLOC_DMABUF_HANDLE, (uint64_t)fd);
	snprintf(c->note, sizeof(c->note), "fd=%d size=%llu", fd,
		 (unsigned long long)e->npages * sim.sh->cfg.page_size);
	return 0;
}

static const struct sim_attr_spec dmabuf_alloc_attrs[] = {
	A_FD_NEW(RDMA_DM_ATTR_ALLOC_DMABUF_HANDLE),
	A_IN(RDMA_DM_ATTR_ALLOC_DMABUF_PGOFF, 8, 8, 1),
};

static const struct sim_method dmabuf_methods[] = {
	SIM_METHOD(RDMA_DM_OBJECT_DMABUF, "DMABUF", RDMA_DM_METHOD_DMABUF_ALLOC,
		   "DMABUF_ALLOC", dmabuf_alloc, dmabuf_alloc_attrs,
		   SIM_M_NEEDS_CTX),
};

/* Kernels before the object, or a driver that cannot export pages. */
static int dmabuf_hidden(void)
{
	return sim.sh->cfg.no_dmabuf || !sim_driver()->pgoff_to_entry;
}

/* The exports are fds (struct sim_dmabuf), not handles. */
static const struct sim_obj_type dmabuf_type = {
	.name = "DMABUF",
	.uapi_id = RDMA_DM_OBJECT_DMABUF,
	.abort_fd = sim_fd_discard,
	.hidden = dmabuf_hidden,
	.methods = dmabuf_methods,
	.nmethods = ARRAY_SIZE(dmabuf_methods),
};
SIM_OBJ_TYPE(dmabuf_type);
