// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Send and receive WQEs as the HCA reads them: every segment's bytes, the
 * doorbell record, what reaches the doorbell/BlueFlame register, the
 * posting gates and errnos, ibv_post_send and ibv_wr_* building the same
 * WQE, and the ring sizes of upstream's sizing rules.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "dp_fixture.h"

static struct mlx5_wqe_ctrl_seg *wqe(struct dp_fixture *fx, unsigned int i)
{
	return (struct mlx5_wqe_ctrl_seg *)(fx->qp->sq_start + i * 64);
}

static void check_ctrl(struct mlx5_wqe_ctrl_seg *c, unsigned int idx,
		       uint8_t opcode, unsigned int ds, uint8_t fm)
{
	assert_int_equal(be32toh(c->opmod_idx_opcode), idx << 8 | opcode);
	assert_int_equal(be32toh(c->qpn_ds), 0x123 << 8 | ds);
	assert_int_equal(c->fm_ce_se, fm);
	assert_int_equal(c->signature, 0);
}

static void test_rdma_write(void **state)
{
	struct dp_fixture fx;
	struct ibv_sge sge = { .addr = 0x1000, .length = 100, .lkey = 7 };
	struct ibv_send_wr wr = { .wr_id = 42, .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;
	struct mlx5_wqe_raddr_seg *r;
	struct mlx5_wqe_data_seg *d;

	fx_init(&fx, IBV_QPT_RC, 8, 0, 0);
	fx_rts(&fx);
	wr.wr.rdma.remote_addr = 0xabcdef0123ull;
	wr.wr.rdma.rkey = 0x55;
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, &wr, &bad), 0);
	check_ctrl(wqe(&fx, 0), 0, MLX5_OPCODE_RDMA_WRITE, 3,
		   MLX5_WQE_CTRL_CQ_UPDATE);
	r = (struct mlx5_wqe_raddr_seg *)(wqe(&fx, 0) + 1);
	assert_int_equal(be64toh(r->raddr), 0xabcdef0123ull);
	assert_int_equal(be32toh(r->rkey), 0x55);
	d = (struct mlx5_wqe_data_seg *)(r + 1);
	assert_int_equal(be32toh(d->byte_count), 100);
	assert_int_equal(be32toh(d->lkey), 7);
	assert_int_equal(be64toh(d->addr), 0x1000);
	/* Doorbell record = producer in BBs, register = ctrl bytes 0..7. */
	assert_int_equal(be32toh(fx.qp_db[MLX5_SND_DBR]), 1);
	assert_memory_equal(fx.reg, wqe(&fx, 0), 8);
	assert_int_equal(fx.qp->sq.wrid[0], 42);
	assert_int_equal(fx.qp->sq.cur_post, 1);
	assert_int_equal(fx.qp->sq.head, 1);
	fx_cleanup(&fx);
}

/* Unsignaled, sq_sig_all, fence, solicited: fm_ce_se bits. */
static void test_flags(void **state)
{
	static const struct {
		unsigned int flags;
		uint8_t sig_bits;
		uint8_t want;
	} cases[] = {
		{ 0, 0, 0 },
		{ 0, MLX5_WQE_CTRL_CQ_UPDATE, MLX5_WQE_CTRL_CQ_UPDATE },
		{ IBV_SEND_FENCE, 0, MLX5_WQE_CTRL_FENCE },
		{ IBV_SEND_SOLICITED | IBV_SEND_SIGNALED, 0,
		  MLX5_WQE_CTRL_SOLICITED | MLX5_WQE_CTRL_CQ_UPDATE },
	};
	struct ibv_sge sge = { .addr = 0x1000, .length = 8, .lkey = 1 };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND }, *bad;
	struct dp_fixture fx;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fx_init(&fx, IBV_QPT_RC, 8, 0, 0);
		fx_rts(&fx);
		fx.qp->sq_signal_bits = cases[i].sig_bits;
		mlx5_qp_init_wqe_consts(fx.qp);
		wr.send_flags = cases[i].flags;
		assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, &wr, &bad),
				 0);
		check_ctrl(wqe(&fx, 0), 0, MLX5_OPCODE_SEND, 2,
			   cases[i].want);
		fx_cleanup(&fx);
	}
}

static void test_imm_and_read(void **state)
{
	struct ibv_sge sge = { .addr = 0x2000, .length = 16, .lkey = 3 };
	struct ibv_send_wr rd = { .wr_id = 2, .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_RDMA_READ };
	struct ibv_send_wr imm = { .wr_id = 1, .sg_list = &sge, .num_sge = 1,
				   .opcode = IBV_WR_SEND_WITH_IMM,
				   .imm_data = htobe32(0xdeadbeef),
				   .next = &rd }, *bad;
	struct dp_fixture fx;

	fx_init(&fx, IBV_QPT_RC, 8, 0, 0);
	fx_rts(&fx);
	rd.wr.rdma.remote_addr = 0x9000;
	rd.wr.rdma.rkey = 9;
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, &imm, &bad), 0);
	check_ctrl(wqe(&fx, 0), 0, MLX5_OPCODE_SEND_IMM, 2, 0);
	assert_int_equal(wqe(&fx, 0)->imm, htobe32(0xdeadbeef));
	check_ctrl(wqe(&fx, 1), 1, MLX5_OPCODE_RDMA_READ, 3, 0);
	/* Two WQEs: one doorbell for both, counter 2, no BlueFlame. */
	assert_int_equal(be32toh(fx.qp_db[MLX5_SND_DBR]), 2);
	assert_memory_equal(fx.reg, wqe(&fx, 1), 8);
	assert_int_equal(fx.qp->sq.wqe_head[1], 1);
	fx_cleanup(&fx);
}

static void test_atomics(void **state)
{
	struct ibv_sge sge = { .addr = 0x3000, .length = 64, .lkey = 4 };
	struct ibv_send_wr fa = { .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_ATOMIC_FETCH_AND_ADD };
	struct ibv_send_wr cs = { .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_ATOMIC_CMP_AND_SWP,
				  .next = &fa }, *bad;
	struct mlx5_wqe_atomic_seg *a;
	struct mlx5_wqe_data_seg *d;
	struct dp_fixture fx;

	fx_init(&fx, IBV_QPT_RC, 8, 0, 0);
	fx_rts(&fx);
	cs.wr.atomic.remote_addr = 0x100;
	cs.wr.atomic.rkey = 5;
	cs.wr.atomic.compare_add = 11;
	cs.wr.atomic.swap = 22;
	fa.wr.atomic.remote_addr = 0x108;
	fa.wr.atomic.rkey = 5;
	fa.wr.atomic.compare_add = 33;
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, &cs, &bad), 0);
	check_ctrl(wqe(&fx, 0), 0, MLX5_OPCODE_ATOMIC_CS, 4, 0);
	a = (struct mlx5_wqe_atomic_seg *)((uint8_t *)wqe(&fx, 0) + 32);
	assert_int_equal(be64toh(a->swap_add), 22);
	assert_int_equal(be64toh(a->compare), 11);
	d = (struct mlx5_wqe_data_seg *)(a + 1);
	assert_int_equal(be32toh(d->byte_count), 8); /* always 8 */
	check_ctrl(wqe(&fx, 1), 1, MLX5_OPCODE_ATOMIC_FA, 4, 0);
	a = (struct mlx5_wqe_atomic_seg *)((uint8_t *)wqe(&fx, 1) + 32);
	assert_int_equal(be64toh(a->swap_add), 33);
	assert_int_equal(be64toh(a->compare), 0);
	/* Without the device cap: EOPNOTSUPP, nothing posted. */
	fx.qp->atomics = false;
	fa.next = NULL;
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, &fa, &bad),
			 EOPNOTSUPP);
	assert_ptr_equal(bad, &fa);
	assert_int_equal(fx.qp->sq.cur_post, 2);
	fx_cleanup(&fx);
}

/* A single inline WQE goes whole through BlueFlame. */
static void test_inline_blueflame(void **state)
{
	char msg[40] = "inline payload in the WQE itself";
	struct ibv_sge sge = { .addr = (uintptr_t)msg, .length = 40 };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_INLINE }, *bad;
	struct mlx5_wqe_inl_data_seg *inl;
	struct dp_fixture fx;

	fx_init(&fx, IBV_QPT_RC, 8, 0, 256);
	fx_rts(&fx);
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, &wr, &bad), 0);
	/* ctrl 1 + align(40 + 4, 16) / 16 = 3 */
	check_ctrl(wqe(&fx, 0), 0, MLX5_OPCODE_SEND, 4, 0);
	inl = (struct mlx5_wqe_inl_data_seg *)(wqe(&fx, 0) + 1);
	assert_int_equal(be32toh(inl->byte_count), 40 | MLX5_INLINE_SEG);
	assert_memory_equal(inl + 1, msg, 40);
	assert_memory_equal(fx.reg, wqe(&fx, 0), 64);
	/* The next BlueFlame write uses the other half. */
	assert_int_equal(fx.bf.offset, 256);
	/* Longer than max_inline_data: ENOMEM. */
	sge.length = 61;
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, &wr, &bad),
			 ENOMEM);
	fx_cleanup(&fx);
}

static void test_ud_send(void **state)
{
	struct mlx5_ah ah = {};
	struct ibv_ah_attr attr = { .dlid = 0x21, .sl = 3, .port_num = 1 };
	struct ibv_sge sge = { .addr = 0x4000, .length = 32, .lkey = 6 };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND }, *bad;
	struct mlx5_wqe_datagram_seg *dg;
	struct dp_fixture fx;

	assert_int_equal(mlx5_fill_av(&ah.av, &attr, false), 0);
	fx_init(&fx, IBV_QPT_UD, 8, 0, 0);
	fx_rts(&fx);
	wr.wr.ud.ah = &ah.ibv_ah;
	wr.wr.ud.remote_qpn = 0x77;
	wr.wr.ud.remote_qkey = 0x11111111;
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, &wr, &bad), 0);
	check_ctrl(wqe(&fx, 0), 0, MLX5_OPCODE_SEND, 5, 0);
	dg = (struct mlx5_wqe_datagram_seg *)(wqe(&fx, 0) + 1);
	assert_int_equal(be32toh(dg->av.key.qkey.qkey), 0x11111111);
	assert_int_equal(be32toh(dg->av.dqp_dct), 0x77 | MLX5_EXTENDED_UD_AV);
	assert_int_equal(be16toh(dg->av.rlid), 0x21);
	assert_int_equal(dg->av.stat_rate_sl, 3);
	/* 1 + 3 + 1 units: two basic blocks. */
	assert_int_equal(fx.qp->sq.cur_post, 2);
	/* UD has no RDMA. */
	wr.opcode = IBV_WR_RDMA_WRITE;
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, &wr, &bad),
			 EINVAL);
	fx_cleanup(&fx);
}

static void test_gates_and_errors(void **state)
{
	struct ibv_sge sge = { .addr = 0x1000, .length = 8, .lkey = 1 };
	struct ibv_send_wr w[3], *bad = NULL;
	struct dp_fixture fx;
	int i;

	memset(w, 0, sizeof(w));
	for (i = 0; i < 3; i++) {
		w[i].sg_list = &sge;
		w[i].num_sge = 1;
		w[i].opcode = IBV_WR_SEND;
		w[i].next = i < 2 ? &w[i + 1] : NULL;
	}
	fx_init(&fx, IBV_QPT_UC, 2, 0, 0);
	/* Before RTS every send is ENOMEM and the doorbell is not rung. */
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, w, &bad),
			 ENOMEM);
	assert_ptr_equal(bad, &w[0]);
	assert_int_equal(fx.qp_db[MLX5_SND_DBR], 0);
	fx_rts(&fx);
	/* A ring of 2: the third WR overflows, the first two are posted. */
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, w, &bad),
			 ENOMEM);
	assert_ptr_equal(bad, &w[2]);
	assert_int_equal(be32toh(fx.qp_db[MLX5_SND_DBR]), 2);
	fx.qp->sq.tail = 2; /* completions retired them */
	/* UC has no READ, opcodes past TSO do not exist. */
	w[0].next = NULL;
	w[0].opcode = IBV_WR_RDMA_READ;
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, w, &bad),
			 EINVAL);
	w[0].opcode = (enum ibv_wr_opcode)12;
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, w, &bad),
			 EINVAL);
	w[0].opcode = IBV_WR_SEND;
	w[0].num_sge = 5; /* more than max_gs */
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, w, &bad),
			 ENOMEM);
	fx_cleanup(&fx);
}

/* A WQE starting in the last basic block continues at the ring start. */
static void test_wrap(void **state)
{
	struct ibv_sge sge[4] = {
		{ 0x10, 1, 1 }, { 0x20, 2, 2 }, { 0x30, 3, 3 }, { 0x40, 4, 4 },
	};
	struct ibv_send_wr wr = { .sg_list = sge, .num_sge = 4,
				  .opcode = IBV_WR_SEND }, *bad;
	struct mlx5_wqe_data_seg *d;
	struct dp_fixture fx;

	fx_init(&fx, IBV_QPT_RC, 4, 0, 0);
	fx_rts(&fx);
	fx.qp->sq.cur_post = fx.qp->sq.head = fx.qp->sq.tail = 3;
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, &wr, &bad), 0);
	check_ctrl(wqe(&fx, 3), 3, MLX5_OPCODE_SEND, 5, 0);
	d = (struct mlx5_wqe_data_seg *)(wqe(&fx, 3) + 1);
	assert_int_equal(be64toh(d[2].addr), 0x30);
	/* The fourth SGE wrapped to BB 0. */
	d = (struct mlx5_wqe_data_seg *)fx.qp->sq_start;
	assert_int_equal(be64toh(d->addr), 0x40);
	assert_int_equal(be32toh(d->byte_count), 4);
	assert_int_equal(fx.qp->sq.cur_post, 5);
	fx_cleanup(&fx);
}

static void test_post_recv(void **state)
{
	struct ibv_sge sge = { .addr = 0x5000, .length = 256, .lkey = 8 };
	struct ibv_recv_wr wr = { .wr_id = 9, .sg_list = &sge, .num_sge = 1 },
			   *bad;
	struct mlx5_wqe_data_seg *d;
	struct dp_fixture fx;

	fx_init(&fx, IBV_QPT_RC, 4, 4, 0);
	assert_int_equal(mlx5_post_recv(&fx.qp->verbs_qp.qp, &wr, &bad),
			 EINVAL); /* RESET */
	fx_rts(&fx);
	assert_int_equal(mlx5_post_recv(&fx.qp->verbs_qp.qp, &wr, &bad), 0);
	d = fx.qp->buf.addr;
	assert_int_equal(be32toh(d->byte_count), 256);
	assert_int_equal(be32toh(d->lkey), 8);
	assert_int_equal(be64toh(d->addr), 0x5000);
	assert_int_equal(be32toh(fx.qp_db[MLX5_RCV_DBR]), 1);
	assert_int_equal(fx.qp->rq.wrid[0], 9);
	/* Zero SGEs: only the terminator. */
	wr.num_sge = 0;
	assert_int_equal(mlx5_post_recv(&fx.qp->verbs_qp.qp, &wr, &bad), 0);
	assert_int_equal(be32toh(d[1].lkey), MLX5_INVALID_LKEY);
	assert_int_equal(d[1].byte_count, 0);
	fx_cleanup(&fx);
}

/* ibv_wr_* must build exactly the WQE ibv_post_send builds. */
static void test_wr_api_same_bytes(void **state)
{
	struct ibv_sge sge = { .addr = 0x1000, .length = 100, .lkey = 7 };
	struct ibv_send_wr wr = { .wr_id = 42, .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;
	struct dp_fixture a, b;
	struct ibv_qp_ex *qpx;

	fx_init(&a, IBV_QPT_RC, 8, 0, 0);
	fx_init(&b, IBV_QPT_RC, 8, 0, 0);
	fx_rts(&a);
	fx_rts(&b);
	wr.wr.rdma.remote_addr = 0x777;
	wr.wr.rdma.rkey = 0x55;
	assert_int_equal(mlx5_post_send(&a.qp->verbs_qp.qp, &wr, &bad), 0);

	mlx5_qp_set_wr_ops(b.qp);
	mlx5_qp_set_wr_complete(b.qp, true);
	qpx = &b.qp->verbs_qp.qp_ex;
	qpx->wr_start(qpx);
	qpx->wr_id = 42;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	qpx->wr_rdma_write(qpx, 0x55, 0x777);
	qpx->wr_set_sge(qpx, 7, 0x1000, 100);
	assert_int_equal(qpx->wr_complete(qpx), 0);
	assert_memory_equal(a.qp->sq_start, b.qp->sq_start, 64);
	assert_memory_equal(a.qp_db, b.qp_db, sizeof(a.qp_db));
	assert_memory_equal(a.reg, b.reg, 8);
	assert_int_equal(b.qp->sq.wrid[0], 42);

	/* An error drops the whole batch. */
	qpx->wr_start(qpx);
	qpx->wr_send(qpx);
	qpx->wr_set_sge(qpx, 1, 2, 3);
	qpx->wr_send(qpx);
	qpx->wr_set_sge_list(qpx, 5, NULL); /* > max_gs */
	assert_int_equal(qpx->wr_complete(qpx), ENOMEM);
	assert_int_equal(b.qp->sq.cur_post, 1);
	/* Before RTS: EINVAL, nothing posted. */
	mlx5_qp_set_wr_complete(b.qp, false);
	qpx->wr_start(qpx);
	qpx->wr_send(qpx);
	qpx->wr_set_sge(qpx, 1, 2, 3);
	assert_int_equal(qpx->wr_complete(qpx), EINVAL);
	assert_int_equal(b.qp->sq.cur_post, 1);
	fx_cleanup(&a);
	fx_cleanup(&b);
}

/* Builds @n WQEs with ibv_wr_* as @wr describes them (one batch). */
static int wr_batch(struct mlx5_qp *qp, const struct ibv_send_wr *wr)
{
	struct ibv_qp_ex *qpx = &qp->verbs_qp.qp_ex;
	const struct ibv_sge *sge;

	qpx->wr_start(qpx);
	for (; wr; wr = wr->next) {
		qpx->wr_id = wr->wr_id;
		qpx->wr_flags = wr->send_flags;
		switch (wr->opcode) {
		case IBV_WR_SEND:
			qpx->wr_send(qpx);
			break;
		case IBV_WR_SEND_WITH_IMM:
			qpx->wr_send_imm(qpx, wr->imm_data);
			break;
		case IBV_WR_RDMA_WRITE_WITH_IMM:
			qpx->wr_rdma_write_imm(qpx, wr->wr.rdma.rkey,
					       wr->wr.rdma.remote_addr,
					       wr->imm_data);
			break;
		case IBV_WR_RDMA_READ:
			qpx->wr_rdma_read(qpx, wr->wr.rdma.rkey,
					  wr->wr.rdma.remote_addr);
			break;
		case IBV_WR_ATOMIC_CMP_AND_SWP:
			qpx->wr_atomic_cmp_swp(qpx, wr->wr.atomic.rkey,
					       wr->wr.atomic.remote_addr,
					       wr->wr.atomic.compare_add,
					       wr->wr.atomic.swap);
			break;
		default:
			qpx->wr_atomic_fetch_add(qpx, wr->wr.atomic.rkey,
						 wr->wr.atomic.remote_addr,
						 wr->wr.atomic.compare_add);
			break;
		}
		sge = wr->sg_list;
		if (wr->send_flags & IBV_SEND_INLINE)
			qpx->wr_set_inline_data(qpx,
						(void *)(uintptr_t)sge->addr,
						sge->length);
		else if (wr->num_sge == 1)
			qpx->wr_set_sge(qpx, sge->lkey, sge->addr,
					sge->length);
		else
			qpx->wr_set_sge_list(qpx, (size_t)wr->num_sge, sge);
	}
	return qpx->wr_complete(qpx);
}

/*
 * Every RC opcode and flag through both APIs: the same ring bytes, the
 * same doorbell record and register writes; a batch rings once, a single
 * inline WQE goes through BlueFlame. Misuse of the builders is EINVAL.
 */
static void test_wr_api_every_opcode(void **state)
{
	static char msg[24] = "twenty-four inline bytes";
	struct ibv_sge two[2] = { { 0x1000, 8, 3 }, { 0x2000, 16, 4 } };
	struct ibv_sge inl = { (uintptr_t)msg, sizeof(msg), 0 };
	struct ibv_send_wr w[6] = {}, *bad;
	struct dp_fixture a, b;
	struct ibv_qp_ex *qpx;
	int i;

	w[0] = (struct ibv_send_wr){ .wr_id = 1, .sg_list = two, .num_sge = 2,
				     .opcode = IBV_WR_SEND_WITH_IMM,
				     .imm_data = htobe32(0xabcd),
				     .send_flags = IBV_SEND_SOLICITED };
	w[1] = (struct ibv_send_wr){ .wr_id = 2, .sg_list = two, .num_sge = 1,
				     .opcode = IBV_WR_RDMA_READ,
				     .send_flags = IBV_SEND_SIGNALED };
	w[1].wr.rdma.remote_addr = 0x9000;
	w[1].wr.rdma.rkey = 0x99;
	/* 16 bytes given, 8 taken: the atomic result */
	w[2] = (struct ibv_send_wr){ .wr_id = 3, .sg_list = &two[1],
				     .num_sge = 1,
				     .opcode = IBV_WR_ATOMIC_CMP_AND_SWP,
				     .send_flags = IBV_SEND_FENCE };
	w[2].wr.atomic.remote_addr = 0x100;
	w[2].wr.atomic.rkey = 5;
	w[2].wr.atomic.compare_add = 11;
	w[2].wr.atomic.swap = 22;
	w[3] = w[2];
	w[3].wr_id = 4;
	w[3].opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	w[3].send_flags = IBV_SEND_SIGNALED | IBV_SEND_FENCE;
	w[4] = (struct ibv_send_wr){ .wr_id = 5, .sg_list = &inl, .num_sge = 1,
				     .opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
				     .imm_data = htobe32(7),
				     .send_flags = IBV_SEND_INLINE };
	w[4].wr.rdma.remote_addr = 0x5000;
	w[4].wr.rdma.rkey = 0x55;
	for (i = 0; i < 4; i++)
		w[i].next = &w[i + 1];

	fx_init(&a, IBV_QPT_RC, 16, 0, 256);
	fx_init(&b, IBV_QPT_RC, 16, 0, 256);
	fx_rts(&a);
	fx_rts(&b);
	mlx5_qp_set_wr_ops(b.qp);
	mlx5_qp_set_wr_complete(b.qp, true);
	assert_int_equal(mlx5_post_send(&a.qp->verbs_qp.qp, w, &bad), 0);
	assert_int_equal(wr_batch(b.qp, w), 0);
	assert_int_equal(a.qp->sq.cur_post, 5);
	assert_int_equal(b.qp->sq.cur_post, 5);
	assert_memory_equal(a.qp->sq_start, b.qp->sq_start, 16 * 64);
	assert_memory_equal(a.qp_db, b.qp_db, sizeof(a.qp_db));
	assert_memory_equal(a.reg, b.reg, sizeof(a.reg));
	check_ctrl(wqe(&b, 3), 3, MLX5_OPCODE_ATOMIC_FA, 4,
		   MLX5_WQE_CTRL_FENCE | MLX5_WQE_CTRL_CQ_UPDATE);
	for (i = 0; i < 5; i++)
		assert_int_equal(b.qp->sq.wrid[i], i + 1);
	/* a batch rings the doorbell: 8 bytes; every ring flips the half */
	assert_memory_equal(b.reg, wqe(&b, 4), 8);
	assert_int_equal(b.bf.offset, 256);

	/* One inline WQE: whole through BlueFlame, into the second half. */
	w[4].next = NULL;
	assert_int_equal(mlx5_post_send(&a.qp->verbs_qp.qp, &w[4], &bad), 0);
	assert_int_equal(wr_batch(b.qp, &w[4]), 0);
	assert_memory_equal(a.qp->sq_start, b.qp->sq_start, 16 * 64);
	assert_memory_equal(a.reg, b.reg, sizeof(a.reg));
	assert_memory_equal(b.reg + 256, wqe(&b, 5), 64);
	assert_int_equal(b.bf.offset, 0);

	/* A builder while the last WQE still wants its data: EINVAL. */
	qpx = &b.qp->verbs_qp.qp_ex;
	qpx->wr_start(qpx);
	qpx->wr_send(qpx);
	qpx->wr_send(qpx);
	assert_int_equal(qpx->wr_complete(qpx), EINVAL);
	/* A setter without a builder: EINVAL; nothing was posted. */
	qpx->wr_start(qpx);
	qpx->wr_set_sge(qpx, 1, 2, 3);
	assert_int_equal(qpx->wr_complete(qpx), EINVAL);
	assert_int_equal(b.qp->sq.cur_post, 6);
	fx_cleanup(&a);
	fx_cleanup(&b);
}

/* UD needs address and data, in any order. */
static void test_wr_ud(void **state)
{
	struct mlx5_ah ah = {};
	struct ibv_ah_attr attr = { .dlid = 9, .port_num = 1 };
	struct mlx5_wqe_datagram_seg *dg;
	struct ibv_qp_ex *qpx;
	struct dp_fixture fx;

	mlx5_fill_av(&ah.av, &attr, false);
	fx_init(&fx, IBV_QPT_UD, 8, 0, 0);
	fx_rts(&fx);
	mlx5_qp_set_wr_ops(fx.qp);
	mlx5_qp_set_wr_complete(fx.qp, true);
	qpx = &fx.qp->verbs_qp.qp_ex;
	qpx->wr_start(qpx);
	qpx->wr_send(qpx);
	qpx->wr_set_sge(qpx, 1, 0x10, 4);
	qpx->wr_set_ud_addr(qpx, &ah.ibv_ah, 0x44, 0x1234);
	assert_int_equal(qpx->wr_complete(qpx), 0);
	check_ctrl(wqe(&fx, 0), 0, MLX5_OPCODE_SEND, 5, 0);
	dg = (struct mlx5_wqe_datagram_seg *)(wqe(&fx, 0) + 1);
	assert_int_equal(be32toh(dg->av.dqp_dct), 0x44 | MLX5_EXTENDED_UD_AV);
	assert_int_equal(be32toh(dg->av.key.qkey.qkey), 0x1234);
	/* Only one of the two: the WQE is incomplete. */
	qpx->wr_start(qpx);
	qpx->wr_send(qpx);
	qpx->wr_set_sge(qpx, 1, 0x10, 4);
	assert_int_equal(qpx->wr_complete(qpx), EINVAL);
	assert_int_equal(fx.qp->sq.cur_post, 2);
	fx_cleanup(&fx);
}

static const struct mlx5_qp_limits lim = {
	.max_sq_desc_sz = 1024,
	.max_rq_desc_sz = 512,
	.max_send_wqebb = 1 << 15,
	.max_recv_wr = 1 << 15,
};

/* The worked examples of upstream's sizing, and its EINVAL limits. */
static void test_sizes(void **state)
{
	static const struct {
		enum ibv_qp_type type;
		uint64_t ops; /* 0: the default set */
		struct ibv_qp_cap cap;
		unsigned int wqe, cnt, post;
		int inl;
	} cases[] = {
		{ IBV_QPT_RC, 0, { 1, 0, 1, 0, 0 }, 256, 4, 1, 60 },
		{ IBV_QPT_UD, 0, { 1, 0, 1, 0, 0 }, 128, 2, 1, 60 },
		{ IBV_QPT_RC, IBV_QP_EX_WITH_SEND, { 1, 0, 1, 0, 0 }, 64, 1, 1,
		  44 },
		{ IBV_QPT_RC, 0, { 100, 0, 1, 0, 0 }, 256, 512, 128, 60 },
		{ IBV_QPT_RC, IBV_QP_EX_WITH_RDMA_WRITE, { 128, 0, 1, 0, 220 },
		  256, 512, 128, 220 },
	};
	struct mlx5_qp_sizes sz;
	struct ibv_qp_cap cap;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(mlx5_calc_qp_sizes(
					 &lim, cases[i].type,
					 cases[i].ops ? cases[i].ops :
					 mlx5_default_send_ops(cases[i].type),
					 &cases[i].cap, false, &sz),
				 0);
		assert_int_equal(sz.sq_wqe_size, cases[i].wqe);
		assert_int_equal(sz.sq_wqe_cnt, cases[i].cnt);
		assert_int_equal(sz.sq_max_post, cases[i].post);
		assert_int_equal(sz.max_inline, cases[i].inl);
	}
	/* RQ: 10 WRs of 1 SGE -> 16 WQEs of 16 bytes. */
	cap = (struct ibv_qp_cap){ .max_recv_wr = 10, .max_recv_sge = 1 };
	assert_int_equal(mlx5_calc_qp_sizes(&lim, IBV_QPT_RC, 0, &cap, false,
					    &sz),
			 0);
	assert_int_equal(sz.rq_wqe_cnt, 16);
	assert_int_equal(sz.rq_wqe_shift, 4);
	assert_int_equal(sz.rq_max_gs, 1);
	assert_int_equal(sz.sq_wqe_cnt, 0); /* no SQ at all */
	/* With an SRQ there is no RQ. */
	assert_int_equal(mlx5_calc_qp_sizes(&lim, IBV_QPT_RC, 0, &cap, true,
					    &sz),
			 0);
	assert_int_equal(sz.rq_bytes, 0);
	/* Limits. */
	cap = (struct ibv_qp_cap){ .max_send_wr = 1, .max_send_sge = 64 };
	assert_int_equal(mlx5_calc_qp_sizes(&lim, IBV_QPT_RC,
					    mlx5_default_send_ops(IBV_QPT_RC),
					    &cap, false, &sz),
			 EINVAL);
	cap = (struct ibv_qp_cap){ .max_send_wr = 1, .max_inline_data = 1024 };
	assert_int_equal(mlx5_calc_qp_sizes(&lim, IBV_QPT_RC,
					    IBV_QP_EX_WITH_SEND, &cap, false,
					    &sz),
			 EINVAL);
	cap = (struct ibv_qp_cap){ .max_recv_wr = (1 << 15) + 1 };
	assert_int_equal(mlx5_calc_qp_sizes(&lim, IBV_QPT_RC, 0, &cap, false,
					    &sz),
			 EINVAL);
	cap = (struct ibv_qp_cap){ .max_send_wr = 1 << 16, .max_send_sge = 1 };
	assert_int_equal(mlx5_calc_qp_sizes(&lim, IBV_QPT_RC,
					    mlx5_default_send_ops(IBV_QPT_RC),
					    &cap, false, &sz),
			 EINVAL); /* more BBs than max_send_wqebb */
}

static uint64_t be64_at(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return be64toh(v);
}

static uint32_t be32_off(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return be32toh(v);
}

/* The UMR WQE of a bind and of LOCAL_INV, byte by byte (ConnectX). */
static void test_umr(void **state)
{
	struct dp_fixture fx;
	struct verbs_mr vmr = { .ibv_mr = { .lkey = 0x4400 } };
	struct ibv_mw mw2 = { .rkey = 0x12345607, .type = IBV_MW_TYPE_2 };
	struct ibv_send_wr wr = { .wr_id = 5, .opcode = IBV_WR_BIND_MW,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;
	const uint8_t *w;
	int i;

	fx_init(&fx, IBV_QPT_RC, 16, 0, 0);
	fx_rts(&fx);
	memset(fx.qp->sq_start, 0xee, 16 * 64); /* stale ring bytes */
	wr.bind_mw.mw = &mw2;
	wr.bind_mw.rkey = 0x12345608;
	wr.bind_mw.bind_info = (struct ibv_mw_bind_info){
		&vmr.ibv_mr, 0x7000, 0x3000,
		IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE };
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, &wr, &bad), 0);
	w = (const uint8_t *)wqe(&fx, 0);
	check_ctrl(wqe(&fx, 0), 0, MLX5_OPCODE_UMR, 12,
		   MLX5_WQE_CTRL_CQ_UPDATE);
	assert_int_equal(be32toh(wqe(&fx, 0)->imm), 0x12345607);
	assert_int_equal(w[16], 0x80 | 0x10 | 0x20); /* INLINE|TO|CHECK_FREE */
	assert_int_equal(w[20] << 8 | w[21], 4);     /* one KLM, 64 bytes */
	assert_int_equal(be64_at(w + 24), 1ull << 29 | 1 << 13 | 1 << 14 |
						  1 << 0 | 1 << 6 | 1 << 18 |
						  1 << 19 | 1 << 20 | 1 << 21);
	for (i = 32; i < 64; i++)
		assert_int_equal(w[i], 0);
	assert_int_equal(w[64], 0);
	assert_int_equal(w[66], 0x10 | 0x20);
	assert_int_equal(be32_off(w + 68), 0x123 << 8 | 0x08);
	assert_int_equal(be64_at(w + 80), 0x7000);
	assert_int_equal(be64_at(w + 88), 0x3000);
	assert_int_equal(be32_off(w + 128), 0x3000);
	assert_int_equal(be32_off(w + 132), 0x4400);
	assert_int_equal(be64_at(w + 136), 0x7000);
	for (i = 144; i < 192; i++)
		assert_int_equal(w[i], 0);
	assert_int_equal(fx.qp->sq.cur_post, 3);

	/* LOCAL_INV: 128 bytes, no KLM, the window goes free */
	wr = (struct ibv_send_wr){ .opcode = IBV_WR_LOCAL_INV,
				   .invalidate_rkey = 0x12345608 };
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, &wr, &bad), 0);
	w = (const uint8_t *)wqe(&fx, 3);
	/* it follows a UMR: the initiator small fence */
	check_ctrl(wqe(&fx, 3), 3, MLX5_OPCODE_UMR, 8,
		   MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE);
	assert_int_equal(be32toh(wqe(&fx, 3)->imm), 0x12345608);
	assert_int_equal(w[16], 0x80 | 0x10 | 0x08); /* + CHECK_QPN */
	assert_int_equal(w[20] << 8 | w[21], 0);
	assert_int_equal(be64_at(w + 24), 1ull << 29 | 1 << 13 | 1 << 14);
	assert_int_equal(w[64], 0x40);
	assert_int_equal(be32_off(w + 68), 0xffffff00);
	assert_int_equal(fx.qp->sq.cur_post, 5);
	/* a window longer than one KLM describes */
	wr = (struct ibv_send_wr){ .opcode = IBV_WR_BIND_MW };
	wr.bind_mw.mw = &mw2;
	wr.bind_mw.bind_info = (struct ibv_mw_bind_info){ &vmr.ibv_mr, 0,
							  (1ull << 31) + 1,
							  0 };
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, &wr, &bad),
			 EOPNOTSUPP);
	assert_int_equal(fx.qp->sq.cur_post, 5);
	/* a full fence asked after a UMR is the full fence alone (ORed with
	 * the small one it would be an undefined fence mode) */
	wr = (struct ibv_send_wr){ .opcode = IBV_WR_SEND,
				   .send_flags = IBV_SEND_FENCE };
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, &wr, &bad), 0);
	check_ctrl(wqe(&fx, 5), 5, MLX5_OPCODE_SEND, 1, MLX5_WQE_CTRL_FENCE);
	fx_cleanup(&fx);
}

static void test_av(void **state)
{
	struct ibv_ah_attr attr = {
		.dlid = 0x1234, .sl = 5, .src_path_bits = 0x81,
		.static_rate = IBV_RATE_100_GBPS, .is_global = 1,
		.grh = { .flow_label = 0xabcde, .sgid_index = 2,
			 .hop_limit = 64, .traffic_class = 7 },
	};
	struct mlx5_wqe_av av;

	attr.grh.dgid.raw[15] = 0x42;
	assert_int_equal(mlx5_fill_av(&av, &attr, false), 0);
	assert_int_equal(av.stat_rate_sl, 15 << 4 | 5);
	assert_int_equal(av.fl_mlid, 0x01);
	assert_int_equal(be16toh(av.rlid), 0x1234);
	assert_int_equal(be32toh(av.grh_gid_fl),
			 1u << 30 | 2u << 20 | 0xabcde);
	assert_int_equal(av.hop_limit, 64);
	assert_int_equal(av.tclass, 7);
	assert_int_equal(av.rgid[15], 0x42);
	/* Ethernet: SL in bits 3:1, no GRH bit, GRH mandatory. */
	assert_int_equal(mlx5_fill_av(&av, &attr, true), 0);
	assert_int_equal(av.stat_rate_sl, 15 << 4 | 5 << 1);
	assert_int_equal(be32toh(av.grh_gid_fl), 2u << 20 | 0xabcde);
	attr.is_global = 0;
	assert_int_equal(mlx5_fill_av(&av, &attr, true), EINVAL);
	assert_int_equal(mlx5_rate_code(IBV_RATE_2_5_GBPS), 7);
	assert_int_equal(mlx5_rate_code(IBV_RATE_25_GBPS), 9);
	assert_int_equal(mlx5_rate_code(99), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rdma_write),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_imm_and_read),
		cmocka_unit_test(test_atomics),
		cmocka_unit_test(test_inline_blueflame),
		cmocka_unit_test(test_ud_send),
		cmocka_unit_test(test_gates_and_errors),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_post_recv),
		cmocka_unit_test(test_wr_api_same_bytes),
		cmocka_unit_test(test_wr_api_every_opcode),
		cmocka_unit_test(test_wr_ud),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_av),
		cmocka_unit_test(test_umr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
