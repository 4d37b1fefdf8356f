// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ioctl header checks: each row takes a valid DEVICE/QUERY_PORT call, breaks
 * one thing in the header (or the object/method ids) and records the errno.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "conf.h"

static void m_none(struct raw_ioctl *c)
{
}

static void m_len_minus_1(struct raw_ioctl *c)
{
	c->hdr.length -= 1;
}

static void m_len_plus_16(struct raw_ioctl *c)
{
	c->hdr.length += 16;
}

static void m_len_zero(struct raw_ioctl *c)
{
	c->hdr.length = 0;
}

/* 255 attributes: 24 + 255 * 16 = 4104 bytes, just over one page. */
static void m_over_page(struct raw_ioctl *c)
{
	while (c->hdr.num_attrs < 255)
		raw_add(c, 0x0800 + c->hdr.num_attrs, 0, 0, 0);
	raw_finish(c);
}

static void m_reserved1(struct raw_ioctl *c)
{
	c->hdr.reserved1 = 1;
}

static void m_reserved2(struct raw_ioctl *c)
{
	c->hdr.reserved2 = 1;
}

static void m_driver_other(struct raw_ioctl *c)
{
	c->hdr.driver_id = RDMA_DRIVER_MLX5;
}

static void m_driver_unknown(struct raw_ioctl *c)
{
	c->hdr.driver_id = RDMA_DRIVER_UNKNOWN;
}

static void m_obj_unknown(struct raw_ioctl *c)
{
	c->hdr.object_id = 0x0fff;
}

static void m_obj_driver_ns(struct raw_ioctl *c)
{
	c->hdr.object_id = 0x1000;
}

static void m_method_unknown(struct raw_ioctl *c)
{
	c->hdr.method_id = 0x00ff;
}

static void m_method_driver_ns(struct raw_ioctl *c)
{
	c->hdr.method_id = 0x1000;
}

static const struct raw_mutation header_rows[] = {
	{"ioctl.baseline.query_port", m_none, 0},
	{"ioctl.hdr.length_minus_1", m_len_minus_1, EINVAL},
	{"ioctl.hdr.length_plus_16", m_len_plus_16, EINVAL},
	{"ioctl.hdr.length_zero", m_len_zero, EINVAL},
	{"ioctl.hdr.length_over_page", m_over_page, EINVAL},
	{"ioctl.hdr.reserved1_nonzero", m_reserved1, EPROTONOSUPPORT},
	{"ioctl.hdr.reserved2_nonzero", m_reserved2, EPROTONOSUPPORT},
	{"ioctl.hdr.driver_id_mlx5_on_rxe", m_driver_other, EINVAL},
	{"ioctl.hdr.driver_id_unknown", m_driver_unknown, EINVAL},
	{"ioctl.object.unknown_0x0fff", m_obj_unknown, EPROTONOSUPPORT},
	{"ioctl.object.driver_ns_0x1000", m_obj_driver_ns, EPROTONOSUPPORT},
	{"ioctl.method.unknown_0x00ff", m_method_unknown, EPROTONOSUPPORT},
	{"ioctl.method.driver_ns_0x1000", m_method_driver_ns, EPROTONOSUPPORT},
};

void check_header(void)
{
	struct ib_uverbs_query_port_resp_ex resp;
	struct raw_ioctl cmd;
	unsigned int i;
	int fd, err;

	conf_print_header("ioctl header, object and method ids");
	for (i = 0; i < sizeof(header_rows) / sizeof(header_rows[0]); i++) {
		raw_query_port_cmd(&cmd, &resp, sizeof(resp));
		raw_finish(&cmd);
		header_rows[i].mutate(&cmd);
		conf_expect(header_rows[i].name, header_rows[i].expected,
			    raw_call(conf_fd, &cmd));
	}

	/* Another ioctl number on the same magic is not the verbs ioctl. */
	raw_query_port_cmd(&cmd, &resp, sizeof(resp));
	raw_finish(&cmd);
	err = ioctl(conf_fd,
		    _IOWR(RDMA_IOCTL_MAGIC, 2, struct ib_uverbs_ioctl_hdr),
		    &cmd)
		      ? errno
		      : 0;
	conf_expect("ioctl.cmd.other_nr_on_magic", ENOTTY, err);

	/* A fresh fd has no context yet: methods needing one must refuse. */
	fd = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);
	err = fd < 0 ? errno : raw_call(fd, &cmd);
	conf_expect("ioctl.query_port.before_context", EINVAL, err);
	if (fd >= 0)
		close(fd);
}
