/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Private state of the mlx5 provider: the device, the context opened on
 * it, and the objects it hands out (PD, MR, DM). One .c file per topic:
 * device.c (matching), context.c + context_pages.c (open/close), query.c,
 * pd.c, mr.c, dm.c + dm_copy.c, dv.c (mlx5dv entry points).
 */
#ifndef MLX5_PROVIDER_H
#define MLX5_PROVIDER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "driver.h"
#include <infiniband/mlx5dv.h>
#include <rdma/mlx5-abi.h>

/* Kernel ABI range of the mlx5 uverbs driver. */
#define MLX5_UVERBS_MIN_ABI_VERSION 1
#define MLX5_UVERBS_MAX_ABI_VERSION 1

/* At most this many ports are queried and cached at open. */
#define MLX5_MAX_PORTS_NUM 2

/* Each UAR page holds two bfregs that are not fast-path. */
#define MLX5_NON_FP_BFREGS_PER_UAR 2
#define MLX5_DEF_TOT_BFREGS	   16
#define MLX5_DEF_LOW_LAT_BFREGS	   4
#define MLX5_MAX_BFREGS		   512
#define MLX5_MAX_SHARED_BFREGS	   12
/* A UAR is 4 KiB whatever the system page size. */
#define MLX5_UAR_SIZE 4096

struct mlx5_device {
	struct verbs_device verbs_dev;
	size_t page_size;
};

/* One mmap of the cmd fd, remembered so close can undo it. */
struct mlx5_mapping {
	void *addr; /* NULL when not mapped */
	size_t length;
	off_t offset; /* the mmap() offset on cmd_fd it came from */
};

struct mlx5_context;

/*
 * A UAR page handed out by mlx5dv_devx_alloc_uar(). Dedicated ones own a
 * UAR object (handle, map) and sit on the context's list until freed or
 * the context closes; the NC singleton is the context's own page.
 */
/*
 * A node of the context's lists of what it releases at close (DMs,
 * dedicated UARs); mlx5_list_add/del change them under dm_lock.
 */
struct mlx5_list_node {
	struct mlx5_list_node *prev, *next;
};

#define mlx5_list_entry(node, T, member)                                       \
	((T *)((char *)(node)-offsetof(T, member)))

struct mlx5_devx_uar {
	struct mlx5dv_devx_uar dv;
	struct mlx5_context *ctx;
	uint32_t handle;
	bool singleton;
	struct mlx5_mapping map;
	struct mlx5_list_node node; /* the context's devx_uars */
};

/* What mlx5dv_query_device reports from EX_QUERY_DEVICE's mlx5 part. */
struct mlx5_dv_caps {
	uint64_t flags; /* MLX5DV_CONTEXT_FLAGS_* of the device */
	struct mlx5dv_cqe_comp_caps cqe_comp;
	struct mlx5dv_sw_parsing_caps sw_parsing;
	struct mlx5dv_striding_rq_caps striding_rq;
	struct mlx5dv_dci_streams_caps dci_streams;
	uint32_t tunnel_offloads;
	/* all zero: the kernel offers no out-of-order receive QPs */
	struct mlx5dv_ooo_recv_wrs_caps ooo_recv_wrs;
};

struct mlx5_context {
	struct verbs_context ibv_ctx;
	size_t page_size;

	/* From the alloc_ucontext response. */
	uint32_t tot_bfregs;
	uint32_t num_uars_per_page;
	uint8_t cqe_version;
	uint8_t cmds_supp_uhw;
	uint16_t num_ports;
	uint64_t resp_comp_mask;
	uint32_t dump_fill_mkey; /* the null MR's lkey, with its comp_mask bit */
	uint64_t hca_core_clock_offset;
	uint32_t num_dyn_bfregs;
	uint16_t flow_action_flags;
	bool devx;
	/* Queue limits of the alloc_ucontext response (data path sizing). */
	uint32_t bf_reg_size;
	uint32_t cache_line_size;
	uint32_t max_sq_desc_sz;
	uint32_t max_rq_desc_sz;
	uint32_t max_send_wqebb;
	uint32_t max_recv_wr;
	uint32_t max_srq_recv_wr;

	/* Legacy static UAR pages (only when tot_bfregs != 0). */
	struct mlx5_mapping *uar_pages;
	unsigned int num_uar_pages;
	struct mlx5_mapping core_clock;
	struct mlx5_mapping clock_info;
	/* The singleton non-cached UAR object and its mapping. */
	struct mlx5_mapping nc_uar;
	uint32_t nc_uar_handle;
	uint32_t nc_uar_page_id;
	bool have_nc_uar;
	/* The NC singleton as mlx5dv_devx_alloc_uar() hands it out. */
	struct mlx5_devx_uar nc_devx_uar;
	/* Dedicated devx UARs (under dm_lock), released at close. */
	struct mlx5_list_node *devx_uars;

	uint64_t max_dm_size;
	/* IBV_DEVICE_CC_DMA_BOUNCE: a CoCo guest, DMA only to shared memory. */
	bool cc_dma_bounce;
	uint8_t link_layer[MLX5_MAX_PORTS_NUM];
	enum ibv_atomic_cap atomic_cap;
	struct mlx5_dv_caps dv_caps; /* refreshed by every device query */

	/* Data path: see datapath.h. */
	struct mlx5_dp_context *dp;

	/*
	 * DMs still mapped, so closing the context can unmap them: a live
	 * mapping would keep the kernel context (and its dma-bufs) alive.
	 */
	int dm_lock; /* dm_list; mlx5_dm_list_lock() */
	struct mlx5_list_node *dm_list;
};

/*
 * A PD, or a parent domain (domain.c): one with @mprotection_domain set,
 * which is the PD it stands for (its handle and number are that PD's; it
 * has no kernel object of its own). @refcount counts the PD itself and
 * whatever holds it: parent domains on a PD, CQs and QPs on a parent
 * domain. Freeing it while held is EBUSY.
 */
struct mlx5_pd {
	struct ibv_pd ibv_pd;
	uint32_t pdn;
	int refcount;
	struct mlx5_pd *mprotection_domain;
};

struct mlx5_bf;

/* A thread domain: one doorbell register its QPs share without a lock. */
struct mlx5_td {
	struct ibv_td ibv_td;
	struct mlx5_bf *bf;
	int refcount;
};

struct ibv_dmabuf_heap;

struct mlx5_parent_domain {
	struct mlx5_pd mpd;
	struct mlx5_td *mtd;
	/* ALLOW_CC_UNPROTECTED_ALLOC on a CC_DMA_BOUNCE device: ibv_alloc_buf
	 * memory comes from this heap (NULL otherwise). */
	struct ibv_dmabuf_heap *cc_heap;
	void *(*alloc)(struct ibv_pd *pd, void *pd_context, size_t size,
		       size_t alignment, uint64_t resource_type);
	void (*free)(struct ibv_pd *pd, void *pd_context, void *ptr,
		     uint64_t resource_type);
	void *pd_context;
};

/*
 * A DM. The base MEMIC mapping is fixed at allocation: memic_map.offset is
 * the byte offset it was mapped at on cmd_fd and is what an export sends.
 * Op-address pages (mlx5dv_dm_map_op_addr) belong to the caller and are not
 * recorded here, so nothing can make an export pick one of them.
 */
struct mlx5_dm {
	struct verbs_dm verbs_dm;
	enum mlx5dv_alloc_dm_type type;
	size_t length;		       /* as requested */
	struct mlx5_mapping memic_map; /* empty for SW-ICM */
	uint8_t *start;		     /* DM offset 0; NULL for SW-ICM */
	uint64_t remote_va;	     /* SW-ICM device address */
	struct mlx5_list_node node;  /* the context's dm_list */
};

/*
 * dm_list is held for a few pointer stores: a spin on one word, inline,
 * since alloc and free each take it once (a libc call costs as much).
 */
static inline void mlx5_dm_list_lock(struct mlx5_context *ctx)
{
	while (__atomic_exchange_n(&ctx->dm_lock, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&ctx->dm_lock, __ATOMIC_RELAXED))
			;
}

static inline void mlx5_dm_list_unlock(struct mlx5_context *ctx)
{
	__atomic_store_n(&ctx->dm_lock, 0, __ATOMIC_RELEASE);
}

static inline void mlx5_list_add(struct mlx5_context *ctx,
				 struct mlx5_list_node **head,
				 struct mlx5_list_node *n)
{
	mlx5_dm_list_lock(ctx);
	n->prev = NULL;
	n->next = *head;
	if (n->next)
		n->next->prev = n;
	*head = n;
	mlx5_dm_list_unlock(ctx);
}

static inline void mlx5_list_del(struct mlx5_context *ctx,
				 struct mlx5_list_node **head,
				 struct mlx5_list_node *n)
{
	mlx5_dm_list_lock(ctx);
	if (n->prev)
		n->prev->next = n->next;
	else
		*head = n->next;
	if (n->next)
		n->next->prev = n->prev;
	mlx5_dm_list_unlock(ctx);
}

static inline struct mlx5_device *to_mdev(struct ibv_device *ibdev)
{
	return (struct mlx5_device *)ibdev;
}

static inline struct mlx5_context *to_mctx(struct ibv_context *ibctx)
{
	return (struct mlx5_context *)((uint8_t *)ibctx -
				       offsetof(struct mlx5_context,
						ibv_ctx.context));
}

static inline struct mlx5_pd *to_mpd(struct ibv_pd *ibpd)
{
	return (struct mlx5_pd *)ibpd;
}

/* NULL for a plain PD. */
static inline struct mlx5_parent_domain *to_mparent_domain(struct ibv_pd *ibpd)
{
	struct mlx5_pd *pd = to_mpd(ibpd);

	return pd && pd->mprotection_domain ? (struct mlx5_parent_domain *)pd
					    : NULL;
}

static inline void mlx5_get(int *refcount)
{
	__atomic_add_fetch(refcount, 1, __ATOMIC_RELAXED);
}

static inline void mlx5_put(int *refcount)
{
	__atomic_sub_fetch(refcount, 1, __ATOMIC_RELAXED);
}

static inline struct mlx5_dm *to_mdm(struct ibv_dm *ibdm)
{
	return (struct mlx5_dm *)ibdm;
}

static inline size_t mlx5_align_up(size_t n, size_t align)
{
	return (n + align - 1) & ~(align - 1);
}

/*
 * Byte offset to pass to mmap() on cmd_fd for mmap command @cmd and page
 * @index: command in bits 8-15 of the page number, index bits 0-7 in bits
 * 0-7 and index bits 8-15 in bits 16-23.
 */
static inline off_t mlx5_mmap_offset(unsigned int cmd, unsigned int index,
				     size_t page_size)
{
	uint64_t pgoff = ((uint64_t)(cmd & 0xff) << 8) | (index & 0xff) |
			 ((uint64_t)((index >> 8) & 0xff) << 16);

	return (off_t)(pgoff * page_size);
}

/* device.c */
extern const struct verbs_device_ops mlx5_dev_ops;
bool mlx5_is_mlx5_context(struct ibv_context *ibctx);

/* context.c */
struct verbs_context *mlx5_alloc_context(struct ibv_device *ibdev, int cmd_fd,
					 void *private_data);
struct verbs_context *mlx5_import_context(struct ibv_device *ibdev, int cmd_fd);

/* context_pages.c: the mmaps and UAR object made at open. */
int mlx5_map_context_pages(struct mlx5_context *ctx,
			   const struct mlx5_ib_alloc_ucontext_resp *resp);
int mlx5_alloc_nc_uar(struct mlx5_context *ctx);
/* A UAR object of @type (MLX5_IB_UAPI_UAR_ALLOC_TYPE_*), mapped. */
int mlx5_uar_obj_alloc(struct mlx5_context *ctx, uint64_t type,
		       uint32_t *handle, struct mlx5_mapping *map,
		       uint32_t *page_id);
void mlx5_uar_obj_destroy(struct mlx5_context *ctx, uint32_t handle);
void mlx5_unmap_context_pages(struct mlx5_context *ctx);
int mlx5_map(struct mlx5_context *ctx, struct mlx5_mapping *map, size_t length,
	     int prot, off_t offset);
void mlx5_unmap(struct mlx5_mapping *map);

/* query.c */
int mlx5_query_device_ex(struct ibv_context *ibctx,
			 const struct ibv_query_device_ex_input *input,
			 struct ibv_device_attr_ex *attr, size_t attr_size);
int mlx5_query_port(struct ibv_context *ibctx, uint8_t port,
		    struct ibv_port_attr *attr);
int mlx5_cache_device_caps(struct mlx5_context *ctx);
int mlx5_query_rt_values(struct ibv_context *ibctx,
			 struct ibv_values_ex *values);

/* pd.c */
struct ibv_pd *mlx5_alloc_pd(struct ibv_context *ibctx);
int mlx5_dealloc_pd(struct ibv_pd *ibpd);
struct ibv_pd *mlx5_import_pd(struct ibv_context *ibctx, uint32_t pd_handle);
struct ibv_pd *
mlx5_alloc_parent_domain(struct ibv_context *ibctx,
			 struct ibv_parent_domain_init_attr *attr);
int mlx5_dealloc_parent_domain(struct mlx5_parent_domain *mparent);
struct ibv_td *mlx5_alloc_td(struct ibv_context *ibctx,
			     struct ibv_td_init_attr *attr);
int mlx5_dealloc_td(struct ibv_td *ibtd);
void mlx5_unimport_pd(struct ibv_pd *ibpd);

/* mr.c */
struct ibv_mr *mlx5_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			   uint64_t hca_va, int access);
struct ibv_mr *mlx5_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
				  size_t length, uint64_t iova, int fd,
				  int access);
struct ibv_mr *mlx5_reg_dm_mr(struct ibv_pd *pd, struct ibv_dm *dm,
			      uint64_t dm_offset, size_t length,
			      unsigned int access);
struct ibv_mr *mlx5_reg_mr_ex(struct ibv_pd *pd, struct ibv_mr_init_attr *attr);
int mlx5_dereg_mr(struct verbs_mr *vmr);
struct ibv_mr *mlx5_alloc_null_mr(struct ibv_pd *pd);
struct ibv_mr *mlx5_import_mr(struct ibv_pd *pd, uint32_t mr_handle);
void mlx5_unimport_mr(struct ibv_mr *ibmr);

/* dm.c */
struct ibv_dm *mlx5_alloc_dm(struct ibv_context *ibctx,
			     struct ibv_alloc_dm_attr *attr);
int mlx5_free_dm(struct ibv_dm *ibdm);
int mlx5_dm_export_dmabuf_fd(struct ibv_dm *ibdm);
struct ibv_dm *mlx5_import_dm(struct ibv_context *ibctx, uint32_t handle);
void mlx5_unimport_dm(struct ibv_dm *ibdm);
void mlx5_release_all_dms(struct mlx5_context *ctx);

/* devx_uar.c */
void mlx5_init_nc_devx_uar(struct mlx5_context *ctx);
void mlx5_release_all_devx_uars(struct mlx5_context *ctx);

/* user_buf.c: ibv_alloc_buf() */
void *mlx5_alloc_user_buf(struct ibv_pd *pd, size_t size,
			  struct ibv_buf **buf);
void mlx5_free_user_buf(struct ibv_buf *buf);

/* dmah.c */
struct ibv_dmah *mlx5_alloc_dmah(struct ibv_context *ibctx,
				 struct ibv_dmah_init_attr *attr);
int mlx5_dealloc_dmah(struct ibv_dmah *dmah);

#endif /* MLX5_PROVIDER_H */
