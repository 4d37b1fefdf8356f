// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * On-demand paging on rdma-sim through our libibverbs + libmlx5, checked
 * from the other side of an RC connection:
 *  - the capabilities ibv_query_device_ex reports;
 *  - an explicit ODP MR over pages never touched: registration pins
 *    nothing (mincore: not resident), a peer's RDMA WRITE faults them in
 *    and its bytes arrive; a SEND from it;
 *  - invalidation: after munmap of one page the peer's WRITE there fails
 *    (IBV_WC_REM_ACCESS_ERR) and a local SEND from it too
 *    (IBV_WC_LOC_PROT_ERR); a new mapping at the same address is followed
 *    (READ returns its bytes); a read-only page refuses a remote WRITE;
 *  - implicit ODP (NULL, SIZE_MAX): one key for the whole address space,
 *    local and remote; a non-NULL address with SIZE_MAX is EINVAL;
 *  - ibv_advise_mr: PREFETCH_WRITE with FLUSH makes pages resident,
 *    NO_FAULT leaves them alone, and every bad input's errno;
 *  - fds and mappings after teardown.
 *
 * usage: odp_test NDEV
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "dm_util.h"
#include "check_exit.h"
#include "qp_link.h"
#include "rdma_util.h"

#define PAGES 4
#define DEPTH 16

#define RW                                                                     \
	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |                    \
	 IBV_ACCESS_REMOTE_READ)
#define ODP_RW (RW | IBV_ACCESS_ON_DEMAND)

static size_t page;
static int ndev = 1;

struct side {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	uint8_t *buf; /* plain memory, pinned MR */
	struct ibv_mr *mr;
	uint16_t lid;
};

static void side_open(struct side *s, struct ibv_device *dev)
{
	struct ibv_port_attr pa;

	memset(s, 0, sizeof(*s));
	s->ctx = ibv_open_device(dev);
	CHECK(s->ctx, "open");
	s->pd = ibv_alloc_pd(s->ctx);
	CHECK(s->pd, "pd");
	s->cq = ibv_create_cq(s->ctx, 2 * DEPTH, NULL, NULL, 0);
	CHECK(s->cq, "cq");
	s->buf = aligned_alloc(page, PAGES * page);
	CHECK(s->buf, "alloc");
	memset(s->buf, 0, PAGES * page);
	s->mr = ibv_reg_mr(s->pd, s->buf, PAGES * page, RW);
	CHECK(s->mr, "mr");
	CHECK(!ibv_query_port(s->ctx, 1, &pa), "port");
	s->lid = pa.lid;
}

static void side_close(struct side *s)
{
	CHECK(!ibv_dereg_mr(s->mr), "dereg");
	CHECK(!ibv_destroy_cq(s->cq), "cq");
	CHECK(!ibv_dealloc_pd(s->pd), "pd");
	CHECK(!ibv_close_device(s->ctx), "close");
	free(s->buf);
}

/* A fresh RC pair (an error leaves the old one in ERR). */
static void connect(struct side *a, struct side *b)
{
	struct qp_link l;
	struct side *s[2] = {a, b};
	int i;

	for (i = 0; i < 2; i++) {
		if (s[i]->qp)
			CHECK(!ibv_destroy_qp(s[i]->qp), "destroy qp");
		s[i]->qp = qp_link_rc_qp(s[i]->pd, s[i]->cq, s[i]->cq, DEPTH);
		CHECK(s[i]->qp, "qp");
	}
	for (i = 0; i < 2; i++) {
		l = qp_link_default(s[!i]->qp->qp_num);
		l.dlid = s[!i]->lid;
		l.retry_cnt = 1;
		CHECK(!qp_link_up(s[i]->qp, &l), "link");
	}
}

static struct ibv_wc wait_one(struct ibv_cq *cq)
{
	struct ibv_wc wc;

	CHECK(cq_wait(cq, &wc), "no completion");
	return wc;
}

/* Post one WR on s's QP, wait for its completion; its status. */
static enum ibv_wc_status run(struct side *s, enum ibv_wr_opcode op, void *addr,
			      uint32_t len, uint32_t lkey, uint64_t raddr,
			      uint32_t rkey)
{
	struct rdma_ep ep = {.qp = s->qp, .cq = s->cq};

	CHECK(!ep_post(&ep, op, addr, len, lkey, raddr, rkey, IBV_SEND_SIGNALED,
		       1),
	      "post");
	return wait_one(s->cq).status;
}

static int resident(const void *p, size_t len)
{
	unsigned char vec[PAGES];
	size_t i;
	int n = 0;

	CHECK(!mincore((void *)p, len, vec), "mincore");
	for (i = 0; i < len / page; i++)
		n += vec[i] & 1;
	return n;
}

static uint8_t *fresh_pages(void)
{
	void *p = mmap(NULL, PAGES * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	CHECK(p != MAP_FAILED, "mmap");
	return p;
}

static void caps(struct ibv_context *ctx)
{
	struct ibv_device_attr_ex a;
	const uint32_t rc = IBV_ODP_SUPPORT_SEND | IBV_ODP_SUPPORT_RECV |
			    IBV_ODP_SUPPORT_WRITE | IBV_ODP_SUPPORT_READ |
			    IBV_ODP_SUPPORT_ATOMIC | IBV_ODP_SUPPORT_SRQ_RECV;

	CHECK(!ibv_query_device_ex(ctx, NULL, &a), "query");
	CHECK(a.odp_caps.general_caps ==
		      (IBV_ODP_SUPPORT | IBV_ODP_SUPPORT_IMPLICIT),
	      "general %#llx", (unsigned long long)a.odp_caps.general_caps);
	CHECK(a.odp_caps.per_transport_caps.rc_odp_caps == rc &&
		      a.odp_caps.per_transport_caps.ud_odp_caps ==
			      IBV_ODP_SUPPORT_SEND &&
		      !a.odp_caps.per_transport_caps.uc_odp_caps &&
		      a.xrc_odp_caps == rc,
	      "transport caps");
}

/* Explicit ODP: nothing pinned, faults served, invalidation followed. */
static void explicit_odp(struct side *a, struct side *b)
{
	uint8_t *p = fresh_pages(), *q;
	struct ibv_mr *mr = ibv_reg_mr(a->pd, p, PAGES * page, ODP_RW);

	CHECK(mr, "odp mr");
	CHECK(!resident(p, PAGES * page), "registration touched pages");
	connect(a, b);
	fill_pattern(b->buf, PAGES * page, 11);
	CHECK(run(b, IBV_WR_RDMA_WRITE, b->buf, PAGES * page, b->mr->lkey,
		  (uintptr_t)p, mr->rkey) == IBV_WC_SUCCESS,
	      "write into untouched pages");
	CHECK(resident(p, PAGES * page) == PAGES, "faulted in");
	CHECK(!memcmp(p, b->buf, PAGES * page), "bytes");
	/* a SEND out of the ODP MR */
	{
		struct ibv_sge s = {(uintptr_t)b->buf, page, b->mr->lkey};
		struct ibv_recv_wr r = {.wr_id = 9,
					.sg_list = &s,
					.num_sge = 1},
				   *bad;

		memset(b->buf, 0, page);
		CHECK(!ibv_post_recv(b->qp, &r, &bad), "recv");
		CHECK(run(a, IBV_WR_SEND, p + page, (uint32_t)page, mr->lkey, 0,
			  0) == IBV_WC_SUCCESS,
		      "send");
		CHECK(wait_one(b->cq).status == IBV_WC_SUCCESS, "recv");
		CHECK(!memcmp(b->buf, p + page, page), "sent bytes");
	}
	/* the program unmaps a page: its translation goes */
	q = p + 2 * page;
	CHECK(!munmap(q, page), "munmap");
	CHECK(run(b, IBV_WR_RDMA_WRITE, b->buf, (uint32_t)page, b->mr->lkey,
		  (uintptr_t)q, mr->rkey) == IBV_WC_REM_ACCESS_ERR,
	      "write to an unmapped page");
	connect(a, b);
	CHECK(run(a, IBV_WR_SEND, q, 64, mr->lkey, 0, 0) == IBV_WC_LOC_PROT_ERR,
	      "send from an unmapped page");
	/* a new mapping at that address: the MR follows it */
	CHECK(mmap(q, page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == q,
	      "remap");
	fill_pattern(q, page, 77);
	connect(a, b);
	CHECK(run(b, IBV_WR_RDMA_READ, b->buf, (uint32_t)page, b->mr->lkey,
		  (uintptr_t)q, mr->rkey) == IBV_WC_SUCCESS,
	      "read the new page");
	CHECK(!memcmp(b->buf, q, page), "the new page's bytes");
	/* a page the program made read-only takes no remote write */
	CHECK(!mprotect(q, page, PROT_READ), "mprotect");
	CHECK(run(b, IBV_WR_RDMA_WRITE, b->buf, 8, b->mr->lkey, (uintptr_t)q,
		  mr->rkey) == IBV_WC_REM_ACCESS_ERR,
	      "write to a read-only page");
	connect(a, b);
	CHECK(!ibv_dereg_mr(mr), "dereg");
	CHECK(!munmap(p, PAGES * page), "munmap");
}

/* Implicit ODP: one key for every address of the process. */
static void implicit_odp(struct side *a, struct side *b)
{
	uint8_t *p = fresh_pages(), *heap = malloc(3000);
	struct ibv_mr *mr;

	CHECK(heap, "malloc");
	errno = 0;
	CHECK(!ibv_reg_mr(a->pd, p, SIZE_MAX, ODP_RW) && errno == EINVAL,
	      "implicit with an address");
	mr = ibv_reg_mr(a->pd, NULL, SIZE_MAX, ODP_RW);
	CHECK(mr, "implicit mr");
	CHECK(mr->lkey == mr->rkey && !mr->addr && mr->length == SIZE_MAX,
	      "lkey %#x rkey %#x", mr->lkey, mr->rkey);
	fill_pattern(b->buf, 3000, 5);
	CHECK(run(b, IBV_WR_RDMA_WRITE, b->buf, 3000, b->mr->lkey,
		  (uintptr_t)heap, mr->rkey) == IBV_WC_SUCCESS,
	      "write to the heap");
	CHECK(!memcmp(heap, b->buf, 3000), "heap bytes");
	CHECK(run(b, IBV_WR_RDMA_WRITE, b->buf, 100, b->mr->lkey,
		  (uintptr_t)p + page + 7, mr->rkey) == IBV_WC_SUCCESS,
	      "write to a fresh page");
	CHECK(!memcmp(p + page + 7, b->buf, 100), "page bytes");
	/* the local key reaches any buffer too */
	memset(b->buf, 0, 3000);
	CHECK(run(a, IBV_WR_RDMA_WRITE, heap, 3000, mr->lkey, (uintptr_t)b->buf,
		  b->mr->rkey) == IBV_WC_SUCCESS,
	      "write from the heap");
	CHECK(!memcmp(heap, b->buf, 3000), "bytes back");
	CHECK(!ibv_dereg_mr(mr), "dereg");
	CHECK(!munmap(p, PAGES * page), "munmap");
	free(heap);
}

static int advise(struct ibv_pd *pd, enum ibv_advise_mr_advice advice,
		  uint32_t flags, void *addr, uint32_t len, uint32_t lkey)
{
	struct ibv_sge s = {(uintptr_t)addr, len, lkey};

	return ibv_advise_mr(pd, advice, flags, &s, 1);
}

static void advice(struct side *a, struct side *b)
{
	const uint32_t flush = IBV_ADVISE_MR_FLAG_FLUSH;
	uint8_t *p = fresh_pages();
	struct ibv_mr *mr = ibv_reg_mr(a->pd, p, PAGES * page, ODP_RW);
	struct ibv_mr *ro =
		ibv_reg_mr(a->pd, p, PAGES * page, IBV_ACCESS_ON_DEMAND);
	struct ibv_sge s = {(uintptr_t)p, 8, mr ? mr->lkey : 0};

	CHECK(mr && ro, "odp mrs");
	CHECK(!advise(a->pd, IBV_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT, flush, p,
		      PAGES * page, mr->lkey),
	      "no-fault");
	CHECK(!resident(p, PAGES * page), "no-fault faulted");
	CHECK(!advise(a->pd, IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE, flush, p,
		      2 * page, mr->lkey),
	      "prefetch write");
	CHECK(resident(p, PAGES * page) == 2, "two pages prefetched");
	CHECK(!advise(a->pd, IBV_ADVISE_MR_ADVICE_PREFETCH, 0, p + 2 * page,
		      page, mr->lkey),
	      "async prefetch");
	CHECK(advise(a->pd, IBV_ADVISE_MR_ADVICE_PREFETCH, 2, p, 8, mr->lkey) ==
		      EINVAL,
	      "unknown flag");
	CHECK(advise(a->pd, 3, flush, p, 8, mr->lkey) == EOPNOTSUPP,
	      "unknown advice");
	CHECK(advise(a->pd, IBV_ADVISE_MR_ADVICE_PREFETCH, flush, a->buf, 8,
		     a->mr->lkey) == ENOENT,
	      "a pinned MR");
	/* the key on another PD of the device, or on another device */
	CHECK(advise(b->pd, IBV_ADVISE_MR_ADVICE_PREFETCH, flush, p, 8,
		     mr->lkey) == (ndev == 1 ? EPERM : ENOENT),
	      "another context's PD");
	CHECK(advise(a->pd, IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE, flush, p, 8,
		     ro->lkey) == EPERM,
	      "prefetch write of a read-only MR");
	CHECK(advise(a->pd, IBV_ADVISE_MR_ADVICE_PREFETCH, flush, p,
		     PAGES * page + 1, mr->lkey) == EFAULT,
	      "past the MR");
	CHECK(!munmap(p + 3 * page, page), "munmap");
	CHECK(advise(a->pd, IBV_ADVISE_MR_ADVICE_PREFETCH, flush, p + 3 * page,
		     8, mr->lkey) == EFAULT,
	      "an unmapped page");
	CHECK(ibv_advise_mr(a->pd, IBV_ADVISE_MR_ADVICE_PREFETCH, flush, &s,
			    0) == EINVAL,
	      "no SGE");
	CHECK(!ibv_dereg_mr(ro) && !ibv_dereg_mr(mr), "dereg");
	CHECK(!munmap(p, 3 * page), "munmap");
}

int main(int argc, char **argv)
{
	int fds, maps;
	struct ibv_device **devs = ibv_get_device_list(NULL);
	struct leak_mark mark;
	struct side a, b;

	page = (size_t)sysconf(_SC_PAGESIZE);
	ndev = argc > 1 ? atoi(argv[1]) : 1;
	CHECK(devs && devs[0] && (ndev < 2 || devs[1]), "devices");
	sim_warm_up(devs[0]);
	leak_mark_take(&mark);
	side_open(&a, devs[0]);
	side_open(&b, devs[ndev - 1]);
	caps(a.ctx);
	explicit_odp(&a, &b);
	connect(&a, &b);
	implicit_odp(&a, &b);
	advice(&a, &b);
	CHECK(!ibv_destroy_qp(a.qp) && !ibv_destroy_qp(b.qp), "qps");
	side_close(&a);
	side_close(&b);
	leak_mark_recount(&mark, &fds, &maps);
	CHECK(fds == mark.fds && maps == mark.maps,
	      "fds %d -> %d, maps %d -> %d", mark.fds, fds, mark.maps, maps);
	ibv_free_device_list(devs);
	printf("odp: ok (%d device%s)\n", ndev, ndev > 1 ? "s" : "");
	return 0;
}
