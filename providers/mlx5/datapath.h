/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The mlx5 data path: CQs, QPs, SRQs and AHs whose rings live in this
 * process and are read and written by the HCA. Files by topic: buf.c and
 * dbrec.c (ring and doorbell-record memory), rsc.c (user index / number
 * table the CQ poller resolves CQEs with), uar.c (doorbell and BlueFlame
 * registers), cq.c + cq_poll.c, qp.c + qp_size.c, wqe.c (send WQE
 * segments), post.c (ibv_post_send/recv), wr.c (ibv_wr_*), srq.c +
 * srq_post.c, ah.c + av.c.
 */
#ifndef MLX5_DATAPATH_H
#define MLX5_DATAPATH_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "mlx5.h"

/* Ring memory handed to the kernel (pinned there) and the HCA (buf.c). */
enum mlx5_buf_type {
	MLX5_BUF_ANON,
	MLX5_BUF_HUGE,
	MLX5_BUF_CONTIG,
	MLX5_BUF_CUSTOM, /* from a parent domain's allocator */
	MLX5_BUF_DMABUF, /* a CC parent domain's: a heap dma-buf, whole */
};

struct mlx5_buf {
	void *addr;
	size_t length;
	enum mlx5_buf_type type;
	struct mlx5_parent_domain *owner; /* MLX5_BUF_CUSTOM */
	uint64_t resource_type;		  /* MLX5_BUF_CUSTOM */
	int dmabuf_fd;			  /* MLX5_BUF_DMABUF */
};

/* What a ring is for, which decides where its memory comes from. */
struct mlx5_ring_req {
	struct ibv_pd *pd;	/* a parent domain's allocators, if any */
	uint64_t resource_type; /* MLX5DV_RES_TYPE_*, for those */
	size_t alignment;	/* for those */
	const char *component;	/* MLX_<component>_ALLOC_TYPE, or NULL */
	const char *legacy_huge; /* its older form: HUGE_CQ=y and the like */
};

/* Anonymous, page aligned, zeroed. */
int mlx5_alloc_buf(struct mlx5_buf *buf, size_t size, size_t page_size);
/* Whole pages of @heap, a dma-buf of their own at offset 0. 0 or errno. */
int mlx5_alloc_dmabuf(struct mlx5_context *ctx, struct mlx5_buf *buf,
		      size_t size, struct ibv_dmabuf_heap *heap);
/* As @req says (see buf.c). 0 or an errno. */
int mlx5_alloc_ring(struct mlx5_context *ctx, struct mlx5_buf *buf,
		    size_t size, const struct mlx5_ring_req *req);
void mlx5_free_buf(struct mlx5_buf *buf);

/*
 * If @buf is a dma-buf: the BUF_UMEM attribute @buf_attr describing it on
 * @cmd, and @dbr_attr for the doorbell record @db (in a dma-buf page too).
 * The kernel then reads the queue through the dma-buf, not the UHW's
 * addresses (which stay, as upstream sends them); a driver attribute
 * makes the command ioctl-only. @umem holds the payloads until it runs.
 */
void mlx5_add_buf_umem(struct mlx5_context *ctx, struct uverbs_cmd *cmd,
		       const struct mlx5_buf *buf, __be32 *db,
		       uint16_t buf_attr, uint16_t dbr_attr,
		       struct rdma_dm_buffer_desc umem[2]);

/* @pd's CC heap: a parent domain allowing bounce memory on a CC guest. */
static inline struct ibv_dmabuf_heap *mlx5_cc_heap(struct ibv_pd *pd)
{
	struct mlx5_parent_domain *mparent = pd ? to_mparent_domain(pd) : NULL;

	return mparent ? mparent->cc_heap : NULL;
}

/* @pd's parent domain if it has both allocators, else NULL. */
static inline struct mlx5_parent_domain *
mlx5_custom_allocator(struct ibv_pd *pd)
{
	struct mlx5_parent_domain *mparent = pd ? to_mparent_domain(pd) : NULL;

	return mparent && mparent->alloc && mparent->free ? mparent : NULL;
}

/*
 * @size bytes of @resource_type from @mparent's allocator, zeroed (the
 * caller's memory may hold anything), the domain held until
 * mlx5_custom_free (its free() must outlive the memory). NULL with errno
 * ENOMEM when it refused; IBV_ALLOCATOR_USE_DEFAULT when it left the
 * allocation to us.
 */
void *mlx5_custom_alloc(struct mlx5_parent_domain *mparent, size_t size,
			size_t alignment, uint64_t resource_type);
void mlx5_custom_free(struct mlx5_parent_domain *owner, void *p,
		      uint64_t resource_type);

/* ---- doorbell records (dbrec.c) ---- */
struct mlx5_dbrec_page;

/* A record in an ordinary page, or in a dma-buf page of @heap. */
__be32 *mlx5_alloc_dbrec(struct mlx5_context *ctx,
			 struct ibv_dmabuf_heap *heap);
/* A record in a dma-buf page: that page's fd and the record's offset. */
int mlx5_dbrec_dmabuf(struct mlx5_context *ctx, __be32 *db, int *fd,
		      size_t *off);
/*
 * From @pd's allocators if it is a parent domain with them (8 bytes; then
 * *@owner is set and the record goes back with mlx5_free_dbrec_pd), else
 * mlx5_alloc_dbrec.
 */
__be32 *mlx5_alloc_dbrec_pd(struct mlx5_context *ctx, struct ibv_pd *pd,
			    struct mlx5_parent_domain **owner);
void mlx5_free_dbrec_pd(struct mlx5_context *ctx, __be32 *db,
			struct mlx5_parent_domain *owner);
void mlx5_free_dbrec(struct mlx5_context *ctx, __be32 *db);

/* ---- resources a CQE names (rsc.c) ---- */
enum mlx5_rsc_type {
	MLX5_RSC_QP = 1,
	MLX5_RSC_SRQ = 2,
};

struct mlx5_rsc {
	enum mlx5_rsc_type type;
	uint32_t rsn; /* the key it is stored under */
};

#define MLX5_RSC_KEY_BITS 24
#define MLX5_RSC_CHUNK_SHIFT 12
#define MLX5_RSC_CHUNKS (1u << (MLX5_RSC_KEY_BITS - MLX5_RSC_CHUNK_SHIFT))

/* A 24-bit key space in lazily allocated chunks (lookups take no lock). */
struct mlx5_rsc_dir {
	struct mlx5_rsc **chunk[MLX5_RSC_CHUNKS];
	uint32_t refcnt[MLX5_RSC_CHUNKS];
};

/*
 * The directory (48 KiB) is allocated at the first store: until then @dir
 * is a shared all-empty one, so a context that never makes a QP or SRQ
 * neither clears nor walks it, and lookups need no NULL test.
 */
struct mlx5_rsc_table {
	struct mlx5_rsc_dir *dir;
	unsigned int nchunks; /* chunks allocated */
	pthread_mutex_t lock;
};

void mlx5_rsc_table_init(struct mlx5_rsc_table *t);
void mlx5_rsc_table_cleanup(struct mlx5_rsc_table *t);
int mlx5_rsc_store(struct mlx5_rsc_table *t, uint32_t key,
		   struct mlx5_rsc *rsc);
/* The lowest free key (cqe_version 1 user index), or -1 (ENOMEM). */
int32_t mlx5_rsc_store_free(struct mlx5_rsc_table *t, struct mlx5_rsc *rsc);
void mlx5_rsc_clear(struct mlx5_rsc_table *t, uint32_t key);

static inline struct mlx5_rsc *mlx5_rsc_find(struct mlx5_rsc_table *t,
					     uint32_t key)
{
	struct mlx5_rsc **chunk;

	key &= (1u << MLX5_RSC_KEY_BITS) - 1;
	chunk = t->dir->chunk[key >> MLX5_RSC_CHUNK_SHIFT];
	return chunk ? chunk[key & ((1u << MLX5_RSC_CHUNK_SHIFT) - 1)] : NULL;
}

/* ---- doorbell / BlueFlame registers (uar.c) ---- */
struct mlx5_bf {
	uint8_t *reg;	     /* register base (both halves) */
	unsigned int offset; /* current half: 0 or buf_size */
	unsigned int buf_size; /* 0: doorbell only, never BlueFlame */
	uint32_t page_id;      /* UAR page given to the kernel */
	pthread_spinlock_t lock;
	bool need_lock;	       /* shared by several QPs */
	bool in_use;	       /* a dedicated register taken by a QP */
};

/* A BlueFlame UAR object: two registers, each dedicated to one QP. */
struct mlx5_bf_uar {
	struct mlx5_bf_uar *next;
	uint32_t handle;
	struct mlx5_mapping map;
	struct mlx5_bf bfs[2];
};

#define MLX5_BF_OFFSET 0x800

struct mlx5_dp_context {
	pthread_mutex_t dbrec_lock;
	struct mlx5_dbrec_page *dbrec_pages;
	pid_t dbrec_pid; /* the process whose memory dbrec_pages are */
	struct mlx5_rsc_table rsc;
	struct mlx5_rsc_table srq_rsc; /* cqe_version 0: SRQ numbers */
	/* BF UARs handed out register by register, or the shared NC one. */
	pthread_mutex_t uar_lock;
	struct mlx5_bf_uar *bf_uars;
	bool bf_refused; /* the kernel gave no BF UAR: stop asking */
	struct mlx5_bf nc_bf;
	bool shut_up_bf;
	bool prefer_bf;
	bool single_threaded;
};

static inline struct mlx5_dp_context *to_dp(struct ibv_context *ibctx)
{
	return to_mctx(ibctx)->dp;
}

int mlx5_dp_init(struct mlx5_context *ctx);
void mlx5_dp_cleanup(struct mlx5_context *ctx);
/* The register a new QP rings, and the UAR page id the kernel is told. */
struct mlx5_bf *mlx5_pick_bf(struct mlx5_context *ctx);
/* Give a QP's register back (a dedicated one becomes free again). */
void mlx5_release_bf(struct mlx5_context *ctx, struct mlx5_bf *bf);
void mlx5_uar_cleanup(struct mlx5_context *ctx);
/* CQ arm doorbell page (NC UAR base). */
uint8_t *mlx5_cq_uar(struct mlx5_context *ctx);

/* ---- CQ (cq.c, cq_poll.c) ---- */
struct mlx5_qp;
struct mlx5_srq;

struct mlx5_cq {
	struct verbs_cq verbs_cq;
	pthread_spinlock_t lock;
	bool single_threaded;
	/* mlx5dv_init_obj gave its ring away: the caller polls it, and our
	 * consumer index means nothing, so cleaning must not touch it */
	bool dv_owned;
	struct mlx5_buf bufs[2];
	struct mlx5_buf *active; /* one of bufs */
	uint32_t ncqe;		 /* entries, a power of two */
	uint32_t cqe_sz;	 /* 64 or 128 */
	uint32_t cons_index;
	uint32_t cqn;
	__be32 *dbrec;
	/* IBV_CQ_INIT_ATTR_MASK_PD: the parent domain it holds; the owner of
	 * the doorbell record when that came from its allocator. */
	struct mlx5_parent_domain *parent;
	struct mlx5_parent_domain *dbrec_owner;
	uint32_t arm_sn;
	uint8_t *uar;
	uint8_t cqe_version;
	uint64_t wc_flags;
	struct mlx5_rsc_table *rsc;
	/* ibv_cq_ex: the completion being read, between start and end. */
	struct ibv_wc cur_wc;
	struct mlx5_cqe64 *cur_cqe;
	uint32_t polled_ci; /* cons_index last written to the dbrec */
	/* Wall-clock stamps converted with the page read at start_poll. */
	bool clock_update;
	struct mlx5dv_clock_info last_clock;
};

/* What mlx5dv_create_cq adds to a CQ's creation (cq_dv.c). */
struct mlx5_cq_dv {
	uint32_t cqe_size;
	uint8_t comp_en;
	uint8_t comp_format;
	uint16_t flags; /* MLX5_IB_CREATE_CQ_FLAGS_* */
};

static inline struct mlx5_cq *to_mcq(struct ibv_cq *ibcq)
{
	return (struct mlx5_cq *)ibcq;
}

static inline struct mlx5_cq *to_mcq_ex(struct ibv_cq_ex *ibcq)
{
	return (struct mlx5_cq *)ibcq;
}

struct ibv_cq *mlx5_create_cq(struct ibv_context *ibctx, int cqe,
			      struct ibv_comp_channel *channel,
			      int comp_vector);
struct ibv_cq_ex *mlx5_create_cq_ex(struct ibv_context *ibctx,
				    struct ibv_cq_init_attr_ex *attr);
int mlx5_resize_cq(struct ibv_cq *ibcq, int cqe);
int mlx5_destroy_cq(struct ibv_cq *ibcq);
int mlx5_arm_cq(struct ibv_cq *ibcq, int solicited_only);
void mlx5_cq_event(struct ibv_cq *ibcq);
int mlx5_poll_cq(struct ibv_cq *ibcq, int ne, struct ibv_wc *wc);
void mlx5_cq_ex_set_ops(struct mlx5_cq *cq);
struct mlx5_cq *mlx5_create_cq_common(struct ibv_context *ibctx,
				      const struct ibv_cq_init_attr_ex *attr,
				      const struct mlx5_cq_dv *dv);
int mlx5_env_cqe_size(uint32_t *sz);
/* Entry @n of the ring if software owns it, else NULL. */
struct mlx5_cqe64 *mlx5_sw_cqe(struct mlx5_cq *cq, uint32_t n);
void mlx5_cq_clean(struct mlx5_cq *cq, uint32_t rsn, struct mlx5_srq *srq);
void mlx5_cq_init_buf(struct mlx5_buf *buf, uint32_t ncqe, uint32_t cqe_sz);
enum ibv_wc_status mlx5_syndrome_status(uint8_t syndrome);

/* ---- work queues ---- */
struct mlx5_wq {
	uint64_t *wrid;
	unsigned int *wqe_head; /* sq: head value when the WQE was posted */
	uint8_t *raw_wqe;	/* sq with raw WQEs: the slot holds one */
	uint8_t *umr_inv;	/* sq: the slot's UMR completes LOCAL_INV */
	unsigned int wqe_cnt;	/* sq: basic blocks; rq: WQEs */
	unsigned int max_post;
	unsigned int head;
	unsigned int tail;
	unsigned int cur_post;
	int max_gs;
	int qp_state_max_gs; /* -1 while the state forbids posting */
	unsigned int wqe_shift;
	unsigned int offset; /* in the QP buffer */
	pthread_spinlock_t lock;
};

/* What the ibv_wr_* builders carry between calls of one WR. */
struct mlx5_wr_state {
	struct mlx5_wqe_ctrl_seg *ctrl; /* the WQE opened last */
	void *seg;	      /* where the next segment goes */
	unsigned int size;    /* WQE size so far, 16-byte units */
	unsigned int nreq;
	int err;
	uint8_t setters;      /* still wanted by the open WQE (UD: 2) */
	bool inl_wqe;
	bool len8;	      /* atomic: the local SGE takes 8 bytes */
	unsigned int cur_post_saved;
};

struct mlx5_qp {
	struct verbs_qp verbs_qp;
	struct mlx5_rsc rsc;
	struct mlx5_buf buf;
	uint8_t *sq_start;
	uint8_t *sq_end;
	struct mlx5_wq sq;
	struct mlx5_wq rq;
	__be32 *db;
	struct mlx5_parent_domain *db_owner; /* mlx5_alloc_dbrec_pd */
	struct mlx5_bf *bf;
	bool bf_from_td; /* the thread domain's register, not ours */
	struct mlx5_parent_domain *parent; /* held while the QP lives */
	enum ibv_qp_type qp_type;
	uint32_t qpn;
	__be32 qpn8; /* ctrl qpn_ds without the ds: BE(qpn << 8) */
	/* ctrl fm_ce_se by send flags & 7 (FENCE, SIGNALED, SOLICITED) */
	uint8_t fm_ce_se[8];
	/* after a UMR WQE: the next WQE's initiator small fence */
	uint8_t umr_fence;
	/* largest WQE (16-byte units) for BlueFlame: [0] gather, [1] inline */
	uint8_t bf_max_ds[2];
	uint8_t sq_signal_bits;
	int max_inline_data;
	bool atomics;
	bool has_uidx;
	bool prefer_bf;
	bool single_threaded;
	bool dci, dct; /* DC: a DCI's WQEs carry an address vector */
	bool ooo_dp;   /* MLX5DV_QP_CREATE_OOO_DP: receives out of order */
	uint64_t send_ops;
	uint64_t dv_send_ops; /* enum mlx5dv_qp_create_send_ops_flags */
	struct mlx5_wr_state wr;
	struct mlx5dv_qp_ex dv_qp_ex;
};

static inline struct mlx5_qp *to_mqp(struct ibv_qp *ibqp)
{
	return (struct mlx5_qp *)ibqp;
}

/* Sizing results (qp_size.c), separate so they can be unit tested. */
struct mlx5_qp_sizes {
	unsigned int sq_wqe_size; /* bytes, multiple of 64 */
	unsigned int sq_wqe_cnt;  /* basic blocks */
	unsigned int sq_max_post;
	int sq_max_gs;
	int max_inline;
	unsigned int rq_wqe_shift;
	unsigned int rq_wqe_cnt;
	int rq_max_gs;
	size_t rq_bytes;
	size_t sq_bytes;
};

struct mlx5_qp_limits {
	uint32_t max_sq_desc_sz;
	uint32_t max_rq_desc_sz;
	uint32_t max_send_wqebb;
	uint32_t max_recv_wr;
};

/* 0 or EINVAL; @ops is the send op set used for the overhead. */
int mlx5_calc_qp_sizes(const struct mlx5_qp_limits *lim,
		       enum ibv_qp_type type, uint64_t ops,
		       const struct ibv_qp_cap *cap, bool has_srq,
		       struct mlx5_qp_sizes *out);
uint64_t mlx5_default_send_ops(enum ibv_qp_type type);
unsigned int mlx5_sq_overhead(enum ibv_qp_type type, uint64_t ops);

struct ibv_qp *mlx5_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *a);
/* What mlx5dv_create_qp adds to a QP's creation (qp_dv.c checks it). */
struct mlx5_qp_dv {
	uint32_t create_flags; /* enum mlx5dv_qp_create_flags */
	uint64_t send_ops;     /* enum mlx5dv_qp_create_send_ops_flags */
	uint8_t dc_type;       /* enum mlx5dv_dc_type, 0: not DC */
	uint64_t dc_key;       /* DCT: its access key */
};

/* DC (dc.c): the dv attributes of a DC QP, libmlx5's checks (errno);
 * a DCT's modify (its number comes back at RTR); the DCI's builder. */
int mlx5_dc_check(const struct ibv_qp_init_attr_ex *qp_attr,
		  const struct mlx5dv_qp_init_attr *a, struct mlx5_qp_dv *dv);
int mlx5_dc_modify_dct(struct mlx5_qp *qp, struct ibv_qp_attr *attr,
		       int attr_mask);
void mlx5_dc_set_wr_ops(struct mlx5_qp *qp);

struct ibv_qp *mlx5_create_qp_dv(struct ibv_context *ibctx,
				 struct ibv_qp_init_attr_ex *attr,
				 const struct mlx5_qp_dv *dv);
struct ibv_qp *mlx5_create_qp_ex(struct ibv_context *ibctx,
				 struct ibv_qp_init_attr_ex *attr);
int mlx5_modify_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr,
		   int attr_mask);
/* mlx5_ib_modify_qp.comp_mask for this modify of @qp. */
uint32_t mlx5_modify_qp_comp_mask(const struct mlx5_qp *qp,
				  const struct ibv_qp_attr *attr,
				  int attr_mask);
int mlx5_query_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr,
		  int attr_mask, struct ibv_qp_init_attr *init_attr);
int mlx5_destroy_qp(struct ibv_qp *ibqp);
int mlx5_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
		   struct ibv_send_wr **bad_wr);
int mlx5_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
		   struct ibv_recv_wr **bad_wr);
void mlx5_qp_set_wr_ops(struct mlx5_qp *qp);
void mlx5_qp_set_dv_wr_ops(struct mlx5_qp *qp);
/* qpn8, fm_ce_se[], bf_max_ds[] (once qpn, bf and sq_sig_all are known) */
void mlx5_qp_init_wqe_consts(struct mlx5_qp *qp);
void mlx5_qp_set_wr_complete(struct mlx5_qp *qp, bool operational);

/* ---- XRC (xrc.c) ---- */
struct ibv_xrcd *mlx5_open_xrcd(struct ibv_context *ctx,
				struct ibv_xrcd_init_attr *attr);
int mlx5_close_xrcd(struct ibv_xrcd *xrcd);
/* XRC_RECV QPs: created (the kernel's own QP) or opened by number. */
struct ibv_qp *mlx5_create_xrc_tgt(struct ibv_context *ctx,
				   struct ibv_qp_init_attr_ex *attr);
struct ibv_qp *mlx5_open_qp(struct ibv_context *ctx,
			    struct ibv_qp_open_attr *attr);
int mlx5_destroy_xrc_tgt(struct mlx5_qp *qp);
int mlx5_get_srq_num(struct ibv_srq *srq, uint32_t *srq_num);

/* ---- on-demand paging (odp.c) ---- */
int mlx5_advise_mr(struct ibv_pd *pd, enum ibv_advise_mr_advice advice,
		   uint32_t flags, struct ibv_sge *sg_list, uint32_t num_sge);

/* ---- SRQ (srq.c) ---- */
struct mlx5_srq {
	struct verbs_srq verbs_srq;
	struct mlx5_rsc rsc;
	struct mlx5_buf buf;
	pthread_spinlock_t lock;
	uint64_t *wrid;
	uint32_t srqn;
	int max;	   /* WQEs in the ring */
	int max_gs;
	unsigned int wqe_shift;
	int head;
	int tail;
	uint16_t counter;
	__be32 *db;
	struct mlx5_parent_domain *db_owner; /* mlx5_alloc_dbrec_pd */
	uint8_t *free_map; /* 1: the WQE is on the free list */
	bool has_uidx;	   /* XRC, CQE version 1: rsc.rsn is its index */
	struct mlx5_tm *tm; /* tag matching SRQ: its list and command QP */
};

static inline struct mlx5_srq *to_msrq(struct ibv_srq *ibsrq)
{
	return (struct mlx5_srq *)ibsrq;
}

struct ibv_srq *mlx5_create_srq(struct ibv_pd *pd,
				struct ibv_srq_init_attr *attr);
struct ibv_srq *mlx5_create_srq_ex(struct ibv_context *ibctx,
				   struct ibv_srq_init_attr_ex *attr);
int mlx5_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr,
		    int mask);
int mlx5_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr);
int mlx5_destroy_srq(struct ibv_srq *srq);
int mlx5_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr,
		       struct ibv_recv_wr **bad_wr);
static inline void *mlx5_srq_wqe(struct mlx5_srq *srq, int n)
{
	return (uint8_t *)srq->buf.addr + ((size_t)n << srq->wqe_shift);
}

static inline struct mlx5_wqe_srq_next_seg *mlx5_srq_next(struct mlx5_srq *srq,
							  int n)
{
	return mlx5_srq_wqe(srq, n);
}

void mlx5_free_srq_wqe(struct mlx5_srq *srq, int idx);

#define MLX5_CQE_APP_TAG_MATCHING 1 /* the CQE's app byte */

/* Tag-matching SRQs (tm.c). create: the tag list and the command QP
 * (errno; what was made stays for destroy); destroy_cmd_qp before the
 * SRQ goes, destroy after. */
int mlx5_tm_create(struct mlx5_srq *srq, struct ibv_srq_init_attr_ex *attr);
int mlx5_tm_destroy_cmd_qp(struct mlx5_srq *srq);
void mlx5_tm_destroy(struct mlx5_srq *srq);
int mlx5_post_srq_ops(struct ibv_srq *srq, struct ibv_ops_wr *wr,
		      struct ibv_ops_wr **bad_wr);
/* CQEs with app = tag matching: a message in an SRQ WQE (unexpected or
 * no tag) is parsed as any receive, then mlx5_tm_srq_wqe_cqe sets its
 * opcode; the others (tagged message, list op) mlx5_tm_cqe parses, 0 or
 * -1 for an app_op it does not know. */
bool mlx5_tm_in_srq_wqe(uint8_t app_op);
void mlx5_tm_srq_wqe_cqe(struct mlx5_srq *srq, struct mlx5_cqe64 *cqe,
			 struct ibv_wc *wc);
int mlx5_tm_cqe(struct mlx5_srq *srq, struct mlx5_cqe64 *cqe,
		struct ibv_wc *wc);

/* ---- AH (ah.c) ---- */
struct mlx5_ah {
	struct ibv_ah ibv_ah;
	struct mlx5_wqe_av av;
	bool kern_ah;
};

static inline struct mlx5_ah *to_mah(struct ibv_ah *ibah)
{
	return (struct mlx5_ah *)ibah;
}

struct ibv_ah *mlx5_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr);
int mlx5_destroy_ah(struct ibv_ah *ah);
/* Fill @av from @attr (IB or Ethernet port); 0 or errno. */
int mlx5_fill_av(struct mlx5_wqe_av *av, const struct ibv_ah_attr *attr,
		 bool eth);
uint8_t mlx5_rate_code(int ibv_rate);
/*
 * RoCE v2: the UDP source port goes where IB has the DLID (rlid): derived
 * from a non-zero flow label, else random in 0xC000..0xFFFF.
 */
void mlx5_av_set_udp_sport(struct mlx5_wqe_av *av, uint32_t flow_label);

#endif /* MLX5_DATAPATH_H */
