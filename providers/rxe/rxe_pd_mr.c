// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Protection domains and memory regions: plain kernel objects on rxe. */
#include <stdlib.h>

#include "rxe.h"

struct ibv_pd *rxe_alloc_pd(struct ibv_context *ctx)
{
	struct ibv_pd *pd = calloc(1, sizeof(*pd));
	int err;

	if (!pd)
		return NULL;
	err = ibv_cmd_alloc_pd(ctx, pd, NULL);
	if (err) {
		free(pd);
		errno = err;
		return NULL;
	}
	return pd;
}

int rxe_dealloc_pd(struct ibv_pd *pd)
{
	int err = ibv_cmd_dealloc_pd(pd);

	if (!err)
		free(pd);
	return err;
}

struct ibv_mr *rxe_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			  uint64_t hca_va, int access)
{
	struct verbs_mr *vmr = calloc(1, sizeof(*vmr));
	int err;

	if (!vmr)
		return NULL;
	err = ibv_cmd_reg_mr(pd, addr, length, hca_va, access, vmr, NULL);
	if (err) {
		free(vmr);
		errno = err;
		return NULL;
	}
	return &vmr->ibv_mr;
}

/* Reaches the kernel, which answers for rxe (EOPNOTSUPP on 6.1/6.12). */
struct ibv_mr *rxe_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
				 size_t length, uint64_t iova, int fd,
				 int access)
{
	struct verbs_mr *vmr = calloc(1, sizeof(*vmr));
	int err;

	if (!vmr)
		return NULL;
	err = ibv_cmd_reg_dmabuf_mr(pd, offset, length, iova, fd, access, vmr,
				    NULL);
	if (err) {
		free(vmr);
		errno = err;
		return NULL;
	}
	return &vmr->ibv_mr;
}

int rxe_dereg_mr(struct verbs_mr *vmr)
{
	int err = ibv_cmd_dereg_mr(vmr);

	if (!err)
		free(vmr);
	return err;
}
