// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What scatter to CQE a QP gets, as libmlx5 asks for it and mlx5_ib
 * decides it: QPs of each kind on mlx5_0, each printed with the QPC
 * cs_res / cs_req the kernel gives it (qp.c: responder for RC and UC, 64
 * bytes with a 128-byte receive CQE, else 32; requester for RC only when
 * every WR is signalled or mlx5dv allowed it; UD neither; the mlx5dv
 * DISABLE flag neither; MLX5_SCATTER_TO_CQE=0 neither unless mlx5dv
 * allowed it). tests/sim/scat_qpc.sh compares them with what the firmware
 * command carried (--trace).
 * Usage: debian_scat_qpc (built against Debian's libibverbs and libmlx5)
 */
#include <errno.h>
#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "judge_end.h"

static const struct kind {
	const char *name;
	enum ibv_qp_type type;
	int sig_all, scq128, rcq128;
	uint32_t dv;	  /* mlx5dv create flags (mlx5dv_create_qp) */
	uint8_t res, req; /* what the kernel sets, scatter on */
} kinds[] = {
	{"rc", IBV_QPT_RC, 1, 0, 0, 0, 0x1, 0x11},
	{"rc-unsignalled", IBV_QPT_RC, 0, 0, 0, 0, 0x1, 0},
	{"rc-128", IBV_QPT_RC, 1, 1, 1, 0, 0x2, 0x22},
	{"rc-128-recv", IBV_QPT_RC, 1, 0, 1, 0, 0x2, 0x11},
	{"rc-128-send", IBV_QPT_RC, 0, 1, 0, 0, 0x1, 0},
	{"uc", IBV_QPT_UC, 1, 1, 0, 0, 0x1, 0},
	{"ud", IBV_QPT_UD, 1, 1, 1, 0, 0, 0},
	{"rc-allow", IBV_QPT_RC, 0, 0, 0, MLX5DV_QP_CREATE_ALLOW_SCATTER_TO_CQE,
	 0x1, 0x11},
	{"rc-disable", IBV_QPT_RC, 1, 1, 1,
	 MLX5DV_QP_CREATE_DISABLE_SCATTER_TO_CQE, 0, 0},
};

static struct ibv_cq *make_cq(struct ibv_context *ctx, int big)
{
	struct mlx5dv_cq_init_attr dva = {
		.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE,
		.cqe_size = big ? 128 : 64,
	};
	struct ibv_cq_init_attr_ex cqa = {.cqe = 8};
	struct ibv_cq_ex *cq = mlx5dv_create_cq(ctx, &cqa, &dva);

	return cq ? ibv_cq_ex_to_cq(cq) : NULL;
}

int main(void)
{
	const char *env = getenv("MLX5_SCATTER_TO_CQE");
	int off = env && !strcmp(env, "0");
	struct ibv_qp *qp[sizeof(kinds) / sizeof(kinds[0])] = {0};
	struct ibv_cq *cq[2] = {0};
	struct rc_end e;
	unsigned int i;

	if (judge_end_open(&e, 4096, 0, IBV_ACCESS_LOCAL_WRITE)) {
		fprintf(stderr, "FAIL: no mlx5_0\n");
		return 1;
	}
	cq[0] = make_cq(e.ctx, 0);
	cq[1] = make_cq(e.ctx, 1);
	CHECK(cq[0] && cq[1], "mlx5dv_create_cq: %s", strerror(errno));
	for (i = 0; cq[0] && cq[1] && i < sizeof(kinds) / sizeof(kinds[0]);
	     i++) {
		const struct kind *k = &kinds[i];
		struct ibv_qp_init_attr_ex qa = {
			.qp_type = k->type,
			.sq_sig_all = k->sig_all,
			.send_cq = cq[k->scq128],
			.recv_cq = cq[k->rcq128],
			.cap = {.max_send_wr = 4,
				.max_recv_wr = 4,
				.max_send_sge = 1,
				.max_recv_sge = 1},
			.comp_mask = IBV_QP_INIT_ATTR_PD,
			.pd = e.pd,
		};
		struct mlx5dv_qp_init_attr dv = {
			.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS,
			.create_flags = k->dv,
		};
		int on =
			!off || (k->dv & MLX5DV_QP_CREATE_ALLOW_SCATTER_TO_CQE);

		qp[i] = k->dv ? mlx5dv_create_qp(e.ctx, &qa, &dv)
			      : ibv_create_qp_ex(e.ctx, &qa);
		CHECK(qp[i], "%s: create: %s", k->name, strerror(errno));
		if (qp[i])
			printf("want qp %#x cs_res %#x cs_req %#x (%s)\n",
			       qp[i]->qp_num, on ? k->res : 0, on ? k->req : 0,
			       k->name);
	}
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (qp[i])
			CHECK(!ibv_destroy_qp(qp[i]), "destroy_qp");
	for (i = 0; i < 2; i++)
		if (cq[i])
			CHECK(!ibv_destroy_cq(cq[i]), "destroy_cq");
	CHECK(!judge_end_close(&e), "a destroy verb failed");
	return failures ? 1 : 0;
}
