// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Holds a known set of verbs objects for `rdma resource` to list
 * (rdma_tool.py): a PD, an 8 KiB MR, a type 1 MW (never listed, one of
 * its PD's users), a CQ of 100 entries, an SRQ, two RC QPs connected to
 * each other in RTS (SQ PSN 0x123, RQ PSN 0x456) and a UD QP on the SRQ
 * in INIT, made last. Prints one line
 *   ready <rc_a> <rc_b> <ud> <lkey> <rkey>
 * then holds everything until stdin reaches EOF, and frees it all.
 *   res_holder DEVICE
 */
#include <infiniband/verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what)
{
	fprintf(stderr, "res_holder: %s failed\n", what);
	exit(1);
}

static struct ibv_qp *make_qp(struct ibv_pd *pd, struct ibv_cq *cq,
			      struct ibv_srq *srq, enum ibv_qp_type type)
{
	struct ibv_qp_init_attr a = {
		.send_cq = cq,
		.recv_cq = cq,
		.srq = srq,
		.qp_type = type,
		.cap = {.max_send_wr = 4,
			.max_recv_wr = srq ? 0 : 4,
			.max_send_sge = 1,
			.max_recv_sge = 1},
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &a);

	if (!qp)
		die("ibv_create_qp");
	return qp;
}

static void to_init(struct ibv_qp *qp, int ud)
{
	struct ibv_qp_attr a = {.qp_state = IBV_QPS_INIT, .port_num = 1};
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;

	if (ud) {
		a.qkey = 0x11111111;
		mask |= IBV_QP_QKEY;
	} else {
		mask |= IBV_QP_ACCESS_FLAGS;
	}
	if (ibv_modify_qp(qp, &a, mask))
		die("modify to INIT");
}

/* RTR then RTS toward peer on this port: by LID, on Ethernet by GID 0. */
static void connect_rc(struct ibv_qp *qp, uint32_t peer,
		       const struct ibv_port_attr *port)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = IBV_MTU_1024,
		.dest_qp_num = peer,
		.rq_psn = 0x456,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 12,
		.ah_attr = {.dlid = port->lid, .port_num = 1},
	};

	if (port->link_layer == IBV_LINK_LAYER_ETHERNET) {
		a.ah_attr.is_global = 1;
		a.ah_attr.grh.hop_limit = 1;
		if (ibv_query_gid(qp->context, 1, 0, &a.ah_attr.grh.dgid))
			die("ibv_query_gid");
	}

	if (ibv_modify_qp(qp, &a,
			  IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
				  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				  IBV_QP_MAX_DEST_RD_ATOMIC |
				  IBV_QP_MIN_RNR_TIMER))
		die("modify to RTR");
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0x123;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	if (ibv_modify_qp(qp, &a,
			  IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
				  IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				  IBV_QP_MAX_QP_RD_ATOMIC))
		die("modify to RTS");
}

static struct ibv_context *open_dev(const char *name)
{
	struct ibv_device **l = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;
	int i;

	for (i = 0; l && l[i] && !ctx; i++)
		if (!strcmp(ibv_get_device_name(l[i]), name))
			ctx = ibv_open_device(l[i]);
	ibv_free_device_list(l);
	if (!ctx)
		die("ibv_open_device");
	return ctx;
}

int main(int argc, char **argv)
{
	struct ibv_srq_init_attr sa = {.attr = {.max_wr = 16, .max_sge = 1}};
	struct ibv_port_attr port;
	struct ibv_context *ctx;
	struct ibv_qp *a, *b, *ud, *spare;
	struct ibv_srq *srq;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_mw *mw;
	struct ibv_cq *cq;
	static char buf[8192];

	if (argc != 2)
		die("usage: res_holder DEVICE");
	ctx = open_dev(argv[1]);
	if (ibv_query_port(ctx, 1, &port))
		die("ibv_query_port");
	pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	mr = ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	mw = ibv_alloc_mw(pd, IBV_MW_TYPE_1);
	cq = ibv_create_cq(ctx, 100, NULL, NULL, 0);
	srq = ibv_create_srq(pd, &sa);
	if (!mr || !mw || !cq || !srq)
		die("MR, MW, CQ or SRQ");
	/* The UD QP is made after a QP made before the RC ones is gone: the
	 * sim keeps it in that one's row, ahead of theirs, while its number
	 * is the highest (a dump lists by number, not by row). */
	spare = make_qp(pd, cq, NULL, IBV_QPT_RC);
	a = make_qp(pd, cq, NULL, IBV_QPT_RC);
	b = make_qp(pd, cq, NULL, IBV_QPT_RC);
	if (ibv_destroy_qp(spare))
		die("ibv_destroy_qp");
	ud = make_qp(pd, cq, srq, IBV_QPT_UD);
	to_init(a, 0);
	to_init(b, 0);
	to_init(ud, 1);
	connect_rc(a, b->qp_num, &port);
	connect_rc(b, a->qp_num, &port);
	printf("ready %u %u %u %u %u\n", a->qp_num, b->qp_num, ud->qp_num,
	       mr->lkey, mr->rkey);
	fflush(stdout);
	while (getchar() != EOF)
		;
	if (ibv_destroy_qp(ud) || ibv_destroy_qp(b) || ibv_destroy_qp(a) ||
	    ibv_destroy_srq(srq) || ibv_destroy_cq(cq) || ibv_dealloc_mw(mw) ||
	    ibv_dereg_mr(mr) || ibv_dealloc_pd(pd) || ibv_close_device(ctx))
		die("teardown");
	return 0;
}
