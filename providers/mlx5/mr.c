// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory regions over host memory, over a dma-buf, over a DM, and the null
 * MR (the device's dump-and-fill key: writes dropped, reads zeros).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "mlx5.h"

/* What the device can do with a DM MR (upstream's mask). */
#define MLX5_DM_MR_ACCESS                                                     \
	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |                    \
	 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC |                   \
	 IBV_ACCESS_ZERO_BASED | IBV_ACCESS_OPTIONAL_RANGE)

static struct ibv_mr *mr_done(struct verbs_mr *vmr, int err)
{
	if (err) {
		free(vmr);
		errno = err;
		return NULL;
	}
	return &vmr->ibv_mr;
}

struct ibv_mr *mlx5_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			   uint64_t hca_va, int access)
{
	struct verbs_mr *vmr = calloc(1, sizeof(*vmr));

	if (!vmr)
		return NULL;
	return mr_done(vmr, ibv_cmd_reg_mr(pd, addr, length, hca_va, access,
					   vmr, NULL));
}

static struct ibv_mr *reg_dmabuf(struct ibv_pd *pd, uint64_t offset,
				 size_t length, uint64_t iova, int fd,
				 int access, int mlx5_access)
{
	DECLARE_UVERBS_CMD(cmd, UVERBS_OBJECT_MR, UVERBS_METHOD_REG_DMABUF_MR,
			   1);
	struct verbs_mr *vmr;

	if (mlx5_access & ~MLX5DV_REG_DMABUF_ACCESS_DATA_DIRECT) {
		errno = EINVAL;
		return NULL;
	}
	vmr = calloc(1, sizeof(*vmr));
	if (!vmr)
		return NULL;
	/* Only sent when used, so kernels without the attribute still work. */
	if (mlx5_access)
		uverbs_attr_in_u32(
			cmd, RDMA_DM_MLX5_ATTR_REG_DMABUF_MR_ACCESS_FLAGS,
			(uint32_t)mlx5_access);
	return mr_done(vmr, ibv_cmd_reg_dmabuf_mr(pd, offset, length, iova, fd,
						  access, vmr, cmd));
}

struct ibv_mr *mlx5_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
				  size_t length, uint64_t iova, int fd,
				  int access)
{
	return reg_dmabuf(pd, offset, length, iova, fd, access, 0);
}

struct ibv_mr *mlx5dv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
				    size_t length, uint64_t iova, int fd,
				    int access, int mlx5_access)
{
	if (!pd) {
		errno = EINVAL;
		return NULL;
	}
	if (!mlx5_is_mlx5_context(pd->context)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return reg_dmabuf(pd, offset, length, iova, fd, access, mlx5_access);
}

struct ibv_mr *mlx5_reg_dm_mr(struct ibv_pd *pd, struct ibv_dm *dm,
			      uint64_t dm_offset, size_t length,
			      unsigned int access)
{
	struct verbs_mr *vmr;

	/* A DM MR is addressed by offset, so it must be zero-based. */
	if (!dm || (access & ~MLX5_DM_MR_ACCESS) ||
	    !(access & IBV_ACCESS_ZERO_BASED)) {
		errno = EINVAL;
		return NULL;
	}
	vmr = calloc(1, sizeof(*vmr));
	if (!vmr)
		return NULL;
	return mr_done(vmr, ibv_cmd_reg_dm_mr(pd, &to_mdm(dm)->verbs_dm,
					      dm_offset, length, access, vmr,
					      NULL));
}

/* An MR of another context sharing the cmd fd: QUERY_MR, nothing mapped. */
struct ibv_mr *mlx5_import_mr(struct ibv_pd *pd, uint32_t mr_handle)
{
	struct verbs_mr *vmr = calloc(1, sizeof(*vmr));

	if (!vmr)
		return NULL;
	return mr_done(vmr, ibv_cmd_query_mr(pd, vmr, mr_handle));
}

/* Only the local object goes: the MR is the registrant's to deregister. */
void mlx5_unimport_mr(struct ibv_mr *ibmr)
{
	free(verbs_get_mr(ibmr));
}

/*
 * No kernel object: the key is one the device reserves for every context
 * and reports at context open. A kernel that reports none has no null MR.
 */
struct ibv_mr *mlx5_alloc_null_mr(struct ibv_pd *pd)
{
	struct mlx5_context *ctx = to_mctx(pd->context);
	struct verbs_mr *vmr;

	if (!(ctx->resp_comp_mask &
	      MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_DUMP_FILL_MKEY)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	vmr = calloc(1, sizeof(*vmr));
	if (!vmr)
		return NULL;
	vmr->ibv_mr.context = pd->context;
	vmr->ibv_mr.pd = pd;
	vmr->ibv_mr.length = SIZE_MAX;
	vmr->ibv_mr.lkey = ctx->dump_fill_mkey;
	vmr->mr_type = IBV_MR_TYPE_NULL_MR;
	return &vmr->ibv_mr;
}

int mlx5_dereg_mr(struct verbs_mr *vmr)
{
	int err = 0;

	if (vmr->mr_type != IBV_MR_TYPE_NULL_MR)
		err = ibv_cmd_dereg_mr(vmr);
	if (err)
		return err;
	free(vmr);
	return 0;
}

/*
 * The extended registration (REG_MR, with a DMA handle when given). A
 * kernel without REG_MR still registers a dma-buf without DMA handle
 * through REG_DMABUF_MR, which every dma-buf capable kernel has.
 */
struct ibv_mr *mlx5_reg_mr_ex(struct ibv_pd *pd, struct ibv_mr_init_attr *a)
{
	struct verbs_mr *vmr = calloc(1, sizeof(*vmr));
	int err;

	if (!vmr)
		return NULL;
	err = ibv_cmd_reg_mr_ex(pd, vmr, a);
	if (err == EOPNOTSUPP && (a->comp_mask & IBV_REG_MR_MASK_FD) &&
	    !(a->comp_mask & IBV_REG_MR_MASK_DMAH)) {
		free(vmr);
		return reg_dmabuf(pd, a->fd_offset, a->length, a->iova, a->fd,
				  a->access, 0);
	}
	return mr_done(vmr, err);
}
