// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Prints every member of struct mlx5dv_context and the mlx5-only members
 * of ibv_device_attr_ex, one "name value" line each, for mlx5_0. Built
 * twice: against this project (-DRDMA_DM_V65: also the rdma-core 65
 * members, on lines starting "v65 ") and against Debian's rdma-core 44;
 * dv_query_compare.sh runs both under rdma-sim and requires the same
 * lines. Also prints, per comp_mask bit asked alone, what comes back and
 * whether members that were not asked for stayed untouched.
 * Usage: dv_query_print
 */
#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The comp_mask bits rdma-core 44 knows. */
#define MASK_V44 ((1ULL << 14) - 1)
#ifdef RDMA_DM_V65
#define MASK_ALL ((1ULL << 17) - 1)
#else
#define MASK_ALL MASK_V44
#endif
#define POISON 0xa5

static void print_ctx(const char *p, const struct mlx5dv_context *c)
{
	printf("%sversion %u\n", p, c->version);
	printf("%sflags 0x%llx\n", p, (unsigned long long)c->flags);
	printf("%scomp_mask 0x%llx\n", p, (unsigned long long)c->comp_mask);
	printf("%scqe_comp_caps %u 0x%x\n", p, c->cqe_comp_caps.max_num,
	       c->cqe_comp_caps.supported_format);
	printf("%ssw_parsing_caps 0x%x 0x%x\n", p,
	       c->sw_parsing_caps.sw_parsing_offloads,
	       c->sw_parsing_caps.supported_qpts);
	printf("%sstriding_rq_caps %u %u %u %u 0x%x\n", p,
	       c->striding_rq_caps.min_single_stride_log_num_of_bytes,
	       c->striding_rq_caps.max_single_stride_log_num_of_bytes,
	       c->striding_rq_caps.min_single_wqe_log_num_of_strides,
	       c->striding_rq_caps.max_single_wqe_log_num_of_strides,
	       c->striding_rq_caps.supported_qpts);
	printf("%stunnel_offloads_caps 0x%x\n", p, c->tunnel_offloads_caps);
	printf("%smax_dynamic_bfregs %u\n", p, c->max_dynamic_bfregs);
	printf("%smax_clock_info_update_nsec %llu\n", p,
	       (unsigned long long)c->max_clock_info_update_nsec);
	printf("%sflow_action_flags 0x%x\n", p, c->flow_action_flags);
	printf("%sdc_odp_caps 0x%x\n", p, c->dc_odp_caps);
	printf("%snum_lag_ports %u\n", p, c->num_lag_ports);
	printf("%ssig_caps 0x%llx 0x%x 0x%x 0x%x\n", p,
	       (unsigned long long)c->sig_caps.block_size,
	       c->sig_caps.block_prot, c->sig_caps.t10dif_bg,
	       c->sig_caps.crc_type);
	printf("%sdci_streams_caps %u %u\n", p,
	       c->dci_streams_caps.max_log_num_concurent,
	       c->dci_streams_caps.max_log_num_errored);
	printf("%smax_wr_memcpy_length %zu\n", p, c->max_wr_memcpy_length);
	printf("%scrypto_caps %u 0x%x 0x%x %u 0x%x\n", p,
	       c->crypto_caps.failed_selftests, c->crypto_caps.crypto_engines,
	       c->crypto_caps.wrapped_import_method,
	       c->crypto_caps.log_max_num_deks, c->crypto_caps.flags);
}

/* The pointer itself differs per run: where in its page, and readable. */
static void print_clock(const char *p, const struct mlx5dv_context *c)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile const uint64_t *clk = c->hca_core_clock;
	uint64_t v;

	if (!(c->comp_mask & MLX5DV_CONTEXT_MASK_HCA_CORE_CLOCK)) {
		printf("%shca_core_clock none\n", p);
		return;
	}
	v = *clk; /* faults if the page is not mapped readable */
	(void)v;
	printf("%shca_core_clock page_offset 0x%lx readable\n", p,
	       (unsigned long)((uintptr_t)c->hca_core_clock &
			       (uintptr_t)(page - 1)));
}

#ifdef RDMA_DM_V65
static void print_v65(const struct mlx5dv_context *c)
{
	printf("v65 max_dc_rd_atom %llu %llu\n",
	       (unsigned long long)c->max_dc_rd_atom,
	       (unsigned long long)c->max_dc_init_rd_atom);
	printf("v65 reg_c0 0x%x 0x%x\n", c->reg_c0.value, c->reg_c0.mask);
	printf("v65 ooo_recv_wrs_caps %u %u %u %u %u\n",
	       c->ooo_recv_wrs_caps.max_rc, c->ooo_recv_wrs_caps.max_xrc,
	       c->ooo_recv_wrs_caps.max_dct, c->ooo_recv_wrs_caps.max_ud,
	       c->ooo_recv_wrs_caps.max_uc);
}
#endif

/* Bytes from the end of comp_mask on that are still POISON. */
static int untouched(const struct mlx5dv_context *c)
{
	const uint8_t *b = (const uint8_t *)c;
	size_t i, from = offsetof(struct mlx5dv_context, cqe_comp_caps);

	for (i = from; i < sizeof(*c); i++)
		if (b[i] != POISON)
			return 0;
	return 1;
}

static int query_each_bit(struct ibv_context *ctx)
{
	struct mlx5dv_context c;
	unsigned int bit;

	memset(&c, POISON, sizeof(c));
	c.comp_mask = 0;
	if (mlx5dv_query_device(ctx, &c))
		return -1;
	printf("ask 0x0 -> comp_mask 0x%llx untouched %d\n",
	       (unsigned long long)c.comp_mask, untouched(&c));
	for (bit = 0; bit < 64; bit++) {
		memset(&c, 0, sizeof(c));
		c.comp_mask = 1ULL << bit;
		if (mlx5dv_query_device(ctx, &c))
			return -1;
		if (bit < 14 || c.comp_mask)
			printf("%sask 0x%llx -> comp_mask 0x%llx\n",
			       bit < 14 ? "" : "v65 ",
			       (unsigned long long)(1ULL << bit),
			       (unsigned long long)c.comp_mask);
	}
	return 0;
}

/*
 * The time fields move with the clock: only whether the page paired a
 * counter reading with a wall time of the last minute is compared.
 */
static void print_clock_info(struct ibv_context *ctx)
{
	struct mlx5dv_clock_info ci;
	struct timespec now;
	uint64_t now_ns;
	int ret;

	memset(&ci, 0, sizeof(ci));
	ret = mlx5dv_get_clock_info(ctx, &ci);
	clock_gettime(CLOCK_REALTIME, &now);
	now_ns = (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec;
	printf("clock_info ret %d nsec recent %d cycles set %d frac %llu "
	       "mult %u shift %u mask 0x%llx\n",
	       ret, ci.nsec <= now_ns && now_ns - ci.nsec < 60000000000ULL,
	       ci.last_cycles != 0, (unsigned long long)ci.frac, ci.mult,
	       ci.shift, (unsigned long long)ci.mask);
}

static int print_attr_ex(struct ibv_context *ctx)
{
	struct ibv_device_attr_ex a;

	memset(&a, 0, sizeof(a));
	if (ibv_query_device_ex(ctx, NULL, &a))
		return -1;
	printf("tso_caps %u 0x%x\n", a.tso_caps.max_tso,
	       a.tso_caps.supported_qpts);
	printf("rss_caps 0x%x %u %u 0x%llx 0x%x\n", a.rss_caps.supported_qpts,
	       a.rss_caps.max_rwq_indirection_tables,
	       a.rss_caps.max_rwq_indirection_table_size,
	       (unsigned long long)a.rss_caps.rx_hash_fields_mask,
	       a.rss_caps.rx_hash_function);
	printf("packet_pacing_caps %u %u 0x%x\n",
	       a.packet_pacing_caps.qp_rate_limit_min,
	       a.packet_pacing_caps.qp_rate_limit_max,
	       a.packet_pacing_caps.supported_qpts);
	printf("raw_packet_caps 0x%x\n", a.raw_packet_caps);
	printf("device_cap_flags_ex 0x%llx\n",
	       (unsigned long long)a.device_cap_flags_ex);
	return 0;
}

int main(void)
{
	struct ibv_context *ctx = NULL;
	struct ibv_device **list;
	struct mlx5dv_context c;
	int n, ret = 1;

	list = ibv_get_device_list(&n);
	if (list && n > 0 && mlx5dv_is_supported(list[0]))
		ctx = ibv_open_device(list[0]);
	if (!ctx) {
		fprintf(stderr, "no mlx5 context\n");
		goto out;
	}
	memset(&c, 0, sizeof(c));
	c.comp_mask = MASK_V44;
	if (mlx5dv_query_device(ctx, &c))
		goto out;
	print_ctx("", &c);
	print_clock("", &c);
#ifdef RDMA_DM_V65
	memset(&c, 0, sizeof(c));
	c.comp_mask = MASK_ALL;
	if (mlx5dv_query_device(ctx, &c))
		goto out;
	print_ctx("v65 ", &c);
	print_v65(&c);
#endif
	print_clock_info(ctx);
	if (query_each_bit(ctx) || print_attr_ex(ctx))
		goto out;
	ret = 0;
out:
	if (ret)
		fprintf(stderr, "dv_query_print: a query failed\n");
	if (ctx)
		ibv_close_device(ctx);
	if (list)
		ibv_free_device_list(list);
	return ret;
}
