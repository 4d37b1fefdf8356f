// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * SRQ rows (create limits, granted size, modify, destroy while a QP uses
 * it) and AH rows (RoCE v2 with a GRH, without one, bad GID index and
 * port, the ah_num rxe returns).
 */
#include <errno.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "conf.h"

static void srq_row(const char *name, int expected, uint32_t pd,
		    uint32_t max_wr, uint32_t max_sge, size_t resp_len)
{
	struct ib_uverbs_create_srq_resp r = {};
	int err = raw_create_srq(conf_fd, pd, max_wr, max_sge, resp_len, &r);

	conf_expect(name, expected, err);
	if (!err)
		raw_destroy_srq(conf_fd, r.srq_handle);
}

static void check_srq(uint32_t pd, uint32_t cq)
{
	struct ib_uverbs_create_srq_resp r = {};
	struct ib_uverbs_create_qp_resp q = {};
	struct ib_uverbs_create_qp qcmd;
	int err;

	err = raw_create_srq(conf_fd, pd, 16, 1, 0, &r);
	conf_expect("srq.create.ok", 0, err);
	conf_expect_u_kv("srq.create.granted_16", 16, 31, r.max_wr);
	conf_expect("srq.modify.limit", 0,
		    raw_modify_srq(conf_fd, r.srq_handle, IBV_SRQ_LIMIT, 0, 4,
				   true));
	conf_expect("srq.modify.limit_over_size", EINVAL,
		    raw_modify_srq(conf_fd, r.srq_handle, IBV_SRQ_LIMIT, 0,
				   1000, true));
	conf_expect("srq.modify.grow", 0,
		    raw_modify_srq(conf_fd, r.srq_handle, IBV_SRQ_MAX_WR, 64, 0,
				   true));
	conf_expect("srq.modify.no_udata", EINVAL,
		    raw_modify_srq(conf_fd, r.srq_handle, IBV_SRQ_LIMIT, 0, 2,
				   false));

	raw_qp_cmd_init(&qcmd, pd, cq, IB_UVERBS_QPT_RC);
	qcmd.srq_handle = r.srq_handle;
	qcmd.is_srq = 1;
	qcmd.max_recv_wr = 0;
	qcmd.max_recv_sge = 0;
	err = raw_create_qp(conf_fd, &qcmd, 0, &q);
	conf_expect("srq.qp_on_srq.create", 0, err);
	conf_expect("srq.destroy.in_use", EBUSY,
		    raw_destroy_srq(conf_fd, r.srq_handle));
	if (!err)
		raw_destroy_qp(conf_fd, q.qp_handle, NULL);
	conf_expect("srq.destroy.ok", 0,
		    raw_destroy_srq(conf_fd, r.srq_handle));

	srq_row("srq.create.max_wr_0", EINVAL, pd, 0, 1, 0);
	srq_row("srq.create.max_wr_over", EINVAL, pd, (1 << 20) + 1, 1, 0);
	srq_row("srq.create.max_sge_27", 0, pd, 16, 27, 0);
	srq_row("srq.create.max_sge_28", EINVAL, pd, 16, 28, 0);
	srq_row("srq.create.bad_pd", ENOENT, 0xdead, 16, 1, 0);
	srq_row("srq.create.no_driver_resp", EINVAL, pd, 16, 1,
		sizeof(struct ib_uverbs_create_srq_resp));
}

static void ah_row(const char *name, int expected, uint32_t pd,
		   const struct ib_uverbs_ah_attr *a)
{
	uint32_t h = 0, num = 0;
	int err = raw_create_ah(conf_fd, pd, a, &h, &num);

	conf_expect(name, expected, err);
	if (!err)
		raw_destroy_ah(conf_fd, h);
}

static void check_ah(uint32_t pd)
{
	struct ib_uverbs_ah_attr a = {
		.is_global = 1,
		.port_num = 1,
		.grh = {.sgid_index = 0, .hop_limit = 64},
	};
	uint32_t h = 0, num = 0;
	int err;

	memcpy(a.grh.dgid, conf_gid0.gid, sizeof(a.grh.dgid));
	err = raw_create_ah(conf_fd, pd, &a, &h, &num);
	conf_expect("ah.create.roce_v2_grh", 0, err);
	conf_expect_u("ah.create.ah_num_nonzero", 1, num != 0);
	conf_expect("ah.destroy.ok", 0, raw_destroy_ah(conf_fd, h));
	conf_expect("ah.destroy.again", ENOENT, raw_destroy_ah(conf_fd, h));
	a.is_global = 0;
	ah_row("ah.create.no_grh", EINVAL, pd, &a);
	a.is_global = 1;
	a.grh.sgid_index = 200;
	ah_row("ah.create.empty_sgid_index", ENODATA, pd, &a);
	a.grh.sgid_index = 0;
	a.port_num = 2;
	ah_row("ah.create.port_2", EINVAL, pd, &a);
	a.port_num = 1;
	ah_row("ah.create.bad_pd", ENOENT, 0xdead, &a);
}

void check_srq_ah(void)
{
	uint32_t pd = 0, cq = 0;

	conf_print_header(
		"SRQ and AH: limits, modify, destroy in use, RoCE AV");
	raw_alloc_pd(conf_fd, &pd);
	raw_create_cq(conf_fd, 64, 0, -1, 0, &cq, NULL);
	check_srq(pd, cq);
	check_ah(pd);
	raw_destroy_cq(conf_fd, cq, NULL);
	raw_destroy_pd(conf_fd, pd);
}
