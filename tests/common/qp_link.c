// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "qp_link.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <unistd.h>

struct qp_link qp_link_default(uint32_t dest_qpn)
{
	return (struct qp_link){
		.dest_qpn = dest_qpn,
		.hop_limit = 64,
		.access = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
			  IBV_ACCESS_REMOTE_ATOMIC,
		.mtu = IBV_MTU_1024,
		.rd_atomic = 1,
		.min_rnr_timer = 12,
		.timeout = 14,
		.retry_cnt = 7,
		.rnr_retry = 7,
	};
}

struct ibv_qp *qp_link_rc_qp(struct ibv_pd *pd, struct ibv_cq *send_cq,
			     struct ibv_cq *recv_cq, uint32_t depth)
{
	struct ibv_qp_init_attr a = {
		.send_cq = send_cq,
		.recv_cq = recv_cq,
		.qp_type = IBV_QPT_RC,
		.cap = {.max_send_wr = depth,
			.max_recv_wr = depth,
			.max_send_sge = 1,
			.max_recv_sge = 1},
	};

	return ibv_create_qp(pd, &a);
}

struct ibv_context *qp_link_open(const char *name, uint16_t *lid)
{
	struct ibv_context *ctx = NULL;
	struct ibv_device **list;
	struct ibv_port_attr pa;
	int i, n;

	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n && !ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!ctx || !lid)
		return ctx;
	if (ibv_query_port(ctx, 1, &pa)) {
		ibv_close_device(ctx);
		return NULL;
	}
	*lid = pa.lid;
	return ctx;
}

/* Note the first failure of a release in *first. */
static void released(int ret, const char *verb, const char **first)
{
	if (ret && !*first)
		*first = verb;
}

const char *qp_link_close(struct ibv_qp *qp, struct ibv_mr *mr,
			  struct ibv_cq *send_cq, struct ibv_cq *recv_cq,
			  struct ibv_pd *pd, struct ibv_context *ctx)
{
	const char *first = NULL;

	if (qp)
		released(ibv_destroy_qp(qp), "ibv_destroy_qp", &first);
	if (mr)
		released(ibv_dereg_mr(mr), "ibv_dereg_mr", &first);
	if (recv_cq && recv_cq != send_cq)
		released(ibv_destroy_cq(recv_cq), "ibv_destroy_cq", &first);
	if (send_cq)
		released(ibv_destroy_cq(send_cq), "ibv_destroy_cq", &first);
	if (pd)
		released(ibv_dealloc_pd(pd), "ibv_dealloc_pd", &first);
	if (ctx)
		released(ibv_close_device(ctx), "ibv_close_device", &first);
	return first;
}

static int to_init(struct ibv_qp *qp, const struct qp_link *l)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qkey = l->qkey,
		.qp_access_flags = l->access,
	};
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;

	/* UC has neither RDMA READ nor atomics to allow. */
	if (qp->qp_type == IBV_QPT_UC)
		a.qp_access_flags &= IBV_ACCESS_REMOTE_WRITE;
	mask |= qp->qp_type == IBV_QPT_UD ? IBV_QP_QKEY : IBV_QP_ACCESS_FLAGS;
	return ibv_modify_qp(qp, &a, mask);
}

/* RC and both halves of XRC take RC's attributes (the kernel drops what
 * an XRC half has no use for). */
static int rc_like(const struct ibv_qp *qp)
{
	return qp->qp_type == IBV_QPT_RC || qp->qp_type == IBV_QPT_XRC_SEND ||
	       qp->qp_type == IBV_QPT_XRC_RECV;
}

static int to_rtr(struct ibv_qp *qp, const struct qp_link *l)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTR };
	int mask = IBV_QP_STATE;

	if (qp->qp_type == IBV_QPT_UD)
		return ibv_modify_qp(qp, &a, mask);
	a.path_mtu = l->mtu;
	a.dest_qp_num = l->dest_qpn;
	a.rq_psn = l->psn;
	a.ah_attr.dlid = l->dlid;
	a.ah_attr.port_num = 1;
	if (l->dgid) {
		a.ah_attr.is_global = 1;
		a.ah_attr.grh.dgid = *l->dgid;
		a.ah_attr.grh.sgid_index = l->sgid_index;
		a.ah_attr.grh.hop_limit = l->hop_limit;
	}
	mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
	if (rc_like(qp)) {
		a.max_dest_rd_atomic = l->rd_atomic;
		a.min_rnr_timer = l->min_rnr_timer;
		mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	}
	return ibv_modify_qp(qp, &a, mask);
}

static int to_rts(struct ibv_qp *qp, const struct qp_link *l)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTS,
		.sq_psn = l->psn,
	};
	int mask = IBV_QP_STATE | IBV_QP_SQ_PSN;

	if (rc_like(qp)) {
		a.timeout = l->timeout;
		a.retry_cnt = l->retry_cnt;
		a.rnr_retry = l->rnr_retry;
		a.max_rd_atomic = l->rd_atomic;
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_MAX_QP_RD_ATOMIC;
	}
	return ibv_modify_qp(qp, &a, mask);
}

int qp_link_up(struct ibv_qp *qp, const struct qp_link *l)
{
	static int (*const step[])(struct ibv_qp *, const struct qp_link *) = {
		to_init, to_rtr, to_rts,
	};
	unsigned int i;
	int err = 0;

	for (i = 0; !err && i < sizeof(step) / sizeof(step[0]); i++)
		err = step[i](qp, l);
	return err;
}

int qp_link_poll(struct ibv_cq *cq, struct ibv_wc *wc, int sec)
{
	time_t end = time(NULL) + sec;
	int n;

	while ((n = ibv_poll_cq(cq, 1, wc)) == 0 && time(NULL) < end)
		;
	return n;
}

int qp_link_side(struct ibv_context *ctx, int depth, uint8_t **buf,
		 struct ibv_pd **pd, struct ibv_cq **scq, struct ibv_cq **rcq,
		 struct ibv_mr **mr)
{
	*buf = aligned_alloc(4096, 4096);
	*pd = ibv_alloc_pd(ctx);
	*scq = ibv_create_cq(ctx, depth, NULL, NULL, 0);
	*rcq = ibv_create_cq(ctx, depth, NULL, NULL, 0);
	if (!*buf || !*pd || !*scq || !*rcq)
		return -1;
	*mr = ibv_reg_mr(*pd, *buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	return *mr ? 0 : -1;
}

pid_t qp_link_fork(int *fd)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	close(sv[pid ? 1 : 0]);
	*fd = sv[pid ? 0 : 1];
	return pid;
}
