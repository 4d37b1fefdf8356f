// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* sim_verbs helpers: contexts, driver data, creates, modify templates. */
#include "verbs.h"

#include <errno.h>
#include <rdma/rdma_user_rxe.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int v_rxe;

int v_open(void)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = {
		.total_num_bfregs = 16,
		.num_low_latency_bfregs = 4,
		.max_cqe_version = 1,
	};
	struct mlx5_ib_alloc_ucontext_resp resp;
	int fd = raw_open();

	raw_driver_id = v_rxe ? RDMA_DRIVER_RXE : RDMA_DRIVER_MLX5;
	if (fd < 0)
		return -1;
	if (raw_get_context(fd, &req, v_rxe ? 0 : sizeof(req), &resp)) {
		close(fd);
		return -1;
	}
	return fd;
}

static uint32_t pow2(uint32_t v)
{
	uint32_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

/* Rings the kernel only probes: reserved, not touched. They stay mapped
 * for the life of the test (the objects use them). */
static void *ring(size_t len)
{
	void *p = mmap(NULL, len ? len : 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void set_rings(struct v_udata *u, size_t len)
{
	u->buf = ring(len);
	u->db = ring(4096);
}

void v_cq_udata(struct v_udata *u, uint32_t cqe)
{
	struct mlx5_ib_create_cq c = {.cqe_size = 64};

	memset(u, 0, sizeof(*u));
	if (v_rxe) {
		u->out_len = sizeof(struct rxe_create_cq_resp);
		return;
	}
	set_rings(u, (size_t)pow2(cqe + 1) * 64);
	c.buf_addr = (uintptr_t)u->buf;
	c.db_addr = (uintptr_t)u->db;
	memcpy(u->in, &c, sizeof(c));
	u->in_len = sizeof(c);
	u->out_len = sizeof(struct mlx5_ib_create_cq_resp);
}

void v_qp_udata(struct v_udata *u, uint32_t max_recv_wr, int has_rq)
{
	struct mlx5_ib_create_qp q = {.sq_wqe_count = 64};

	memset(u, 0, sizeof(*u));
	if (v_rxe) {
		u->out_len = sizeof(struct rxe_create_qp_resp);
		return;
	}
	if (has_rq && max_recv_wr) {
		q.rq_wqe_count = pow2(max_recv_wr);
		q.rq_wqe_shift = 4;
	}
	set_rings(u, ((size_t)q.rq_wqe_count << 4) + (64 << 6));
	q.buf_addr = (uintptr_t)u->buf;
	q.db_addr = (uintptr_t)u->db;
	memcpy(u->in, &q, sizeof(q));
	u->in_len = sizeof(q);
	u->out_len = sizeof(struct mlx5_ib_create_qp_resp);
}

void v_srq_udata(struct v_udata *u, uint32_t max_wr, uint32_t max_sge)
{
	struct mlx5_ib_create_srq s = {};

	memset(u, 0, sizeof(*u));
	if (v_rxe) {
		u->out_len = sizeof(struct rxe_create_srq_resp);
		return;
	}
	set_rings(u, (size_t)pow2(max_wr + 1) * pow2(16 + 16 * max_sge));
	s.buf_addr = (uintptr_t)u->buf;
	s.db_addr = (uintptr_t)u->db;
	memcpy(u->in, &s, sizeof(s));
	u->in_len = sizeof(s);
	u->out_len = sizeof(struct mlx5_ib_create_srq_resp);
}

/*
 * A legacy write with driver data: core request (its first u64 is the
 * response pointer) + u->in; response = core response + u->out.
 */
int v_write_udata(int fd, uint32_t cmd, void *core, size_t core_len,
		       void *resp, size_t resp_len, struct v_udata *u)
{
	uint8_t body[256], out[256] = {};
	uint64_t rp = (uintptr_t)out;
	int ret;

	memcpy(body, core, core_len);
	memcpy(body, &rp, sizeof(rp));
	memcpy(body + core_len, u->in, u->in_len);
	ret = raw_write(fd, cmd, body, core_len + u->in_len,
			resp_len + u->out_len);
	memcpy(resp, out, resp_len);
	memcpy(u->out, out + resp_len, u->out_len);
	return ret;
}

int v_write_ex_udata(int fd, uint32_t cmd, void *core, size_t core_len,
		     void *resp, size_t resp_len, struct v_udata *u)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		uint8_t body[256];
	} b = {};
	uint8_t out[256] = {};
	size_t len = sizeof(b.hdr) + sizeof(b.ex) + core_len + u->in_len;
	int ret;

	b.hdr.command = IB_USER_VERBS_CMD_FLAG_EXTENDED | cmd;
	b.hdr.in_words = (uint16_t)(core_len / 8);
	b.hdr.out_words = (uint16_t)(resp_len / 8);
	b.ex.response = (uintptr_t)out;
	b.ex.provider_in_words = (uint16_t)(u->in_len / 8);
	b.ex.provider_out_words = (uint16_t)(u->out_len / 8);
	memcpy(b.body, core, core_len);
	memcpy(b.body + core_len, u->in, u->in_len);
	ret = write(fd, &b, len) == (ssize_t)len ? 0 : errno;
	memcpy(resp, out, resp_len);
	memcpy(u->out, out + resp_len, u->out_len);
	return ret;
}

void v_add_uhw(struct raw_ioctl *c, struct v_udata *u)
{
	if (u->in_len)
		raw_attr(c, UVERBS_ATTR_UHW_IN, (uint16_t)u->in_len,
			 (uintptr_t)u->in);
	raw_attr(c, UVERBS_ATTR_UHW_OUT, (uint16_t)u->out_len,
		 (uintptr_t)u->out);
}

int v_env(uint32_t *pd, uint32_t *cq)
{
	int fd = v_open();

	if (fd < 0 || raw_alloc_pd(fd, pd) ||
	    v_create_cq(fd, 64, 0, -1, cq, NULL)) {
		EXPECT(0, "no context with a PD and a CQ");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int v_create_cq(int fd, uint32_t cqe, uint32_t vector, int channel,
		uint32_t *handle, uint32_t *cqe_out)
{
	struct ib_uverbs_create_cq_resp r = {};
	struct ib_uverbs_create_cq c = {
		.cqe = cqe,
		.comp_vector = vector,
		.comp_channel = channel,
	};
	struct v_udata u;
	int ret;

	v_cq_udata(&u, cqe);
	ret = v_write_udata(fd, IB_USER_VERBS_CMD_CREATE_CQ, &c, sizeof(c), &r,
			  sizeof(r), &u);
	if (handle)
		*handle = r.cq_handle;
	if (cqe_out)
		*cqe_out = r.cqe;
	return ret; /* the rings stay: the CQ uses them */
}

int v_create_cq_ioctl(int fd, uint32_t cqe, uint32_t vector, int channel,
		      int event_fd, uint32_t flags, uint32_t *handle)
{
	struct raw_ioctl c;
	struct v_udata u;
	uint32_t got = 0;

	v_cq_udata(&u, cqe);
	raw_init(&c, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	raw_attr(&c, UVERBS_ATTR_CREATE_CQ_HANDLE, 0, 0);
	raw_attr(&c, UVERBS_ATTR_CREATE_CQ_CQE, 4, cqe);
	raw_attr(&c, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 8, 0x1234);
	raw_attr(&c, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 4, vector);
	raw_ptr(&c, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &got);
	if (channel >= 0)
		raw_attr(&c, UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL, 0,
			 (uint64_t)channel);
	if (event_fd >= 0)
		raw_attr(&c, UVERBS_ATTR_CREATE_CQ_EVENT_FD, 0,
			 (uint64_t)event_fd);
	if (flags)
		raw_attr(&c, UVERBS_ATTR_CREATE_CQ_FLAGS, 4, flags);
	v_add_uhw(&c, &u);
	return raw_call_new(fd, &c, handle);
}

int v_create_channel(int fd, int *channel)
{
	struct ib_uverbs_create_comp_channel_resp r = {};
	struct ib_uverbs_create_comp_channel c = {.response = (uintptr_t)&r};
	int ret = raw_write(fd, IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL, &c,
			    sizeof(c), sizeof(r));

	*channel = ret ? -1 : (int)r.fd;
	return ret;
}

void v_qp_req_init(struct v_qp_req *r, uint32_t pd, uint32_t cq, uint8_t type)
{
	memset(r, 0, sizeof(*r));
	r->pd = pd;
	r->send_cq = r->recv_cq = cq;
	r->srq = ~0u;
	r->event_fd = -1;
	r->type = type;
	r->cap = (struct ib_uverbs_qp_cap){8, 8, 1, 1, 0};
}

int v_create_qp(int fd, const struct v_qp_req *r, uint32_t *handle,
		uint32_t *qpn)
{
	struct ib_uverbs_create_qp_resp resp = {};
	struct ib_uverbs_create_qp c = {
		.user_handle = 0x5678,
		.pd_handle = r->pd,
		.send_cq_handle = r->send_cq,
		.recv_cq_handle = r->recv_cq,
		.srq_handle = r->srq,
		.max_send_wr = r->cap.max_send_wr,
		.max_recv_wr = r->cap.max_recv_wr,
		.max_send_sge = r->cap.max_send_sge,
		.max_recv_sge = r->cap.max_recv_sge,
		.max_inline_data = r->cap.max_inline_data,
		.qp_type = r->type,
		.is_srq = r->srq != ~0u,
	};
	struct v_udata u;
	int ret;

	v_qp_udata(&u, r->cap.max_recv_wr, r->srq == ~0u);
	ret = v_write_udata(fd, IB_USER_VERBS_CMD_CREATE_QP, &c, sizeof(c), &resp,
			  sizeof(resp), &u);
	if (handle)
		*handle = resp.qp_handle;
	if (qpn)
		*qpn = resp.qpn;
	return ret;
}

int v_create_qp_ioctl(int fd, const struct v_qp_req *r, uint64_t flags,
		      uint32_t *handle, uint32_t *qpn)
{
	struct ib_uverbs_qp_cap cap = r->cap, out = {};
	struct raw_ioctl c;
	struct v_udata u;
	uint32_t num = 0;
	int ret;

	v_qp_udata(&u, r->cap.max_recv_wr, r->srq == ~0u);
	raw_init(&c, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE);
	raw_attr(&c, UVERBS_ATTR_CREATE_QP_HANDLE, 0, 0);
	raw_attr(&c, UVERBS_ATTR_CREATE_QP_PD_HANDLE, 0, r->pd);
	raw_attr(&c, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE, 0, r->send_cq);
	raw_attr(&c, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE, 0, r->recv_cq);
	if (r->srq != ~0u)
		raw_attr(&c, UVERBS_ATTR_CREATE_QP_SRQ_HANDLE, 0, r->srq);
	raw_attr(&c, UVERBS_ATTR_CREATE_QP_USER_HANDLE, 8, 0x5678);
	raw_ptr(&c, UVERBS_ATTR_CREATE_QP_CAP, &cap);
	raw_attr(&c, UVERBS_ATTR_CREATE_QP_TYPE, 8, r->type);
	if (flags)
		raw_attr(&c, UVERBS_ATTR_CREATE_QP_FLAGS, 4, flags);
	if (r->event_fd >= 0)
		raw_attr(&c, UVERBS_ATTR_CREATE_QP_EVENT_FD, 0,
			 (uint64_t)r->event_fd);
	raw_ptr(&c, UVERBS_ATTR_CREATE_QP_RESP_CAP, &out);
	raw_ptr(&c, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, &num);
	v_add_uhw(&c, &u);
	ret = raw_call_new(fd, &c, handle);
	if (qpn)
		*qpn = num;
	return ret;
}

/* Valid values for every attribute; the mask picks what is sent. */
void v_modify_base(struct ib_uverbs_modify_qp *m, uint32_t qp, uint8_t state,
		   uint32_t mask)
{
	raw_modify_qp_init(m, qp, state, mask);
	m->dest.dlid = 1;
	m->dest.is_global = (uint8_t)v_rxe; /* RoCE needs a GRH */
	m->dest.hop_limit = 1;
	m->alt_port_num = 1;
	m->alt_dest.port_num = 1;
	m->alt_dest.dlid = 1;
	m->dest_qp_num = 0x123;
	m->en_sqd_async_notify = 1;
}

int v_query_state(int fd, uint32_t qp, uint8_t *state)
{
	struct ib_uverbs_query_qp_resp r = {};
	struct ib_uverbs_query_qp c = {.response = (uintptr_t)&r,
				       .qp_handle = qp};
	int ret = raw_write(fd, IB_USER_VERBS_CMD_QUERY_QP, &c, sizeof(c),
			    sizeof(r));

	*state = r.qp_state;
	return ret;
}

int v_create_srq(int fd, uint32_t pd, uint32_t max_wr, uint32_t max_sge,
		 uint32_t *handle)
{
	struct ib_uverbs_create_srq_resp r = {};
	struct ib_uverbs_create_srq c = {
		.pd_handle = pd,
		.max_wr = max_wr,
		.max_sge = max_sge,
	};
	struct v_udata u;
	int ret;

	v_srq_udata(&u, max_wr, max_sge);
	ret = v_write_udata(fd, IB_USER_VERBS_CMD_CREATE_SRQ, &c, sizeof(c), &r,
			  sizeof(r), &u);
	*handle = r.srq_handle;
	return ret;
}

uint32_t v_count_handles(int fd, uint16_t obj)
{
	struct raw_ioctl c;
	uint32_t total = ~0u;

	raw_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES);
	raw_attr(&c, UVERBS_ATTR_INFO_OBJECT_ID, 8, obj);
	raw_ptr(&c, UVERBS_ATTR_INFO_TOTAL_HANDLES, &total);
	return raw_call(fd, &c) ? ~0u : total;
}
