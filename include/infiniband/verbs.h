/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The RDMA verbs API (libibverbs.so.1).
 *
 * Source and binary compatible with upstream rdma-core's verbs.h: every
 * name, value and struct layout declared here is upstream's. Objects are
 * created on a struct ibv_context returned by ibv_open_device(); each verb
 * is carried out by the device's provider plug-in.
 *
 * Error convention (as upstream): verbs returning a pointer give NULL and
 * set errno; verbs returning int give 0 or a positive errno value (errno
 * may be set too) unless their comment says otherwise. A verb the
 * provider does not implement fails with EOPNOTSUPP.
 *
 * Extended verbs live in struct verbs_context, which sits directly in
 * front of the ibv_context handed to the application. New slots are only
 * ever added in front, so each slot keeps a fixed negative offset from the
 * ibv_context, and `sz` says how far the provider's struct reaches. The
 * static inline functions below call through those slots, so they work
 * the same against any libibverbs that keeps this layout.
 */
#ifndef INFINIBAND_VERBS_H
#define INFINIBAND_VERBS_H

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <linux/types.h>

#include <infiniband/verbs_api.h>
#include <infiniband/verbs_flow.h>
#include <infiniband/verbs_types.h>

#ifdef __cplusplus
#include <limits>
#endif

#if defined(__GNUC__)
#define __attribute_const __attribute__((const))
#else
#define __attribute_const
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* True when a struct of @sz bytes (an older, shorter version) has @fld. */
#define vext_field_avail(type, fld, sz) (offsetof(type, fld) < (sz))

/* ibv_context.abi_compat value of a context that has a verbs_context. */
#ifdef __cplusplus
#define __VERBS_ABI_IS_EXTENDED ((void *)std::numeric_limits<uintptr_t>::max())
#else
#define __VERBS_ABI_IS_EXTENDED ((void *)UINTPTR_MAX)
#endif

/* ================================================================== */
/* Device and context                                                  */

struct ibv_device;
struct ibv_context;

/* Kept only for the struct layout; never called. */
struct _ibv_device_ops {
	struct ibv_context *(*_dummy1)(struct ibv_device *device, int cmd_fd);
	void (*_dummy2)(struct ibv_context *context);
};

enum {
	IBV_SYSFS_NAME_MAX = 64,
	IBV_SYSFS_PATH_MAX = 256
};

struct ibv_device {
	struct _ibv_device_ops _ops;
	enum ibv_node_type node_type;
	enum ibv_transport_type transport_type;
	char name[IBV_SYSFS_NAME_MAX];	    /* kernel device name, mlx5_0 */
	char dev_name[IBV_SYSFS_NAME_MAX];  /* uverbs device, uverbs0 */
	char dev_path[IBV_SYSFS_PATH_MAX];  /* its sysfs directory */
	char ibdev_path[IBV_SYSFS_PATH_MAX]; /* /sys/class/infiniband/<name> */
};

struct _compat_ibv_port_attr;

/*
 * The original operation table. Members named _compat_* are not called
 * through here any more; the rest are what the hot-path inline verbs
 * (ibv_poll_cq(), ibv_post_send(), ...) call directly.
 */
struct ibv_context_ops {
	int (*_compat_query_device)(struct ibv_context *context,
				    struct ibv_device_attr *device_attr);
	int (*_compat_query_port)(struct ibv_context *context,
				  uint8_t port_num,
				  struct _compat_ibv_port_attr *port_attr);
	void *(*_compat_alloc_pd)(void);
	void *(*_compat_dealloc_pd)(void);
	void *(*_compat_reg_mr)(void);
	void *(*_compat_rereg_mr)(void);
	void *(*_compat_dereg_mr)(void);
	struct ibv_mw *(*alloc_mw)(struct ibv_pd *pd, enum ibv_mw_type type);
	int (*bind_mw)(struct ibv_qp *qp, struct ibv_mw *mw,
		       struct ibv_mw_bind *mw_bind);
	int (*dealloc_mw)(struct ibv_mw *mw);
	void *(*_compat_create_cq)(void);
	int (*poll_cq)(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc);
	int (*req_notify_cq)(struct ibv_cq *cq, int solicited_only);
	void *(*_compat_cq_event)(void);
	void *(*_compat_resize_cq)(void);
	void *(*_compat_destroy_cq)(void);
	void *(*_compat_create_srq)(void);
	void *(*_compat_modify_srq)(void);
	void *(*_compat_query_srq)(void);
	void *(*_compat_destroy_srq)(void);
	int (*post_srq_recv)(struct ibv_srq *srq, struct ibv_recv_wr *recv_wr,
			     struct ibv_recv_wr **bad_recv_wr);
	void *(*_compat_create_qp)(void);
	void *(*_compat_query_qp)(void);
	void *(*_compat_modify_qp)(void);
	void *(*_compat_destroy_qp)(void);
	int (*post_send)(struct ibv_qp *qp, struct ibv_send_wr *wr,
			 struct ibv_send_wr **bad_wr);
	int (*post_recv)(struct ibv_qp *qp, struct ibv_recv_wr *wr,
			 struct ibv_recv_wr **bad_wr);
	void *(*_compat_create_ah)(void);
	void *(*_compat_destroy_ah)(void);
	void *(*_compat_attach_mcast)(void);
	void *(*_compat_detach_mcast)(void);
	void *(*_compat_async_event)(void);
};

struct ibv_context {
	struct ibv_device *device;
	struct ibv_context_ops ops;
	int cmd_fd;   /* /dev/infiniband/uverbsN */
	int async_fd; /* read by ibv_get_async_event() */
	int num_comp_vectors;
	pthread_mutex_t mutex;
	void *abi_compat; /* __VERBS_ABI_IS_EXTENDED */
};

struct verbs_ex_private;

/*
 * The extended context. The application only ever sees &vctx->context;
 * every slot lives at a fixed negative offset from it, newest first.
 * A NULL slot, or one in front of where `sz` reaches, is unsupported.
 */
struct verbs_context {
	/* Added after rdma-core 44; keep new slots above this line. */
	void (*free_buf)(struct ibv_buf *buf);
	void *(*alloc_buf)(struct ibv_pd *pd, size_t size,
			   struct ibv_buf **buf);
	int (*dm_export_dmabuf_fd)(struct ibv_dm *dm);
	struct ibv_mr *(*reg_mr_ex)(struct ibv_pd *pd,
				    struct ibv_mr_init_attr *mr_init_attr);
	int (*dealloc_dmah)(struct ibv_dmah *dmah);
	struct ibv_dmah *(*alloc_dmah)(struct ibv_context *context,
				       struct ibv_dmah_init_attr *attr);
	/* rdma-core 44 starts here. */
	int (*query_port)(struct ibv_context *context, uint8_t port_num,
			  struct ibv_port_attr *port_attr,
			  size_t port_attr_len);
	int (*advise_mr)(struct ibv_pd *pd, enum ibv_advise_mr_advice advice,
			 uint32_t flags, struct ibv_sge *sg_list,
			 uint32_t num_sges);
	struct ibv_mr *(*alloc_null_mr)(struct ibv_pd *pd);
	int (*read_counters)(struct ibv_counters *counters,
			     uint64_t *counters_value, uint32_t ncounters,
			     uint32_t flags);
	int (*attach_counters_point_flow)(struct ibv_counters *counters,
					  struct ibv_counter_attach_attr *attr,
					  struct ibv_flow *flow);
	struct ibv_counters *(*create_counters)(
		struct ibv_context *context,
		struct ibv_counters_init_attr *init_attr);
	int (*destroy_counters)(struct ibv_counters *counters);
	struct ibv_mr *(*reg_dm_mr)(struct ibv_pd *pd, struct ibv_dm *dm,
				    uint64_t dm_offset, size_t length,
				    unsigned int access);
	struct ibv_dm *(*alloc_dm)(struct ibv_context *context,
				   struct ibv_alloc_dm_attr *attr);
	int (*free_dm)(struct ibv_dm *dm);
	int (*modify_flow_action_esp)(struct ibv_flow_action *action,
				      struct ibv_flow_action_esp_attr *attr);
	int (*destroy_flow_action)(struct ibv_flow_action *action);
	struct ibv_flow_action *(*create_flow_action_esp)(
		struct ibv_context *context,
		struct ibv_flow_action_esp_attr *attr);
	int (*modify_qp_rate_limit)(struct ibv_qp *qp,
				    struct ibv_qp_rate_limit_attr *attr);
	struct ibv_pd *(*alloc_parent_domain)(
		struct ibv_context *context,
		struct ibv_parent_domain_init_attr *attr);
	int (*dealloc_td)(struct ibv_td *td);
	struct ibv_td *(*alloc_td)(struct ibv_context *context,
				   struct ibv_td_init_attr *init_attr);
	int (*modify_cq)(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr);
	int (*post_srq_ops)(struct ibv_srq *srq, struct ibv_ops_wr *op,
			    struct ibv_ops_wr **bad_op);
	int (*destroy_rwq_ind_table)(struct ibv_rwq_ind_table *rwq_ind_table);
	struct ibv_rwq_ind_table *(*create_rwq_ind_table)(
		struct ibv_context *context,
		struct ibv_rwq_ind_table_init_attr *init_attr);
	int (*destroy_wq)(struct ibv_wq *wq);
	int (*modify_wq)(struct ibv_wq *wq, struct ibv_wq_attr *wq_attr);
	struct ibv_wq *(*create_wq)(struct ibv_context *context,
				    struct ibv_wq_init_attr *wq_init_attr);
	int (*query_rt_values)(struct ibv_context *context,
			       struct ibv_values_ex *values);
	struct ibv_cq_ex *(*create_cq_ex)(
		struct ibv_context *context,
		struct ibv_cq_init_attr_ex *init_attr);
	struct verbs_ex_private *priv; /* libibverbs' own state */
	int (*query_device_ex)(struct ibv_context *context,
			       const struct ibv_query_device_ex_input *input,
			       struct ibv_device_attr_ex *attr,
			       size_t attr_size);
	int (*ibv_destroy_flow)(struct ibv_flow *flow);
	void (*ABI_placeholder2)(void);
	struct ibv_flow *(*ibv_create_flow)(struct ibv_qp *qp,
					    struct ibv_flow_attr *flow_attr);
	void (*ABI_placeholder1)(void);
	struct ibv_qp *(*open_qp)(struct ibv_context *context,
				  struct ibv_qp_open_attr *attr);
	struct ibv_qp *(*create_qp_ex)(
		struct ibv_context *context,
		struct ibv_qp_init_attr_ex *qp_init_attr_ex);
	int (*get_srq_num)(struct ibv_srq *srq, uint32_t *srq_num);
	struct ibv_srq *(*create_srq_ex)(
		struct ibv_context *context,
		struct ibv_srq_init_attr_ex *srq_init_attr_ex);
	struct ibv_xrcd *(*open_xrcd)(
		struct ibv_context *context,
		struct ibv_xrcd_init_attr *xrcd_init_attr);
	int (*close_xrcd)(struct ibv_xrcd *xrcd);
	uint64_t _ABI_placeholder3;
	/* Bytes from the provider's first slot to the end of `context`. */
	size_t sz;
	struct ibv_context context; /* must be last */
};

/* The verbs_context around @ctx, or NULL for a non-extended context. */
static inline struct verbs_context *verbs_get_ctx(struct ibv_context *ctx)
{
	if (ctx->abi_compat != __VERBS_ABI_IS_EXTENDED)
		return NULL;
	return (struct verbs_context *)((uint8_t *)ctx -
					offsetof(struct verbs_context,
						 context));
}

/* @ctx's verbs_context if its provider's struct reaches the slot at
 * @slot_offset (an offsetof(struct verbs_context, ...)), else NULL. */
static inline struct verbs_context *
__verbs_ctx_reaching(struct ibv_context *ctx, size_t slot_offset)
{
	struct verbs_context *vctx = verbs_get_ctx(ctx);

	if (!vctx || vctx->sz < sizeof(*vctx) - slot_offset)
		return NULL;
	return vctx;
}

/*
 * The verbs_context of @ctx when slot @op exists and is set, else NULL.
 * @ctx may be evaluated more than once.
 */
#define verbs_get_ctx_op(ctx, op)                                              \
	((__verbs_ctx_reaching(ctx, offsetof(struct verbs_context, op)) &&    \
	  __verbs_ctx_reaching(ctx, offsetof(struct verbs_context, op))->op) \
		 ? __verbs_ctx_reaching(ctx,                                   \
					offsetof(struct verbs_context, op))    \
		 : (struct verbs_context *)NULL)

/* ================================================================== */
/* Device list and contexts                                            */

/*
 * The RDMA devices that have a matching provider, NULL-terminated; the
 * count goes to *@num_devices when it is not NULL. Free with
 * ibv_free_device_list(). NULL with errno on failure (ENOSYS: the kernel's
 * uverbs ABI is not supported; ENOMEM).
 */
struct ibv_device **ibv_get_device_list(int *num_devices);

/* Release a list; devices still opened stay valid until closed. */
void ibv_free_device_list(struct ibv_device **list);

/* The kernel name of @device ("mlx5_0"), or NULL. */
const char *ibv_get_device_name(struct ibv_device *device);

/* The kernel's index of @device, or -1 when it is not known. */
int ibv_get_device_index(struct ibv_device *device);

/* Node GUID of @device in network byte order, 0 when unavailable. */
__be64 ibv_get_device_guid(struct ibv_device *device);

/* Open @device; NULL with errno (ENODEV, EACCES, ENOMEM, ...). */
struct ibv_context *ibv_open_device(struct ibv_device *device);

/* Release @context and every resource the provider holds for it. 0/errno. */
int ibv_close_device(struct ibv_context *context);

/* A context for an already open uverbs fd (e.g. received over a socket);
 * the caller keeps ownership of @cmd_fd's number. NULL with errno. */
struct ibv_context *ibv_import_device(int cmd_fd);

/* Objects of another process's context sharing this cmd_fd, by handle.
 * NULL with errno (EOPNOTSUPP when the provider cannot import). */
struct ibv_pd *ibv_import_pd(struct ibv_context *context, uint32_t pd_handle);
/* Forget an imported PD locally; the kernel object is left alone. */
void ibv_unimport_pd(struct ibv_pd *pd);
struct ibv_mr *ibv_import_mr(struct ibv_pd *pd, uint32_t mr_handle);
/* Forget an imported MR locally; the kernel object is left alone. */
void ibv_unimport_mr(struct ibv_mr *mr);
/* Import a device-memory allocation by its ibv_dm.handle. */
struct ibv_dm *ibv_import_dm(struct ibv_context *context, uint32_t dm_handle);
/* Unmap and forget an imported DM; the kernel object is left alone. */
void ibv_unimport_dm(struct ibv_dm *dm);

/*
 * Wait for the next asynchronous event of @context (blocks unless
 * async_fd was made non-blocking: then -1 with errno EAGAIN). 0 on
 * success, -1 with errno otherwise. Every event must be acknowledged.
 */
int ibv_get_async_event(struct ibv_context *context,
			struct ibv_async_event *event);

/* Acknowledge an event from ibv_get_async_event(). */
void ibv_ack_async_event(struct ibv_async_event *event);

/* Device attributes. 0 or errno. */
int ibv_query_device(struct ibv_context *context,
		     struct ibv_device_attr *device_attr);

/*
 * Port attributes. Programs call the inline wrapper below (the macro
 * ibv_query_port), which prefers the extended query_port slot and knows
 * the caller's struct size; the exported symbol fills only the original
 * members. 0 or errno (EINVAL for a bad port).
 */
int ibv_query_port(struct ibv_context *context, uint8_t port_num,
		   struct _compat_ibv_port_attr *port_attr);

static inline int ___ibv_query_port(struct ibv_context *context,
				    uint8_t port_num,
				    struct ibv_port_attr *port_attr)
{
	struct verbs_context *vctx = verbs_get_ctx_op(context, query_port);

	if (vctx)
		return vctx->query_port(context, port_num, port_attr,
					sizeof(*port_attr));
	memset(port_attr, 0, sizeof(*port_attr));
	return ibv_query_port(context, port_num,
			      (struct _compat_ibv_port_attr *)port_attr);
}

#define ibv_query_port(context, port_num, port_attr)                           \
	___ibv_query_port(context, port_num, port_attr)

/*
 * The effective bandwidth of a port in units of 100 Mb/s (IBVERBS_1.16).
 * 0 or errno.
 */
int ibv_query_port_speed(struct ibv_context *context, uint32_t port_num,
			 uint64_t *port_speed);

/* GID @index of a port. 0 on success, -1 on failure. */
int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index,
		  union ibv_gid *gid);

/* Use ibv_query_gid_ex(); @entry_size lets the struct grow. 0 or errno. */
int _ibv_query_gid_ex(struct ibv_context *context, uint32_t port_num,
		      uint32_t gid_index, struct ibv_gid_entry *entry,
		      uint32_t flags, size_t entry_size);

/* A GID with its type and net device. 0 or errno (ENODATA: empty slot). */
static inline int ibv_query_gid_ex(struct ibv_context *context,
				   uint32_t port_num, uint32_t gid_index,
				   struct ibv_gid_entry *entry, uint32_t flags)
{
	return _ibv_query_gid_ex(context, port_num, gid_index, entry, flags,
				 sizeof(*entry));
}

/* Use ibv_query_gid_table(). */
ssize_t _ibv_query_gid_table(struct ibv_context *context,
			     struct ibv_gid_entry *entries,
			     size_t max_entries, uint32_t flags,
			     size_t entry_size);

/* Every valid GID of every port; the count, or a negative errno. */
static inline ssize_t ibv_query_gid_table(struct ibv_context *context,
					  struct ibv_gid_entry *entries,
					  size_t max_entries, uint32_t flags)
{
	return _ibv_query_gid_table(context, entries, max_entries, flags,
				    sizeof(*entries));
}

/* P_Key @index of a port, network order. 0 on success, -1 on failure. */
int ibv_query_pkey(struct ibv_context *context, uint8_t port_num, int index,
		   __be16 *pkey);

/* The index of @pkey in a port's table, or -1 when absent or on error. */
int ibv_get_pkey_index(struct ibv_context *context, uint8_t port_num,
		       __be16 pkey);

/* ================================================================== */
/* Protection domains and memory registration                          */

/* A protection domain; NULL with errno. */
struct ibv_pd *ibv_alloc_pd(struct ibv_context *context);

/* 0 or errno (EBUSY while objects still use it). */
int ibv_dealloc_pd(struct ibv_pd *pd);

/* A flow steering rule on @qp; NULL with errno (EOPNOTSUPP). */
static inline struct ibv_flow *ibv_create_flow(struct ibv_qp *qp,
					       struct ibv_flow_attr *flow)
{
	struct verbs_context *vctx =
		verbs_get_ctx_op(qp->context, ibv_create_flow);

	if (!vctx) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return vctx->ibv_create_flow(qp, flow);
}

/* 0 or errno (EOPNOTSUPP). */
static inline int ibv_destroy_flow(struct ibv_flow *flow_id)
{
	struct verbs_context *vctx =
		verbs_get_ctx_op(flow_id->context, ibv_destroy_flow);

	if (!vctx)
		return EOPNOTSUPP;
	return vctx->ibv_destroy_flow(flow_id);
}

/* An IPsec ESP flow action; NULL with errno (EOPNOTSUPP). */
static inline struct ibv_flow_action *
ibv_create_flow_action_esp(struct ibv_context *ctx,
			   struct ibv_flow_action_esp_attr *esp)
{
	struct verbs_context *vctx =
		verbs_get_ctx_op(ctx, create_flow_action_esp);

	if (!vctx) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return vctx->create_flow_action_esp(ctx, esp);
}

/* 0 or errno (EOPNOTSUPP). */
static inline int
ibv_modify_flow_action_esp(struct ibv_flow_action *action,
			   struct ibv_flow_action_esp_attr *esp)
{
	struct verbs_context *vctx =
		verbs_get_ctx_op(action->context, modify_flow_action_esp);

	if (!vctx)
		return EOPNOTSUPP;
	return vctx->modify_flow_action_esp(action, esp);
}

/* 0 or errno (EOPNOTSUPP). */
static inline int ibv_destroy_flow_action(struct ibv_flow_action *action)
{
	struct verbs_context *vctx =
		verbs_get_ctx_op(action->context, destroy_flow_action);

	if (!vctx)
		return EOPNOTSUPP;
	return vctx->destroy_flow_action(action);
}

/* An XRC domain, optionally shared through a file; NULL with errno. */
static inline struct ibv_xrcd *
ibv_open_xrcd(struct ibv_context *context,
	      struct ibv_xrcd_init_attr *xrcd_init_attr)
{
	struct verbs_context *vctx = verbs_get_ctx_op(context, open_xrcd);

	if (!vctx) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return vctx->open_xrcd(context, xrcd_init_attr);
}

/* 0 or errno. Only valid on an XRCD ibv_open_xrcd() returned. */
static inline int ibv_close_xrcd(struct ibv_xrcd *xrcd)
{
	struct verbs_context *vctx = verbs_get_ctx(xrcd->context);

	return vctx->close_xrcd(xrcd);
}

/*
 * Register [addr, addr + length) with I/O virtual address @iova; access
 * bits in IBV_ACCESS_OPTIONAL_RANGE are dropped when the kernel does not
 * know them. NULL with errno (EINVAL, ENOMEM, EFAULT, EOPNOTSUPP).
 */
struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length,
				uint64_t iova, unsigned int access);

/* Register [addr, addr + length), iova = addr. NULL with errno. */
struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			  int access);

/* Compile-time dispatch: optional access bits need ibv_reg_mr_iova2(). */
__attribute__((__always_inline__)) static inline struct ibv_mr *
__ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
	     unsigned int access, int is_access_const)
{
	if (is_access_const && !(access & IBV_ACCESS_OPTIONAL_RANGE))
		return ibv_reg_mr(pd, addr, length, (int)access);
	return ibv_reg_mr_iova2(pd, addr, length, (uintptr_t)addr, access);
}

#define ibv_reg_mr(pd, addr, length, access)                                   \
	__ibv_reg_mr(pd, addr, length, access,                                 \
		     __builtin_constant_p(                                     \
			     ((access) & IBV_ACCESS_OPTIONAL_RANGE) == 0))

/* As ibv_reg_mr() with an explicit I/O virtual address. */
struct ibv_mr *ibv_reg_mr_iova(struct ibv_pd *pd, void *addr, size_t length,
			       uint64_t iova, int access);

__attribute__((__always_inline__)) static inline struct ibv_mr *
__ibv_reg_mr_iova(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova,
		  unsigned int access, int is_access_const)
{
	if (is_access_const && !(access & IBV_ACCESS_OPTIONAL_RANGE))
		return ibv_reg_mr_iova(pd, addr, length, iova, (int)access);
	return ibv_reg_mr_iova2(pd, addr, length, iova, access);
}

#define ibv_reg_mr_iova(pd, addr, length, iova, access)                        \
	__ibv_reg_mr_iova(pd, addr, length, iova, access,                      \
			  __builtin_constant_p(                                \
				  ((access) & IBV_ACCESS_OPTIONAL_RANGE) == 0))

/*
 * Register @length bytes at @offset of the dma-buf @fd, seen by the
 * device at @iova (same page offset as @offset). NULL with errno
 * (EOPNOTSUPP when the provider or kernel cannot).
 */
struct ibv_mr *ibv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
				 size_t length, uint64_t iova, int fd,
				 int access);

/*
 * Register memory described by @mr_init_attr: a virtual range
 * (IBV_REG_MR_MASK_ADDR) or a dma-buf (IBV_REG_MR_MASK_FD), optionally
 * with an iova, fd offset and DMA handle (IBVERBS_1.15).
 * NULL with errno (EINVAL: bad or contradictory mask; EOPNOTSUPP).
 */
struct ibv_mr *ibv_reg_mr_ex(struct ibv_pd *pd,
			     struct ibv_mr_init_attr *mr_init_attr);

enum ibv_rereg_mr_err_code {
	/* Bad arguments; the MR is unchanged. */
	IBV_REREG_MR_ERR_INPUT = -1,
	/* The new range could not be marked do-not-fork; MR unchanged. */
	IBV_REREG_MR_ERR_DONT_FORK_NEW = -2,
	/* The old range could not be re-allowed to fork; MR changed. */
	IBV_REREG_MR_ERR_DO_FORK_OLD = -3,
	/* The kernel command failed; MR unchanged. */
	IBV_REREG_MR_ERR_CMD = -4,
	/* The command failed and the new range stays do-not-fork. */
	IBV_REREG_MR_ERR_CMD_AND_DO_FORK_NEW = -5,
};

/* Change translation, PD and/or access of @mr (enum ibv_rereg_mr_flags).
 * 0, or an enum ibv_rereg_mr_err_code with errno set. */
int ibv_rereg_mr(struct ibv_mr *mr, int flags, struct ibv_pd *pd, void *addr,
		 size_t length, int access);

/* Deregister and free @mr. 0 or errno (EBUSY: memory windows bound). */
int ibv_dereg_mr(struct ibv_mr *mr);

/* A memory window; NULL with errno (EOPNOTSUPP). */
static inline struct ibv_mw *ibv_alloc_mw(struct ibv_pd *pd,
					  enum ibv_mw_type type)
{
	if (!pd->context->ops.alloc_mw) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return pd->context->ops.alloc_mw(pd, type);
}

/* 0 or errno. */
static inline int ibv_dealloc_mw(struct ibv_mw *mw)
{
	return mw->context->ops.dealloc_mw(mw);
}

/* @rkey with its low 8 bits (the key tag) advanced by one. */
static inline uint32_t ibv_inc_rkey(uint32_t rkey)
{
	const uint32_t tag_mask = 0x000000ff;
	uint8_t next_tag = (uint8_t)((rkey + 1) & tag_mask);

	return (rkey & ~tag_mask) | next_tag;
}

/*
 * Post a type 1 memory window bind on @qp. 0 or errno: EINVAL (not a
 * type 1 window, or a range without an MR), EPERM (MR of another PD).
 */
static inline int ibv_bind_mw(struct ibv_qp *qp, struct ibv_mw *mw,
			      struct ibv_mw_bind *mw_bind)
{
	struct ibv_mw_bind_info *info = &mw_bind->bind_info;

	if (mw->type != IBV_MW_TYPE_1)
		return EINVAL;
	if (!info->mr && (info->addr || info->length))
		return EINVAL;
	if (info->mr && mw->pd != info->mr->pd)
		return EPERM;
	return mw->context->ops.bind_mw(qp, mw, mw_bind);
}

/* Prefetch or otherwise advise on ODP memory. 0 or errno (EOPNOTSUPP). */
static inline int ibv_advise_mr(struct ibv_pd *pd,
				enum ibv_advise_mr_advice advice,
				uint32_t flags, struct ibv_sge *sg_list,
				uint32_t num_sge)
{
	struct verbs_context *vctx = verbs_get_ctx_op(pd->context, advise_mr);

	if (!vctx)
		return EOPNOTSUPP;
	return vctx->advise_mr(pd, advice, flags, sg_list, num_sge);
}

/* An MR whose reads return zeros and whose writes are dropped.
 * NULL with errno (EOPNOTSUPP). */
static inline struct ibv_mr *ibv_alloc_null_mr(struct ibv_pd *pd)
{
	struct verbs_context *vctx =
		verbs_get_ctx_op(pd->context, alloc_null_mr);

	if (!vctx) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return vctx->alloc_null_mr(pd);
}

/* A DMA handle (IBVERBS_1.15). NULL with errno (EOPNOTSUPP). */
struct ibv_dmah *ibv_alloc_dmah(struct ibv_context *context,
				struct ibv_dmah_init_attr *attr);

/* 0 or errno (EOPNOTSUPP; EBUSY while MRs use it). */
int ibv_dealloc_dmah(struct ibv_dmah *dmah);

/*
 * Buffers the provider allocates for @pd (IBVERBS_1.17): ordinary memory,
 * or dma-buf heap memory when the device must bounce DMA through memory
 * shared with the host. Returns the address and the handle in *@buf, or
 * NULL with errno (EINVAL, ENOMEM, EOPNOTSUPP). @pd must outlive it.
 */
void *ibv_alloc_buf(struct ibv_pd *pd, size_t size, struct ibv_buf **buf);
void ibv_free_buf(struct ibv_buf *buf);

/*
 * Register [@addr, @addr + @length) of @buf, which @pd allocated, as
 * ibv_reg_mr_ex() with IBV_REG_MR_MASK_BUF. NULL with errno (EINVAL).
 */
struct ibv_mr *ibv_reg_buf_mr(struct ibv_pd *pd, struct ibv_buf *buf,
			      void *addr, size_t length, int access);

/*
 * A new fd for the dma-buf behind @buf (IBVERBS_1.18); the caller closes
 * it. -1 with errno (ENODATA: the buffer is ordinary memory).
 */
int ibv_export_buf_dmabuf_fd(struct ibv_buf *buf);

/* ================================================================== */
/* Device memory                                                       */

/*
 * Allocate @attr->length bytes of device memory (at most
 * ibv_device_attr_ex.max_dm_size). NULL with errno: EOPNOTSUPP (no
 * device memory), EINVAL (bad length or comp_mask), ENOMEM.
 */
static inline struct ibv_dm *ibv_alloc_dm(struct ibv_context *context,
					  struct ibv_alloc_dm_attr *attr)
{
	struct verbs_context *vctx = verbs_get_ctx_op(context, alloc_dm);

	if (!vctx) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return vctx->alloc_dm(context, attr);
}

/* Free @dm. 0 or errno (EBUSY while MRs use it; EOPNOTSUPP). On error
 * @dm stays valid. */
static inline int ibv_free_dm(struct ibv_dm *dm)
{
	struct verbs_context *vctx = verbs_get_ctx_op(dm->context, free_dm);

	if (!vctx)
		return EOPNOTSUPP;
	return vctx->free_dm(dm);
}

/* Copy @length bytes from @host_addr to @dm at @dm_offset. 0 or errno
 * (EFAULT past the end; mlx5: EINVAL unless offset/length are 4-aligned).
 * errno is not set. */
static inline int ibv_memcpy_to_dm(struct ibv_dm *dm, uint64_t dm_offset,
				   const void *host_addr, size_t length)
{
	return dm->memcpy_to_dm(dm, dm_offset, host_addr, length);
}

/* Copy @length bytes of @dm at @dm_offset to @host_addr; as above. */
static inline int ibv_memcpy_from_dm(void *host_addr, struct ibv_dm *dm,
				     uint64_t dm_offset, size_t length)
{
	return dm->memcpy_from_dm(host_addr, dm, dm_offset, length);
}

/*
 * Register [dm_offset, dm_offset + length) of @dm. The MR is zero based:
 * @access must include IBV_ACCESS_ZERO_BASED and work requests address it
 * by offset. NULL with errno (EINVAL, EOPNOTSUPP).
 */
static inline struct ibv_mr *ibv_reg_dm_mr(struct ibv_pd *pd,
					   struct ibv_dm *dm,
					   uint64_t dm_offset, size_t length,
					   unsigned int access)
{
	struct verbs_context *vctx = verbs_get_ctx_op(pd->context, reg_dm_mr);

	if (!vctx) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return vctx->reg_dm_mr(pd, dm, dm_offset, length, access);
}

/*
 * Export the memory of @dm as a new dma-buf file descriptor
 * (IBVERBS_1.16), e.g. for a peer device to import. The caller owns the
 * fd and releases it with close(); the dma-buf is revoked when @dm is
 * freed. Returns the fd, or -1 with errno: EINVAL (@dm is NULL, or the
 * memory is not exportable), EOPNOTSUPP (the provider or kernel cannot).
 */
int ibv_dm_export_dmabuf_fd(struct ibv_dm *dm);

/* ================================================================== */
/* Completion counters (IBVERBS_1.18)                                  */

/*
 * Fill the first @caps_size bytes of @caps (zeroed first). 0 or errno
 * (EOPNOTSUPP: no completion counters; EINVAL: @caps_size too small).
 */
int _ibv_query_comp_cntr_caps(struct ibv_context *context,
			      struct ibv_comp_cntr_caps *caps,
			      size_t caps_size);

static inline int ibv_query_comp_cntr_caps(struct ibv_context *context,
					   struct ibv_comp_cntr_caps *caps)
{
	return _ibv_query_comp_cntr_caps(context, caps, sizeof(*caps));
}

/* NULL with errno (EOPNOTSUPP, EINVAL, ENOMEM). */
struct ibv_comp_cntr *
ibv_create_comp_cntr(struct ibv_context *context,
		     struct ibv_comp_cntr_init_attr *cc_attr);
/* The int calls: 0 or errno (EOPNOTSUPP; EBUSY: destroy while attached). */
int ibv_destroy_comp_cntr(struct ibv_comp_cntr *comp_cntr);
int ibv_set_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value);
int ibv_set_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value);
int ibv_inc_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount);
int ibv_inc_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount);
int ibv_read_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value);
int ibv_read_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value);
/* Count the completions of @qp that @attr->op_mask selects. */
int ibv_qp_attach_comp_cntr(struct ibv_qp *qp, struct ibv_comp_cntr *comp_cntr,
			    struct ibv_qp_attach_comp_cntr_attr *attr);

/* ================================================================== */
/* Completion queues                                                   */

/* A completion channel (an fd to wait on for CQ events); NULL + errno. */
struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *context);

/* 0 or errno (EBUSY while CQs still use it). */
int ibv_destroy_comp_channel(struct ibv_comp_channel *channel);

/* A CQ with at least @cqe entries; NULL with errno (EINVAL, ENOMEM). */
struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe,
			     void *cq_context,
			     struct ibv_comp_channel *channel,
			     int comp_vector);

/* An extended CQ, read with ibv_start_poll(); NULL with errno. */
static inline struct ibv_cq_ex *
ibv_create_cq_ex(struct ibv_context *context,
		 struct ibv_cq_init_attr_ex *cq_attr)
{
	struct verbs_context *vctx = verbs_get_ctx_op(context, create_cq_ex);

	if (!vctx) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return vctx->create_cq_ex(context, cq_attr);
}

/* The ibv_cq part of an extended CQ (its first members are ibv_cq's). */
static inline struct ibv_cq *ibv_cq_ex_to_cq(struct ibv_cq_ex *cq)
{
	return (struct ibv_cq *)cq;
}

/* Resize @cq to at least @cqe entries. 0 or errno. */
int ibv_resize_cq(struct ibv_cq *cq, int cqe);

/* 0 or errno (EBUSY while QPs use it). */
int ibv_destroy_cq(struct ibv_cq *cq);

/* Wait for a completion event on @channel; 0, or -1 with errno. Each
 * event must be acknowledged with ibv_ack_cq_events(). */
int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq,
		     void **cq_context);

/* Acknowledge @nevents events of @cq. */
void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents);

/* Up to @num_entries completions into @wc: the count, or < 0 on error. */
static inline int ibv_poll_cq(struct ibv_cq *cq, int num_entries,
			      struct ibv_wc *wc)
{
	return cq->context->ops.poll_cq(cq, num_entries, wc);
}

/* Arm @cq for one completion event. 0 or errno. */
static inline int ibv_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	return cq->context->ops.req_notify_cq(cq, solicited_only);
}

/* Change CQ moderation. 0 or errno (EOPNOTSUPP). */
static inline int ibv_modify_cq(struct ibv_cq *cq,
				struct ibv_modify_cq_attr *attr)
{
	struct verbs_context *vctx = verbs_get_ctx_op(cq->context, modify_cq);

	if (!vctx)
		return EOPNOTSUPP;
	return vctx->modify_cq(cq, attr);
}

/* ================================================================== */
/* Shared receive queues                                               */

/* A basic SRQ; NULL with errno. */
struct ibv_srq *ibv_create_srq(struct ibv_pd *pd,
			       struct ibv_srq_init_attr *srq_init_attr);

/* An SRQ of any type; a plain basic SRQ request goes to ibv_create_srq().
 * NULL with errno (EOPNOTSUPP). */
static inline struct ibv_srq *
ibv_create_srq_ex(struct ibv_context *context,
		  struct ibv_srq_init_attr_ex *srq_init_attr_ex)
{
	const uint32_t basic = IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE;
	uint32_t mask = srq_init_attr_ex->comp_mask;
	struct verbs_context *vctx;

	if (!(mask & ~basic) && (mask & IBV_SRQ_INIT_ATTR_PD) &&
	    (!(mask & IBV_SRQ_INIT_ATTR_TYPE) ||
	     srq_init_attr_ex->srq_type == IBV_SRQT_BASIC))
		return ibv_create_srq(
			srq_init_attr_ex->pd,
			(struct ibv_srq_init_attr *)srq_init_attr_ex);

	vctx = verbs_get_ctx_op(context, create_srq_ex);
	if (!vctx) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return vctx->create_srq_ex(context, srq_init_attr_ex);
}

/* 0 or errno. */
int ibv_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr,
		   int srq_attr_mask);

/* 0 or errno. */
int ibv_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr);

/* The XRC SRQ number of @srq. 0 or errno (EOPNOTSUPP). */
static inline int ibv_get_srq_num(struct ibv_srq *srq, uint32_t *srq_num)
{
	struct verbs_context *vctx =
		verbs_get_ctx_op(srq->context, get_srq_num);

	if (!vctx)
		return EOPNOTSUPP;
	return vctx->get_srq_num(srq, srq_num);
}

/* 0 or errno. */
int ibv_destroy_srq(struct ibv_srq *srq);

/* Post receive buffers; 0, or errno with *bad_recv_wr = first failure. */
static inline int ibv_post_srq_recv(struct ibv_srq *srq,
				    struct ibv_recv_wr *recv_wr,
				    struct ibv_recv_wr **bad_recv_wr)
{
	return srq->context->ops.post_srq_recv(srq, recv_wr, bad_recv_wr);
}

/* Tag-matching list operations; 0, or errno with *bad_op set. */
static inline int ibv_post_srq_ops(struct ibv_srq *srq, struct ibv_ops_wr *op,
				   struct ibv_ops_wr **bad_op)
{
	struct verbs_context *vctx =
		verbs_get_ctx_op(srq->context, post_srq_ops);

	if (!vctx) {
		*bad_op = op;
		return EOPNOTSUPP;
	}
	return vctx->post_srq_ops(srq, op, bad_op);
}

/* ================================================================== */
/* Queue pairs                                                         */

/* A QP; NULL with errno (EINVAL, ENOMEM, ENOSYS). */
struct ibv_qp *ibv_create_qp(struct ibv_pd *pd,
			     struct ibv_qp_init_attr *qp_init_attr);

/* A QP with extended attributes; a PD-only request goes to
 * ibv_create_qp(). NULL with errno (EOPNOTSUPP). */
static inline struct ibv_qp *
ibv_create_qp_ex(struct ibv_context *context,
		 struct ibv_qp_init_attr_ex *qp_init_attr_ex)
{
	struct verbs_context *vctx;

	if (qp_init_attr_ex->comp_mask == IBV_QP_INIT_ATTR_PD)
		return ibv_create_qp(
			qp_init_attr_ex->pd,
			(struct ibv_qp_init_attr *)qp_init_attr_ex);

	vctx = verbs_get_ctx_op(context, create_qp_ex);
	if (!vctx) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return vctx->create_qp_ex(context, qp_init_attr_ex);
}

/* The extended view of a QP created with IBV_QP_INIT_ATTR_SEND_OPS_FLAGS
 * (see <infiniband/verbs_qp_ex.h>); NULL otherwise. */
struct ibv_qp_ex *ibv_qp_to_qp_ex(struct ibv_qp *qp);

/* A thread domain; NULL with errno (EOPNOTSUPP). */
static inline struct ibv_td *ibv_alloc_td(struct ibv_context *context,
					  struct ibv_td_init_attr *init_attr)
{
	struct verbs_context *vctx = verbs_get_ctx_op(context, alloc_td);

	if (!vctx) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return vctx->alloc_td(context, init_attr);
}

/* 0 or errno (EOPNOTSUPP). */
static inline int ibv_dealloc_td(struct ibv_td *td)
{
	struct verbs_context *vctx = verbs_get_ctx_op(td->context, dealloc_td);

	if (!vctx)
		return EOPNOTSUPP;
	return vctx->dealloc_td(td);
}

/* A PD that combines a PD, a TD and custom allocators. NULL + errno. */
static inline struct ibv_pd *
ibv_alloc_parent_domain(struct ibv_context *context,
			struct ibv_parent_domain_init_attr *attr)
{
	struct verbs_context *vctx =
		verbs_get_ctx_op(context, alloc_parent_domain);

	if (!vctx) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return vctx->alloc_parent_domain(context, attr);
}

/* Read device clocks. 0 or errno (EOPNOTSUPP). */
static inline int ibv_query_rt_values_ex(struct ibv_context *context,
					 struct ibv_values_ex *values)
{
	struct verbs_context *vctx =
		verbs_get_ctx_op(context, query_rt_values);

	if (!vctx)
		return EOPNOTSUPP;
	return vctx->query_rt_values(context, values);
}

/*
 * Extended device attributes. 0 or errno: EINVAL for a non-zero
 * @input->comp_mask. A provider without the extended query (or one
 * answering EOPNOTSUPP/ENOSYS) gets the basic attributes with every
 * extended member zero.
 */
static inline int
ibv_query_device_ex(struct ibv_context *context,
		    const struct ibv_query_device_ex_input *input,
		    struct ibv_device_attr_ex *attr)
{
	struct verbs_context *vctx;
	int ret;

	if (input && input->comp_mask)
		return EINVAL;

	vctx = verbs_get_ctx_op(context, query_device_ex);
	if (vctx) {
		ret = vctx->query_device_ex(context, input, attr,
					    sizeof(*attr));
		if (ret != EOPNOTSUPP && ret != ENOSYS)
			return ret;
	}
	memset(attr, 0, sizeof(*attr));
	return ibv_query_device(context, &attr->orig_attr);
}

/* Open an XRC target QP owned by another process. NULL with errno. */
static inline struct ibv_qp *ibv_open_qp(struct ibv_context *context,
					 struct ibv_qp_open_attr *qp_open_attr)
{
	struct verbs_context *vctx = verbs_get_ctx_op(context, open_qp);

	if (!vctx) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return vctx->open_qp(context, qp_open_attr);
}

/* Change the attributes in @attr_mask (enum ibv_qp_attr_mask). 0/errno. */
int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask);

/* Set a send rate limit. 0 or errno (EOPNOTSUPP). */
static inline int ibv_modify_qp_rate_limit(struct ibv_qp *qp,
					   struct ibv_qp_rate_limit_attr *attr)
{
	struct verbs_context *vctx =
		verbs_get_ctx_op(qp->context, modify_qp_rate_limit);

	if (!vctx)
		return EOPNOTSUPP;
	return vctx->modify_qp_rate_limit(qp, attr);
}

enum ibv_query_qp_data_in_order_flags {
	IBV_QUERY_QP_DATA_IN_ORDER_RETURN_CAPS = 1 << 0,
	/* the device's own ordering, whatever the CPU's memory model */
	IBV_QUERY_QP_DATA_IN_ORDER_DEVICE_ONLY = 1 << 1,
};

enum ibv_query_qp_data_in_order_caps {
	IBV_QUERY_QP_DATA_IN_ORDER_WHOLE_MSG = 1 << 0,
	IBV_QUERY_QP_DATA_IN_ORDER_ALIGNED_128_BYTES = 1 << 1,
};

/*
 * Whether data of opcode @op lands in order: 1 yes, 0 no/unknown; with
 * IBV_QUERY_QP_DATA_IN_ORDER_RETURN_CAPS in @flags, the
 * enum ibv_query_qp_data_in_order_caps bits that hold instead.
 */
int ibv_query_qp_data_in_order(struct ibv_qp *qp, enum ibv_wr_opcode op,
			       uint32_t flags);

/* The attributes in @attr_mask plus the creation attributes. 0/errno. */
int ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
		 struct ibv_qp_init_attr *init_attr);

/* 0 or errno. */
int ibv_destroy_qp(struct ibv_qp *qp);

/* A receive work queue; NULL with errno (EOPNOTSUPP). */
static inline struct ibv_wq *
ibv_create_wq(struct ibv_context *context,
	      struct ibv_wq_init_attr *wq_init_attr)
{
	struct verbs_context *vctx = verbs_get_ctx_op(context, create_wq);
	struct ibv_wq *wq;

	if (!vctx) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	wq = vctx->create_wq(context, wq_init_attr);
	if (wq) {
		wq->wq_context = wq_init_attr->wq_context;
		wq->events_completed = 0;
		pthread_mutex_init(&wq->mutex, NULL);
		pthread_cond_init(&wq->cond, NULL);
	}
	return wq;
}

/* 0 or errno (EOPNOTSUPP). */
static inline int ibv_modify_wq(struct ibv_wq *wq, struct ibv_wq_attr *wq_attr)
{
	struct verbs_context *vctx = verbs_get_ctx_op(wq->context, modify_wq);

	if (!vctx)
		return EOPNOTSUPP;
	return vctx->modify_wq(wq, wq_attr);
}

/* 0 or errno (EOPNOTSUPP). */
static inline int ibv_destroy_wq(struct ibv_wq *wq)
{
	struct verbs_context *vctx = verbs_get_ctx_op(wq->context, destroy_wq);

	if (!vctx)
		return EOPNOTSUPP;
	return vctx->destroy_wq(wq);
}

/* Post receive buffers to @wq; 0, or errno with *bad_recv_wr set. */
static inline int ibv_post_wq_recv(struct ibv_wq *wq,
				   struct ibv_recv_wr *recv_wr,
				   struct ibv_recv_wr **bad_recv_wr)
{
	return wq->post_recv(wq, recv_wr, bad_recv_wr);
}

/* An RSS indirection table; NULL with errno (EOPNOTSUPP). */
static inline struct ibv_rwq_ind_table *
ibv_create_rwq_ind_table(struct ibv_context *context,
			 struct ibv_rwq_ind_table_init_attr *init_attr)
{
	struct verbs_context *vctx =
		verbs_get_ctx_op(context, create_rwq_ind_table);

	if (!vctx) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return vctx->create_rwq_ind_table(context, init_attr);
}

/* 0 or errno (EOPNOTSUPP). */
static inline int
ibv_destroy_rwq_ind_table(struct ibv_rwq_ind_table *rwq_ind_table)
{
	struct verbs_context *vctx = verbs_get_ctx_op(rwq_ind_table->context,
						      destroy_rwq_ind_table);

	if (!vctx)
		return EOPNOTSUPP;
	return vctx->destroy_rwq_ind_table(rwq_ind_table);
}

/* Post send work requests; 0, or errno with *bad_wr = first failure. */
static inline int ibv_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
				struct ibv_send_wr **bad_wr)
{
	return qp->context->ops.post_send(qp, wr, bad_wr);
}

/* Post receive work requests; 0, or errno with *bad_wr set. */
static inline int ibv_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
				struct ibv_recv_wr **bad_wr)
{
	return qp->context->ops.post_recv(qp, wr, bad_wr);
}

/* Set / read the ECE options of a QP. 0 or errno (EOPNOTSUPP). */
int ibv_set_ece(struct ibv_qp *qp, struct ibv_ece *ece);
int ibv_query_ece(struct ibv_qp *qp, struct ibv_ece *ece);

/* ================================================================== */
/* Address handles and multicast                                       */

/* An address handle; NULL with errno. */
struct ibv_ah *ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr);

/* The attributes of an AH that answers the sender of @wc (and @grh when
 * IBV_WC_GRH is set). 0, or -1 with errno. */
int ibv_init_ah_from_wc(struct ibv_context *context, uint8_t port_num,
			struct ibv_wc *wc, struct ibv_grh *grh,
			struct ibv_ah_attr *ah_attr);

/* ibv_init_ah_from_wc() then ibv_create_ah(); NULL with errno. */
struct ibv_ah *ibv_create_ah_from_wc(struct ibv_pd *pd, struct ibv_wc *wc,
				     struct ibv_grh *grh, uint8_t port_num);

/* 0 or errno. */
int ibv_destroy_ah(struct ibv_ah *ah);

/* Join / leave a multicast group on a UD QP. 0 or errno. */
int ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
		     uint16_t lid);
int ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
		     uint16_t lid);

/* ================================================================== */
/* fork() support and helpers                                          */

/*
 * Make registered memory safe across fork() (madvise DONTFORK); call
 * before registering anything. 0 or errno (EINVAL once MRs exist).
 */
int ibv_fork_init(void);

/* Whether fork protection is on, off, or not needed by this kernel. */
enum ibv_fork_status ibv_is_fork_initialized(void);

/* Static English names; "unknown" for out-of-range values. */
const char *ibv_node_type_str(enum ibv_node_type node_type);
const char *ibv_port_state_str(enum ibv_port_state port_state);
const char *ibv_event_type_str(enum ibv_event_type event);

/* A static English name for @status ("unknown" when out of range). */
const char *ibv_wc_status_str(enum ibv_wc_status status);

/* @rate as a multiple of 2.5 Gb/s (IBV_RATE_10_GBPS -> 4); -1 if unknown. */
int __attribute_const ibv_rate_to_mult(enum ibv_rate rate);
/* Inverse of ibv_rate_to_mult(); IBV_RATE_MAX for an unknown multiple. */
enum ibv_rate __attribute_const mult_to_ibv_rate(int mult);
/* @rate in Mb/s (IBV_RATE_14_GBPS -> 14062); -1 if unknown. */
int __attribute_const ibv_rate_to_mbps(enum ibv_rate rate);
/* Inverse of ibv_rate_to_mbps(); IBV_RATE_MAX for an unknown speed. */
enum ibv_rate __attribute_const mbps_to_ibv_rate(int mbps);

#define ETHERNET_LL_SIZE 6

/* The destination MAC and VLAN id for a RoCE AH. 0 or errno. */
int ibv_resolve_eth_l2_from_gid(struct ibv_context *context,
				struct ibv_ah_attr *attr,
				uint8_t eth_mac[ETHERNET_LL_SIZE],
				uint16_t *vid);

/* Whether a supported_qpts mask (e.g. tso_caps) includes @qpt. */
static inline int ibv_is_qpt_supported(uint32_t caps, enum ibv_qp_type qpt)
{
	return !!(caps & (1 << qpt));
}

/* ================================================================== */
/* Counters                                                            */

/* A counters object; NULL with errno (EOPNOTSUPP). */
static inline struct ibv_counters *
ibv_create_counters(struct ibv_context *context,
		    struct ibv_counters_init_attr *init_attr)
{
	struct verbs_context *vctx =
		verbs_get_ctx_op(context, create_counters);

	if (!vctx) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return vctx->create_counters(context, init_attr);
}

/* 0 or errno (EOPNOTSUPP). */
static inline int ibv_destroy_counters(struct ibv_counters *counters)
{
	struct verbs_context *vctx =
		verbs_get_ctx_op(counters->context, destroy_counters);

	if (!vctx)
		return EOPNOTSUPP;
	return vctx->destroy_counters(counters);
}

/* Count packets/bytes of @flow into @counters. 0 or errno. */
static inline int
ibv_attach_counters_point_flow(struct ibv_counters *counters,
			       struct ibv_counter_attach_attr *attr,
			       struct ibv_flow *flow)
{
	struct verbs_context *vctx =
		verbs_get_ctx_op(counters->context, attach_counters_point_flow);

	if (!vctx)
		return EOPNOTSUPP;
	return vctx->attach_counters_point_flow(counters, attr, flow);
}

/* Read @ncounters values. 0 or errno (EOPNOTSUPP). */
static inline int ibv_read_counters(struct ibv_counters *counters,
				    uint64_t *counters_value,
				    uint32_t ncounters, uint32_t flags)
{
	struct verbs_context *vctx =
		verbs_get_ctx_op(counters->context, read_counters);

	if (!vctx)
		return EOPNOTSUPP;
	return vctx->read_counters(counters, counters_value, ncounters, flags);
}

/* ================================================================== */
/* RoCE v2 helpers                                                     */

#define IB_ROCE_UDP_ENCAP_VALID_PORT_MIN (0xC000)
#define IB_ROCE_UDP_ENCAP_VALID_PORT_MAX (0xFFFF)
#define IB_GRH_FLOWLABEL_MASK (0x000FFFFF)

/* The RoCE v2 UDP source port derived from a 20-bit flow label: the
 * label folded to 14 bits, placed in the 0xC000-0xFFFF range. */
static inline uint16_t ibv_flow_label_to_udp_sport(uint32_t fl)
{
	uint32_t low = fl & 0x03FFF;
	uint32_t high = fl & 0xFC000;

	low ^= high >> 14;
	return (uint16_t)(low | IB_ROCE_UDP_ENCAP_VALID_PORT_MIN);
}

#ifdef __cplusplus
}
#endif

#undef __attribute_const

#include <infiniband/verbs_qp_ex.h>
#include <infiniband/verbs_cq_ex.h>

#endif /* INFINIBAND_VERBS_H */
