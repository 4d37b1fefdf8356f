// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The recording, scriptable uverbs "kernel" behind --wrap=ioctl/write. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cmocka.h>

#include "mock_kernel.h"

int __real_ioctl(int fd, unsigned long request, ...);
int __wrap_ioctl(int fd, unsigned long request, ...);
ssize_t __real_write(int fd, const void *buf, size_t len);
ssize_t __wrap_write(int fd, const void *buf, size_t len);

mock_ioctl_fn mock_ioctl_handler;
mock_write_fn mock_write_handler;
struct mock_call mock_calls[MOCK_MAX_CALLS];
unsigned int mock_num_calls;

void mock_reset(void)
{
	memset(mock_calls, 0, sizeof(mock_calls));
	mock_num_calls = 0;
	mock_ioctl_handler = NULL;
	mock_write_handler = NULL;
}

static struct mock_call *next_call(enum mock_kind kind, int fd)
{
	struct mock_call *call;

	assert_true(mock_num_calls < MOCK_MAX_CALLS);
	call = &mock_calls[mock_num_calls++];
	call->kind = kind;
	call->fd = fd;
	return call;
}

static void record_ioctl(struct mock_call *call,
			 const struct ib_uverbs_ioctl_hdr *hdr)
{
	const struct ib_uverbs_attr *attr;
	unsigned int i;

	call->len = hdr->length;
	assert_true(call->len <= sizeof(call->bytes));
	memcpy(call->bytes, hdr, call->len);
	for (i = 0; i < hdr->num_attrs && i < MOCK_MAX_ATTRS; i++) {
		attr = &hdr->attrs[i];
		if (attr->len > sizeof(attr->data))
			memcpy(call->payload[i], (void *)(uintptr_t)attr->data,
			       attr->len < sizeof(call->payload[i])
				       ? attr->len
				       : sizeof(call->payload[i]));
	}
}

int __wrap_ioctl(int fd, unsigned long request, ...)
{
	struct ib_uverbs_ioctl_hdr *hdr;
	va_list ap;
	int ret;

	va_start(ap, request);
	hdr = va_arg(ap, struct ib_uverbs_ioctl_hdr *);
	va_end(ap);
	if (request != RDMA_VERBS_IOCTL)
		return __real_ioctl(fd, request, hdr);

	record_ioctl(next_call(MOCK_IOCTL, fd), hdr);
	ret = mock_ioctl_handler ? mock_ioctl_handler(hdr) : 0;
	if (ret) {
		errno = ret;
		return -1;
	}
	return 0;
}

ssize_t __wrap_write(int fd, const void *buf, size_t len)
{
	struct mock_call *call;
	int ret;

	/* cmocka's own output never comes through here (libc-internal). */
	call = next_call(MOCK_WRITE, fd);
	assert_true(len <= sizeof(call->bytes));
	memcpy(call->bytes, buf, len);
	call->len = len;
	ret = mock_write_handler ? mock_write_handler(buf, len) : 0;
	if (ret) {
		errno = ret;
		return -1;
	}
	return (ssize_t)len;
}

const struct ib_uverbs_ioctl_hdr *mock_hdr(unsigned int call)
{
	assert_true(call < mock_num_calls);
	assert_int_equal(mock_calls[call].kind, MOCK_IOCTL);
	return (const void *)mock_calls[call].bytes;
}

const struct ib_uverbs_attr *mock_attr(unsigned int call, unsigned int i)
{
	const struct ib_uverbs_ioctl_hdr *hdr = mock_hdr(call);

	assert_true(i < hdr->num_attrs);
	return &hdr->attrs[i];
}

struct ib_uverbs_attr *mock_find(struct ib_uverbs_ioctl_hdr *hdr, uint16_t id)
{
	unsigned int i;

	for (i = 0; i < hdr->num_attrs; i++)
		if (hdr->attrs[i].attr_id == id)
			return &hdr->attrs[i];
	return NULL;
}

#define MOCK_FAIL_IOCTL(name, err)                                             \
	int mock_fail_##name(struct ib_uverbs_ioctl_hdr *hdr)                  \
	{                                                                      \
		return err;                                                    \
	}
MOCK_FAIL_IOCTL(eprotonosupport, EPROTONOSUPPORT)
MOCK_FAIL_IOCTL(enotty, ENOTTY)
MOCK_FAIL_IOCTL(einval, EINVAL)
MOCK_FAIL_IOCTL(eio, EIO)

int mock_fail_write_eio(const void *buf, size_t len)
{
	return EIO;
}

uint32_t mock_destroy_events;

int mock_answer_destroy(struct ib_uverbs_ioctl_hdr *hdr)
{
	memcpy((void *)(uintptr_t)mock_find(hdr, 1)->data,
	       &mock_destroy_events, sizeof(mock_destroy_events));
	return 0;
}

void mock_expect_attr(unsigned int call, unsigned int i, uint16_t id,
		      uint16_t len, uint16_t flags, uint64_t data)
{
	const struct ib_uverbs_attr *attr = mock_attr(call, i);

	assert_int_equal(attr->attr_id, id);
	assert_int_equal(attr->len, len);
	assert_int_equal(attr->flags, flags);
	assert_int_equal(attr->attr_data.reserved, 0);
	if (data != MOCK_ANY)
		assert_int_equal(attr->data, data);
}

void mock_expect_hdr(unsigned int call, uint16_t object, uint16_t method,
		     uint16_t num_attrs, uint32_t driver_id)
{
	const struct ib_uverbs_ioctl_hdr *hdr = mock_hdr(call);

	assert_int_equal(hdr->length, 24 + 16 * num_attrs);
	assert_int_equal(hdr->object_id, object);
	assert_int_equal(hdr->method_id, method);
	assert_int_equal(hdr->num_attrs, num_attrs);
	assert_int_equal(hdr->reserved1, 0);
	assert_int_equal(hdr->driver_id, driver_id);
	assert_int_equal(hdr->reserved2, 0);
}

static int probe_answer_value;

static int answer_probe(struct ib_uverbs_ioctl_hdr *hdr)
{
	return probe_answer_value;
}

static struct ibv_device mock_device = {.name = "mock0"};

struct verbs_context *mock_context(uint32_t driver_id, int probe_answer)
{
	struct verbs_context *c;

	mock_reset();
	probe_answer_value = probe_answer;
	mock_ioctl_handler = answer_probe;
	/* fd 1000: never a real file, so nothing real is ever touched. */
	c = _verbs_init_and_alloc_context(&mock_device, 1000, sizeof(*vctx),
					     0, driver_id);
	assert_non_null(c);
	assert_int_equal(mock_num_calls, 1);
	mock_reset();
	return c;
}

void mock_context_free(struct verbs_context *c)
{
	verbs_uninit_context(c);
	free(c);
}

struct verbs_context *vctx;

int mock_setup_ioctl(void **state)
{
	vctx = mock_context(RDMA_DRIVER_MLX5, ENOSPC);
	return 0;
}

int mock_setup_write(void **state)
{
	vctx = mock_context(RDMA_DRIVER_MLX5, EPROTONOSUPPORT);
	return 0;
}

int mock_teardown(void **state)
{
	vctx->context.async_fd = -1; /* a test's stand-in, not a real fd */
	mock_context_free(vctx);
	vctx = NULL;
	return 0;
}

void mock_expect_write_hdr(unsigned int call, uint32_t command,
			   uint16_t in_words, uint16_t out_words)
{
	assert_true(call < mock_num_calls);
	assert_int_equal(mock_calls[call].kind, MOCK_WRITE);
	assert_int_equal(mock_u32_at(call, 0), command);
	assert_int_equal(mock_u32_at(call, 4),
			 in_words | (uint32_t)out_words << 16);
}

uint32_t mock_u32_at(unsigned int call, size_t off)
{
	uint32_t v;

	assert_true(off + sizeof(v) <= mock_calls[call].len);
	memcpy(&v, mock_calls[call].bytes + off, sizeof(v));
	return v;
}

uint64_t mock_u64_at(unsigned int call, size_t off)
{
	uint64_t v;

	assert_true(off + sizeof(v) <= mock_calls[call].len);
	memcpy(&v, mock_calls[call].bytes + off, sizeof(v));
	return v;
}

void *mock_write_response(const void *buf)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)buf + 8, sizeof(v));
	return (void *)(uintptr_t)v;
}
