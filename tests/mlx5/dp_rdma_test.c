// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The mlx5 data path end to end on rdma-sim: two QPs (on one device, or on
 * mlx5_0 and mlx5_1 with "2") move bytes with every send opcode through
 * ibv_post_send and through ibv_wr_*, RC, UC and UD, an SRQ, error
 * completions, completion events and CQ resize. Every test checks the
 * bytes that arrived and the completion fields; the group checks that
 * nothing (fd, mapping) is left behind.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <infiniband/mlx5dv.h>

#include "dm_util.h"
#include "rdma_util.h"
#include "skip.h"

#define BUF_SZ 65536

static struct ibv_device **devs;
static struct rdma_host A, B;
static struct leak_mark mark;

static void open_side(struct rdma_host *s, struct ibv_device *dev)
{
	assert_int_equal(host_open(s, dev, BUF_SZ,
				   IBV_ACCESS_LOCAL_WRITE |
					   IBV_ACCESS_REMOTE_WRITE |
					   IBV_ACCESS_REMOTE_READ |
					   IBV_ACCESS_REMOTE_ATOMIC),
			 0);
}

static int ndev = 1;

static int group_setup(void **state)
{
	int n;

	devs = ibv_get_device_list(&n);
	if (!devs || n < ndev)
		return -1;
	sim_warm_up(devs[0]);
	leak_mark_take(&mark);
	open_side(&A, devs[0]);
	open_side(&B, devs[ndev - 1]);
	return 0;
}

static int group_teardown(void **state)
{
	int fds, maps;

	test_teardown_begin();
	assert_int_equal(host_close(&A), 0);
	assert_int_equal(host_close(&B), 0);
	ibv_free_device_list(devs);
	leak_mark_recount(&mark, &fds, &maps);
	assert_int_equal(fds, mark.fds);
	assert_int_equal(maps, mark.maps);
	return test_teardown_end();
}

static void pair(struct rdma_ep *a, struct rdma_ep *b,
		 const struct ep_opts *oa, const struct ep_opts *ob)
{
	assert_int_equal(ep_pair(a, A.pd, oa, b, B.pd, ob), 0);
}

static void one_wc(struct rdma_ep *ep, struct ibv_wc *wc,
		   enum ibv_wc_status status)
{
	assert_int_equal(ep_poll(ep, wc, 1), 1);
	assert_int_equal(wc->status, status);
	assert_int_equal(wc->qp_num, ep->qpn);
}

static void clear(void)
{
	memset(A.buf, 0, BUF_SZ);
	memset(B.buf, 0, BUF_SZ);
}

/* Every ibv_post_send opcode of RC, bytes and completions checked. */
static void test_rc_post_send(void **state)
{
	struct ep_opts o = { .type = IBV_QPT_RC, .max_inline = 64 };
	uint64_t *remote = (uint64_t *)(B.buf + 60000);
	uint64_t *old = (uint64_t *)(A.buf + 60000);
	struct rdma_ep a, b;
	struct ibv_wc wc;

	pair(&a, &b, &o, &o);
	clear();
	fill_pattern(A.buf, 4096, 1);
	assert_int_equal(ep_post(&a, IBV_WR_RDMA_WRITE, A.buf, 4096,
				 A.mr->lkey, (uintptr_t)B.buf, B.mr->rkey,
				 IBV_SEND_SIGNALED, 11),
			 0);
	one_wc(&a, &wc, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 11);
	assert_int_equal(wc.opcode, IBV_WC_RDMA_WRITE);
	assert_memory_equal(B.buf, A.buf, 4096);

	/* SEND into a posted receive. */
	assert_int_equal(ep_recv(&b, B.buf + 8192, 2048, B.mr->lkey, 21), 0);
	fill_pattern(A.buf + 4096, 1000, 2);
	assert_int_equal(ep_post(&a, IBV_WR_SEND, A.buf + 4096, 1000,
				 A.mr->lkey, 0, 0, IBV_SEND_SIGNALED, 12),
			 0);
	one_wc(&a, &wc, IBV_WC_SUCCESS);
	assert_int_equal(wc.opcode, IBV_WC_SEND);
	one_wc(&b, &wc, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 21);
	assert_int_equal(wc.opcode, IBV_WC_RECV);
	assert_int_equal(wc.byte_len, 1000);
	assert_int_equal(wc.src_qp, a.qpn);
	assert_memory_equal(B.buf + 8192, A.buf + 4096, 1000);

	/* Inline SEND with immediate. */
	assert_int_equal(ep_recv(&b, B.buf + 12288, 64, B.mr->lkey, 22), 0);
	memcpy(A.buf + 5200, "inline and immediate", 20);
	{
		struct ibv_sge sge = { (uintptr_t)A.buf + 5200, 20, 0 };
		struct ibv_send_wr wr = {
			.wr_id = 13, .sg_list = &sge, .num_sge = 1,
			.opcode = IBV_WR_SEND_WITH_IMM,
			.send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE,
			.imm_data = htobe32(0x1234abcd),
		}, *bad;

		assert_int_equal(ibv_post_send(a.qp, &wr, &bad), 0);
	}
	one_wc(&a, &wc, IBV_WC_SUCCESS);
	one_wc(&b, &wc, IBV_WC_SUCCESS);
	assert_int_equal(wc.wc_flags & IBV_WC_WITH_IMM, IBV_WC_WITH_IMM);
	assert_int_equal(wc.imm_data, htobe32(0x1234abcd));
	assert_memory_equal(B.buf + 12288, "inline and immediate", 20);

	/* WRITE_WITH_IMM consumes a receive on the target. */
	assert_int_equal(ep_recv(&b, NULL, 0, B.mr->lkey, 23), 0);
	assert_int_equal(ep_post(&a, IBV_WR_RDMA_WRITE_WITH_IMM, A.buf, 512,
				 A.mr->lkey, (uintptr_t)B.buf + 16384,
				 B.mr->rkey, IBV_SEND_SIGNALED, 14),
			 0);
	one_wc(&a, &wc, IBV_WC_SUCCESS);
	one_wc(&b, &wc, IBV_WC_SUCCESS);
	assert_int_equal(wc.opcode, IBV_WC_RECV_RDMA_WITH_IMM);
	assert_int_equal(wc.byte_len, 512);
	assert_memory_equal(B.buf + 16384, A.buf, 512);

	/* READ back what was written. */
	assert_int_equal(ep_post(&a, IBV_WR_RDMA_READ, A.buf + 20480, 4096,
				 A.mr->lkey, (uintptr_t)B.buf, B.mr->rkey,
				 IBV_SEND_SIGNALED, 15),
			 0);
	one_wc(&a, &wc, IBV_WC_SUCCESS);
	assert_int_equal(wc.opcode, IBV_WC_RDMA_READ);
	assert_int_equal(wc.byte_len, 4096);
	assert_memory_equal(A.buf + 20480, A.buf, 4096);

	/* Atomics: CS 5 -> 9 returns 5, FA +3 returns 9, leaves 12. */
	*remote = 5;
	assert_int_equal(ep_atomic(&a, IBV_WR_ATOMIC_CMP_AND_SWP, old,
				   A.mr->lkey, (uintptr_t)remote, B.mr->rkey,
				   5, 9, IBV_SEND_SIGNALED),
			 0);
	one_wc(&a, &wc, IBV_WC_SUCCESS);
	assert_int_equal(wc.opcode, IBV_WC_COMP_SWAP);
	assert_int_equal(*old, 5);
	assert_int_equal(ep_atomic(&a, IBV_WR_ATOMIC_FETCH_AND_ADD, old,
				   A.mr->lkey, (uintptr_t)remote, B.mr->rkey,
				   3, 0, IBV_SEND_SIGNALED),
			 0);
	one_wc(&a, &wc, IBV_WC_SUCCESS);
	assert_int_equal(wc.opcode, IBV_WC_FETCH_ADD);
	assert_int_equal(*old, 9);
	assert_int_equal(*remote, 12);
	ep_close(&a);
	ep_close(&b);
}

/* Unsignaled WRs complete silently; a fenced WR waits for the READ. */
static void test_signaling_and_fence(void **state)
{
	struct ep_opts o = { .type = IBV_QPT_RC };
	struct rdma_ep a, b;
	struct ibv_wc wc[4];
	int i;

	pair(&a, &b, &o, &o);
	clear();
	fill_pattern(A.buf, 16384, 3);
	for (i = 0; i < 4; i++)
		assert_int_equal(ep_post(&a, IBV_WR_RDMA_WRITE,
					 A.buf + i * 4096, 4096, A.mr->lkey,
					 (uintptr_t)B.buf + i * 4096,
					 B.mr->rkey,
					 i == 3 ? IBV_SEND_SIGNALED : 0, 30 + i),
				 0);
	assert_int_equal(ep_poll(&a, wc, 4), 1);
	assert_int_equal(wc[0].wr_id, 33);
	assert_memory_equal(B.buf, A.buf, 16384);

	fill_pattern(B.buf + 32768, 256, 4);
	assert_int_equal(ep_post(&a, IBV_WR_RDMA_READ, A.buf + 32768, 256,
				 A.mr->lkey, (uintptr_t)B.buf + 32768,
				 B.mr->rkey, IBV_SEND_SIGNALED, 40),
			 0);
	assert_int_equal(ep_post(&a, IBV_WR_RDMA_WRITE, A.buf + 32768, 256,
				 A.mr->lkey, (uintptr_t)B.buf + 40960,
				 B.mr->rkey,
				 IBV_SEND_SIGNALED | IBV_SEND_FENCE, 41),
			 0);
	assert_int_equal(ep_poll(&a, wc, 2), 2);
	assert_int_equal(wc[0].wr_id, 40);
	assert_int_equal(wc[1].wr_id, 41);
	/* The WRITE sent what the READ had brought. */
	assert_memory_equal(B.buf + 40960, B.buf + 32768, 256);
	ep_close(&a);
	ep_close(&b);
}

/* The same operations through ibv_wr_* and the ibv_cq_ex poll API. */
static void test_rc_wr_api(void **state)
{
	struct ep_opts o = { .type = IBV_QPT_RC, .qp_ex = true, .cq_ex = true,
			     .max_inline = 64 };
	struct ibv_poll_cq_attr pa = {};
	uint64_t *remote = (uint64_t *)(B.buf + 60000);
	struct rdma_ep a, b;
	struct ibv_qp_ex *x;
	long spins;
	int n = 0, err;

	pair(&a, &b, &o, &o);
	clear();
	x = a.qpx;
	assert_non_null(x);
	fill_pattern(A.buf, 8192, 5);
	memcpy(A.buf + 9000, "by inline", 9);
	*remote = 100;
	ibv_wr_start(x);
	x->wr_id = 1;
	x->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_rdma_write(x, B.mr->rkey, (uintptr_t)B.buf);
	ibv_wr_set_sge(x, A.mr->lkey, (uintptr_t)A.buf, 8192);
	x->wr_id = 2;
	ibv_wr_rdma_write(x, B.mr->rkey, (uintptr_t)B.buf + 9000);
	ibv_wr_set_inline_data(x, A.buf + 9000, 9);
	x->wr_id = 3;
	ibv_wr_atomic_fetch_add(x, B.mr->rkey, (uintptr_t)remote, 7);
	ibv_wr_set_sge(x, A.mr->lkey, (uintptr_t)A.buf + 10000, 8);
	x->wr_id = 4;
	ibv_wr_rdma_read(x, B.mr->rkey, (uintptr_t)B.buf);
	ibv_wr_set_sge(x, A.mr->lkey, (uintptr_t)A.buf + 16384, 8192);
	assert_int_equal(ibv_wr_complete(x), 0);

	/* Four completions, in order, through start/next/end_poll. */
	for (err = ENOENT, spins = 0; err == ENOENT && spins < 100000000;
	     spins++)
		err = ibv_start_poll(a.cq_ex, &pa);
	assert_int_equal(err, 0);
	while (!err) {
		assert_int_equal(a.cq_ex->status, IBV_WC_SUCCESS);
		assert_int_equal(a.cq_ex->wr_id, (uint64_t)++n);
		assert_int_equal(ibv_wc_read_qp_num(a.cq_ex), a.qpn);
		if (n == 4) {
			assert_int_equal(ibv_wc_read_opcode(a.cq_ex),
					 IBV_WC_RDMA_READ);
			assert_int_equal(ibv_wc_read_byte_len(a.cq_ex), 8192);
		}
		do
			err = ibv_next_poll(a.cq_ex);
		while (err == ENOENT && n < 4 && spins++ < 200000000);
	}
	ibv_end_poll(a.cq_ex);
	assert_int_equal(n, 4);
	assert_memory_equal(B.buf, A.buf, 8192);
	assert_memory_equal(B.buf + 9000, "by inline", 9);
	assert_int_equal(*(uint64_t *)(A.buf + 10000), 100);
	assert_int_equal(*remote, 107);
	assert_memory_equal(A.buf + 16384, A.buf, 8192);

	/* An error in the batch posts nothing. */
	ibv_wr_start(x);
	ibv_wr_rdma_write(x, B.mr->rkey, (uintptr_t)B.buf);
	ibv_wr_set_inline_data(x, A.buf, 4096); /* > max_inline_data */
	assert_int_equal(ibv_wr_complete(x), ENOMEM);
	ep_close(&a);
	ep_close(&b);
}

static void test_uc(void **state)
{
	struct ep_opts o = { .type = IBV_QPT_UC };
	struct rdma_ep a, b;
	struct ibv_wc wc;

	pair(&a, &b, &o, &o);
	clear();
	fill_pattern(A.buf, 3000, 6);
	assert_int_equal(ep_post(&a, IBV_WR_RDMA_WRITE, A.buf, 3000,
				 A.mr->lkey, (uintptr_t)B.buf, B.mr->rkey,
				 IBV_SEND_SIGNALED, 1),
			 0);
	one_wc(&a, &wc, IBV_WC_SUCCESS);
	assert_int_equal(ep_recv(&b, B.buf + 4096, 4096, B.mr->lkey, 2), 0);
	assert_int_equal(ep_post(&a, IBV_WR_SEND, A.buf, 3000, A.mr->lkey, 0,
				 0, IBV_SEND_SIGNALED, 3),
			 0);
	one_wc(&a, &wc, IBV_WC_SUCCESS);
	one_wc(&b, &wc, IBV_WC_SUCCESS);
	assert_int_equal(wc.byte_len, 3000);
	assert_memory_equal(B.buf, A.buf, 3000);
	assert_memory_equal(B.buf + 4096, A.buf, 3000);
	/* UC has no READ: the post fails. */
	assert_int_equal(ep_post(&a, IBV_WR_RDMA_READ, A.buf, 8, A.mr->lkey,
				 (uintptr_t)B.buf, B.mr->rkey, 0, 4),
			 EINVAL);
	ep_close(&a);
	ep_close(&b);
}

/* UD: address vector per WR, the 40-byte GRH room on the receiver. */
static void test_ud(void **state)
{
	struct ep_opts o = { .type = IBV_QPT_UD, .qp_ex = true };
	struct ibv_ah_attr aa = { .port_num = 1 };
	struct rdma_ep a, b;
	struct ibv_ah *ah;
	struct ibv_wc wc;

	pair(&a, &b, &o, &o);
	clear();
	aa.dlid = b.lid;
	ah = ibv_create_ah(A.pd, &aa);
	assert_non_null(ah);
	fill_pattern(A.buf, 512, 7);
	assert_int_equal(ep_recv(&b, B.buf, 40 + 1024, B.mr->lkey, 5), 0);
	assert_int_equal(ep_recv(&b, B.buf + 2048, 40 + 1024, B.mr->lkey, 6),
			 0);
	{
		struct ibv_sge sge = { (uintptr_t)A.buf, 512, A.mr->lkey };
		struct ibv_send_wr wr = { .wr_id = 1, .sg_list = &sge,
					  .num_sge = 1, .opcode = IBV_WR_SEND,
					  .send_flags = IBV_SEND_SIGNALED },
				   *bad;

		wr.wr.ud.ah = ah;
		wr.wr.ud.remote_qpn = b.qpn;
		wr.wr.ud.remote_qkey = EP_QKEY;
		assert_int_equal(ibv_post_send(a.qp, &wr, &bad), 0);
	}
	one_wc(&a, &wc, IBV_WC_SUCCESS);
	one_wc(&b, &wc, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 5);
	assert_int_equal(wc.byte_len, 40 + 512);
	assert_int_equal(wc.src_qp, a.qpn);
	assert_int_equal(wc.slid, a.lid);
	assert_memory_equal(B.buf + 40, A.buf, 512);
	/* The same through ibv_wr_* with the address setter. */
	ibv_wr_start(a.qpx);
	a.qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send(a.qpx);
	ibv_wr_set_ud_addr(a.qpx, ah, b.qpn, EP_QKEY);
	ibv_wr_set_sge(a.qpx, A.mr->lkey, (uintptr_t)A.buf + 100, 100);
	assert_int_equal(ibv_wr_complete(a.qpx), 0);
	one_wc(&a, &wc, IBV_WC_SUCCESS);
	one_wc(&b, &wc, IBV_WC_SUCCESS);
	assert_int_equal(wc.byte_len, 140);
	assert_memory_equal(B.buf + 2048 + 40, A.buf + 100, 100);
	assert_int_equal(ibv_destroy_ah(ah), 0);
	ep_close(&a);
	ep_close(&b);
}

static void test_srq(void **state)
{
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 8,
						  .max_sge = 1 } };
	struct ep_opts oa = { .type = IBV_QPT_RC }, ob = oa;
	struct ibv_sge sge;
	struct ibv_recv_wr rw = { .sg_list = &sge, .num_sge = 1 }, *bad;
	struct rdma_ep a, b;
	struct ibv_srq *srq;
	struct ibv_wc wc;
	int i;

	srq = ibv_create_srq(B.pd, &sa);
	assert_non_null(srq);
	assert_true(sa.attr.max_wr >= 8);
	ob.srq = srq;
	pair(&a, &b, &oa, &ob);
	clear();
	for (i = 0; i < 4; i++) {
		sge = (struct ibv_sge){ (uintptr_t)B.buf + i * 1024, 1024,
					B.mr->lkey };
		rw.wr_id = 50 + i;
		assert_int_equal(ibv_post_srq_recv(srq, &rw, &bad), 0);
	}
	fill_pattern(A.buf, 4096, 8);
	for (i = 0; i < 4; i++)
		assert_int_equal(ep_post(&a, IBV_WR_SEND, A.buf + i * 1024,
					 1024, A.mr->lkey, 0, 0,
					 IBV_SEND_SIGNALED, i),
				 0);
	assert_int_equal(ep_poll(&a, &wc, 1), 1);
	for (i = 0; i < 4; i++) {
		one_wc(&b, &wc, IBV_WC_SUCCESS);
		assert_int_equal(wc.wr_id, 50 + i);
		assert_int_equal(wc.byte_len, 1024);
	}
	assert_memory_equal(B.buf, A.buf, 4096);
	ep_close(&a);
	ep_close(&b);
	assert_int_equal(ibv_destroy_srq(srq), 0);
}

/* A bad rkey fails on the requester; the QP then flushes. */
static void test_error_completion(void **state)
{
	struct ep_opts o = { .type = IBV_QPT_RC };
	struct rdma_ep a, b;
	struct ibv_wc wc;

	pair(&a, &b, &o, &o);
	assert_int_equal(ep_post(&a, IBV_WR_RDMA_WRITE, A.buf, 64, A.mr->lkey,
				 (uintptr_t)B.buf, B.mr->rkey ^ 0x80,
				 IBV_SEND_SIGNALED, 60),
			 0);
	one_wc(&a, &wc, IBV_WC_REM_ACCESS_ERR);
	assert_int_equal(wc.wr_id, 60);
	assert_int_equal(ep_post(&a, IBV_WR_RDMA_WRITE, A.buf, 64, A.mr->lkey,
				 (uintptr_t)B.buf, B.mr->rkey,
				 IBV_SEND_SIGNALED, 61),
			 0);
	one_wc(&a, &wc, IBV_WC_WR_FLUSH_ERR);
	assert_int_equal(wc.wr_id, 61);
	ep_close(&a);
	ep_close(&b);
}

/* Arming: one event per arm, delivered on the channel. */
static void test_events(void **state)
{
	struct ep_opts oa = { .type = IBV_QPT_RC };
	struct ep_opts ob = { .type = IBV_QPT_RC, .channel = true };
	struct rdma_ep a, b;
	struct ibv_cq *ev_cq;
	void *ev_ctx;
	struct ibv_wc wc;
	int i;

	pair(&a, &b, &oa, &ob);
	for (i = 0; i < 2; i++) {
		assert_int_equal(ibv_req_notify_cq(b.cq, 0), 0);
		assert_int_equal(ep_recv(&b, B.buf, 64, B.mr->lkey, 70 + i),
				 0);
		assert_int_equal(ep_post(&a, IBV_WR_SEND, A.buf, 64,
					 A.mr->lkey, 0, 0, IBV_SEND_SIGNALED,
					 80 + i),
				 0);
		assert_int_equal(ibv_get_cq_event(b.channel, &ev_cq, &ev_ctx),
				 0);
		assert_ptr_equal(ev_cq, b.cq);
		ibv_ack_cq_events(b.cq, 1);
		one_wc(&b, &wc, IBV_WC_SUCCESS);
		assert_int_equal(wc.wr_id, 70 + i);
		one_wc(&a, &wc, IBV_WC_SUCCESS);
	}
	ep_close(&a);
	ep_close(&b);
}

/*
 * Resize of a connected pair's CQ: to the size it has is 0, a negative
 * size EINVAL, a larger one takes effect and the CQ keeps working
 * (mlx5_cq_resize checks the hand-over of queued CQEs in detail).
 */
static void test_resize(void **state)
{
	struct ep_opts o = { .type = IBV_QPT_RC };
	struct rdma_ep a, b;
	struct ibv_wc wc;
	int cqe;

	pair(&a, &b, &o, &o);
	cqe = a.cq->cqe;
	assert_int_equal(ibv_resize_cq(a.cq, cqe), 0);
	assert_int_equal(a.cq->cqe, cqe);
	assert_int_equal(ibv_resize_cq(a.cq, -1), EINVAL);
	assert_int_equal(ibv_resize_cq(a.cq, 200), 0);
	assert_true(a.cq->cqe >= 200);
	assert_int_equal(ep_post(&a, IBV_WR_RDMA_WRITE, A.buf, 64, A.mr->lkey,
				 (uintptr_t)B.buf, B.mr->rkey,
				 IBV_SEND_SIGNALED, 72),
			 0);
	one_wc(&a, &wc, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 72);
	ep_close(&a);
	ep_close(&b);
}

/* An RC pair whose side a's SQ and CQ are opened with mlx5dv_init_obj. */
static void dv_pair(struct rdma_ep *a, struct rdma_ep *b, struct mlx5dv_qp *dq,
		    struct mlx5dv_cq *dc)
{
	struct ep_opts o = { .type = IBV_QPT_RC };
	struct mlx5dv_obj obj = { .qp = { .out = dq }, .cq = { .out = dc } };

	pair(a, b, &o, &o);
	clear();
	obj.qp.in = a->qp;
	obj.cq.in = a->cq;
	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_QP | MLX5DV_OBJ_CQ),
			 0);
}

/* Hand-written WQE number idx of a's SQ: an RDMA WRITE of len bytes at off
 * (A.buf to B.buf), or a NOP when len is 0. */
static void put_wqe(const struct rdma_ep *a, const struct mlx5dv_qp *dq,
		    uint16_t idx, uint32_t off, uint32_t len, uint8_t ce)
{
	struct mlx5_wqe_ctrl_seg *ctrl =
		(void *)((uint8_t *)dq->sq.buf +
			 (size_t)(idx & (dq->sq.wqe_cnt - 1)) * 64);
	struct mlx5_wqe_raddr_seg *raddr = (void *)(ctrl + 1);

	if (!len) {
		mlx5dv_set_ctrl_seg(ctrl, idx, MLX5_OPCODE_NOP, 0, a->qpn, ce,
				    1, 0, 0);
		return;
	}
	mlx5dv_set_ctrl_seg(ctrl, idx, MLX5_OPCODE_RDMA_WRITE, 0, a->qpn, ce,
			    3, 0, 0);
	raddr->raddr = htobe64((uintptr_t)B.buf + off);
	raddr->rkey = htobe32(B.mr->rkey);
	raddr->reserved = 0;
	mlx5dv_set_data_seg((struct mlx5_wqe_data_seg *)(raddr + 1), len,
			    A.mr->lkey, (uintptr_t)A.buf + off);
}

/* Ring the SQ doorbell: record first, then the first 8 bytes of WQE 0 to
 * the BlueFlame register (the engine reads the ring, not these bytes). */
static void ring_sq(const struct mlx5dv_qp *dq, uint32_t pi)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	dq->dbrec[MLX5_SND_DBR] = htobe32(pi);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	*(volatile uint64_t *)dq->bf.reg = *(uint64_t *)dq->sq.buf;
}

/* CQE number i of a 64-byte-CQE ring, once the HCA wrote it (10 s). */
static struct mlx5_cqe64 *wait_cqe(const struct mlx5dv_cq *dc, unsigned int i)
{
	struct mlx5_cqe64 *cqe = (void *)((uint8_t *)dc->buf + i * 64);
	int spins = 0;

	/* Nothing polls through the library: the engine thread serves it. */
	while (mlx5dv_get_cqe_opcode(cqe) == MLX5_CQE_INVALID &&
	       spins++ < 10000) {
		usleep(1000);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
	}
	return cqe;
}

/*
 * mlx5dv_init_obj exposes the rings; a WQE written by hand with the
 * mlx5dv.h helpers is executed, and its CQE read by hand.
 */
static void test_dv_by_hand(void **state)
{
	struct mlx5dv_qp dq = {};
	struct mlx5dv_cq dc = {};
	struct mlx5_cqe64 *cqe;
	struct rdma_ep a, b;

	dv_pair(&a, &b, &dq, &dc);
	assert_non_null(dq.dbrec);
	assert_int_equal(dq.sq.stride, 64);
	assert_true(dq.sq.wqe_cnt && !(dq.sq.wqe_cnt & (dq.sq.wqe_cnt - 1)));
	assert_non_null(dq.bf.reg);
	assert_int_equal(dc.cqe_size, 64);
	assert_int_equal(dc.cqe_cnt, (uint32_t)a.cq->cqe + 1);
	assert_non_null(dc.cq_uar);

	fill_pattern(A.buf, 512, 9);
	put_wqe(&a, &dq, 0, 0, 512, MLX5_WQE_CTRL_CQ_UPDATE);
	ring_sq(&dq, 1);
	cqe = wait_cqe(&dc, 0);
	assert_int_equal(mlx5dv_get_cqe_opcode(cqe), MLX5_CQE_REQ);
	assert_int_equal(mlx5dv_get_cqe_owner(cqe), 0);
	assert_int_equal(be16toh(cqe->wqe_counter), 0);
	assert_int_equal(be32toh(cqe->sop_drop_qpn) & 0xffffff, a.qpn);
	assert_int_equal(be32toh(cqe->sop_drop_qpn) >> 24,
			 MLX5_OPCODE_RDMA_WRITE);
	dc.dbrec[0] = htobe32(1);
	assert_memory_equal(B.buf, A.buf, 512);
	ep_close(&a);
	ep_close(&b);
}

/*
 * A SEND WQE written by hand with DS count 0 does not even cover its
 * control segment: the HCA takes it as malformed, a local QP operation
 * error (its CQE's syndrome), and the QP goes to ERR. It is no zero-length
 * SEND: the peer's receive stays posted.
 */
static void test_dv_ds_zero(void **state)
{
	struct mlx5dv_qp dq = {};
	struct mlx5dv_cq dc = {};
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;
	struct mlx5_wqe_ctrl_seg *ctrl;
	struct mlx5_cqe64 *cqe;
	struct rdma_ep a, b;
	struct ibv_wc wc;

	dv_pair(&a, &b, &dq, &dc);
	assert_int_equal(ep_recv(&b, B.buf, 64, B.mr->lkey, 5), 0);
	ctrl = dq.sq.buf;
	mlx5dv_set_ctrl_seg(ctrl, 0, MLX5_OPCODE_SEND, 0, a.qpn,
			    MLX5_WQE_CTRL_CQ_UPDATE, 0, 0, 0);
	ring_sq(&dq, 1);

	cqe = wait_cqe(&dc, 0);
	assert_int_equal(mlx5dv_get_cqe_opcode(cqe), MLX5_CQE_REQ_ERR);
	/* struct mlx5_err_cqe: the syndrome is byte 55 */
	assert_int_equal(((uint8_t *)cqe)[55],
			 MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
	assert_int_equal(be16toh(cqe->wqe_counter), 0);
	assert_int_equal(be32toh(cqe->sop_drop_qpn) & 0xffffff, a.qpn);
	dc.dbrec[0] = htobe32(1);
	assert_int_equal(ibv_query_qp(a.qp, &attr, IBV_QP_STATE, &init), 0);
	assert_int_equal(attr.qp_state, IBV_QPS_ERR);
	/* Nothing reached the peer: its receive is still there. */
	assert_int_equal(ibv_poll_cq(b.cq, 1, &wc), 0);
	ep_close(&a);
	ep_close(&b);
}

/*
 * The NOP WQE (UCX posts them): it moves no data and completes in SQ
 * order, a CQE with its own wqe_counter and opcode when signaled. Posted
 * by hand: NOP first in the SQ, NOP behind an unsignaled WRITE, an
 * unsignaled NOP, then a signaled WRITE; the CQEs are 0, 2, 4 and no more.
 */
static void test_dv_nop(void **state)
{
	static const struct {
		uint32_t off, len;
		uint8_t ce;
	} wqe[] = {
		{ 0, 0, MLX5_WQE_CTRL_CQ_UPDATE },
		{ 0, 512, 0 },
		{ 0, 0, MLX5_WQE_CTRL_CQ_UPDATE },
		{ 0, 0, 0 },
		{ 1024, 256, MLX5_WQE_CTRL_CQ_UPDATE },
	};
	static const uint16_t want_idx[] = { 0, 2, 4 };
	static uint8_t zero[BUF_SZ];
	struct mlx5dv_qp dq = {};
	struct mlx5dv_cq dc = {};
	struct mlx5_cqe64 *cqe;
	struct rdma_ep a, b;
	unsigned int i;

	dv_pair(&a, &b, &dq, &dc);
	assert_true(dq.sq.wqe_cnt >= 8 && dc.cqe_cnt >= 4);
	fill_pattern(A.buf, 2048, 5);
	for (i = 0; i < sizeof(wqe) / sizeof(wqe[0]); i++)
		put_wqe(&a, &dq, (uint16_t)i, wqe[i].off, wqe[i].len,
			wqe[i].ce);
	ring_sq(&dq, i);
	for (i = 0; i < sizeof(want_idx) / sizeof(want_idx[0]); i++) {
		cqe = wait_cqe(&dc, i);
		assert_int_equal(mlx5dv_get_cqe_opcode(cqe), MLX5_CQE_REQ);
		assert_int_equal(mlx5dv_get_cqe_owner(cqe), 0);
		assert_int_equal(be16toh(cqe->wqe_counter), want_idx[i]);
		assert_int_equal(be32toh(cqe->sop_drop_qpn) & 0xffffff, a.qpn);
		assert_int_equal(be32toh(cqe->sop_drop_qpn) >> 24,
				 want_idx[i] == 4 ? MLX5_OPCODE_RDMA_WRITE
						  : MLX5_OPCODE_NOP);
		assert_int_equal(be32toh(cqe->byte_cnt), 0);
	}
	usleep(20000); /* room for a wrong fourth CQE to land */
	cqe = (struct mlx5_cqe64 *)((uint8_t *)dc.buf + i * 64);
	assert_int_equal(mlx5dv_get_cqe_opcode(cqe), MLX5_CQE_INVALID);
	dc.dbrec[0] = htobe32(i);
	/* the WRITEs' bytes and nothing else */
	assert_memory_equal(B.buf, A.buf, 512);
	assert_memory_equal(B.buf + 512, zero, 512);
	assert_memory_equal(B.buf + 1024, A.buf + 1024, 256);
	assert_memory_equal(B.buf + 1280, zero, BUF_SZ - 1280);
	ep_close(&a);
	ep_close(&b);
}

static void test_dv_srq(void **state)
{
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 10,
						  .max_sge = 2 } };
	struct mlx5dv_srq ds = { .comp_mask = MLX5DV_SRQ_MASK_SRQN };
	struct mlx5dv_obj obj = { .srq = { .out = &ds } };
	obj.srq.in = ibv_create_srq(B.pd, &sa);
	assert_non_null(obj.srq.in);
	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_SRQ), 0);
	/* 16-byte next segment + 2 SGEs, rounded to a power of two. */
	assert_int_equal(ds.stride, 64);
	assert_int_equal(ds.comp_mask, MLX5DV_SRQ_MASK_SRQN);
	assert_int_equal(ds.tail, sa.attr.max_wr);
	assert_int_equal(ibv_destroy_srq(obj.srq.in), 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rc_post_send),
		cmocka_unit_test(test_signaling_and_fence),
		cmocka_unit_test(test_rc_wr_api),
		cmocka_unit_test(test_uc),
		cmocka_unit_test(test_ud),
		cmocka_unit_test(test_srq),
		cmocka_unit_test(test_error_completion),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_resize),
		cmocka_unit_test(test_dv_by_hand),
		cmocka_unit_test(test_dv_ds_zero),
		cmocka_unit_test(test_dv_nop),
		cmocka_unit_test(test_dv_srq),
	};

	if (argc > 1)
		ndev = atoi(argv[1]);
	return test_exit_status(
		cmocka_run_group_tests(tests, group_setup, group_teardown));
}
