// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibv_alloc_buf() memory as an RDMA buffer on rdma-sim. A device that
 * needs no bounce memory hands out ordinary memory: two MRs over parts
 * of one buffer (ibv_reg_buf_mr) are the remote target of WRITE, READ and
 * atomics, the landing buffer of a SEND and the local SGE of one, from a
 * host buffer on another context (of another device with "2"); the bytes
 * are checked in the buffer itself. Around it: the refusals, no dma-buf
 * to export, the devx UAR pages (alloc, store, free, export to the peer
 * device), DMA handle checks, completion counters as libmlx5 answers
 * them, and nothing leaked. With "cc" (under rdma-sim --cc-guest) the
 * kernel pins no user memory (EOPNOTSUPP for a plain MR, CQ, QP, SRQ):
 * a parent domain allowing CoCo bounce memory hands out dma-bufs of the
 * shared heap for buffers, CQ and QP rings and doorbell records, which
 * the kernel is given by fd (the CQ_CREATE/QP_CREATE images are checked),
 * and the same RDMA runs over them, both sides on such parent domains.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <infiniband/mlx5dv.h>
#include <rdma_sim_peer.h>

#include "dm_util.h"
#include "fds.h"
#include "ioctl_spy.h"
#include "rdma_util.h"
#include "skip.h"

#define BUF_SZ 12000 /* not a page multiple: mlx5 rounds it up */
#define HOST_SZ 16384
#define MR_ACCESS                                                              \
	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |                    \
	 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)

#define BUF_PAGES_SZ 12288 /* BUF_SZ as mlx5 rounds it */

static int ndev = 1;
static bool cc; /* the device is a CoCo guest's (--cc-guest) */
static bool no_heap; /* ... on a kernel without DMA-buf heaps */
static struct ibv_device **devs;
static struct leak_mark mark;

/* A parent domain of @pd allowing CoCo bounce memory. */
static struct ibv_pd *cc_parent(struct ibv_pd *pd)
{
	struct ibv_parent_domain_init_attr pa = {
		.pd = pd,
		.comp_mask =
			IBV_PARENT_DOMAIN_INIT_ATTR_ALLOW_CC_UNPROTECTED_ALLOC,
	};

	return ibv_alloc_parent_domain(pd->context, &pa);
}

/* A PD of @ctx in *@pd and a parent domain of it for bounce memory. */
static struct ibv_pd *cc_domain(struct ibv_context *ctx, struct ibv_pd **pd)
{
	struct ibv_pd *ppd;

	assert_non_null(ctx);
	*pd = ibv_alloc_pd(ctx);
	assert_non_null(*pd);
	ppd = cc_parent(*pd);
	assert_non_null(ppd);
	return ppd;
}

/*
 * The far side of the traffic, on the last device: a host buffer, or on
 * a CoCo guest a CC parent domain's buffer (the kernel pins no other).
 */
struct side {
	struct rdma_host h;
	struct ibv_pd *inner;
	struct ibv_buf *buf;
};

static void side_open(struct side *s)
{
	memset(s, 0, sizeof(*s));
	if (!cc) {
		assert_int_equal(
			host_open(&s->h, devs[ndev - 1], HOST_SZ, MR_ACCESS),
			0);
		return;
	}
	s->h.ctx = ibv_open_device(devs[ndev - 1]);
	assert_non_null(s->h.ctx);
	s->inner = ibv_alloc_pd(s->h.ctx);
	assert_non_null(s->inner);
	s->h.pd = cc_parent(s->inner);
	assert_non_null(s->h.pd);
	s->h.buf = ibv_alloc_buf(s->h.pd, HOST_SZ, &s->buf);
	assert_non_null(s->h.buf);
	memset(s->h.buf, 0, HOST_SZ);
	s->h.mr = ibv_reg_buf_mr(s->h.pd, s->buf, s->h.buf, HOST_SZ, MR_ACCESS);
	assert_non_null(s->h.mr);
}

static void side_close(struct side *s)
{
	if (!cc) {
		assert_int_equal(host_close(&s->h), 0);
		return;
	}
	assert_int_equal(ibv_dereg_mr(s->h.mr), 0);
	ibv_free_buf(s->buf);
	assert_int_equal(ibv_dealloc_pd(s->h.pd), 0);
	assert_int_equal(ibv_dealloc_pd(s->inner), 0);
	assert_int_equal(ibv_close_device(s->h.ctx), 0);
}

static void wc_ok(struct rdma_ep *ep, uint64_t wr_id)
{
	struct ibv_wc wc;

	assert_int_equal(ep_poll(ep, &wc, 1), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.wr_id, wr_id);
}

/* @lo covers [p, p + 8192) and @hi [p + 8192, p + 12000) of one buffer. */
static void exercise(uint8_t *p, struct ibv_pd *pd, struct ibv_mr *lo,
		     struct ibv_mr *hi, struct rdma_host *h)
{
	struct ep_opts o = {.type = IBV_QPT_RC, .cq_on_pd = cc};
	uint64_t v = 40, *res = (uint64_t *)(h->buf + 8192);
	struct rdma_ep i, t;

	/* Like malloc()ed memory the buffer starts undefined. */
	fill_pattern(p, BUF_SZ, 30);
	assert_int_equal(ep_pair(&i, h->pd, &o, &t, pd, &o), 0);

	/* WRITE into the buffer's low MR, READ it back. */
	fill_pattern(h->buf, 4000, 31);
	assert_int_equal(ep_post(&i, IBV_WR_RDMA_WRITE, h->buf, 4000,
				 h->mr->lkey, (uintptr_t)(p + 100), lo->rkey,
				 IBV_SEND_SIGNALED, 1),
			 0);
	wc_ok(&i, 1);
	assert_memory_equal(p + 100, h->buf, 4000);
	assert_int_equal(ep_post(&i, IBV_WR_RDMA_READ, h->buf + 4096, 4000,
				 h->mr->lkey, (uintptr_t)(p + 100), lo->rkey,
				 IBV_SEND_SIGNALED, 2),
			 0);
	wc_ok(&i, 2);
	assert_memory_equal(h->buf + 4096, h->buf, 4000);

	/* Atomics on a word of the high MR. */
	memcpy(p + 8192, &v, 8);
	assert_int_equal(ep_atomic(&i, IBV_WR_ATOMIC_FETCH_AND_ADD, res,
				   h->mr->lkey, (uintptr_t)(p + 8192),
				   hi->rkey, 2, 0, IBV_SEND_SIGNALED),
			 0);
	wc_ok(&i, IBV_WR_ATOMIC_FETCH_AND_ADD); /* ep_atomic's wr_id */
	assert_int_equal(*res, 40);
	assert_int_equal(ep_atomic(&i, IBV_WR_ATOMIC_CMP_AND_SWP, res,
				   h->mr->lkey, (uintptr_t)(p + 8192),
				   hi->rkey, 42, 7, IBV_SEND_SIGNALED),
			 0);
	wc_ok(&i, IBV_WR_ATOMIC_CMP_AND_SWP);
	assert_int_equal(*res, 42);
	memcpy(&v, p + 8192, 8);
	assert_int_equal(v, 7);

	/* The high MR ends where the buffer does: a WRITE past it fails. */
	assert_int_equal(ep_post(&i, IBV_WR_RDMA_WRITE, h->buf, 64,
				 h->mr->lkey, (uintptr_t)(p + BUF_SZ - 32),
				 hi->rkey, IBV_SEND_SIGNALED, 9),
			 0);
	{
		struct ibv_wc wc;

		assert_int_equal(ep_poll(&i, &wc, 1), 1);
		assert_int_equal(wc.status, IBV_WC_REM_ACCESS_ERR);
	}
	ep_close(&i);
	ep_close(&t);
	assert_int_equal(ep_pair(&i, h->pd, &o, &t, pd, &o), 0);

	/* A SEND lands in the buffer, and the buffer is the source of one. */
	fill_pattern(h->buf, 1000, 32);
	assert_int_equal(ep_recv(&t, p + 9000, 1024, hi->lkey, 3), 0);
	assert_int_equal(ep_post(&i, IBV_WR_SEND, h->buf, 1000, h->mr->lkey,
				 0, 0, IBV_SEND_SIGNALED, 4),
			 0);
	wc_ok(&i, 4);
	wc_ok(&t, 3);
	assert_memory_equal(p + 9000, h->buf, 1000);
	memset(h->buf + 12288, 0, 2048);
	assert_int_equal(ep_recv(&i, h->buf + 12288, 2048, h->mr->lkey, 5), 0);
	assert_int_equal(ep_post(&t, IBV_WR_SEND, p, 2048, lo->lkey, 0, 0,
				 IBV_SEND_SIGNALED, 6),
			 0);
	wc_ok(&t, 6);
	wc_ok(&i, 5);
	assert_memory_equal(h->buf + 12288, p, 2048);
	ep_close(&i);
	ep_close(&t);
}

/* One UD SEND of @len bytes at @src from @a to @b, landing at @dst. */
static void ud_send(struct rdma_ep *a, struct ibv_pd *apd, uint8_t *src,
		    uint32_t lkey, struct rdma_ep *b, uint8_t *dst,
		    uint32_t dkey, uint32_t len)
{
	struct ibv_ah_attr aa = {.port_num = 1, .dlid = b->lid};
	struct ibv_sge sge = {(uintptr_t)src, len, lkey};
	struct ibv_send_wr wr = {.wr_id = 7,
				 .sg_list = &sge,
				 .num_sge = 1,
				 .opcode = IBV_WR_SEND,
				 .send_flags = IBV_SEND_SIGNALED},
			   *bad;
	struct ibv_ah *ah = ibv_create_ah(apd, &aa);
	struct ibv_wc wc;

	assert_non_null(ah);
	/* The receiver's buffer starts with the 40-byte GRH room. */
	assert_int_equal(ep_recv(b, dst, 40 + len, dkey, 8), 0);
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = b->qpn;
	wr.wr.ud.remote_qkey = EP_QKEY;
	assert_int_equal(ibv_post_send(a->qp, &wr, &bad), 0);
	wc_ok(a, 7);
	assert_int_equal(ep_poll(b, &wc, 1), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_int_equal(wc.byte_len, 40 + len);
	assert_memory_equal(dst + 40, src, len);
	assert_int_equal(ibv_destroy_ah(ah), 0);
}

/* UD datagrams into the buffer (@hi) and out of it (@lo). */
static void exercise_ud(uint8_t *p, struct ibv_pd *pd, struct ibv_mr *lo,
			struct ibv_mr *hi, struct rdma_host *h)
{
	struct ep_opts o = {.type = IBV_QPT_UD, .cq_on_pd = cc};
	struct rdma_ep i, t;

	assert_int_equal(ep_pair(&i, h->pd, &o, &t, pd, &o), 0);
	fill_pattern(h->buf, 1024, 33);
	ud_send(&i, h->pd, h->buf, h->mr->lkey, &t, p + 9000, hi->lkey, 1024);
	fill_pattern(p + 100, 700, 34);
	ud_send(&t, pd, p + 100, lo->lkey, &i, h->buf + 8192, h->mr->lkey, 700);
	ep_close(&i);
	ep_close(&t);
}

/*
 * Two MRs over @buf (at @p, for @pd) as exercise() uses them, the high
 * one reporting @hi_addr; deregistered after.
 */
static void rdma_over_buf(uint8_t *p, struct ibv_pd *pd, struct ibv_buf *buf,
			  void *hi_addr)
{
	struct ibv_mr *lo, *hi;
	struct side far;

	lo = ibv_reg_buf_mr(pd, buf, p, 8192, MR_ACCESS);
	hi = ibv_reg_buf_mr(pd, buf, p + 8192, BUF_SZ - 8192, MR_ACCESS);
	assert_non_null(lo);
	assert_non_null(hi);
	assert_int_not_equal(lo->lkey, hi->lkey);
	assert_ptr_equal(hi->addr, hi_addr);
	assert_int_equal(hi->length, BUF_SZ - 8192);

	side_open(&far);
	exercise(p, pd, lo, hi, &far.h);
	exercise_ud(p, pd, lo, hi, &far.h);
	side_close(&far);
	assert_int_equal(ibv_dereg_mr(lo), 0);
	assert_int_equal(ibv_dereg_mr(hi), 0);
}

static void test_buf_mr_rdma(void **state)
{
	struct ibv_context *ctx;
	struct ibv_pd *pd, *other;
	struct ibv_buf *buf;
	uint8_t *p;

	ctx = ibv_open_device(devs[0]);
	assert_non_null(ctx);
	pd = ibv_alloc_pd(ctx);
	other = ibv_alloc_pd(ctx);
	assert_non_null(pd);
	assert_non_null(other);
	p = ibv_alloc_buf(pd, BUF_SZ, &buf);
	assert_non_null(p);
	assert_int_equal((uintptr_t)p % (uintptr_t)sysconf(_SC_PAGESIZE), 0);

	/* Ordinary memory: nothing to export. */
	errno = 0;
	assert_int_equal(ibv_export_buf_dmabuf_fd(buf), -1);
	assert_int_equal(errno, ENODATA);
	/* Another PD, and a range running past the (rounded) end. */
	errno = 0;
	assert_null(ibv_reg_buf_mr(other, buf, p, 64, MR_ACCESS));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(ibv_reg_buf_mr(pd, buf, p + 8192, 4097, MR_ACCESS));
	assert_int_equal(errno, EINVAL);

	rdma_over_buf(p, pd, buf, p + 8192);
	ibv_free_buf(buf);
	assert_int_equal(ibv_dealloc_pd(other), 0);
	assert_int_equal(ibv_dealloc_pd(pd), 0);
	assert_int_equal(ibv_close_device(ctx), 0);
}

/*
 * @efd is a dma-buf of @len bytes sharing @p with the CPU: what one side
 * stores the other reads. Closes @efd.
 */
static void check_shared(int efd, uint8_t *p, size_t len)
{
	struct rdma_sim_peer *peer;
	struct stat st;
	char b[8] = "";

	assert_int_equal(fstat(efd, &st), 0);
	assert_int_equal(st.st_size, len);
	peer = rdma_sim_peer_import(efd);
	assert_non_null(peer);
	assert_int_equal(rdma_sim_peer_size(peer), len);
	memcpy(p + 0x10, "cpu", 4);
	assert_int_equal(rdma_sim_peer_read(peer, 0x10, b, 4), 0);
	assert_string_equal(b, "cpu");
	assert_int_equal(rdma_sim_peer_write(peer, 0x18, "gpu", 4), 0);
	assert_string_equal((char *)p + 0x18, "gpu");
	rdma_sim_peer_release(peer);
	assert_int_equal(close(efd), 0);
}

/*
 * A parent domain allowing CoCo bounce memory: on a CC_DMA_BOUNCE device
 * it holds the shared heap open and each buffer is a dma-buf of its own
 * (an fd and a shared mapping), registered by fd; elsewhere the bit is
 * ignored and the buffer is ordinary memory. RDMA works on both.
 */
static void test_cc_pd_buf(void **state)
{
	struct ibv_device_attr_ex attr;
	struct ibv_context *ctx;
	struct ibv_pd *pd, *ppd;
	struct ibv_buf *buf;
	int fds, maps, efd;
	uint8_t *p;

	ctx = ibv_open_device(devs[0]);
	assert_non_null(ctx);
	assert_int_equal(ibv_query_device_ex(ctx, NULL, &attr), 0);
	assert_int_equal(!!(attr.device_cap_flags_ex &
			    IBV_DEVICE_CC_DMA_BOUNCE),
			 cc);
	pd = ibv_alloc_pd(ctx);
	assert_non_null(pd);
	fds = count_fds();
	maps = count_shared_maps();
	ppd = cc_parent(pd);
	assert_non_null(ppd);
	assert_int_equal(count_fds(), fds + cc); /* the heap */
	p = ibv_alloc_buf(ppd, BUF_SZ, &buf);
	assert_non_null(p);
	assert_int_equal((uintptr_t)p % (uintptr_t)sysconf(_SC_PAGESIZE), 0);
	assert_int_equal(count_fds(), fds + 2 * cc);
	assert_int_equal(count_shared_maps(), maps + cc);

	errno = 0;
	efd = ibv_export_buf_dmabuf_fd(buf);
	if (cc) {
		/* A new fd each time, the caller's to close. */
		assert_true(efd >= 0);
		assert_int_equal(count_fds(), fds + 3);
		check_shared(efd, p, BUF_PAGES_SZ);
		check_shared(ibv_export_buf_dmabuf_fd(buf), p, BUF_PAGES_SZ);
	} else {
		assert_int_equal(efd, -1);
		assert_int_equal(errno, ENODATA);
	}
	/* The inner PD is not the buffer's. */
	errno = 0;
	assert_null(ibv_reg_buf_mr(pd, buf, p, 64, MR_ACCESS));
	assert_int_equal(errno, EINVAL);

	/* An fd registration's addr is its offset in the dma-buf. */
	rdma_over_buf(p, ppd, buf, cc ? (void *)8192 : (void *)(p + 8192));
	/* The QPs left the context pages of their own: count from here. */
	fds = count_fds();
	maps = count_shared_maps();
	ibv_free_buf(buf);
	assert_int_equal(count_fds(), fds - cc);
	assert_int_equal(count_shared_maps(), maps - cc);
	assert_int_equal(ibv_dealloc_pd(ppd), 0);
	assert_int_equal(count_fds(), fds - 2 * cc);
	assert_int_equal(ibv_dealloc_pd(pd), 0);
	assert_int_equal(ibv_close_device(ctx), 0);
}

/*
 * A descriptor of the image (attribute length @len): @dlen bytes at @off
 * of a dma-buf (type 0, flags 0) of @size bytes, which the CPU address
 * @cpu maps: the peer device reads through the fd what the CPU holds.
 */
static void check_desc(const struct rdma_dm_buffer_desc *d, uint16_t len,
		       size_t size, uint64_t off, uint64_t dlen, uint64_t cpu)
{
	uint8_t dev[64], *mem = (uint8_t *)(uintptr_t)cpu;
	size_t n = dlen < sizeof(dev) ? dlen : sizeof(dev);
	struct rdma_sim_peer *peer;
	struct stat st;

	assert_int_equal(len, sizeof(*d));
	assert_int_equal(d->type, RDMA_DM_BUFFER_DESC_TYPE_DMABUF);
	assert_int_equal(d->flags, 0);
	assert_int_equal(d->addr, off);
	assert_int_equal(d->length, dlen);
	assert_int_equal(fstat(d->fd, &st), 0);
	assert_int_equal(st.st_size, size);
	peer = rdma_sim_peer_import(d->fd);
	assert_non_null(peer);
	assert_int_equal(rdma_sim_peer_read(peer, off, dev, n), 0);
	assert_memory_equal(dev, mem, n);
	rdma_sim_peer_release(peer);
}

/* A CQ_CREATE or QP_CREATE image with its two descriptors. */
static void check_image(const struct spy_create *s, size_t ring)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	assert_true(s->ring);
	assert_true(s->dbr);
	check_desc(&s->ring_desc, s->ring_len, ring, 0, ring, s->uhw_buf);
	/* The record: 8 bytes, a cache line of a page of its own kind. */
	check_desc(&s->dbr_desc, s->dbr_len, page, s->dbr_desc.addr, 8,
		   s->uhw_db);
	assert_int_equal(s->dbr_desc.addr % 64, 0);
	assert_true(s->dbr_desc.addr < page);
	assert_int_not_equal(s->dbr_desc.fd, s->ring_desc.fd);
}

/* A CQ of @cqe entries on parent domain @ppd. */
static struct ibv_cq_ex *cc_cq(struct ibv_pd *ppd, uint32_t cqe)
{
	struct ibv_cq_init_attr_ex ca = {
		.cqe = cqe,
		.wc_flags = IBV_WC_STANDARD_FLAGS,
		.comp_mask = IBV_CQ_INIT_ATTR_MASK_PD,
		.parent_domain = ppd,
	};

	return ibv_create_cq_ex(ppd->context, &ca);
}

/* @fd is closed. */
static void assert_closed(int fd)
{
	errno = 0;
	assert_int_equal(fcntl(fd, F_GETFD), -1);
	assert_int_equal(errno, EBADF);
}

/*
 * On a CoCo guest a CC parent domain's queues are heap dma-bufs the
 * kernel is told of by fd: each ring a dma-buf of its own, the doorbell
 * records one page shared by both; all closed at destroy. Such a CQ
 * cannot be resized (RESIZE_CQ is a write command), and such a parent
 * domain makes no SRQ, as upstream.
 */
static void test_cc_queues(void **state)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct ibv_context *ctx = ibv_open_device(devs[0]);
	struct ibv_srq_init_attr sa = {.attr = {.max_wr = 4, .max_sge = 1}};
	struct ibv_qp_init_attr_ex qa = {
		.qp_type = IBV_QPT_RC,
		.cap = {.max_send_wr = 8,
			.max_recv_wr = 8,
			.max_send_sge = 1,
			.max_recv_sge = 1},
		.comp_mask = IBV_QP_INIT_ATTR_PD,
	};
	struct ibv_pd *pd, *ppd;
	struct ibv_cq_ex *cq;
	struct ibv_qp *qp;
	int fds;

	ppd = cc_domain(ctx, &pd);
	fds = count_fds();
	spy_reset();
	cq = cc_cq(ppd, 31);
	assert_non_null(cq);
	assert_int_equal(spy_cq.count, 1);
	check_image(&spy_cq, page); /* 32 CQEs of 64 bytes: one page */
	assert_int_equal(ibv_resize_cq(ibv_cq_ex_to_cq(cq), 100), EOPNOTSUPP);

	qa.pd = ppd;
	qa.send_cq = qa.recv_cq = ibv_cq_ex_to_cq(cq);
	qp = ibv_create_qp_ex(ctx, &qa);
	assert_non_null(qp);
	assert_int_equal(spy_qp.count, 1);
	check_image(&spy_qp, spy_qp.ring_desc.length);
	assert_int_equal(spy_qp.ring_desc.length % page, 0);
	assert_int_equal(spy_qp.dbr_desc.fd, spy_cq.dbr_desc.fd);
	assert_int_not_equal(spy_qp.dbr_desc.addr, spy_cq.dbr_desc.addr);
	assert_int_not_equal(spy_qp.ring_desc.fd, spy_cq.ring_desc.fd);

	errno = 0;
	assert_null(ibv_create_srq(ppd, &sa));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(spy_srq_creates, 0); /* the library's answer */
	assert_int_equal(ibv_destroy_qp(qp), 0);
	assert_int_equal(ibv_destroy_cq(ibv_cq_ex_to_cq(cq)), 0);
	assert_closed(spy_cq.ring_desc.fd);
	assert_closed(spy_qp.ring_desc.fd);
	assert_closed(spy_cq.dbr_desc.fd);
	assert_int_equal(count_fds(), fds);
	assert_int_equal(ibv_dealloc_pd(ppd), 0);
	assert_int_equal(ibv_dealloc_pd(pd), 0);
	assert_int_equal(ibv_close_device(ctx), 0);
}

/*
 * On a CoCo guest the kernel pins no user memory: a plain PD's MR (also
 * of ordinary ibv_alloc_buf memory), CQ, QP and SRQ are refused with
 * EOPNOTSUPP, what ib_umem_get() answers when DMA must bounce.
 */
static void test_cc_refusals(void **state)
{
	struct ibv_context *ctx = ibv_open_device(devs[0]);
	struct ibv_srq_init_attr sa = {.attr = {.max_wr = 4, .max_sge = 1}};
	struct ibv_pd *pd, *ppd;
	struct ibv_cq_ex *ccq;
	struct ibv_buf *buf;
	uint8_t *p;

	assert_non_null(ctx);
	pd = ibv_alloc_pd(ctx);
	assert_non_null(pd);
	p = ibv_alloc_buf(pd, BUF_SZ, &buf);
	assert_non_null(p);
	errno = 0;
	assert_null(ibv_reg_mr(pd, p, 4096, IBV_ACCESS_LOCAL_WRITE));
	assert_int_equal(errno, EOPNOTSUPP);
	errno = 0;
	assert_null(ibv_reg_buf_mr(pd, buf, p, 4096, IBV_ACCESS_LOCAL_WRITE));
	assert_int_equal(errno, EOPNOTSUPP);
	errno = 0;
	assert_null(ibv_create_cq(ctx, 4, NULL, NULL, 0));
	assert_int_equal(errno, EOPNOTSUPP);
	spy_reset();
	errno = 0;
	assert_null(ibv_create_srq(pd, &sa));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(spy_srq_creates, 1); /* the kernel's answer */
	{
		/* A plain QP, even with a CC parent domain's CQ. */
		struct ibv_qp_init_attr qa = {
			.qp_type = IBV_QPT_RC,
			.cap = {.max_send_wr = 2,
				.max_recv_wr = 2,
				.max_send_sge = 1,
				.max_recv_sge = 1},
		};

		ppd = cc_parent(pd);
		assert_non_null(ppd);
		ccq = cc_cq(ppd, 4);
		assert_non_null(ccq);
		qa.send_cq = qa.recv_cq = ibv_cq_ex_to_cq(ccq);
		errno = 0;
		assert_null(ibv_create_qp(pd, &qa));
		assert_int_equal(errno, EOPNOTSUPP);
		assert_int_equal(ibv_destroy_cq(ibv_cq_ex_to_cq(ccq)), 0);
		assert_int_equal(ibv_dealloc_pd(ppd), 0);
	}
	ibv_free_buf(buf);
	assert_int_equal(ibv_dealloc_pd(pd), 0);
	assert_int_equal(ibv_close_device(ctx), 0);
}

struct user_alloc {
	unsigned int allocs, frees;
	void *last;
	size_t size, align;
	uint64_t type;
	bool use_default;
};

static void *u_alloc(struct ibv_pd *pd, void *pd_context, size_t size,
		     size_t alignment, uint64_t resource_type)
{
	struct user_alloc *u = pd_context;
	void *p;

	(void)pd;
	u->allocs++;
	u->size = size;
	u->align = alignment;
	u->type = resource_type;
	if (u->use_default)
		return IBV_ALLOCATOR_USE_DEFAULT;
	if (posix_memalign(&p, alignment, size))
		return NULL;
	u->last = p;
	return p;
}

static void u_free(struct ibv_pd *pd, void *pd_context, void *ptr,
		   uint64_t resource_type)
{
	struct user_alloc *u = pd_context;

	(void)pd;
	assert_ptr_equal(ptr, u->last);
	assert_int_equal(resource_type, 0);
	u->frees++;
	free(ptr);
}

/*
 * ibv_alloc_buf on a parent domain with allocators: the buffer is what
 * alloc() returned for resource type 0, page size and alignment, and
 * free() takes it back; IBV_ALLOCATOR_USE_DEFAULT means ordinary memory
 * (free() is then not called). The buffer is registered and used as any.
 */
static void test_custom_alloc_buf(void **state)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct ibv_context *ctx = ibv_open_device(devs[0]);
	struct user_alloc u = {};
	struct ibv_parent_domain_init_attr pa = {
		.comp_mask = IBV_PARENT_DOMAIN_INIT_ATTR_ALLOCATORS |
			     IBV_PARENT_DOMAIN_INIT_ATTR_PD_CONTEXT,
		.alloc = u_alloc,
		.free = u_free,
		.pd_context = &u,
	};
	struct ibv_pd *pd, *ppd;
	struct ibv_buf *buf;
	struct ibv_mr *mr;
	uint8_t *p;

	assert_non_null(ctx);
	pd = ibv_alloc_pd(ctx);
	assert_non_null(pd);
	pa.pd = pd;
	ppd = ibv_alloc_parent_domain(ctx, &pa);
	assert_non_null(ppd);
	p = ibv_alloc_buf(ppd, 100, &buf);
	assert_non_null(p);
	assert_ptr_equal(p, u.last);
	assert_int_equal(u.allocs, 1);
	assert_int_equal(u.size, page);
	assert_int_equal(u.align, page);
	assert_int_equal(u.type, 0);
	errno = 0;
	assert_int_equal(ibv_export_buf_dmabuf_fd(buf), -1);
	assert_int_equal(errno, ENODATA);
	mr = ibv_reg_buf_mr(ppd, buf, p, 100, IBV_ACCESS_LOCAL_WRITE);
	assert_non_null(mr);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	ibv_free_buf(buf);
	assert_int_equal(u.frees, 1);

	u.use_default = true;
	p = ibv_alloc_buf(ppd, 100, &buf);
	assert_non_null(p);
	assert_int_equal(u.allocs, 2);
	ibv_free_buf(buf);
	assert_int_equal(u.frees, 1);
	assert_int_equal(ibv_dealloc_pd(ppd), 0);
	assert_int_equal(ibv_dealloc_pd(pd), 0);
	assert_int_equal(ibv_close_device(ctx), 0);
}

/*
 * ibv_free_buf of a CC buffer with an importer: the importer keeps the
 * pages it imported (a heap dma-buf lives while anyone holds it) and
 * never sees the next buffer's bytes, even one at the same address.
 */
static void test_cc_buf_freed(void **state)
{
	struct ibv_context *ctx = ibv_open_device(devs[0]);
	struct rdma_sim_peer *peer;
	struct ibv_buf *buf, *buf2;
	struct ibv_pd *pd, *ppd;
	char b[8] = "";
	uint8_t *p;
	int efd;

	ppd = cc_domain(ctx, &pd);
	p = ibv_alloc_buf(ppd, 4096, &buf);
	assert_non_null(p);
	memcpy(p, "old", 4);
	efd = ibv_export_buf_dmabuf_fd(buf);
	assert_true(efd >= 0);
	peer = rdma_sim_peer_import(efd);
	assert_non_null(peer);
	assert_int_equal(close(efd), 0);
	ibv_free_buf(buf);

	p = ibv_alloc_buf(ppd, 4096, &buf2);
	assert_non_null(p);
	memcpy(p, "new", 4);
	assert_int_equal(rdma_sim_peer_read(peer, 0, b, 4), 0);
	assert_string_equal(b, "old");
	/* and the importer's stores stay in its pages */
	assert_int_equal(rdma_sim_peer_write(peer, 0, "gpu", 4), 0);
	assert_string_equal((char *)p, "new");
	rdma_sim_peer_release(peer);
	ibv_free_buf(buf2);
	assert_int_equal(ibv_dealloc_pd(ppd), 0);
	assert_int_equal(ibv_dealloc_pd(pd), 0);
	assert_int_equal(ibv_close_device(ctx), 0);
}

/*
 * A CoCo guest whose kernel has no DMA-buf heap: a parent domain allowing
 * bounce memory cannot be made (ENOENT, the heap's open), and leaves no
 * fd behind; one without the bit can.
 */
static void test_cc_no_heap(void **state)
{
	struct ibv_parent_domain_init_attr pa = {};
	struct ibv_context *ctx = ibv_open_device(devs[0]);
	struct ibv_pd *pd, *ppd;
	int fds;

	assert_non_null(ctx);
	pd = ibv_alloc_pd(ctx);
	assert_non_null(pd);
	fds = count_fds();
	errno = 0;
	assert_null(cc_parent(pd));
	assert_int_equal(errno, ENOENT);
	assert_int_equal(count_fds(), fds);
	pa.pd = pd;
	ppd = ibv_alloc_parent_domain(ctx, &pa);
	assert_non_null(ppd);
	assert_int_equal(ibv_dealloc_pd(ppd), 0);
	assert_int_equal(ibv_dealloc_pd(pd), 0);
	assert_int_equal(ibv_close_device(ctx), 0);
}

static void test_buf_size_zero(void **state)
{
	struct ibv_context *ctx = ibv_open_device(devs[0]);
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	struct ibv_buf *buf = NULL;

	assert_non_null(pd);
	errno = 0;
	assert_null(ibv_alloc_buf(pd, 0, &buf));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(ibv_dealloc_pd(pd), 0);
	assert_int_equal(ibv_close_device(ctx), 0);
}

/* NC is the context's own page; BF and NC_DEDICATED are pages of theirs. */
static void test_devx_uar(void **state)
{
	static const uint32_t kinds[] = {
		MLX5DV_UAR_ALLOC_TYPE_BF,
		MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED,
	};
	struct ibv_context *ctx = ibv_open_device(devs[0]);
	struct mlx5dv_devx_uar *nc, *u[2];
	size_t i;

	assert_non_null(ctx);
	nc = mlx5dv_devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	assert_non_null(nc);
	assert_ptr_equal(mlx5dv_devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_NC),
			 nc);
	for (i = 0; i < 2; i++) {
		u[i] = mlx5dv_devx_alloc_uar(ctx, kinds[i]);
		assert_non_null(u[i]);
		assert_ptr_equal(u[i]->reg_addr,
				 (uint8_t *)u[i]->base_addr + 0x800);
		assert_int_not_equal(u[i]->mmap_off, nc->mmap_off);
		assert_int_equal(u[i]->comp_mask, 0);
		/* A doorbell store lands in the mapped page. */
		*(volatile uint64_t *)u[i]->reg_addr = 0;
	}
	assert_int_not_equal(u[0]->mmap_off, u[1]->mmap_off);
	assert_int_not_equal(u[0]->page_id, u[1]->page_id);
	errno = 0;
	assert_null(mlx5dv_devx_alloc_uar(ctx, 2));
	assert_int_equal(errno, EOPNOTSUPP);
	mlx5dv_devx_free_uar(u[0]);
	mlx5dv_devx_free_uar(nc); /* the singleton stays */
	assert_ptr_equal(mlx5dv_devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_NC),
			 nc);
	/* u[1] is left for the context's close to release. */
	assert_int_equal(ibv_close_device(ctx), 0);
}

/*
 * A UAR page exported through libmlx5: the peer device shares the page
 * with the CPU mapping until the UAR is freed, then reads ENODEV; the fd
 * stays the caller's to close.
 */
static void test_devx_uar_export(void **state)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct ibv_context *ctx = ibv_open_device(devs[0]);
	struct rdma_sim_peer *peer;
	struct mlx5dv_devx_uar *u;
	int fds, maps, efd;
	char b;

	assert_non_null(ctx);
	fds = count_fds();
	maps = count_shared_maps();
	u = mlx5dv_devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED);
	assert_non_null(u);
	efd = mlx5dv_devx_uar_export_dmabuf_fd(u);
	assert_true(efd >= 0);
	assert_int_equal(count_fds(), fds + 1);
	check_shared(dup(efd), u->base_addr, page);

	peer = rdma_sim_peer_import(efd);
	assert_non_null(peer);
	mlx5dv_devx_free_uar(u);
	assert_int_equal(count_shared_maps(), maps);
	errno = 0;
	assert_int_equal(rdma_sim_peer_read(peer, 0, &b, 1), -1);
	assert_int_equal(errno, ENODEV);
	errno = 0;
	assert_null(rdma_sim_peer_import(efd));
	assert_int_equal(errno, ENODEV);
	rdma_sim_peer_release(peer);
	assert_int_equal(close(efd), 0);
	assert_int_equal(count_fds(), fds);
	assert_int_equal(ibv_close_device(ctx), 0);
}

/* libibverbs and libmlx5 checks, before any kernel command. */
static void test_dmah_checks(void **state)
{
	struct ibv_context *ctx = ibv_open_device(devs[0]);
	struct ibv_dmah_init_attr a = {.comp_mask = 1 << 3};

	errno = 0;
	assert_null(ibv_alloc_dmah(ctx, &a));
	assert_int_equal(errno, EOPNOTSUPP);
	a.comp_mask = IBV_DMAH_INIT_ATTR_MASK_CPU_ID;
	errno = 0;
	assert_null(ibv_alloc_dmah(ctx, &a)); /* no processing hint */
	assert_int_equal(errno, EINVAL);
	a.comp_mask |= IBV_DMAH_INIT_ATTR_MASK_PH;
	errno = 0;
	assert_null(ibv_alloc_dmah(ctx, &a)); /* a CPU without memory type */
	assert_int_equal(errno, EINVAL);
	assert_int_equal(ibv_close_device(ctx), 0);
}

/* mlx5 has no completion-counter object: every call says EOPNOTSUPP. */
static void test_comp_cntr_on_mlx5(void **state)
{
	struct ibv_context *ctx = ibv_open_device(devs[0]);
	struct ibv_comp_cntr_init_attr init = {
		.type = IBV_COMP_CNTR_TYPE_WRS};
	struct ibv_comp_cntr_caps caps;

	memset(&caps, 0xee, sizeof(caps));
	assert_int_equal(ibv_query_comp_cntr_caps(ctx, &caps), EOPNOTSUPP);
	assert_int_equal(caps.max_counters, 0);
	assert_int_equal(caps.max_value, 0);
	errno = 0;
	assert_null(ibv_create_comp_cntr(ctx, &init));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(ibv_close_device(ctx), 0);
}

/* The engine's fabric socket and mappings stay: one round, then count. */
static int warm_up(void **state)
{
	if (cc)
		test_cc_pd_buf(state);
	else
		test_buf_mr_rdma(state);
	leak_mark_take(&mark);
	return 0;
}

static int leak_check(void **state)
{
	int fds, maps;

	test_teardown_begin();
	leak_mark_recount(&mark, &fds, &maps);
	assert_int_equal(fds, mark.fds);
	assert_int_equal(maps, mark.maps);
	return test_teardown_end();
}

int main(int argc, char **argv)
{
	const struct CMUnitTest no_heap_tests[] = {
		cmocka_unit_test(test_cc_no_heap),
	};
	const struct CMUnitTest cc_tests[] = {
		cmocka_unit_test(test_cc_refusals),
		cmocka_unit_test(test_cc_queues),
		cmocka_unit_test(test_cc_pd_buf),
		cmocka_unit_test(test_cc_buf_freed),
		cmocka_unit_test(test_buf_size_zero),
		cmocka_unit_test(test_devx_uar),
		cmocka_unit_test(test_devx_uar_export),
		cmocka_unit_test(test_dmah_checks),
		cmocka_unit_test(test_comp_cntr_on_mlx5),
	};
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buf_mr_rdma),
		cmocka_unit_test(test_cc_pd_buf),
		cmocka_unit_test(test_custom_alloc_buf),
		cmocka_unit_test(test_buf_size_zero),
		cmocka_unit_test(test_devx_uar),
		cmocka_unit_test(test_devx_uar_export),
		cmocka_unit_test(test_dmah_checks),
		cmocka_unit_test(test_comp_cntr_on_mlx5),
	};
	int n, ret;

	if (argc > 1)
		ndev = atoi(argv[1]);
	no_heap = argc > 2 && !strcmp(argv[2], "no-heap");
	cc = no_heap || (argc > 2 && !strcmp(argv[2], "cc"));
	devs = ibv_get_device_list(&n);
	if (!devs || n < ndev) {
		fprintf(stderr, "need %d devices (run under rdma-sim)\n", ndev);
		return 1;
	}
	if (no_heap)
		ret = cmocka_run_group_tests_name("no_heap", no_heap_tests,
						  NULL, NULL);
	else if (cc)
		ret = cmocka_run_group_tests_name("cc", cc_tests, warm_up,
						  leak_check);
	else
		ret = cmocka_run_group_tests(tests, warm_up, leak_check);
	ibv_free_device_list(devs);
	return ret;
}
