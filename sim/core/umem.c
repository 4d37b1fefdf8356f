// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Buffers a create command names by descriptor (BUF_UMEM attributes,
 * struct ib_uverbs_buffer_desc) instead of by a pinned user address: a
 * range of a dma-buf, which the kernel imports and the device reads and
 * writes through the dma-buf's own pages, whatever the process maps where;
 * or a user address range, pinned as every user range is (sim_pin_user:
 * in a confidential-computing guest, --cc-guest, never: EOPNOTSUPP, the
 * kernel's ib_umem_get() answer when DMA must bounce). The descriptor is
 * checked as the uverbs core checks it: flags must be 0, the type known, the
 * length non-zero and the range inside the dma-buf (EINVAL); an fd that is not
 * open is EBADF, one that is not a dma-buf EINVAL; a revoked export ENODEV. The
 * import holds a reference to the export until the object goes.
 */
#include "uapi.h"

#include <errno.h>
#include <string.h>

static int umem_dmabuf(const struct rdma_dm_buffer_desc *d, struct sim_umem *u)
{
	struct sim_dmabuf_import *imp;
	int err = 0;

	if (!sim_fd_of_program(d->fd))
		return -EBADF;
	imp = sim_dmabuf_import(d->fd, &err);
	if (!imp)
		return err;
	if (d->addr > imp->db->size || d->length > imp->db->size - d->addr) {
		sim_dmabuf_release(imp);
		return -EINVAL;
	}
	if (!sim_dmabuf_bytes(imp)) {
		err = sim_dmabuf_revoked(imp->db) ? -ENODEV : -ENOMEM;
		sim_dmabuf_release(imp);
		return err;
	}
	u->imp = imp;
	return 0;
}

int sim_pin_user(uint64_t addr, uint64_t len)
{
	const uint8_t *first = (const void *)(uintptr_t)addr;
	uint8_t b;

	/* A CoCo guest's device would DMA to bounce pages, not these. */
	if (sim.sh->cfg.cc_guest)
		return -EOPNOTSUPP;
	if (!addr || sim_copy_from_user(&b, first, 1) ||
	    sim_copy_from_user(&b, first + len - 1, 1))
		return -EFAULT;
	return 0;
}

int sim_umem_get(struct sim_call *c, uint16_t id, struct sim_umem *u)
{
	struct rdma_dm_buffer_desc d;
	int ret;

	memset(u, 0, sizeof(*u));
	if (!c || !sim_attr(c, id))
		return 0;
	ret = sim_attr_copy_in(c, id, &d, sizeof(d));
	if (ret)
		return ret;
	if (d.flags || !d.length)
		return -EINVAL;
	u->off = d.addr;
	u->len = d.length;
	switch (d.type) {
	case RDMA_DM_BUFFER_DESC_TYPE_DMABUF:
		ret = umem_dmabuf(&d, u);
		break;
	case RDMA_DM_BUFFER_DESC_TYPE_VA:
		ret = sim_pin_user(d.addr, d.length);
		break;
	default:
		ret = -EINVAL;
	}
	if (!ret)
		u->present = 1;
	return ret;
}

int sim_umem_ring(struct sim_call *c, uint16_t id, struct sim_umem *u)
{
	int ret = sim_umem_get(c, id, u);

	/* A driver that reads rings only at their addresses cannot use it. */
	return !ret && u->present && !sim_driver()->buf_umem ? -EOPNOTSUPP
							     : ret;
}

uint8_t *sim_umem_bytes(struct sim_umem *u)
{
	uint8_t *base;

	if (!u->present)
		return NULL;
	if (!u->imp)
		return (uint8_t *)(uintptr_t)u->off;
	base = sim_dmabuf_bytes(u->imp);
	return base ? base + u->off : NULL;
}

void sim_umem_put(struct sim_umem *u)
{
	if (u->imp)
		sim_dmabuf_release(u->imp);
	memset(u, 0, sizeof(*u));
}
