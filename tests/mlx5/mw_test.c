// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory windows end to end on rdma-sim: host B binds windows over its MR
 * on its own QP, host A (same device, or mlx5_1 with "2") reads and writes
 * through the window's key. Type 1 (ibv_bind_mw, zero-length unbind) and
 * type 2 (IBV_WR_BIND_MW, ibv_wr_bind_mw, LOCAL_INV, SEND_WITH_INV,
 * dealloc); every rule the HCA enforces gives its error completion; the
 * library's and the kernel's refusals their errno. The bytes are checked on
 * the side that did not move them; the group checks nothing (fd, mapping,
 * PD user) is left behind.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host_pair.h"
#include "skip.h"

#define BUF_SZ	65536
#define WIN_OFF 8192
#define WIN_LEN 16384

static struct host_pair hp;
static int ndev = 1;

static const unsigned int mr_access =
	IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
	IBV_ACCESS_REMOTE_READ | IBV_ACCESS_MW_BIND;

static int group_setup(void **state)
{
	return host_pair_open(&hp, ndev, BUF_SZ, mr_access);
}

static int group_teardown(void **state)
{
	test_teardown_begin();
	assert_true(host_pair_close(&hp));
	return test_teardown_end();
}

/* A QP with the type 2 builders as well. */
static struct ibv_qp *create_qp_mw(struct ibv_context *ctx,
				   struct ibv_qp_init_attr_ex *attr)
{
	attr->comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	attr->send_ops_flags |=
		IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_SEND |
		IBV_QP_EX_WITH_SEND_WITH_INV | IBV_QP_EX_WITH_BIND_MW |
		IBV_QP_EX_WITH_LOCAL_INV;
	return ibv_create_qp_ex(ctx, attr);
}

static void pair(struct rdma_ep *a, struct rdma_ep *b)
{
	struct ep_opts o = {.type = IBV_QPT_RC, .create_qp_ex = create_qp_mw};

	assert_int_equal(ep_pair(a, hp.a.pd, &o, b, hp.b.pd, &o), 0);
	b->qpx = ibv_qp_to_qp_ex(b->qp);
	a->qpx = ibv_qp_to_qp_ex(a->qp);
}

/* Both QPs back from ERR through RESET: same numbers, same windows. */
static void reconnect(struct rdma_ep *a, struct rdma_ep *b)
{
	struct ibv_qp_attr reset = {.qp_state = IBV_QPS_RESET};
	struct ibv_wc wc[8];

	assert_int_equal(ibv_modify_qp(a->qp, &reset, IBV_QP_STATE), 0);
	assert_int_equal(ibv_modify_qp(b->qp, &reset, IBV_QP_STATE), 0);
	while (ibv_poll_cq(a->cq, 8, wc) > 0 || ibv_poll_cq(b->cq, 8, wc) > 0)
		;
	assert_int_equal(ep_connect(a, b->lid, b->qpn), 0);
	assert_int_equal(ep_connect(b, a->lid, a->qpn), 0);
}

static void unpair(struct rdma_ep *a, struct rdma_ep *b)
{
	ep_close(a);
	ep_close(b);
}

static void one_wc(struct rdma_ep *ep, struct ibv_wc *wc,
		   enum ibv_wc_status status)
{
	assert_int_equal(ep_poll(ep, wc, 1), 1);
	assert_int_equal(wc->status, status);
	assert_int_equal(wc->qp_num, ep->qpn);
}

static uint64_t win_addr(void)
{
	return (uintptr_t)hp.b.buf + WIN_OFF;
}

static struct ibv_mw_bind_info win_info(struct ibv_mr *mr, unsigned int acc)
{
	return (struct ibv_mw_bind_info){
		.mr = mr,
		.addr = win_addr(),
		.length = WIN_LEN,
		.mw_access_flags = acc,
	};
}

/* A's WRITE of @len bytes at @raddr under @rkey, its completion status. */
static enum ibv_wc_status write_via(struct rdma_ep *a, uint64_t raddr,
				    uint32_t rkey, uint32_t len)
{
	struct ibv_wc wc;

	assert_int_equal(ep_post(a, IBV_WR_RDMA_WRITE, hp.a.buf, len,
				 hp.a.mr->lkey, raddr, rkey, IBV_SEND_SIGNALED,
				 7),
			 0);
	assert_int_equal(ep_poll(a, &wc, 1), 1);
	return wc.status;
}

/* Type 1 on B's QP; the BIND_MW completion checked. */
static void bind1(struct rdma_ep *b, struct ibv_mw *mw,
		  struct ibv_mw_bind_info info, enum ibv_wc_status status)
{
	struct ibv_mw_bind bind = {
		.wr_id = 0x51,
		.send_flags = IBV_SEND_SIGNALED,
		.bind_info = info,
	};
	struct ibv_wc wc;

	assert_int_equal(ibv_bind_mw(b->qp, mw, &bind), 0);
	one_wc(b, &wc, status);
	assert_int_equal(wc.wr_id, 0x51);
	if (status == IBV_WC_SUCCESS)
		assert_int_equal(wc.opcode, IBV_WC_BIND_MW);
}

/* Type 2 through ibv_post_send with key @rkey; its completion's status. */
static enum ibv_wc_status bind2(struct rdma_ep *b, struct ibv_mw *mw,
				uint32_t rkey, struct ibv_mw_bind_info info)
{
	struct ibv_send_wr *bad, wr = {
					 .wr_id = 0x52,
					 .opcode = IBV_WR_BIND_MW,
					 .send_flags = IBV_SEND_SIGNALED,
				 };
	struct ibv_wc wc;

	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = rkey;
	wr.bind_mw.bind_info = info;
	assert_int_equal(ibv_post_send(b->qp, &wr, &bad), 0);
	assert_int_equal(ep_poll(b, &wc, 1), 1);
	assert_int_equal(wc.wr_id, 0x52);
	if (wc.status == IBV_WC_SUCCESS)
		assert_int_equal(wc.opcode, IBV_WC_BIND_MW);
	return wc.status;
}

/* Bind type 2 @mw over the window with its next key, which it returns. */
static uint32_t bind2_ok(struct rdma_ep *b, struct ibv_mw *mw, unsigned int acc)
{
	uint32_t key = ibv_inc_rkey(mw->rkey);

	assert_int_equal(bind2(b, mw, key, win_info(hp.b.mr, acc)),
			 IBV_WC_SUCCESS);
	return key;
}

static enum ibv_wc_status local_inv(struct rdma_ep *b, uint32_t rkey)
{
	struct ibv_send_wr *bad, wr = {
					 .wr_id = 0x53,
					 .opcode = IBV_WR_LOCAL_INV,
					 .send_flags = IBV_SEND_SIGNALED,
					 .invalidate_rkey = rkey,
				 };
	struct ibv_wc wc;

	assert_int_equal(ibv_post_send(b->qp, &wr, &bad), 0);
	assert_int_equal(ep_poll(b, &wc, 1), 1);
	if (wc.status == IBV_WC_SUCCESS)
		assert_int_equal(wc.opcode, IBV_WC_LOCAL_INV);
	return wc.status;
}

/* Type 1: bind, WRITE and READ through the window, its bounds and
 * rights, then a zero-length bind that takes the access away. */
static void test_type1(void **state)
{
	struct ibv_mw *mw = ibv_alloc_mw(hp.b.pd, IBV_MW_TYPE_1);
	struct rdma_ep a, b;
	uint32_t key0;
	struct ibv_wc wc;

	assert_non_null(mw);
	assert_int_equal(mw->type, IBV_MW_TYPE_1);
	assert_ptr_equal(mw->pd, hp.b.pd);
	key0 = mw->rkey;
	assert_int_not_equal(key0 >> 8, hp.b.mr->rkey >> 8);
	pair(&a, &b);
	/* an unbound window gives nothing */
	assert_int_equal(write_via(&a, win_addr(), mw->rkey, 64),
			 IBV_WC_REM_ACCESS_ERR);
	unpair(&a, &b);

	pair(&a, &b);
	bind1(&b, mw,
	      win_info(hp.b.mr,
		       IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ),
	      IBV_WC_SUCCESS);
	assert_int_equal(mw->rkey, ibv_inc_rkey(key0));
	memset(hp.b.buf, 0, BUF_SZ);
	fill_pattern(hp.a.buf, WIN_LEN, 3);
	assert_int_equal(write_via(&a, win_addr(), mw->rkey, WIN_LEN),
			 IBV_WC_SUCCESS);
	assert_memory_equal(hp.b.buf + WIN_OFF, hp.a.buf, WIN_LEN);
	/* READ back the last 1000 bytes of the window */
	assert_int_equal(ep_post(&a, IBV_WR_RDMA_READ, hp.a.buf + 32768, 1000,
				 hp.a.mr->lkey, win_addr() + WIN_LEN - 1000,
				 mw->rkey, IBV_SEND_SIGNALED, 8),
			 0);
	one_wc(&a, &wc, IBV_WC_SUCCESS);
	assert_memory_equal(hp.a.buf + 32768,
			    hp.b.buf + WIN_OFF + WIN_LEN - 1000, 1000);
	/* one byte past the window, though inside the MR */
	assert_int_equal(write_via(&a, win_addr() + 1, mw->rkey, WIN_LEN),
			 IBV_WC_REM_ACCESS_ERR);
	unpair(&a, &b);

	/* the old key byte is not the window's any more */
	pair(&a, &b);
	assert_int_equal(write_via(&a, win_addr(), key0, 64),
			 IBV_WC_REM_ACCESS_ERR);
	unpair(&a, &b);

	/* zero-length bind: unbound, next key byte */
	pair(&a, &b);
	key0 = mw->rkey;
	bind1(&b, mw,
	      (struct ibv_mw_bind_info){.mr = hp.b.mr, .addr = win_addr()},
	      IBV_WC_SUCCESS);
	assert_int_equal(mw->rkey, ibv_inc_rkey(key0));
	assert_int_equal(write_via(&a, win_addr(), mw->rkey, 64),
			 IBV_WC_REM_ACCESS_ERR);
	unpair(&a, &b);
	assert_int_equal(ibv_dealloc_mw(mw), 0);
}

/* A read-only window refuses WRITE; a write-only one refuses READ. */
static void test_window_rights(void **state)
{
	struct ibv_mw *mw = ibv_alloc_mw(hp.b.pd, IBV_MW_TYPE_1);
	struct rdma_ep a, b;
	struct ibv_wc wc;

	assert_non_null(mw);
	pair(&a, &b);
	bind1(&b, mw, win_info(hp.b.mr, IBV_ACCESS_REMOTE_READ),
	      IBV_WC_SUCCESS);
	assert_int_equal(write_via(&a, win_addr(), mw->rkey, 64),
			 IBV_WC_REM_ACCESS_ERR);
	unpair(&a, &b);
	pair(&a, &b);
	bind1(&b, mw, win_info(hp.b.mr, IBV_ACCESS_REMOTE_WRITE),
	      IBV_WC_SUCCESS);
	assert_int_equal(ep_post(&a, IBV_WR_RDMA_READ, hp.a.buf, 64,
				 hp.a.mr->lkey, win_addr(), mw->rkey,
				 IBV_SEND_SIGNALED, 9),
			 0);
	one_wc(&a, &wc, IBV_WC_REM_ACCESS_ERR);
	unpair(&a, &b);
	assert_int_equal(ibv_dealloc_mw(mw), 0);
}

/* Type 2: the caller's key, LOCAL_INV, rebinding once free. */
static void test_type2_local_inv(void **state)
{
	struct ibv_mw *mw = ibv_alloc_mw(hp.b.pd, IBV_MW_TYPE_2);
	uint32_t key;
	struct rdma_ep a, b;

	assert_non_null(mw);
	pair(&a, &b);
	key = bind2_ok(&b, mw, IBV_ACCESS_REMOTE_WRITE);
	assert_int_not_equal(mw->rkey, key); /* type 2: the caller keeps it */
	memset(hp.b.buf, 0, BUF_SZ);
	fill_pattern(hp.a.buf, 4096, 5);
	assert_int_equal(write_via(&a, win_addr() + 4096, key, 4096),
			 IBV_WC_SUCCESS);
	assert_memory_equal(hp.b.buf + WIN_OFF + 4096, hp.a.buf, 4096);
	/* a bound type 2 window is not free: a second bind fails */
	assert_int_equal(bind2(&b, mw, ibv_inc_rkey(key),
			       win_info(hp.b.mr, IBV_ACCESS_REMOTE_WRITE)),
			 IBV_WC_MW_BIND_ERR);
	reconnect(&a, &b);
	/* the window's key names it; a wrong one invalidates nothing */
	assert_int_equal(local_inv(&b, ibv_inc_rkey(key)), IBV_WC_MW_BIND_ERR);
	reconnect(&a, &b);
	assert_int_equal(write_via(&a, win_addr(), key, 64), IBV_WC_SUCCESS);
	assert_int_equal(local_inv(&b, key), IBV_WC_SUCCESS);
	assert_int_equal(write_via(&a, win_addr(), key, 64),
			 IBV_WC_REM_ACCESS_ERR);
	reconnect(&a, &b);
	/* free again: bind with the next key */
	key = ibv_inc_rkey(key);
	assert_int_equal(
		bind2(&b, mw, key, win_info(hp.b.mr, IBV_ACCESS_REMOTE_WRITE)),
		IBV_WC_SUCCESS);
	assert_int_equal(write_via(&a, win_addr(), key, 64), IBV_WC_SUCCESS);
	unpair(&a, &b);
	/* dealloc frees it bound: the key is gone */
	assert_int_equal(ibv_dealloc_mw(mw), 0);
	pair(&a, &b);
	assert_int_equal(write_via(&a, win_addr(), key, 64),
			 IBV_WC_REM_ACCESS_ERR);
	unpair(&a, &b);
}

/* A's empty SEND_WITH_INV of @key refused by B: REM_INV_REQ both sides. */
static void send_inv_refused(struct rdma_ep *a, struct rdma_ep *b, uint32_t key)
{
	struct ibv_send_wr *bad, wr = {
					 .wr_id = 0x64,
					 .opcode = IBV_WR_SEND_WITH_INV,
					 .send_flags = IBV_SEND_SIGNALED,
					 .invalidate_rkey = key,
				 };
	struct ibv_wc wc;

	assert_int_equal(ep_recv(b, hp.b.buf, 256, hp.b.mr->lkey, 0x63), 0);
	assert_int_equal(ibv_post_send(a->qp, &wr, &bad), 0);
	one_wc(a, &wc, IBV_WC_REM_INV_REQ_ERR);
	one_wc(b, &wc, IBV_WC_REM_INV_REQ_ERR);
	assert_int_equal(wc.wr_id, 0x63);
}

/* SEND_WITH_INV from A frees B's window; the receive says which key. */
static void test_type2_send_inv(void **state)
{
	struct ibv_mw *mw = ibv_alloc_mw(hp.b.pd, IBV_MW_TYPE_2);
	struct ibv_mw *mw1 = ibv_alloc_mw(hp.b.pd, IBV_MW_TYPE_1);
	struct rdma_ep a, b;
	struct ibv_wc wc;
	uint32_t key;

	assert_non_null(mw);
	assert_non_null(mw1);
	pair(&a, &b);
	key = bind2_ok(&b, mw, IBV_ACCESS_REMOTE_WRITE);
	assert_int_equal(ep_recv(&b, hp.b.buf, 256, hp.b.mr->lkey, 0x61), 0);
	memcpy(hp.a.buf, "invalidate that window", 22);
	{
		struct ibv_sge sge = {(uintptr_t)hp.a.buf, 22, hp.a.mr->lkey};
		struct ibv_send_wr *bad,
			wr = {
				.wr_id = 0x62,
				.sg_list = &sge,
				.num_sge = 1,
				.opcode = IBV_WR_SEND_WITH_INV,
				.send_flags = IBV_SEND_SIGNALED,
				.invalidate_rkey = key,
			};

		assert_int_equal(ibv_post_send(a.qp, &wr, &bad), 0);
	}
	one_wc(&a, &wc, IBV_WC_SUCCESS);
	assert_int_equal(wc.opcode, IBV_WC_SEND);
	one_wc(&b, &wc, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, 0x61);
	assert_int_equal(wc.opcode, IBV_WC_RECV);
	assert_int_equal(wc.byte_len, 22);
	assert_int_equal(wc.wc_flags & IBV_WC_WITH_INV, IBV_WC_WITH_INV);
	assert_int_equal(wc.invalidated_rkey, key);
	assert_memory_equal(hp.b.buf, "invalidate that window", 22);
	assert_int_equal(write_via(&a, win_addr(), key, 64),
			 IBV_WC_REM_ACCESS_ERR);
	reconnect(&a, &b);
	/* the key now names a free window: both sides REM_INV_REQ */
	send_inv_refused(&a, &b, key);
	unpair(&a, &b);
	/* a type 1 window cannot be invalidated remotely */
	pair(&a, &b);
	bind1(&b, mw1, win_info(hp.b.mr, IBV_ACCESS_REMOTE_WRITE),
	      IBV_WC_SUCCESS);
	send_inv_refused(&a, &b, mw1->rkey);
	unpair(&a, &b);
	assert_int_equal(ibv_dealloc_mw(mw), 0);
	assert_int_equal(ibv_dealloc_mw(mw1), 0);
}

/* ibv_wr_bind_mw and ibv_wr_local_inv, and a WRITE in the same batch. */
static void test_type2_wr_api(void **state)
{
	struct ibv_mw *mw = ibv_alloc_mw(hp.b.pd, IBV_MW_TYPE_2);
	struct ibv_mw_bind_info info =
		win_info(hp.b.mr, IBV_ACCESS_REMOTE_READ);
	struct rdma_ep a, b;
	struct ibv_wc wc[2];
	uint32_t key;

	assert_non_null(mw);
	key = ibv_inc_rkey(mw->rkey);
	pair(&a, &b);
	ibv_wr_start(b.qpx);
	b.qpx->wr_id = 0x71;
	b.qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_bind_mw(b.qpx, mw, key, &info);
	assert_int_equal(ibv_wr_complete(b.qpx), 0);
	one_wc(&b, &wc[0], IBV_WC_SUCCESS);
	assert_int_equal(wc[0].opcode, IBV_WC_BIND_MW);
	assert_int_equal(wc[0].wr_id, 0x71);
	memset(hp.a.buf, 0, 4096);
	fill_pattern(hp.b.buf + WIN_OFF, 4096, 9);
	assert_int_equal(ep_post(&a, IBV_WR_RDMA_READ, hp.a.buf, 4096,
				 hp.a.mr->lkey, win_addr(), key,
				 IBV_SEND_SIGNALED, 10),
			 0);
	one_wc(&a, &wc[0], IBV_WC_SUCCESS);
	assert_memory_equal(hp.a.buf, hp.b.buf + WIN_OFF, 4096);

	ibv_wr_start(b.qpx);
	b.qpx->wr_id = 0x72;
	b.qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_local_inv(b.qpx, key);
	assert_int_equal(ibv_wr_complete(b.qpx), 0);
	one_wc(&b, &wc[0], IBV_WC_SUCCESS);
	assert_int_equal(wc[0].opcode, IBV_WC_LOCAL_INV);
	assert_int_equal(wc[0].wr_id, 0x72);
	assert_int_equal(ep_post(&a, IBV_WR_RDMA_READ, hp.a.buf, 64,
				 hp.a.mr->lkey, win_addr(), key,
				 IBV_SEND_SIGNALED, 11),
			 0);
	one_wc(&a, &wc[0], IBV_WC_REM_ACCESS_ERR);
	unpair(&a, &b);
	assert_int_equal(ibv_dealloc_mw(mw), 0);
}

/* A type 2 window serves only the QP it was bound through. */
static void test_type2_other_qp(void **state)
{
	struct ibv_mw *mw = ibv_alloc_mw(hp.b.pd, IBV_MW_TYPE_2);
	struct rdma_ep a, b, a2, b2;
	uint32_t key;

	assert_non_null(mw);
	pair(&a, &b);
	pair(&a2, &b2);
	key = bind2_ok(&b, mw, IBV_ACCESS_REMOTE_WRITE);
	assert_int_equal(write_via(&a2, win_addr(), key, 64),
			 IBV_WC_REM_ACCESS_ERR);
	assert_int_equal(write_via(&a, win_addr(), key, 64), IBV_WC_SUCCESS);
	/* another QP cannot invalidate it either */
	reconnect(&a2, &b2);
	assert_int_equal(local_inv(&b2, key), IBV_WC_MW_BIND_ERR);
	assert_int_equal(write_via(&a, win_addr(), key, 64), IBV_WC_SUCCESS);
	unpair(&a2, &b2);
	unpair(&a, &b);
	assert_int_equal(ibv_dealloc_mw(mw), 0);
}

/* What the HCA refuses to bind: each an MW_BIND_ERR completion and the QP
 * in error (the next WR flushes). */
static void test_bind_errors(void **state)
{
	struct ibv_mr *nobind, *noloc;
	struct ibv_mw *mw = ibv_alloc_mw(hp.b.pd, IBV_MW_TYPE_2);
	struct ibv_pd *pd2 = ibv_alloc_pd(hp.b.ctx);
	struct ibv_mw *mw2 = ibv_alloc_mw(pd2, IBV_MW_TYPE_2);
	struct ibv_mw_bind_info info;
	struct rdma_ep a, b;
	uint32_t key;

	assert_non_null(mw);
	assert_non_null(mw2);
	nobind = ibv_reg_mr(hp.b.pd, hp.b.buf, BUF_SZ,
			    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	noloc = ibv_reg_mr(hp.b.pd, hp.b.buf, BUF_SZ,
			   IBV_ACCESS_MW_BIND | IBV_ACCESS_REMOTE_READ);
	assert_non_null(nobind);
	assert_non_null(noloc);
	key = ibv_inc_rkey(mw->rkey);
	struct {
		struct ibv_mw *mw;
		struct ibv_mr *mr;
		uint64_t addr, len;
		unsigned int acc;
	} bad[] = {
		/* C10-73: the MR lacks MW_BIND */
		{mw, nobind, win_addr(), WIN_LEN, IBV_ACCESS_REMOTE_WRITE},
		/* C10-74: remote write needs LOCAL_WRITE on the MR */
		{mw, noloc, win_addr(), WIN_LEN, IBV_ACCESS_REMOTE_WRITE},
		/* C10-75: past the MR's end, before its start */
		{mw, hp.b.mr, win_addr(), BUF_SZ, IBV_ACCESS_REMOTE_WRITE},
		{mw, hp.b.mr, (uintptr_t)hp.b.buf - 4096, 8192,
		 IBV_ACCESS_REMOTE_READ},
		/* C10-72: a window of another PD than the QP's */
		{mw2, hp.b.mr, win_addr(), WIN_LEN, IBV_ACCESS_REMOTE_READ},
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		info = (struct ibv_mw_bind_info){bad[i].mr, bad[i].addr,
						 bad[i].len, bad[i].acc};
		pair(&a, &b);
		assert_int_equal(bind2(&b, bad[i].mw,
				       ibv_inc_rkey(bad[i].mw->rkey), info),
				 IBV_WC_MW_BIND_ERR);
		/* in error now: the next WR is flushed */
		assert_int_equal(local_inv(&b, key), IBV_WC_WR_FLUSH_ERR);
		/* and nothing was bound */
		reconnect(&a, &b);
		assert_int_equal(write_via(&a, bad[i].addr,
					   ibv_inc_rkey(bad[i].mw->rkey), 64),
				 IBV_WC_REM_ACCESS_ERR);
		unpair(&a, &b);
	}
	/* the read-only pair still binds a read-only window */
	pair(&a, &b);
	assert_int_equal(
		bind2(&b, mw, key, win_info(noloc, IBV_ACCESS_REMOTE_READ)),
		IBV_WC_SUCCESS);
	unpair(&a, &b);
	assert_int_equal(ibv_dealloc_mw(mw), 0);
	assert_int_equal(ibv_dealloc_mw(mw2), 0);
	assert_int_equal(ibv_dereg_mr(nobind), 0);
	assert_int_equal(ibv_dereg_mr(noloc), 0);
	assert_int_equal(ibv_dealloc_pd(pd2), 0);
}

/* The MR under a bound window deregistered (mlx5 allows it): the window
 * then leads nowhere. */
static void test_mr_gone_under_window(void **state)
{
	struct ibv_mr *mr = ibv_reg_mr(hp.b.pd, hp.b.buf, BUF_SZ, mr_access);
	struct ibv_mw *mw = ibv_alloc_mw(hp.b.pd, IBV_MW_TYPE_1);
	struct rdma_ep a, b;

	assert_non_null(mr);
	assert_non_null(mw);
	pair(&a, &b);
	bind1(&b, mw, win_info(mr, IBV_ACCESS_REMOTE_WRITE), IBV_WC_SUCCESS);
	assert_int_equal(write_via(&a, win_addr(), mw->rkey, 64),
			 IBV_WC_SUCCESS);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	assert_int_equal(write_via(&a, win_addr(), mw->rkey, 64),
			 IBV_WC_REM_ACCESS_ERR);
	unpair(&a, &b);
	assert_int_equal(ibv_dealloc_mw(mw), 0);
}

/* Refusals before anything is posted: the library's and the kernel's. */
static void test_errnos(void **state)
{
	struct ibv_device_attr attr;
	struct ibv_pd *pd2 = ibv_alloc_pd(hp.b.ctx);
	struct ibv_mr *mr2;
	struct ibv_mw *mw1, *mw2;
	struct ibv_mw_bind bind = {.send_flags = IBV_SEND_SIGNALED};
	struct ep_opts ud = {.type = IBV_QPT_UD};
	struct ibv_send_wr *bad, wr = {.opcode = IBV_WR_LOCAL_INV};
	struct rdma_ep a, b, u;

	assert_non_null(pd2);
	assert_int_equal(ibv_query_device(hp.b.ctx, &attr), 0);
	assert_int_equal(attr.max_mw, 1 << 24);
	assert_true(attr.device_cap_flags & IBV_DEVICE_MEM_WINDOW);
	assert_true(attr.device_cap_flags & IBV_DEVICE_MEM_WINDOW_TYPE_2B);
	errno = 0;
	assert_null(ibv_alloc_mw(hp.b.pd, (enum ibv_mw_type)3));
	assert_int_equal(errno, EINVAL);
	mw1 = ibv_alloc_mw(hp.b.pd, IBV_MW_TYPE_1);
	mw2 = ibv_alloc_mw(hp.b.pd, IBV_MW_TYPE_2);
	mr2 = ibv_reg_mr(pd2, hp.b.buf, 4096, mr_access);
	assert_non_null(mw1);
	assert_non_null(mw2);
	assert_non_null(mr2);
	/* a PD with windows on it is busy */
	assert_int_equal(ibv_dealloc_pd(hp.b.pd), EBUSY);
	pair(&a, &b);
	bind.bind_info = win_info(hp.b.mr, IBV_ACCESS_REMOTE_WRITE);
	assert_int_equal(ibv_bind_mw(b.qp, mw2, &bind), EINVAL);
	bind.bind_info.mr = NULL;
	assert_int_equal(ibv_bind_mw(b.qp, mw1, &bind), EINVAL);
	bind.bind_info = win_info(mr2, IBV_ACCESS_REMOTE_WRITE);
	assert_int_equal(ibv_bind_mw(b.qp, mw1, &bind), EPERM);
	bind.bind_info = win_info(hp.b.mr, IBV_ACCESS_REMOTE_WRITE |
						   IBV_ACCESS_ZERO_BASED);
	assert_int_equal(ibv_bind_mw(b.qp, mw1, &bind), EINVAL);
	/* nothing reached the ring: the key byte is unchanged, no CQE */
	assert_int_equal(ibv_poll_cq(b.cq, 1, (struct ibv_wc[1]){}), 0);
	/* UD has no memory windows */
	assert_int_equal(ep_open(&u, hp.b.ctx, hp.b.pd, &ud), 0);
	assert_int_equal(ep_connect(&u, 0, 0), 0);
	assert_int_equal(ibv_post_send(u.qp, &wr, &bad), EINVAL);
	assert_ptr_equal(bad, &wr);
	ep_close(&u);
	unpair(&a, &b);
	assert_int_equal(ibv_dealloc_mw(mw1), 0);
	assert_int_equal(ibv_dealloc_mw(mw2), 0);
	assert_int_equal(ibv_dereg_mr(mr2), 0);
	assert_int_equal(ibv_dealloc_pd(pd2), 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_type1),
		cmocka_unit_test(test_window_rights),
		cmocka_unit_test(test_type2_local_inv),
		cmocka_unit_test(test_type2_send_inv),
		cmocka_unit_test(test_type2_wr_api),
		cmocka_unit_test(test_type2_other_qp),
		cmocka_unit_test(test_bind_errors),
		cmocka_unit_test(test_mr_gone_under_window),
		cmocka_unit_test(test_errnos),
	};

	if (argc > 1)
		ndev = atoi(argv[1]);
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
