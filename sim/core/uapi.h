/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Declarative uverbs methods: each method lists its attributes once (id,
 * kind, access, mandatory, length bounds) and ioctl.c validates every call
 * against that list before the handler runs, as the kernel's uapi does.
 */
#ifndef RDMA_SIM_UAPI_H
#define RDMA_SIM_UAPI_H

#include "port_attr.h"
#include "sim.h"

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_dm_uapi.h>
#include <rdma/rdma_user_ioctl_cmds.h>

enum sim_attr_kind { SA_PTR_IN, SA_PTR_OUT, SA_IDR, SA_FD, SA_ENUM_IN,
		     SA_RAW_FD };
enum sim_attr_access { SA_READ, SA_WRITE, SA_NEW, SA_DESTROY };

struct sim_attr_spec {
	uint16_t id;
	uint8_t kind;
	uint8_t access; /* IDR/FD */
	uint8_t mandatory;
	const struct sim_obj_type *type; /* IDR: the object's type */
	uint16_t min_len, max_len;	 /* PTR */
	uint8_t num_elems;		 /* ENUM_IN */
	uint8_t zero_trailing; /* UVERBS_ATTR_STRUCT: longer is fine */
	uint8_t fd_comp;  /* FD read: a completion channel, else async file */
	const char *name; /* the uAPI macro, for the trace */
};

#define SIM_NO_MAX 0xffff
/* Attribute declaration helpers, mirroring the kernel's vocabulary. */
#define A_IN(i, lo, hi, m)                                                     \
	{                                                                      \
		.id = (i), .name = #i, .kind = SA_PTR_IN, .mandatory = (m),    \
		.min_len = (lo), .max_len = (hi)                               \
	}
#define A_OUT(i, lo, hi, m)                                                    \
	{                                                                      \
		.id = (i), .name = #i, .kind = SA_PTR_OUT, .mandatory = (m),   \
		.min_len = (lo), .max_len = (hi)                               \
	}
/* const/enum-typed scalars are a u64 on the wire */
/* A struct output: at least min bytes, longer buffers get zeroed tails. */
#define A_OUT_STRUCT(i, lo, sz, m)                                             \
	{                                                                      \
		.id = (i), .name = #i, .kind = SA_PTR_OUT, .mandatory = (m),   \
		.min_len = (lo), .max_len = (sz), .zero_trailing = 1           \
	}
#define A_CONST(i, m) A_IN(i, 8, 8, m)
/* UVERBS_ATTR_FLAGS_IN: a u64, or a u32 from older userspace; read with
 * sim_attr_flags() */
#define A_FLAGS(i, m)                                                          \
	{                                                                      \
		.id = (i), .name = #i, .kind = SA_PTR_IN, .mandatory = (m),    \
		.min_len = 4, .max_len = 8                                     \
	}
#define A_IDR(i, t, acc)                                                       \
	{                                                                      \
		.id = (i), .name = #i, .kind = SA_IDR, .access = (acc),        \
		.mandatory = 1, .type = &(t)                                   \
	}
#define A_FD_NEW(i)                                                            \
	{                                                                      \
		.id = (i), .name = #i, .kind = SA_FD, .access = SA_NEW,        \
		.mandatory = 1                                                 \
	}
/* An existing event file: completion channel (comp) or async event fd. */
#define A_FD_READ(i, comp)                                                     \
	{                                                                      \
		.id = (i), .name = #i, .kind = SA_FD, .access = SA_READ,       \
		.fd_comp = (comp)                                              \
	}
#define A_IDR_OPT(i, t, acc)                                                   \
	{                                                                      \
		.id = (i), .name = #i, .kind = SA_IDR, .access = (acc),        \
		.type = &(t)                                                   \
	}
/* A struct input: at least lo bytes; longer ones need zero tails. */
#define A_IN_STRUCT(i, lo, sz, m)                                              \
	{                                                                      \
		.id = (i), .name = #i, .kind = SA_PTR_IN, .mandatory = (m),    \
		.min_len = (lo), .max_len = (sz), .zero_trailing = 1           \
	}
/* UVERBS_ATTR_ENUM_IN of n elements without payloads */
#define A_ENUM(i, n, m)                                                        \
	{                                                                      \
		.id = (i), .name = #i, .kind = SA_ENUM_IN, .mandatory = (m),   \
		.num_elems = (n)                                               \
	}
/* UVERBS_ATTR_RAW_FD: len 0, the fd in data (an s64 in int range) */
#define A_RAW_FD(i, m)                                                         \
	{                                                                      \
		.id = (i), .name = #i, .kind = SA_RAW_FD, .mandatory = (m)     \
	}
#define A_U32(i, m) A_IN(i, 4, 4, m)
#define A_U64(i, m) A_IN(i, 8, 8, m)
#define A_UHW_IN    A_IN(UVERBS_ATTR_UHW_IN, 0, SIM_NO_MAX, 0)
#define A_UHW_OUT   A_OUT(UVERBS_ATTR_UHW_OUT, 0, SIM_NO_MAX, 0)

#define SIM_MAX_CALL_ATTRS 32 /* declared per method, core + driver */

struct sim_call_attr {
	const struct sim_attr_spec *spec;
	struct ib_uverbs_attr *u; /* the caller's copy, for outputs */
	int present;
	uint16_t len;
	uint64_t data;
	struct sim_obj *obj; /* IDR read/write/destroy: resolved object */
	struct sim_evq *evq; /* FD read: resolved event file */
	uint64_t new_value;  /* IDR/FD new: handle or fd to return */
	uint8_t has_new;     /* new_value is set (the object exists) */
	void *kdata;	     /* PTR_IN > 8 bytes: our copy of the payload */
};

struct sim_method;
struct sim_call {
	struct sim_uvfile *uv;
	const struct sim_method *m;
	unsigned int n;
	int dirty; /* attrs (flags/data) must be written back */
	struct sim_call_attr a[SIM_MAX_CALL_ATTRS];
	char note[160]; /* handler's line for the trace */
};

typedef int (*sim_handler)(struct sim_call *c);

enum { SIM_M_NEEDS_CTX = 1 };

struct sim_method {
	uint16_t obj, method;
	const char *obj_name, *name;
	sim_handler fn;
	const struct sim_attr_spec *attrs;
	uint8_t nattrs;
	uint8_t flags;
	/* 1: the method does not exist for this driver/kernel (the uapi's
	 * method "needs fn"): EPROTONOSUPPORT. NULL: always there. */
	int (*hidden)(void);
};

/* Driver attributes added to a core method (e.g. mlx5 on DM_ALLOC). */
struct sim_method_ext {
	uint16_t obj, method;
	const struct sim_attr_spec *attrs;
	uint8_t nattrs;
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define SIM_METHOD(o, on, m, mn, f, at, fl)                                    \
	{                                                                      \
		.obj = (o), .method = (m), .obj_name = (on), .name = (mn),     \
		.fn = (f), .attrs = (at), .nattrs = ARRAY_SIZE(at),            \
		.flags = (fl)                                                  \
	}

/* ---- accessors for handlers ---- */
struct sim_call_attr *sim_attr(struct sim_call *c, uint16_t id);
/* A RAW_FD attribute's fd, or -1 when absent. */
int sim_attr_raw_fd(struct sim_call *c, uint16_t id);
/* Scalar input (inline), or dflt when absent. */
uint64_t sim_attr_u64(struct sim_call *c, uint16_t id, uint64_t dflt);
/*
 * A flags attribute as uverbs_get_flags64 reads it: absent is 0, a length
 * other than 4 or 8 or a bit outside allowed is -EINVAL.
 */
int sim_attr_flags(struct sim_call *c, uint16_t id, uint64_t allowed,
		   uint64_t *flags);
/* Copy a PTR_IN payload (inline or pointer), zero-filling to len. */
int sim_attr_copy_in(struct sim_call *c, uint16_t id, void *dst, size_t len);
/* Pointer/length of a PTR_IN payload (into the attr for inline data). */
const void *sim_attr_in_ptr(struct sim_call *c, uint16_t id, size_t *len);
/* Write min(len, attr len) bytes and set VALID_OUTPUT. Absent: 0. */
int sim_attr_copy_out(struct sim_call *c, uint16_t id, const void *src,
		      size_t len);
/* The object an IDR attribute names; for a NEW one, the framework's new
 * object the handler fills in. */
struct sim_obj *sim_attr_obj(struct sim_call *c, uint16_t id);
struct sim_evq *sim_attr_evq(struct sim_call *c, uint16_t id);
/* A create's udata: the UHW_IN payload, a zeroed UHW_OUT-sized buffer
 * and the call. 0 or -ENOMEM; sim_attr_udata_put frees it. */
int sim_attr_udata(struct sim_call *c, struct sim_udata *u);
/* Unless ret, u's response goes back in UHW_OUT; u's buffer is freed.
 * ret, else the copy's -errno. */
int sim_attr_udata_put(struct sim_call *c, struct sim_udata *u, int ret);
/* The handler of a destroy method: the object its DESTROY attribute
 * names goes (-EBUSY while used), then the method's output attribute, if
 * it declares one, gets the object's destroy response (sim_obj_events). */
int sim_destroy_method(struct sim_call *c);
/* A NEW FD attribute: the fd the handler made (closed by the type's
 * abort_fd if the call fails after it). */
void sim_attr_set_new(struct sim_call *c, uint16_t id, uint64_t value);

/* ---- buffers named by descriptor (umem.c) ---- */
/*
 * Pin @len bytes of user memory at @addr as ib_umem_get() would: 0,
 * -EFAULT (not all mapped), -EOPNOTSUPP (a CoCo guest: DMA bounces).
 */
int sim_pin_user(uint64_t addr, uint64_t len);
/*
 * The BUF_UMEM attribute @id of @c (NULL or absent: *u zeroed, 0): checked
 * and, for a dma-buf, imported. 0 or -errno.
 */
int sim_umem_get(struct sim_call *c, uint16_t id, struct sim_umem *u);
/* The core's ring descriptor @id: as sim_umem_get, and -EOPNOTSUPP when
 * the driver takes no rings by descriptor. */
int sim_umem_ring(struct sim_call *c, uint16_t id, struct sim_umem *u);
/* The device's view of the range, or NULL (none, or revoked). */
uint8_t *sim_umem_bytes(struct sim_umem *u);
void sim_umem_put(struct sim_umem *u);

/* ---- driver model (driver_*.c) ---- */
/*
 * What a driver reports and checks for the data-path objects: its limits
 * (QUERY_DEVICE reports them) and the few rules in which mlx5_ib and rxe
 * differ. The core checks everything both kernels' drivers check; a
 * driver's hooks add the rest.
 */
struct sim_verbs_rules {
	uint32_t max_qp, max_qp_wr, max_sge, max_sge_rd;
	uint32_t max_cq, max_cqe;
	uint32_t max_srq, max_srq_wr, max_srq_sge;
	uint32_t max_qp_rd_atom, max_qp_init_rd_atom;
	uint32_t max_ah;
	uint32_t qpn_base;	  /* first QP number handed out */
	uint8_t min_path_mtu;	  /* mlx5: IB_MTU_256; rxe does not check 0 */
	uint8_t chk_pkey_index;	  /* mlx5: pkey_index < pkey table */
	uint8_t chk_dest_rd_atom; /* mlx5: max_dest_rd_atomic limit */
	uint8_t chk_timeout;	  /* rxe: timeout/alt_timeout <= 31 */
	uint8_t last_wqe_on_err;  /* an SRQ QP entering ERR: LAST_WQE_REACHED */
	uint8_t chk_cur_state;	  /* mlx5 firmware: CUR_STATE must be true */
	uint8_t sqd_event_always; /* rxe: SQ_DRAINED even unrequested */
	uint8_t srq_resize;	  /* rxe: MODIFY_SRQ may change max_wr */
	uint32_t qp_create_flags; /* IB_QP_CREATE_* the driver accepts */
	uint32_t max_mw;	  /* 0: no memory windows (ALLOC_MW refused) */
	uint8_t rereg_mr;	  /* has rereg_user_mr (mlx5; not 6.1 rxe) */
	/* CQ moderation: the largest cq_period (µs); 0: no modify_cq */
	uint16_t max_cq_period;
	uint8_t driver_qp;	  /* mlx5: IB_QPT_DRIVER (DC) QPs */
};

struct sim_driver_ops {
	/* alloc_ucontext udata; out_used = bytes of response produced */
	int (*alloc_ucontext)(struct sim_uvfile *uv, const void *in,
			      size_t in_len, void *out, size_t out_len);
	/* QUERY_DEVICE(_EX) udata response */
	void (*query_device_uhw)(struct sim_uvfile *uv, void *out,
				 size_t out_len);
	void *(*mmap)(struct sim_uvfile *uv, void *addr, size_t len, int prot,
		      int flags, uint64_t pgoff);
	/* DMABUF PGOFF (byte offset) -> entry; NULL: no DMABUF object */
	struct sim_entry *(*pgoff_to_entry)(struct sim_uvfile *uv,
					    uint64_t off);
	int (*alloc_dm)(struct sim_call *c, struct sim_dm *dm, uint64_t len,
			uint32_t log_align);
	/* A DMA handle the core checked (obj_dmah.c); NULL: no DMAH
	 * object. 0 or -errno. */
	int (*alloc_dmah)(struct sim_dmah *dmah);
	/*
	 * Data-path objects, all optional (NULL: the driver does nothing
	 * extra). Called with sim_lock held, after the core validated the
	 * request and set up the object (handle, generic fields). in/in_len
	 * is the call's driver udata (UHW_IN); out is a zeroed buffer of
	 * out_len bytes (the caller's UHW_OUT length), all of which the core
	 * copies back on success. 0 or -errno; on error the core undoes the
	 * object and the errno reaches userspace.
	 */
	int (*create_cq)(struct sim_uvfile *uv, struct sim_cq *cq,
			 const void *in, size_t in_len, void *out,
			 size_t out_len);
	/* cqe: the requested size; the driver sets cq->cqe on success */
	int (*resize_cq)(struct sim_uvfile *uv, struct sim_cq *cq, uint32_t cqe,
			 const void *in, size_t in_len, void *out,
			 size_t out_len);
	void (*destroy_cq)(struct sim_uvfile *uv, struct sim_cq *cq);
	/* REQ_NOTIFY_CQ (write only): arm the CQ's next completion event */
	void (*req_notify_cq)(struct sim_cq *cq, int solicited_only);
	/* qp->attr.cap holds the requested caps; the driver may adjust them
	 * (the response reports qp->attr.cap) */
	int (*create_qp)(struct sim_uvfile *uv, struct sim_qp *qp,
			 const void *in, size_t in_len, void *out,
			 size_t out_len);
	/* After the generic state-table and attribute checks passed; the
	 * core stores new_attr's masked fields only when this returns 0. */
	int (*modify_qp)(struct sim_uvfile *uv, struct sim_qp *qp,
			 const struct sim_qp_attr *new_attr, uint32_t attr_mask,
			 const void *in, size_t in_len, void *out,
			 size_t out_len);
	void (*destroy_qp)(struct sim_uvfile *uv, struct sim_qp *qp);
	int (*create_srq)(struct sim_uvfile *uv, struct sim_srq *srq,
			  const void *in, size_t in_len, void *out,
			  size_t out_len);
	/* mask: IB_SRQ_MAX_WR 1, IB_SRQ_LIMIT 2; in: MODIFY_SRQ's udata.
	 * The driver sets srq->max_wr when it resizes; the core stores the
	 * limit. */
	int (*modify_srq)(struct sim_uvfile *uv, struct sim_srq *srq,
			  uint32_t max_wr, uint32_t srq_limit, uint32_t mask,
			  const void *in, size_t in_len);
	void (*destroy_srq)(struct sim_uvfile *uv, struct sim_srq *srq);
	/* RoCE: fills the response's dmac etc. */
	int (*create_ah)(struct sim_uvfile *uv, struct sim_ah *ah,
			 const void *in, size_t in_len, void *out,
			 size_t out_len);
	void (*destroy_ah)(struct sim_uvfile *uv, struct sim_ah *ah);
	/* POST_SEND / POST_RECV / POST_SRQ_RECV by write() after uverbs'
	 * checks (NULL: EOPNOTSUPP); on error *bad is the 1-based WR. */
	int (*post_send)(struct sim_uvfile *uv, struct sim_qp *qp,
			 uint32_t wr_count, uint32_t *bad);
	int (*post_recv)(struct sim_uvfile *uv, struct sim_qp *qp,
			 uint32_t wr_count, uint32_t *bad);
	int (*post_srq_recv)(struct sim_uvfile *uv, struct sim_srq *srq,
			     uint32_t wr_count, uint32_t *bad);
	/* ALLOC_MW's driver udata (NULL: ignored). 0 or -errno. */
	int (*alloc_mw)(const void *in, size_t in_len);
	const struct sim_verbs_rules *rules;
	const struct sim_method *methods;
	const unsigned int *nmethods;
	const struct sim_method_ext *ext;
	const unsigned int *next;
	uint8_t alloc_pd_uhw;  /* ALLOC_PD udata response carries the pdn */
	uint8_t reg_dmabuf_mr; /* implements reg_user_mr_dmabuf */
	/* models a kernel with UVERBS_METHOD_REG_MR (after 6.12); rxe stays
	 * the 6.1/6.12 kernels the VM lane compares it with */
	uint8_t reg_mr_method;
	/* takes CQ and QP rings by descriptor (BUF_UMEM); else EOPNOTSUPP */
	uint8_t buf_umem;
	uint8_t xrc; /* alloc_xrcd: the XRCD object, XRC SRQs and QPs */
	/* OPEN_QP made a handle of an XRC_TGT QP (NULL: nothing to do) */
	void (*open_qp)(struct sim_uvfile *uv, struct sim_qp *qp);
	/* On-demand paging (NULL: none). odp_caps fills EX_QUERY_DEVICE's
	 * odp_caps and xrc_odp_caps; advise_mr runs ADVISE_MR after the
	 * core's checks (sge: n entries), 0 or -errno. */
	void (*odp_caps)(struct ib_uverbs_ex_query_device_resp *r);
	int (*advise_mr)(struct sim_uvfile *uv, struct sim_pd *pd,
			 uint32_t advice, uint32_t flags,
			 const struct ib_uverbs_sge *sge, uint32_t n);
	/* The device's memory keys (NULL: none). reg_mr once an MR's keys
	 * and range are final (0 or -errno: the MR goes), dereg_mr when it
	 * goes or before rereg changes it; the same for an MW. */
	int (*reg_mr)(struct sim_mr *mr);
	void (*dereg_mr)(struct sim_mr *mr);
	int (*alloc_mw_key)(struct sim_mw *mw);
	void (*dealloc_mw_key)(struct sim_mw *mw);
	/* EX_MODIFY_CQ's moderation once the core's checks passed. */
	int (*modify_cq)(struct sim_cq *cq, uint16_t count, uint16_t period);
	/* Tag matching: tm_srq lets IB_UVERBS_SRQT_TM reach create_srq (else
	 * EOPNOTSUPP, as rxe); tm_caps fills EX_QUERY_DEVICE's tm_caps for
	 * device dev (NULL: zeros). */
	uint8_t tm_srq;
	void (*tm_caps)(unsigned int dev, struct ib_uverbs_tm_caps *caps);
	/* A MAD for device dev's port 1 to its own agents (SMA, PMA): 1 with
	 * the response in out, 0 if none answers (NULL: none, RoCE). */
	int (*process_mad)(unsigned int dev, const uint8_t *in, uint8_t *out);
};
extern const struct sim_driver_ops sim_mlx5_ops;
extern const struct sim_driver_ops sim_rxe_ops;
const struct sim_driver_ops *sim_driver(void);
/* Every driver model in turn (for lists); NULL past the last. */
const struct sim_driver_ops *sim_driver_at(unsigned int i);

/*
 * k_hw_create and k_hw_destroy, a data-path kind k's (cq, qp, srq, ah)
 * struct sim_obj_type hooks: sim_driver()'s create_k and destroy_k on
 * the object (either may be NULL: nothing to do).
 */
#define SIM_HW_HOOKS(k)                                                        \
	static int k##_hw_create(struct sim_uvfile *uv, struct sim_obj *o,     \
				 const struct sim_udata *u)                    \
	{                                                                      \
		const struct sim_driver_ops *d = sim_driver();                 \
                                                                               \
		return d->create_##k                                           \
			       ? d->create_##k(uv, sim_##k(o), u->in,          \
					       u->in_len, u->out, u->out_len)  \
			       : 0;                                            \
	}                                                                      \
	static void k##_hw_destroy(struct sim_uvfile *uv, struct sim_obj *o)   \
	{                                                                      \
		if (sim_driver()->destroy_##k)                                 \
			sim_driver()->destroy_##k(uv, sim_##k(o));             \
	}

/* ---- services the core gives drivers (events.c, uvfile.c) ---- */
/* One completion event for cq on its channel (if it has one): the channel
 * fd becomes readable (poll/epoll/read). The driver decides when a CQ is
 * armed (mlx5: arm doorbell; rxe: REQ_NOTIFY_CQ). Needs sim_lock. */
void sim_cq_comp_event(struct sim_cq *cq);
/* Async event numbers (enum ib_event_type; the same in ibv_event_type). */
enum sim_event_type {
	SIM_EVENT_CQ_ERR = 0,
	SIM_EVENT_QP_FATAL = 1,
	SIM_EVENT_QP_REQ_ERR = 2,
	SIM_EVENT_QP_ACCESS_ERR = 3,
	SIM_EVENT_COMM_EST = 4,
	SIM_EVENT_SQ_DRAINED = 5,
	SIM_EVENT_SRQ_ERR = 14,
	SIM_EVENT_SRQ_LIMIT_REACHED = 15,
	SIM_EVENT_QP_LAST_WQE_REACHED = 16,
};
/* Queue an async event (enum sim_event_type) for obj (a CQ, QP or SRQ:
 * its user handle is the element) on its event file, by default the
 * owning context's async fd; uv may be NULL (obj's own context). Needs
 * sim_lock. */
void sim_async_event(struct sim_uvfile *uv, uint32_t event_type,
		     struct sim_obj *obj);
/* Queue a port or device event (element: the port number, or 0) on uv's
 * async event file. Needs sim_lock. */
void sim_device_event(struct sim_uvfile *uv, uint32_t event_type,
		      uint32_t element);
/* Call fn for each open uverbs file of this process on device dev that
 * has a context. Needs sim_lock. */
void sim_for_each_context(unsigned int dev,
			  void (*fn)(struct sim_uvfile *uv, void *arg),
			  void *arg);
/* A live MR of this process on device dev with this lkey or rkey (NULL if
 * none). Needs sim_lock. */
struct sim_mr *sim_mr_by_key(unsigned int dev, uint32_t key);
/* The memory window whose index (key >> 8) is key's, whatever its key
 * byte; NULL if this process has none. */
struct sim_mw *sim_mw_by_key(unsigned int dev, uint32_t key);
/* A live QP of this process on device dev with this number, or NULL. */
struct sim_qp *sim_qp_by_num(unsigned int dev, uint32_t qpn);
/* fn(qp, arg) for every live QP handle numbered qpn in this process (an
 * XRC_TGT QP has several). */
void sim_for_each_qp_num(unsigned int dev, uint32_t qpn,
			 void (*fn)(struct sim_qp *, uint32_t), uint32_t arg);

/* legacy write commands, shared by write() and INVOKE_WRITE (write_cmd.c) */
struct sim_wcall;
/* One write() command: number, name, core request/response sizes. */
struct sim_wcmd {
	uint32_t cmd;
	const char *name;   /* IB_USER_VERBS_[EX_]CMD_ name; --fail kind */
	uint16_t req, resp; /* core sizes; non-ex req includes 'response' */
	uint8_t has_resp_ptr;
	uint8_t needs_ctx;
	int (*fn)(struct sim_wcall *w);
};

struct sim_wcall {
	struct sim_uvfile *uv;
	const void *in; /* core request, after any header */
	size_t in_len;
	void *out;
	size_t out_len;
	const void *uhw_in;
	size_t uhw_in_len;
	void *uhw_out;
	size_t uhw_out_len;
	char note[96]; /* the handler's words for the trace */
	/* A create (its type lists it in wcreates): the new object the
	 * framework made before the handler, or for an FD type the fd the
	 * handler made (-1: none yet); committed or aborted after it. */
	struct sim_obj *obj;
	int new_fd;
};
int sim_invoke_write(struct sim_uvfile *uv, uint32_t cmd, struct sim_wcall *w);
/* The core response: min(len, buffer) bytes, the rest of it zeroed. */
int sim_wc_out(struct sim_wcall *w, const void *src, size_t len);
/* The driver's udata response: min(len, buffer) bytes. */
int sim_wc_uhw_out(struct sim_wcall *w, const void *src, size_t len);
/* The request's udata and a zeroed buffer for the driver's response, as
 * sim_attr_udata and sim_attr_udata_put for write() (call NULL). */
int sim_wc_udata(struct sim_wcall *w, struct sim_udata *u);
int sim_wc_udata_put(struct sim_wcall *w, struct sim_udata *u, int ret);
/* An ex request of any length: shorter is zero-extended, longer must
 * have a zero tail (else -EOPNOTSUPP). */
int sim_wc_in(struct sim_wcall *w, void *dst, size_t len);
/* POST_SEND / POST_RECV / POST_SRQ_RECV (qp_post.c) */
int sim_w_post_send(struct sim_wcall *w);
int sim_w_post_recv(struct sim_wcall *w);
int sim_w_post_srq_recv(struct sim_wcall *w);
/* MODIFY_QP / EX_MODIFY_QP (qp_modify.c) */
int sim_w_modify_qp(struct sim_wcall *w);
/* ATTACH_MCAST / DETACH_MCAST (qp_mcast.c) */
int sim_w_attach_mcast(struct sim_wcall *w);
int sim_w_detach_mcast(struct sim_wcall *w);
int sim_w_ex_modify_qp(struct sim_wcall *w);
/* Destroy the object of type t the request names: by the first u32, or
 * where the type has a destroy response (CQ, QP, SRQ) by the one after
 * the response's address; that response goes back (sim_obj_events). */
int sim_wc_destroy(struct sim_wcall *w, const struct sim_obj_type *t);

/* core helpers used by both paths (verbs_core.c) */
int sim_get_context(struct sim_uvfile *uv, const void *uin, size_t uin_len,
		    void *uout, size_t uout_len);
/* The device attributes QUERY_DEVICE reports; also the limits create
 * commands are checked against. */
void sim_fill_device(unsigned int dev, struct ib_uverbs_query_device_resp *r);
/* A new async event file of uv (the first is its default): fd or -errno */
int sim_alloc_async_fd(struct sim_uvfile *uv, int cloexec);
uint32_t sim_num_comp_vectors(void);
/* An address vector as rdma_check_ah_attr and the source-GID lookup see
 * it: RoCE needs a GRH (EINVAL), the GID index must be in the table
 * (EINVAL) and hold a GID (ENODATA). */
/* Deliver uv's RoCE port events from now on (net_events.c); called with
 * sim_lock held when uv gets its async event file. */
void sim_net_events_watch(struct sim_uvfile *uv);
int sim_check_ah_attr(unsigned int dev, const struct sim_ah_attr *a);
/* RoCE port: the AV's destination MAC as the kernel resolves it
 * (-ETIMEDOUT when nothing answers); 0 on InfiniBand. */
int sim_resolve_ah_dmac(unsigned int dev, struct sim_ah_attr *a);
/* Processes' handles on a shared kernel object (obj_xrcd.c), under the
 * shared lock: drop dead holders and count the live ones; one handle of
 * this process more (delta 1) or less (-1), -ENOMEM when full. */
unsigned int sim_holders_reap(struct sim_holder *h);
int sim_holders_add(struct sim_holder *h, int delta);

/*
 * The XRC_TGT QP as its domain owns it (xrc_tgt.c): a row of the world
 * every handle holds (the creator's: new; OPEN_QP's: open, -EINVAL when
 * the domain has no such QP), gone with the last handle (put). Modify and
 * query act on the row's attributes (load before, store after).
 */
int sim_xrc_tgt_new(struct sim_qp *qp);
int sim_xrc_tgt_open(unsigned int dev, struct sim_qp *qp, uint32_t xrcdn);
void sim_xrc_tgt_put(struct sim_qp *qp);
void sim_xrc_tgt_load(struct sim_qp *qp);
void sim_xrc_tgt_store(struct sim_qp *qp);
/* An error the HCA found puts the row (sim_xrc_tgt_row) in ERR and
 * raises event on every handle of this process (error); event alone
 * raises it on them. */
void sim_xrc_tgt_error(struct sim_xrc_tgt *t, uint32_t event);
void sim_xrc_tgt_event(const struct sim_xrc_tgt *t, uint32_t event);

/* ib_check_mr_access: 0, -EINVAL, or ON_DEMAND on a device without ODP
 * -EOPNOTSUPP (6.1: -EINVAL) */
int sim_check_mr_access(uint64_t flags);
/* ODP rules of REG_MR (mr_advise.c): 0 or -EINVAL. */
int sim_mr_odp_check(uint64_t addr, uint64_t len, uint64_t iova, uint64_t acc);
/* UVERBS_METHOD_ADVISE_MR's handler (mr_advise.c). */
int sim_mr_advise(struct sim_call *c);
/* The framework's new MR: holding pd (and dm), with fresh keys. */
void sim_mr_init(struct sim_mr *mr, struct sim_pd *pd, struct sim_dm *dm);

/* mapping helpers for drivers (mmap.c) */
void *sim_map_anon(void *addr, size_t len, int prot, int flags);
/* Map entry e; len must be the entry's whole size (EINVAL otherwise). */
void *sim_map_entry(struct sim_uvfile *uv, struct sim_entry *e, void *addr,
		    size_t len, int prot, int flags);

#endif
