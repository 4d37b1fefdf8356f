// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * sim_verbs --fork-destroy: a fork child destroys its copies of the
 * parent's CQ, SRQ, QP and MR. Each destroy succeeds for the child's
 * program; the child's HCA made none of them (the engine's fork handler
 * emptied its tables), so it is not asked to free anything of the
 * parent's: tests/sim/fork_tables.sh reads the trace (the child's
 * DESTROY_* commands find nothing, the parent's afterwards find all).
 */
#include "verbs.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

struct fork_objs {
	uint32_t pd, cq, srq, qp, mr;
};

static int destroy_all(int fd, const struct fork_objs *o, const char *who)
{
	int fails = raw_failures;

	EXPECT_ERR(raw_destroy_qp(fd, o->qp, NULL), 0);
	EXPECT_ERR(raw_destroy_srq(fd, o->srq), 0);
	EXPECT_ERR(raw_destroy(fd, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY,
			       o->mr),
		   0);
	EXPECT_ERR(raw_destroy_cq(fd, o->cq, NULL), 0);
	EXPECT_ERR(raw_destroy_pd(fd, o->pd), 0);
	if (raw_failures != fails)
		fprintf(stderr, "sim_verbs --fork-destroy: %s failed\n", who);
	return raw_failures != fails;
}

int v_check_fork_destroy(void)
{
	static uint8_t buf[4096] __attribute__((aligned(4096)));
	struct fork_objs o;
	struct v_qp_req r;
	int fd = v_open(), st = 0;
	pid_t pid;

	if (fd < 0 || raw_alloc_pd(fd, &o.pd) ||
	    v_create_cq(fd, 16, 0, -1, &o.cq, NULL) ||
	    v_create_srq(fd, o.pd, 16, 1, &o.srq) ||
	    raw_reg_mr(fd, o.pd, buf, sizeof(buf), &o.mr)) {
		EXPECT(0, "no context with a PD, CQ, SRQ and MR");
		return -1;
	}
	v_qp_req_init(&r, o.pd, o.cq, IB_UVERBS_QPT_RC);
	EXPECT_ERR(v_create_qp(fd, &r, &o.qp, NULL), 0);
	pid = fork();
	if (pid == 0)
		_exit(destroy_all(fd, &o, "the child"));
	EXPECT(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
		       !WEXITSTATUS(st),
	       "the child: status %#x", st);
	destroy_all(fd, &o, "the parent");
	close(fd);
	return 0;
}
