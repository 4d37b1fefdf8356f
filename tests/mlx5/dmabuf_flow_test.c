// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * perftest's --use_ib_dm_dmabuf flow, server and client in two processes
 * under rdma-sim. The server opens a second context for the DM,
 * allocates 2 x the message size, exports it, registers it on the main
 * context's PD with ibv_reg_mr_ex (FD | IOVA | FD_OFFSET, iova 0; falling
 * back to ibv_reg_dmabuf_mr on EOPNOTSUPP) and closes the fd at once. The
 * client RDMA WRITEs into it with ibv_wr_* (every 100th WR signaled,
 * ibv_poll_cq in batches) at addresses relative to iova 0. The server then
 * checks the DM bytes with ibv_memcpy_from_dm and tears down in perftest's
 * order.
 *
 * usage: dmabuf_flow_test NDEV (runs both sides: re-executes itself)
 *        dmabuf_flow_test server|client NDEV FD
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "check_exit.h"
#include "qp_link.h"

#define MSG 4096
#define ITERS 1000
#define DEPTH 128

struct wire {
	uint32_t qpn;
	uint32_t rkey;
	uint16_t lid;
};


static void pattern(uint8_t *p, int half)
{
	int i;

	for (i = 0; i < MSG; i++)
		p[i] = (uint8_t)(i * 3 + half * 101 + 7);
}

static struct ibv_cq *make_cq(struct ibv_context *ctx)
{
	struct ibv_cq_init_attr_ex a = { .cqe = DEPTH,
					 .wc_flags = IBV_WC_STANDARD_FLAGS };
	struct ibv_cq_ex *cqx = ibv_create_cq_ex(ctx, &a);

	if (cqx)
		return ibv_cq_ex_to_cq(cqx);
	return ibv_create_cq(ctx, DEPTH, NULL, NULL, 0);
}

static struct ibv_qp *make_qp(struct ibv_context *ctx, struct ibv_pd *pd,
			      struct ibv_cq *cq)
{
	struct ibv_qp_init_attr_ex a = {
		.send_cq = cq,
		.recv_cq = cq,
		.cap = { .max_send_wr = DEPTH, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = pd,
		.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE,
	};

	return ibv_create_qp_ex(ctx, &a);
}

/* perftest's RC set-up: remote write only, LID routed (no GRH). */
static void connect_qp(struct ibv_qp *qp, const struct wire *peer)
{
	struct qp_link l = qp_link_default(peer->qpn);
	int err;

	l.dlid = peer->lid;
	l.access = IBV_ACCESS_REMOTE_WRITE;
	err = qp_link_up(qp, &l);
	CHECK(!err, "RESET -> RTS: %s", strerror(err));
}

static void me(struct ibv_context *ctx, struct ibv_qp *qp, struct wire *w)
{
	struct ibv_port_attr port;

	CHECK(!ibv_query_port(ctx, 1, &port), "query_port");
	CHECK(port.link_layer == IBV_LINK_LAYER_INFINIBAND, "IB link layer");
	w->lid = port.lid;
	w->qpn = qp->qp_num;
}

static void xchg(int sock, struct wire *mine, struct wire *theirs)
{
	CHECK(write(sock, mine, sizeof(*mine)) == sizeof(*mine), "send");
	CHECK(read(sock, theirs, sizeof(*theirs)) == sizeof(*theirs), "recv");
}

static int server(struct ibv_device **devs, int ndev, int sock)
{
	struct ibv_context *ctx, *dm_ctx;
	struct ibv_device_attr_ex dattr = {};
	struct ibv_alloc_dm_attr da = { .length = 2 * MSG };
	struct ibv_mr_init_attr ma = {
		.length = 2 * MSG,
		.access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			  IBV_ACCESS_RELAXED_ORDERING,
		.comp_mask = IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_IOVA |
			     IBV_REG_MR_MASK_FD_OFFSET,
		.iova = 0,
		.fd_offset = 0,
	};
	uint8_t got[2 * MSG], want[2 * MSG];
	struct wire mine, theirs;
	struct ibv_pd *pd;
	struct ibv_dm *dm;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	char done;
	int fd;

	ctx = ibv_open_device(devs[0]);
	CHECK(ctx, "open main");
	pd = ibv_alloc_pd(ctx);
	CHECK(pd, "pd");
	dm_ctx = ibv_open_device(devs[ndev - 1]);
	CHECK(dm_ctx, "open the DM device");
	CHECK(!ibv_query_device_ex(dm_ctx, NULL, &dattr), "query_device_ex");
	CHECK(dattr.max_dm_size >= 2 * MSG, "max_dm_size %llu",
	      (unsigned long long)dattr.max_dm_size);
	dm = ibv_alloc_dm(dm_ctx, &da);
	CHECK(dm, "alloc_dm");
	fd = ibv_dm_export_dmabuf_fd(dm);
	CHECK(fd >= 0, "export");
	ma.fd = fd;
	mr = ibv_reg_mr_ex(pd, &ma);
	if (!mr && errno == EOPNOTSUPP)
		mr = ibv_reg_dmabuf_mr(pd, 0, 2 * MSG, 0, fd, ma.access);
	CHECK(mr, "register the dma-buf");
	CHECK(!close(fd), "close fd");
	cq = make_cq(ctx);
	CHECK(cq, "cq");
	qp = make_qp(ctx, pd, cq);
	CHECK(qp, "qp");
	me(ctx, qp, &mine);
	mine.rkey = mr->rkey;
	xchg(sock, &mine, &theirs);
	connect_qp(qp, &theirs);
	CHECK(write(sock, "r", 1) == 1, "ready");
	CHECK(read(sock, &done, 1) == 1 && done == 'd', "client done");

	pattern(want, 0);
	pattern(want + MSG, 1);
	CHECK(!ibv_memcpy_from_dm(got, dm, 0, sizeof(got)), "from_dm");
	CHECK(!memcmp(got, want, sizeof(got)), "DM bytes differ");

	CHECK(!ibv_destroy_qp(qp), "destroy qp");
	CHECK(!ibv_destroy_cq(cq), "destroy cq");
	CHECK(!ibv_dereg_mr(mr), "dereg");
	CHECK(!ibv_free_dm(dm), "free_dm");
	CHECK(!ibv_dealloc_pd(pd), "dealloc");
	CHECK(!ibv_close_device(dm_ctx), "close dm ctx");
	CHECK(!ibv_close_device(ctx), "close");
	printf("server: %d bytes checked in the DM\n", 2 * MSG);
	return 0;
}

static int client(struct ibv_device **devs, int ndev, int sock)
{
	struct ibv_context *ctx = ibv_open_device(devs[ndev - 1]);
	static uint8_t buf[2 * MSG];
	struct wire mine, theirs;
	int posted = 0, done = 0, n, i;
	struct ibv_qp_ex *qpx;
	struct ibv_wc wc[16];
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	char ready;

	CHECK(ctx, "open");
	pd = ibv_alloc_pd(ctx);
	pattern(buf, 0);
	pattern(buf + MSG, 1);
	mr = ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	CHECK(mr, "mr");
	cq = make_cq(ctx);
	CHECK(cq, "cq");
	qp = make_qp(ctx, pd, cq);
	CHECK(qp, "qp");
	qpx = ibv_qp_to_qp_ex(qp); /* no NULL check, as perftest */
	me(ctx, qp, &mine);
	mine.rkey = 0;
	xchg(sock, &mine, &theirs);
	connect_qp(qp, &theirs);
	CHECK(read(sock, &ready, 1) == 1, "server ready");

	/* Every 100th WR signaled, at most DEPTH outstanding. */
	while (done < ITERS) {
		while (posted < ITERS && posted - done < DEPTH) {
			i = posted % 2;
			ibv_wr_start(qpx);
			qpx->wr_id = (uint64_t)posted;
			qpx->wr_flags = posted % 100 == 99 ? IBV_SEND_SIGNALED
							   : 0;
			ibv_wr_rdma_write(qpx, theirs.rkey, (uint64_t)i * MSG);
			ibv_wr_set_sge(qpx, mr->lkey,
				       (uintptr_t)buf + (size_t)i * MSG, MSG);
			CHECK(!ibv_wr_complete(qpx), "wr_complete %d", posted);
			posted++;
		}
		n = ibv_poll_cq(cq, 16, wc);
		CHECK(n >= 0, "poll");
		for (i = 0; i < n; i++) {
			CHECK(wc[i].status == IBV_WC_SUCCESS, "wc %s",
			      ibv_wc_status_str(wc[i].status));
			done = (int)wc[i].wr_id + 1;
		}
	}
	CHECK(write(sock, "d", 1) == 1, "done");
	CHECK(!ibv_destroy_qp(qp), "destroy qp");
	CHECK(!ibv_destroy_cq(cq), "destroy cq");
	CHECK(!ibv_dereg_mr(mr), "dereg");
	CHECK(!ibv_dealloc_pd(pd), "dealloc");
	CHECK(!ibv_close_device(ctx), "close");
	printf("client: %d RDMA WRITEs of %d bytes\n", ITERS, MSG);
	return 0;
}

static int run_side(const char *self, const char *side, const char *ndev,
		    int fd)
{
	char fds[16];
	pid_t pid;

	snprintf(fds, sizeof(fds), "%d", fd);
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (!pid) {
		execl(self, self, side, ndev, fds, (char *)NULL);
		_exit(127);
	}
	return pid;
}

int main(int argc, char **argv)
{
	struct ibv_device **devs;
	int sv[2], n, st, rc = 0;
	pid_t ps, pc;

	if (argc == 2) {
		CHECK(!socketpair(AF_UNIX, SOCK_STREAM, 0, sv), "socketpair");
		ps = run_side("/proc/self/exe", "server", argv[1], sv[0]);
		pc = run_side("/proc/self/exe", "client", argv[1], sv[1]);
		close(sv[0]);
		close(sv[1]);
		CHECK(waitpid(ps, &st, 0) == ps, "wait");
		rc |= !WIFEXITED(st) || WEXITSTATUS(st);
		CHECK(waitpid(pc, &st, 0) == pc, "wait");
		rc |= !WIFEXITED(st) || WEXITSTATUS(st);
		printf("%s\n", rc ? "FAILED" : "passed");
		return rc;
	}
	CHECK(argc == 4, "usage: %s NDEV | server|client NDEV FD", argv[0]);
	devs = ibv_get_device_list(&n);
	CHECK(devs && n >= atoi(argv[2]), "devices");
	if (!strcmp(argv[1], "server"))
		rc = server(devs, atoi(argv[2]), atoi(argv[3]));
	else
		rc = client(devs, atoi(argv[2]), atoi(argv[3]));
	ibv_free_device_list(devs);
	return rc;
}
