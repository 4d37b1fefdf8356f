// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* UVERBS_OBJECT_MR: user, DM and dma-buf MRs (REG_MR with DMA handles),
 * query, destroy. */
#include "restrack.h"
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
/* what REG_DMABUF_MR lets through its flags attribute */
#define SIM_ACCESS_DMABUF                                                      \
	(IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_REMOTE_READ |         \
	 IB_UVERBS_ACCESS_REMOTE_WRITE | IB_UVERBS_ACCESS_REMOTE_ATOMIC |      \
	 IB_UVERBS_ACCESS_RELAXED_ORDERING)
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
	/* a device without ODP (no advise_mr: rxe): 6.12 says EOPNOTSUPP */
	if ((flags & IB_UVERBS_ACCESS_ON_DEMAND) && !sim_driver()->advise_mr)
		return sim.sh->cfg.kernel_61 ? -EINVAL : -EOPNOTSUPP;
	return 0;
}

/* Keys are device-wide: index from the world's counter, key byte 0;
 * 0x100 is no key (mlx5's receive SGE list terminator). */
static void mr_new_keys(struct sim_mr *mr)
{
	sim_shared_lock(sim.sh);
	do
		mr->lkey = (uint32_t)(sim.sh->next_id++ << 8);
	while (mr->lkey == 0x100 || !mr->lkey);
	sim_shared_unlock(sim.sh);
	mr->rkey = mr->lkey;
}

void sim_mr_init(struct sim_mr *mr, struct sim_pd *pd, struct sim_dm *dm)
{
	mr->pd = pd;
	mr->dm = dm;
	mr->backing = dm ? SIM_MR_DM : SIM_MR_USER;
	mr_new_keys(mr);
	pd->obj.usecnt++;
	if (dm)
		dm->obj.usecnt++;
}

/* User memory a peer's HCA writes into: pinned as the kernel pins it,
 * ODP aside (dma_pin.c). */
static void mr_pin(struct sim_mr *mr)
{
	if (mr->access & IB_UVERBS_ACCESS_ON_DEMAND)
		return;
	sim_dma_pin(mr->addr, mr->length);
	mr->pinned = 1;
}

static void mr_unpin(struct sim_mr *mr)
{
	if (mr->pinned)
		sim_dma_unpin(mr->addr, mr->length);
	mr->pinned = 0;
}

/* The device's memory key for the MR (its keys and range are final). */
static int mr_to_device(struct sim_mr *mr)
{
	return sim_driver()->reg_mr ? sim_driver()->reg_mr(mr) : 0;
}

static void mr_release(struct sim_uvfile *uv, struct sim_obj *o)
{
	struct sim_mr *mr = sim_mr(o);

	if (sim_driver()->dereg_mr)
		sim_driver()->dereg_mr(mr);
	mr_unpin(mr);
	if (mr->pd) /* NULL: its create failed before taking it */
		mr->pd->obj.usecnt--;
	if (mr->dm)
		mr->dm->obj.usecnt--;
	if (mr->dmah)
		mr->dmah->obj.usecnt--;
	sim_dmabuf_release(mr->dmabuf);
}

static int put_keys(struct sim_call *c, struct sim_mr *mr, uint16_t lkey_id)
{
	int ret = mr_to_device(mr);

	if (!ret)
		ret = sim_attr_copy_out(c, lkey_id, &mr->lkey,
					sizeof(uint32_t));
	if (!ret)
		ret = sim_attr_copy_out(c, lkey_id + 1, &mr->rkey,
					sizeof(uint32_t));
	if (ret)
		return ret;
	snprintf(c->note, sizeof(c->note), "handle=%u lkey=%#x", mr->obj.handle,
		 mr->lkey);
	return 0;
}

static int dm_mr_reg(struct sim_call *c)
{
	struct sim_pd *pd =
		sim_pd(sim_attr_obj(c, UVERBS_ATTR_REG_DM_MR_PD_HANDLE));
	struct sim_dm *dm =
		sim_dm(sim_attr_obj(c, UVERBS_ATTR_REG_DM_MR_DM_HANDLE));
	uint64_t off = sim_attr_u64(c, UVERBS_ATTR_REG_DM_MR_OFFSET, 0);
	uint64_t len = sim_attr_u64(c, UVERBS_ATTR_REG_DM_MR_LENGTH, 0);
	struct sim_mr *mr =
		sim_mr(sim_attr_obj(c, UVERBS_ATTR_REG_DM_MR_HANDLE));
	uint64_t acc;

	if (sim_attr_flags(c, UVERBS_ATTR_REG_DM_MR_ACCESS_FLAGS,
			   SIM_ACCESS_KNOWN, &acc))
		return -EINVAL;
	if (!(acc & IB_UVERBS_ACCESS_ZERO_BASED) || sim_check_mr_access(acc))
		return -EINVAL;
	/* Only the range is checked: a 0-byte MR of a DM is fine. */
	if (len > dm->length || off > dm->length - len)
		return -EINVAL;
	if (dm->alloc >= 0 && (acc & ~(uint64_t)SIM_ACCESS_DM_MEMIC))
		return -EINVAL;
	sim_mr_init(mr, pd, dm);
	mr->offset = off;
	mr->length = len;
	mr->iova = 0; /* ZERO_BASED */
	mr->access = (uint32_t)acc;
	return put_keys(c, mr, UVERBS_ATTR_REG_DM_MR_RESP_LKEY);
}

/* A dma-buf MR over fd's buffer once the access flags passed. */
static int dmabuf_mr(struct sim_mr *mr, struct sim_pd *pd, int fd, uint64_t off,
		     uint64_t len, uint64_t iova, uint64_t acc)
{
	uint64_t page = sim.sh->cfg.page_size;
	struct sim_dmabuf_import *imp;
	int err;

	if ((off & (page - 1)) != (iova & (page - 1)) || off + len < off ||
	    iova + len < iova || !len)
		return -EINVAL;
	if (!sim_fd_of_program(fd))
		return -EBADF;
	imp = sim_dmabuf_import(fd, &err);
	if (!imp)
		return err;
	if (off + len > imp->db->size || sim_dmabuf_revoked(imp->db)) {
		err = off + len > imp->db->size ? -EINVAL : -ENODEV;
		sim_dmabuf_release(imp);
		return err;
	}
	sim_mr_init(mr, pd, NULL);
	mr->backing = SIM_MR_DMABUF;
	mr->dmabuf = imp;
	mr->offset = off;
	mr->length = len;
	mr->iova = iova;
	mr->access = (uint32_t)acc;
	return 0;
}

static int reg_dmabuf_mr(struct sim_call *c)
{
	struct sim_pd *pd =
		sim_pd(sim_attr_obj(c, UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE));
	uint64_t off = sim_attr_u64(c, UVERBS_ATTR_REG_DMABUF_MR_OFFSET, 0);
	uint64_t len = sim_attr_u64(c, UVERBS_ATTR_REG_DMABUF_MR_LENGTH, 0);
	uint64_t iova = sim_attr_u64(c, UVERBS_ATTR_REG_DMABUF_MR_IOVA, 0);
	int fd =
		(int)(uint32_t)sim_attr_u64(c, UVERBS_ATTR_REG_DMABUF_MR_FD, 0);
	struct sim_mr *mr =
		sim_mr(sim_attr_obj(c, UVERBS_ATTR_REG_DMABUF_MR_HANDLE));
	uint64_t acc;
	int err;

	if (!sim_driver()->reg_dmabuf_mr)
		return -EOPNOTSUPP; /* before the fd is even looked at */
	if (sim_attr_flags(c, UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS,
			   SIM_ACCESS_DMABUF, &acc) ||
	    sim_check_mr_access(acc))
		return -EINVAL;
	err = dmabuf_mr(mr, pd, fd, off, len, iova, acc);
	if (err)
		return err;
	return put_keys(c, mr, UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY);
}

/* What REG_MR (write() or ioctl) checks of user memory: 0 or -errno. */
static int user_mr_check(uint64_t addr, uint64_t len, uint64_t iova,
			 uint64_t acc)
{
	uint64_t page = sim.sh->cfg.page_size;
	int err;

	if ((addr & (page - 1)) != (iova & (page - 1)))
		return -EINVAL;
	err = sim_check_mr_access(acc); /* uverbs checks before the driver */
	if (err)
		return err;
	if (!len || addr + len < addr)
		return -EINVAL;
	return sim_mr_odp_check(addr, len, iova, acc);
}

/*
 * A user-memory MR the checks passed: 0, or EOPNOTSUPP when a CoCo
 * guest's kernel refuses to pin the pages (ODP aside). The pages
 * themselves are looked at when the HCA uses them.
 */
static int user_mr(struct sim_mr *mr, struct sim_pd *pd, uint64_t addr,
		   uint64_t len, uint64_t iova, uint64_t acc)
{
	if (sim.sh->cfg.cc_guest && !(acc & IB_UVERBS_ACCESS_ON_DEMAND))
		return -EOPNOTSUPP;
	sim_mr_init(mr, pd, NULL);
	mr->addr = addr;
	mr->length = len;
	mr->iova = iova;
	mr->access = (uint32_t)acc;
	mr_pin(mr);
	return 0;
}

/*
 * UVERBS_METHOD_REG_MR (5, after 6.1): user memory (ADDR) or a dma-buf
 * (FD + FD_OFFSET), optionally with a DMA handle, in the kernel's order:
 * which path, then the handle, then the access flags of that path.
 */
static int reg_mr(struct sim_call *c)
{
	struct sim_pd *pd =
		sim_pd(sim_attr_obj(c, RDMA_DM_ATTR_REG_MR_PD_HANDLE));
	struct sim_dmah *dmah =
		sim_dmah(sim_attr_obj(c, RDMA_DM_ATTR_REG_MR_DMA_HANDLE));
	uint64_t iova = sim_attr_u64(c, RDMA_DM_ATTR_REG_MR_IOVA, 0);
	uint64_t len = sim_attr_u64(c, RDMA_DM_ATTR_REG_MR_LENGTH, 0);
	uint64_t addr = sim_attr_u64(c, RDMA_DM_ATTR_REG_MR_ADDR, 0);
	uint64_t off = sim_attr_u64(c, RDMA_DM_ATTR_REG_MR_FD_OFFSET, 0);
	int has_fd = sim_attr(c, RDMA_DM_ATTR_REG_MR_FD) != NULL;
	int has_off = sim_attr(c, RDMA_DM_ATTR_REG_MR_FD_OFFSET) != NULL;
	int has_addr = sim_attr(c, RDMA_DM_ATTR_REG_MR_ADDR) != NULL;
	int fd = sim_attr_raw_fd(c, RDMA_DM_ATTR_REG_MR_FD);
	uint64_t page = sim.sh->cfg.page_size, acc;
	struct sim_mr *mr = sim_mr(sim_attr_obj(c, RDMA_DM_ATTR_REG_MR_HANDLE));
	int err;

	if (has_fd && !sim_driver()->reg_dmabuf_mr)
		return -EOPNOTSUPP;
	if (has_fd ? !has_off || has_addr : !has_addr || has_off)
		return -EINVAL;
	if (((has_fd ? off : addr) ^ iova) & (page - 1))
		return -EINVAL;
	if (sim_attr_flags(c, RDMA_DM_ATTR_REG_MR_ACCESS_FLAGS,
			   has_fd ? SIM_ACCESS_DMABUF : SIM_ACCESS_KNOWN, &acc))
		return -EINVAL;
	err = sim_check_mr_access(acc);
	if (err)
		return err;
	/* mlx5: steering tags are not for on-demand paging */
	if (dmah && (acc & IB_UVERBS_ACCESS_ON_DEMAND))
		return -EOPNOTSUPP;
	if (has_fd) {
		err = dmabuf_mr(mr, pd, fd, off, len, iova, acc);
	} else {
		err = user_mr_check(addr, len, iova, acc);
		if (!err)
			err = user_mr(mr, pd, addr, len, iova, acc);
	}
	if (err)
		return err;
	if (dmah) {
		mr->dmah = dmah;
		dmah->obj.usecnt++;
	}
	return put_keys(c, mr, RDMA_DM_ATTR_REG_MR_RESP_LKEY);
}

/* Any MR of the file, as the kernel: keys and length, iova if asked. */
static int query_mr(struct sim_call *c)
{
	struct sim_mr *mr = sim_mr(sim_attr_obj(c, UVERBS_ATTR_QUERY_MR_HANDLE));
	int ret;

	ret = sim_attr_copy_out(c, UVERBS_ATTR_QUERY_MR_RESP_LKEY, &mr->lkey,
				sizeof(uint32_t));
	if (!ret)
		ret = sim_attr_copy_out(c, UVERBS_ATTR_QUERY_MR_RESP_RKEY,
					&mr->rkey, sizeof(uint32_t));
	if (!ret)
		ret = sim_attr_copy_out(c, UVERBS_ATTR_QUERY_MR_RESP_LENGTH,
					&mr->length, sizeof(uint64_t));
	if (!ret) /* optional: absent, nothing is written */
		ret = sim_attr_copy_out(c, UVERBS_ATTR_QUERY_MR_RESP_IOVA,
					&mr->iova, sizeof(uint64_t));
	snprintf(c->note, sizeof(c->note), "handle=%u lkey=%#x", mr->obj.handle,
		 mr->lkey);
	return ret;
}

static const struct sim_attr_spec dm_mr_reg_attrs[] = {
	A_IDR(UVERBS_ATTR_REG_DM_MR_HANDLE, sim_type_mr, SA_NEW),
	A_IN(UVERBS_ATTR_REG_DM_MR_OFFSET, 8, 8, 1),
	A_IN(UVERBS_ATTR_REG_DM_MR_LENGTH, 8, 8, 1),
	A_IDR(UVERBS_ATTR_REG_DM_MR_PD_HANDLE, sim_type_pd, SA_READ),
	A_FLAGS(UVERBS_ATTR_REG_DM_MR_ACCESS_FLAGS, 0),
	A_IDR(UVERBS_ATTR_REG_DM_MR_DM_HANDLE, sim_type_dm, SA_READ),
	A_OUT(UVERBS_ATTR_REG_DM_MR_RESP_LKEY, 4, 4, 1),
	A_OUT(UVERBS_ATTR_REG_DM_MR_RESP_RKEY, 4, 4, 1),
};

static const struct sim_attr_spec reg_dmabuf_mr_attrs[] = {
	A_IDR(UVERBS_ATTR_REG_DMABUF_MR_HANDLE, sim_type_mr, SA_NEW),
	A_IDR(UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, sim_type_pd, SA_READ),
	A_IN(UVERBS_ATTR_REG_DMABUF_MR_OFFSET, 8, 8, 1),
	A_IN(UVERBS_ATTR_REG_DMABUF_MR_LENGTH, 8, 8, 1),
	A_IN(UVERBS_ATTR_REG_DMABUF_MR_IOVA, 8, 8, 1),
	A_IN(UVERBS_ATTR_REG_DMABUF_MR_FD, 4, 4, 1),
	A_FLAGS(UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, 0),
	A_OUT(UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, 4, 4, 1),
	A_OUT(UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, 4, 4, 1),
};

static int reg_mr_hidden(void)
{
	return !sim_driver()->reg_mr_method;
}

static const struct sim_attr_spec reg_mr_attrs[] = {
	A_IDR(RDMA_DM_ATTR_REG_MR_HANDLE, sim_type_mr, SA_NEW),
	A_IDR(RDMA_DM_ATTR_REG_MR_PD_HANDLE, sim_type_pd, SA_READ),
	A_IDR_OPT(RDMA_DM_ATTR_REG_MR_DMA_HANDLE, sim_type_dmah, SA_READ),
	A_IN(RDMA_DM_ATTR_REG_MR_IOVA, 8, 8, 1),
	A_IN(RDMA_DM_ATTR_REG_MR_ADDR, 8, 8, 0),
	A_IN(RDMA_DM_ATTR_REG_MR_LENGTH, 8, 8, 1),
	A_FLAGS(RDMA_DM_ATTR_REG_MR_ACCESS_FLAGS, 0),
	A_RAW_FD(RDMA_DM_ATTR_REG_MR_FD, 0),
	A_IN(RDMA_DM_ATTR_REG_MR_FD_OFFSET, 8, 8, 0),
	A_OUT(RDMA_DM_ATTR_REG_MR_RESP_LKEY, 4, 4, 1),
	A_OUT(RDMA_DM_ATTR_REG_MR_RESP_RKEY, 4, 4, 1),
};

static const struct sim_attr_spec query_mr_attrs[] = {
	A_IDR(UVERBS_ATTR_QUERY_MR_HANDLE, sim_type_mr, SA_READ),
	A_OUT(UVERBS_ATTR_QUERY_MR_RESP_LKEY, 4, 4, 1),
	A_OUT(UVERBS_ATTR_QUERY_MR_RESP_RKEY, 4, 4, 1),
	A_OUT(UVERBS_ATTR_QUERY_MR_RESP_LENGTH, 8, 8, 1),
	A_OUT(UVERBS_ATTR_QUERY_MR_RESP_IOVA, 8, 8, 0),
};

static const struct sim_attr_spec advise_mr_attrs[] = {
	A_IDR(UVERBS_ATTR_ADVISE_MR_PD_HANDLE, sim_type_pd, SA_READ),
	A_CONST(UVERBS_ATTR_ADVISE_MR_ADVICE, 1),
	A_FLAGS(UVERBS_ATTR_ADVISE_MR_FLAGS, 1),
	A_IN(UVERBS_ATTR_ADVISE_MR_SGE_LIST, sizeof(struct ib_uverbs_sge),
	     4096, 1),
};

static const struct sim_attr_spec mr_destroy_attrs[] = {
	A_IDR(UVERBS_ATTR_DESTROY_MR_HANDLE, sim_type_mr, SA_DESTROY),
};

#define MR(m, n, f, a)                                                         \
	SIM_METHOD(UVERBS_OBJECT_MR, "MR", m, n, f, a, SIM_M_NEEDS_CTX)

static const struct sim_method mr_methods[] = {
	MR(UVERBS_METHOD_DM_MR_REG, "DM_MR_REG", dm_mr_reg, dm_mr_reg_attrs),
	MR(UVERBS_METHOD_MR_DESTROY, "MR_DESTROY", sim_destroy_method,
	   mr_destroy_attrs),
	MR(UVERBS_METHOD_REG_DMABUF_MR, "REG_DMABUF_MR", reg_dmabuf_mr,
	   reg_dmabuf_mr_attrs),
	{.obj = UVERBS_OBJECT_MR,
	 .method = RDMA_DM_METHOD_REG_MR,
	 .obj_name = "MR",
	 .name = "REG_MR",
	 .fn = reg_mr,
	 .attrs = reg_mr_attrs,
	 .nattrs = ARRAY_SIZE(reg_mr_attrs),
	 .flags = SIM_M_NEEDS_CTX,
	 .hidden = reg_mr_hidden},
	MR(UVERBS_METHOD_QUERY_MR, "QUERY_MR", query_mr, query_mr_attrs),
	MR(UVERBS_METHOD_ADVISE_MR, "ADVISE_MR", sim_mr_advise,
	   advise_mr_attrs),
};
static int w_reg_mr(struct sim_wcall *w)
{
	const struct ib_uverbs_reg_mr *req = w->in;
	struct ib_uverbs_reg_mr_resp r = {};
	struct sim_mr *mr = sim_mr(w->obj);
	struct sim_obj *pd;
	int err;

	err = user_mr_check(req->start, req->length, req->hca_va,
			    req->access_flags);
	if (err)
		return err;
	pd = sim_obj_get(w->uv, req->pd_handle, &sim_type_pd, &err);
	if (!pd)
		return err;
	err = user_mr(mr, sim_pd(pd), req->start, req->length, req->hca_va,
		      req->access_flags);
	if (err)
		return err;
	r.mr_handle = mr->obj.handle;
	r.lkey = mr->lkey;
	r.rkey = mr->rkey;
	err = mr_to_device(mr);
	if (err)
		return err;
	return sim_wc_out(w, &r, sizeof(r));
}

static int w_dereg_mr(struct sim_wcall *w)
{
	return sim_wc_destroy(w, &sim_type_mr);
}

/* REREG_MR flags (the kernel's IB_MR_REREG_*) */
enum {
	SIM_REREG_TRANS = 1,
	SIM_REREG_PD = 2,
	SIM_REREG_ACCESS = 4,
	SIM_REREG_KNOWN = 7,
};

/* The access bits mlx5 can change by UMR on the live mkey. */
#define SIM_ACCESS_UMR                                                         \
	(IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_REMOTE_WRITE |        \
	 IB_UVERBS_ACCESS_REMOTE_READ | IB_UVERBS_ACCESS_REMOTE_ATOMIC |       \
	 IB_UVERBS_ACCESS_RELAXED_ORDERING)

/*
 * mlx5_ib_rereg_user_mr once the core's checks passed: without a new
 * translation, a PD change and access changes UMR can make happen in place
 * (same keys); other access changes need a new mkey over the same pages
 * (new keys; a dma-buf MR cannot: EOPNOTSUPP). A new translation is a new
 * registration of user memory (new keys). Returns 0 or -errno.
 */
static int mlx5_rereg(struct sim_mr *mr, uint32_t flags,
		      const struct ib_uverbs_rereg_mr *req, struct sim_pd *pd)
{
	uint32_t acc = (flags & SIM_REREG_ACCESS) ? req->access_flags
						     : mr->access;
	int err;

	/* every check first: the device's key goes only for the new one */
	if (flags & SIM_REREG_TRANS) {
		err = user_mr_check(req->start, req->length, req->hca_va, acc);
		if (err)
			return err;
	} else if (((mr->access ^ acc) & ~(uint32_t)SIM_ACCESS_UMR) &&
		   mr->backing != SIM_MR_USER) {
		return -EOPNOTSUPP;
	}
	if (sim_driver()->dereg_mr)
		sim_driver()->dereg_mr(mr);
	if (flags & SIM_REREG_TRANS) {
		if (mr->backing == SIM_MR_DMABUF)
			sim_dmabuf_release(mr->dmabuf);
		mr->dmabuf = NULL;
		mr->backing = SIM_MR_USER;
		mr_unpin(mr);
		mr->addr = req->start;
		mr->length = req->length;
		mr->iova = req->hca_va;
		mr->access = acc;
		mr_pin(mr);
		mr_new_keys(mr);
	} else if ((mr->access ^ acc) & ~(uint32_t)SIM_ACCESS_UMR) {
		mr_new_keys(mr);
	}
	if (pd) {
		mr->pd->obj.usecnt--;
		pd->obj.usecnt++;
		mr->pd = pd;
	}
	mr->access = acc;
	return mr_to_device(mr);
}

/* REREG_MR (write 11) in ib_uverbs_rereg_mr's order, then the driver. */
static int w_rereg_mr(struct sim_wcall *w)
{
	const struct ib_uverbs_rereg_mr *req = w->in;
	struct ib_uverbs_rereg_mr_resp r = {};
	uint64_t page = sim.sh->cfg.page_size;
	uint32_t flags = req->flags;
	struct sim_obj *o, *pd = NULL;
	struct sim_mr *mr;
	int err;

	if (!sim_driver()->rules->rereg_mr)
		return -EOPNOTSUPP; /* the method exists with the driver op */
	if (!flags)
		return -EINVAL;
	if (flags & ~(uint32_t)SIM_REREG_KNOWN)
		return -EOPNOTSUPP;
	if ((flags & SIM_REREG_TRANS) &&
	    ((req->start ^ req->hca_va) & (page - 1)))
		return -EINVAL;
	o = sim_obj_get(w->uv, req->mr_handle, &sim_type_mr, &err);
	if (!o)
		return err;
	mr = sim_mr(o);
	if (mr->backing == SIM_MR_DM)
		return -EINVAL;
	err = flags & SIM_REREG_ACCESS ? sim_check_mr_access(req->access_flags)
				       : 0;
	if (err)
		return err;
	if (flags & SIM_REREG_PD) {
		pd = sim_obj_get(w->uv, req->pd_handle, &sim_type_pd, &err);
		if (!pd)
			return err;
		if (sim_pd(pd) == mr->pd)
			pd = NULL; /* the same PD: nothing to move */
	}
	err = mlx5_rereg(mr, flags, req, sim_pd(pd));
	if (err)
		return err;
	sim_res_touch(o);
	r.lkey = mr->lkey;
	r.rkey = mr->rkey;
	snprintf(w->note, sizeof(w->note), "handle=%u lkey=%#x",
		 mr->obj.handle, mr->lkey);
	return sim_wc_out(w, &r, sizeof(r));
}

static const struct sim_wcmd mr_wcmds[] = {
	{IB_USER_VERBS_CMD_REG_MR, "REG_MR", sizeof(struct ib_uverbs_reg_mr),
	 sizeof(struct ib_uverbs_reg_mr_resp), 1, 1, w_reg_mr},
	{IB_USER_VERBS_CMD_DEREG_MR, "DEREG_MR",
	 sizeof(struct ib_uverbs_dereg_mr), 0, 0, 1, w_dereg_mr},
	{IB_USER_VERBS_CMD_REREG_MR, "REREG_MR",
	 sizeof(struct ib_uverbs_rereg_mr),
	 sizeof(struct ib_uverbs_rereg_mr_resp), 1, 1, w_rereg_mr},
};

const struct sim_obj_type sim_type_mr = {
	.name = "MR",
	.uapi_id = UVERBS_OBJECT_MR,
	.size = sizeof(struct sim_mr),
	.order = SIM_ORDER_USERS,
	.destroy = mr_release,
	.methods = mr_methods,
	.nmethods = ARRAY_SIZE(mr_methods),
	.wcmds = mr_wcmds,
	.nwcmds = ARRAY_SIZE(mr_wcmds),
	.wcreates = {IB_USER_VERBS_CMD_REG_MR},
};
SIM_OBJ_TYPE(sim_type_mr);
