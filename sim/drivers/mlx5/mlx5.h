/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* mlx5 driver model internals shared by its files. */
#ifndef RDMA_SIM_MLX5_H
#define RDMA_SIM_MLX5_H

#include "uapi.h"

#include <rdma/mlx5-abi.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>

/* mmap entry key ranges: command << 16 | index (kernel mlx5 layout) */
#define MLX5_SIM_DM_KEY_LO  ((uint32_t)MLX5_IB_MMAP_DEVICE_MEM << 16)
#define MLX5_SIM_DM_KEY_HI  (MLX5_SIM_DM_KEY_LO + 0xffff)
#define MLX5_SIM_UAR_KEY_LO (9u << 16)
#define MLX5_SIM_UAR_KEY_HI ((255u << 16) + 0xffff)

#define MLX5_SIM_MEMIC_BASE	     64
#define MLX5_SIM_LOG_MAX_MEMIC_ALIGN 6
/* memic_operations capability: increment (0) and test-and-set (1) */
#define MLX5_SIM_MEMIC_OPS 0x3u

#define MLX5_SIM_LOG_MAX_QP_SZ 15

/* Byte mmap offset of an entry key (what userspace passes to mmap). */
uint64_t mlx5_sim_key_to_offset(uint32_t key);
/* Entry key of a page offset; 0 on success, -EINVAL if malformed. */
int mlx5_sim_pgoff_to_key(uint64_t pgoff, uint32_t *key);

/* The HCA clock's clock-info snapshot (mlx5_clock.c). */
void mlx5_sim_clock_info(struct mlx5_ib_clock_info *ci);

int mlx5_sim_alloc_dm(struct sim_call *c, struct sim_dm *dm, uint64_t len,
		      uint32_t log_align);
int mlx5_sim_dm_map_op_addr(struct sim_call *c);
int mlx5_sim_dm_query(struct sim_call *c);
int mlx5_sim_uar_alloc(struct sim_call *c);
int mlx5_sim_alloc_dmah(struct sim_dmah *d);
/* ALLOC_MW's udata (mlx5_mw.c). */
int mlx5_sim_alloc_mw(const void *in, size_t in_len);
int mlx5_sim_uar_destroy(struct sim_call *c);

/* MLX5_IB_OBJECT_UAR: one dynamic UAR page (mlx5_uar.c). */
extern const struct sim_obj_type mlx5_sim_type_uar;
struct sim_uar {
	struct sim_obj obj;
	struct sim_entry *entry;
	uint32_t page_id;
};

static inline struct sim_uar *sim_uar(struct sim_obj *o)
{
	return o ? sim_container_of(o, struct sim_uar, obj) : NULL;
}

/*
 * What the driver made in the HCA (mlx5_eq.c), by number: the object's
 * driver word points here. The HCA's own state is reached only through
 * its commands (hca_cmd.h).
 */
enum { MLX5_RES_CQ, MLX5_RES_QP, MLX5_RES_SRQ, MLX5_RES_MKEY };
struct hca_create_dct_in;
struct mlx5_sim_res {
	struct mlx5_sim_res *next;
	uint8_t kind;
	uint32_t num; /* cqn, qpn / dctn, srqn, mkey */
	struct sim_obj *obj;
	/* a DCT: its context until INIT->RTR creates it in the HCA */
	struct hca_create_dct_in *dct;
	uint8_t dct_live;
	/* mlx5_ib's is_ooo_rq: granted by a modify, set in the context at
	 * INIT->RTR (a DCT's as it is made there) */
	uint8_t ooo_dp;
};
struct mlx5_sim_res *mlx5_sim_res_add(uint8_t kind, uint32_t num,
				      struct sim_obj *obj);
struct mlx5_sim_res *mlx5_sim_res_find(uint8_t kind, uint32_t num);
/* Forget obj's resource (its driver word goes NULL). */
void mlx5_sim_res_del(struct sim_obj *obj);
/* The HCA number of obj's resource, 0 if it has none. */
uint32_t mlx5_sim_res_num(const struct sim_obj *obj);
/* The HCA's number of a PD (0 for none). */
uint32_t mlx5_sim_pdn(struct sim_pd *pd);
/* Create the event queue once, then run one firmware command (out may
 * be NULL when the command's output is only its status). */
void mlx5_sim_eq_init(void);
int mlx5_sim_cmd(const void *in, size_t in_len, void *out, size_t out_len);
/* A DESTROY_* command for HCA object num, its status ignored. */
void mlx5_sim_hca_destroy(uint16_t destroy_op, uint32_t num);
/* CREATE_QP c for obj, and its resource. 0 or -errno (nothing made). */
struct hca_create_qp_in;
int mlx5_sim_qp_create(struct sim_obj *obj, const struct hca_create_qp_in *c);
/* The HCA faulted on an mkey (PAGE_FAULT EQE e): resolve it and say so
 * (where a dma-buf or MEMIC MR's bytes are; ODP pages brought in). */
struct hca_eqe;
void mlx5_sim_mkey_fault(const struct hca_eqe *e);
/* Memory keys of MRs and MWs (mlx5_mkey.c), the core's hooks. */
int mlx5_sim_reg_mkey(struct sim_mr *mr);
void mlx5_sim_dereg_mkey(struct sim_mr *mr);
int mlx5_sim_alloc_mw_mkey(struct sim_mw *mw);
void mlx5_sim_dealloc_mw_mkey(struct sim_mw *mw);

/* CQ, QP and SRQ user-hardware data and engine state (mlx5_queues.c) */
int mlx5_sim_create_cq(struct sim_uvfile *uv, struct sim_cq *cq,
		       const void *in, size_t in_len, void *out,
		       size_t out_len);
int mlx5_sim_resize_cq(struct sim_uvfile *uv, struct sim_cq *cq, uint32_t cqe,
		       const void *in, size_t in_len, void *out,
		       size_t out_len);
void mlx5_sim_destroy_cq(struct sim_uvfile *uv, struct sim_cq *cq);
/* On-demand paging (mlx5_odp.c) */
void mlx5_sim_odp_caps(struct ib_uverbs_ex_query_device_resp *r);
/* Resolve a page fault on [addr, addr+len) of this process as HMM does
 * (mlx5_odp_fault.c): 0 once every page is in (writable if write),
 * -EFAULT when a page does not exist or may not be written; *faulted
 * says whether pages had to come in. snapshot: fault nothing, only
 * check that the pages exist (ADVISE_MR's NO_FAULT). */
int mlx5_sim_odp_fault(uint64_t addr, uint64_t len, int write, int snapshot,
		       int *faulted);
int mlx5_sim_advise_mr(struct sim_uvfile *uv, struct sim_pd *pd,
		       uint32_t advice, uint32_t flags,
		       const struct ib_uverbs_sge *sge, uint32_t n);
/* Tag matching (mlx5_tm.c): EX_QUERY_DEVICE's tm_caps; a TM SRQ's list
 * size check: 0 and *slots (the list's size), or -errno. */
void mlx5_sim_tm_caps(unsigned int dev, struct ib_uverbs_tm_caps *caps);
int mlx5_sim_tm_srq(unsigned int dev, struct sim_srq *gsrq, uint32_t *slots);
/* XRC_TGT: a kernel QP, no user data (mlx5_xrc.c) */
int mlx5_sim_create_xrc_tgt(struct sim_uvfile *uv, struct sim_qp *gqp);
void mlx5_sim_open_xrc_tgt(struct sim_uvfile *uv, struct sim_qp *gqp);
void mlx5_sim_xrc_qpc(unsigned int dev, const struct sim_qp *gqp,
		      const struct sim_qp_attr *a);
int mlx5_sim_create_qp(struct sim_uvfile *uv, struct sim_qp *qp,
		       const void *in, size_t in_len, void *out,
		       size_t out_len);
int mlx5_sim_create_ah(struct sim_uvfile *uv, struct sim_ah *ah,
		       const void *in, size_t in_len, void *out,
		       size_t out_len);
/* The device an address vector leads to (DLID on IB, DMAC on RoCE). */
unsigned int mlx5_av_dev(unsigned int dev, const struct sim_ah_attr *ah);
int mlx5_sim_modify_qp(struct sim_uvfile *uv, struct sim_qp *qp,
		       const struct sim_qp_attr *attr, uint32_t mask,
		       const void *in, size_t in_len, void *out,
		       size_t out_len);
void mlx5_sim_destroy_qp(struct sim_uvfile *uv, struct sim_qp *qp);
int mlx5_sim_create_srq(struct sim_uvfile *uv, struct sim_srq *srq,
			const void *in, size_t in_len, void *out,
			size_t out_len);
int mlx5_sim_modify_srq(struct sim_uvfile *uv, struct sim_srq *srq,
			uint32_t max_wr, uint32_t limit, uint32_t mask,
			const void *in, size_t in_len);
/* EX_MODIFY_CQ's moderation: the HCA's MODIFY_CQ. */
int mlx5_sim_modify_cq(struct sim_cq *cq, uint16_t count, uint16_t period);
void mlx5_sim_destroy_srq(struct sim_uvfile *uv, struct sim_srq *srq);

/* DC QPs (mlx5_dc.c): vendor flags (clears DCT/DCI from *flags, *kind
 * the one set), the DCT context, the DC transition masks (0 go on as a
 * QP, 1 done: a DCT, or -errno) */
struct mlx5_ib_create_qp;
int mlx5_sim_dc_flags(const struct sim_qp *gqp, uint32_t *flags, int *kind);
int mlx5_sim_create_dct(struct sim_uvfile *uv, struct sim_qp *gqp,
			const struct mlx5_ib_create_qp *req);
/* The QPC's scatter-to-CQE values mlx5_ib gives a QP of these UHW flags
 * (dc: 0 or the MLX5_QP_FLAG_TYPE_DC* it is): cs_res, cs_req. */
uint8_t mlx5_sim_cs_res(const struct sim_qp *gqp, uint32_t flags, int dc);
uint8_t mlx5_sim_cs_req(const struct sim_qp *gqp, uint32_t flags, int dc);
int mlx5_sim_dc_modify(struct sim_qp *gqp, const struct sim_qp_attr *a,
		       uint32_t mask, void *out, size_t out_len);
void mlx5_sim_destroy_dct(struct sim_qp *gqp);

/* Whether bytes [from, to) of p hold anything but zeros. */
int mlx5_sim_nonzero(const void *p, size_t from, size_t to);

/* Out-of-order receive QPs (mlx5_ooo.c): the query-device flag, and
 * mlx5_ib_modify_qp's udata (0, or -errno as mlx5_ib answers it). */
uint32_t mlx5_sim_ooo_dev_flags(void);
int mlx5_sim_modify_udata(struct sim_qp *gqp, const void *in, size_t in_len);

extern const struct sim_method mlx5_sim_methods[];
extern const unsigned int mlx5_sim_nmethods;
extern const struct sim_method_ext mlx5_sim_ext[];
extern const unsigned int mlx5_sim_next;

#endif
