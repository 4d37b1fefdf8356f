/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The provider interface of libibverbs (private ABI, IBVERBS_PRIVATE_<PABI>).
 *
 * A provider is a plug-in (lib<name>-rdmav<PABI>.so) whose constructor calls
 * verbs_register_driver_<PABI>() with a struct verbs_device_ops. libibverbs
 * matches sysfs/netlink devices against the ops' match table, asks the
 * provider to allocate a verbs_device, and later a verbs_context. Every verb
 * then dispatches through struct verbs_context_ops; entries a provider leaves
 * NULL keep the default, which fails with EOPNOTSUPP.
 */
#ifndef RDMA_DM_DRIVER_H
#define RDMA_DM_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <infiniband/verbs.h>

#include "cmd_ioctl.h"

#ifndef IBVERBS_PABI_VERSION
#error "IBVERBS_PABI_VERSION must come from the build"
#endif

/* ------------------------------------------------------------------ */
/* Objects that carry a kernel handle beyond the public struct.        */

struct verbs_dm {
	struct ibv_dm dm;
	uint32_t handle;
};

enum ibv_mr_type {
	IBV_MR_TYPE_MR,
	IBV_MR_TYPE_NULL_MR,
	IBV_MR_TYPE_IMPORTED_MR,
	IBV_MR_TYPE_DMABUF_MR,
};

struct verbs_mr {
	struct ibv_mr ibv_mr;
	enum ibv_mr_type mr_type;
	int access;
};

static inline struct verbs_mr *verbs_get_mr(struct ibv_mr *mr)
{
	return (struct verbs_mr *)mr;
}

/* A DMA handle (ibv_alloc_dmah()) and its kernel handle. */
struct verbs_dmah {
	struct ibv_dmah dmah;
	uint32_t handle;
};

static inline struct verbs_dmah *verbs_get_dmah(struct ibv_dmah *dmah)
{
	return (struct verbs_dmah *)dmah;
}

/*
 * A buffer a provider allocated for a PD (ibv_alloc_buf()). Providers
 * embed it; ibv_free_buf() finds the provider through @pd. Its layout is
 * part of the private ABI.
 */
struct ibv_buf {
	void *addr;
	size_t size;
	struct ibv_pd *pd;
	int dmabuf_fd; /* -1: ordinary memory */
};

static inline void ibv_buf_init(struct ibv_buf *buf, struct ibv_pd *pd,
				void *addr, size_t size)
{
	buf->addr = addr;
	buf->size = size;
	buf->pd = pd;
	buf->dmabuf_fd = -1;
}

/* @addr maps the whole dma-buf @fd from its offset 0. */
static inline void ibv_buf_init_dmabuf(struct ibv_buf *buf, struct ibv_pd *pd,
				       void *addr, size_t size, int fd)
{
	ibv_buf_init(buf, pd, addr, size);
	buf->dmabuf_fd = fd;
}

/*
 * Data-path objects. Providers embed these at the start of their own
 * structs and pass them to the ibv_cmd_create_*() helpers below, which fill
 * every generic field (context, handle, counters, locks; the channel's
 * reference): create_cq_ex, create_qp_ex and create_srq_ex are reached
 * through inline functions of verbs.h that never enter libibverbs' wrappers.
 */
struct verbs_cq {
	union {
		struct ibv_cq cq;
		struct ibv_cq_ex cq_ex;
	};
};

static inline struct verbs_cq *verbs_get_cq(struct ibv_cq *cq)
{
	return (struct verbs_cq *)cq;
}

enum verbs_qp_mask {
	VERBS_QP_XRCD = 1 << 0,
	/* qp_ex is valid: ibv_qp_to_qp_ex() returns it. */
	VERBS_QP_EX = 1 << 1,
};

struct verbs_qp {
	union {
		struct ibv_qp qp;
		struct ibv_qp_ex qp_ex;
	};
	uint32_t comp_mask; /* enum verbs_qp_mask */
	struct ibv_xrcd *xrcd;
};

static inline struct verbs_qp *verbs_get_qp(struct ibv_qp *qp)
{
	return (struct verbs_qp *)qp;
}

/*
 * A QP type the uAPI knows. A provider refuses the others with EINVAL, as
 * the kernel does, and a known type it lacks with EOPNOTSUPP.
 */
static inline int verbs_qp_type_known(enum ibv_qp_type type)
{
	switch (type) {
	case IBV_QPT_RC:
	case IBV_QPT_UC:
	case IBV_QPT_UD:
	case IBV_QPT_RAW_PACKET:
	case IBV_QPT_XRC_SEND:
	case IBV_QPT_XRC_RECV:
	case IBV_QPT_DRIVER:
		return 1;
	}
	return 0;
}

struct verbs_srq {
	struct ibv_srq srq;
	enum ibv_srq_type srq_type;
	struct ibv_xrcd *xrcd;
	struct ibv_cq *cq;
	uint32_t srq_num;
};

static inline struct verbs_srq *verbs_get_srq(struct ibv_srq *srq)
{
	return (struct verbs_srq *)srq;
}

/* An XRC domain: the public part and the kernel's handle of it. */
struct verbs_xrcd {
	struct ibv_xrcd xrcd;
	uint32_t comp_mask;
	uint32_t handle;
};

static inline struct verbs_xrcd *verbs_get_xrcd(struct ibv_xrcd *xrcd)
{
	return (struct verbs_xrcd *)xrcd;
}

/* ------------------------------------------------------------------ */
/* Matching a device to a provider.                                    */

enum verbs_match_kind {
	VERBS_MATCH_SENTINEL = 0,
	VERBS_MATCH_PCI = 1,
	VERBS_MATCH_MODALIAS = 2,
	VERBS_MATCH_DRIVER_ID = 3,
};

struct verbs_match_ent {
	void *driver_data;
	union {
		const char *modalias;
		uint64_t driver_id;
	} u;
	uint16_t vendor;
	uint16_t device;
	uint8_t kind;
};

#define VERBS_DRIVER_ID(id)                                                   \
	{ .u.driver_id = (id), .kind = VERBS_MATCH_DRIVER_ID }
#define VERBS_PCI_MATCH(ven, dev, data)                                       \
	{ .driver_data = (void *)(data), .vendor = (ven), .device = (dev),    \
	  .kind = VERBS_MATCH_PCI }
/* Matched with fnmatch() against "rdma_device:N<ibdev name>". */
#define VERBS_NAME_MATCH(name_head, data)                                     \
	{ .driver_data = (void *)(data),                                      \
	  .u.modalias = "rdma_device:*N" name_head "*",                       \
	  .kind = VERBS_MATCH_MODALIAS }
/* Matched with fnmatch() against the device's sysfs modalias. */
#define VERBS_MODALIAS_MATCH(pattern, data)                                   \
	{ .driver_data = (void *)(data), .u.modalias = (pattern),             \
	  .kind = VERBS_MATCH_MODALIAS }
#define VERBS_MATCH_END {}

/* What discovery learnt about one device (sysfs and/or netlink). */
struct verbs_sysfs_dev {
	char ibdev_name[IBV_SYSFS_NAME_MAX];  /* mlx5_0 */
	char sysfs_name[IBV_SYSFS_NAME_MAX];  /* uverbs0 */
	char ibdev_path[IBV_SYSFS_PATH_MAX];  /* <sysfs>/class/infiniband/mlx5_0 */
	char sysfs_path[IBV_SYSFS_PATH_MAX];  /* .../infiniband_verbs/uverbs0 */
	char modalias[512];
	uint32_t ibdev_idx;		      /* netlink device index */
	uint32_t num_ports;
	uint64_t node_guid;
	dev_t sysfs_cdev;		      /* 0 if unknown */
	uint32_t driver_id;		      /* RDMA_DRIVER_*, 0 if unknown */
	int abi_ver;			      /* per-device (driver) uverbs ABI */
	enum ibv_node_type node_type;
	struct timespec time_created;
	const struct verbs_match_ent *match;  /* set when a provider matched */
	bool from_netlink;
	bool have_node_guid;
	uint64_t sysfs_ino; /* class entry inode: identity on the sysfs path */
};

struct verbs_device;

struct verbs_device_ops {
	const char *name;
	int match_min_abi_version;
	int match_max_abi_version;
	const struct verbs_match_ent *match_table;
	/* Optional: final say after a table match (or instead of one). */
	bool (*match_device)(struct verbs_sysfs_dev *sysfs_dev);
	struct verbs_context *(*alloc_context)(struct ibv_device *device,
					       int cmd_fd, void *private_data);
	struct verbs_context *(*import_context)(struct ibv_device *device,
						int cmd_fd);
	struct verbs_device *(*alloc_device)(struct verbs_sysfs_dev *sysfs_dev);
	void (*uninit_device)(struct verbs_device *device);
};

struct verbs_device {
	struct ibv_device device; /* must be first */
	const struct verbs_device_ops *ops;
	struct verbs_sysfs_dev *sysfs;
	int refcount;		  /* list + open contexts; freed at 0 */
	struct verbs_device *next;
};

static inline struct verbs_device *verbs_get_device(struct ibv_device *dev)
{
	return (struct verbs_device *)dev;
}

/* ------------------------------------------------------------------ */
/* The operations table. Kept alphabetical; initialise with designated */
/* initialisers only.                                                  */

struct verbs_context_ops {
	int (*advise_mr)(struct ibv_pd *pd, enum ibv_advise_mr_advice advice,
			 uint32_t flags, struct ibv_sge *sg_list,
			 uint32_t num_sges);
	/* Address, or NULL with errno; *buf is the handle to free. */
	void *(*alloc_buf)(struct ibv_pd *pd, size_t size,
			   struct ibv_buf **buf);
	struct ibv_dm *(*alloc_dm)(struct ibv_context *context,
				   struct ibv_alloc_dm_attr *attr);
	struct ibv_dmah *(*alloc_dmah)(struct ibv_context *context,
				       struct ibv_dmah_init_attr *attr);
	struct ibv_mw *(*alloc_mw)(struct ibv_pd *pd, enum ibv_mw_type type);
	struct ibv_mr *(*alloc_null_mr)(struct ibv_pd *pd);
	struct ibv_pd *(*alloc_parent_domain)(
		struct ibv_context *context,
		struct ibv_parent_domain_init_attr *attr);
	struct ibv_pd *(*alloc_pd)(struct ibv_context *context);
	struct ibv_td *(*alloc_td)(struct ibv_context *context,
				   struct ibv_td_init_attr *init_attr);
	void (*async_event)(struct ibv_context *context,
			    struct ibv_async_event *event);
	int (*attach_counters_point_flow)(struct ibv_counters *counters,
					  struct ibv_counter_attach_attr *attr,
					  struct ibv_flow *flow);
	int (*attach_mcast)(struct ibv_qp *qp, const union ibv_gid *gid,
			    uint16_t lid);
	int (*bind_mw)(struct ibv_qp *qp, struct ibv_mw *mw,
		       struct ibv_mw_bind *mw_bind);
	int (*close_xrcd)(struct ibv_xrcd *xrcd);
	void (*cq_event)(struct ibv_cq *cq);
	struct ibv_ah *(*create_ah)(struct ibv_pd *pd,
				    struct ibv_ah_attr *attr);
	struct ibv_comp_cntr *(*create_comp_cntr)(
		struct ibv_context *context,
		struct ibv_comp_cntr_init_attr *attr);
	struct ibv_counters *(*create_counters)(
		struct ibv_context *context,
		struct ibv_counters_init_attr *init_attr);
	struct ibv_cq *(*create_cq)(struct ibv_context *context, int cqe,
				    struct ibv_comp_channel *channel,
				    int comp_vector);
	struct ibv_cq_ex *(*create_cq_ex)(
		struct ibv_context *context,
		struct ibv_cq_init_attr_ex *init_attr);
	struct ibv_flow *(*create_flow)(struct ibv_qp *qp,
					struct ibv_flow_attr *flow_attr);
	struct ibv_flow_action *(*create_flow_action_esp)(
		struct ibv_context *context,
		struct ibv_flow_action_esp_attr *attr);
	struct ibv_qp *(*create_qp)(struct ibv_pd *pd,
				    struct ibv_qp_init_attr *attr);
	struct ibv_qp *(*create_qp_ex)(
		struct ibv_context *context,
		struct ibv_qp_init_attr_ex *qp_init_attr_ex);
	struct ibv_rwq_ind_table *(*create_rwq_ind_table)(
		struct ibv_context *context,
		struct ibv_rwq_ind_table_init_attr *init_attr);
	struct ibv_srq *(*create_srq)(struct ibv_pd *pd,
				      struct ibv_srq_init_attr *srq_init_attr);
	struct ibv_srq *(*create_srq_ex)(
		struct ibv_context *context,
		struct ibv_srq_init_attr_ex *srq_init_attr_ex);
	struct ibv_wq *(*create_wq)(struct ibv_context *context,
				    struct ibv_wq_init_attr *wq_init_attr);
	int (*dealloc_dmah)(struct ibv_dmah *dmah);
	int (*dealloc_mw)(struct ibv_mw *mw);
	int (*dealloc_pd)(struct ibv_pd *pd);
	int (*dealloc_td)(struct ibv_td *td);
	int (*dereg_mr)(struct verbs_mr *vmr);
	int (*destroy_ah)(struct ibv_ah *ah);
	int (*destroy_comp_cntr)(struct ibv_comp_cntr *comp_cntr);
	int (*destroy_counters)(struct ibv_counters *counters);
	int (*destroy_cq)(struct ibv_cq *cq);
	int (*destroy_flow)(struct ibv_flow *flow);
	int (*destroy_flow_action)(struct ibv_flow_action *action);
	int (*destroy_qp)(struct ibv_qp *qp);
	int (*destroy_rwq_ind_table)(struct ibv_rwq_ind_table *rwq_ind_table);
	int (*destroy_srq)(struct ibv_srq *srq);
	int (*destroy_wq)(struct ibv_wq *wq);
	int (*detach_mcast)(struct ibv_qp *qp, const union ibv_gid *gid,
			    uint16_t lid);
	/* Returns a new dma-buf fd, or -1 with errno set. */
	int (*dm_export_dmabuf_fd)(struct ibv_dm *dm);
	void (*free_buf)(struct ibv_buf *buf);
	void (*free_context)(struct ibv_context *context);
	/* 0 or a positive errno; on error nothing is released. */
	int (*free_dm)(struct ibv_dm *dm);
	int (*get_srq_num)(struct ibv_srq *srq, uint32_t *srq_num);
	struct ibv_dm *(*import_dm)(struct ibv_context *context,
				    uint32_t dm_handle);
	struct ibv_mr *(*import_mr)(struct ibv_pd *pd, uint32_t mr_handle);
	struct ibv_pd *(*import_pd)(struct ibv_context *context,
				    uint32_t pd_handle);
	int (*inc_comp_cntr)(struct ibv_comp_cntr *comp_cntr, uint64_t amount);
	int (*inc_err_comp_cntr)(struct ibv_comp_cntr *comp_cntr,
				 uint64_t amount);
	int (*modify_cq)(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr);
	int (*modify_flow_action_esp)(struct ibv_flow_action *action,
				      struct ibv_flow_action_esp_attr *attr);
	int (*modify_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr,
			 int attr_mask);
	int (*modify_qp_rate_limit)(struct ibv_qp *qp,
				    struct ibv_qp_rate_limit_attr *attr);
	int (*modify_srq)(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr,
			  int srq_attr_mask);
	int (*modify_wq)(struct ibv_wq *wq, struct ibv_wq_attr *wq_attr);
	struct ibv_qp *(*open_qp)(struct ibv_context *context,
				  struct ibv_qp_open_attr *attr);
	struct ibv_xrcd *(*open_xrcd)(
		struct ibv_context *context,
		struct ibv_xrcd_init_attr *xrcd_init_attr);
	int (*poll_cq)(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc);
	int (*post_recv)(struct ibv_qp *qp, struct ibv_recv_wr *wr,
			 struct ibv_recv_wr **bad_wr);
	int (*post_send)(struct ibv_qp *qp, struct ibv_send_wr *wr,
			 struct ibv_send_wr **bad_wr);
	int (*post_srq_ops)(struct ibv_srq *srq, struct ibv_ops_wr *op,
			    struct ibv_ops_wr **bad_op);
	int (*post_srq_recv)(struct ibv_srq *srq, struct ibv_recv_wr *recv_wr,
			     struct ibv_recv_wr **bad_recv_wr);
	int (*qp_attach_comp_cntr)(struct ibv_qp *qp,
				   struct ibv_comp_cntr *comp_cntr,
				   struct ibv_qp_attach_comp_cntr_attr *attr);
	/* @caps is already zeroed for @caps_size bytes. */
	int (*query_comp_cntr_caps)(struct ibv_context *context,
				    struct ibv_comp_cntr_caps *caps,
				    size_t caps_size);
	int (*query_device_ex)(struct ibv_context *context,
			       const struct ibv_query_device_ex_input *input,
			       struct ibv_device_attr_ex *attr,
			       size_t attr_size);
	int (*query_ece)(struct ibv_qp *qp, struct ibv_ece *ece);
	int (*query_port)(struct ibv_context *context, uint8_t port_num,
			  struct ibv_port_attr *port_attr);
	int (*query_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr,
			int attr_mask, struct ibv_qp_init_attr *init_attr);
	int (*query_qp_data_in_order)(struct ibv_qp *qp,
				      enum ibv_wr_opcode op, uint32_t flags);
	int (*query_rt_values)(struct ibv_context *context,
			       struct ibv_values_ex *values);
	int (*query_srq)(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr);
	int (*read_comp_cntr)(struct ibv_comp_cntr *comp_cntr,
			      uint64_t *value);
	int (*read_counters)(struct ibv_counters *counters,
			     uint64_t *counters_value, uint32_t ncounters,
			     uint32_t flags);
	int (*read_err_comp_cntr)(struct ibv_comp_cntr *comp_cntr,
				  uint64_t *value);
	struct ibv_mr *(*reg_dm_mr)(struct ibv_pd *pd, struct ibv_dm *dm,
				    uint64_t dm_offset, size_t length,
				    unsigned int access);
	struct ibv_mr *(*reg_dmabuf_mr)(struct ibv_pd *pd, uint64_t offset,
					size_t length, uint64_t iova, int fd,
					int access);
	struct ibv_mr *(*reg_mr)(struct ibv_pd *pd, void *addr, size_t length,
				 uint64_t hca_va, int access);
	/* Gets a checked copy: BUF already resolved, fork ranges held. */
	struct ibv_mr *(*reg_mr_ex)(struct ibv_pd *pd,
				    struct ibv_mr_init_attr *mr_init_attr);
	int (*req_notify_cq)(struct ibv_cq *cq, int solicited_only);
	int (*rereg_mr)(struct verbs_mr *vmr, int flags, struct ibv_pd *pd,
			void *addr, size_t length, int access);
	int (*resize_cq)(struct ibv_cq *cq, int cqe);
	int (*set_comp_cntr)(struct ibv_comp_cntr *comp_cntr, uint64_t value);
	int (*set_ece)(struct ibv_qp *qp, struct ibv_ece *ece);
	int (*set_err_comp_cntr)(struct ibv_comp_cntr *comp_cntr,
				 uint64_t value);
	void (*unimport_dm)(struct ibv_dm *dm);
	void (*unimport_mr)(struct ibv_mr *mr);
	void (*unimport_pd)(struct ibv_pd *pd);
};

/* ------------------------------------------------------------------ */
/* Context life cycle, for providers.                                  */

/*
 * Allocate a provider context of @size bytes whose struct verbs_context
 * lives at @context_offset, and initialise the generic part: cmd_fd, the
 * default ops, the extended-context slots, ioctl support probing. Returns
 * NULL with errno set; on failure @cmd_fd is NOT closed (the caller owns it
 * until success).
 */
void *_verbs_init_and_alloc_context(struct ibv_device *device, int cmd_fd,
				    size_t size, size_t context_offset,
				    uint32_t driver_id);

#define verbs_init_and_alloc_context(ibdev, cmd_fd, drv_ctx_ptr, ctx_memb,     \
				     driver_id)                                \
	((__typeof__(drv_ctx_ptr))_verbs_init_and_alloc_context(               \
		ibdev, cmd_fd, sizeof(*(drv_ctx_ptr)),                         \
		offsetof(__typeof__(*(drv_ctx_ptr)), ctx_memb), (driver_id)))

/*
 * Undo the generic part of context init (does not free the memory): frees
 * the private state and closes the async event fd if one was set. It
 * never closes cmd_fd: libibverbs owns cmd_fd (ibv_close_device() closes
 * it, and so does a failed open), so a provider never closes it, neither
 * in free_context nor on an alloc_context error path.
 */
void verbs_uninit_context(struct verbs_context *context);

/*
 * ibv_open_device() with provider-specific @private_data handed to
 * alloc_context (mlx5dv_open_device uses it). NULL with errno on failure.
 */
struct ibv_context *verbs_open_device(struct ibv_device *device,
				      void *private_data);

/* Copy every non-NULL entry of @ops into the context (private + public). */
void verbs_set_ops(struct verbs_context *vctx,
		   const struct verbs_context_ops *ops);

/* The RDMA_DRIVER_* id given to verbs_init_and_alloc_context(). */
uint32_t verbs_context_driver_id(struct ibv_context *ctx);

/* ------------------------------------------------------------------ */
/* Provider registration.                                              */

#define _VERBS_PASTE(a, b) a##b
#define _VERBS_PASTE2(a, b) _VERBS_PASTE(a, b)
#define verbs_register_driver                                                 \
	_VERBS_PASTE2(verbs_register_driver_, IBVERBS_PABI_VERSION)

void verbs_register_driver(const struct verbs_device_ops *ops);

/*
 * Plug-ins register from a constructor; static builds instead reference the
 * verbs_provider_<name> symbol from libibverbs' static provider list.
 */
#define PROVIDER_DRIVER(provider_name, drv_ops)                               \
	extern const struct verbs_device_ops verbs_provider_##provider_name    \
		__attribute__((alias(#drv_ops)));                              \
	static __attribute__((constructor)) void                              \
	_verbs_register_##provider_name(void)                                  \
	{                                                                      \
		verbs_register_driver(&drv_ops);                               \
	}

/* ------------------------------------------------------------------ */
/* Provider-specific request/response payloads ("udata").              */

/*
 * Driver data appended to a core command: sent as UVERBS_ATTR_UHW_IN/OUT on
 * the ioctl path and concatenated after the core structs on the write()
 * path. Any member may be NULL/0.
 */
struct ibv_udata {
	const void *in;
	size_t in_len;
	void *out;
	size_t out_len;
};

/* ------------------------------------------------------------------ */
/* Kernel command helpers (ioctl first, write() fallback where the     */
/* kernel ABI has one). Unless noted: 0 or a positive errno, errno set.*/
/* @cmd, where present, is the provider's command buffer holding its   */
/* driver attributes for the same object/method (may be NULL); the     */
/* helper appends the core attributes to it.                           */

int ibv_cmd_get_context(struct verbs_context *vctx,
			const struct ibv_udata *udata,
			struct uverbs_cmd *cmd);
int ibv_cmd_query_context(struct ibv_context *ctx, struct uverbs_cmd *cmd);
int ibv_cmd_query_device_any(struct ibv_context *ctx,
			     const struct ibv_query_device_ex_input *input,
			     struct ibv_device_attr_ex *attr, size_t attr_size,
			     const struct ibv_udata *udata);
int ibv_cmd_query_port(struct ibv_context *ctx, uint8_t port_num,
		       struct ibv_port_attr *port_attr);
int ibv_cmd_alloc_pd(struct ibv_context *ctx, struct ibv_pd *pd,
		     const struct ibv_udata *udata);
int ibv_cmd_dealloc_pd(struct ibv_pd *pd);
int ibv_cmd_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
		   uint64_t hca_va, int access, struct verbs_mr *vmr,
		   const struct ibv_udata *udata);
int ibv_cmd_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length,
			  uint64_t iova, int fd, int access,
			  struct verbs_mr *vmr, struct uverbs_cmd *cmd);
int ibv_cmd_dereg_mr(struct verbs_mr *vmr);
/*
 * REREG_MR (write only): @flags are enum ibv_rereg_mr_flags; @pd is read
 * only with IBV_REREG_MR_CHANGE_PD. The new keys land in @vmr.
 */
int ibv_cmd_rereg_mr(struct verbs_mr *vmr, uint32_t flags, void *addr,
		     size_t length, uint64_t hca_va, int access,
		     struct ibv_pd *pd, const struct ibv_udata *udata);
/* ALLOC_MW (write only) fills @mw; DEALLOC_MW / MW_DESTROY frees it. */
int ibv_cmd_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type,
		     struct ibv_mw *mw, const struct ibv_udata *udata);
int ibv_cmd_dealloc_mw(struct ibv_mw *mw);
/*
 * The same for providers that send no driver data and keep no state of
 * their own: a malloc'ed ibv_mw (NULL + errno), freed on success.
 */
struct ibv_mw *ibv_cmd_alloc_mw_obj(struct ibv_pd *pd, enum ibv_mw_type type);
int ibv_cmd_dealloc_mw_obj(struct ibv_mw *mw);
/* EX_MODIFY_CQ; an attr_mask past IBV_CQ_ATTR_MODERATE is EINVAL here. */
int ibv_cmd_modify_cq(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr);
/* QUERY_MR (ioctl only): fills @vmr as an imported MR of @pd. */
int ibv_cmd_query_mr(struct ibv_pd *pd, struct verbs_mr *vmr,
		     uint32_t mr_handle);
int ibv_cmd_alloc_dm(struct ibv_context *ctx,
		     const struct ibv_alloc_dm_attr *attr,
		     struct verbs_dm *dm, struct uverbs_cmd *cmd);
int ibv_cmd_free_dm(struct verbs_dm *dm);
int ibv_cmd_reg_dm_mr(struct ibv_pd *pd, struct verbs_dm *dm,
		      uint64_t offset, size_t length, unsigned int access,
		      struct verbs_mr *vmr, struct uverbs_cmd *cmd);
/*
 * UVERBS_OBJECT_DMABUF / DMABUF_ALLOC for the mmap region at byte offset
 * @mmap_offset of the context's cmd_fd. Returns the new fd, or -1 with errno
 * (EOPNOTSUPP when the kernel has no DMABUF object).
 */
int ibv_cmd_export_dmabuf_fd(struct ibv_context *ctx, off_t mmap_offset);

/*
 * UVERBS_METHOD_REG_MR (MR 5) for the request in @attr: the address path
 * (ADDR, optional IOVA) or the dma-buf path (FD, FD_OFFSET and IOVA), with
 * the DMA handle of IBV_REG_MR_MASK_DMAH. A kernel without the method gets
 * the write() REG_MR on the address path without DMAH, EOPNOTSUPP
 * otherwise. EINVAL for a contradictory mask.
 */
int ibv_cmd_reg_mr_ex(struct ibv_pd *pd, struct verbs_mr *vmr,
		      struct ibv_mr_init_attr *attr);
/* UVERBS_OBJECT_DMAH: ALLOC (sets dmah's context and handle) and FREE. */
int ibv_cmd_alloc_dmah(struct ibv_context *ctx, struct verbs_dmah *dmah,
		       struct ibv_dmah_init_attr *attr);
int ibv_cmd_free_dmah(struct verbs_dmah *dmah);

/*
 * UVERBS_OBJECT_COMP_CNTR and the two methods around it (ioctl only).
 * create sends only the handle (plus @link, the provider's attributes):
 * the provider checks type, flags and comp_mask itself.
 */
int ibv_cmd_query_comp_cntr_caps(struct ibv_context *ctx,
				 struct ibv_comp_cntr_caps *caps,
				 size_t caps_size);
int ibv_cmd_create_comp_cntr(struct ibv_context *ctx,
			     struct ibv_comp_cntr *comp_cntr,
			     struct uverbs_cmd *link);
int ibv_cmd_destroy_comp_cntr(struct ibv_comp_cntr *comp_cntr);
int ibv_cmd_set_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value);
int ibv_cmd_set_err_comp_cntr(struct ibv_comp_cntr *comp_cntr,
			      uint64_t value);
int ibv_cmd_inc_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount);
int ibv_cmd_inc_err_comp_cntr(struct ibv_comp_cntr *comp_cntr,
			      uint64_t amount);
int ibv_cmd_read_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value);
int ibv_cmd_read_err_comp_cntr(struct ibv_comp_cntr *comp_cntr,
			       uint64_t *value);
int ibv_cmd_qp_attach_comp_cntr(struct ibv_qp *qp,
				struct ibv_comp_cntr *comp_cntr,
				struct ibv_qp_attach_comp_cntr_attr *attr);

/*
 * Data-path commands. Each picks the ioctl or the write() form, and falls
 * back, as upstream libibverbs does for that verb; @udata is the provider's
 * UHW payload (UHW_IN/UHW_OUT, or the bytes after the core structs on the
 * write() path), @cmd its driver attributes (may be NULL). On success the
 * object's generic fields are set and the kernel's granted sizes written
 * back (cq->cqe; attr->cap of a QP; attr->attr.max_wr/max_sge of an SRQ).
 * A CQ created on a channel holds a reference on it (refcnt) until
 * ibv_cmd_destroy_cq() succeeds; ibv_create_cq() sets cq_context itself.
 * Destroy helpers treat EIO (a disassociated device) as success, and
 * otherwise block until the application has acknowledged every event the
 * kernel reports it handed out for the object (ibv_ack_cq_events(),
 * ibv_ack_async_event()).
 */
int ibv_cmd_create_cq(struct ibv_context *ctx, int cqe,
		      struct ibv_comp_channel *channel, int comp_vector,
		      struct verbs_cq *cq, const struct ibv_udata *udata,
		      struct uverbs_cmd *cmd);
/* @cq_flags: enum ib_uverbs_ex_create_cq_flags the provider derived. */
int ibv_cmd_create_cq_ex(struct ibv_context *ctx,
			 const struct ibv_cq_init_attr_ex *attr,
			 uint32_t cq_flags, struct verbs_cq *cq,
			 const struct ibv_udata *udata, struct uverbs_cmd *cmd);
int ibv_cmd_resize_cq(struct ibv_cq *cq, int cqe,
		      const struct ibv_udata *udata);
int ibv_cmd_destroy_cq(struct ibv_cq *cq);
/* The kernel-side completion paths (rxe arms through the kernel). */
int ibv_cmd_req_notify_cq(struct ibv_cq *cq, int solicited_only);
/* Entries polled (>= 0), or -1 with errno. */
int ibv_cmd_poll_cq(struct ibv_cq *cq, int ne, struct ibv_wc *wc);

/*
 * @attr->comp_mask says which fields are valid (PD is required; the
 * send_ops_flags make the helper set VERBS_QP_EX). Also sets qp_num, state
 * (RESET), the CQ/SRQ/PD pointers and the events counters.
 */
int ibv_cmd_create_qp_ex(struct ibv_context *ctx, struct verbs_qp *qp,
			 struct ibv_qp_init_attr_ex *attr,
			 const struct ibv_udata *udata, struct uverbs_cmd *cmd);
/* Chooses the extended write form when @attr_mask needs it, as upstream. */
int ibv_cmd_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
		      int attr_mask, const struct ibv_udata *udata);
int ibv_cmd_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
		     int attr_mask, struct ibv_qp_init_attr *init_attr);
int ibv_cmd_destroy_qp(struct ibv_qp *qp);
/* Multicast membership of a (UD) QP, write() only (cmd_mcast.c). 0 or a
 * positive errno (errno set). */
int ibv_cmd_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
			 uint16_t lid);
int ibv_cmd_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
			 uint16_t lid);
/* Marshal WRs into the POST_SEND/POST_RECV/POST_SRQ_RECV write()s (a list
 * with no WR is how rxe kicks the kernel). 0 or errno, *bad set. */
int ibv_cmd_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
		      struct ibv_send_wr **bad_wr);
int ibv_cmd_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
		      struct ibv_recv_wr **bad_wr);
int ibv_cmd_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr,
			  struct ibv_recv_wr **bad_wr);

int ibv_cmd_create_srq_ex(struct ibv_context *ctx, struct verbs_srq *srq,
			  struct ibv_srq_init_attr_ex *attr,
			  const struct ibv_udata *udata,
			  struct uverbs_cmd *cmd);
int ibv_cmd_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr,
		       int attr_mask, const struct ibv_udata *udata);
int ibv_cmd_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr);
int ibv_cmd_destroy_srq(struct ibv_srq *srq);

/* XRC (cmd_xrcd.c). open_xrcd: comp_mask must hold FD and OFLAGS (EINVAL),
 * nothing beyond them (EOPNOTSUPP); fd -1 makes a private domain. open_qp:
 * NUM, XRCD and TYPE are needed (EINVAL), bits past CONTEXT EOPNOTSUPP;
 * the QP opened has no PD, CQs or SRQ and state IBV_QPS_UNKNOWN. 0 or a
 * positive errno (errno set). */
int ibv_cmd_open_xrcd(struct ibv_context *ctx, struct verbs_xrcd *xrcd,
		      const struct ibv_xrcd_init_attr *attr,
		      const struct ibv_udata *udata);
int ibv_cmd_close_xrcd(struct verbs_xrcd *xrcd);
int ibv_cmd_open_qp(struct ibv_context *ctx, struct verbs_qp *qp,
		    const struct ibv_qp_open_attr *attr,
		    const struct ibv_udata *udata);
/* ADVISE_MR (ioctl only): EOPNOTSUPP on a kernel without it. */
int ibv_cmd_advise_mr(struct ibv_pd *pd, enum ibv_advise_mr_advice advice,
		      uint32_t flags, const struct ibv_sge *sg_list,
		      uint32_t num_sge);

/* Kernel AH (RoCE: the kernel resolves the destination MAC, resp.dmac in
 * the provider's @udata out). Sets ah->context, pd and handle. */
int ibv_cmd_create_ah(struct ibv_pd *pd, struct ibv_ah *ah,
		      struct ibv_ah_attr *attr, const struct ibv_udata *udata);
int ibv_cmd_destroy_ah(struct ibv_ah *ah);

/* ------------------------------------------------------------------ */
/* Misc helpers for providers.                                         */

/* Read <ibdev_path>/<file> into buf (NUL-terminated); bytes read or -1. */
int ibv_read_ibdev_sysfs_file(char *buf, size_t size,
			      struct verbs_sysfs_dev *sysfs_dev,
			      const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Logging honouring VERBS_LOG_LEVEL / IBV_SHOW_WARNINGS (stderr). */
enum verbs_log_level {
	VERBS_LOG_ERR = 1,
	VERBS_LOG_WARN = 2,
	VERBS_LOG_INFO = 3,
	VERBS_LOG_DEBUG = 4,
};
void verbs_log(struct ibv_context *ctx, enum verbs_log_level level,
	       const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#define verbs_err(ctx, ...) verbs_log(ctx, VERBS_LOG_ERR, __VA_ARGS__)
#define verbs_warn(ctx, ...) verbs_log(ctx, VERBS_LOG_WARN, __VA_ARGS__)
#define verbs_debug(ctx, ...) verbs_log(ctx, VERBS_LOG_DEBUG, __VA_ARGS__)

#endif /* RDMA_DM_DRIVER_H */
