// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * QP create rows: every transport rxe has, the caps the kernel grants,
 * limits and bad handles; the rows of the state machine are in
 * check_qp_states.c.
 */
#include <errno.h>
#include <stddef.h>

#include "conf.h"

struct qp_case {
	const char *name;
	int expected;
	size_t off;  /* field of ib_uverbs_create_qp to set, or 0 */
	size_t size; /* 1 or 4 */
	uint32_t value;
	size_t resp_len; /* 0 = full */
};

#define F(field)                                                               \
	offsetof(struct ib_uverbs_create_qp, field),                           \
		sizeof(((struct ib_uverbs_create_qp *)0)->field)

static const struct qp_case cases[] = {
	{"qp.create.rc", 0, F(qp_type), IB_UVERBS_QPT_RC, 0},
	{"qp.create.uc", 0, F(qp_type), IB_UVERBS_QPT_UC, 0},
	{"qp.create.ud", 0, F(qp_type), IB_UVERBS_QPT_UD, 0},
	{"qp.create.type_raw_packet", EOPNOTSUPP, F(qp_type),
	 IB_UVERBS_QPT_RAW_PACKET, 0},
	{"qp.create.type_bogus", EINVAL, F(qp_type), 0x42, 0},
	{"qp.create.max_send_wr_over", EINVAL, F(max_send_wr), (1 << 20) + 1,
	 0},
	{"qp.create.max_recv_wr_over", EINVAL, F(max_recv_wr), (1 << 20) + 1,
	 0},
	{"qp.create.max_send_sge_33", EINVAL, F(max_send_sge), 33, 0},
	{"qp.create.max_recv_sge_33", EINVAL, F(max_recv_sge), 33, 0},
	{"qp.create.max_inline_513", EINVAL, F(max_inline_data), 513, 0},
	{"qp.create.max_inline_512", 0, F(max_inline_data), 512, 0},
	{"qp.create.bad_pd", ENOENT, F(pd_handle), 0xdead, 0},
	{"qp.create.bad_send_cq", ENOENT, F(send_cq_handle), 0xdead, 0},
	{"qp.create.bad_recv_cq", ENOENT, F(recv_cq_handle), 0xdead, 0},
	{"qp.create.no_driver_resp", EINVAL, 0, 0, 0,
	 sizeof(struct ib_uverbs_create_qp_resp)},
};

static void set_field(struct ib_uverbs_create_qp *cmd, const struct qp_case *c)
{
	uint8_t *p = (uint8_t *)cmd + c->off;

	if (c->size == 1)
		*p = (uint8_t)c->value;
	else
		*(uint32_t *)p = c->value;
}

void check_qp(void)
{
	struct ib_uverbs_create_qp_resp r;
	struct ib_uverbs_create_qp cmd;
	uint32_t pd = 0, cq = 0;
	size_t i;
	int err;

	conf_print_header("QP: create per type, caps, limits, bad handles");
	raw_alloc_pd(conf_fd, &pd);
	raw_create_cq(conf_fd, 64, 0, -1, 0, &cq, NULL);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		raw_qp_cmd_init(&cmd, pd, cq, IB_UVERBS_QPT_RC);
		if (cases[i].off)
			set_field(&cmd, &cases[i]);
		err = raw_create_qp(conf_fd, &cmd, cases[i].resp_len, &r);
		conf_expect(cases[i].name, cases[i].expected, err);
		if (!err)
			raw_destroy_qp(conf_fd, r.qp_handle, NULL);
	}

	/* Granted caps: the SQ slot fits max(sge * 16, inline) bytes. */
	raw_qp_cmd_init(&cmd, pd, cq, IB_UVERBS_QPT_RC);
	cmd.max_send_sge = 2;
	cmd.max_inline_data = 100;
	err = raw_create_qp(conf_fd, &cmd, 0, &r);
	conf_expect("qp.create.caps.ok", 0, err);
	/* 6.1 echoes the request, 6.12 reports the ring's capacity. */
	conf_expect_u_kv("qp.create.caps.max_send_wr", 8, 15, r.max_send_wr);
	conf_expect_u("qp.create.caps.max_send_sge", 6, r.max_send_sge);
	conf_expect_u("qp.create.caps.max_inline", 100, r.max_inline_data);
	conf_expect_u("qp.create.caps.qpn_min_16", 1, r.qpn >= 16);
	/* Always both rows, so a table where create failed has them too. */
	conf_expect("qp.destroy.ok", 0, raw_destroy_qp(conf_fd, r.qp_handle, NULL));
	conf_expect("qp.destroy.again", ENOENT,
		    raw_destroy_qp(conf_fd, r.qp_handle, NULL));
	raw_destroy_cq(conf_fd, cq, NULL);
	raw_destroy_pd(conf_fd, pd);
}
