/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * uverbs objects of the simulated kernel. Each object kind is declared once,
 * in its own file, as a struct sim_obj_type (name, size, destroy function,
 * place in the teardown order, when it is hidden, its ioctl methods and
 * write() commands) and registered with SIM_OBJ_TYPE(); the framework finds
 * every type through that registry, so adding an object touches one file
 * (and the build list).
 *
 * The framework owns each object's lifetime, as the kernel's rdma_core.c
 * does: before a create's handler runs, ioctl.c and write_cmd.c reserve
 * the new object and its handle (sim_obj_alloc_begin); the handler fills
 * it in; then the framework commits it (its handle becomes visible) when
 * the call succeeded, or aborts it (the type's destroy hook releases what
 * the handler had set up, the handle goes back) when it failed. Handlers
 * never undo their own object.
 */
#ifndef RDMA_SIM_OBJ_H
#define RDMA_SIM_OBJ_H

#include "ib_enums.h"

#include <stddef.h>
#include <stdint.h>

struct sim_uvfile;
struct sim_method;
struct sim_wcmd;
struct sim_obj;
struct sim_call;

/* A create's driver udata, and for an ioctl the call (its BUF_UMEM and
 * driver attributes; NULL by write()). */
struct sim_udata {
	const void *in;
	size_t in_len;
	void *out; /* zeroed, out_len bytes, copied back on success */
	size_t out_len;
	struct sim_call *call;
};

/*
 * Where a data-path object keeps what the framework takes for it at
 * create and releases when it goes (obj_hw.c): offsets into the object,
 * 0 where it has none.
 */
struct sim_obj_parts {
	uint16_t async;	    /* struct sim_evq *: its async event file */
	uint16_t call;	    /* struct sim_call *: the create's, to the driver */
	uint16_t ring_attr; /* the core BUF_UMEM attribute of its ring */
	uint16_t umem[2];   /* struct sim_umem: the ring, the doorbell record */
	/* The events it reported, as its destroy response lays them out
	 * (u32s): events_len bytes from events, 0: no response. */
	uint16_t events, events_len;
};

/* The parts of a queue T (struct sim_cq, struct sim_qp) with its ring,
 * whose destroy response is n bytes from its member ev. */
#define SIM_QUEUE_PARTS(T, ring, ev, n)                                        \
	{                                                                      \
		.async = offsetof(T, async), .call = offsetof(T, call),        \
		.ring_attr = (ring),                                           \
		.umem = {offsetof(T, buf_umem), offsetof(T, dbr_umem)},        \
		.events = offsetof(T, ev), .events_len = (n),                  \
	}

/*
 * Teardown at the last close of a uverbs file, lowest first: an object
 * never outlives one it holds (a QP holds its CQs, an MR its PD).
 */
enum sim_destroy_order {
	SIM_ORDER_USERS,  /* QP, AH, MR: hold PDs, CQs, SRQs, DMs */
	SIM_ORDER_SRQ,	  /* SRQ: holds a PD (and a CQ for XRC) */
	SIM_ORDER_QUEUES, /* CQ, DM, UAR: hold a channel or nothing */
	SIM_ORDER_ROOTS,  /* PD, completion channel */
	SIM_ORDER_COUNT,
};

struct sim_obj_type {
	const char *name; /* uAPI object name without UVERBS_OBJECT_ */
	uint16_t uapi_id; /* UVERBS_OBJECT_* / driver object id */
	size_t size;	  /* bytes of the struct embedding sim_obj; 0: none */
	uint8_t order;	  /* enum sim_destroy_order */
	/* The driver's half of a data-path object (NULL: none): hw_create
	 * once the core set the object up, hw_destroy when it goes if
	 * hw_create succeeded (o->live). SIM_HW_HOOKS makes them. */
	int (*hw_create)(struct sim_uvfile *uv, struct sim_obj *o,
			 const struct sim_udata *u);
	void (*hw_destroy)(struct sim_uvfile *uv, struct sim_obj *o);
	/* Release what the object holds (use counts, driver state, entries).
	 * Runs once its own use count is 0, after hw_destroy and before the
	 * parts go; NULL: nothing to release. */
	void (*destroy)(struct sim_uvfile *uv, struct sim_obj *o);
	struct sim_obj_parts parts;
	/* FD objects (size 0): close the fd a create made when the call
	 * fails after it (the kernel's abort of a new FD uobject). */
	void (*abort_fd)(struct sim_uvfile *uv, int fd);
	/* 1: the object does not exist for this driver/configuration, its
	 * methods answer EPROTONOSUPPORT (the kernel's uapi "needs fn"). */
	int (*hidden)(void);
	const struct sim_method *methods;
	unsigned int nmethods;
	const struct sim_wcmd *wcmds; /* write() commands of this object */
	unsigned int nwcmds;
	/* The write() commands that create one (wherever they are
	 * declared), 0-ended: the framework makes the object first. */
	uint32_t wcreates[4];
};

/* The common head of every object; kinds embed it as their first member. */
struct sim_obj {
	struct sim_obj *next;
	const struct sim_obj_type *type;
	uint32_t handle;
	uint32_t usecnt;       /* objects that depend on this one */
	uint8_t live;	       /* the driver's create hook succeeded */
	uint8_t committed;     /* its create succeeded: found by handle */
	struct sim_uvfile *uv; /* the context that owns it */
	void *drv;    /* the driver's private state; the core never uses it */
	uint32_t res; /* its restrack row + 1 (restrack.c), 0: none */
	/* restrack.c: seen by a sync; changed since (on the uv's list) */
	uint8_t res_seen, res_dirty;
};

#define sim_container_of(p, T, m) ((T *)((char *)(p)-offsetof(T, m)))

/* Put a type in the registry (a linker section walked by the core). */
#define SIM_OBJ_TYPE(t)                                                        \
	static const struct sim_obj_type *const sim_reg_##t                    \
		__attribute__((used, section("sim_obj_types"))) = &(t)

extern const struct sim_obj_type *const __start_sim_obj_types[];
extern const struct sim_obj_type *const __stop_sim_obj_types[];
#define sim_for_each_type(pp)                                                  \
	for ((pp) = __start_sim_obj_types; (pp) < __stop_sim_obj_types; (pp)++)

/* The registered type with this uAPI object id, or NULL. */
const struct sim_obj_type *sim_type_by_id(uint16_t uapi_id);

/* ---- the object kinds (declared in obj_<kind>.c) ---- */
extern const struct sim_obj_type sim_type_pd, sim_type_mr, sim_type_dm;

struct sim_pd {
	struct sim_obj obj;
	uint32_t pdn;
};

struct sim_entry;
struct sim_dmabuf_import;
struct sim_dm {
	struct sim_obj obj;
	uint64_t length; /* as requested */
	uint32_t dm_type;
	int alloc; /* MEMIC slot, -1 for SW ICM */
	uint64_t start_offset;
	uint16_t page_index;
	struct sim_entry *base;
};

/* What the HCA needs to check an access against a registration. */
enum sim_mr_backing { SIM_MR_USER, SIM_MR_DM, SIM_MR_DMABUF };

struct sim_mr {
	struct sim_obj obj;
	struct sim_pd *pd;
	struct sim_dm *dm; /* SIM_MR_DM */
	uint8_t backing;   /* enum sim_mr_backing */
	uint32_t lkey, rkey;
	uint64_t addr;	 /* SIM_MR_USER: process address of byte 0 */
	uint64_t offset; /* SIM_MR_DM/DMABUF: offset into the DM / buffer */
	uint64_t length;
	uint64_t iova; /* address the MR is accessed at */
	uint32_t access;
	uint8_t pinned; /* its user memory is pinned for DMA (dma_pin.c) */
	struct sim_dmah *dmah; /* REG_MR with a DMA handle (held) */
	/* SIM_MR_DMABUF: the MR's own reference to the dma-buf; its bytes
	 * are at sim_dmabuf_bytes() + offset while not revoked */
	struct sim_dmabuf_import *dmabuf;
};

/*
 * UVERBS_OBJECT_MW (obj_mw.c): a memory window. The kernel creates it
 * (type 1 valid with no range, type 2 free); the HCA binds and
 * invalidates it (hw/mlx5/hca_mw.c) and answers remote access through it.
 */
extern const struct sim_obj_type sim_type_mw;
struct sim_mw {
	struct sim_obj obj;
	struct sim_pd *pd;
	uint8_t type;  /* IB_MW_TYPE_1 / _2 */
	uint8_t bound; /* has a range (type 2: VALID, not FREE) */
	uint32_t rkey; /* index << 8 | the key byte of the last bind */
	uint32_t qpn;  /* type 2: the QP it was bound through */
	uint32_t access;   /* IB_ACCESS_* remote rights of the window */
	uint64_t start;	   /* first address remote peers use (0: zero-based) */
	uint64_t length;
	uint32_t mr_lkey;  /* the MR under it, looked up at each access */
	uint64_t mr_addr;  /* the MR address of window byte 0 */
};

static inline struct sim_mw *sim_mw(struct sim_obj *o)
{
	return o ? sim_container_of(o, struct sim_mw, obj) : NULL;
}

/* UVERBS_OBJECT_DMAH (obj_dmah.c): TPH hints for an MR's DMA. */
extern const struct sim_obj_type sim_type_dmah;
enum { SIM_DMAH_CPU_ID = 1, SIM_DMAH_MEM_TYPE = 2, SIM_DMAH_PH = 4 };
struct sim_dmah {
	struct sim_obj obj;
	uint8_t valid; /* SIM_DMAH_*: the attributes given */
	uint8_t mem_type;
	uint8_t ph;
	uint32_t cpu_id;
	uint32_t st_index; /* the driver's steering-tag entry */
};

static inline struct sim_dmah *sim_dmah(struct sim_obj *o)
{
	return o ? sim_container_of(o, struct sim_dmah, obj) : NULL;
}

static inline struct sim_pd *sim_pd(struct sim_obj *o)
{
	return o ? sim_container_of(o, struct sim_pd, obj) : NULL;
}

static inline struct sim_mr *sim_mr(struct sim_obj *o)
{
	return o ? sim_container_of(o, struct sim_mr, obj) : NULL;
}

static inline struct sim_dm *sim_dm(struct sim_obj *o)
{
	return o ? sim_container_of(o, struct sim_dm, obj) : NULL;
}

/* ---- data-path objects (obj_cq.c, obj_qp.c, obj_srq.c, obj_ah.c) ---- */
extern const struct sim_obj_type sim_type_cq, sim_type_qp, sim_type_srq,
	sim_type_ah;

struct sim_evq; /* an event file: completion channel or async fd */

/* ib_modify_qp_is_ok: 1 if the transition and mask are allowed. */
int sim_qp_transition_ok(unsigned int cur, unsigned int next, unsigned int type,
			 uint32_t mask);

/* An address vector, from a QP's AV/ALT_PATH or an AH (host order). */
struct sim_ah_attr {
	uint8_t dgid[16];
	uint32_t flow_label;
	uint16_t dlid;
	uint8_t sgid_index;
	uint8_t hop_limit;
	uint8_t traffic_class;
	uint8_t sl;
	uint8_t src_path_bits;
	uint8_t static_rate;
	uint8_t is_global;
	uint8_t port_num;
	uint8_t dmac[6]; /* RoCE: resolved from the DGID */
};

/* struct ib_uverbs_qp_cap */
struct sim_qp_cap {
	uint32_t max_send_wr;
	uint32_t max_recv_wr;
	uint32_t max_send_sge;
	uint32_t max_recv_sge;
	uint32_t max_inline_data;
};

/* Everything modify_qp can set (IB_QP_* mask bits name the fields). */
struct sim_qp_attr {
	uint8_t qp_state; /* IB_QPS_* */
	uint8_t path_mtu; /* IB_MTU_* (1..5) */
	uint8_t path_mig_state;
	uint8_t en_sqd_async_notify;
	uint8_t max_rd_atomic;
	uint8_t max_dest_rd_atomic;
	uint8_t min_rnr_timer;
	uint8_t port_num;
	uint8_t timeout;
	uint8_t retry_cnt;
	uint8_t rnr_retry;
	uint8_t alt_port_num;
	uint8_t alt_timeout;
	uint16_t pkey_index;
	uint16_t alt_pkey_index;
	uint32_t qkey;
	uint32_t rq_psn;
	uint32_t sq_psn;
	uint32_t dest_qp_num;
	uint32_t qp_access_flags;
	uint32_t rate_limit;
	struct sim_ah_attr ah;
	struct sim_ah_attr alt_ah;
	struct sim_qp_cap cap;
};

/*
 * A buffer a create named by descriptor (BUF_UMEM, umem.c): a range of an
 * imported dma-buf (imp) or of user memory (imp NULL, off the address).
 */
struct sim_dmabuf_import;
struct sim_umem {
	int present;
	struct sim_dmabuf_import *imp;
	uint64_t off, len;
};

struct sim_call;

struct sim_cq {
	struct sim_obj obj;
	uint32_t cqe; /* as the driver sized it (create and resize) */
	uint32_t comp_vector;
	uint32_t flags;		 /* IB_UVERBS_CQ_FLAGS_* */
	uint64_t user_handle;	 /* element of its events */
	struct sim_evq *channel; /* completion channel, or NULL */
	struct sim_evq *async;	 /* where its async events go */
	/* in this order: the destroy response (parts.events) */
	uint32_t comp_events_reported;
	uint32_t async_events_reported;
	/* The ring (core attribute) and the driver's doorbell record, as
	 * descriptors; released with the CQ. */
	struct sim_umem buf_umem, dbr_umem;
	uint64_t pin_addr, pin_len; /* the user ring pinned (dma_pin.c) */
	struct sim_call *call; /* the create ioctl, while the driver runs */
	/* EX_MODIFY_CQ: completion events wait for this many CQEs or this
	 * many microseconds after the first (0: that criterion is off) */
	uint16_t mod_count, mod_period;
};

struct sim_xrcd;
struct sim_srq {
	struct sim_obj obj;
	struct sim_pd *pd;
	struct sim_cq *cq; /* XRC/TM only */
	struct sim_xrcd *xrcd; /* XRC only (held) */
	uint8_t srq_type;  /* IB_UVERBS_SRQT_* */
	uint32_t max_wr;
	uint32_t max_sge;
	uint32_t limit; /* 0: not armed */
	uint32_t srqn;
	uint32_t max_num_tags; /* TM: the tag list the caller asked for */
	uint64_t user_handle;
	struct sim_evq *async;
	uint32_t events_reported;
};

struct sim_qp {
	struct sim_obj obj;
	uint8_t qp_type; /* IB_QPT_* */
	uint8_t sq_sig_all;
	uint32_t qpn; /* unique per device across processes */
	uint32_t create_flags;
	struct sim_pd *pd;
	struct sim_cq *send_cq;
	struct sim_cq *recv_cq;
	struct sim_srq *srq;
	struct sim_xrcd *xrcd; /* XRC_TGT (held) */
	/* An XRC_TGT handle OPEN_QP made: the QP it opened (held), whose
	 * attributes modify and query reach. NULL for every other QP. */
	struct sim_qp *real;
	uint8_t xrc_held; /* XRC_TGT: this handle holds the QP (xrc_tgt.c) */
	uint64_t user_handle;
	struct sim_qp_attr attr; /* current state and attributes; attr.cap */
	struct sim_evq *async;
	uint32_t events_reported;
	/* The rings and the driver's doorbell record, as descriptors. */
	struct sim_umem buf_umem, dbr_umem;
	struct sim_call *call; /* the create ioctl, while the driver runs */
};

struct sim_ah {
	struct sim_obj obj;
	struct sim_pd *pd;
	struct sim_ah_attr attr;
	uint64_t user_handle;
};

static inline struct sim_cq *sim_cq(struct sim_obj *o)
{
	return o ? sim_container_of(o, struct sim_cq, obj) : NULL;
}

static inline struct sim_qp *sim_qp(struct sim_obj *o)
{
	return o ? sim_container_of(o, struct sim_qp, obj) : NULL;
}

static inline struct sim_srq *sim_srq(struct sim_obj *o)
{
	return o ? sim_container_of(o, struct sim_srq, obj) : NULL;
}

static inline struct sim_ah *sim_ah(struct sim_obj *o)
{
	return o ? sim_container_of(o, struct sim_ah, obj) : NULL;
}

/* ---- XRC domains (obj_xrcd.c) ---- */
extern const struct sim_obj_type sim_type_xrcd;
struct sim_xrcd {
	struct sim_obj obj;
	uint32_t xrcdn; /* the domain: equal in every handle on one inode */
	int32_t slot;	/* its row in the world's inode table, -1: private */
};

static inline struct sim_xrcd *sim_xrcd(struct sim_obj *o)
{
	return o ? sim_container_of(o, struct sim_xrcd, obj) : NULL;
}

/* The QP a handle acts on: the opened XRC_TGT QP for an OPEN_QP handle. */
static inline struct sim_qp *sim_qp_real(struct sim_qp *qp)
{
	return qp && qp->real ? qp->real : qp;
}

/* Attributes modify_qp silently drops for a QP type (the kernel's
 * modify_qp_mask): XRC_INI has no responder, XRC_TGT no requester. */
uint32_t sim_qp_mask_stripped(unsigned int type);

/*
 * The framework's side of a create (ioctl.c, write_cmd.c), nobody else's:
 * begin reserves the lowest free handle for a zeroed object of type t
 * (NULL on ENOMEM) that handle lookups do not find yet; commit makes it
 * visible; abort runs t's destroy hook on what the handler set up and
 * frees the object and its handle.
 */
struct sim_obj *sim_obj_alloc_begin(struct sim_uvfile *uv,
				    const struct sim_obj_type *t);
void sim_obj_alloc_commit(struct sim_obj *o);
void sim_obj_alloc_abort(struct sim_uvfile *uv, struct sim_obj *o);
/* A committed object by handle, or NULL. */
struct sim_obj *sim_obj_find(struct sim_uvfile *uv, uint32_t handle);
/* The object behind handle if it has type t: else NULL, *err = -ENOENT
 * (no such handle) or -EINVAL (another type), as uverbs answers. */
struct sim_obj *sim_obj_get(struct sim_uvfile *uv, uint32_t handle,
			    const struct sim_obj_type *t, int *err);
/* Destroy one object: -EBUSY while others use it, else 0. */
int sim_obj_destroy(struct sim_uvfile *uv, struct sim_obj *o);

/*
 * The end of a data-path create (obj_hw.c), once the handler set o up:
 * async (NULL: the context's) becomes o's async event file, held; the
 * ring its type's parts.ring_attr names is taken; then hw_create runs
 * with the call in the object for the driver. o is live if all
 * succeeded. 0 or -errno; on error the framework's abort releases what
 * was taken.
 */
int sim_obj_hw_create(struct sim_uvfile *uv, struct sim_obj *o,
		      struct sim_evq *async, const struct sim_udata *u);
/* What sim_obj_hw_create took: o's events go from its async event file
 * (its own, else uv's) and its hold on its own; its umems are released. */
void sim_obj_parts_put(struct sim_uvfile *uv, struct sim_obj *o);
/* o's destroy response (the events it reported) into resp, which holds
 * SIM_OBJ_EVENTS_MAX bytes: its length, 0 if its type has none. */
#define SIM_OBJ_EVENTS_MAX 8
size_t sim_obj_events(struct sim_obj *o, void *resp);

#endif
