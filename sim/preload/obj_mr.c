// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* UVERBS_OBJECT_MR: DM MRs, dma-buf MRs, destroy. */
#include "uapi.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

#define SIM_ACCESS_KNOWN                                                       \
	(IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_REMOTE_WRITE |        \
	 IB_UVERBS_ACCESS_REMOTE_READ | IB_UVERBS_ACCESS_REMOTE_ATOMIC |       \
	 IB_UVERBS_ACCESS_MW_BIND | IB_UVERBS_ACCESS_ZERO_BASED |              \
	 IB_UVERBS_ACCESS_ON_DEMAND | IB_UVERBS_ACCESS_HUGETLB |               \
	 IB_UVERBS_ACCESS_OPTIONAL_RANGE)
#define SIM_ACCESS_DM_MEMIC                                                    \
	(IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_REMOTE_WRITE |        \
	 IB_UVERBS_ACCESS_REMOTE_READ | IB_UVERBS_ACCESS_REMOTE_ATOMIC |       \
	 IB_UVERBS_ACCESS_ZERO_BASED)

int sim_check_mr_access(uint64_t flags)
{
	if (flags & ~(uint64_t)SIM_ACCESS_KNOWN)
		return -EINVAL;
	/* remote write/atomic need local write, as ib_check_mr_access says */
	if ((flags & (IB_UVERBS_ACCESS_REMOTE_WRITE |
		      IB_UVERBS_ACCESS_REMOTE_ATOMIC)) &&
	    !(flags & IB_UVERBS_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	return 0;
}

struct sim_obj *sim_mr_new(struct sim_uvfile *uv, struct sim_obj *pd,
			   struct sim_obj *dm)
{
	struct sim_obj *mr = sim_obj_new(uv, SIM_OBJ_MR);

	if (!mr)
		return NULL;
	mr->mr.pd = pd;
	mr->mr.dm = dm;
	/* keys are device-wide: index from the world's counter, key byte 0 */
	sim_shared_lock(sim.sh);
	mr->mr.lkey = (uint32_t)(sim.sh->next_id++ << 8);
	sim_shared_unlock(sim.sh);
	pd->usecnt++;
	if (dm)
		dm->usecnt++;
	return mr;
}

static int put_keys(struct sim_call *c, struct sim_obj *mr, uint16_t lkey_id,
		    uint16_t handle_id)
{
	int ret;

	ret = sim_attr_copy_out(c, lkey_id, &mr->mr.lkey, sizeof(uint32_t));
	if (!ret)
		ret = sim_attr_copy_out(c, lkey_id + 1, &mr->mr.lkey,
					sizeof(uint32_t));
	if (ret) {
		sim_obj_destroy(c->uv, mr);
		return ret;
	}
	sim_attr_set_new(c, handle_id, mr->handle);
	snprintf(c->note, sizeof(c->note), "handle=%u lkey=%#x", mr->handle,
		 mr->mr.lkey);
	return 0;
}

static int dm_mr_reg(struct sim_call *c)
{
	struct sim_obj *pd = sim_attr_obj(c, UVERBS_ATTR_REG_DM_MR_PD_HANDLE);
	struct sim_obj *dm = sim_attr_obj(c, UVERBS_ATTR_REG_DM_MR_DM_HANDLE);
	uint64_t off = sim_attr_u64(c, UVERBS_ATTR_REG_DM_MR_OFFSET, 0);
	uint64_t len = sim_attr_u64(c, UVERBS_ATTR_REG_DM_MR_LENGTH, 0);
	uint64_t acc = sim_attr_u64(c, UVERBS_ATTR_REG_DM_MR_ACCESS_FLAGS, 0);
	struct sim_obj *mr;

	if (!(acc & IB_UVERBS_ACCESS_ZERO_BASED) || sim_check_mr_access(acc))
		return -EINVAL;
	if (off > dm->dm.length || len > dm->dm.length ||
	    len > dm->dm.length - off)
		return -EINVAL;
	if (dm->dm.alloc >= 0 && (acc & ~(uint64_t)SIM_ACCESS_DM_MEMIC))
		return -EINVAL;
	mr = sim_mr_new(c->uv, pd, dm);
	if (!mr)
		return -ENOMEM;
	return put_keys(c, mr, UVERBS_ATTR_REG_DM_MR_RESP_LKEY,
			UVERBS_ATTR_REG_DM_MR_HANDLE);
}

static int reg_dmabuf_mr(struct sim_call *c)
{
	struct sim_obj *pd =
		sim_attr_obj(c, UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE);
	uint64_t off = sim_attr_u64(c, UVERBS_ATTR_REG_DMABUF_MR_OFFSET, 0);
	uint64_t len = sim_attr_u64(c, UVERBS_ATTR_REG_DMABUF_MR_LENGTH, 0);
	uint64_t iova = sim_attr_u64(c, UVERBS_ATTR_REG_DMABUF_MR_IOVA, 0);
	uint64_t acc =
		sim_attr_u64(c, UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, 0);
	int fd =
		(int)(uint32_t)sim_attr_u64(c, UVERBS_ATTR_REG_DMABUF_MR_FD, 0);
	uint64_t page = sim.sh->cfg.page_size;
	struct sim_fd *f;
	struct sim_obj *mr;

	if (!sim_driver()->reg_dmabuf_mr)
		return -EOPNOTSUPP; /* before the fd is even looked at */
	if (sim_check_mr_access(acc))
		return -EINVAL;
	if ((off & (page - 1)) != (iova & (page - 1)) || off + len < off ||
	    iova + len < iova || !len)
		return -EINVAL;
	if (fd < 0 || real.fcntl(fd, F_GETFD) < 0)
		return -EBADF;
	f = sim_fd_get(fd);
	if (!f || f->kind != SIM_FD_DMABUF)
		return -EINVAL;
	if (off + len > f->db->size)
		return -EINVAL;
	if (sim.sh->exports[f->db->slot].revoked)
		return -ENODEV;
	mr = sim_mr_new(c->uv, pd, NULL);
	if (!mr)
		return -ENOMEM;
	return put_keys(c, mr, UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY,
			UVERBS_ATTR_REG_DMABUF_MR_HANDLE);
}

static int mr_destroy(struct sim_call *c)
{
	return sim_obj_destroy(c->uv,
			       sim_attr_obj(c, UVERBS_ATTR_DESTROY_MR_HANDLE));
}

static const struct sim_attr_spec dm_mr_reg_attrs[] = {
	A_IDR(UVERBS_ATTR_REG_DM_MR_HANDLE, SIM_OBJ_MR, SA_NEW),
	A_IN(UVERBS_ATTR_REG_DM_MR_OFFSET, 8, 8, 1),
	A_IN(UVERBS_ATTR_REG_DM_MR_LENGTH, 8, 8, 1),
	A_IDR(UVERBS_ATTR_REG_DM_MR_PD_HANDLE, SIM_OBJ_PD, SA_READ),
	A_IN(UVERBS_ATTR_REG_DM_MR_ACCESS_FLAGS, 4, 4, 1),
	A_IDR(UVERBS_ATTR_REG_DM_MR_DM_HANDLE, SIM_OBJ_DM, SA_READ),
	A_OUT(UVERBS_ATTR_REG_DM_MR_RESP_LKEY, 4, 4, 1),
	A_OUT(UVERBS_ATTR_REG_DM_MR_RESP_RKEY, 4, 4, 1),
};

static const struct sim_attr_spec reg_dmabuf_mr_attrs[] = {
	A_IDR(UVERBS_ATTR_REG_DMABUF_MR_HANDLE, SIM_OBJ_MR, SA_NEW),
	A_IDR(UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, SIM_OBJ_PD, SA_READ),
	A_IN(UVERBS_ATTR_REG_DMABUF_MR_OFFSET, 8, 8, 1),
	A_IN(UVERBS_ATTR_REG_DMABUF_MR_LENGTH, 8, 8, 1),
	A_IN(UVERBS_ATTR_REG_DMABUF_MR_IOVA, 8, 8, 1),
	A_IN(UVERBS_ATTR_REG_DMABUF_MR_FD, 4, 4, 1),
	A_IN(UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, 4, 4, 1),
	A_OUT(UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, 4, 4, 1),
	A_OUT(UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, 4, 4, 1),
};

static const struct sim_attr_spec mr_destroy_attrs[] = {
	A_IDR(UVERBS_ATTR_DESTROY_MR_HANDLE, SIM_OBJ_MR, SA_DESTROY),
};

#define MR(m, n, f, a)                                                         \
	SIM_METHOD(UVERBS_OBJECT_MR, "MR", m, n, f, a, SIM_M_NEEDS_CTX)

const struct sim_method sim_mr_methods[] = {
	MR(UVERBS_METHOD_DM_MR_REG, "DM_MR_REG", dm_mr_reg, dm_mr_reg_attrs),
	MR(UVERBS_METHOD_MR_DESTROY, "MR_DESTROY", mr_destroy,
	   mr_destroy_attrs),
	MR(UVERBS_METHOD_REG_DMABUF_MR, "REG_DMABUF_MR", reg_dmabuf_mr,
	   reg_dmabuf_mr_attrs),
};
const unsigned int sim_mr_nmethods = ARRAY_SIZE(sim_mr_methods);
