// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qp_link.h"
#include "rdma_util.h"

static const uint64_t ops_of[] = {
	[IBV_QPT_RC] = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |
		       IBV_QP_EX_WITH_RDMA_WRITE |
		       IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
		       IBV_QP_EX_WITH_RDMA_READ |
		       IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
		       IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD,
	[IBV_QPT_UC] = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |
		       IBV_QP_EX_WITH_RDMA_WRITE |
		       IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM,
	[IBV_QPT_UD] = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM,
};

static int make_cq(struct rdma_ep *ep, const struct ep_opts *o, int cqe)
{
	struct ibv_cq_init_attr_ex ca = {
		.cqe = (uint32_t)cqe,
		.channel = ep->channel,
		.wc_flags = IBV_WC_STANDARD_FLAGS | o->wc_flags,
	};

	if (o->cq_on_pd) {
		ca.comp_mask = IBV_CQ_INIT_ATTR_MASK_PD;
		ca.parent_domain = ep->pd;
	}
	if (o->cq_ex || o->create_cq_ex || o->cq_on_pd) {
		ep->cq_ex = o->create_cq_ex ? o->create_cq_ex(ep->ctx, &ca)
					    : ibv_create_cq_ex(ep->ctx, &ca);
		ep->cq = ep->cq_ex ? ibv_cq_ex_to_cq(ep->cq_ex) : NULL;
	} else {
		ep->cq = ibv_create_cq(ep->ctx, cqe, NULL, ep->channel, 0);
	}
	return ep->cq ? 0 : errno;
}

int ep_open(struct rdma_ep *ep, struct ibv_context *ctx, struct ibv_pd *pd,
	    const struct ep_opts *o)
{
	uint32_t depth = o->depth ? o->depth : 16;
	struct ibv_qp_init_attr_ex qa = {
		.qp_type = o->type,
		.sq_sig_all = o->sig_all,
		.srq = o->srq,
		.cap = { .max_send_wr = depth, .max_recv_wr = depth,
			 .max_send_sge = 2, .max_recv_sge = 2,
			 .max_inline_data = o->max_inline },
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = pd,
	};
	struct ibv_port_attr port;
	int err;

	memset(ep, 0, sizeof(*ep));
	ep->ctx = ctx;
	ep->pd = pd;
	ep->type = o->type;
	if (o->channel) {
		ep->channel = ibv_create_comp_channel(ctx);
		if (!ep->channel)
			return errno;
	}
	err = make_cq(ep, o, (int)depth * 2);
	if (err)
		goto fail;
	qa.send_cq = qa.recv_cq = ep->cq;
	if (o->qp_ex) {
		qa.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		qa.send_ops_flags = ops_of[o->type];
	}
	ep->qp = o->create_qp_ex ? o->create_qp_ex(ctx, &qa)
				 : ibv_create_qp_ex(ctx, &qa);
	if (!ep->qp) {
		err = errno;
		goto fail;
	}
	if (o->qp_ex)
		ep->qpx = ibv_qp_to_qp_ex(ep->qp);
	ep->qpn = ep->qp->qp_num;
	err = ibv_query_port(ctx, 1, &port);
	if (err)
		goto fail;
	ep->lid = port.lid;
	return 0;
fail:
	ep_close(ep);
	return err;
}

int ep_connect(struct rdma_ep *ep, uint16_t lid, uint32_t qpn)
{
	struct qp_link l = qp_link_default(qpn);

	l.dlid = lid;
	l.psn = EP_PSN;
	l.qkey = EP_QKEY;
	l.rd_atomic = 4;
	l.min_rnr_timer = 1;
	/*
	 * ~1 s per try: under valgrind the in-process engine runs tens of
	 * times slower, and 67 ms (14) ran out of retries. No test here
	 * measures the timeout itself.
	 */
	l.timeout = 18;
	return qp_link_up(ep->qp, &l);
}

void ep_close(struct rdma_ep *ep)
{
	if (ep->qp)
		ibv_destroy_qp(ep->qp);
	if (ep->cq)
		ibv_destroy_cq(ep->cq);
	if (ep->channel)
		ibv_destroy_comp_channel(ep->channel);
	ep->qp = NULL;
	ep->cq = NULL;
	ep->channel = NULL;
}

int ep_pair(struct rdma_ep *a, struct ibv_pd *pa, const struct ep_opts *oa,
	    struct rdma_ep *b, struct ibv_pd *pb, const struct ep_opts *ob)
{
	int err = ep_open(a, pa->context, pa, oa);

	if (err)
		return err;
	err = ep_open(b, pb->context, pb, ob);
	if (!err)
		err = ep_connect(a, b->lid, b->qpn);
	if (!err)
		err = ep_connect(b, a->lid, a->qpn);
	return err;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int ep_poll(struct rdma_ep *ep, struct ibv_wc *wc, int n)
{
	double end = now() + 10;
	int got = 0, r;

	while (got < n && now() < end) {
		r = ibv_poll_cq(ep->cq, n - got, wc + got);
		if (r < 0)
			return got;
		got += r;
	}
	return got;
}

bool cq_wait(struct ibv_cq *cq, struct ibv_wc *wc)
{
	double end = now() + 10;
	int r = 0;

	while (!r && now() < end)
		r = ibv_poll_cq(cq, 1, wc);
	return r == 1;
}

int ep_post(struct rdma_ep *ep, enum ibv_wr_opcode op, void *addr,
	    uint32_t len, uint32_t lkey, uint64_t raddr, uint32_t rkey,
	    unsigned int flags, uint64_t wr_id)
{
	struct ibv_sge sge = { .addr = (uintptr_t)addr, .length = len,
			       .lkey = lkey };
	struct ibv_send_wr wr = { .wr_id = wr_id, .sg_list = &sge,
				  .num_sge = 1, .opcode = op,
				  .send_flags = flags }, *bad;

	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	return ibv_post_send(ep->qp, &wr, &bad);
}

int ep_atomic(struct rdma_ep *ep, enum ibv_wr_opcode op, void *addr,
	      uint32_t lkey, uint64_t raddr, uint32_t rkey,
	      uint64_t compare_add, uint64_t swap, unsigned int flags)
{
	struct ibv_sge sge = { .addr = (uintptr_t)addr, .length = 8,
			       .lkey = lkey };
	struct ibv_send_wr wr = { .wr_id = op, .sg_list = &sge, .num_sge = 1,
				  .opcode = op, .send_flags = flags }, *bad;

	wr.wr.atomic.remote_addr = raddr;
	wr.wr.atomic.rkey = rkey;
	wr.wr.atomic.compare_add = compare_add;
	wr.wr.atomic.swap = swap;
	return ibv_post_send(ep->qp, &wr, &bad);
}

int ep_recv(struct rdma_ep *ep, void *addr, uint32_t len, uint32_t lkey,
	    uint64_t wr_id)
{
	struct ibv_sge sge = { .addr = (uintptr_t)addr, .length = len,
			       .lkey = lkey };
	struct ibv_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge,
				  .num_sge = 1 }, *bad;

	return ibv_post_recv(ep->qp, &wr, &bad);
}

void sim_warm_up(struct ibv_device *dev)
{
	struct ep_opts o = { .type = IBV_QPT_RC };
	struct ibv_context *ctx = ibv_open_device(dev);
	struct ibv_pd *pd = ctx ? ibv_alloc_pd(ctx) : NULL;
	struct rdma_ep ep;

	if (pd && !ep_open(&ep, ctx, pd, &o))
		ep_close(&ep);
	if (pd)
		ibv_dealloc_pd(pd);
	if (ctx)
		ibv_close_device(ctx);
}

int host_open(struct rdma_host *h, struct ibv_device *dev, size_t len,
	      unsigned int access)
{
	int err;

	memset(h, 0, sizeof(*h));
	h->ctx = ibv_open_device(dev);
	if (!h->ctx)
		return errno;
	h->pd = ibv_alloc_pd(h->ctx);
	h->buf = h->pd ? aligned_alloc(4096, len) : NULL;
	if (h->buf) {
		memset(h->buf, 0, len);
		h->mr = ibv_reg_mr(h->pd, h->buf, len, (int)access);
	}
	if (h->mr)
		return 0;
	err = errno ? errno : ENOMEM;
	host_close(h);
	return err;
}

static int first_err(int err, int r)
{
	return err ? err : r;
}

int host_close(struct rdma_host *h)
{
	int err = h->mr ? ibv_dereg_mr(h->mr) : 0;

	err = first_err(err, h->pd ? ibv_dealloc_pd(h->pd) : 0);
	err = first_err(err, h->ctx ? ibv_close_device(h->ctx) : 0);
	free(h->buf);
	memset(h, 0, sizeof(*h));
	return err;
}
