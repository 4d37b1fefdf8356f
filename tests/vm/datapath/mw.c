// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory windows on a real rxe0 through our provider: type 1 bound with
 * ibv_bind_mw and unbound by a zero-length bind, type 2 bound by
 * IBV_WR_BIND_MW and freed by LOCAL_INV, a WRITE through each window with
 * the bytes read on the other side, the closed window refused, a bind
 * over an MR without MW_BIND refused by the kernel, and a type 1 window
 * of another PD (bound by 6.1, refused by 6.12).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "dp.h"

#define WIN_OFF 1024
#define WIN_LEN 4096

static enum ibv_wc_status write_via(struct dp_end *a, uint32_t rkey,
				    uint32_t len)
{
	struct ibv_send_wr wr;
	struct ibv_sge sge;
	struct ibv_wc wc;

	dp_wr(&wr, &sge, a, IBV_WR_RDMA_WRITE, 0, len, WIN_OFF);
	wr.wr.rdma.rkey = rkey;
	if (dp_post1(a, &wr) || dp_poll(a->cq, &wc) != 1)
		return IBV_WC_GENERAL_ERR;
	return wc.status;
}

/* An MR over @b's buffer that windows may be bound to. */
static struct ibv_mr *bind_mr(struct dp_end *b)
{
	struct ibv_mr *mr =
		ibv_reg_mr(dp.pd, b->buf, DP_BUF,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND);

	dp_check("mw.mr", mr, "MR with MW_BIND failed");
	return mr;
}

/* A window of @type, a connected RC pair and @b's MW_BIND MR; false (and
 * its FAIL row) when any is missing. */
static bool setup(const char *name, enum ibv_mw_type type, struct ibv_mw **mw,
		  struct dp_end *a, struct dp_end *b, struct ibv_mr **mr)
{
	*mw = ibv_alloc_mw(dp.pd, type);
	return dp_check(name, *mw, "ibv_alloc_mw failed") &&
	       dp_pair(name, a, b, IBV_QPT_RC, NULL, 0) && (*mr = bind_mr(b));
}

static void teardown(const char *name, struct ibv_mw *mw, struct ibv_mr *mr,
		     struct dp_end *a, struct dp_end *b)
{
	if (mr)
		ibv_dereg_mr(mr);
	dp_end_destroy(a);
	dp_end_destroy(b);
	if (mw)
		dp_check(name, !ibv_dealloc_mw(mw), "dealloc");
}

static struct ibv_mw_bind_info window(struct ibv_mr *mr, struct dp_end *b)
{
	return (struct ibv_mw_bind_info){mr, (uintptr_t)b->buf + WIN_OFF,
					 WIN_LEN, IBV_ACCESS_REMOTE_WRITE};
}

static void type1(void)
{
	struct ibv_mr *mr = NULL;
	struct ibv_mw *mw;
	struct dp_end a = {0}, b = {0};
	struct ibv_mw_bind bind = {.wr_id = 1, .send_flags = IBV_SEND_SIGNALED};
	struct ibv_wc wc;
	uint32_t key;

	if (!setup("mw.type1.setup", IBV_MW_TYPE_1, &mw, &a, &b, &mr))
		goto out;
	key = mw->rkey;
	bind.bind_info = window(mr, &b);
	dp_check("mw.type1.bind", !ibv_bind_mw(b.qp, mw, &bind),
		 "ibv_bind_mw failed");
	if (dp_expect_wc("mw.type1.bind.wc", b.cq, &wc, IBV_WC_SUCCESS,
			 IBV_WC_BIND_MW, 1))
		dp_check("mw.type1.key", mw->rkey == ibv_inc_rkey(key),
			 "rkey %#x after %#x", mw->rkey, key);
	dp_fill(a.buf, WIN_LEN, 11);
	if (dp_check("mw.type1.write",
		     write_via(&a, mw->rkey, WIN_LEN) == IBV_WC_SUCCESS,
		     "WRITE through the window failed"))
		dp_check("mw.type1.bytes",
			 !memcmp(b.buf + WIN_OFF, a.buf, WIN_LEN),
			 "window bytes differ");
	bind.bind_info.length = 0;
	bind.wr_id = 2;
	dp_check("mw.type1.unbind", !ibv_bind_mw(b.qp, mw, &bind),
		 "zero-length bind failed");
	dp_expect_wc("mw.type1.unbind.wc", b.cq, &wc, IBV_WC_SUCCESS,
		     IBV_WC_BIND_MW, 2);
	dp_check("mw.type1.closed",
		 write_via(&a, mw->rkey, 64) == IBV_WC_REM_ACCESS_ERR,
		 "an unbound window let a WRITE through");
out:
	teardown("mw.type1.dealloc", mw, mr, &a, &b);
}

/* IBV_WR_BIND_MW of @mw on @b with @key over @info; the status. */
static enum ibv_wc_status bind2(struct dp_end *b, struct ibv_mw *mw,
				uint32_t key, struct ibv_mw_bind_info info)
{
	struct ibv_send_wr *bad, wr = {.wr_id = 3,
				       .opcode = IBV_WR_BIND_MW,
				       .send_flags = IBV_SEND_SIGNALED};
	struct ibv_wc wc;

	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = key;
	wr.bind_mw.bind_info = info;
	if (ibv_post_send(b->qp, &wr, &bad) || dp_poll(b->cq, &wc) != 1)
		return IBV_WC_GENERAL_ERR;
	return wc.status;
}

static void type2(void)
{
	struct ibv_mr *mr = NULL;
	struct ibv_mw *mw;
	struct ibv_send_wr *bad, inv = {.wr_id = 4,
					.opcode = IBV_WR_LOCAL_INV,
					.send_flags = IBV_SEND_SIGNALED};
	struct dp_end a = {0}, b = {0};
	struct ibv_wc wc;
	uint32_t key;

	if (!setup("mw.type2.setup", IBV_MW_TYPE_2, &mw, &a, &b, &mr))
		goto out;
	key = ibv_inc_rkey(mw->rkey);
	dp_check("mw.type2.bind",
		 bind2(&b, mw, key, window(mr, &b)) == IBV_WC_SUCCESS,
		 "IBV_WR_BIND_MW failed");
	dp_fill(a.buf, 512, 12);
	if (dp_check("mw.type2.write",
		     write_via(&a, key, 512) == IBV_WC_SUCCESS,
		     "WRITE through the window failed"))
		dp_check("mw.type2.bytes", !memcmp(b.buf + WIN_OFF, a.buf, 512),
			 "window bytes differ");
	inv.invalidate_rkey = key;
	dp_check("mw.type2.local_inv", !ibv_post_send(b.qp, &inv, &bad),
		 "post LOCAL_INV failed");
	dp_expect_wc("mw.type2.local_inv.wc", b.cq, &wc, IBV_WC_SUCCESS,
		     IBV_WC_LOCAL_INV, 4);
	dp_check("mw.type2.closed",
		 write_via(&a, key, 64) == IBV_WC_REM_ACCESS_ERR,
		 "an invalidated window let a WRITE through");
out:
	teardown("mw.type2.dealloc", mw, mr, &a, &b);
}

/* 6.12 and later: the running kernel's version is at least that, or
 * the one $DP_RXE_KERNEL names (rdma-sim's rxe model is the kernel its
 * --kernel says, while uname says the host's). */
static bool kernel_612(void)
{
	const char *v = getenv("DP_RXE_KERNEL");
	struct utsname u;
	int major = 0, minor = 0;

	if (!v)
		v = uname(&u) ? "" : u.release;
	if (sscanf(v, "%d.%d", &major, &minor) != 2)
		return false;
	return major > 6 || (major == 6 && minor >= 12);
}

/*
 * C10-73: the kernel refuses a bind over an MR without MW_BIND. 6.1
 * completes the bind with MW_BIND_ERR; 6.12 moves the QP to ERR first,
 * so the refused bind itself comes back flushed.
 */
static void no_mw_bind(void)
{
	struct ibv_mw *mw = ibv_alloc_mw(dp.pd, IBV_MW_TYPE_2);
	struct dp_end a = {0}, b = {0};
	enum ibv_wc_status st;

	if (mw &&
	    dp_pair("mw.no_bind_right.pair", &a, &b, IBV_QPT_RC, NULL, 0)) {
		st = bind2(&b, mw, ibv_inc_rkey(mw->rkey), window(b.mr, &b));
		dp_check("mw.no_bind_right",
			 st == (kernel_612() ? IBV_WC_WR_FLUSH_ERR
					     : IBV_WC_MW_BIND_ERR),
			 "a bind over an MR without MW_BIND: %s",
			 ibv_wc_status_str(st));
	}
	dp_end_destroy(&a);
	dp_end_destroy(&b);
	if (mw)
		ibv_dealloc_mw(mw);
}

/*
 * C10-72 for a type 1 window too (6.12): a window and MR of another PD
 * bound from this QP. 6.1 binds it; 6.12 refuses it in the requester,
 * which moves the QP to ERR first, so the bind comes back flushed.
 */
static void type1_other_pd(void)
{
	struct ibv_pd *pd = ibv_alloc_pd(dp.ctx);
	struct ibv_mw_bind bind = {.wr_id = 4, .send_flags = IBV_SEND_SIGNALED};
	struct dp_end a = {0}, b = {0};
	struct ibv_mw *mw = NULL;
	struct ibv_mr *mr = NULL;
	struct ibv_wc wc;
	bool k612 = kernel_612();

	if (!dp_check("mw.type1.other_pd.setup",
		      pd && (mw = ibv_alloc_mw(pd, IBV_MW_TYPE_1)) &&
			      dp_pair("mw.type1.other_pd.pair", &a, &b,
				      IBV_QPT_RC, NULL, 0),
		      "a PD, its type 1 window and an RC pair"))
		goto out;
	mr = ibv_reg_mr(pd, b.buf, DP_BUF,
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND);
	if (!dp_check("mw.type1.other_pd.mr", mr, "MR of the window's PD"))
		goto out;
	bind.bind_info = window(mr, &b);
	if (dp_check("mw.type1.other_pd.post", !ibv_bind_mw(b.qp, mw, &bind),
		     "ibv_bind_mw failed"))
		if (dp_expect_wc("mw.type1.other_pd", b.cq, &wc,
				 k612 ? IBV_WC_WR_FLUSH_ERR : IBV_WC_SUCCESS,
				 IBV_WC_BIND_MW, 4))
			dp_check("mw.type1.other_pd", true, "%s",
				 ibv_wc_status_str(wc.status));
out:
	if (mw) /* first: an MR under a bound window is not deregistered */
		ibv_dealloc_mw(mw);
	if (mr)
		ibv_dereg_mr(mr);
	dp_end_destroy(&a);
	dp_end_destroy(&b);
	if (pd)
		ibv_dealloc_pd(pd);
}

void dp_mw(void)
{
	type1();
	type2();
	no_mw_bind();
	type1_other_pd();
}
