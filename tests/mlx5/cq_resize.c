// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibv_resize_cq on mlx5 end to end: receive completions left in the ring
 * across a grow and a shrink come out once each and in order (wr_id,
 * status, opcode, byte_len, QP), completions after the resize land in
 * the new ring through several passes of it, a resize below the CQEs
 * still queued is EINVAL and loses nothing, the same ring size is a
 * no-op, an armed CQ fires on the first completion after a resize (not
 * on the resize itself), and the kernel's answers to bad sizes and bad
 * mlx5 udata, sent as raw RESIZE_CQ writes, carry its errnos. Both a CQ
 * from ibv_create_cq (polled with ibv_poll_cq) and one from
 * ibv_create_cq_ex (start/next/end_poll) go through it; repeated
 * resizes leave no fd, device mapping or ring behind.
 *
 * Built twice: against this project's libibverbs + libmlx5 and against
 * Debian's unmodified rdma-core 44; both run under rdma-sim and must
 * pass. Only the public verbs API and the kernel's uAPI are used.
 * Usage: cq_resize
 */
#include <dlfcn.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <malloc.h>
#include <poll.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/mlx5-abi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "fds.h"
#include "judge.h"
#include "rdma_util.h"

#define SLOT	 64   /* receive buffer bytes per message */
#define NSLOT	 64   /* message slots in the buffer */
#define CHUNK	 32   /* receives posted at most at once (ep depth) */
#define RING_BIG 4096 /* the grow of the leak cycles: 256 KiB of CQEs */
#define BUF_SIZE 8192 /* NSLOT receive slots, then the send data */

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_mr *mr;
static uint8_t *buf;
static int max_cqe;

/* a sends to b; b's CQ (only its receives) is the one under test */
static struct rdma_ep a, b;
static uint64_t next_id; /* wr_id of the next message */

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static uint32_t msg_len(uint64_t id)
{
	return 1 + (uint32_t)(id % SLOT);
}

/*
 * n SENDs a -> b, each with its receive posted first, CHUNK at a time;
 * returns once a has all n send completions, so the n receive CQEs are in
 * b's CQ (the responder completes before it acknowledges).
 */
static int send_n(int n)
{
	struct ibv_wc wc[CHUNK];
	int i, k, done;

	for (done = 0; done < n; done += k) {
		k = n - done < CHUNK ? n - done : CHUNK;
		for (i = 0; i < k; i++) {
			uint64_t id = next_id + i;

			if (ep_recv(&b, buf + (id % NSLOT) * SLOT, SLOT,
				    mr->lkey, id) ||
			    ep_post(&a, IBV_WR_SEND, buf + NSLOT * SLOT,
				    msg_len(id), mr->lkey, 0, 0,
				    IBV_SEND_SIGNALED, id))
				return -1;
		}
		if (ep_poll(&a, wc, k) != k)
			return -1;
		for (i = 0; i < k; i++)
			if (wc[i].status != IBV_WC_SUCCESS)
				return -1;
		next_id += k;
	}
	return 0;
}

/* One completion of t: 1, 0 when empty, -1 on a poll error. */
static int poll1(struct rdma_ep *t, struct ibv_wc *wc)
{
	struct ibv_poll_cq_attr pa = {};
	int ret;

	if (!t->cq_ex)
		return ibv_poll_cq(t->cq, 1, wc);
	ret = ibv_start_poll(t->cq_ex, &pa);
	if (ret)
		return ret == ENOENT ? 0 : -1;
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = t->cq_ex->wr_id;
	wc->status = t->cq_ex->status;
	wc->opcode = ibv_wc_read_opcode(t->cq_ex);
	wc->byte_len = ibv_wc_read_byte_len(t->cq_ex);
	wc->qp_num = ibv_wc_read_qp_num(t->cq_ex);
	ibv_end_poll(t->cq_ex);
	return 1;
}

/*
 * The next n completions of t are messages first .. first + n - 1 in
 * order, each once, and (if last) nothing follows them. Returns how many
 * matched.
 */
static int expect_some(struct rdma_ep *t, uint64_t first, int n, bool last,
		       const char *what)
{
	struct ibv_wc wc;
	int i, ok = 0, r;
	double end = now() + 10;

	for (i = 0; i < n && now() < end;) {
		r = poll1(t, &wc);
		if (r < 0)
			break;
		if (!r)
			continue;
		if (wc.wr_id == first + i && wc.status == IBV_WC_SUCCESS &&
		    wc.opcode == IBV_WC_RECV &&
		    wc.byte_len == msg_len(first + i) && wc.qp_num == b.qpn)
			ok++;
		else
			CHECK(0,
			      "%s: completion %d: wr_id %llu status %d opcode "
			      "%d byte_len %u qp %#x, want wr_id %llu len %u",
			      what, i, (unsigned long long)wc.wr_id, wc.status,
			      wc.opcode, wc.byte_len, wc.qp_num,
			      (unsigned long long)(first + i),
			      msg_len(first + i));
		i++;
	}
	CHECK(ok == n, "%s: %d of %d completions right", what, ok, n);
	CHECK(!last || poll1(t, &wc) == 0,
	      "%s: a completion more than the %d sent", what, n);
	return ok;
}

static int expect(struct rdma_ep *t, uint64_t first, int n, const char *what)
{
	return expect_some(t, first, n, true, what);
}

/* Send n and expect them, in chunks of at most chunk. */
static void traffic(struct rdma_ep *t, int n, int chunk, const char *what)
{
	while (n > 0) {
		int k = n < chunk ? n : chunk;
		uint64_t first = next_id;

		CHECK(!send_n(k), "%s: sends did not complete", what);
		expect(t, first, k, what);
		n -= k;
	}
}

static bool readable(int fd, int ms)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};

	return poll(&p, 1, ms) == 1;
}

/* One completion event of t's CQ within 5 s, acknowledged. */
static bool got_event(struct rdma_ep *t)
{
	struct ibv_cq *ecq = NULL;
	void *ectx;
	double end = now() + 5;
	struct ibv_wc wc;

	/* an empty poll lets the sim's engine run in this thread */
	while (!readable(t->channel->fd, 1) && now() < end)
		if (!t->cq_ex)
			ibv_poll_cq(t->cq, 0, &wc);
	if (!readable(t->channel->fd, 0) ||
	    ibv_get_cq_event(t->channel, &ecq, &ectx))
		return false;
	ibv_ack_cq_events(ecq, 1);
	return ecq == t->cq;
}

static void pending_across(struct rdma_ep *t)
{
	uint64_t first = next_id;
	int err;

	/* grow: 7 of 10 still in the 128-entry ring */
	CHECK(!send_n(10), "grow: sends did not complete");
	expect_some(t, first, 3, false, "grow: before");
	err = ibv_resize_cq(t->cq, 200);
	CHECK(!err && t->cq->cqe == 255, "grow: err %d cqe %d", err,
	      t->cq->cqe);
	expect(t, first + 3, 7, "grow: kept");
	/* the new ring: 600 more, over two passes of its 256 entries */
	traffic(t, 600, 30, "grow: after");

	/* shrink to 16 entries with 6 queued */
	first = next_id;
	CHECK(!send_n(6), "shrink: sends did not complete");
	err = ibv_resize_cq(t->cq, 10);
	CHECK(!err && t->cq->cqe == 15, "shrink: err %d cqe %d", err,
	      t->cq->cqe);
	expect(t, first, 6, "shrink: kept");
	traffic(t, 40, 12, "shrink: after");

	/* 12 queued do not fit 4 entries: refused, nothing lost */
	first = next_id;
	CHECK(!send_n(12), "too small: sends did not complete");
	err = ibv_resize_cq(t->cq, 3);
	CHECK(err == EINVAL && t->cq->cqe == 15, "too small: err %d cqe %d",
	      err, t->cq->cqe);
	expect(t, first, 12, "too small: kept");

	/* the same ring size: nothing to do */
	CHECK(!ibv_resize_cq(t->cq, 15) && t->cq->cqe == 15,
	      "same size 15: cqe %d", t->cq->cqe);
	CHECK(!ibv_resize_cq(t->cq, 9) && t->cq->cqe == 15,
	      "same size 9: cqe %d", t->cq->cqe);
	traffic(t, 3, 3, "same size: after");
}

static void events(struct rdma_ep *t)
{
	int err;

	/* armed after a resize */
	CHECK(!ibv_req_notify_cq(t->cq, 0), "arm failed");
	CHECK(!send_n(1), "event: send did not complete");
	CHECK(got_event(t), "no event after the resize");
	expect(t, next_id - 1, 1, "event: after resize");

	/* armed before one: the resize is no completion, the next one is */
	CHECK(!ibv_req_notify_cq(t->cq, 0), "arm failed");
	err = ibv_resize_cq(t->cq, 60);
	CHECK(!err && t->cq->cqe == 63, "armed grow: err %d cqe %d", err,
	      t->cq->cqe);
	expect(t, next_id, 0, "armed grow: empty");
	CHECK(!readable(t->channel->fd, 20), "an event for the resize itself");
	CHECK(!send_n(1), "armed: send did not complete");
	CHECK(got_event(t), "no event for the completion after the resize");
	expect(t, next_id - 1, 1, "armed: after resize");
}

/* Raw RESIZE_CQ write: 0 or the errno; *got gets the answer's cqe. */
static int raw_resize(struct ibv_cq *cq, uint32_t cqe,
		      const struct mlx5_ib_resize_cq *drv, uint32_t *got)
{
	struct ib_uverbs_resize_cq_resp resp = {};
	struct ib_uverbs_cmd_hdr hdr = {
		.command = IB_USER_VERBS_CMD_RESIZE_CQ,
		.out_words = sizeof(resp) / 4,
	};
	struct ib_uverbs_resize_cq core = {
		.response = (uintptr_t)&resp,
		.cq_handle = cq->handle,
		.cqe = cqe,
	};
	uint8_t cmd[sizeof(hdr) + sizeof(core) + sizeof(*drv)];

	hdr.in_words = sizeof(cmd) / 4;
	memcpy(cmd, &hdr, sizeof(hdr));
	memcpy(cmd + sizeof(hdr), &core, sizeof(core));
	memcpy(cmd + sizeof(hdr) + sizeof(core), drv, sizeof(*drv));
	if (write(cq->context->cmd_fd, cmd, sizeof(cmd)) != sizeof(cmd))
		return errno;
	*got = resp.cqe;
	return 0;
}

/* The kernel's (mlx5_ib's) errnos, the library out of the way. */
static void errors(struct rdma_ep *t)
{
	size_t ring = (size_t)128 * 128;
	uint8_t *ok_buf = mmap(NULL, ring, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *gone = mmap(NULL, ring, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct mlx5_ib_resize_cq d = {.cqe_size = 64};
	uint32_t got = 0;
	int cur = t->cq->cqe, err;

	CHECK(ok_buf != MAP_FAILED && gone != MAP_FAILED, "mmap failed");
	munmap(gone, ring);
	d.buf_addr = (uintptr_t)ok_buf;
	CHECK(ibv_resize_cq(t->cq, -1) == EINVAL, "cqe -1 accepted");
	CHECK(ibv_resize_cq(t->cq, 0) == EINVAL, "cqe 0 accepted");
	CHECK(raw_resize(t->cq, 0, &d, &got) == EINVAL, "raw cqe 0");
	CHECK(raw_resize(t->cq, (uint32_t)max_cqe + 1, &d, &got) == EINVAL,
	      "cqe max_cqe + 1 (%d) accepted", max_cqe + 1);
	CHECK(raw_resize(t->cq, 0x80000000u, &d, &got) == EINVAL,
	      "cqe 2^31 accepted");
	d.reserved0 = 1;
	CHECK(raw_resize(t->cq, 100, &d, &got) == EINVAL, "reserved0 set");
	d.reserved0 = 0;
	d.reserved1 = 1;
	CHECK(raw_resize(t->cq, 100, &d, &got) == EINVAL, "reserved1 set");
	/* the same size returns before the udata is looked at */
	got = 0;
	CHECK(raw_resize(t->cq, (uint32_t)cur, &d, &got) == 0 &&
		      got == (uint32_t)cur,
	      "same size with bad udata: got %u want %d", got, cur);
	d.reserved1 = 0;
	d.cqe_size = 0;
	CHECK(raw_resize(t->cq, 100, &d, &got) == EINVAL, "cqe_size 0");
	d.cqe_size = 128;
	err = raw_resize(t->cq, 100, &d, &got);
	CHECK(err == EINVAL, "cqe_size 128 on a 64-byte CQ: %d", err);
	d.cqe_size = 64;
	d.buf_addr = (uintptr_t)gone;
	CHECK(raw_resize(t->cq, 100, &d, &got) == EFAULT, "unmapped ring");
	d.buf_addr = 0;
	CHECK(raw_resize(t->cq, 100, &d, &got) == EFAULT, "ring at 0");
	CHECK(t->cq->cqe == cur, "cqe %d after refused resizes, was %d",
	      t->cq->cqe, cur);
	traffic(t, 5, 5, "after refused resizes");
	munmap(ok_buf, ring);
}

/*
 * KiB of address space in use: all of it but the malloc heap's free
 * space, so that a heap grown by fragmentation (Debian's libmlx5 takes
 * rings from malloc) is no leak while a lost ring, from malloc or mmap,
 * is. -1 under a sanitizer's or valgrind's allocator (whose own leak
 * check covers it).
 */
static long live_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	struct mallinfo2 m = mallinfo2();
	char line[256];
	long kib = -1;

	if (dlsym(RTLD_DEFAULT, "__asan_init") || !m.arena || !f) {
		if (f)
			fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmSize: %ld", &kib) == 1)
			break;
	fclose(f);
	return kib - (long)(m.arena / 1024) + (long)(m.uordblks / 1024);
}

/* 10 grows to 4096 entries and shrinks back, one CQE queued each time. */
static void cycles(struct rdma_ep *t)
{
	int fds = count_fds(), maps = count_maps(), i, bad = 0;
	long kib = live_kib();

	for (i = 0; i < 10; i++) {
		uint64_t first = next_id;

		bad += send_n(1) != 0;
		bad += ibv_resize_cq(t->cq, RING_BIG - 1) != 0;
		bad += ibv_resize_cq(t->cq, 60) != 0;
		bad += expect(t, first, 1, "cycle") != 1;
	}
	CHECK(!bad, "%d failures in the grow/shrink cycles", bad);
	CHECK(count_fds() == fds, "fds %d -> %d", fds, count_fds());
	CHECK(count_maps() == maps, "device mappings %d -> %d", maps,
	      count_maps());
	/* ten lost 256 KiB rings would be 2.5 MiB */
	CHECK(kib < 0 || live_kib() <= kib + 512,
	      "address space in use %ld -> %ld KiB", kib, live_kib());
}

static int run(bool ex)
{
	struct ep_opts o = {.type = IBV_QPT_RC, .depth = CHUNK};

	/* b: 64 CQEs asked (2 x depth), a completion channel */
	o.cq_ex = ex;
	o.channel = true;
	if (ep_open(&b, ctx, pd, &o))
		return -1;
	o.cq_ex = false;
	o.channel = false;
	if (ep_open(&a, ctx, pd, &o) || ep_connect(&a, a.lid, b.qpn) ||
	    ep_connect(&b, b.lid, a.qpn))
		return -1;
	CHECK(b.cq->cqe == 127, "cqe %d at create (64 asked)", b.cq->cqe);
	pending_across(&b);
	events(&b);
	errors(&b);
	cycles(&b);
	ep_close(&a);
	ep_close(&b);
	return 0;
}

static int open_dev(void)
{
	struct ibv_device **list;
	struct ibv_device_attr da;
	int i, n;

	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n && !ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), "mlx5_0"))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	if (!ctx || ibv_query_device(ctx, &da))
		return -1;
	max_cqe = da.max_cqe;
	pd = ibv_alloc_pd(ctx);
	buf = aligned_alloc(4096, BUF_SIZE);
	if (buf) /* small SENDs travel in the CQE: defined bytes */
		memset(buf, 0, BUF_SIZE);
	mr = pd && buf ? ibv_reg_mr(pd, buf, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE)
		       : NULL;
	return mr ? 0 : -1;
}

static void close_dev(void)
{
	ibv_dereg_mr(mr);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	free(buf);
	ctx = NULL;
}

/* Each CQ kind on a context of its own, so the second proves no leak. */
int main(void)
{
	int fds = -1, kind;

	for (kind = 0; kind < 2; kind++) {
		if (open_dev()) {
			fprintf(stderr, "FAIL: no mlx5_0 context (errno %d)\n",
				errno);
			return 1;
		}
		if (run(kind == 1))
			CHECK(0, "setup failed (errno %d)", errno);
		close_dev();
		/* after the first: the sim's fabric socket (first QP) stays */
		CHECK(!kind || count_fds() == fds,
		      "fds %d after the first run, %d after the second", fds,
		      count_fds());
		fds = count_fds();
	}
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	else
		printf("cq_resize: ok\n");
	return failures ? 1 : 0;
}
