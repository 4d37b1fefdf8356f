// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Doorbell records: each CQ, QP and SRQ has one, a cache line of its own
 * inside shared pages, so the kernel pins one page for many queues. The
 * queues of a CC parent domain take theirs from pages that are dma-bufs
 * of the shared heap (the kernel gets the page's fd and the record's
 * offset); such a page never holds an ordinary queue's record.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datapath.h"

struct mlx5_dbrec_page {
	struct mlx5_dbrec_page *next;
	struct mlx5_buf buf;
	unsigned int nslots;
	unsigned int used;
	uint64_t free[]; /* bit set: slot free */
};

static struct mlx5_dbrec_page *new_page(struct mlx5_context *ctx,
					struct ibv_dmabuf_heap *heap)
{
	unsigned int nslots = (unsigned int)(ctx->page_size /
					     ctx->cache_line_size);
	unsigned int words = (nslots + 63) / 64, i;
	struct mlx5_dbrec_page *pg;
	int err;

	pg = calloc(1, sizeof(*pg) + words * sizeof(uint64_t));
	if (!pg)
		return NULL;
	err = heap ? mlx5_alloc_dmabuf(ctx, &pg->buf, ctx->page_size, heap)
		   : mlx5_alloc_buf(&pg->buf, ctx->page_size, ctx->page_size);
	if (err) {
		free(pg);
		return NULL;
	}
	pg->nslots = nslots;
	for (i = 0; i < nslots; i++)
		pg->free[i / 64] |= 1ull << (i % 64);
	return pg;
}

/*
 * The pages are MADV_DONTFORK: a forked child has the list but not the
 * memory. In a child, forget the parent's pages (their metadata only: the
 * addresses are not mapped here, or are something else now) so that it
 * takes fresh ones, as it would from a fresh context. Under dbrec_lock.
 */
static void own_pages(struct mlx5_dp_context *dp)
{
	pid_t self = getpid();
	struct mlx5_dbrec_page *pg;

	if (dp->dbrec_pid == self)
		return;
	while ((pg = dp->dbrec_pages)) {
		dp->dbrec_pages = pg->next;
		free(pg);
	}
	dp->dbrec_pid = self;
}

__be32 *mlx5_alloc_dbrec(struct mlx5_context *ctx, struct ibv_dmabuf_heap *heap)
{
	struct mlx5_dp_context *dp = ctx->dp;
	bool want_dmabuf = heap != NULL;
	struct mlx5_dbrec_page *pg;
	__be32 *db = NULL;
	unsigned int w, bit;

	pthread_mutex_lock(&dp->dbrec_lock);
	own_pages(dp);
	for (pg = dp->dbrec_pages; pg; pg = pg->next)
		if (pg->used < pg->nslots &&
		    (pg->buf.type == MLX5_BUF_DMABUF) == want_dmabuf)
			break;
	if (!pg) {
		pg = new_page(ctx, heap);
		if (!pg)
			goto out;
		pg->next = dp->dbrec_pages;
		dp->dbrec_pages = pg;
	}
	for (w = 0; !pg->free[w]; w++)
		;
	bit = (unsigned int)__builtin_ctzll(pg->free[w]);
	pg->free[w] &= ~(1ull << bit);
	pg->used++;
	db = (__be32 *)((uint8_t *)pg->buf.addr +
			(w * 64 + bit) * ctx->cache_line_size);
	/* Both words start at 0: the HCA reads them right away. */
	db[0] = 0;
	db[1] = 0;
out:
	pthread_mutex_unlock(&dp->dbrec_lock);
	if (!db)
		errno = ENOMEM;
	return db;
}

/* The page holding @db, and its offset there (under dbrec_lock). */
static struct mlx5_dbrec_page **find_page(struct mlx5_dp_context *dp,
					  __be32 *db, size_t *off)
{
	struct mlx5_dbrec_page **pp, *pg;

	for (pp = &dp->dbrec_pages; (pg = *pp); pp = &pg->next) {
		*off = (size_t)((uint8_t *)db - (uint8_t *)pg->buf.addr);
		if ((uint8_t *)db >= (uint8_t *)pg->buf.addr &&
		    *off < pg->buf.length)
			return pp;
	}
	return NULL;
}

int mlx5_dbrec_dmabuf(struct mlx5_context *ctx, __be32 *db, int *fd,
		      size_t *off)
{
	struct mlx5_dp_context *dp = ctx->dp;
	struct mlx5_dbrec_page **pp;
	int ret = -1;

	pthread_mutex_lock(&dp->dbrec_lock);
	own_pages(dp);
	pp = find_page(dp, db, off);
	if (pp && (*pp)->buf.type == MLX5_BUF_DMABUF) {
		*fd = (*pp)->buf.dmabuf_fd;
		ret = 0;
	}
	pthread_mutex_unlock(&dp->dbrec_lock);
	return ret;
}

void mlx5_free_dbrec(struct mlx5_context *ctx, __be32 *db)
{
	struct mlx5_dp_context *dp = ctx->dp;
	struct mlx5_dbrec_page **pp, *pg;
	size_t off;
	unsigned int slot;

	pthread_mutex_lock(&dp->dbrec_lock);
	own_pages(dp);
	pp = find_page(dp, db, &off);
	if (pp) {
		pg = *pp;
		slot = (unsigned int)(off / ctx->cache_line_size);
		pg->free[slot / 64] |= 1ull << (slot % 64);
		/* An empty page goes back, so a closed context maps none. */
		if (!--pg->used) {
			*pp = pg->next;
			mlx5_free_buf(&pg->buf);
			free(pg);
		}
	}
	pthread_mutex_unlock(&dp->dbrec_lock);
}

__be32 *mlx5_alloc_dbrec_pd(struct mlx5_context *ctx, struct ibv_pd *pd,
			    struct mlx5_parent_domain **owner)
{
	struct mlx5_parent_domain *mparent = mlx5_custom_allocator(pd);
	__be32 *db;

	*owner = NULL;
	if (mlx5_cc_heap(pd))
		return mlx5_alloc_dbrec(ctx, mlx5_cc_heap(pd));
	if (mparent) {
		db = mlx5_custom_alloc(mparent, 8, 8, MLX5DV_RES_TYPE_DBR);
		if (!db)
			return NULL;
		if (db != IBV_ALLOCATOR_USE_DEFAULT) {
			*owner = mparent;
			return db;
		}
	}
	return mlx5_alloc_dbrec(ctx, NULL);
}

void mlx5_free_dbrec_pd(struct mlx5_context *ctx, __be32 *db,
			struct mlx5_parent_domain *owner)
{
	if (!owner) {
		mlx5_free_dbrec(ctx, db);
		return;
	}
	mlx5_custom_free(owner, db, MLX5DV_RES_TYPE_DBR);
}
