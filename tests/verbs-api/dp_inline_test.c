// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The inline data-path dispatch of the public headers: ibv_start_poll(),
 * ibv_next_poll(), ibv_end_poll() and every ibv_wc_read_*() call the
 * function the provider stored in the struct ibv_cq_ex, every ibv_wr_*()
 * the one in the struct ibv_qp_ex, with the arguments unchanged and the
 * return value passed back; ibv_cq_ex_to_cq() is the same object.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <infiniband/verbs.h>

/* Which slot ran last, and with what. */
static int called;
static uint64_t arg[5];

#define RECORD(n, a0, a1, a2, a3, a4)                                          \
	do {                                                                   \
		called = (n);                                                  \
		arg[0] = (uint64_t)(a0);                                       \
		arg[1] = (uint64_t)(a1);                                       \
		arg[2] = (uint64_t)(a2);                                       \
		arg[3] = (uint64_t)(a3);                                       \
		arg[4] = (uint64_t)(a4);                                       \
	} while (0)

static int start_poll(struct ibv_cq_ex *cq, struct ibv_poll_cq_attr *attr)
{
	RECORD(1, attr->comp_mask, 0, 0, 0, 0);
	return 2; /* ENOENT */
}

static int next_poll(struct ibv_cq_ex *cq)
{
	RECORD(2, 0, 0, 0, 0, 0);
	return 0;
}

static void end_poll(struct ibv_cq_ex *cq)
{
	RECORD(3, 0, 0, 0, 0, 0);
}

static enum ibv_wc_opcode read_opcode(struct ibv_cq_ex *cq)
{
	return IBV_WC_RDMA_READ;
}

static uint32_t read_u32(struct ibv_cq_ex *cq)
{
	return 0x1234;
}

static __be32 read_imm(struct ibv_cq_ex *cq)
{
	return 0xabcd;
}

static unsigned int read_flags(struct ibv_cq_ex *cq)
{
	return IBV_WC_GRH;
}

static uint8_t read_u8(struct ibv_cq_ex *cq)
{
	return 7;
}

static uint64_t read_u64(struct ibv_cq_ex *cq)
{
	return 1ULL << 40;
}

static uint16_t read_u16(struct ibv_cq_ex *cq)
{
	return 0x0fed;
}

static void read_tm(struct ibv_cq_ex *cq, struct ibv_wc_tm_info *tm)
{
	tm->tag = 5;
	tm->priv = 6;
}

static void test_cq_ex_dispatch(void **state)
{
	struct ibv_cq_ex cq = {
		.start_poll = start_poll,
		.next_poll = next_poll,
		.end_poll = end_poll,
		.read_opcode = read_opcode,
		.read_vendor_err = read_u32,
		.read_byte_len = read_u32,
		.read_imm_data = read_imm,
		.read_qp_num = read_u32,
		.read_src_qp = read_u32,
		.read_wc_flags = read_flags,
		.read_slid = read_u32,
		.read_sl = read_u8,
		.read_dlid_path_bits = read_u8,
		.read_completion_ts = read_u64,
		.read_cvlan = read_u16,
		.read_flow_tag = read_u32,
		.read_tm_info = read_tm,
		.read_completion_wallclock_ns = read_u64,
	};
	struct ibv_poll_cq_attr attr = {.comp_mask = 9};
	struct ibv_wc_tm_info tm;

	assert_ptr_equal(ibv_cq_ex_to_cq(&cq), (void *)&cq);
	assert_int_equal(ibv_start_poll(&cq, &attr), 2);
	assert_int_equal(called, 1);
	assert_int_equal(arg[0], 9);
	assert_int_equal(ibv_next_poll(&cq), 0);
	assert_int_equal(called, 2);
	ibv_end_poll(&cq);
	assert_int_equal(called, 3);
	assert_int_equal(ibv_wc_read_opcode(&cq), IBV_WC_RDMA_READ);
	assert_int_equal(ibv_wc_read_vendor_err(&cq), 0x1234);
	assert_int_equal(ibv_wc_read_byte_len(&cq), 0x1234);
	assert_int_equal(ibv_wc_read_imm_data(&cq), 0xabcd);
	assert_int_equal(ibv_wc_read_invalidated_rkey(&cq), 0xabcd);
	assert_int_equal(ibv_wc_read_qp_num(&cq), 0x1234);
	assert_int_equal(ibv_wc_read_src_qp(&cq), 0x1234);
	assert_int_equal(ibv_wc_read_wc_flags(&cq), IBV_WC_GRH);
	assert_int_equal(ibv_wc_read_slid(&cq), 0x1234);
	assert_int_equal(ibv_wc_read_sl(&cq), 7);
	assert_int_equal(ibv_wc_read_dlid_path_bits(&cq), 7);
	assert_int_equal(ibv_wc_read_completion_ts(&cq), 1ULL << 40);
	assert_int_equal(ibv_wc_read_completion_wallclock_ns(&cq), 1ULL << 40);
	assert_int_equal(ibv_wc_read_cvlan(&cq), 0x0fed);
	assert_int_equal(ibv_wc_read_flow_tag(&cq), 0x1234);
	ibv_wc_read_tm_info(&cq, &tm);
	assert_int_equal(tm.tag, 5);
	assert_int_equal(tm.priv, 6);
}

static void wr_cas(struct ibv_qp_ex *qp, uint32_t rkey, uint64_t raddr,
		   uint64_t compare, uint64_t swap)
{
	RECORD(10, rkey, raddr, compare, swap, 0);
}

static void wr_faa(struct ibv_qp_ex *qp, uint32_t rkey, uint64_t raddr,
		   uint64_t add)
{
	RECORD(11, rkey, raddr, add, 0, 0);
}

static void wr_bind(struct ibv_qp_ex *qp, struct ibv_mw *mw, uint32_t rkey,
		    const struct ibv_mw_bind_info *info)
{
	RECORD(12, (uintptr_t)mw, rkey, (uintptr_t)info, 0, 0);
}

static void wr_rkey(struct ibv_qp_ex *qp, uint32_t rkey)
{
	RECORD(13, rkey, 0, 0, 0, 0);
}

static void wr_remote(struct ibv_qp_ex *qp, uint32_t rkey, uint64_t raddr)
{
	RECORD(14, rkey, raddr, 0, 0, 0);
}

static void wr_remote_imm(struct ibv_qp_ex *qp, uint32_t rkey,
			  uint64_t raddr, __be32 imm)
{
	RECORD(15, rkey, raddr, imm, 0, 0);
}

static void wr_plain(struct ibv_qp_ex *qp)
{
	RECORD(16, 0, 0, 0, 0, 0);
}

static void wr_imm(struct ibv_qp_ex *qp, __be32 imm)
{
	RECORD(17, imm, 0, 0, 0, 0);
}

static void wr_tso(struct ibv_qp_ex *qp, void *hdr, uint16_t sz, uint16_t mss)
{
	RECORD(18, (uintptr_t)hdr, sz, mss, 0, 0);
}

static void wr_ud(struct ibv_qp_ex *qp, struct ibv_ah *ah, uint32_t qpn,
		  uint32_t qkey)
{
	RECORD(19, (uintptr_t)ah, qpn, qkey, 0, 0);
}

static void wr_inline(struct ibv_qp_ex *qp, void *addr, size_t len)
{
	RECORD(20, (uintptr_t)addr, len, 0, 0, 0);
}

static void wr_inline_list(struct ibv_qp_ex *qp, size_t n,
			   const struct ibv_data_buf *bufs)
{
	RECORD(21, n, (uintptr_t)bufs, 0, 0, 0);
}

static void wr_sge(struct ibv_qp_ex *qp, uint32_t lkey, uint64_t addr,
		   uint32_t len)
{
	RECORD(22, lkey, addr, len, 0, 0);
}

static void wr_sge_list(struct ibv_qp_ex *qp, size_t n,
			const struct ibv_sge *sges)
{
	RECORD(23, n, (uintptr_t)sges, 0, 0, 0);
}

static int wr_complete(struct ibv_qp_ex *qp)
{
	RECORD(24, 0, 0, 0, 0, 0);
	return 28; /* ENOSPC */
}

static void wr_atomic_write(struct ibv_qp_ex *qp, uint32_t rkey,
			    uint64_t raddr, const void *data)
{
	RECORD(25, rkey, raddr, (uintptr_t)data, 0, 0);
}

static void wr_flush(struct ibv_qp_ex *qp, uint32_t rkey, uint64_t raddr,
		     size_t len, uint8_t type, uint8_t level)
{
	RECORD(26, rkey, raddr, len, type, level);
}

static void wr_abort(struct ibv_qp_ex *qp)
{
	RECORD(27, 0, 0, 0, 0, 0);
}

#define EXPECT(n, a0, a1, a2, a3, a4)                                          \
	do {                                                                   \
		assert_int_equal(called, n);                                   \
		assert_int_equal(arg[0], (uint64_t)(a0));                      \
		assert_int_equal(arg[1], (uint64_t)(a1));                      \
		assert_int_equal(arg[2], (uint64_t)(a2));                      \
		assert_int_equal(arg[3], (uint64_t)(a3));                      \
		assert_int_equal(arg[4], (uint64_t)(a4));                      \
	} while (0)

static void test_qp_ex_dispatch(void **state)
{
	struct ibv_qp_ex qp = {
		.wr_atomic_cmp_swp = wr_cas,
		.wr_atomic_fetch_add = wr_faa,
		.wr_bind_mw = wr_bind,
		.wr_local_inv = wr_rkey,
		.wr_rdma_read = wr_remote,
		.wr_rdma_write = wr_remote,
		.wr_rdma_write_imm = wr_remote_imm,
		.wr_send = wr_plain,
		.wr_send_imm = wr_imm,
		.wr_send_inv = wr_rkey,
		.wr_send_tso = wr_tso,
		.wr_set_ud_addr = wr_ud,
		.wr_set_xrc_srqn = wr_rkey,
		.wr_set_inline_data = wr_inline,
		.wr_set_inline_data_list = wr_inline_list,
		.wr_set_sge = wr_sge,
		.wr_set_sge_list = wr_sge_list,
		.wr_start = wr_plain,
		.wr_complete = wr_complete,
		.wr_abort = wr_abort,
		.wr_atomic_write = wr_atomic_write,
		.wr_flush = wr_flush,
	};
	struct ibv_mw_bind_info info;
	struct ibv_data_buf bufs[2];
	struct ibv_sge sges[3];
	struct ibv_mw mw;
	struct ibv_ah ah;
	uint64_t data = 0;
	char hdr[4];

	ibv_wr_atomic_cmp_swp(&qp, 1, 2, 3, 4);
	EXPECT(10, 1, 2, 3, 4, 0);
	ibv_wr_atomic_fetch_add(&qp, 5, 6, 7);
	EXPECT(11, 5, 6, 7, 0, 0);
	ibv_wr_bind_mw(&qp, &mw, 8, &info);
	EXPECT(12, (uintptr_t)&mw, 8, (uintptr_t)&info, 0, 0);
	ibv_wr_local_inv(&qp, 9);
	EXPECT(13, 9, 0, 0, 0, 0);
	ibv_wr_rdma_read(&qp, 10, 11);
	EXPECT(14, 10, 11, 0, 0, 0);
	ibv_wr_rdma_write(&qp, 12, 13);
	EXPECT(14, 12, 13, 0, 0, 0);
	ibv_wr_rdma_write_imm(&qp, 14, 15, 16);
	EXPECT(15, 14, 15, 16, 0, 0);
	called = 0;
	ibv_wr_send(&qp);
	EXPECT(16, 0, 0, 0, 0, 0);
	ibv_wr_send_imm(&qp, 17);
	EXPECT(17, 17, 0, 0, 0, 0);
	ibv_wr_send_inv(&qp, 18);
	EXPECT(13, 18, 0, 0, 0, 0);
	ibv_wr_send_tso(&qp, hdr, 4, 1400);
	EXPECT(18, (uintptr_t)hdr, 4, 1400, 0, 0);
	ibv_wr_set_ud_addr(&qp, &ah, 19, 20);
	EXPECT(19, (uintptr_t)&ah, 19, 20, 0, 0);
	ibv_wr_set_xrc_srqn(&qp, 21);
	EXPECT(13, 21, 0, 0, 0, 0);
	ibv_wr_set_inline_data(&qp, hdr, 3);
	EXPECT(20, (uintptr_t)hdr, 3, 0, 0, 0);
	ibv_wr_set_inline_data_list(&qp, 2, bufs);
	EXPECT(21, 2, (uintptr_t)bufs, 0, 0, 0);
	ibv_wr_set_sge(&qp, 22, 23, 24);
	EXPECT(22, 22, 23, 24, 0, 0);
	ibv_wr_set_sge_list(&qp, 3, sges);
	EXPECT(23, 3, (uintptr_t)sges, 0, 0, 0);
	called = 0;
	ibv_wr_start(&qp);
	EXPECT(16, 0, 0, 0, 0, 0);
	assert_int_equal(ibv_wr_complete(&qp), 28);
	EXPECT(24, 0, 0, 0, 0, 0);
	ibv_wr_abort(&qp);
	EXPECT(27, 0, 0, 0, 0, 0);
	ibv_wr_atomic_write(&qp, 25, 26, &data);
	EXPECT(25, 25, 26, (uintptr_t)&data, 0, 0);
	ibv_wr_flush(&qp, 27, 28, 29, 1, 2);
	EXPECT(26, 27, 28, 29, 1, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cq_ex_dispatch),
		cmocka_unit_test(test_qp_ex_dispatch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
