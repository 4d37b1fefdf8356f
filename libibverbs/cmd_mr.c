// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Memory regions: plain, device-memory and dma-buf backed. */
#include <errno.h>

#include <rdma/ib_user_verbs.h>

#include "cmd_write.h"
#include "verbs_internal.h"

struct mr_result {
	uint32_t handle;
	uint32_t lkey;
	uint32_t rkey;
};

static void fill_mr(struct verbs_mr *vmr, struct ibv_pd *pd, void *addr,
		    size_t length, const struct mr_result *res,
		    enum ibv_mr_type type, int access)
{
	vmr->ibv_mr.context = pd->context;
	vmr->ibv_mr.pd = pd;
	vmr->ibv_mr.addr = addr;
	vmr->ibv_mr.length = length;
	vmr->ibv_mr.handle = res->handle;
	vmr->ibv_mr.lkey = res->lkey;
	vmr->ibv_mr.rkey = res->rkey;
	vmr->mr_type = type;
	vmr->access = access;
}

int ibv_cmd_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
		   uint64_t hca_va, int access, struct verbs_mr *vmr,
		   const struct ibv_udata *udata)
{
	struct ib_uverbs_reg_mr_resp resp;
	struct ib_uverbs_reg_mr req = {
		.start = (uintptr_t)addr,
		.length = length,
		.hca_va = hca_va,
		.pd_handle = pd->handle,
		.access_flags = (uint32_t)access,
	};
	struct mr_result res;
	int ret;

	ret = verbs_write_cmd(pd->context, IB_USER_VERBS_CMD_REG_MR, &req,
			      sizeof(req), &resp, sizeof(resp), udata);
	if (ret)
		return ret;
	res = (struct mr_result){resp.mr_handle, resp.lkey, resp.rkey};
	fill_mr(vmr, pd, addr, length, &res, IBV_MR_TYPE_MR, access);
	return 0;
}

int ibv_cmd_dereg_mr(struct verbs_mr *vmr)
{
	return verbs_cmd_destroy(vmr->ibv_mr.context, VERBS_OP_IDX(dereg_mr),
				 UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY,
				 vmr->ibv_mr.handle,
				 IB_USER_VERBS_CMD_DEREG_MR);
}

/* Asks for the keys into @res, runs @cmd and takes the new MR's handle. */
static int run_reg_mr(struct ibv_pd *pd, struct uverbs_cmd *cmd,
		      struct ib_uverbs_attr *handle, uint16_t lkey_attr,
		      uint16_t rkey_attr, struct mr_result *res)
{
	int ret;

	uverbs_attr_out_ptr(cmd, lkey_attr, &res->lkey, sizeof(res->lkey));
	uverbs_attr_out_ptr(cmd, rkey_attr, &res->rkey, sizeof(res->rkey));
	ret = verbs_execute_ioctl_only(pd->context, cmd);
	if (!ret)
		res->handle = uverbs_attr_handle(handle);
	return ret;
}

int ibv_cmd_reg_dm_mr(struct ibv_pd *pd, struct verbs_dm *dm, uint64_t offset,
		      size_t length, unsigned int access, struct verbs_mr *vmr,
		      struct uverbs_cmd *drv_cmd)
{
	DECLARE_UVERBS_CMD(local, UVERBS_OBJECT_MR, UVERBS_METHOD_DM_MR_REG, 0);
	struct uverbs_cmd *cmd = uverbs_cmd_pick(drv_cmd, local);
	struct ib_uverbs_attr *handle;
	struct mr_result res;
	int ret;

	/*
	 * Handles are per context: a DM of another context would name
	 * whatever DM has its number here. A DM has no process address:
	 * only zero-based MRs make sense.
	 */
	if (!VERBS_IN_CTX(&dm->dm, pd->context) ||
	    !(access & IBV_ACCESS_ZERO_BASED)) {
		errno = EINVAL;
		return EINVAL;
	}
	handle = uverbs_attr_new_obj(cmd, UVERBS_ATTR_REG_DM_MR_HANDLE);
	uverbs_attr_in_u64(cmd, UVERBS_ATTR_REG_DM_MR_OFFSET, offset);
	uverbs_attr_in_u64(cmd, UVERBS_ATTR_REG_DM_MR_LENGTH, length);
	uverbs_attr_in_obj(cmd, UVERBS_ATTR_REG_DM_MR_PD_HANDLE, pd->handle);
	uverbs_attr_in_u32(cmd, UVERBS_ATTR_REG_DM_MR_ACCESS_FLAGS, access);
	uverbs_attr_in_obj(cmd, UVERBS_ATTR_REG_DM_MR_DM_HANDLE, dm->handle);
	ret = run_reg_mr(pd, cmd, handle, UVERBS_ATTR_REG_DM_MR_RESP_LKEY,
			 UVERBS_ATTR_REG_DM_MR_RESP_RKEY, &res);
	if (ret)
		return ret;
	fill_mr(vmr, pd, NULL, length, &res, IBV_MR_TYPE_MR, (int)access);
	return 0;
}

int ibv_cmd_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length,
			  uint64_t iova, int fd, int access,
			  struct verbs_mr *vmr, struct uverbs_cmd *drv_cmd)
{
	DECLARE_UVERBS_CMD(local, UVERBS_OBJECT_MR, UVERBS_METHOD_REG_DMABUF_MR,
			   0);
	struct uverbs_cmd *cmd = uverbs_cmd_pick(drv_cmd, local);
	struct ib_uverbs_attr *handle;
	struct mr_result res;
	int ret;

	handle = uverbs_attr_new_obj(cmd, UVERBS_ATTR_REG_DMABUF_MR_HANDLE);
	uverbs_attr_in_obj(cmd, UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE,
			   pd->handle);
	uverbs_attr_in_u64(cmd, UVERBS_ATTR_REG_DMABUF_MR_OFFSET, offset);
	uverbs_attr_in_u64(cmd, UVERBS_ATTR_REG_DMABUF_MR_LENGTH, length);
	uverbs_attr_in_u64(cmd, UVERBS_ATTR_REG_DMABUF_MR_IOVA, iova);
	/* The kernel declares the fd as a plain u32 input here. */
	uverbs_attr_in_u32(cmd, UVERBS_ATTR_REG_DMABUF_MR_FD, (uint32_t)fd);
	uverbs_attr_in_u32(cmd, UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS,
			   (uint32_t)access);
	ret = run_reg_mr(pd, cmd, handle, UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY,
			 UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, &res);
	if (ret)
		return ret;
	fill_mr(vmr, pd, (void *)(uintptr_t)offset, length, &res,
		IBV_MR_TYPE_DMABUF_MR, access);
	return 0;
}

/*
 * An MR another context sharing this cmd fd registered (ibv_import_mr):
 * QUERY_MR gives its keys and length. The process address is the
 * registrant's, so none is asked for (and addr stays NULL).
 */
int ibv_cmd_query_mr(struct ibv_pd *pd, struct verbs_mr *vmr,
		     uint32_t mr_handle)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR, 4);
	struct mr_result res = {.handle = mr_handle};
	uint64_t length = 0;
	int ret;

	uverbs_attr_in_obj(cmd, UVERBS_ATTR_QUERY_MR_HANDLE, mr_handle);
	uverbs_attr_out_ptr(cmd, UVERBS_ATTR_QUERY_MR_RESP_LKEY, &res.lkey,
			    sizeof(res.lkey));
	uverbs_attr_out_ptr(cmd, UVERBS_ATTR_QUERY_MR_RESP_RKEY, &res.rkey,
			    sizeof(res.rkey));
	uverbs_attr_out_ptr(cmd, UVERBS_ATTR_QUERY_MR_RESP_LENGTH, &length,
			    sizeof(length));
	ret = verbs_execute_ioctl_only(pd->context, cmd);
	if (ret)
		return ret;
	fill_mr(vmr, pd, NULL, (size_t)length, &res, IBV_MR_TYPE_IMPORTED_MR,
		0);
	return 0;
}

/* The MR_REG attributes common to both paths of ibv_cmd_reg_mr_ex(). */
static struct ib_uverbs_attr *reg_mr_ex_attrs(struct uverbs_cmd *cmd,
					      struct ibv_pd *pd,
					      const struct ibv_mr_init_attr *a,
					      uint64_t iova, uint64_t length)
{
	struct ib_uverbs_attr *handle;

	handle = uverbs_attr_new_obj(cmd, RDMA_DM_ATTR_REG_MR_HANDLE);
	uverbs_attr_in_obj(cmd, RDMA_DM_ATTR_REG_MR_PD_HANDLE, pd->handle);
	if (a->comp_mask & IBV_REG_MR_MASK_DMAH)
		uverbs_attr_in_obj(cmd, RDMA_DM_ATTR_REG_MR_DMA_HANDLE,
				   verbs_get_dmah(a->dmah)->handle);
	uverbs_attr_in_u64(cmd, RDMA_DM_ATTR_REG_MR_IOVA, iova);
	uverbs_attr_in_u64(cmd, RDMA_DM_ATTR_REG_MR_LENGTH, length);
	uverbs_attr_in_u32(cmd, RDMA_DM_ATTR_REG_MR_ACCESS_FLAGS,
			   (uint32_t)a->access);
	return handle;
}

/* The address path: IOVA defaults to the address; implicit ODP. */
static int reg_mr_ex_addr(struct uverbs_cmd *cmd, struct ibv_pd *pd,
			  const struct ibv_mr_init_attr *a, uint64_t *length,
			  struct ib_uverbs_attr **handle)
{
	uint64_t iova = (a->comp_mask & IBV_REG_MR_MASK_IOVA) ?
				a->iova : (uintptr_t)a->addr;

	if (a->comp_mask & IBV_REG_MR_MASK_FD_OFFSET)
		return EINVAL;
	*length = a->length;
	if ((a->access & IBV_ACCESS_ON_DEMAND) && a->length == SIZE_MAX) {
		/* The whole address space: only without an address. */
		if (a->addr)
			return EINVAL;
		*length = UINT64_MAX;
	}
	*handle = reg_mr_ex_attrs(cmd, pd, a, iova, *length);
	uverbs_attr_in_u64(cmd, RDMA_DM_ATTR_REG_MR_ADDR, (uintptr_t)a->addr);
	return 0;
}

/* The dma-buf path: offset in the fd and the device's IOVA, no address. */
static int reg_mr_ex_fd(struct uverbs_cmd *cmd, struct ibv_pd *pd,
			const struct ibv_mr_init_attr *a,
			struct ib_uverbs_attr **handle)
{
	const uint64_t need = IBV_REG_MR_MASK_FD_OFFSET | IBV_REG_MR_MASK_IOVA;

	if ((a->comp_mask & need) != need ||
	    (a->comp_mask & IBV_REG_MR_MASK_ADDR))
		return EINVAL;
	*handle = reg_mr_ex_attrs(cmd, pd, a, a->iova, a->length);
	uverbs_attr_in_fd(cmd, RDMA_DM_ATTR_REG_MR_FD, a->fd);
	uverbs_attr_in_u64(cmd, RDMA_DM_ATTR_REG_MR_FD_OFFSET, a->fd_offset);
	return 0;
}

int ibv_cmd_reg_mr_ex(struct ibv_pd *pd, struct verbs_mr *vmr,
		      struct ibv_mr_init_attr *a)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_MR, RDMA_DM_METHOD_REG_MR, 11);
	bool by_fd = a->comp_mask & IBV_REG_MR_MASK_FD;
	bool has_write = !by_fd && !(a->comp_mask & IBV_REG_MR_MASK_DMAH);
	struct ib_uverbs_attr *handle = NULL;
	struct mr_result res;
	uint64_t length = a->length;
	int ret;

	if (!by_fd && !(a->comp_mask & IBV_REG_MR_MASK_ADDR))
		ret = EINVAL;
	else if (by_fd)
		ret = reg_mr_ex_fd(cmd, pd, a, &handle);
	else
		ret = reg_mr_ex_addr(cmd, pd, a, &length, &handle);
	if (ret)
		return verbs_set_errno(ret);

	uverbs_attr_out_ptr(cmd, RDMA_DM_ATTR_REG_MR_RESP_LKEY, &res.lkey,
			    sizeof(res.lkey));
	uverbs_attr_out_ptr(cmd, RDMA_DM_ATTR_REG_MR_RESP_RKEY, &res.rkey,
			    sizeof(res.rkey));
	ret = verbs_execute_or_fallback(pd->context, VERBS_OP_IDX(reg_mr_ex),
					cmd);
	if (ret == VERBS_USE_WRITE) {
		/* Only the plain address path exists as a write() command. */
		if (!has_write)
			return verbs_set_errno(EOPNOTSUPP);
		return ibv_cmd_reg_mr(pd, a->addr, (size_t)length,
				      (a->comp_mask & IBV_REG_MR_MASK_IOVA) ?
					      a->iova : (uintptr_t)a->addr,
				      a->access, vmr, NULL);
	}
	if (ret)
		return ret;
	res.handle = uverbs_attr_handle(handle);
	fill_mr(vmr, pd, by_fd ? (void *)(uintptr_t)a->fd_offset : a->addr,
		a->length, &res,
		by_fd ? IBV_MR_TYPE_DMABUF_MR : IBV_MR_TYPE_MR, a->access);
	return 0;
}

int ibv_cmd_rereg_mr(struct verbs_mr *vmr, uint32_t flags, void *addr,
		     size_t length, uint64_t hca_va, int access,
		     struct ibv_pd *pd, const struct ibv_udata *udata)
{
	struct ib_uverbs_rereg_mr_resp resp;
	struct ib_uverbs_rereg_mr req = {
		.mr_handle = vmr->ibv_mr.handle,
		.flags = flags,
		.start = (uintptr_t)addr,
		.length = length,
		.hca_va = hca_va,
		/* the kernel looks the PD up only for CHANGE_PD */
		.pd_handle = (flags & IBV_REREG_MR_CHANGE_PD) ? pd->handle : 0,
		.access_flags = (uint32_t)access,
	};
	int ret;

	ret = verbs_write_cmd(vmr->ibv_mr.context, IB_USER_VERBS_CMD_REREG_MR,
			      &req, sizeof(req), &resp, sizeof(resp), udata);
	if (ret)
		return ret;
	/* in place or a new mkey: the response has the keys either way */
	vmr->ibv_mr.lkey = resp.lkey;
	vmr->ibv_mr.rkey = resp.rkey;
	/* vmr->access stays the registration's: ibv_dereg_mr reads it to
	 * know whether the range was made DONTFORK */
	return 0;
}
