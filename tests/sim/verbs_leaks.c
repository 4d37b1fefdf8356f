// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Nothing leaks: create/destroy churn reuses the lowest handles,
 * INFO_HANDLES counts the live QPs, closing a context with every kind of
 * object alive leaves exactly the event fds the program still holds, and
 * the rxe rings map once, at their offset, with rxe's header.
 */
#include "verbs.h"
#include "fds.h"

#include <errno.h>
#include <rdma/rdma_user_rxe.h>
#include <sys/mman.h>
#include <unistd.h>

static void check_churn(int fd, uint32_t pd, uint32_t cq)
{
	uint32_t first = ~0u, h = 0, n, i;
	struct v_qp_req r;

	v_qp_req_init(&r, pd, cq, 4);
	for (i = 0; i < 200; i++) {
		EXPECT_ERR(v_create_qp(fd, &r, &h, NULL), 0);
		if (i == 0)
			first = h;
		EXPECT(h == first, "churn %u: handle %u, first %u", i, h,
		       first);
		EXPECT_ERR(raw_destroy_qp(fd, h, NULL), 0);
	}
	for (i = 0; i < 5; i++)
		EXPECT_ERR(v_create_qp(fd, &r, &h, NULL), 0);
	n = v_count_handles(fd, UVERBS_OBJECT_QP);
	EXPECT(n == 5, "INFO_HANDLES: %u QPs, 5 live", n);
	n = v_count_handles(fd, UVERBS_OBJECT_CQ);
	EXPECT(n == 1, "INFO_HANDLES: %u CQs, 1 live", n);
}

/* Close a context full of objects: its event fds stay the program's (the
 * sim's memfd of pinned memory, there while the CQ rings are, aside). */
static void check_close_full(void)
{
	int before = count_fds_but_pins(), fd = v_open(), ch, n;
	uint32_t pd, cq, cq2, srq, qp;
	struct v_qp_req r;

	EXPECT(fd >= 0, "no context");
	EXPECT_ERR(raw_alloc_pd(fd, &pd), 0);
	EXPECT_ERR(v_create_channel(fd, &ch), 0);
	EXPECT_ERR(v_create_cq(fd, 16, 0, ch, &cq, NULL), 0);
	EXPECT_ERR(v_create_cq(fd, 16, 1, -1, &cq2, NULL), 0);
	EXPECT_ERR(v_create_srq(fd, pd, 16, 1, &srq), 0);
	v_qp_req_init(&r, pd, cq, 2);
	r.recv_cq = cq2;
	r.srq = srq;
	EXPECT_ERR(v_create_qp(fd, &r, &qp, NULL), 0);
	EXPECT_ERR(v_drive(fd, qp, 2, 3), 0);
	n = count_fds_but_pins();
	EXPECT(n == before + 2, "fds %d, want %d", n, before + 2);
	close(fd); /* destroys QP, SRQ, CQs, PD in the kernel's order */
	n = count_fds_but_pins();
	EXPECT(n == before + 1, "after close: %d fds, want %d", n, before + 1);
	close(ch);
	n = count_fds_but_pins();
	EXPECT(n == before, "leaked %d fds", n - before);
}

/* rxe: each ring maps once at its offset, up to its size. */
static void check_rxe_rings(int fd)
{
	struct {
		struct ib_uverbs_create_cq_resp core;
		struct rxe_create_cq_resp drv;
	} r = {};
	struct ib_uverbs_create_cq c = {
		.response = (uintptr_t)&r, .cqe = 100, .comp_channel = -1};
	struct rxe_queue_buf *q;
	void *p;

	EXPECT_ERR(raw_write(fd, IB_USER_VERBS_CMD_CREATE_CQ, &c, sizeof(c),
			     sizeof(r)),
		   0);
	EXPECT(r.drv.mi.offset && r.drv.mi.size && r.core.cqe == 127,
	       "mminfo %#llx/%u cqe %u", (unsigned long long)r.drv.mi.offset,
	       r.drv.mi.size, r.core.cqe);
	p = mmap(NULL, r.drv.mi.size + 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, (off_t)r.drv.mi.offset);
	EXPECT(p == MAP_FAILED && errno == EINVAL, "mapped past the ring");
	p = mmap(NULL, r.drv.mi.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)r.drv.mi.offset);
	EXPECT(p != MAP_FAILED, "ring mmap: %s", strerrorname_np(errno));
	if (p == MAP_FAILED)
		return;
	q = p;
	EXPECT(q->log2_elem_size == 7 && q->index_mask == 127 &&
		       !q->producer_index && !q->consumer_index,
	       "ring header %u/%#x", q->log2_elem_size, q->index_mask);
	EXPECT(mmap(NULL, r.drv.mi.size, PROT_READ, MAP_SHARED, fd,
		    (off_t)r.drv.mi.offset) == MAP_FAILED &&
		       errno == EINVAL,
	       "a ring mapped twice");
	EXPECT_ERR(raw_destroy_cq(fd, r.core.cq_handle, NULL), 0);
	/* the mapping outlives the CQ, as a vma keeps the kernel's pages */
	EXPECT(q->index_mask == 127, "ring unreadable after destroy");
	munmap(p, r.drv.mi.size);
}

void v_check_leaks(void)
{
	uint32_t pd, cq;
	int fd = v_env(&pd, &cq);

	if (fd < 0)
		return;
	check_churn(fd, pd, cq);
	if (v_rxe)
		check_rxe_rings(fd);
	close(fd);
	check_close_full();
}
