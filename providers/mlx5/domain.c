// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Thread domains and parent domains. A thread domain promises that one
 * thread at a time uses the objects created with it: its QPs share one
 * doorbell register and take no locks. A parent domain stands for a PD
 * (its handle and PD number are that PD's, the kernel never sees it) and
 * adds a thread domain, a caller's context pointer and the allocators the
 * rings of its CQs, QPs and SRQs are taken from. Nothing here sends a
 * command: both exist in the library only.
 */
#include <errno.h>
#include <stdlib.h>

#include "datapath.h"
#include "dmabuf_heap.h"

/* Bits of ibv_parent_domain_init_attr.comp_mask taken here. */
#define PARENT_DOMAIN_MASK                                                     \
	(IBV_PARENT_DOMAIN_INIT_ATTR_ALLOCATORS |                              \
	 IBV_PARENT_DOMAIN_INIT_ATTR_PD_CONTEXT |                              \
	 IBV_PARENT_DOMAIN_INIT_ATTR_ALLOW_CC_UNPROTECTED_ALLOC)

static struct mlx5_td *to_mtd(struct ibv_td *ibtd)
{
	return (struct mlx5_td *)ibtd;
}

struct ibv_td *mlx5_alloc_td(struct ibv_context *ibctx,
			     struct ibv_td_init_attr *attr)
{
	struct mlx5_td *td;

	if (!attr || attr->comp_mask) {
		errno = EINVAL;
		return NULL;
	}
	td = calloc(1, sizeof(*td));
	if (!td) {
		errno = ENOMEM;
		return NULL;
	}
	/* A BlueFlame register of its own, else the shared non-cached one. */
	td->bf = mlx5_pick_bf(to_mctx(ibctx));
	if (!td->bf) {
		free(td);
		return NULL;
	}
	td->ibv_td.context = ibctx;
	td->refcount = 1;
	return &td->ibv_td;
}

int mlx5_dealloc_td(struct ibv_td *ibtd)
{
	struct mlx5_td *td = to_mtd(ibtd);

	if (__atomic_load_n(&td->refcount, __ATOMIC_RELAXED) > 1)
		return EBUSY;
	mlx5_release_bf(to_mctx(ibtd->context), td->bf);
	free(td);
	return 0;
}

struct ibv_pd *
mlx5_alloc_parent_domain(struct ibv_context *ibctx,
			 struct ibv_parent_domain_init_attr *attr)
{
	struct mlx5_parent_domain *mparent;
	struct mlx5_pd *inner;

	if (!attr || !attr->pd || (attr->comp_mask & ~PARENT_DOMAIN_MASK)) {
		errno = EINVAL;
		return NULL;
	}
	mparent = calloc(1, sizeof(*mparent));
	if (!mparent) {
		errno = ENOMEM;
		return NULL;
	}
	/*
	 * Confidential-computing buffers only mean something on a device
	 * that bounces DMA; elsewhere the bit is accepted and ignored.
	 */
	if ((attr->comp_mask &
	     IBV_PARENT_DOMAIN_INIT_ATTR_ALLOW_CC_UNPROTECTED_ALLOC) &&
	    to_mctx(attr->pd->context)->cc_dma_bounce) {
		mparent->cc_heap = ibv_dmabuf_heap_cc_shared_init();
		if (!mparent->cc_heap) {
			free(mparent); /* errno is the heap's */
			return NULL;
		}
	}
	inner = to_mpd(attr->pd);
	if (attr->td) {
		mparent->mtd = to_mtd(attr->td);
		mlx5_get(&mparent->mtd->refcount);
	}
	mlx5_get(&inner->refcount);
	mparent->mpd.mprotection_domain = inner;
	mparent->mpd.pdn = inner->pdn;
	mparent->mpd.refcount = 1;
	/* The inner PD's context and handle: what commands will carry. */
	mparent->mpd.ibv_pd.context = attr->pd->context;
	mparent->mpd.ibv_pd.handle = attr->pd->handle;
	if (attr->comp_mask & IBV_PARENT_DOMAIN_INIT_ATTR_ALLOCATORS) {
		mparent->alloc = attr->alloc;
		mparent->free = attr->free;
	}
	if (attr->comp_mask & IBV_PARENT_DOMAIN_INIT_ATTR_PD_CONTEXT)
		mparent->pd_context = attr->pd_context;
	(void)ibctx; /* the inner PD says which context */
	return &mparent->mpd.ibv_pd;
}

int mlx5_dealloc_parent_domain(struct mlx5_parent_domain *mparent)
{
	if (__atomic_load_n(&mparent->mpd.refcount, __ATOMIC_RELAXED) > 1)
		return EBUSY;
	mlx5_put(&mparent->mpd.mprotection_domain->refcount);
	if (mparent->mtd)
		mlx5_put(&mparent->mtd->refcount);
	if (mparent->cc_heap)
		ibv_dmabuf_heap_destroy(mparent->cc_heap);
	free(mparent);
	return 0;
}
