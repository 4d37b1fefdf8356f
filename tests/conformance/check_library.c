// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Library-level rows: our libibverbs + rxe provider against the same
 * kernel. Values are compared with what raw write() commands on conf_fd
 * returned, and every errno is the exact one the caller sees.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "conf.h"
#include "fds.h"

static void check_device_attrs(struct ibv_context *ctx)
{
	struct ib_uverbs_query_device_resp raw = {};
	struct ib_uverbs_query_device cmd = {.response = (uintptr_t)&raw};
	struct ibv_device_attr_ex ex = {};
	struct ibv_device_attr *a = &ex.orig_attr;
	int err;

	raw_write(conf_fd, IB_USER_VERBS_CMD_QUERY_DEVICE, &cmd, sizeof(cmd),
		  sizeof(raw));
	err = ibv_query_device_ex(ctx, NULL, &ex);
	conf_expect("lib.query_device_ex.ok", 0, err);
	conf_expect_u("lib.query_device.node_guid_is_kernels", 1,
		      a->node_guid == raw.node_guid);
	conf_expect_u("lib.query_device.limits_are_kernels", 1,
		      a->max_mr_size == raw.max_mr_size &&
			      a->vendor_id == raw.vendor_id &&
			      a->max_qp == (int)raw.max_qp &&
			      a->max_pd == (int)raw.max_pd &&
			      a->max_mr == (int)raw.max_mr);
	conf_expect_u("lib.query_device.phys_port_cnt", 1, a->phys_port_cnt);
	conf_row("all", "lib.query_device.fw_ver", "0.0.0", a->fw_ver);
	conf_expect_u("lib.query_device_ex.max_dm_size", 0, ex.max_dm_size);
}

static void check_port_attrs(struct ibv_context *ctx)
{
	struct ib_uverbs_query_port_resp raw = {};
	struct ib_uverbs_query_port cmd = {
		.response = (uintptr_t)&raw,
		.port_num = 1,
	};
	struct ibv_port_attr port = {};
	struct ibv_gid_entry table[16];
	union ibv_gid gid = {};

	raw_write(conf_fd, IB_USER_VERBS_CMD_QUERY_PORT, &cmd, sizeof(cmd),
		  sizeof(raw));
	conf_expect("lib.query_port.port1", 0, ibv_query_port(ctx, 1, &port));
	conf_expect_u("lib.query_port.state_active", IBV_PORT_ACTIVE,
		      port.state);
	conf_expect_u("lib.query_port.link_layer_ethernet",
		      IBV_LINK_LAYER_ETHERNET, port.link_layer);
	conf_expect_u("lib.query_port.fields_are_kernels", 1,
		      port.gid_tbl_len == (int)raw.gid_tbl_len &&
			      port.max_msg_sz == raw.max_msg_sz &&
			      port.active_mtu == raw.active_mtu &&
			      port.port_cap_flags == raw.port_cap_flags);
	conf_expect("lib.query_port.port2", EINVAL,
		    ibv_query_port(ctx, 2, &port));
	conf_expect("lib.query_gid.index0", 0,
		    ibv_query_gid(ctx, 1, 0, &gid) ? errno : 0);
	conf_expect_u("lib.query_gid.index0_is_kernels", 1,
		      !memcmp(gid.raw, conf_gid0.gid, sizeof(gid.raw)));
	conf_expect_u("lib.query_gid_table.count_is_kernels", conf_gid_count,
		      ibv_query_gid_table(ctx, table, 16, 0));
}

static void check_pd_mr(struct ibv_context *ctx, void *page)
{
	struct ibv_pd *pd;
	struct ibv_mr *mr;

	pd = ibv_alloc_pd(ctx);
	conf_expect("lib.alloc_pd", 0, pd ? 0 : errno);
	if (!pd)
		return;
	mr = ibv_reg_mr(pd, page, 4096, IBV_ACCESS_LOCAL_WRITE);
	conf_expect("lib.reg_mr", 0, mr ? 0 : errno);
	if (mr) {
		conf_expect_u("lib.reg_mr.fields", 1,
			      mr->addr == page && mr->length == 4096 &&
				      mr->pd == pd && mr->context == ctx);
		conf_expect("lib.dealloc_pd.with_live_mr", EBUSY,
			    ibv_dealloc_pd(pd));
		conf_expect("lib.dereg_mr", 0, ibv_dereg_mr(mr));
	}
	conf_expect(
		"lib.reg_dmabuf_mr.fd_minus_1", EOPNOTSUPP,
		ibv_reg_dmabuf_mr(pd, 0, 4096, 0, -1, IBV_ACCESS_LOCAL_WRITE)
			? 0
			: errno);
	{
		int buf = conf_udmabuf_create();
		const char *got = "no-udmabuf";

		if (buf >= 0) {
			mr = ibv_reg_dmabuf_mr(pd, 0, 4096, 0, buf,
					       IBV_ACCESS_LOCAL_WRITE);
			got = conf_err(mr ? 0 : errno);
			if (mr)
				ibv_dereg_mr(mr);
			close(buf);
		}
		conf_row("kver", "lib.reg_dmabuf_mr.udmabuf_fd",
			 conf_kernel_at_least(6, 12) ? "EOPNOTSUPP"
						     : "no-udmabuf",
			 got);
	}
	conf_expect("lib.dealloc_pd", 0, ibv_dealloc_pd(pd));
}

static void check_dm(struct ibv_context *ctx)
{
	struct ibv_alloc_dm_attr attr = {.length = 4096};
	/* rxe cannot allocate one, so export is asked about a stand-in. */
	struct ibv_dm stand_in = {.context = ctx};
	struct ibv_dm *dm;
	int fd;

	dm = ibv_alloc_dm(ctx, &attr);
	conf_expect("lib.alloc_dm", EOPNOTSUPP, dm ? 0 : errno);
	if (dm)
		ibv_free_dm(dm);
	errno = 0;
	fd = ibv_dm_export_dmabuf_fd(&stand_in);
	conf_expect("lib.dm_export_dmabuf_fd.no_dmabuf_object", EOPNOTSUPP,
		    fd >= 0 ? 0 : errno);
	if (fd >= 0)
		close(fd);
	errno = 0;
	fd = ibv_dm_export_dmabuf_fd(NULL);
	conf_expect("lib.dm_export_dmabuf_fd.null_dm", EINVAL,
		    fd >= 0 ? 0 : errno);
}

static struct ibv_context *open_rxe0(void)
{
	struct ibv_context *ctx = NULL;
	struct ibv_device **list;
	int i, n = 0;

	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), "rxe0"))
			break;
	conf_expect_u("lib.get_device_list.rxe0_found", 1, list && i < n);
	if (list && i < n) {
		ctx = ibv_open_device(list[i]);
		conf_expect("lib.open_device", 0, ctx ? 0 : errno);
	}
	if (list)
		ibv_free_device_list(list);
	return ctx;
}

void check_library(void)
{
	struct ibv_context *ctx;
	int fds_before;
	void *page;

	conf_print_header("libibverbs + rxe provider");
	check_lib_discovery();
	fds_before = count_fds();
	ctx = open_rxe0();
	if (!ctx)
		return;
	check_device_attrs(ctx);
	check_port_attrs(ctx);
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page != MAP_FAILED) {
		check_pd_mr(ctx, page);
		munmap(page, 4096);
	}
	check_dm(ctx);
	conf_expect("lib.close_device", 0, ibv_close_device(ctx));
	conf_expect_u("lib.fds_leaked_after_close", 0,
		      count_fds() - fds_before);
}
