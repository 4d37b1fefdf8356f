// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* mlx5 driver methods and the driver attributes it adds to core methods. */
#include "mlx5.h"

static const struct sim_attr_spec map_op_attrs[] = {
	A_IDR(MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_HANDLE, sim_type_dm, SA_READ),
	A_IN(MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_OP, 1, 1, 1),
	A_OUT(MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_START_OFFSET, 8, 8, 1),
	A_OUT(MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_PAGE_INDEX, 2, 2, 0),
};

static const struct sim_attr_spec dm_query_attrs[] = {
	A_IDR(MLX5_IB_ATTR_QUERY_DM_REQ_HANDLE, sim_type_dm, SA_READ),
	A_OUT(MLX5_IB_ATTR_QUERY_DM_RESP_START_OFFSET, 8, 8, 1),
	A_OUT(MLX5_IB_ATTR_QUERY_DM_RESP_PAGE_INDEX, 2, 2, 1),
	A_OUT(MLX5_IB_ATTR_QUERY_DM_RESP_LENGTH, 8, 8, 1),
};

static const struct sim_attr_spec pd_query_attrs[] = {
	A_IDR(MLX5_IB_ATTR_QUERY_PD_HANDLE, sim_type_pd, SA_READ),
	A_OUT(MLX5_IB_ATTR_QUERY_PD_RESP_PDN, 4, 4, 1),
};

/* The PD number of a PD of this file (ibv_import_pd in a sharer). */
static int pd_query(struct sim_call *c)
{
	struct sim_pd *pd =
		sim_pd(sim_attr_obj(c, MLX5_IB_ATTR_QUERY_PD_HANDLE));

	return sim_attr_copy_out(c, MLX5_IB_ATTR_QUERY_PD_RESP_PDN, &pd->pdn,
				 sizeof(uint32_t));
}

static const struct sim_attr_spec uar_alloc_attrs[] = {
	A_IDR(MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE, mlx5_sim_type_uar, SA_NEW),
	A_CONST(MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE, 1),
	A_OUT(MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET, 8, 8, 1),
	A_OUT(MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH, 4, 4, 1),
	A_OUT(MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID, 4, 4, 1),
};

static const struct sim_attr_spec uar_destroy_attrs[] = {
	A_IDR(MLX5_IB_ATTR_UAR_OBJ_DESTROY_HANDLE, mlx5_sim_type_uar,
	      SA_DESTROY),
};

#define DM_M(m, n, f, a)                                                       \
	SIM_METHOD(UVERBS_OBJECT_DM, "DM", m, n, f, a, SIM_M_NEEDS_CTX)
#define UAR_M(m, n, f, a)                                                      \
	SIM_METHOD(MLX5_IB_OBJECT_UAR, "MLX5_UAR", m, n, f, a, SIM_M_NEEDS_CTX)

/* No DEVX object: this device has no user contexts (log_max_uctx 0). */
const struct sim_method mlx5_sim_methods[] = {
	DM_M(MLX5_IB_METHOD_DM_MAP_OP_ADDR, "DM_MAP_OP_ADDR",
	     mlx5_sim_dm_map_op_addr, map_op_attrs),
	DM_M(MLX5_IB_METHOD_DM_QUERY, "DM_QUERY", mlx5_sim_dm_query,
	     dm_query_attrs),
	SIM_METHOD(UVERBS_OBJECT_PD, "PD", MLX5_IB_METHOD_PD_QUERY, "PD_QUERY",
		   pd_query, pd_query_attrs, SIM_M_NEEDS_CTX),
	UAR_M(MLX5_IB_METHOD_UAR_OBJ_ALLOC, "UAR_OBJ_ALLOC", mlx5_sim_uar_alloc,
	      uar_alloc_attrs),
	UAR_M(MLX5_IB_METHOD_UAR_OBJ_DESTROY, "UAR_OBJ_DESTROY",
	      mlx5_sim_uar_destroy, uar_destroy_attrs),
};
const unsigned int mlx5_sim_nmethods = ARRAY_SIZE(mlx5_sim_methods);

static const struct sim_attr_spec dm_alloc_ext[] = {
	A_OUT(MLX5_IB_ATTR_ALLOC_DM_RESP_START_OFFSET, 8, 8, 1),
	A_OUT(MLX5_IB_ATTR_ALLOC_DM_RESP_PAGE_INDEX, 2, 2, 0),
	A_CONST(MLX5_IB_ATTR_ALLOC_DM_REQ_TYPE, 0),
};

static const struct sim_attr_spec query_context_ext[] = {
	A_OUT_STRUCT(MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX,
		     sizeof(struct mlx5_ib_alloc_ucontext_resp),
		     sizeof(struct mlx5_ib_alloc_ucontext_resp), 0),
};

/* A CC queue's doorbell record as a dma-buf range (mlx5_queues.c). */
static const struct sim_attr_spec cq_create_ext[] = {
	A_IN_STRUCT(RDMA_DM_MLX5_ATTR_CREATE_CQ_DBR_BUF_UMEM,
		    sizeof(struct rdma_dm_buffer_desc),
		    sizeof(struct rdma_dm_buffer_desc), 0),
};

static const struct sim_attr_spec qp_create_ext[] = {
	A_IN_STRUCT(RDMA_DM_MLX5_ATTR_CREATE_QP_DBR_BUF_UMEM,
		    sizeof(struct rdma_dm_buffer_desc),
		    sizeof(struct rdma_dm_buffer_desc), 0),
};

#define EXT(o, m, a)                                                           \
	{                                                                      \
		.obj = (o), .method = (m), .attrs = (a),                       \
		.nattrs = ARRAY_SIZE(a)                                        \
	}

const struct sim_method_ext mlx5_sim_ext[] = {
	EXT(UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC, dm_alloc_ext),
	EXT(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_CONTEXT,
	    query_context_ext),
	EXT(UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, cq_create_ext),
	EXT(UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE, qp_create_ext),
};
const unsigned int mlx5_sim_next = ARRAY_SIZE(mlx5_sim_ext);
