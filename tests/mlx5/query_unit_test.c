// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * query.c against a recorded EX_QUERY_DEVICE: each bit of the mlx5
 * response becomes its mlx5dv flag (and no other), each caps struct is
 * copied member by member, the caller's comp_mask decides what is written,
 * the core clock pointer honours the page offset the kernel gave, and a
 * kernel without the mlx5 response (no QUERY_DEVICE in cmds_supp_uhw)
 * leaves every cap empty; mlx5dv_get_clock_info takes a consistent copy
 * of the clock-info page or says EBUSY.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mlx5.h"

static struct mlx5_ib_query_device_resp next_resp;
static unsigned int udata_calls;

int ibv_cmd_query_device_any(struct ibv_context *ctx,
			     const struct ibv_query_device_ex_input *input,
			     struct ibv_device_attr_ex *attr, size_t attr_size,
			     const struct ibv_udata *udata)
{
	memset(attr, 0, attr_size);
	if (udata) {
		udata_calls++;
		assert_true(udata->out_len >= sizeof(next_resp));
		memcpy(udata->out, &next_resp, sizeof(next_resp));
	}
	return 0;
}

int ibv_cmd_query_port(struct ibv_context *ctx, uint8_t port_num,
		       struct ibv_port_attr *attr)
{
	return EINVAL;
}

/* device.c is not linked: every context here is an mlx5 one. */
bool mlx5_is_mlx5_context(struct ibv_context *ibctx)
{
	return true;
}

static struct mlx5_context ctx;

static void setup(void)
{
	memset(&ctx, 0, sizeof(ctx));
	memset(&next_resp, 0, sizeof(next_resp));
	ctx.cmds_supp_uhw = MLX5_USER_CMDS_SUPP_UHW_QUERY_DEVICE;
	ctx.page_size = 4096;
	udata_calls = 0;
}

static uint64_t dv_flags_of(void)
{
	struct ibv_device_attr_ex attr;
	struct mlx5dv_context dv = {};

	assert_int_equal(mlx5_query_device_ex(&ctx.ibv_ctx.context, NULL, &attr,
					      sizeof(attr)),
			 0);
	assert_int_equal(mlx5dv_query_device(&ctx.ibv_ctx.context, &dv), 0);
	return dv.flags;
}

static void test_flags_one_by_one(void **state)
{
	static const struct {
		bool mpw;
		uint32_t bit;
		uint64_t flag;
	} map[] = {
		{true, MLX5_IB_ALLOW_MPW, MLX5DV_CONTEXT_FLAGS_MPW_ALLOWED},
		{true, MLX5_IB_SUPPORT_EMPW, MLX5DV_CONTEXT_FLAGS_ENHANCED_MPW},
		{false, MLX5_IB_QUERY_DEV_RESP_FLAGS_CQE_128B_COMP,
		 MLX5DV_CONTEXT_FLAGS_CQE_128B_COMP},
		{false, MLX5_IB_QUERY_DEV_RESP_FLAGS_CQE_128B_PAD,
		 MLX5DV_CONTEXT_FLAGS_CQE_128B_PAD},
		{false, MLX5_IB_QUERY_DEV_RESP_PACKET_BASED_CREDIT_MODE,
		 MLX5DV_CONTEXT_FLAGS_PACKET_BASED_CREDIT_MODE},
		/* no mlx5dv flag: SCAT2CQE_DCT, MPW's reserved bit */
		{false, MLX5_IB_QUERY_DEV_RESP_FLAGS_SCAT2CQE_DCT, 0},
		{true, MPW_RESERVED, 0},
	};
	unsigned int i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		setup();
		if (map[i].mpw)
			next_resp.mlx5_ib_support_multi_pkt_send_wqes =
				map[i].bit;
		else
			next_resp.flags = map[i].bit;
		assert_int_equal(dv_flags_of(), map[i].flag);
	}
	/* CQE version 1 and real-time timestamps come from the context. */
	setup();
	ctx.cqe_version = 1;
	ctx.resp_comp_mask = MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_REAL_TIME_TS;
	assert_int_equal(dv_flags_of(),
			 MLX5DV_CONTEXT_FLAGS_CQE_V1 |
				 MLX5DV_CONTEXT_FLAGS_REAL_TIME_TS);
}

static void test_caps_and_mask(void **state)
{
	struct ibv_device_attr_ex attr;
	struct mlx5dv_context dv;
	uint64_t clock_page[512];

	setup();
	next_resp.cqe_comp_caps.max_num = 11;
	next_resp.cqe_comp_caps.supported_format = 12;
	next_resp.sw_parsing_caps.sw_parsing_offloads = 13;
	next_resp.sw_parsing_caps.supported_qpts = 14;
	next_resp.striding_rq_caps =
		(struct mlx5_ib_striding_rq_caps){15, 16, 17, 18, 19, 0};
	next_resp.tunnel_offloads_caps = 20;
	next_resp.dci_streams_caps.max_log_num_concurent = 21;
	next_resp.dci_streams_caps.max_log_num_errored = 22;
	next_resp.tso_caps.max_tso = 23;
	next_resp.rss_caps.rx_hash_fields_mask = 24;
	next_resp.packet_pacing_caps.qp_rate_limit_max = 25;
	ctx.num_dyn_bfregs = 26;
	ctx.flow_action_flags = 27;
	ctx.core_clock.addr = clock_page;
	ctx.hca_core_clock_offset = 0x10000 + 0x238; /* page offset 0x238 */
	assert_int_equal(mlx5_query_device_ex(&ctx.ibv_ctx.context, NULL, &attr,
					      sizeof(attr)),
			 0);
	assert_int_equal(attr.tso_caps.max_tso, 23);
	assert_int_equal(attr.rss_caps.rx_hash_fields_mask, 24);
	assert_int_equal(attr.packet_pacing_caps.qp_rate_limit_max, 25);

	memset(&dv, 0xa5, sizeof(dv));
	dv.comp_mask = ~0ULL;
	assert_int_equal(mlx5dv_query_device(&ctx.ibv_ctx.context, &dv), 0);
	/* No clock-info page, no LAG, none of rdma-core 65's own bits. */
	assert_int_equal(
		dv.comp_mask,
		0x3fff & ~(uint64_t)(MLX5DV_CONTEXT_MASK_CLOCK_INFO_UPDATE |
				     MLX5DV_CONTEXT_MASK_NUM_LAG_PORTS));
	assert_int_equal(dv.cqe_comp_caps.max_num, 11);
	assert_int_equal(dv.cqe_comp_caps.supported_format, 12);
	assert_int_equal(dv.sw_parsing_caps.sw_parsing_offloads, 13);
	assert_int_equal(dv.sw_parsing_caps.supported_qpts, 14);
	assert_int_equal(dv.striding_rq_caps.min_single_stride_log_num_of_bytes,
			 15);
	assert_int_equal(dv.striding_rq_caps.max_single_stride_log_num_of_bytes,
			 16);
	assert_int_equal(dv.striding_rq_caps.min_single_wqe_log_num_of_strides,
			 17);
	assert_int_equal(dv.striding_rq_caps.max_single_wqe_log_num_of_strides,
			 18);
	assert_int_equal(dv.striding_rq_caps.supported_qpts, 19);
	assert_int_equal(dv.tunnel_offloads_caps, 20);
	assert_int_equal(dv.dci_streams_caps.max_log_num_concurent, 21);
	assert_int_equal(dv.dci_streams_caps.max_log_num_errored, 22);
	assert_int_equal(dv.max_dynamic_bfregs, 26);
	assert_int_equal(dv.flow_action_flags, 27);
	assert_ptr_equal(dv.hca_core_clock, (uint8_t *)clock_page + 0x238);
	assert_int_equal(dv.dc_odp_caps, 0);
	assert_int_equal(dv.max_wr_memcpy_length, 0);
	/* not reported: left as the caller had them */
	assert_int_equal(dv.num_lag_ports, 0xa5);
	assert_int_equal(dv.max_clock_info_update_nsec, 0xa5a5a5a5a5a5a5a5ULL);

	/* Asked for one member: only that one is written. */
	memset(&dv, 0xa5, sizeof(dv));
	dv.comp_mask = MLX5DV_CONTEXT_MASK_TUNNEL_OFFLOADS;
	assert_int_equal(mlx5dv_query_device(&ctx.ibv_ctx.context, &dv), 0);
	assert_int_equal(dv.comp_mask, MLX5DV_CONTEXT_MASK_TUNNEL_OFFLOADS);
	assert_int_equal(dv.tunnel_offloads_caps, 20);
	assert_int_equal(dv.cqe_comp_caps.max_num, 0xa5a5a5a5);
	assert_int_equal(dv.max_dynamic_bfregs, 0xa5a5a5a5);
}

static void test_no_mlx5_response(void **state)
{
	struct ibv_device_attr_ex attr;
	struct mlx5dv_context dv = {.comp_mask = MLX5DV_CONTEXT_MASK_SWP};

	setup();
	next_resp.flags = MLX5_IB_QUERY_DEV_RESP_FLAGS_CQE_128B_PAD;
	next_resp.sw_parsing_caps.sw_parsing_offloads = 7;
	assert_int_equal(dv_flags_of(), MLX5DV_CONTEXT_FLAGS_CQE_128B_PAD);
	/* The next query without the mlx5 part forgets what the last said. */
	ctx.cmds_supp_uhw = 0;
	assert_int_equal(mlx5_query_device_ex(&ctx.ibv_ctx.context, NULL, &attr,
					      sizeof(attr)),
			 0);
	assert_int_equal(udata_calls, 1);
	assert_int_equal(mlx5dv_query_device(&ctx.ibv_ctx.context, &dv), 0);
	assert_int_equal(dv.flags, 0);
	assert_int_equal(dv.comp_mask, MLX5DV_CONTEXT_MASK_SWP);
	assert_int_equal(dv.sw_parsing_caps.sw_parsing_offloads, 0);

	errno = 0;
	assert_int_equal(mlx5dv_query_device(&ctx.ibv_ctx.context, NULL),
			 EINVAL);
	assert_int_equal(errno, EINVAL);
}

static void test_clock_info(void **state)
{
	struct mlx5_ib_clock_info page = {.sign = 2,
					  .nsec = 1000,
					  .cycles = 77,
					  .frac = 5,
					  .mult = 3,
					  .shift = 4,
					  .mask = 0xff};
	struct mlx5dv_clock_info ci = {};

	setup();
	/* No clock-info page mapped. */
	assert_int_equal(mlx5dv_get_clock_info(&ctx.ibv_ctx.context, &ci),
			 EINVAL);
	ctx.clock_info.addr = &page;
	assert_int_equal(mlx5dv_get_clock_info(&ctx.ibv_ctx.context, &ci), 0);
	assert_int_equal(ci.nsec, 1000);
	assert_int_equal(ci.last_cycles, 77);
	assert_int_equal(ci.frac, 5);
	assert_int_equal(ci.mult, 3);
	assert_int_equal(ci.shift, 4);
	assert_int_equal(ci.mask, 0xff);
	/* 10 cycles ahead: 1000 + (10 * 3 + 5) >> 4 */
	assert_int_equal(mlx5dv_ts_to_ns(&ci, 87), 1002);
	/* The kernel in the middle of an update, for good. */
	page.sign = 3;
	assert_int_equal(mlx5dv_get_clock_info(&ctx.ibv_ctx.context, &ci),
			 EBUSY);
}

/*
 * mlx5_query_rt_values: the 64-bit counter from the core-clock page at
 * the kernel's offset, big endian, high word first; tv_sec 0.
 */
static void test_rt_values(void **state)
{
	uint32_t clock_page[1024] = {};
	struct ibv_values_ex v = {.comp_mask = IBV_VALUES_MASK_RAW_CLOCK};

	setup();
	assert_int_equal(mlx5_query_rt_values(&ctx.ibv_ctx.context, &v),
			 EOPNOTSUPP);
	assert_int_equal(v.comp_mask, 0);
	ctx.page_size = 4096;
	ctx.core_clock.addr = clock_page;
	ctx.hca_core_clock_offset = 0x10000 + 0x20; /* page offset 0x20 */
	clock_page[8] = htobe32(0x12);
	clock_page[9] = htobe32(0x34567890);
	v.comp_mask = IBV_VALUES_MASK_RAW_CLOCK;
	assert_int_equal(mlx5_query_rt_values(&ctx.ibv_ctx.context, &v), 0);
	assert_int_equal(v.comp_mask, IBV_VALUES_MASK_RAW_CLOCK);
	assert_int_equal(v.raw_clock.tv_sec, 0);
	assert_int_equal(v.raw_clock.tv_nsec, 0x1234567890LL);
	v.comp_mask = 2;
	assert_int_equal(mlx5_query_rt_values(&ctx.ibv_ctx.context, &v),
			 EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flags_one_by_one),
		cmocka_unit_test(test_caps_and_mask),
		cmocka_unit_test(test_no_mlx5_response),
		cmocka_unit_test(test_clock_info),
		cmocka_unit_test(test_rt_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
