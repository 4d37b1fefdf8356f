// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DC transport on rdma-sim: a DCT (on host B's SRQ) and a DCI (host A)
 * made with mlx5dv_create_qp, brought up with the masks mlx5_ib demands,
 * SEND/WRITE/READ from the DCI through mlx5dv_wr_set_dc_addr checked on
 * the DCT's side (bytes, CQE source QP), one DCI serving two DCTs in one
 * batch, a wrong access key (no delivery, RETRY_EXC_ERR), atomics
 * (values returned and left), DCI streams as reported (none), a DCT in a
 * forked process, and every bad input's errno. With "2" the DCT is on
 * the second device. Nothing (fd, mapping) may be left behind.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <infiniband/mlx5dv.h>

#include "host_pair.h"
#include "skip.h"

#define BUF_SZ	8192
#define MSG	256
#define DC_KEY	0x1ee7a330ull
#define BAD_KEY 0x1ee7a331ull
#define ACCESS                                                                 \
	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |                    \
	 IBV_ACCESS_REMOTE_READ)

static struct host_pair hosts;
#define A (hosts.a)
#define B (hosts.b)
static int ndev = 1;

struct dct_side {
	struct ibv_cq *cq;
	struct ibv_srq *srq;
	struct ibv_qp *dct;
};

struct dci_side {
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_qp_ex *qpx;
	struct mlx5dv_qp_ex *dv;
	struct ibv_ah *ah;
};

static int group_setup(void **state)
{
	(void)state;
	return host_pair_open(&hosts, ndev, BUF_SZ, ACCESS);
}

static int group_teardown(void **state)
{
	(void)state;
	test_teardown_begin();
	assert_true(host_pair_close(&hosts));
	return test_teardown_end();
}

static uint16_t lid_of(struct ibv_context *ctx)
{
	struct ibv_port_attr pa;

	assert_int_equal(ibv_query_port(ctx, 1, &pa), 0);
	return pa.lid;
}

static struct ibv_qp *create_dc(struct ibv_context *ctx, struct ibv_pd *pd,
				struct ibv_cq *cq, struct ibv_srq *srq,
				enum mlx5dv_dc_type type, uint64_t key)
{
	struct ibv_qp_init_attr_ex attr = {
		.qp_type = IBV_QPT_DRIVER,
		.send_cq = cq,
		.recv_cq = cq,
		.srq = srq,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = pd,
	};
	struct mlx5dv_qp_init_attr dv = {
		.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_DC,
		.dc_init_attr.dc_type = type,
	};

	if (type == MLX5DV_DCTYPE_DCT) {
		dv.dc_init_attr.dct_access_key = key;
	} else {
		attr.cap.max_send_wr = 16;
		attr.cap.max_send_sge = 1;
		attr.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		attr.send_ops_flags = IBV_QP_EX_WITH_SEND |
				      IBV_QP_EX_WITH_RDMA_WRITE |
				      IBV_QP_EX_WITH_RDMA_READ |
				      IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
				      IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD;
	}
	return mlx5dv_create_qp(ctx, &attr, &dv);
}

/* RESET -> INIT -> RTR with exactly the masks mlx5_ib takes for a DCT. */
static int dct_up_access(struct ibv_qp *qp, unsigned int access)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = access,
	};
	int ret = ibv_modify_qp(qp, &a,
				IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
					IBV_QP_ACCESS_FLAGS);

	if (ret)
		return ret;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.min_rnr_timer = 1;
	a.ah_attr.port_num = 1;
	return ibv_modify_qp(qp, &a,
			     IBV_QP_STATE | IBV_QP_MIN_RNR_TIMER | IBV_QP_AV |
				     IBV_QP_PATH_MTU);
}

static int dct_up(struct ibv_qp *qp)
{
	return dct_up_access(qp, ACCESS);
}

/* RESET -> INIT -> RTR -> RTS, the DCI's masks; timeout as given. */
static int dci_up(struct ibv_qp *qp, uint8_t timeout, uint8_t retry)
{
	struct ibv_qp_attr a = {.qp_state = IBV_QPS_INIT, .port_num = 1};
	int ret = ibv_modify_qp(qp, &a,
				IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT);

	if (ret)
		return ret;
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	ret = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PATH_MTU);
	if (ret)
		return ret;
	a.qp_state = IBV_QPS_RTS;
	a.timeout = timeout;
	a.retry_cnt = retry;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	a.sq_psn = 0;
	return ibv_modify_qp(qp, &a,
			     IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
				     IBV_QP_RNR_RETRY |
				     IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_SQ_PSN);
}

static void dct_open_access(struct dct_side *d, struct rdma_host *h,
			    unsigned int access)
{
	struct ibv_srq_init_attr sa = {.attr = {.max_wr = 16, .max_sge = 1}};

	d->cq = ibv_create_cq(h->ctx, 32, NULL, NULL, 0);
	assert_non_null(d->cq);
	d->srq = ibv_create_srq(h->pd, &sa);
	assert_non_null(d->srq);
	d->dct = create_dc(h->ctx, h->pd, d->cq, d->srq, MLX5DV_DCTYPE_DCT,
			   DC_KEY);
	assert_non_null(d->dct);
	/* its number exists from RTR on (mlx5_ib creates it there) */
	assert_int_equal(d->dct->qp_num, 0);
	assert_int_equal(dct_up_access(d->dct, access), 0);
	assert_int_not_equal(d->dct->qp_num, 0);
}

static void dct_open(struct dct_side *d, struct rdma_host *h)
{
	dct_open_access(d, h, ACCESS);
}

static void dct_close(struct dct_side *d)
{
	assert_int_equal(ibv_destroy_qp(d->dct), 0);
	assert_int_equal(ibv_destroy_srq(d->srq), 0);
	assert_int_equal(ibv_destroy_cq(d->cq), 0);
}

static void dci_open(struct dci_side *s, uint16_t dlid, uint8_t timeout,
		     uint8_t retry)
{
	struct ibv_ah_attr aa = {.dlid = dlid, .port_num = 1};

	s->cq = ibv_create_cq(A.ctx, 32, NULL, NULL, 0);
	assert_non_null(s->cq);
	s->qp = create_dc(A.ctx, A.pd, s->cq, NULL, MLX5DV_DCTYPE_DCI, 0);
	assert_non_null(s->qp);
	assert_int_not_equal(s->qp->qp_num, 0);
	assert_int_equal(dci_up(s->qp, timeout, retry), 0);
	s->qpx = ibv_qp_to_qp_ex(s->qp);
	assert_non_null(s->qpx);
	s->dv = mlx5dv_qp_ex_from_ibv_qp_ex(s->qpx);
	assert_non_null(s->dv);
	s->ah = ibv_create_ah(A.pd, &aa);
	assert_non_null(s->ah);
}

static void dci_close(struct dci_side *s)
{
	assert_int_equal(ibv_destroy_ah(s->ah), 0);
	assert_int_equal(ibv_destroy_qp(s->qp), 0);
	assert_int_equal(ibv_destroy_cq(s->cq), 0);
}

static void srq_recv(struct ibv_srq *srq, void *addr, uint32_t len,
		     uint32_t lkey, uint64_t wr_id)
{
	struct ibv_sge sge = {(uintptr_t)addr, len, lkey};
	struct ibv_recv_wr wr = {.wr_id = wr_id, .sg_list = &sge, .num_sge = 1},
			   *bad;

	assert_int_equal(ibv_post_srq_recv(srq, &wr, &bad), 0);
}

/* One WQE to (dctn, key): op is IBV_WR_SEND, RDMA_WRITE or RDMA_READ. */
static void dci_post(struct dci_side *s, enum ibv_wr_opcode op, uint32_t dctn,
		     uint64_t key, void *addr, uint32_t len, uint64_t raddr,
		     uint64_t wr_id)
{
	s->qpx->wr_id = wr_id;
	s->qpx->wr_flags = IBV_SEND_SIGNALED;
	if (op == IBV_WR_SEND)
		ibv_wr_send(s->qpx);
	else if (op == IBV_WR_RDMA_WRITE)
		ibv_wr_rdma_write(s->qpx, B.mr->rkey, raddr);
	else
		ibv_wr_rdma_read(s->qpx, B.mr->rkey, raddr);
	mlx5dv_wr_set_dc_addr(s->dv, s->ah, dctn, key);
	ibv_wr_set_sge(s->qpx, A.mr->lkey, (uintptr_t)addr, len);
}

/* Poll @cq until one completion or 10 s. */
static int poll_one(struct ibv_cq *cq, struct ibv_wc *wc)
{
	int i, n;

	for (i = 0; i < 1000000; i++) {
		n = ibv_poll_cq(cq, 1, wc);
		if (n)
			return n;
		if (i > 1000)
			usleep(10);
	}
	return 0;
}

static void expect_ok(struct ibv_cq *cq, uint64_t wr_id, enum ibv_wc_opcode op)
{
	struct ibv_wc wc;

	assert_int_equal(poll_one(cq, &wc), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, wr_id);
	assert_int_equal(wc.opcode, op);
}

static void test_send_write_read(void **state)
{
	struct dct_side d;
	struct dci_side s;
	struct ibv_wc wc;
	int i;

	(void)state;
	dct_open(&d, &B);
	dci_open(&s, lid_of(B.ctx), 14, 7);
	for (i = 0; i < MSG; i++)
		A.buf[i] = (uint8_t)(i * 7 + 1);
	memset(B.buf, 0, BUF_SZ);
	srq_recv(d.srq, B.buf, MSG, B.mr->lkey, 77);

	ibv_wr_start(s.qpx);
	dci_post(&s, IBV_WR_SEND, d.dct->qp_num, DC_KEY, A.buf, MSG, 0, 1);
	dci_post(&s, IBV_WR_RDMA_WRITE, d.dct->qp_num, DC_KEY, A.buf, MSG,
		 (uintptr_t)B.buf + 1024, 2);
	assert_int_equal(ibv_wr_complete(s.qpx), 0);
	expect_ok(s.cq, 1, IBV_WC_SEND);
	expect_ok(s.cq, 2, IBV_WC_RDMA_WRITE);

	/* the DCT's side: the SEND on its SRQ, from the DCI */
	assert_int_equal(poll_one(d.cq, &wc), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.opcode, IBV_WC_RECV);
	assert_int_equal(wc.wr_id, 77);
	assert_int_equal(wc.byte_len, MSG);
	assert_int_equal(wc.qp_num, d.dct->qp_num);
	assert_int_equal(wc.src_qp, s.qp->qp_num);
	assert_memory_equal(B.buf, A.buf, MSG);
	assert_memory_equal(B.buf + 1024, A.buf, MSG);

	/* READ back what B holds */
	memset(B.buf + 2048, 0x5a, MSG);
	ibv_wr_start(s.qpx);
	dci_post(&s, IBV_WR_RDMA_READ, d.dct->qp_num, DC_KEY, A.buf + 4096, MSG,
		 (uintptr_t)B.buf + 2048, 3);
	assert_int_equal(ibv_wr_complete(s.qpx), 0);
	expect_ok(s.cq, 3, IBV_WC_RDMA_READ);
	assert_memory_equal(A.buf + 4096, B.buf + 2048, MSG);
	assert_int_equal(ibv_poll_cq(d.cq, 1, &wc), 0);

	dci_close(&s);
	dct_close(&d);
}

/* One DCI, two DCTs, WQEs alternating between them in one batch. */
static void test_two_dcts(void **state)
{
	struct dct_side d[2];
	struct dci_side s;
	struct ibv_wc wc;
	int i;

	(void)state;
	dct_open(&d[0], &B);
	dct_open(&d[1], &B);
	assert_int_not_equal(d[0].dct->qp_num, d[1].dct->qp_num);
	dci_open(&s, lid_of(B.ctx), 14, 7);
	for (i = 0; i < 4; i++) {
		A.buf[i * 64] = (uint8_t)(0xa0 + i);
		srq_recv(d[i % 2].srq, B.buf + i * 64, 64, B.mr->lkey, 100 + i);
	}
	ibv_wr_start(s.qpx);
	for (i = 0; i < 4; i++)
		dci_post(&s, IBV_WR_SEND, d[i % 2].dct->qp_num, DC_KEY,
			 A.buf + i * 64, 64, 0, 10 + i);
	assert_int_equal(ibv_wr_complete(s.qpx), 0);
	for (i = 0; i < 4; i++)
		expect_ok(s.cq, 10 + i, IBV_WC_SEND);
	for (i = 0; i < 4; i++) {
		assert_int_equal(poll_one(d[i % 2].cq, &wc), 1);
		assert_int_equal(wc.status, IBV_WC_SUCCESS);
		assert_int_equal(wc.wr_id, 100 + i);
		assert_int_equal(wc.qp_num, d[i % 2].dct->qp_num);
		assert_int_equal(B.buf[i * 64], 0xa0 + i);
	}
	dci_close(&s);
	dct_close(&d[1]);
	dct_close(&d[0]);
}

/* The wrong key: nothing arrives, the DCI retries and gives up. */
static void test_wrong_key(void **state)
{
	struct dct_side d;
	struct dci_side s;
	struct ibv_wc wc;

	(void)state;
	dct_open(&d, &B);
	dci_open(&s, lid_of(B.ctx), 8, 2);
	memset(B.buf, 0, MSG);
	A.buf[0] = 0x42;
	srq_recv(d.srq, B.buf, MSG, B.mr->lkey, 5);
	ibv_wr_start(s.qpx);
	dci_post(&s, IBV_WR_SEND, d.dct->qp_num, BAD_KEY, A.buf, MSG, 0, 9);
	assert_int_equal(ibv_wr_complete(s.qpx), 0);
	assert_int_equal(poll_one(s.cq, &wc), 1);
	assert_int_equal(wc.wr_id, 9);
	assert_int_equal(wc.status, IBV_WC_RETRY_EXC_ERR);
	assert_int_equal(ibv_poll_cq(d.cq, 1, &wc), 0);
	assert_int_equal(B.buf[0], 0);
	dci_close(&s);
	dct_close(&d);
}

/*
 * A READ the DCT does not allow: REMOTE_ACCESS_ERR at the DCI, which goes
 * to ERR; back through RESET to RTS it reaches the same DCT again.
 */
static void test_access_error_and_recovery(void **state)
{
	struct dct_side d;
	struct dci_side s;
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RESET };
	struct ibv_wc wc;

	(void)state;
	dct_open_access(&d, &B, IBV_ACCESS_REMOTE_WRITE);
	dci_open(&s, lid_of(B.ctx), 14, 7);
	ibv_wr_start(s.qpx);
	dci_post(&s, IBV_WR_RDMA_READ, d.dct->qp_num, DC_KEY, A.buf, 64,
		 (uintptr_t)B.buf, 20);
	assert_int_equal(ibv_wr_complete(s.qpx), 0);
	assert_int_equal(poll_one(s.cq, &wc), 1);
	assert_int_equal(wc.wr_id, 20);
	assert_int_equal(wc.status, IBV_WC_REM_ACCESS_ERR);

	assert_int_equal(ibv_modify_qp(s.qp, &a, IBV_QP_STATE), 0);
	assert_int_equal(dci_up(s.qp, 14, 7), 0);
	memset(B.buf, 0, 64);
	memset(A.buf, 0x6b, 64);
	srq_recv(d.srq, B.buf, 64, B.mr->lkey, 21);
	ibv_wr_start(s.qpx);
	dci_post(&s, IBV_WR_SEND, d.dct->qp_num, DC_KEY, A.buf, 64, 0, 22);
	assert_int_equal(ibv_wr_complete(s.qpx), 0);
	expect_ok(s.cq, 22, IBV_WC_SEND);
	assert_int_equal(poll_one(d.cq, &wc), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 21);
	assert_memory_equal(B.buf, A.buf, 64);
	dci_close(&s);
	dct_close(&d);
}

/* One atomic through the DCI: compare-and-swap, or fetch-and-add when
 * compare is unused (cas 0); the old value lands at result. */
static void dci_atomic(struct dci_side *s, struct dct_side *d, uint32_t rkey,
		       uint64_t raddr, int cas, uint64_t compare, uint64_t val,
		       uint64_t *result, uint64_t wr_id)
{
	ibv_wr_start(s->qpx);
	s->qpx->wr_id = wr_id;
	s->qpx->wr_flags = IBV_SEND_SIGNALED;
	if (cas)
		ibv_wr_atomic_cmp_swp(s->qpx, rkey, raddr, compare, val);
	else
		ibv_wr_atomic_fetch_add(s->qpx, rkey, raddr, val);
	mlx5dv_wr_set_dc_addr(s->dv, s->ah, d->dct->qp_num, DC_KEY);
	ibv_wr_set_sge(s->qpx, A.mr->lkey, (uintptr_t)result, 8);
	assert_int_equal(ibv_wr_complete(s->qpx), 0);
	expect_ok(s->cq, wr_id, cas ? IBV_WC_COMP_SWAP : IBV_WC_FETCH_ADD);
}

/*
 * Atomics from a DCI to a DCT with REMOTE_ATOMIC: a compare-and-swap that
 * hits, one that misses (nothing changes), a fetch-and-add; each returns
 * the old value, the target holds the new one, and the DCT's CQ sees
 * nothing. Without REMOTE_ATOMIC on the DCT the atomic is refused.
 */
static void test_atomics(void **state)
{
	uint64_t *target = (uint64_t *)(B.buf + 6144);
	uint64_t *result = (uint64_t *)(A.buf + 6144);
	struct ibv_mr *amr;
	struct dct_side d;
	struct dci_side s;
	struct ibv_wc wc;

	(void)state;
	amr = ibv_reg_mr(B.pd, target, 64,
			 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_ATOMIC);
	assert_non_null(amr);
	dct_open_access(&d, &B, ACCESS | IBV_ACCESS_REMOTE_ATOMIC);
	dci_open(&s, lid_of(B.ctx), 14, 7);
	*target = 0x1111222233334444ull;
	*result = 0;
	dci_atomic(&s, &d, amr->rkey, (uintptr_t)target, 1,
		   0x1111222233334444ull, 0x5555666677778888ull, result, 30);
	assert_int_equal(*result, 0x1111222233334444ull);
	assert_int_equal(*target, 0x5555666677778888ull);
	/* a compare that misses: the old value comes back, nothing moves */
	dci_atomic(&s, &d, amr->rkey, (uintptr_t)target, 1, 0x99, 0x77, result,
		   31);
	assert_int_equal(*result, 0x5555666677778888ull);
	assert_int_equal(*target, 0x5555666677778888ull);
	dci_atomic(&s, &d, amr->rkey, (uintptr_t)target, 0, 0, 0x10, result,
		   32);
	assert_int_equal(*result, 0x5555666677778888ull);
	assert_int_equal(*target, 0x5555666677778898ull);
	assert_int_equal(ibv_poll_cq(d.cq, 1, &wc), 0);
	dci_close(&s);
	dct_close(&d);

	/* the same atomic to a DCT without REMOTE_ATOMIC */
	dct_open(&d, &B);
	dci_open(&s, lid_of(B.ctx), 14, 7);
	ibv_wr_start(s.qpx);
	s.qpx->wr_id = 33;
	s.qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_atomic_fetch_add(s.qpx, amr->rkey, (uintptr_t)target, 1);
	mlx5dv_wr_set_dc_addr(s.dv, s.ah, d.dct->qp_num, DC_KEY);
	ibv_wr_set_sge(s.qpx, A.mr->lkey, (uintptr_t)result, 8);
	assert_int_equal(ibv_wr_complete(s.qpx), 0);
	assert_int_equal(poll_one(s.cq, &wc), 1);
	assert_int_equal(wc.wr_id, 33);
	assert_int_equal(wc.status, IBV_WC_REM_ACCESS_ERR);
	assert_int_equal(*target, 0x5555666677778898ull);
	dci_close(&s);
	dct_close(&d);
	assert_int_equal(ibv_dereg_mr(amr), 0);
}

/* A 64-byte SEND from A.buf to the DCT on DCI stream stream. */
static void stream_send(struct dci_side *s, struct dct_side *d, uint16_t stream,
			uint64_t wr_id)
{
	ibv_wr_start(s->qpx);
	s->qpx->wr_id = wr_id;
	s->qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send(s->qpx);
	mlx5dv_wr_set_dc_addr_stream(s->dv, s->ah, d->dct->qp_num, DC_KEY,
				     stream);
	ibv_wr_set_sge(s->qpx, A.mr->lkey, (uintptr_t)A.buf, 64);
	assert_int_equal(ibv_wr_complete(s->qpx), 0);
}

/*
 * DCI streams as the device reports them: none (dci_streams_caps 0/0).
 * mlx5dv_wr_set_dc_addr_stream writes its id into the ctrl segment (bytes
 * 9-10); a DCI without stream channels does not look at it, so a WQE
 * naming stream 0x103 is delivered as one naming 0.
 */
static void test_dci_streams(void **state)
{
	struct mlx5dv_context dc = {.comp_mask =
					    MLX5DV_CONTEXT_MASK_DCI_STREAMS};
	struct mlx5dv_obj obj = {};
	struct mlx5dv_qp dq = {};
	struct dct_side d;
	struct dci_side s;
	struct ibv_wc wc;
	uint8_t *ctrl;

	(void)state;
	assert_int_equal(mlx5dv_query_device(A.ctx, &dc), 0);
	assert_true(dc.comp_mask & MLX5DV_CONTEXT_MASK_DCI_STREAMS);
	assert_int_equal(dc.dci_streams_caps.max_log_num_concurent, 0);
	assert_int_equal(dc.dci_streams_caps.max_log_num_errored, 0);

	dct_open(&d, &B);
	dci_open(&s, lid_of(B.ctx), 14, 7);
	obj.qp.in = s.qp;
	obj.qp.out = &dq;
	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_QP), 0);
	memset(A.buf, 0x2e, 64);
	memset(B.buf, 0, 64);
	srq_recv(d.srq, B.buf, 64, B.mr->lkey, 40);
	stream_send(&s, &d, 0, 41);
	expect_ok(s.cq, 41, IBV_WC_SEND);
	assert_int_equal(poll_one(d.cq, &wc), 1);
	assert_int_equal(wc.wr_id, 40);
	assert_memory_equal(B.buf, A.buf, 64);

	srq_recv(d.srq, B.buf + 64, 64, B.mr->lkey, 43);
	stream_send(&s, &d, 0x103, 42);
	/* the second WQE, after the first one's basic blocks (its DS count
	 * in 16-byte units): its id, big-endian at bytes 9-10 */
	ctrl = dq.sq.buf;
	ctrl += (((ctrl[7] & 0x3f) * 16 + dq.sq.stride - 1) / dq.sq.stride) *
		dq.sq.stride;
	assert_int_equal(ctrl[9] << 8 | ctrl[10], 0x103);
	expect_ok(s.cq, 42, IBV_WC_SEND);
	assert_int_equal(poll_one(d.cq, &wc), 1);
	assert_int_equal(wc.wr_id, 43);
	assert_memory_equal(B.buf + 64, A.buf, 64);
	dci_close(&s);
	dct_close(&d);
}

/* A DCT in another process: its number and LID come through a pipe. */
static void test_other_process(void **state)
{
	int to_parent[2], to_child[2], status, fds, maps;
	struct leak_mark mark;
	uint32_t info[2];
	struct dci_side s;
	char go;
	pid_t pid;

	(void)state;
	leak_mark_take(&mark);
	assert_int_equal(pipe(to_parent), 0);
	assert_int_equal(pipe(to_child), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct rdma_host h;
		struct dct_side d;
		struct ibv_wc wc;
		int ok;

		if (host_open(&h, hosts.devs[ndev - 1], BUF_SZ, ACCESS))
			_exit(2);
		dct_open(&d, &h);
		srq_recv(d.srq, h.buf, MSG, h.mr->lkey, 1);
		info[0] = d.dct->qp_num;
		info[1] = lid_of(h.ctx);
		if (write(to_parent[1], info, sizeof(info)) != sizeof(info))
			_exit(3);
		ok = poll_one(d.cq, &wc) == 1 && wc.status == IBV_WC_SUCCESS &&
		     wc.byte_len == MSG && h.buf[0] == 0x3c &&
		     h.buf[MSG - 1] == 0xc3;
		/* stay until the DCI has its ACK */
		if (read(to_child[0], &go, 1) != 1)
			_exit(4);
		dct_close(&d);
		host_close(&h);
		_exit(ok ? 0 : 1);
	}
	assert_int_equal(read(to_parent[0], info, sizeof(info)), sizeof(info));
	dci_open(&s, (uint16_t)info[1], 14, 7);
	memset(A.buf, 0, MSG);
	A.buf[0] = 0x3c;
	A.buf[MSG - 1] = 0xc3;
	ibv_wr_start(s.qpx);
	dci_post(&s, IBV_WR_SEND, info[0], DC_KEY, A.buf, MSG, 0, 4);
	assert_int_equal(ibv_wr_complete(s.qpx), 0);
	expect_ok(s.cq, 4, IBV_WC_SEND);
	assert_int_equal(write(to_child[1], "g", 1), 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	dci_close(&s);
	close(to_parent[0]);
	close(to_parent[1]);
	close(to_child[0]);
	close(to_child[1]);
	/* rdma-sim keeps the peer process's packet ring mapped (its
	 * engine's route to it), one mapping more; no fd more */
	leak_mark_recount(&mark, &fds, &maps);
	assert_int_equal(fds, mark.fds);
	assert_int_equal(maps, mark.maps + 1);
	hosts.mark.maps++;
}

static void expect_create_fails(struct ibv_qp_init_attr_ex *attr,
				struct mlx5dv_qp_init_attr *dv, int err)
{
	errno = 0;
	assert_null(mlx5dv_create_qp(A.ctx, attr, dv));
	assert_int_equal(errno, err);
}

static void test_bad_create(void **state)
{
	struct ibv_srq_init_attr sa = {.attr = {.max_wr = 4, .max_sge = 1}};
	struct ibv_cq *cq = ibv_create_cq(A.ctx, 8, NULL, NULL, 0);
	struct ibv_srq *srq = ibv_create_srq(A.pd, &sa);
	struct ibv_qp_init_attr_ex attr;
	struct mlx5dv_qp_init_attr dv;

	(void)state;
	assert_non_null(cq);
	assert_non_null(srq);
#define RESET_ATTRS()                                                          \
	do {                                                                   \
		memset(&attr, 0, sizeof(attr));                                \
		attr.qp_type = IBV_QPT_DRIVER;                                 \
		attr.send_cq = attr.recv_cq = cq;                              \
		attr.srq = srq;                                                \
		attr.comp_mask = IBV_QP_INIT_ATTR_PD;                          \
		attr.pd = A.pd;                                                \
		memset(&dv, 0, sizeof(dv));                                    \
		dv.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_DC;                    \
		dv.dc_init_attr.dc_type = MLX5DV_DCTYPE_DCT;                   \
	} while (0)
	/* library: DC needs the driver type and a known DC type */
	RESET_ATTRS();
	attr.qp_type = IBV_QPT_RC;
	expect_create_fails(&attr, &dv, EINVAL);
	RESET_ATTRS();
	dv.comp_mask = 0;
	expect_create_fails(&attr, &dv, EINVAL);
	RESET_ATTRS();
	dv.dc_init_attr.dc_type = 3;
	expect_create_fails(&attr, &dv, EINVAL);
	/* library: a DCT sends nothing */
	RESET_ATTRS();
	dv.comp_mask |= MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS;
	expect_create_fails(&attr, &dv, EINVAL);
	RESET_ATTRS();
	attr.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	attr.send_ops_flags = IBV_QP_EX_WITH_SEND;
	expect_create_fails(&attr, &dv, EINVAL);
	/* library: no DCI streams on this device */
	RESET_ATTRS();
	attr.srq = NULL;
	dv.dc_init_attr.dc_type = MLX5DV_DCTYPE_DCI;
	dv.comp_mask |= MLX5DV_QP_INIT_ATTR_MASK_DCI_STREAMS;
	dv.dc_init_attr.dci_streams.log_num_concurent = 1;
	expect_create_fails(&attr, &dv, EINVAL);
	/* kernel: a DCT needs its SRQ, a DCI has no receive queue */
	RESET_ATTRS();
	attr.srq = NULL;
	expect_create_fails(&attr, &dv, EINVAL);
	RESET_ATTRS();
	attr.srq = NULL;
	dv.dc_init_attr.dc_type = MLX5DV_DCTYPE_DCI;
	attr.cap.max_recv_wr = 1;
	attr.cap.max_recv_sge = 1;
	expect_create_fails(&attr, &dv, EINVAL);
#undef RESET_ATTRS
	assert_int_equal(ibv_destroy_srq(srq), 0);
	assert_int_equal(ibv_destroy_cq(cq), 0);
}

static void test_bad_modify(void **state)
{
	struct ibv_srq_init_attr sa = {.attr = {.max_wr = 4, .max_sge = 1}};
	struct ibv_cq *cq = ibv_create_cq(A.ctx, 8, NULL, NULL, 0);
	struct ibv_srq *srq = ibv_create_srq(A.pd, &sa);
	struct ibv_qp *dct, *dci;
	struct ibv_qp_attr a = {.qp_state = IBV_QPS_INIT,
				.port_num = 1,
				.qp_access_flags = ACCESS};

	(void)state;
	assert_non_null(cq);
	assert_non_null(srq);
	dct = create_dc(A.ctx, A.pd, cq, srq, MLX5DV_DCTYPE_DCT, DC_KEY);
	dci = create_dc(A.ctx, A.pd, cq, NULL, MLX5DV_DCTYPE_DCI, 0);
	assert_non_null(dct);
	assert_non_null(dci);
	/* DCT INIT: exactly STATE|ACCESS_FLAGS|PKEY_INDEX|PORT */
	assert_int_equal(
		ibv_modify_qp(dct, &a,
			      IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT),
		EINVAL);
	/* DCI INIT: no ACCESS_FLAGS */
	assert_int_equal(ibv_modify_qp(dci, &a,
				       IBV_QP_STATE | IBV_QP_PKEY_INDEX |
					       IBV_QP_PORT |
					       IBV_QP_ACCESS_FLAGS),
			 EINVAL);
	assert_int_equal(dct_up(dct), 0);
	/* a DCT never leaves RTR by modify (not even to ERR) */
	a.qp_state = IBV_QPS_ERR;
	assert_int_equal(ibv_modify_qp(dct, &a, IBV_QP_STATE), EINVAL);
	a.qp_state = IBV_QPS_RTS;
	assert_int_equal(ibv_modify_qp(dct, &a, IBV_QP_STATE), EINVAL);
	/* back to RESET and INIT; RTR needs PATH_MTU */
	assert_int_equal(dci_up(dci, 14, 7), 0);
	a.qp_state = IBV_QPS_RESET;
	assert_int_equal(ibv_modify_qp(dci, &a, IBV_QP_STATE), 0);
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	assert_int_equal(
		ibv_modify_qp(dci, &a,
			      IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT),
		0);
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	assert_int_equal(ibv_modify_qp(dci, &a, IBV_QP_STATE), EINVAL);
	assert_int_equal(ibv_destroy_qp(dci), 0);
	assert_int_equal(ibv_destroy_qp(dct), 0);
	assert_int_equal(ibv_destroy_srq(srq), 0);
	assert_int_equal(ibv_destroy_cq(cq), 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_create),
		cmocka_unit_test(test_bad_modify),
		cmocka_unit_test(test_send_write_read),
		cmocka_unit_test(test_two_dcts),
		cmocka_unit_test(test_wrong_key),
		cmocka_unit_test(test_access_error_and_recovery),
		cmocka_unit_test(test_atomics),
		cmocka_unit_test(test_dci_streams),
		cmocka_unit_test(test_other_process),
	};
	int failed;

	if (argc > 1)
		ndev = atoi(argv[1]);
	failed = cmocka_run_group_tests(tests, group_setup, group_teardown);
	return test_exit_status(failed);
}
