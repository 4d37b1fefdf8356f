// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* ioctl header and generic attribute validation (uverbs_ioctl.c rules). */
#include "raw.h"

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
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

/* Two pages, the second unreadable (munmap both); NULL on failure. */
static uint8_t *guarded_page(size_t page)
{
	uint8_t *p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	EXPECT(p != MAP_FAILED, "mmap");
	if (p == MAP_FAILED)
		return NULL;
	mprotect(p + page, page, PROT_NONE);
	return p;
}

/*
 * The kernel reads the attribute array only after the reserved, driver id
 * and object/method checks: a header whose array sits on an unreadable
 * page gets those errnos, and EFAULT only for a real method.
 */
static void check_parse_order(int fd)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct ib_uverbs_ioctl_hdr *h;
	uint8_t *p;

	p = guarded_page(page);
	if (!p)
		return;
	h = (void *)(p + page - sizeof(*h));
	memset(h, 0, sizeof(*h));
	h->length = sizeof(*h) + sizeof(struct ib_uverbs_attr);
	h->num_attrs = 1;
	h->driver_id = RDMA_DRIVER_MLX5;
	h->object_id = UVERBS_OBJECT_PD;
	h->method_id = UVERBS_METHOD_PD_DESTROY;
	EXPECT_ERR(ioctl(fd, RDMA_VERBS_IOCTL, h) ? errno : 0, EFAULT);
	h->reserved1 = 1;
	EXPECT_ERR(ioctl(fd, RDMA_VERBS_IOCTL, h) ? errno : 0, EPROTONOSUPPORT);
	h->reserved1 = 0;
	h->driver_id = RDMA_DRIVER_RXE;
	EXPECT_ERR(ioctl(fd, RDMA_VERBS_IOCTL, h) ? errno : 0, EINVAL);
	h->driver_id = RDMA_DRIVER_MLX5;
	h->object_id = 0x77;
	EXPECT_ERR(ioctl(fd, RDMA_VERBS_IOCTL, h) ? errno : 0, EPROTONOSUPPORT);
	munmap(p, 2 * page);
}

/* write(): the headers are checked (verify_hdr) before the body is read. */
static void check_write_order(int fd)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct ib_uverbs_cmd_hdr *h;
	struct ib_uverbs_ex_cmd_hdr *x;
	uint8_t *p;

	p = guarded_page(page);
	if (!p)
		return;
	/* plain ALLOC_PD, its body on the unreadable page */
	h = (void *)(p + page - sizeof(*h));
	*h = (struct ib_uverbs_cmd_hdr){.command = IB_USER_VERBS_CMD_ALLOC_PD,
					.in_words = 7,
					.out_words = 2};
	EXPECT(write(fd, h, 24) < 0 && errno == EINVAL,
	       "in_words != count/4 before the body is read: EINVAL");
	h->in_words = 6;
	EXPECT(write(fd, h, 24) < 0 && errno == EFAULT, "unreadable body");
	/* extended: both headers readable, the body not */
	h = (void *)(p + page - sizeof(*h) - sizeof(*x));
	x = (void *)(h + 1);
	*h = (struct ib_uverbs_cmd_hdr){
		.command = IB_USER_VERBS_CMD_FLAG_EXTENDED |
			   IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
		.in_words = 1,
		.out_words = 1};
	*x = (struct ib_uverbs_ex_cmd_hdr){.response = (uintptr_t)p,
					   .cmd_hdr_reserved = 1};
	EXPECT(write(fd, h, sizeof(*h) + sizeof(*x) + 8) < 0 && errno == EINVAL,
	       "ex cmd_hdr_reserved before the body is read: EINVAL");
	x->cmd_hdr_reserved = 0;
	EXPECT(write(fd, h, sizeof(*h) + sizeof(*x) + 8) < 0 && errno == EFAULT,
	       "unreadable ex body");
	munmap(p, 2 * page);
}

/* An IDR id is an s64: >= 2^32 is simply absent, negative is EINVAL. */
static int destroy_pd_id(int fd, uint64_t id)
{
	struct raw_ioctl c;

	raw_init(&c, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY);
	raw_attr(&c, UVERBS_ATTR_DESTROY_PD_HANDLE, 0, id);
	return raw_call(fd, &c);
}

static void check_idr_range(int fd)
{
	uint32_t pd;

	EXPECT_ERR(raw_alloc_pd(fd, &pd), 0);
	EXPECT_ERR(destroy_pd_id(fd, (1ULL << 32) | pd), ENOENT);
	EXPECT_ERR(destroy_pd_id(fd, UINT64_MAX), EINVAL);
	EXPECT_ERR(destroy_pd_id(fd, pd), 0);
}

/* The uverbs file is a stream without read: no positioned or vector reads. */
static void check_uverbs_file(int fd)
{
	char b[8];
	struct iovec iov = {.iov_base = b, .iov_len = sizeof(b)};

	EXPECT(pread(fd, b, sizeof(b), 0) < 0 && errno == ESPIPE, "pread");
	EXPECT(pwrite(fd, b, sizeof(b), 0) < 0 && errno == ESPIPE, "pwrite");
	EXPECT(readv(fd, &iov, 1) < 0 && errno == EINVAL, "readv");
	EXPECT(read(fd, b, sizeof(b)) < 0 && errno == EINVAL, "read");
	EXPECT(lseek(fd, 0, SEEK_SET) < 0 && errno == ESPIPE, "lseek");
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
	check_uverbs_file(fd);
	check_header_rules(fd);
	check_attr_rules(fd);
	check_parse_order(fd);
	check_write_order(fd);
	check_idr_range(fd);
	close(fd);
}
