// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A forked child uses the context it inherited: it creates a CQ and an RC
 * QP, brings the QP up to RTS (looped back to itself), destroys them and
 * exits 0. (No traffic in the child: rdma-sim gives a child a copy of the
 * kernel's state, not the device.) The parent has a CQ and a QP of its own open
 * across the fork, so the pages their doorbell records sit in (which the
 * provider keeps out of children) have free slots: the child must get
 * fresh pages, not those. The parent then does the same again, and an
 * RDMA WRITE to itself through the new QP. Upstream
 * does this on the same simulator; run on Debian's libraries and on ours
 * (LD_LIBRARY_PATH).
 * Usage: debian_fork [DEVICE] (an mlx5 one; built against Debian's libibverbs)
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "judge.h"
#include "qp_link.h"

#define BUF  4096 /* one page: aligned_alloc wants a multiple */
#define HALF 512

/*
 * CQ + RC QP looped to itself and brought to RTS; with @write, one RDMA
 * WRITE of HALF bytes, read back.
 */
static void loop_qp(struct ibv_context *ctx, struct ibv_pd *pd, uint16_t lid,
		    int write, const char *who)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;
	uint8_t *buf = aligned_alloc(4096, BUF);
	struct ibv_cq *cq = ibv_create_cq(ctx, 8, NULL, NULL, 0);
	struct ibv_mr *mr = NULL;
	struct ibv_qp *qp = NULL;
	struct ibv_send_wr wr = {0}, *bad;
	struct ibv_sge sge;
	struct qp_link l;
	struct ibv_wc wc;
	int i, n = 0, ret;

	CHECK(buf && cq, "%s: create_cq: %s", who, strerror(errno));
	if (!buf || !cq)
		goto out;
	for (i = 0; i < 2 * HALF; i++)
		buf[i] = i < HALF ? (uint8_t)(i * 3 + 1) : 0;
	mr = ibv_reg_mr(pd, buf, BUF,
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	qp = qp_link_rc_qp(pd, cq, cq, 4);
	CHECK(mr && qp, "%s: reg_mr/create_qp: %s", who, strerror(errno));
	if (!mr || !qp)
		goto out;
	l = qp_link_default(qp->qp_num);
	l.dlid = lid;
	ret = qp_link_up(qp, &l);
	CHECK(!ret, "%s: QP to RTS: %s", who, strerror(ret));
	if (ret)
		goto out;
	ret = ibv_query_qp(qp, &attr, IBV_QP_STATE, &init);
	CHECK(!ret && attr.qp_state == IBV_QPS_RTS, "%s: query_qp %d state %d",
	      who, ret, (int)attr.qp_state);
	if (!write)
		goto out;
	sge = (struct ibv_sge){(uintptr_t)buf, HALF, mr->lkey};
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.wr.rdma.remote_addr = (uintptr_t)buf + HALF;
	wr.wr.rdma.rkey = mr->rkey;
	CHECK(!ibv_post_send(qp, &wr, &bad), "%s: post_send", who);
	for (i = 0; i < 10000000 && !n; i++)
		n = ibv_poll_cq(cq, 1, &wc);
	CHECK(n == 1 && wc.status == IBV_WC_SUCCESS, "%s: poll %d status %d",
	      who, n, n == 1 ? (int)wc.status : -1);
	CHECK(!memcmp(buf, buf + HALF, HALF), "%s: written bytes differ", who);
out:
	if (qp)
		CHECK(!ibv_destroy_qp(qp), "%s: destroy_qp", who);
	if (mr)
		CHECK(!ibv_dereg_mr(mr), "%s: dereg_mr", who);
	if (cq)
		CHECK(!ibv_destroy_cq(cq), "%s: destroy_cq", who);
	free(buf);
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "mlx5_0";
	struct ibv_context *ctx;
	struct ibv_pd *pd = NULL;
	struct ibv_cq *cq = NULL;
	struct ibv_qp *qp = NULL;
	uint16_t lid = 0;
	int status;
	pid_t pid;

	ctx = qp_link_open(name, &lid);
	CHECK(ctx, "open %s", name);
	if (!ctx)
		return 1;
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 8, NULL, NULL, 0);
	qp = pd && cq ? qp_link_rc_qp(pd, cq, cq, 4) : NULL;
	CHECK(qp, "parent: pd/cq/qp: %s", strerror(errno));
	if (!qp)
		return 1;

	pid = fork();
	if (pid == 0) {
		loop_qp(ctx, pd, lid, 0, "child");
		_exit(failures ? 1 : 0);
	}
	CHECK(pid > 0, "fork: %s", strerror(errno));
	if (pid > 0) {
		CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
		CHECK(WIFEXITED(status) && !WEXITSTATUS(status), "child: %s %d",
		      WIFSIGNALED(status) ? "killed by signal" : "exit",
		      WIFSIGNALED(status) ? WTERMSIG(status)
					  : WEXITSTATUS(status));
	}
	loop_qp(ctx, pd, lid, 1, "parent after the fork");
	CHECK(!ibv_destroy_qp(qp), "destroy_qp");
	CHECK(!ibv_destroy_cq(cq), "destroy_cq");
	CHECK(!ibv_dealloc_pd(pd), "dealloc_pd");
	CHECK(!ibv_close_device(ctx), "close_device");
	fprintf(stderr, "debian_fork %s: %d failure(s)\n", name, failures);
	return failures ? 1 : 0;
}
