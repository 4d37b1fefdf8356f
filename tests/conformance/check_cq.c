// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * CQ rows: create limits and bad attributes, the granted size, resize,
 * and destroy while a QP still uses the CQ.
 */
#include <errno.h>

#include "conf.h"

/* rxe's limit (RXE_MAX_CQE); the ring holds a power of two minus one. */
#define RXE_MAX_CQE 32767

static void cq_row(const char *name, int expected, int cqe, int vector,
		   int channel, size_t resp_len)
{
	uint32_t h = 0;
	int err = raw_create_cq(conf_fd, cqe, vector, channel, resp_len, &h,
				NULL);

	conf_expect(name, expected, err);
	if (!err)
		raw_destroy_cq(conf_fd, h, NULL);
}

void check_cq(void)
{
	struct ib_uverbs_create_qp_resp qp = {};
	struct ib_uverbs_create_qp qcmd;
	uint32_t h = 0, granted = 0, pd = 0;
	int err;

	conf_print_header("CQ: create limits, resize, destroy in use");
	err = raw_create_cq(conf_fd, 16, 0, -1, 0, &h, &granted);
	conf_expect("cq.create.ok", 0, err);
	conf_expect_u("cq.create.granted_16", 31, granted);
	conf_expect("cq.resize.grow", 0, raw_resize_cq(conf_fd, h, 100));
	conf_expect("cq.resize.zero", EINVAL, raw_resize_cq(conf_fd, h, 0));
	conf_expect("cq.resize.over_max", EINVAL,
		    raw_resize_cq(conf_fd, h, RXE_MAX_CQE + 1));
	conf_expect("cq.resize.bad_handle", ENOENT,
		    raw_resize_cq(conf_fd, h + 1000, 64));

	/* A QP on the CQ pins it. */
	raw_alloc_pd(conf_fd, &pd);
	raw_qp_cmd_init(&qcmd, pd, h, IB_UVERBS_QPT_RC);
	err = raw_create_qp(conf_fd, &qcmd, 0, &qp);
	conf_expect("cq.qp_on_cq.create", 0, err);
	conf_expect("cq.destroy.in_use", EBUSY, raw_destroy_cq(conf_fd, h, NULL));
	if (!err)
		raw_destroy_qp(conf_fd, qp.qp_handle, NULL);
	conf_expect("cq.destroy.ok", 0, raw_destroy_cq(conf_fd, h, NULL));
	conf_expect("cq.destroy.again", ENOENT, raw_destroy_cq(conf_fd, h, NULL));
	raw_destroy_pd(conf_fd, pd);

	cq_row("cq.create.cqe_0", EINVAL, 0, 0, -1, 0);
	cq_row("cq.create.cqe_negative", EINVAL, -1, 0, -1, 0);
	cq_row("cq.create.cqe_max", 0, RXE_MAX_CQE, 0, -1, 0);
	cq_row("cq.create.cqe_max_plus_1", EINVAL, RXE_MAX_CQE + 1, 0, -1, 0);
	cq_row("cq.create.comp_vector_huge", EINVAL, 16, 4096, -1, 0);
	cq_row("cq.create.channel_not_a_channel", EBADF, 16, 0, conf_fd, 0);
	cq_row("cq.create.channel_bad_fd", EBADF, 16, 0, 999, 0);
	/* No room for rxe's mmap info: the driver refuses. */
	cq_row("cq.create.no_driver_resp", EINVAL, 16, 0, -1,
	       sizeof(struct ib_uverbs_create_cq_resp));
}
