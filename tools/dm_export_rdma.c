// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dm_export_rdma.h"

static int make_qp(struct ibv_context *ctx, struct ibv_pd *pd,
		   struct ibv_cq **cq, struct ibv_qp **qp)
{
	struct ibv_qp_init_attr a = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	*cq = ibv_create_cq(ctx, 8, NULL, NULL, 0);
	if (!*cq)
		return errno;
	a.send_cq = a.recv_cq = *cq;
	*qp = ibv_create_qp(pd, &a);
	return *qp ? 0 : errno;
}

/* RESET -> INIT -> RTR -> RTS towards @peer (IB, LID routed). */
static int connect_qp(struct ibv_qp *qp, struct ibv_qp *peer)
{
	struct ibv_port_attr port;
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
	};
	int err;

	err = ibv_query_port(peer->context, 1, &port);
	if (!err)
		err = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
						    IBV_QP_PORT |
						    IBV_QP_ACCESS_FLAGS);
	if (err)
		return err;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = peer->qp_num;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 1;
	a.ah_attr.dlid = port.lid;
	a.ah_attr.port_num = 1;
	err = ibv_modify_qp(qp, &a,
			    IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
				    IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				    IBV_QP_MAX_DEST_RD_ATOMIC |
				    IBV_QP_MIN_RNR_TIMER);
	if (err)
		return err;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a,
			     IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
				     IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				     IBV_QP_MAX_QP_RD_ATOMIC);
}

int rdma_link_open(struct rdma_link *l, struct ibv_context *owner,
		   struct ibv_context *importer, struct ibv_pd *importer_pd,
		   size_t size, const char **what)
{
	int err;

	memset(l, 0, sizeof(*l));
	*what = "pd";
	l->pd = ibv_alloc_pd(owner);
	if (!l->pd)
		return errno;
	*what = "mr";
	l->host = calloc(1, size);
	if (!l->host)
		return ENOMEM;
	l->host_mr = ibv_reg_mr(l->pd, l->host, size,
				IBV_ACCESS_LOCAL_WRITE);
	if (!l->host_mr)
		return errno;
	*what = "qp";
	err = make_qp(owner, l->pd, &l->cq, &l->qp);
	if (!err)
		err = make_qp(importer, importer_pd, &l->tcq, &l->tqp);
	if (err)
		return err;
	*what = "connect";
	err = connect_qp(l->qp, l->tqp);
	if (!err)
		err = connect_qp(l->tqp, l->qp);
	return err;
}

void rdma_link_close(struct rdma_link *l)
{
	if (l->tqp)
		ibv_destroy_qp(l->tqp);
	if (l->qp)
		ibv_destroy_qp(l->qp);
	if (l->tcq)
		ibv_destroy_cq(l->tcq);
	if (l->cq)
		ibv_destroy_cq(l->cq);
	if (l->host_mr)
		ibv_dereg_mr(l->host_mr);
	free(l->host);
	if (l->pd)
		ibv_dealloc_pd(l->pd);
	memset(l, 0, sizeof(*l));
}

int rdma_link_xfer(struct rdma_link *l, bool write, size_t len,
		   uint32_t rkey, uint64_t raddr)
{
	struct ibv_sge sge = { (uintptr_t)l->host, (uint32_t)len,
			       l->host_mr->lkey };
	struct ibv_send_wr wr = {
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = write ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	struct timespec t0, t;
	struct ibv_wc wc;
	int n, err;

	wr.wr.rdma.rkey = rkey;
	wr.wr.rdma.remote_addr = raddr;
	err = ibv_post_send(l->qp, &wr, &bad);
	if (err)
		return err;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		n = ibv_poll_cq(l->cq, 1, &wc);
		if (n < 0)
			return EIO;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (!n && t.tv_sec - t0.tv_sec < 10);
	if (!n)
		return ETIMEDOUT;
	return wc.status ? -1000 - (int)wc.status : 0;
}
