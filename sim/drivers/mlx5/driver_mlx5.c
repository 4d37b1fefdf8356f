// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* mlx5 driver model: ucontext, mmap offsets, the driver ops row. */
#include "mlx5.h"
#include "hca_cmd.h"
#include "hca_doorbell.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>

#define MLX5_SIM_MAX_BFREGS	 512
#define MLX5_SIM_BFREGS_PER_PAGE 2

uint64_t mlx5_sim_key_to_offset(uint32_t key)
{
	uint32_t cmd = key >> 16, idx = key & 0xffff;
	uint64_t pgoff =
		(idx & 0xff) | (cmd << 8) | ((uint64_t)(idx >> 8) << 16);

	return pgoff * sim.sh->cfg.page_size;
}

int mlx5_sim_pgoff_to_key(uint64_t pgoff, uint32_t *key)
{
	if (pgoff >> 24)
		return -EINVAL;
	*key = (uint32_t)(((pgoff >> 8) & 0xff) << 16) |
	       (uint32_t)((pgoff & 0xff) | (((pgoff >> 16) & 0xff) << 8));
	return 0;
}

static int is_cleared(const uint8_t *p, size_t len)
{
	while (len--)
		if (*p++)
			return 0;
	return 1;
}

static void fill_resp(struct sim_uvfile *uv,
		      const struct mlx5_ib_alloc_ucontext_req_v2 *req,
		      uint32_t tot_bfregs,
		      struct mlx5_ib_alloc_ucontext_resp *r)
{
	memset(r, 0, sizeof(*r));
	r->qp_tab_size = 1 << 18;
	r->bf_reg_size = 0;
	r->tot_bfregs = tot_bfregs;
	r->cache_line_size = 64;
	r->max_sq_desc_sz = 1024;
	r->max_rq_desc_sz = 512;
	r->max_send_wqebb = 1 << 15;
	r->max_recv_wr = 1 << 15;
	r->max_srq_recv_wr = 1 << 15;
	r->num_ports = 1;
	r->comp_mask = MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_CORE_CLOCK_OFFSET |
		       MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_DUMP_FILL_MKEY;
	r->cqe_version = req->max_cqe_version ? 1 : 0;
	r->cmds_supp_uhw = MLX5_USER_CMDS_SUPP_UHW_QUERY_DEVICE |
			   MLX5_USER_CMDS_SUPP_UHW_CREATE_AH;
	r->clock_info_versions = 1 << MLX5_IB_CLOCK_INFO_V1;
	r->hca_core_clock_offset = 0;
	r->log_uar_size = 12;
	r->num_uars_per_page = 1;
	r->num_dyn_bfregs = 0;
	r->dump_fill_mkey = HCA_NULL_MKEY;
	r->response_length = sizeof(*r);
}

/* v0 (8 bytes) or v2 (>= 16), as mlx5_ib_alloc_ucontext tells them apart. */
static int mlx5_alloc_ucontext(struct sim_uvfile *uv, const void *in,
			       size_t in_len, void *out, size_t out_len)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = {};
	struct mlx5_ib_alloc_ucontext_resp r;
	uint32_t total;
	size_t n;

	if (in_len != sizeof(struct mlx5_ib_alloc_ucontext_req) &&
	    in_len < offsetof(struct mlx5_ib_alloc_ucontext_req_v2,
			      max_cqe_version))
		return -EINVAL;
	if (!in)
		return -EFAULT;
	memcpy(&req, in, in_len < sizeof(req) ? in_len : sizeof(req));
	if (in_len > sizeof(req) &&
	    !is_cleared((const uint8_t *)in + sizeof(req),
			in_len - sizeof(req)))
		return -EOPNOTSUPP;
	if (req.flags & ~(uint32_t)MLX5_IB_ALLOC_UCTX_DEVX)
		return -EOPNOTSUPP;
	if (req.comp_mask || req.reserved0 || req.reserved1 || req.reserved2)
		return -EOPNOTSUPP;
	total = (req.total_num_bfregs + MLX5_SIM_BFREGS_PER_PAGE - 1) &
		~(uint32_t)(MLX5_SIM_BFREGS_PER_PAGE - 1);
	if (req.num_low_latency_bfregs > total - 1)
		return -EINVAL;
	if (req.flags & MLX5_IB_ALLOC_UCTX_DEVX)
		return -EINVAL; /* no DEVX: the device has no user contexts */
	/* --static-uar: a kernel that does not know the DYN_UAR bit. */
	uv->uar_dyn = !sim.sh->cfg.static_uar &&
		      (req.lib_caps & MLX5_LIB_CAP_DYN_UAR);
	if (uv->uar_dyn) {
		total = 0;
	} else if (total > MLX5_SIM_MAX_BFREGS) {
		return -ENOMEM;
	}
	uv->legacy_uar_pages = total / MLX5_SIM_BFREGS_PER_PAGE;
	fill_resp(uv, &req, total, &r);
	memcpy(uv->ctx_resp, &r, sizeof(r));
	uv->ctx_resp_len = sizeof(r);
	n = out_len < sizeof(r) ? out_len : sizeof(r);
	if (n && !out)
		return -EFAULT;
	memcpy(out, &r, n);
	return (int)n;
}

#define MLX5_SIM_RAW_QPT (1u << 8) /* IB_QPT_RAW_PACKET */

/*
 * The mlx5 part of EX_QUERY_DEVICE as mlx5_ib fills it for a ConnectX-6
 * Dx: log_max_lso_cap 18, RSS (Toeplitz over IPv4/6 addresses, TCP/UDP
 * ports, inner headers), CQE compression of up to 64 CQEs in every
 * mini-CQE format, 128-byte CQE compression and padding, packet-based
 * credits, enhanced MPW (legacy MPW is ConnectX-4 Lx only), software
 * parsing, striding RQ (strides of 2^6..2^13 bytes, 2^3..2^16 strides:
 * ext_stride_num_range), stateless offloads of VXLAN, GRE, GENEVE and
 * MPLS over GRE/UDP, pacing 1 kb/s..100 Gb/s with bursts. No DCI streams
 * (DC is not modelled). These are capabilities reported; the engine
 * executes none of the raw-packet ones (see README "Limits").
 */
static const struct mlx5_ib_query_device_resp mlx5_sim_dev_caps = {
	.tso_caps = {.max_tso = 1 << 18, .supported_qpts = MLX5_SIM_RAW_QPT},
	.rss_caps = {.rx_hash_fields_mask =
			     MLX5_RX_HASH_SRC_IPV4 | MLX5_RX_HASH_DST_IPV4 |
			     MLX5_RX_HASH_SRC_IPV6 | MLX5_RX_HASH_DST_IPV6 |
			     MLX5_RX_HASH_SRC_PORT_TCP |
			     MLX5_RX_HASH_DST_PORT_TCP |
			     MLX5_RX_HASH_SRC_PORT_UDP |
			     MLX5_RX_HASH_DST_PORT_UDP | MLX5_RX_HASH_INNER,
		     .rx_hash_function = MLX5_RX_HASH_FUNC_TOEPLITZ},
	.cqe_comp_caps = {.max_num = 64,
			  .supported_format =
				  MLX5_IB_CQE_RES_FORMAT_HASH |
				  MLX5_IB_CQE_RES_FORMAT_CSUM |
				  MLX5_IB_CQE_RES_FORMAT_CSUM_STRIDX},
	.packet_pacing_caps = {.qp_rate_limit_min = 1,
			       .qp_rate_limit_max = 100000000,
			       .supported_qpts = MLX5_SIM_RAW_QPT,
			       .cap_flags = MLX5_IB_PP_SUPPORT_BURST},
	.mlx5_ib_support_multi_pkt_send_wqes = MLX5_IB_SUPPORT_EMPW,
	.flags = MLX5_IB_QUERY_DEV_RESP_FLAGS_CQE_128B_COMP |
		 MLX5_IB_QUERY_DEV_RESP_FLAGS_CQE_128B_PAD |
		 MLX5_IB_QUERY_DEV_RESP_PACKET_BASED_CREDIT_MODE |
		 MLX5_IB_QUERY_DEV_RESP_FLAGS_SCAT2CQE_DCT,
	.sw_parsing_caps = {.sw_parsing_offloads = MLX5_IB_SW_PARSING |
						   MLX5_IB_SW_PARSING_CSUM |
						   MLX5_IB_SW_PARSING_LSO,
			    .supported_qpts = MLX5_SIM_RAW_QPT},
	.striding_rq_caps = {.min_single_stride_log_num_of_bytes = 6,
			     .max_single_stride_log_num_of_bytes = 13,
			     .min_single_wqe_log_num_of_strides = 3,
			     .max_single_wqe_log_num_of_strides = 16,
			     .supported_qpts = MLX5_SIM_RAW_QPT},
	.tunnel_offloads_caps = MLX5_IB_TUNNELED_OFFLOADS_VXLAN |
				MLX5_IB_TUNNELED_OFFLOADS_GRE |
				MLX5_IB_TUNNELED_OFFLOADS_GENEVE |
				MLX5_IB_TUNNELED_OFFLOADS_MPLS_GRE |
				MLX5_IB_TUNNELED_OFFLOADS_MPLS_UDP,
};

/* As the kernel: what fits of the response, response_length saying so. */
static void mlx5_query_device_uhw(struct sim_uvfile *uv, void *out,
				  size_t out_len)
{
	struct mlx5_ib_query_device_resp r = mlx5_sim_dev_caps;
	size_t n = out_len < sizeof(r) ? out_len : sizeof(r);

	r.flags |= mlx5_sim_ooo_dev_flags();
	r.response_length = (uint32_t)n;
	if (out)
		memcpy(out, &r, n);
}

/* The clock-info page (V1): read-only (VM_WRITE or VM_EXEC: EPERM). */
static void *map_clock_info(void *addr, size_t len, int prot, int flags)
{
	void *p;

	if (len != sim.sh->cfg.page_size) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	if (prot & (PROT_WRITE | PROT_EXEC)) {
		errno = EPERM;
		return MAP_FAILED;
	}
	p = sim_map_anon(addr, len, PROT_READ | PROT_WRITE, flags);
	if (p == MAP_FAILED)
		return p;
	mlx5_sim_clock_info(p);
	if (sys.mprotect(p, len, prot)) {
		sys.munmap(p, len);
		return MAP_FAILED;
	}
	return p;
}

/* A UAR page the program mapped: the HCA hears its stores. */
static void *uar_page(void *p, size_t len, int prot)
{
	if (p != MAP_FAILED)
		hca_doorbell_map(p, len, prot);
	return p;
}

/* Legacy static UAR pages and the read-only core clock page. */
static void *map_fixed_page(struct sim_uvfile *uv, uint32_t cmd, uint32_t idx,
			    void *addr, size_t len, int prot, int flags)
{
	if (len != sim.sh->cfg.page_size)
		goto inval;
	if (cmd == MLX5_IB_MMAP_CORE_CLOCK) {
		if (prot & PROT_WRITE) {
			errno = EPERM;
			return MAP_FAILED;
		}
		return sim_map_anon(addr, len, prot, flags);
	}
	if (uv->uar_dyn || idx >= uv->legacy_uar_pages)
		goto inval;
	return uar_page(sim_map_anon(addr, len, prot, flags), len, prot);
inval:
	errno = EINVAL;
	return MAP_FAILED;
}

static void *mlx5_mmap(struct sim_uvfile *uv, void *addr, size_t len, int prot,
		       int flags, uint64_t pgoff)
{
	struct sim_entry *e;
	uint32_t key, cmd;

	if (mlx5_sim_pgoff_to_key(pgoff, &key))
		goto inval;
	cmd = key >> 16;
	switch (cmd) {
	case MLX5_IB_MMAP_REGULAR_PAGE:
	case MLX5_IB_MMAP_WC_PAGE:
	case MLX5_IB_MMAP_NC_PAGE:
	case MLX5_IB_MMAP_CORE_CLOCK:
		return map_fixed_page(uv, cmd, key & 0xffff, addr, len, prot,
				      flags);
	case MLX5_IB_MMAP_CLOCK_INFO:
		return map_clock_info(addr, len, prot, flags);
	case MLX5_IB_MMAP_GET_CONTIGUOUS_PAGES:
		/* mlx5_ib dropped contiguous pages; it still says so. */
		errno = ENOSYS;
		return MAP_FAILED;
	}
	e = sim_entry_find(uv, key);
	if (!e)
		goto inval;
	if (e->kind == SIM_ENT_UAR)
		return uar_page(sim_map_entry(uv, e, addr, len, prot, flags),
				len, prot);
	return sim_map_entry(uv, e, addr, len, prot, flags);
inval:
	errno = EINVAL;
	return MAP_FAILED;
}

static struct sim_entry *mlx5_pgoff_to_entry(struct sim_uvfile *uv,
					     uint64_t off)
{
	uint32_t key;

	if (mlx5_sim_pgoff_to_key(off / sim.sh->cfg.page_size, &key))
		return NULL;
	return sim_entry_find(uv, key);
}

/* ConnectX-6 Dx limits (log_max_qp 18, log_max_qp_sz 15, log_max_cq_sz
 * 22, log_max_ra_res_qp/req_qp 4) */
static const struct sim_verbs_rules mlx5_rules = {
	.max_qp = 1 << 18,
	.max_qp_wr = 1 << 15,
	.max_sge = 30,
	.max_sge_rd = 30,
	.max_cq = 1 << 24,
	.max_cqe = (1 << 22) - 1,
	.max_srq = 1 << 23,
	.max_srq_wr = (1 << 15) - 1,
	.max_srq_sge = 31,
	.max_qp_rd_atom = 16,
	.max_qp_init_rd_atom = 16,
	.max_ah = 0x7fffffff,
	.qpn_base = 0x100,
	.min_path_mtu = 1,
	.chk_pkey_index = 1,
	.chk_dest_rd_atom = 1,
	.last_wqe_on_err = 1,
	.chk_cur_state = 1,
	.qp_create_flags = 1 << 1, /* BLOCK_MULTICAST_LOOPBACK */
	.max_mw = 1 << 24, /* 1 << log_max_mkey, imaicl */
	.rereg_mr = 1,
	.max_cq_period = 4095, /* the CQC's 12-bit cq_period */
	.driver_qp = 1,
};

const struct sim_driver_ops sim_mlx5_ops = {
	.rules = &mlx5_rules,
	.process_mad = sim_process_mad,
	.alloc_ucontext = mlx5_alloc_ucontext,
	.query_device_uhw = mlx5_query_device_uhw,
	.mmap = mlx5_mmap,
	.pgoff_to_entry = mlx5_pgoff_to_entry,
	.alloc_dm = mlx5_sim_alloc_dm,
	.alloc_dmah = mlx5_sim_alloc_dmah,
	.alloc_mw = mlx5_sim_alloc_mw,
	.create_cq = mlx5_sim_create_cq,
	.resize_cq = mlx5_sim_resize_cq,
	.destroy_cq = mlx5_sim_destroy_cq,
	.create_qp = mlx5_sim_create_qp,
	.modify_qp = mlx5_sim_modify_qp,
	.create_ah = mlx5_sim_create_ah,
	.destroy_qp = mlx5_sim_destroy_qp,
	.create_srq = mlx5_sim_create_srq,
	.modify_srq = mlx5_sim_modify_srq,
	.destroy_srq = mlx5_sim_destroy_srq,
	.methods = mlx5_sim_methods,
	.nmethods = &mlx5_sim_nmethods,
	.ext = mlx5_sim_ext,
	.next = &mlx5_sim_next,
	.alloc_pd_uhw = 1,
	.reg_dmabuf_mr = 1,
	.reg_mr_method = 1,
	.buf_umem = 1,
	.xrc = 1,
	.open_qp = mlx5_sim_open_xrc_tgt,
	.odp_caps = mlx5_sim_odp_caps,
	.advise_mr = mlx5_sim_advise_mr,
	.reg_mr = mlx5_sim_reg_mkey,
	.dereg_mr = mlx5_sim_dereg_mkey,
	.alloc_mw_key = mlx5_sim_alloc_mw_mkey,
	.dealloc_mw_key = mlx5_sim_dealloc_mw_mkey,
	.modify_cq = mlx5_sim_modify_cq,
	.tm_srq = 1,
	.tm_caps = mlx5_sim_tm_caps,
};
