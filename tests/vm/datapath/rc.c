// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RC through the classic post API: every opcode rxe carries, with the
 * bytes read back on the other side, inline sends, immediate data, and an
 * unsignaled batch where only every 4th WR asks for a completion.
 */
#include <endian.h>
#include <string.h>

#include "dp.h"

static void write_read(struct dp_end *a, struct dp_end *b)
{
	struct ibv_send_wr wr;
	struct ibv_sge sge;
	struct ibv_wc wc;

	dp_fill(a->buf, 3000, 1);
	dp_wr(&wr, &sge, a, IBV_WR_RDMA_WRITE, 0, 3000, 100);
	dp_check("rc.write.post", !dp_post1(a, &wr), "post failed");
	if (dp_expect_wc("rc.write.wc", a->cq, &wc, IBV_WC_SUCCESS,
			 IBV_WC_RDMA_WRITE, 0))
		dp_check("rc.write.bytes", !memcmp(b->buf + 100, a->buf, 3000),
			 "remote bytes differ");
	dp_check("rc.write.no_responder_cqe", dp_cq_idle(b->cq),
		 "a plain WRITE made a receive completion");

	/* READ the same range back into a fresh part of a's buffer. */
	dp_wr(&wr, &sge, a, IBV_WR_RDMA_READ, 4096, 3000, 100);
	dp_check("rc.read.post", !dp_post1(a, &wr), "post failed");
	if (dp_expect_wc("rc.read.wc", a->cq, &wc, IBV_WC_SUCCESS,
			 IBV_WC_RDMA_READ, 4096))
		dp_check("rc.read.bytes",
			 !memcmp(a->buf + 4096, a->buf, 3000) &&
				 wc.byte_len == 3000,
			 "read bytes differ (byte_len %u)", wc.byte_len);
}

static void send_imm(struct dp_end *a, struct dp_end *b)
{
	struct ibv_send_wr wr;
	struct ibv_sge sge;
	struct ibv_wc wc;

	memset(b->buf, 0, DP_BUF);
	dp_fill(a->buf, 1500, 2);
	dp_post_recv(b, 0, 2048, 7);
	dp_wr(&wr, &sge, a, IBV_WR_SEND, 0, 1500, 0);
	dp_check("rc.send.post", !dp_post1(a, &wr), "post failed");
	if (dp_expect_wc("rc.send.req", a->cq, &wc, IBV_WC_SUCCESS, IBV_WC_SEND,
			 0) &&
	    dp_expect_wc("rc.send.resp", b->cq, &wc, IBV_WC_SUCCESS,
			 IBV_WC_RECV, 7))
		dp_check("rc.send.bytes",
			 wc.byte_len == 1500 && !memcmp(b->buf, a->buf, 1500) &&
				 !(wc.wc_flags & IBV_WC_WITH_IMM) &&
				 wc.qp_num == b->qp->qp_num,
			 "byte_len %u flags %#x", wc.byte_len, wc.wc_flags);

	dp_post_recv(b, 2048, 2048, 8);
	dp_wr(&wr, &sge, a, IBV_WR_SEND_WITH_IMM, 0, 64, 0);
	wr.imm_data = htobe32(0xfeedbeef);
	dp_post1(a, &wr);
	if (dp_expect_wc("rc.send_imm.req", a->cq, &wc, IBV_WC_SUCCESS,
			 IBV_WC_SEND, 0) &&
	    dp_expect_wc("rc.send_imm.resp", b->cq, &wc, IBV_WC_SUCCESS,
			 IBV_WC_RECV, 8))
		dp_check("rc.send_imm.imm",
			 wc.wc_flags & IBV_WC_WITH_IMM &&
				 wc.imm_data == htobe32(0xfeedbeef) &&
				 wc.byte_len == 64 &&
				 !memcmp(b->buf + 2048, a->buf, 64),
			 "flags %#x imm %#x len %u", wc.wc_flags,
			 be32toh(wc.imm_data), wc.byte_len);

	/* WRITE_WITH_IMM: data lands at the rkey, the imm consumes a recv. */
	dp_post_recv(b, 0, 16, 9);
	dp_fill(a->buf, 700, 3);
	dp_wr(&wr, &sge, a, IBV_WR_RDMA_WRITE_WITH_IMM, 0, 700, 5000);
	wr.imm_data = htobe32(42);
	dp_post1(a, &wr);
	if (dp_expect_wc("rc.write_imm.req", a->cq, &wc, IBV_WC_SUCCESS,
			 IBV_WC_RDMA_WRITE, 0) &&
	    dp_expect_wc("rc.write_imm.resp", b->cq, &wc, IBV_WC_SUCCESS,
			 IBV_WC_RECV_RDMA_WITH_IMM, 9))
		dp_check("rc.write_imm.bytes",
			 wc.imm_data == htobe32(42) && wc.byte_len == 700 &&
				 !memcmp(b->buf + 5000, a->buf, 700),
			 "imm %#x len %u", be32toh(wc.imm_data), wc.byte_len);
}

static void atomics(struct dp_end *a, struct dp_end *b)
{
	uint64_t *remote = (uint64_t *)(b->buf + 6000);
	uint64_t *result = (uint64_t *)(a->buf + 6000);
	struct ibv_send_wr wr;
	struct ibv_sge sge;
	struct ibv_wc wc;

	*remote = 1000;
	*result = 0;
	dp_wr(&wr, &sge, a, IBV_WR_ATOMIC_FETCH_AND_ADD, 6000, 8, 6000);
	wr.wr.atomic.compare_add = 5;
	dp_post1(a, &wr);
	if (dp_expect_wc("rc.fetch_add.wc", a->cq, &wc, IBV_WC_SUCCESS,
			 IBV_WC_FETCH_ADD, 6000))
		dp_check("rc.fetch_add.values",
			 *result == 1000 && *remote == 1005,
			 "old %llu new %llu", (unsigned long long)*result,
			 (unsigned long long)*remote);

	dp_wr(&wr, &sge, a, IBV_WR_ATOMIC_CMP_AND_SWP, 6000, 8, 6000);
	wr.wr.atomic.compare_add = 1005;
	wr.wr.atomic.swap = 77;
	dp_post1(a, &wr);
	if (dp_expect_wc("rc.cmp_swap.wc", a->cq, &wc, IBV_WC_SUCCESS,
			 IBV_WC_COMP_SWAP, 6000))
		dp_check("rc.cmp_swap.values", *result == 1005 && *remote == 77,
			 "old %llu new %llu", (unsigned long long)*result,
			 (unsigned long long)*remote);

	/* A compare that misses leaves the target alone. */
	wr.wr.atomic.compare_add = 1;
	wr.wr.atomic.swap = 99;
	dp_post1(a, &wr);
	if (dp_expect_wc("rc.cmp_swap_miss.wc", a->cq, &wc, IBV_WC_SUCCESS,
			 IBV_WC_COMP_SWAP, 6000))
		dp_check("rc.cmp_swap_miss.values",
			 *result == 77 && *remote == 77, "old %llu new %llu",
			 (unsigned long long)*result,
			 (unsigned long long)*remote);

	/* Misaligned atomics are refused before they reach the ring. */
	dp_wr(&wr, &sge, a, IBV_WR_ATOMIC_FETCH_AND_ADD, 6000, 8, 6001);
	dp_check("rc.atomic_misaligned.einval", dp_post1(a, &wr) == EINVAL,
		 "accepted");
}

static void inline_send(struct dp_end *a, struct dp_end *b)
{
	/* Not registered: inline data is copied at post time. */
	char msg[48] = "inline bytes are copied into the WQE itself";
	struct ibv_sge sge = {.addr = (uintptr_t)msg, .length = sizeof(msg)};
	struct ibv_send_wr wr = {
		.wr_id = 11,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE,
	};
	struct ibv_wc wc;

	memset(b->buf, 0, 64);
	dp_post_recv(b, 0, 64, 12);
	dp_check("rc.inline.post", !dp_post1(a, &wr), "post failed");
	memset(msg, 'x', sizeof(msg)); /* must not matter any more */
	if (dp_expect_wc("rc.inline.req", a->cq, &wc, IBV_WC_SUCCESS,
			 IBV_WC_SEND, 11) &&
	    dp_expect_wc("rc.inline.resp", b->cq, &wc, IBV_WC_SUCCESS,
			 IBV_WC_RECV, 12))
		dp_check("rc.inline.bytes",
			 wc.byte_len == 48 &&
				 !memcmp(b->buf, "inline bytes are", 16),
			 "len %u", wc.byte_len);

	/* Larger than the granted max_inline_data: EINVAL, nothing sent. */
	sge.length = 4096;
	sge.addr = (uintptr_t)a->buf;
	dp_check("rc.inline.too_big", dp_post1(a, &wr) == EINVAL, "accepted");
}

/* 16 WRITEs, every 4th signaled: 4 completions, all 16 ranges written. */
static void unsignaled(struct dp_end *a, struct dp_end *b)
{
	struct ibv_send_wr wr[16], *bad = NULL;
	struct ibv_sge sge[16];
	struct ibv_wc wc;
	int i, n = 0;

	memset(b->buf, 0, DP_BUF);
	dp_fill(a->buf, 16 * 256, 4);
	for (i = 0; i < 16; i++) {
		dp_wr(&wr[i], &sge[i], a, IBV_WR_RDMA_WRITE, i * 256, 256,
		      i * 256);
		wr[i].send_flags = (i % 4 == 3) ? IBV_SEND_SIGNALED : 0;
		wr[i].next = i < 15 ? &wr[i + 1] : NULL;
	}
	dp_check("rc.unsignaled.post", !ibv_post_send(a->qp, wr, &bad),
		 "post failed");
	for (i = 0; i < 4; i++)
		if (dp_poll(a->cq, &wc) == 1 && wc.status == IBV_WC_SUCCESS &&
		    wc.wr_id == (uint64_t)(i * 4 + 3) * 256)
			n++;
	dp_check("rc.unsignaled.cqes", n == 4 && dp_cq_idle(a->cq),
		 "%d of 4 signaled completions in order", n);
	dp_check("rc.unsignaled.bytes", !memcmp(b->buf, a->buf, 16 * 256),
		 "remote bytes differ");
}

void dp_rc_ops(void)
{
	struct dp_end a, b;

	if (!dp_pair("rc.setup", &a, &b, IBV_QPT_RC, NULL, 0))
		return;
	write_read(&a, &b);
	send_imm(&a, &b);
	atomics(&a, &b);
	inline_send(&a, &b);
	unsignaled(&a, &b);
	dp_end_destroy(&a);
	dp_end_destroy(&b);
}
