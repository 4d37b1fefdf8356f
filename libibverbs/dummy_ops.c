// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The default operations every context starts with. Each one fails the
 * way its verb documents failure, with EOPNOTSUPP, so a verb the provider
 * does not implement degrades cleanly instead of calling through NULL:
 * pointer results are NULL with errno set, int results are the positive
 * errno, void operations do nothing.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "ibverbs.h"

static void *fail_ptr(void)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static int advise_mr(struct ibv_pd *pd, enum ibv_advise_mr_advice advice,
		     uint32_t flags, struct ibv_sge *sg_list, uint32_t num_sges)
{
	return EOPNOTSUPP;
}

static struct ibv_dm *alloc_dm(struct ibv_context *context,
			       struct ibv_alloc_dm_attr *attr)
{
	return fail_ptr();
}

static struct ibv_mw *alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type)
{
	return fail_ptr();
}

static struct ibv_mr *alloc_null_mr(struct ibv_pd *pd)
{
	return fail_ptr();
}

static struct ibv_pd *
alloc_parent_domain(struct ibv_context *context,
		    struct ibv_parent_domain_init_attr *attr)
{
	return fail_ptr();
}

static struct ibv_pd *alloc_pd(struct ibv_context *context)
{
	return fail_ptr();
}

static struct ibv_td *alloc_td(struct ibv_context *context,
			       struct ibv_td_init_attr *init_attr)
{
	return fail_ptr();
}

static void async_event(struct ibv_context *context,
			struct ibv_async_event *event)
{
}

static int attach_counters_point_flow(struct ibv_counters *counters,
				      struct ibv_counter_attach_attr *attr,
				      struct ibv_flow *flow)
{
	return EOPNOTSUPP;
}

static int attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
			uint16_t lid)
{
	return EOPNOTSUPP;
}

static int bind_mw(struct ibv_qp *qp, struct ibv_mw *mw,
		   struct ibv_mw_bind *mw_bind)
{
	return EOPNOTSUPP;
}

static int close_xrcd(struct ibv_xrcd *xrcd)
{
	return EOPNOTSUPP;
}

static void cq_event(struct ibv_cq *cq)
{
}

static struct ibv_ah *create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	return fail_ptr();
}

static struct ibv_counters *
create_counters(struct ibv_context *context,
		struct ibv_counters_init_attr *init_attr)
{
	return fail_ptr();
}

static struct ibv_cq *create_cq(struct ibv_context *context, int cqe,
				struct ibv_comp_channel *channel,
				int comp_vector)
{
	return fail_ptr();
}

static struct ibv_cq_ex *create_cq_ex(struct ibv_context *context,
				      struct ibv_cq_init_attr_ex *init_attr)
{
	return fail_ptr();
}

static struct ibv_flow *create_flow(struct ibv_qp *qp,
				    struct ibv_flow_attr *flow_attr)
{
	return fail_ptr();
}

static struct ibv_flow_action *
create_flow_action_esp(struct ibv_context *context,
		       struct ibv_flow_action_esp_attr *attr)
{
	return fail_ptr();
}

static struct ibv_qp *create_qp(struct ibv_pd *pd,
				struct ibv_qp_init_attr *attr)
{
	return fail_ptr();
}

static struct ibv_qp *create_qp_ex(struct ibv_context *context,
				   struct ibv_qp_init_attr_ex *attr)
{
	return fail_ptr();
}

static struct ibv_rwq_ind_table *
create_rwq_ind_table(struct ibv_context *context,
		     struct ibv_rwq_ind_table_init_attr *init_attr)
{
	return fail_ptr();
}

static struct ibv_srq *create_srq(struct ibv_pd *pd,
				  struct ibv_srq_init_attr *attr)
{
	return fail_ptr();
}

static struct ibv_srq *create_srq_ex(struct ibv_context *context,
				     struct ibv_srq_init_attr_ex *attr)
{
	return fail_ptr();
}

static struct ibv_wq *create_wq(struct ibv_context *context,
				struct ibv_wq_init_attr *attr)
{
	return fail_ptr();
}

static int dealloc_mw(struct ibv_mw *mw)
{
	return EOPNOTSUPP;
}

static int dealloc_pd(struct ibv_pd *pd)
{
	return EOPNOTSUPP;
}

static int dealloc_td(struct ibv_td *td)
{
	return EOPNOTSUPP;
}

static int dereg_mr(struct verbs_mr *vmr)
{
	return EOPNOTSUPP;
}

static int destroy_ah(struct ibv_ah *ah)
{
	return EOPNOTSUPP;
}

static int destroy_counters(struct ibv_counters *counters)
{
	return EOPNOTSUPP;
}

static int destroy_cq(struct ibv_cq *cq)
{
	return EOPNOTSUPP;
}

static int destroy_flow(struct ibv_flow *flow)
{
	return EOPNOTSUPP;
}

static int destroy_flow_action(struct ibv_flow_action *action)
{
	return EOPNOTSUPP;
}

static int destroy_qp(struct ibv_qp *qp)
{
	return EOPNOTSUPP;
}

static int destroy_rwq_ind_table(struct ibv_rwq_ind_table *rwq_ind_table)
{
	return EOPNOTSUPP;
}

static int destroy_srq(struct ibv_srq *srq)
{
	return EOPNOTSUPP;
}

static int destroy_wq(struct ibv_wq *wq)
{
	return EOPNOTSUPP;
}

static int detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
			uint16_t lid)
{
	return EOPNOTSUPP;
}

/* The one fd-returning op: -1 and errno, like the verb it backs. */
static int dm_export_dmabuf_fd(struct ibv_dm *dm)
{
	errno = EOPNOTSUPP;
	return -1;
}

static void free_context(struct ibv_context *context)
{
}

static int free_dm(struct ibv_dm *dm)
{
	return EOPNOTSUPP;
}

static int get_srq_num(struct ibv_srq *srq, uint32_t *srq_num)
{
	return EOPNOTSUPP;
}

static struct ibv_dm *import_dm(struct ibv_context *context,
				uint32_t dm_handle)
{
	return fail_ptr();
}

static struct ibv_mr *import_mr(struct ibv_pd *pd, uint32_t mr_handle)
{
	return fail_ptr();
}

static struct ibv_pd *import_pd(struct ibv_context *context,
				uint32_t pd_handle)
{
	return fail_ptr();
}

static int modify_cq(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr)
{
	return EOPNOTSUPP;
}

static int modify_flow_action_esp(struct ibv_flow_action *action,
				  struct ibv_flow_action_esp_attr *attr)
{
	return EOPNOTSUPP;
}

static int modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
		     int attr_mask)
{
	return EOPNOTSUPP;
}

static int modify_qp_rate_limit(struct ibv_qp *qp,
				struct ibv_qp_rate_limit_attr *attr)
{
	return EOPNOTSUPP;
}

static int modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr,
		      int srq_attr_mask)
{
	return EOPNOTSUPP;
}

static int modify_wq(struct ibv_wq *wq, struct ibv_wq_attr *wq_attr)
{
	return EOPNOTSUPP;
}

static struct ibv_qp *open_qp(struct ibv_context *context,
			      struct ibv_qp_open_attr *attr)
{
	return fail_ptr();
}

static struct ibv_xrcd *open_xrcd(struct ibv_context *context,
				  struct ibv_xrcd_init_attr *xrcd_init_attr)
{
	return fail_ptr();
}

/*
 * ibv_poll_cq() returns a completion count, so a positive errno would
 * read as completions: report the failure as a negative value.
 */
static int poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)
{
	errno = EOPNOTSUPP;
	return -EOPNOTSUPP;
}

/* Posting verbs name the first request that failed: the whole list. */
static int post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
		     struct ibv_recv_wr **bad_wr)
{
	*bad_wr = wr;
	return EOPNOTSUPP;
}

static int post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
		     struct ibv_send_wr **bad_wr)
{
	*bad_wr = wr;
	return EOPNOTSUPP;
}

static int post_srq_ops(struct ibv_srq *srq, struct ibv_ops_wr *op,
			struct ibv_ops_wr **bad_op)
{
	*bad_op = op;
	return EOPNOTSUPP;
}

static int post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *recv_wr,
			 struct ibv_recv_wr **bad_recv_wr)
{
	*bad_recv_wr = recv_wr;
	return EOPNOTSUPP;
}

static int query_device_ex(struct ibv_context *context,
			   const struct ibv_query_device_ex_input *input,
			   struct ibv_device_attr_ex *attr, size_t attr_size)
{
	return EOPNOTSUPP;
}

static int query_ece(struct ibv_qp *qp, struct ibv_ece *ece)
{
	return EOPNOTSUPP;
}

static int query_port(struct ibv_context *context, uint8_t port_num,
		      struct ibv_port_attr *port_attr)
{
	return EOPNOTSUPP;
}

static int query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
		    int attr_mask, struct ibv_qp_init_attr *init_attr)
{
	return EOPNOTSUPP;
}

/* A yes/no query: "not known to be in order", errno says why. */
static int query_qp_data_in_order(struct ibv_qp *qp, enum ibv_wr_opcode op,
				  uint32_t flags)
{
	errno = EOPNOTSUPP;
	return 0;
}

static int query_rt_values(struct ibv_context *context,
			   struct ibv_values_ex *values)
{
	return EOPNOTSUPP;
}

static int query_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr)
{
	return EOPNOTSUPP;
}

static int read_counters(struct ibv_counters *counters,
			 uint64_t *counters_value, uint32_t ncounters,
			 uint32_t flags)
{
	return EOPNOTSUPP;
}

static struct ibv_mr *reg_dm_mr(struct ibv_pd *pd, struct ibv_dm *dm,
				uint64_t dm_offset, size_t length,
				unsigned int access)
{
	return fail_ptr();
}

static struct ibv_mr *reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
				    size_t length, uint64_t iova, int fd,
				    int access)
{
	return fail_ptr();
}

static struct ibv_mr *reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			     uint64_t hca_va, int access)
{
	return fail_ptr();
}

static int req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	return EOPNOTSUPP;
}

static int rereg_mr(struct verbs_mr *vmr, int flags, struct ibv_pd *pd,
		    void *addr, size_t length, int access)
{
	return EOPNOTSUPP;
}

static int resize_cq(struct ibv_cq *cq, int cqe)
{
	return EOPNOTSUPP;
}

static int set_ece(struct ibv_qp *qp, struct ibv_ece *ece)
{
	return EOPNOTSUPP;
}

static void unimport_dm(struct ibv_dm *dm)
{
}

static void unimport_mr(struct ibv_mr *mr)
{
}

static void unimport_pd(struct ibv_pd *pd)
{
}

static struct ibv_dmah *alloc_dmah(struct ibv_context *context,
				   struct ibv_dmah_init_attr *attr)
{
	return fail_ptr();
}

static int dealloc_dmah(struct ibv_dmah *dmah)
{
	return EOPNOTSUPP;
}

/* Completion counters: only providers with the kernel object have them. */
static struct ibv_comp_cntr *
create_comp_cntr(struct ibv_context *context,
		 struct ibv_comp_cntr_init_attr *attr)
{
	return fail_ptr();
}

static int destroy_comp_cntr(struct ibv_comp_cntr *comp_cntr)
{
	return EOPNOTSUPP;
}

static int write_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value)
{
	return EOPNOTSUPP;
}

static int read_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)
{
	return EOPNOTSUPP;
}

static int qp_attach_comp_cntr(struct ibv_qp *qp,
			       struct ibv_comp_cntr *comp_cntr,
			       struct ibv_qp_attach_comp_cntr_attr *attr)
{
	return EOPNOTSUPP;
}

static int query_comp_cntr_caps(struct ibv_context *context,
				struct ibv_comp_cntr_caps *caps,
				size_t caps_size)
{
	return EOPNOTSUPP;
}

const struct verbs_context_ops verbs_dummy_ops = {
	.advise_mr = advise_mr,
	.alloc_buf = verbs_default_alloc_buf,
	.alloc_dm = alloc_dm,
	.alloc_dmah = alloc_dmah,
	.alloc_mw = alloc_mw,
	.alloc_null_mr = alloc_null_mr,
	.alloc_parent_domain = alloc_parent_domain,
	.alloc_pd = alloc_pd,
	.alloc_td = alloc_td,
	.async_event = async_event,
	.attach_counters_point_flow = attach_counters_point_flow,
	.attach_mcast = attach_mcast,
	.bind_mw = bind_mw,
	.close_xrcd = close_xrcd,
	.cq_event = cq_event,
	.create_ah = create_ah,
	.create_comp_cntr = create_comp_cntr,
	.create_counters = create_counters,
	.create_cq = create_cq,
	.create_cq_ex = create_cq_ex,
	.create_flow = create_flow,
	.create_flow_action_esp = create_flow_action_esp,
	.create_qp = create_qp,
	.create_qp_ex = create_qp_ex,
	.create_rwq_ind_table = create_rwq_ind_table,
	.create_srq = create_srq,
	.create_srq_ex = create_srq_ex,
	.create_wq = create_wq,
	.dealloc_dmah = dealloc_dmah,
	.dealloc_mw = dealloc_mw,
	.dealloc_pd = dealloc_pd,
	.dealloc_td = dealloc_td,
	.dereg_mr = dereg_mr,
	.destroy_ah = destroy_ah,
	.destroy_comp_cntr = destroy_comp_cntr,
	.destroy_counters = destroy_counters,
	.destroy_cq = destroy_cq,
	.destroy_flow = destroy_flow,
	.destroy_flow_action = destroy_flow_action,
	.destroy_qp = destroy_qp,
	.destroy_rwq_ind_table = destroy_rwq_ind_table,
	.destroy_srq = destroy_srq,
	.destroy_wq = destroy_wq,
	.detach_mcast = detach_mcast,
	.dm_export_dmabuf_fd = dm_export_dmabuf_fd,
	.free_buf = verbs_default_free_buf,
	.free_context = free_context,
	.free_dm = free_dm,
	.get_srq_num = get_srq_num,
	.import_dm = import_dm,
	.import_mr = import_mr,
	.import_pd = import_pd,
	.inc_comp_cntr = write_comp_cntr,
	.inc_err_comp_cntr = write_comp_cntr,
	.modify_cq = modify_cq,
	.modify_flow_action_esp = modify_flow_action_esp,
	.modify_qp = modify_qp,
	.modify_qp_rate_limit = modify_qp_rate_limit,
	.modify_srq = modify_srq,
	.modify_wq = modify_wq,
	.open_qp = open_qp,
	.open_xrcd = open_xrcd,
	.poll_cq = poll_cq,
	.post_recv = post_recv,
	.post_send = post_send,
	.post_srq_ops = post_srq_ops,
	.post_srq_recv = post_srq_recv,
	.qp_attach_comp_cntr = qp_attach_comp_cntr,
	.query_comp_cntr_caps = query_comp_cntr_caps,
	.query_device_ex = query_device_ex,
	.query_ece = query_ece,
	.query_port = query_port,
	.query_qp = query_qp,
	.query_qp_data_in_order = query_qp_data_in_order,
	.query_rt_values = query_rt_values,
	.query_srq = query_srq,
	.read_comp_cntr = read_comp_cntr,
	.read_counters = read_counters,
	.read_err_comp_cntr = read_comp_cntr,
	.reg_dm_mr = reg_dm_mr,
	.reg_dmabuf_mr = reg_dmabuf_mr,
	.reg_mr = reg_mr,
	.reg_mr_ex = verbs_default_reg_mr_ex,
	.req_notify_cq = req_notify_cq,
	.rereg_mr = rereg_mr,
	.resize_cq = resize_cq,
	.set_comp_cntr = write_comp_cntr,
	.set_ece = set_ece,
	.set_err_comp_cntr = write_comp_cntr,
	.unimport_dm = unimport_dm,
	.unimport_mr = unimport_mr,
	.unimport_pd = unimport_pd,
};
