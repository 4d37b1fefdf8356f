// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * CQEs written by hand as the HCA writes them, polled back: ownership
 * across wraps, requester and responder fields, every error syndrome,
 * scatter-to-CQE, the ibv_cq_ex API, removing a QP's CQEs on reset, and
 * the SRQ free list.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dp_fixture.h"

#define QPN 0x123

static struct ibv_cq *ibcq(struct dp_fixture *fx)
{
	return &fx->cq->verbs_cq.cq;
}

static void test_ownership(void **state)
{
	struct dp_fixture fx;
	struct ibv_wc wc[4];
	uint32_t n;

	fx_init(&fx, IBV_QPT_RC, 8, 0, 0);
	/* A fresh ring is empty. */
	assert_int_equal(mlx5_poll_cq(ibcq(&fx), 4, wc), 0);
	/* 20 CQEs one by one: 2.5 wraps of an 8-entry ring. */
	for (n = 0; n < 20; n++) {
		fx.qp->sq.wrid[n & 7] = 1000 + n;
		fx.qp->sq.wqe_head[n & 7] = n;
		fx_cqe(&fx, n, MLX5_CQE_REQ, (uint16_t)n, QPN);
		/* The next slot still has last pass's owner bit: not ours. */
		assert_int_equal(mlx5_poll_cq(ibcq(&fx), 4, wc), 1);
		assert_int_equal(wc[0].wr_id, 1000 + n);
		assert_int_equal(wc[0].status, IBV_WC_SUCCESS);
		assert_int_equal(wc[0].qp_num, QPN);
		assert_int_equal(be32toh(fx.cq_db[0]), n + 1);
		assert_int_equal(fx.qp->sq.tail, n + 1);
	}
	assert_int_equal(mlx5_poll_cq(ibcq(&fx), 4, wc), 0);
	fx_cleanup(&fx);
}

static void test_req_opcodes(void **state)
{
	static const struct {
		uint8_t wqe_op;
		enum ibv_wc_opcode op;
		unsigned int flags;
		uint32_t len;
	} cases[] = {
		{ MLX5_OPCODE_RDMA_WRITE, IBV_WC_RDMA_WRITE, 0, 0 },
		{ MLX5_OPCODE_RDMA_WRITE_IMM, IBV_WC_RDMA_WRITE,
		  IBV_WC_WITH_IMM, 0 },
		{ MLX5_OPCODE_SEND, IBV_WC_SEND, 0, 0 },
		{ MLX5_OPCODE_SEND_IMM, IBV_WC_SEND, IBV_WC_WITH_IMM, 0 },
		{ MLX5_OPCODE_RDMA_READ, IBV_WC_RDMA_READ, 0, 4096 },
		{ MLX5_OPCODE_ATOMIC_CS, IBV_WC_COMP_SWAP, 0, 8 },
		{ MLX5_OPCODE_ATOMIC_FA, IBV_WC_FETCH_ADD, 0, 8 },
	};
	struct mlx5_cqe64 *cqe;
	struct dp_fixture fx;
	struct ibv_wc wc;
	uint32_t i;

	fx_init(&fx, IBV_QPT_RC, 8, 0, 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cqe = fx_cqe(&fx, i, MLX5_CQE_REQ, (uint16_t)i,
			     (uint32_t)cases[i].wqe_op << 24 | QPN);
		cqe->byte_cnt = htobe32(4096);
		memset(&wc, 0, sizeof(wc));
		assert_int_equal(mlx5_poll_cq(ibcq(&fx), 1, &wc), 1);
		assert_int_equal(wc.opcode, cases[i].op);
		assert_int_equal(wc.wc_flags, cases[i].flags);
		assert_int_equal(wc.byte_len, cases[i].len);
	}
	fx_cleanup(&fx);
}

/* One CQE retires every unsignaled WQE before it. */
static void test_unsignaled_retire(void **state)
{
	struct dp_fixture fx;
	struct ibv_wc wc;

	fx_init(&fx, IBV_QPT_RC, 8, 0, 0);
	fx.qp->sq.head = 5;
	fx.qp->sq.wqe_head[4] = 4;
	fx.qp->sq.wrid[4] = 77;
	fx_cqe(&fx, 0, MLX5_CQE_REQ, 4, QPN);
	assert_int_equal(mlx5_poll_cq(ibcq(&fx), 1, &wc), 1);
	assert_int_equal(wc.wr_id, 77);
	assert_int_equal(fx.qp->sq.tail, 5);
	fx_cleanup(&fx);
}

static void test_responder(void **state)
{
	struct mlx5_cqe64 *cqe;
	struct dp_fixture fx;
	struct ibv_wc wc;

	fx_init(&fx, IBV_QPT_UD, 8, 4, 0);
	fx.qp->rq.wrid[2] = 55;
	cqe = fx_cqe(&fx, 0, MLX5_CQE_RESP_SEND_IMM, 6, QPN);
	cqe->byte_cnt = htobe32(1234);
	cqe->imm_inval_pkey = htobe32(0xcafe0001);
	cqe->slid = htobe16(0x33);
	cqe->flags_rqpn = htobe32(1u << 28 | 7u << 24 | 0x456);
	cqe->ml_path = 0x85;
	assert_int_equal(mlx5_poll_cq(ibcq(&fx), 1, &wc), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.opcode, IBV_WC_RECV);
	assert_int_equal(wc.wr_id, 55); /* counter 6 & (4 - 1) */
	assert_int_equal(wc.byte_len, 1234);
	assert_int_equal(wc.imm_data, htobe32(0xcafe0001));
	assert_int_equal(wc.wc_flags, IBV_WC_WITH_IMM | IBV_WC_GRH);
	assert_int_equal(wc.slid, 0x33);
	assert_int_equal(wc.sl, 7);
	assert_int_equal(wc.src_qp, 0x456);
	assert_int_equal(wc.dlid_path_bits, 5);
	assert_int_equal(wc.pkey_index, 1);
	assert_int_equal(fx.qp->rq.tail, 1);
	/* WRITE_WITH_IMM on the responder, and SEND_INV. */
	cqe = fx_cqe(&fx, 1, MLX5_CQE_RESP_WR_IMM, 0, QPN);
	assert_int_equal(mlx5_poll_cq(ibcq(&fx), 1, &wc), 1);
	assert_int_equal(wc.opcode, IBV_WC_RECV_RDMA_WITH_IMM);
	cqe = fx_cqe(&fx, 2, MLX5_CQE_RESP_SEND_INV, 1, QPN);
	cqe->imm_inval_pkey = htobe32(0x99);
	assert_int_equal(mlx5_poll_cq(ibcq(&fx), 1, &wc), 1);
	assert_int_equal(wc.wc_flags, IBV_WC_WITH_INV);
	assert_int_equal(wc.invalidated_rkey, 0x99);
	fx_cleanup(&fx);
}

static void test_syndromes(void **state)
{
	static const struct {
		uint8_t synd;
		enum ibv_wc_status status;
	} cases[] = {
		{ 0x01, IBV_WC_LOC_LEN_ERR },	  { 0x02, IBV_WC_LOC_QP_OP_ERR },
		{ 0x04, IBV_WC_LOC_PROT_ERR },	  { 0x05, IBV_WC_WR_FLUSH_ERR },
		{ 0x06, IBV_WC_MW_BIND_ERR },	  { 0x10, IBV_WC_BAD_RESP_ERR },
		{ 0x11, IBV_WC_LOC_ACCESS_ERR },  { 0x12, IBV_WC_REM_INV_REQ_ERR },
		{ 0x13, IBV_WC_REM_ACCESS_ERR },  { 0x14, IBV_WC_REM_OP_ERR },
		{ 0x15, IBV_WC_RETRY_EXC_ERR },	  { 0x16, IBV_WC_RNR_RETRY_EXC_ERR },
		{ 0x22, IBV_WC_REM_ABORT_ERR },	  { 0x7f, IBV_WC_GENERAL_ERR },
	};
	struct mlx5_err_cqe *e;
	struct dp_fixture fx;
	struct ibv_wc wc;
	uint32_t i;

	fx_init(&fx, IBV_QPT_RC, 8, 4, 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fx.qp->sq.wrid[i & 7] = i;
		fx.qp->rq.wrid[i & 3] = 100 + i;
		e = (struct mlx5_err_cqe *)fx_cqe(
			&fx, i, i & 1 ? MLX5_CQE_RESP_ERR : MLX5_CQE_REQ_ERR,
			(uint16_t)i, QPN);
		e->syndrome = cases[i].synd;
		e->vendor_err_synd = 0x42;
		assert_int_equal(mlx5_poll_cq(ibcq(&fx), 1, &wc), 1);
		assert_int_equal(wc.status, cases[i].status);
		assert_int_equal(wc.vendor_err, 0x42);
		assert_int_equal(wc.wr_id, i & 1 ? 100 + i : i);
		assert_int_equal(wc.qp_num, QPN);
	}
	fx_cleanup(&fx);
}

/* Up to 32 bytes of payload in the CQE instead of the receive buffer. */
static void test_scatter_to_cqe(void **state)
{
	uint8_t buf[16] = {}, big[32] = {};
	struct mlx5_wqe_data_seg *d;
	struct mlx5_cqe64 *cqe;
	struct dp_fixture fx;
	struct ibv_wc wc;

	fx_init(&fx, IBV_QPT_RC, 8, 4, 0);
	d = fx.qp->buf.addr;
	mlx5dv_set_data_seg(d, sizeof(big), 1, (uintptr_t)big);
	cqe = fx_cqe(&fx, 0, MLX5_CQE_RESP_SEND, 0, QPN);
	memcpy(cqe, "scattered bytes!", 16);
	cqe->byte_cnt = htobe32(16);
	cqe->op_own |= MLX5_INLINE_SCATTER_32;
	assert_int_equal(mlx5_poll_cq(ibcq(&fx), 1, &wc), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_memory_equal(big, "scattered bytes!", 16);
	/* Does not fit the posted buffer: LOC_LEN_ERR. */
	mlx5dv_set_data_seg(d + 1, sizeof(buf), 1, (uintptr_t)buf);
	cqe = fx_cqe(&fx, 1, MLX5_CQE_RESP_SEND, 1, QPN);
	cqe->byte_cnt = htobe32(24);
	cqe->op_own |= MLX5_INLINE_SCATTER_32;
	assert_int_equal(mlx5_poll_cq(ibcq(&fx), 1, &wc), 1);
	assert_int_equal(wc.status, IBV_WC_LOC_LEN_ERR);
	fx_cleanup(&fx);
}

/*
 * A 128-byte CQE: up to 64 bytes in the 64 bytes before the mlx5_cqe64
 * (INLINE_SCATTER_64), or up to 32 at its start (INLINE_SCATTER_32); the
 * bytes past the message stay as they were.
 */
static void test_scatter_128b_cqe(void **state)
{
	uint8_t big[64], want[64];
	struct mlx5_wqe_data_seg *d;
	struct mlx5_cqe64 *cqe;
	struct dp_fixture fx;
	struct ibv_wc wc;
	unsigned int i;

	for (i = 0; i < sizeof(want); i++)
		want[i] = (uint8_t)(i * 7 + 1);
	fx_init(&fx, IBV_QPT_RC, 8, 4, 0);
	fx_cq_128(&fx);
	d = fx.qp->buf.addr;
	memset(big, 0xee, sizeof(big));
	mlx5dv_set_data_seg(d, sizeof(big), 1, (uintptr_t)big);
	fx.qp->rq.wrid[0] = 70;
	cqe = fx_cqe(&fx, 0, MLX5_CQE_RESP_SEND, 0, QPN);
	memcpy((uint8_t *)cqe - 64, want, 48);
	cqe->byte_cnt = htobe32(48);
	cqe->op_own |= MLX5_INLINE_SCATTER_64;
	assert_int_equal(mlx5_poll_cq(ibcq(&fx), 1, &wc), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 70);
	assert_int_equal(wc.byte_len, 48);
	assert_memory_equal(big, want, 48);
	assert_int_equal(big[48], 0xee);
	assert_int_equal(big[63], 0xee);
	/* 31 bytes in the CQE's own first half */
	memset(big, 0xee, sizeof(big));
	mlx5dv_set_data_seg(d + 1, sizeof(big), 1, (uintptr_t)big);
	cqe = fx_cqe(&fx, 1, MLX5_CQE_RESP_SEND, 1, QPN);
	memcpy(cqe, want + 1, 31);
	cqe->byte_cnt = htobe32(31);
	cqe->op_own |= MLX5_INLINE_SCATTER_32;
	assert_int_equal(mlx5_poll_cq(ibcq(&fx), 1, &wc), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_memory_equal(big, want + 1, 31);
	assert_int_equal(big[31], 0xee);
	fx_cleanup(&fx);
}

/*
 * Requester scatter: a READ's answer (over two SGEs) and a fetch-and-add's
 * 8 bytes come in the CQE and go to the WQE's local buffers, through
 * ibv_poll_cq and through the ibv_cq_ex API.
 */
static void test_scatter_requester(void **state)
{
	uint8_t a[10], b[22], c[8], e[16], want[32];
	struct ibv_sge sg[2] = {
		{ .addr = (uintptr_t)a, .length = sizeof(a), .lkey = 1 },
		{ .addr = (uintptr_t)b, .length = sizeof(b), .lkey = 1 },
	};
	struct ibv_sge sc = { (uintptr_t)c, sizeof(c), 1 };
	struct ibv_sge se = { (uintptr_t)e, sizeof(e), 1 };
	struct ibv_send_wr rd = { .wr_id = 1, .sg_list = sg, .num_sge = 2,
				  .opcode = IBV_WR_RDMA_READ,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr fa = { .wr_id = 2, .sg_list = &sc, .num_sge = 1,
				  .opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr rd2 = { .wr_id = 3, .sg_list = &se, .num_sge = 1,
				   .opcode = IBV_WR_RDMA_READ,
				   .send_flags = IBV_SEND_SIGNALED };
	struct ibv_poll_cq_attr attr = {};
	struct ibv_send_wr *bad;
	struct mlx5_cqe64 *cqe;
	struct dp_fixture fx;
	struct ibv_cq_ex *ex;
	struct ibv_wc wc;
	unsigned int i;

	for (i = 0; i < sizeof(want); i++)
		want[i] = (uint8_t)(0x80 + i);
	fx_init(&fx, IBV_QPT_RC, 8, 0, 0);
	fx_rts(&fx);
	fa.wr.atomic.remote_addr = 0x1000;
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, &rd, &bad), 0);
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, &fa, &bad), 0);
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, &rd2, &bad), 0);
	cqe = fx_cqe(&fx, 0, MLX5_CQE_REQ, 0,
		     MLX5_OPCODE_RDMA_READ << 24 | QPN);
	memcpy(cqe, want, 32);
	cqe->byte_cnt = htobe32(32);
	cqe->op_own |= MLX5_INLINE_SCATTER_32;
	assert_int_equal(mlx5_poll_cq(ibcq(&fx), 1, &wc), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.opcode, IBV_WC_RDMA_READ);
	assert_int_equal(wc.byte_len, 32);
	assert_memory_equal(a, want, 10);
	assert_memory_equal(b, want + 10, 22);
	cqe = fx_cqe(&fx, 1, MLX5_CQE_REQ, 1,
		     MLX5_OPCODE_ATOMIC_FA << 24 | QPN);
	memcpy(cqe, want + 3, 8);
	cqe->op_own |= MLX5_INLINE_SCATTER_32;
	assert_int_equal(mlx5_poll_cq(ibcq(&fx), 1, &wc), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.opcode, IBV_WC_FETCH_ADD);
	assert_memory_equal(c, want + 3, 8);
	/* the extended poll copies as it parses */
	fx.cq->wc_flags = IBV_WC_EX_WITH_BYTE_LEN;
	mlx5_cq_ex_set_ops(fx.cq);
	ex = &fx.cq->verbs_cq.cq_ex;
	cqe = fx_cqe(&fx, 2, MLX5_CQE_REQ, 2,
		     MLX5_OPCODE_RDMA_READ << 24 | QPN);
	memcpy(cqe, want + 16, 16);
	cqe->byte_cnt = htobe32(16);
	cqe->op_own |= MLX5_INLINE_SCATTER_32;
	assert_int_equal(ex->start_poll(ex, &attr), 0);
	assert_int_equal(ex->status, IBV_WC_SUCCESS);
	assert_int_equal(ex->wr_id, 3);
	assert_int_equal(ex->read_byte_len(ex), 16);
	assert_memory_equal(e, want + 16, 16);
	ex->end_poll(ex);
	fx_cleanup(&fx);
}

/* A CQE naming no known QP is upstream's -2, not a completion. */
static void test_unknown_resource(void **state)
{
	struct mlx5_cqe64 *cqe;
	struct dp_fixture fx;
	struct ibv_wc wc;

	fx_init(&fx, IBV_QPT_RC, 8, 0, 0);
	cqe = fx_cqe(&fx, 0, MLX5_CQE_REQ, 0, QPN);
	cqe->srqn_uidx = htobe32(99);
	assert_int_equal(mlx5_poll_cq(ibcq(&fx), 1, &wc), -2);
	fx_cleanup(&fx);
}

static void test_cq_ex(void **state)
{
	struct ibv_poll_cq_attr attr = {};
	struct mlx5_cqe64 *cqe;
	struct ibv_cq_ex *ex;
	struct dp_fixture fx;

	fx_init(&fx, IBV_QPT_RC, 8, 4, 0);
	fx.cq->wc_flags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_QP_NUM;
	mlx5_cq_ex_set_ops(fx.cq);
	ex = &fx.cq->verbs_cq.cq_ex;
	assert_null(ex->read_imm_data); /* not requested */
	assert_int_equal(ex->start_poll(ex, &attr), ENOENT);
	fx.qp->sq.wrid[0] = 5;
	fx.qp->rq.wrid[0] = 6;
	fx_cqe(&fx, 0, MLX5_CQE_REQ, 0, MLX5_OPCODE_RDMA_WRITE << 24 | QPN);
	cqe = fx_cqe(&fx, 1, MLX5_CQE_RESP_SEND, 0, QPN);
	cqe->byte_cnt = htobe32(64);
	assert_int_equal(ex->start_poll(ex, &attr), 0);
	assert_int_equal(ex->wr_id, 5);
	assert_int_equal(ex->status, IBV_WC_SUCCESS);
	assert_int_equal(ex->read_opcode(ex), IBV_WC_RDMA_WRITE);
	assert_int_equal(ex->next_poll(ex), 0);
	assert_int_equal(ex->wr_id, 6);
	assert_int_equal(ex->read_opcode(ex), IBV_WC_RECV);
	assert_int_equal(ex->read_byte_len(ex), 64);
	assert_int_equal(ex->read_qp_num(ex), QPN);
	assert_int_equal(ex->next_poll(ex), ENOENT);
	ex->end_poll(ex);
	assert_int_equal(be32toh(fx.cq_db[0]), 2);
	attr.comp_mask = 1;
	assert_int_equal(ex->start_poll(ex, &attr), EINVAL);
	fx_cleanup(&fx);
}

/*
 * The readers of the fields only the CQE holds: the stamp raw and, through
 * the clock-info page read at start_poll, as wall time; CVLAN, flow tag
 * and tag-matching info. A page being rewritten makes start_poll EBUSY
 * and keeps the CQE for the next try.
 */
static void test_cq_ex_cqe_fields(void **state)
{
	static struct mlx5_ib_clock_info page = {
		.nsec = 1000000000000ULL, .cycles = 5000, .mult = 3435973837u,
		.shift = 29, .mask = (1ULL << 41) - 1};
	struct ibv_poll_cq_attr attr = {};
	struct ibv_wc_tm_info tm;
	struct mlx5_context ctx = {};
	struct mlx5_cqe64 *cqe;
	struct ibv_cq_ex *ex;
	struct dp_fixture fx;

	fx_init(&fx, IBV_QPT_RC, 8, 4, 0);
	ctx.clock_info.addr = &page;
	fx.cq->verbs_cq.cq_ex.context = &ctx.ibv_ctx.context;
	fx.cq->wc_flags = IBV_WC_EX_WITH_COMPLETION_TIMESTAMP |
			  IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK |
			  IBV_WC_EX_WITH_CVLAN | IBV_WC_EX_WITH_FLOW_TAG |
			  IBV_WC_EX_WITH_TM_INFO;
	fx.cq->clock_update = true;
	mlx5_cq_ex_set_ops(fx.cq);
	ex = &fx.cq->verbs_cq.cq_ex;
	fx.qp->rq.wrid[0] = 6;
	cqe = fx_cqe(&fx, 0, MLX5_CQE_RESP_SEND, 0, 0xabcdef);
	cqe->timestamp = htobe64(5000 + 1000);
	cqe->vlan_info = htobe16(0x0123);
	cqe->tmh.app_ctx = htobe32(0x11223344);
	cqe->tmh.tag = htobe64(0x0102030405060708ULL);

	page.sign = 1; /* the kernel is rewriting the page */
	assert_int_equal(ex->start_poll(ex, &attr), EBUSY);
	page.sign = 2;
	assert_int_equal(ex->start_poll(ex, &attr), 0);
	assert_int_equal(ex->wr_id, 6);
	assert_int_equal(ex->read_completion_ts(ex), 6000);
	/* 1000 cycles of 6.4 ns after the page's reading */
	assert_int_equal(ex->read_completion_wallclock_ns(ex),
			 1000000000000ULL + 6400);
	assert_int_equal(ex->read_cvlan(ex), 0x0123);
	assert_int_equal(ex->read_flow_tag(ex), 0xabcdef);
	ex->read_tm_info(ex, &tm);
	assert_int_equal(tm.tag, 0x0102030405060708ULL);
	assert_int_equal(tm.priv, 0x11223344);
	ex->end_poll(ex);
	fx_cleanup(&fx);
}

/* Reset/destroy drop one QP's CQEs and keep the others in order. */
static void test_cq_clean(void **state)
{
	struct mlx5_rsc other = { .type = MLX5_RSC_QP };
	struct mlx5_cqe64 *cqe;
	struct dp_fixture fx;
	struct ibv_wc wc[4];
	uint32_t i;

	fx_init(&fx, IBV_QPT_RC, 8, 0, 0);
	mlx5_rsc_store(&fx.rsc, 6, &other);
	for (i = 0; i < 4; i++) {
		cqe = fx_cqe(&fx, i, MLX5_CQE_REQ, (uint16_t)i, QPN);
		if (i & 1)
			cqe->srqn_uidx = htobe32(6);
	}
	mlx5_cq_clean(fx.cq, 6, NULL);
	assert_int_equal(fx.cq->cons_index, 2);
	fx.qp->sq.wrid[0] = 10;
	fx.qp->sq.wrid[2] = 12;
	assert_int_equal(mlx5_poll_cq(ibcq(&fx), 4, wc), 2);
	assert_int_equal(wc[0].wr_id, 10);
	assert_int_equal(wc[1].wr_id, 12);
	fx_cleanup(&fx);
}

/* A CQ handed out by mlx5dv_init_obj is the caller's to poll: destroying
 * a QP leaves its ring, CQEs and consumer index alone (UCX's SRQ list
 * would otherwise get WQEs it already reposted). */
static void test_cq_clean_dv_owned(void **state)
{
	struct mlx5dv_obj obj = {};
	struct mlx5dv_cq dcq = {};
	struct dp_fixture fx;
	uint8_t before[4 * 64];
	uint32_t i;

	fx_init(&fx, IBV_QPT_RC, 8, 0, 0);
	for (i = 0; i < 4; i++)
		fx_cqe(&fx, i, MLX5_CQE_REQ, (uint16_t)i, QPN)->srqn_uidx =
			htobe32(6);
	obj.cq.in = ibcq(&fx);
	obj.cq.out = &dcq;
	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_CQ), 0);
	memcpy(before, dcq.buf, sizeof(before));
	mlx5_cq_clean(fx.cq, 6, NULL); /* all four are QP 6's */
	assert_int_equal(fx.cq->cons_index, 0);
	assert_memory_equal(dcq.buf, before, sizeof(before));
	fx_cleanup(&fx);
}

static void test_srq_ring(void **state)
{
	struct mlx5_srq srq = {};
	struct ibv_sge sge = { .addr = 0x7000, .length = 0, .lkey = 2 };
	struct ibv_recv_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 },
			   *bad;
	struct mlx5_wqe_data_seg *d;
	__be32 db[2] = {};
	uint64_t wrid[4];
	int i;

	mlx5_alloc_buf(&srq.buf, 4 * 32, 4096);
	srq.wqe_shift = 5;
	srq.max = 4;
	srq.max_gs = 1;
	srq.wrid = wrid;
	srq.db = db;
	pthread_spin_init(&srq.lock, PTHREAD_PROCESS_PRIVATE);
	for (i = 0; i < 3; i++)
		mlx5_srq_next(&srq, i)->next_wqe_index = htobe16(i + 1);
	srq.tail = 3;
	for (i = 0; i < 3; i++) {
		wr.wr_id = 10 + i;
		assert_int_equal(mlx5_post_srq_recv(&srq.verbs_srq.srq, &wr,
						    &bad),
				 0);
	}
	/* The tail WQE is never handed out: the fourth post is ENOMEM. */
	assert_int_equal(mlx5_post_srq_recv(&srq.verbs_srq.srq, &wr, &bad),
			 ENOMEM);
	assert_int_equal(be32toh(db[0]), 3);
	/* Zero-length SGEs are kept on an SRQ. */
	d = (struct mlx5_wqe_data_seg *)(mlx5_srq_next(&srq, 1) + 1);
	assert_int_equal(be32toh(d->lkey), 2);
	assert_int_equal(wrid[1], 11);
	/* WQE 1 completes: chained after the tail, posted again next. */
	mlx5_free_srq_wqe(&srq, 1);
	assert_int_equal(srq.tail, 1);
	assert_int_equal(be16toh(mlx5_srq_next(&srq, 3)->next_wqe_index), 1);
	wr.wr_id = 99;
	assert_int_equal(mlx5_post_srq_recv(&srq.verbs_srq.srq, &wr, &bad),
			 0);
	assert_int_equal(wrid[3], 99);
	assert_int_equal(srq.head, 1);
	/* Too many SGEs: EINVAL. */
	wr.num_sge = 2;
	assert_int_equal(mlx5_post_srq_recv(&srq.verbs_srq.srq, &wr, &bad),
			 EINVAL);
	pthread_spin_destroy(&srq.lock);
	mlx5_free_buf(&srq.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ownership),
		cmocka_unit_test(test_cq_ex_cqe_fields),
		cmocka_unit_test(test_req_opcodes),
		cmocka_unit_test(test_unsignaled_retire),
		cmocka_unit_test(test_responder),
		cmocka_unit_test(test_syndromes),
		cmocka_unit_test(test_scatter_to_cqe),
		cmocka_unit_test(test_scatter_128b_cqe),
		cmocka_unit_test(test_scatter_requester),
		cmocka_unit_test(test_unknown_resource),
		cmocka_unit_test(test_cq_ex),
		cmocka_unit_test(test_cq_clean),
		cmocka_unit_test(test_cq_clean_dv_owned),
		cmocka_unit_test(test_srq_ring),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
