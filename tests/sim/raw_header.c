// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* ioctl header and generic attribute validation (uverbs_ioctl.c rules). */
#include "raw.h"

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static struct ib_uverbs_query_port_resp_ex port_resp;

static void query_port(struct raw_ioctl *c, uint64_t port)
{
	raw_init(c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	raw_attr(c, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 8, port);
	raw_ptr(c, UVERBS_ATTR_QUERY_PORT_RESP, &port_resp);
}

static void check_header_rules(int fd)
{
	struct raw_ioctl c;

	query_port(&c, 1);
	EXPECT(ioctl(fd, _IOWR(RDMA_IOCTL_MAGIC, 2, struct ib_uverbs_ioctl_hdr),
		     &c) &&
		       errno == ENOTTY,
	       "other ioctl cmd: want ENOTTY");
	c.hdr.length += 16;
	EXPECT_ERR(raw_call(fd, &c), EINVAL);
	query_port(&c, 1);
	c.hdr.length = 24 + 16 * 300;
	c.hdr.num_attrs = 300; /* consistent, but beyond a page */
	EXPECT_ERR(ioctl(fd, RDMA_VERBS_IOCTL, &c) ? errno : 0, EINVAL);
	query_port(&c, 1);
	c.hdr.reserved1 = 1;
	EXPECT_ERR(raw_call(fd, &c), EPROTONOSUPPORT);
	query_port(&c, 1);
	c.hdr.reserved2 = 1;
	EXPECT_ERR(raw_call(fd, &c), EPROTONOSUPPORT);
	query_port(&c, 1);
	c.hdr.driver_id = RDMA_DRIVER_RXE;
	EXPECT_ERR(raw_call(fd, &c), EINVAL);
	raw_init(&c, 0x77, 0);
	EXPECT_ERR(raw_call(fd, &c), EPROTONOSUPPORT);
	raw_init(&c, UVERBS_OBJECT_DEVICE, 0x55);
	EXPECT_ERR(raw_call(fd, &c), EPROTONOSUPPORT);
	/* DEVX is not offered: the object is unknown */
	raw_init(&c, MLX5_IB_OBJECT_DEVX, MLX5_IB_METHOD_DEVX_OTHER);
	EXPECT_ERR(raw_call(fd, &c), EPROTONOSUPPORT);
}

static void check_attr_rules(int fd)
{
	struct raw_ioctl c;

	query_port(&c, 1);
	memset(&port_resp, 0, sizeof(port_resp));
	EXPECT_ERR(raw_call(fd, &c), 0);
	EXPECT(c.hdr.attrs[1].flags & UVERBS_ATTR_F_VALID_OUTPUT,
	       "VALID_OUTPUT not set");
	EXPECT(!(c.hdr.attrs[0].flags & UVERBS_ATTR_F_VALID_OUTPUT),
	       "VALID_OUTPUT set on an input");
	EXPECT(port_resp.legacy_resp.state == 4, "port state %u",
	       port_resp.legacy_resp.state);
	query_port(&c, 2);
	EXPECT_ERR(raw_call(fd, &c), EINVAL);

	query_port(&c, 1);
	raw_attr(&c, 0x77, 8, 0); /* unknown, mandatory */
	EXPECT_ERR(raw_call(fd, &c), EPROTONOSUPPORT);
	c.hdr.attrs[2].flags = 0; /* unknown, optional: ignored */
	EXPECT_ERR(raw_call(fd, &c), 0);
	query_port(&c, 1);
	raw_attr(&c, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 8, 1);
	EXPECT_ERR(raw_call(fd, &c), EINVAL); /* duplicate */
	query_port(&c, 1);
	c.hdr.attrs[0].attr_data.reserved = 1;
	EXPECT_ERR(raw_call(fd, &c), EINVAL);
	query_port(&c, 1);
	c.hdr.num_attrs = 1;
	c.hdr.length -= 16;
	EXPECT_ERR(raw_call(fd, &c), EINVAL); /* mandatory RESP missing */
	query_port(&c, 1);
	c.hdr.attrs[1].len = 16;
	EXPECT_ERR(raw_call(fd, &c), EINVAL); /* PTR below min */
	query_port(&c, 1);
	c.hdr.attrs[0].len = 4;
	EXPECT_ERR(raw_call(fd, &c), EINVAL); /* const is a u64 */
	raw_init(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE);
	raw_attr(&c, UVERBS_ATTR_FREE_DM_HANDLE, 4, 0);
	EXPECT_ERR(raw_call(fd, &c), EINVAL); /* IDR with len */
}

void raw_check_header(void)
{
	struct raw_ioctl c;
	int fd = raw_open();

	EXPECT(fd >= 0, "open uverbs0");
	if (fd < 0)
		return;
	/* no context yet */
	query_port(&c, 1);
	EXPECT_ERR(raw_call(fd, &c), EINVAL);
	close(fd);
	fd = raw_open_ctx(NULL);
	EXPECT(fd >= 0, "context");
	if (fd < 0)
		return;
	check_header_rules(fd);
	check_attr_rules(fd);
	close(fd);
}
