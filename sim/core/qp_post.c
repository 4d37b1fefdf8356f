// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * POST_SEND, POST_RECV and POST_SRQ_RECV through write(): the uverbs
 * checks of the work-request arrays (sizes, SGE counts, opcodes, UD
 * address handles), then the driver. rxe's provider rings its send
 * doorbell this way (wr_count 0); mlx5 posts in userspace only.
 */
#include "uapi.h"

#include <errno.h>
#include <string.h>

/* enum ib_uverbs_wr_opcode */
enum {
	WR_RDMA_WRITE,
	WR_RDMA_WRITE_WITH_IMM,
	WR_SEND,
	WR_SEND_WITH_IMM,
	WR_RDMA_READ,
	WR_ATOMIC_CMP_AND_SWP,
	WR_ATOMIC_FETCH_AND_ADD,
	WR_SEND_WITH_INV = 9,
};

/* The three requests share their layout (ib_uverbs_post_send). */
struct post_req {
	uint32_t handle, wr_count, sge_count, wqe_size;
	const uint8_t *wrs; /* wr_count * wqe_size bytes, then the SGEs */
};

/* The arrays must be in the request; bytes after them must be zero. */
static int parse(struct sim_wcall *w, size_t min_wqe, struct post_req *p)
{
	const struct ib_uverbs_post_send *c = w->in;
	const uint8_t *tail;
	uint64_t need;
	size_t i;

	p->handle = c->qp_handle;
	p->wr_count = c->wr_count;
	p->sge_count = c->sge_count;
	p->wqe_size = c->wqe_size;
	p->wrs = w->uhw_in;
	if (p->wqe_size < min_wqe)
		return -EINVAL;
	need = (uint64_t)p->wqe_size * p->wr_count +
	       (uint64_t)p->sge_count * sizeof(struct ib_uverbs_sge);
	if (need > w->uhw_in_len)
		return -ENOSPC;
	tail = p->wrs + need;
	for (i = 0; i < w->uhw_in_len - need; i++)
		if (tail[i])
			return -EOPNOTSUPP;
	return 0;
}

static int send_opcode_ok(const struct sim_qp *qp,
			  const struct ib_uverbs_send_wr *wr,
			  struct sim_uvfile *uv)
{
	int err;

	if (qp->qp_type == IB_QPT_UD)
		return (wr->opcode == WR_SEND ||
			wr->opcode == WR_SEND_WITH_IMM) &&
		       sim_obj_get(uv, wr->wr.ud.ah, &sim_type_ah, &err);
	switch (wr->opcode) {
	case WR_RDMA_WRITE:
	case WR_RDMA_WRITE_WITH_IMM:
	case WR_RDMA_READ:
	case WR_ATOMIC_CMP_AND_SWP:
	case WR_ATOMIC_FETCH_AND_ADD:
	case WR_SEND:
	case WR_SEND_WITH_IMM:
	case WR_SEND_WITH_INV:
		return 1;
	}
	return 0; /* LOCAL_INV, BIND_MW cannot come through the kernel */
}

/* Each WR's SGEs must fit in sge_count; send WRs need a known opcode. */
static int check_wrs(struct sim_wcall *w, const struct post_req *p,
		     const struct sim_qp *qp)
{
	uint32_t i, sg = 0, nsge;

	for (i = 0; i < p->wr_count; i++) {
		const uint8_t *wr = p->wrs + (size_t)i * p->wqe_size;
		struct ib_uverbs_send_wr s;

		memcpy(&nsge, wr + offsetof(struct ib_uverbs_recv_wr, num_sge),
		       sizeof(nsge));
		if (nsge > p->sge_count - sg)
			return -EINVAL;
		sg += nsge;
		if (!qp)
			continue;
		memcpy(&s, wr, sizeof(s));
		if (!send_opcode_ok(qp, &s, w->uv))
			return -EINVAL;
	}
	return 0;
}

/* The driver's answer, with bad_wr the 1-based failing WR. */
static int finish(struct sim_wcall *w, int ret, uint32_t bad)
{
	struct ib_uverbs_post_send_resp r = {.bad_wr = ret ? bad : 0};
	int ret2 = sim_wc_out(w, &r, sizeof(r));

	return ret ? ret : ret2;
}

static int w_post(struct sim_wcall *w, int send)
{
	const struct sim_driver_ops *d = sim_driver();
	struct post_req p;
	struct sim_qp *qp;
	uint32_t bad = 0;
	int ret;

	ret = parse(w,
		    send ? sizeof(struct ib_uverbs_send_wr)
			 : sizeof(struct ib_uverbs_recv_wr),
		    &p);
	if (ret)
		return ret;
	qp = sim_qp(sim_obj_get(w->uv, p.handle, &sim_type_qp, &ret));
	if (!qp)
		return ret;
	ret = check_wrs(w, &p, send ? qp : NULL);
	if (ret)
		return ret;
	if (!(send ? d->post_send : d->post_recv))
		return -EOPNOTSUPP;
	ret = (send ? d->post_send : d->post_recv)(w->uv, qp, p.wr_count, &bad);
	return finish(w, ret, bad);
}

int sim_w_post_send(struct sim_wcall *w)
{
	return w_post(w, 1);
}

int sim_w_post_recv(struct sim_wcall *w)
{
	return w_post(w, 0);
}

int sim_w_post_srq_recv(struct sim_wcall *w)
{
	const struct sim_driver_ops *d = sim_driver();
	struct sim_srq *srq;
	struct post_req p;
	uint32_t bad = 0;
	int ret;

	ret = parse(w, sizeof(struct ib_uverbs_recv_wr), &p);
	if (ret)
		return ret;
	srq = sim_srq(sim_obj_get(w->uv, p.handle, &sim_type_srq, &ret));
	if (!srq)
		return ret;
	ret = check_wrs(w, &p, NULL);
	if (ret)
		return ret;
	if (!d->post_srq_recv)
		return -EOPNOTSUPP;
	return finish(w, d->post_srq_recv(w->uv, srq, p.wr_count, &bad), bad);
}
