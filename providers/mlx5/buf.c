// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Ring memory. The kernel pins it and the HCA writes it, so by default it
 * is page aligned, zeroed and kept out of fork() children (a child's
 * copy-on-write must never move a page the HCA writes). Where it comes
 * from, in upstream's order of precedence:
 *  - a CC parent domain (a confidential-computing guest's device reaches
 *    only memory shared with the host): a dma-buf of the shared heap,
 *    which the kernel is given by fd (BUF_UMEM), not by address;
 *  - a parent domain with both allocators: its alloc(), unless that says
 *    IBV_ALLOCATOR_USE_DEFAULT (NULL fails the object);
 *  - MLX_<CQ|QP|SRQ>_ALLOC_TYPE: ANON, HUGE (SysV huge pages), CONTIG
 *    (the kernel's contiguous pages, an mmap of cmd_fd), PREFER_HUGE and
 *    PREFER_CONTIG (falling back to ANON), ALL (HUGE, CONTIG, ANON);
 *  - anonymous memory, or HUGE under the older HUGE_CQ=y, HUGE_RC=y (per
 *    QP type) and the like.
 * A HUGE or CONTIG request the system cannot serve fails the creation
 * with its errno (no huge pages: ENOMEM; Linux has no contiguous pages
 * since 4.x: ENOSYS), as upstream.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/shm.h>

#include "datapath.h"
#include "dmabuf_heap.h"

#define HUGE_PAGE_SIZE (2ul << 20)
#define CONTIG_MIN_LOG 12
#define CONTIG_MAX_LOG 23

enum ring_pref {
	PREF_ANON,
	PREF_HUGE,
	PREF_CONTIG,
	PREF_PREFER_HUGE,
	PREF_PREFER_CONTIG,
	PREF_ALL,
};

static const char *const pref_names[] = {
	[PREF_ANON] = "ANON",
	[PREF_HUGE] = "HUGE",
	[PREF_CONTIG] = "CONTIG",
	[PREF_PREFER_HUGE] = "PREFER_HUGE",
	[PREF_PREFER_CONTIG] = "PREFER_CONTIG",
	[PREF_ALL] = "ALL",
};

/* @len bytes at @p are @buf now, kept out of fork() children. */
static int taken(struct mlx5_buf *buf, void *p, size_t len,
		 enum mlx5_buf_type type)
{
	madvise(p, len, MADV_DONTFORK);
	buf->addr = p;
	buf->length = len;
	buf->type = type;
	return 0;
}

int mlx5_alloc_buf(struct mlx5_buf *buf, size_t size, size_t page_size)
{
	size_t len = mlx5_align_up(size, page_size);
	void *p;

	if (!size)
		return EINVAL;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		return ENOMEM;
	return taken(buf, p, len, MLX5_BUF_ANON);
}

static int alloc_huge(struct mlx5_buf *buf, size_t size)
{
	size_t len = mlx5_align_up(size, HUGE_PAGE_SIZE);
	int id = shmget(IPC_PRIVATE, len, SHM_HUGETLB | SHM_R | SHM_W);
	void *p;

	if (id < 0)
		return errno;
	p = shmat(id, NULL, 0);
	/* Gone with its last detach; nothing to leak if the process dies. */
	shmctl(id, IPC_RMID, NULL);
	if (p == (void *)-1)
		return errno;
	return taken(buf, p, len, MLX5_BUF_HUGE);
}

static unsigned int log2_up(size_t n)
{
	unsigned int l = 0;

	while (((size_t)1 << l) < n)
		l++;
	return l;
}

/* The kernel's contiguous pages, largest block first (mmap command 1). */
static int alloc_contig(struct mlx5_context *ctx, struct mlx5_buf *buf,
			size_t size, const char *component)
{
	unsigned int page_log = log2_up(ctx->page_size), max_log, l;
	size_t len = mlx5_align_up(size, ctx->page_size);
	char name[64];
	const char *env;
	int err = ENOMEM;
	void *p;

	snprintf(name, sizeof(name), "%s_MAX_LOG2_CONTIG_BSIZE", component);
	env = getenv(name);
	max_log = env ? (unsigned int)atoi(env) : CONTIG_MAX_LOG;
	if (max_log > CONTIG_MAX_LOG || max_log < CONTIG_MIN_LOG)
		max_log = CONTIG_MAX_LOG;
	l = log2_up(len) < max_log ? log2_up(len) : max_log;
	for (; l >= CONTIG_MIN_LOG && l >= page_log; l--) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
			 ctx->ibv_ctx.context.cmd_fd,
			 mlx5_mmap_offset(MLX5_IB_MMAP_GET_CONTIGUOUS_PAGES,
					  l - page_log, ctx->page_size));
		if (p != MAP_FAILED) {
			buf->addr = p;
			buf->length = len;
			buf->type = MLX5_BUF_CONTIG;
			return 0;
		}
		err = errno;
		if (err == EINVAL)
			break;
	}
	return err;
}

/*
 * MLX_<component>_ALLOC_TYPE, case-insensitive; unknown reads as the
 * default, which the legacy variable (e.g. HUGE_CQ=y) makes HUGE.
 */
static enum ring_pref env_pref(const struct mlx5_ring_req *req)
{
	const char *val, *legacy;
	char name[64];
	unsigned int i;

	snprintf(name, sizeof(name), "MLX_%s_ALLOC_TYPE", req->component);
	val = getenv(name);
	for (i = 0; val && i < sizeof(pref_names) / sizeof(pref_names[0]); i++)
		if (!strcasecmp(val, pref_names[i]))
			return (enum ring_pref)i;
	legacy = req->legacy_huge ? getenv(req->legacy_huge) : NULL;
	return legacy && !strcmp(legacy, "y") ? PREF_HUGE : PREF_ANON;
}

static int alloc_by_env(struct mlx5_context *ctx, struct mlx5_buf *buf,
			size_t size, const struct mlx5_ring_req *req)
{
	enum ring_pref pref = req->component ? env_pref(req) : PREF_ANON;
	const char *component = req->component;

	switch (pref) {
	case PREF_HUGE:
		return alloc_huge(buf, size);
	case PREF_CONTIG:
		return alloc_contig(ctx, buf, size, component);
	case PREF_PREFER_HUGE:
	case PREF_ALL:
		if (!alloc_huge(buf, size))
			return 0;
		if (pref == PREF_PREFER_HUGE)
			break;
		/* fall through */
	case PREF_PREFER_CONTIG:
		if (!alloc_contig(ctx, buf, size, component))
			return 0;
		break;
	case PREF_ANON:
		break;
	}
	return mlx5_alloc_buf(buf, size, ctx->page_size);
}

int mlx5_alloc_dmabuf(struct mlx5_context *ctx, struct mlx5_buf *buf,
		      size_t size, struct ibv_dmabuf_heap *heap)
{
	size_t len = mlx5_align_up(size, ctx->page_size);
	void *p = ibv_dmabuf_heap_alloc(heap, len, &buf->dmabuf_fd);

	if (!p)
		return errno;
	return taken(buf, p, len, MLX5_BUF_DMABUF);
}

void *mlx5_custom_alloc(struct mlx5_parent_domain *mparent, size_t size,
			size_t alignment, uint64_t resource_type)
{
	void *p = mparent->alloc(&mparent->mpd.ibv_pd, mparent->pd_context,
				 size, alignment, resource_type);

	if (!p) {
		errno = ENOMEM;
		return NULL;
	}
	if (p != IBV_ALLOCATOR_USE_DEFAULT) {
		memset(p, 0, size);
		mlx5_get(&mparent->mpd.refcount);
	}
	return p;
}

void mlx5_custom_free(struct mlx5_parent_domain *owner, void *p,
		      uint64_t resource_type)
{
	owner->free(&owner->mpd.ibv_pd, owner->pd_context, p, resource_type);
	mlx5_put(&owner->mpd.refcount);
}

int mlx5_alloc_ring(struct mlx5_context *ctx, struct mlx5_buf *buf, size_t size,
		    const struct mlx5_ring_req *req)
{
	struct mlx5_parent_domain *mparent = mlx5_custom_allocator(req->pd);
	struct ibv_dmabuf_heap *heap = mlx5_cc_heap(req->pd);
	void *p;

	if (!size)
		return EINVAL;
	if (heap)
		return mlx5_alloc_dmabuf(ctx, buf, size, heap);
	if (mparent) {
		p = mlx5_custom_alloc(mparent, size, req->alignment,
				      req->resource_type);
		if (!p)
			return ENOMEM;
		if (p != IBV_ALLOCATOR_USE_DEFAULT) {
			buf->addr = p;
			buf->length = size;
			buf->type = MLX5_BUF_CUSTOM;
			buf->owner = mparent;
			buf->resource_type = req->resource_type;
			return 0;
		}
	}
	return alloc_by_env(ctx, buf, size, req);
}

void mlx5_free_buf(struct mlx5_buf *buf)
{
	if (!buf->addr)
		return;
	switch (buf->type) {
	case MLX5_BUF_CUSTOM:
		mlx5_custom_free(buf->owner, buf->addr, buf->resource_type);
		break;
	case MLX5_BUF_HUGE:
		shmdt(buf->addr);
		break;
	case MLX5_BUF_DMABUF:
		ibv_dmabuf_heap_free(buf->addr, buf->length, buf->dmabuf_fd);
		break;
	default:
		munmap(buf->addr, buf->length);
		break;
	}
	buf->addr = NULL;
	buf->length = 0;
}
