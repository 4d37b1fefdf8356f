// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5_create_ah's address vector, byte for byte, on an IB port and on an
 * Ethernet (RoCE) port, with the kernel calls (GID entry, CREATE_AH)
 * replaced by recorders. RoCE v2 carries the UDP source port in rlid:
 * from the flow label, or random in 0xC000..0xFFFF when it is 0; RoCE v1
 * leaves rlid 0. Then a UD send WQE carries the same 48 bytes, and
 * mlx5dv_init_obj(MLX5DV_OBJ_AH) hands out that AV (UCX's ud_mlx5 and
 * dc_mlx5 build their WQEs from it).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "dp_fixture.h"

static enum ibv_gid_type gid_type;
static int gid_err;
static unsigned int gid_calls, create_calls;
static const uint8_t dmac[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};

int _ibv_query_gid_ex(struct ibv_context *context, uint32_t port_num,
		      uint32_t gid_index, struct ibv_gid_entry *entry,
		      uint32_t flags, size_t entry_size)
{
	gid_calls++;
	assert_int_equal(port_num, 1);
	assert_int_equal(gid_index, 3);
	assert_int_equal(entry_size, sizeof(*entry));
	if (gid_err)
		return gid_err;
	memset(entry, 0, sizeof(*entry));
	entry->gid_type = gid_type;
	return 0;
}

int ibv_cmd_create_ah(struct ibv_pd *pd, struct ibv_ah *ah,
		      struct ibv_ah_attr *attr, const struct ibv_udata *udata)
{
	struct mlx5_ib_create_ah_resp *resp = udata->out;

	create_calls++;
	assert_true(udata->out_len >= sizeof(*resp));
	memcpy(resp->dmac, dmac, sizeof(dmac));
	return 0;
}

int ibv_cmd_destroy_ah(struct ibv_ah *ah)
{
	return 0;
}

static struct mlx5_context ctx;
static struct ibv_pd pd;

static void setup_ctx(uint8_t link_layer)
{
	memset(&ctx, 0, sizeof(ctx));
	ctx.num_ports = 1;
	ctx.link_layer[0] = link_layer;
	ctx.cmds_supp_uhw = MLX5_USER_CMDS_SUPP_UHW_CREATE_AH;
	pd.context = &ctx.ibv_ctx.context;
	gid_err = 0;
	gid_calls = create_calls = 0;
}

static struct ibv_ah_attr roce_attr(uint32_t flow_label)
{
	struct ibv_ah_attr a = {
		.sl = 3,
		.static_rate = IBV_RATE_25_GBPS,
		.is_global = 1,
		.port_num = 1,
		.grh = {.flow_label = flow_label,
			.sgid_index = 3,
			.hop_limit = 64,
			.traffic_class = 0x20},
	};
	unsigned int i;

	for (i = 0; i < 16; i++)
		a.grh.dgid.raw[i] = (uint8_t)(0xf0 + i);
	return a;
}

/* The AV an Ethernet port gets for roce_attr(0xabcde), rlid aside. */
static const uint8_t roce_av[48] = {
	[12] = 9 << 4 | 3 << 1, /* 25G rate code, SL in bits 3:1 */
	[20] = 0x02,
	0x11,
	0x22,
	0x33, /* rmac from the kernel */
	0x44,
	0x55,
	[26] = 0x20,
	64, /* tclass, hop_limit */
	[28] = 0x00,
	0x3a,
	0xbc,
	0xde, /* no GRH bit; sgid 3; flow label */
	[32] = 0xf0,
	0xf1,
	0xf2,
	0xf3,
	0xf4,
	0xf5,
	0xf6,
	0xf7,
	0xf8,
	0xf9,
	0xfa,
	0xfb,
	0xfc,
	0xfd,
	0xfe,
	0xff,
};

static struct mlx5_ah *create(struct ibv_ah_attr *attr)
{
	struct ibv_ah *ah = mlx5_create_ah(&pd, attr);

	return ah ? to_mah(ah) : NULL;
}

static void test_roce_v2_flow_label(void **state)
{
	struct ibv_ah_attr attr = roce_attr(0xabcde);
	uint8_t want[48];
	struct mlx5_ah *ah;

	setup_ctx(IBV_LINK_LAYER_ETHERNET);
	gid_type = IBV_GID_TYPE_ROCE_V2;
	ah = create(&attr);
	assert_non_null(ah);
	memcpy(want, roce_av, sizeof(want));
	/* (0xabcde & 0x3fff) ^ (0xabcde >> 14) = 0x3cde ^ 0x2a, | 0xc000 */
	want[14] = 0xfc;
	want[15] = 0xf4;
	assert_memory_equal(&ah->av, want, sizeof(want));
	assert_int_equal(gid_calls, 1);
	assert_int_equal(create_calls, 1);
	assert_int_equal(mlx5_destroy_ah(&ah->ibv_ah), 0);

	/* Only the 20 flow-label bits count: 0x54321 -> 0x321 ^ 0x15. */
	attr.grh.flow_label = 0xfff54321;
	ah = create(&attr);
	assert_non_null(ah);
	assert_int_equal(be16toh(ah->av.rlid), 0xc334);
	assert_int_equal(mlx5_destroy_ah(&ah->ibv_ah), 0);
}

static void test_roce_v2_random(void **state)
{
	struct ibv_ah_attr attr = roce_attr(0);
	uint16_t first = 0, port;
	bool varied = false;
	struct mlx5_ah *ah;
	unsigned int i;

	setup_ctx(IBV_LINK_LAYER_ETHERNET);
	gid_type = IBV_GID_TYPE_ROCE_V2;
	for (i = 0; i < 64; i++) {
		ah = create(&attr);
		assert_non_null(ah);
		port = be16toh(ah->av.rlid);
		assert_true(port >= 0xc000);
		/* the rest is the flow-label-0 AV */
		assert_int_equal(ah->av.grh_gid_fl, htobe32(3u << 20));
		if (!i)
			first = port;
		varied |= port != first;
		assert_int_equal(mlx5_destroy_ah(&ah->ibv_ah), 0);
	}
	assert_true(varied); /* 64 draws of 2^14 ports are not all equal */
}

static void test_roce_v1_and_errors(void **state)
{
	struct ibv_ah_attr attr = roce_attr(0xabcde);
	struct mlx5_ah *ah;

	setup_ctx(IBV_LINK_LAYER_ETHERNET);
	gid_type = IBV_GID_TYPE_ROCE_V1;
	ah = create(&attr);
	assert_non_null(ah);
	assert_memory_equal(&ah->av, roce_av, sizeof(roce_av)); /* rlid 0 */
	assert_int_equal(mlx5_destroy_ah(&ah->ibv_ah), 0);

	/* An empty source GID slot: the kernel's ENODATA, nothing created. */
	gid_err = ENODATA;
	errno = 0;
	assert_null(mlx5_create_ah(&pd, &attr));
	assert_int_equal(errno, ENODATA);
	assert_int_equal(create_calls, 1);

	/* RoCE needs a GRH: refused before any kernel call. */
	gid_err = 0;
	gid_calls = 0;
	attr.is_global = 0;
	errno = 0;
	assert_null(mlx5_create_ah(&pd, &attr));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(gid_calls, 0);
}

static void test_ib_port(void **state)
{
	struct ibv_ah_attr attr = roce_attr(0xabcde);
	struct mlx5_ah *ah;
	uint8_t want[48];

	setup_ctx(IBV_LINK_LAYER_INFINIBAND);
	attr.dlid = 0x1234;
	ah = create(&attr);
	assert_non_null(ah);
	memcpy(want, roce_av, sizeof(want));
	want[12] = 9 << 4 | 3; /* SL in bits 3:0 */
	want[14] = 0x12;       /* rlid = DLID */
	want[15] = 0x34;
	memset(&want[20], 0, 6); /* no MAC */
	want[28] = 0x40;	 /* GRH present */
	assert_memory_equal(&ah->av, want, sizeof(want));
	/* No kernel call at all on IB. */
	assert_int_equal(gid_calls + create_calls, 0);
	assert_int_equal(mlx5_destroy_ah(&ah->ibv_ah), 0);
}

/* A UD send WQE carries the AH's 48 bytes (remote QPN and Q_Key added). */
static void test_ud_wqe(void **state)
{
	struct ibv_ah_attr attr = roce_attr(0xabcde);
	struct ibv_send_wr wr = {}, *bad;
	struct mlx5_wqe_av *seg;
	struct dp_fixture fx;
	struct ibv_sge sge;
	uint8_t data[8];
	struct mlx5_ah *ah;
	uint8_t want[48];

	setup_ctx(IBV_LINK_LAYER_ETHERNET);
	gid_type = IBV_GID_TYPE_ROCE_V2;
	ah = create(&attr);
	assert_non_null(ah);
	fx_init(&fx, IBV_QPT_UD, 8, 8, 0);
	fx_rts(&fx);
	sge = (struct ibv_sge){.addr = (uintptr_t)data, .length = 8, .lkey = 5};
	wr.opcode = IBV_WR_SEND;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.wr.ud.ah = &ah->ibv_ah;
	wr.wr.ud.remote_qpn = 0x123456;
	wr.wr.ud.remote_qkey = 0x11111111;
	assert_int_equal(mlx5_post_send(&fx.qp->verbs_qp.qp, &wr, &bad), 0);
	seg = (struct mlx5_wqe_av *)(fx.qp->sq_start +
				     sizeof(struct mlx5_wqe_ctrl_seg));
	memcpy(want, roce_av, sizeof(want));
	want[0] = want[1] = want[2] = want[3] = 0x11; /* Q_Key */
	want[8] = 0x80;				      /* extended AV */
	want[9] = 0x12;
	want[10] = 0x34;
	want[11] = 0x56;
	want[14] = 0xfc;
	want[15] = 0xf4;
	assert_memory_equal(seg, want, sizeof(want));
	fx_cleanup(&fx);
	assert_int_equal(mlx5_destroy_ah(&ah->ibv_ah), 0);
}

/* mlx5dv_init_obj(AH): the AH's own AV, its 48 bytes unchanged. */
static void test_dv_obj(void **state)
{
	struct ibv_ah_attr attr = roce_attr(0xabcde);
	struct mlx5dv_ah dv = {.comp_mask = ~0ull};
	struct mlx5dv_obj obj = {};
	struct mlx5dv_cq dcq = {};
	struct mlx5_ah *ah;

	setup_ctx(IBV_LINK_LAYER_ETHERNET);
	gid_type = IBV_GID_TYPE_ROCE_V1;
	ah = create(&attr);
	assert_non_null(ah);
	obj.ah.in = &ah->ibv_ah;
	obj.ah.out = &dv;
	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_AH), 0);
	assert_ptr_equal(dv.av, &ah->av);
	assert_memory_equal(dv.av, roce_av, sizeof(roce_av));
	assert_int_equal(dv.comp_mask, 0);

	/* no AH or no output: EINVAL (every context is mlx5's here) */
	obj.ah.out = NULL;
	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_AH), EINVAL);
	obj.ah.out = &dv;
	obj.ah.in = NULL;
	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_AH), EINVAL);
	obj.ah.in = &ah->ibv_ah;
	dv.av = NULL;
	/* a bad CQ fails the whole call before the AH is answered */
	obj.cq.out = &dcq;
	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_CQ | MLX5DV_OBJ_AH),
			 EINVAL);
	assert_null(dv.av);
	/* a raw WQ is not answered */
	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_RWQ), EOPNOTSUPP);
	assert_int_equal(mlx5_destroy_ah(&ah->ibv_ah), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roce_v2_flow_label),
		cmocka_unit_test(test_roce_v2_random),
		cmocka_unit_test(test_roce_v1_and_errors),
		cmocka_unit_test(test_ib_port),
		cmocka_unit_test(test_ud_wqe),
		cmocka_unit_test(test_dv_obj),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
