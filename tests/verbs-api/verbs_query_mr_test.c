// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Library-side behaviour of the verbs around a provider: the
 * ibv_query_device_ex() fallback, struct-size handling of port queries,
 * port speed, and what ibv_reg_mr*() hand to the provider and fill in.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fake_ctx.h"

static int qdev_calls;
static size_t qdev_sizes[4];
static int qdev_ex_result;

/* Fails the extended size with qdev_ex_result; fills the basic one. */
static int fake_query_device_ex(struct ibv_context *context,
				const struct ibv_query_device_ex_input *input,
				struct ibv_device_attr_ex *attr,
				size_t attr_size)
{
	qdev_sizes[qdev_calls++ & 3] = attr_size;
	if (attr_size == sizeof(struct ibv_device_attr)) {
		attr->orig_attr.max_qp = 7;
		return 0;
	}
	if (qdev_ex_result)
		return qdev_ex_result;
	attr->orig_attr.max_qp = 9;
	attr->max_dm_size = 256 * 1024;
	return 0;
}

static void test_query_device_ex(void **state)
{
	struct verbs_context *vctx = fake_ctx_new(sizeof(*vctx));
	const struct verbs_context_ops ops = {
		.query_device_ex = fake_query_device_ex,
	};
	struct ibv_query_device_ex_input input = { .comp_mask = 1 };
	struct ibv_device_attr_ex attr;

	verbs_set_ops(vctx, &ops);

	qdev_calls = 0;
	assert_int_equal(ibv_query_device_ex(&vctx->context, &input, &attr),
			 EINVAL);
	assert_int_equal(qdev_calls, 0);

	/* Supported: the provider's answer, asked for the full size. */
	qdev_ex_result = 0;
	assert_int_equal(ibv_query_device_ex(&vctx->context, NULL, &attr), 0);
	assert_int_equal(qdev_calls, 1);
	assert_int_equal(qdev_sizes[0], sizeof(attr));
	assert_int_equal(attr.max_dm_size, 256 * 1024);

	/* EOPNOTSUPP and ENOSYS: zeroed, then the basic query. */
	qdev_ex_result = EOPNOTSUPP;
	memset(&attr, 0xa5, sizeof(attr));
	assert_int_equal(ibv_query_device_ex(&vctx->context, NULL, &attr), 0);
	assert_int_equal(qdev_sizes[2], sizeof(struct ibv_device_attr));
	assert_int_equal(attr.orig_attr.max_qp, 7);
	assert_int_equal(attr.max_dm_size, 0);
	assert_int_equal(attr.comp_mask, 0);
	qdev_ex_result = ENOSYS;
	memset(&attr, 0xa5, sizeof(attr));
	assert_int_equal(ibv_query_device_ex(&vctx->context, NULL, &attr), 0);
	assert_int_equal(attr.max_dm_size, 0);

	/* Any other error is the answer. */
	qdev_ex_result = EIO;
	assert_int_equal(ibv_query_device_ex(&vctx->context, NULL, &attr),
			 EIO);
	fake_ctx_free(vctx);
}

static int fake_query_port(struct ibv_context *context, uint8_t port_num,
			   struct ibv_port_attr *attr)
{
	if (port_num != 1)
		return EINVAL;
	attr->state = IBV_PORT_ACTIVE;
	attr->lid = 5;
	attr->active_width = 2; /* 4x */
	attr->active_speed = 32; /* EDR */
	attr->port_cap_flags2 = 0x10;
	attr->active_speed_ex = 0;
	return 0;
}

static void test_query_port(void **state)
{
	struct verbs_context *vctx = fake_ctx_new(sizeof(*vctx));
	const struct verbs_context_ops ops = { .query_port = fake_query_port };
	const size_t compat_len = offsetof(struct ibv_port_attr,
					   port_cap_flags2);
	unsigned char raw[sizeof(struct ibv_port_attr)];
	struct ibv_port_attr attr;
	uint64_t speed = 0;
	size_t i;

	verbs_set_ops(vctx, &ops);
	memset(&attr, 0xa5, sizeof(attr));
	assert_int_equal(ibv_query_port(&vctx->context, 1, &attr), 0);
	assert_int_equal(attr.state, IBV_PORT_ACTIVE);
	assert_int_equal(attr.lid, 5);
	assert_int_equal(attr.port_cap_flags2, 0x10);
	assert_int_equal(attr.gid_tbl_len, 0); /* zeroed, not left as 0xa5 */
	assert_int_equal(ibv_query_port(&vctx->context, 2, &attr), EINVAL);

	/* The exported symbol fills only the original struct. */
	memset(raw, 0xa5, sizeof(raw));
	assert_int_equal((ibv_query_port)(&vctx->context, 1,
					  (struct _compat_ibv_port_attr *)raw),
			 0);
	memcpy(&attr, raw, sizeof(attr));
	assert_int_equal(attr.lid, 5);
	for (i = compat_len; i < sizeof(raw); i++)
		assert_int_equal(raw[i], 0xa5);

	/* 4 lanes of EDR: 4 x 25 Gb/s in 100 Mb/s units. */
	assert_int_equal(ibv_query_port_speed(&vctx->context, 1, &speed), 0);
	assert_int_equal(speed, 1000);
	assert_int_equal(ibv_query_port_speed(&vctx->context, 256, &speed),
			 EINVAL);
	assert_int_equal(ibv_query_port_speed(&vctx->context, 2, &speed),
			 EINVAL);
	fake_ctx_free(vctx);
}

static struct {
	void *addr;
	size_t length;
	uint64_t iova;
	int access;
	int fd;
	int calls;
} seen;
static struct verbs_mr fake_mr;

/* Remember what the provider was asked for; hand out one MR. */
static struct ibv_mr *record_reg(void *addr, size_t length, uint64_t iova,
				 int fd, int access)
{
	seen.addr = addr;
	seen.length = length;
	seen.iova = iova;
	seen.fd = fd;
	seen.access = access;
	seen.calls++;
	memset(&fake_mr, 0, sizeof(fake_mr));
	return &fake_mr.ibv_mr;
}

static struct ibv_mr *fake_reg_mr(struct ibv_pd *pd, void *addr,
				  size_t length, uint64_t hca_va, int access)
{
	return record_reg(addr, length, hca_va, -1, access);
}

static struct ibv_mr *fake_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
					 size_t length, uint64_t iova, int fd,
					 int access)
{
	return record_reg((void *)(uintptr_t)offset, length, iova, fd, access);
}

static struct verbs_context *mr_ctx(struct ibv_pd *pd)
{
	struct verbs_context *vctx = fake_ctx_new(sizeof(*vctx));
	const struct verbs_context_ops ops = {
		.reg_mr = fake_reg_mr,
		.reg_dmabuf_mr = fake_reg_dmabuf_mr,
	};

	verbs_set_ops(vctx, &ops);
	pd->context = &vctx->context;
	memset(&seen, 0, sizeof(seen));
	return vctx;
}

static void test_reg_mr_fills_and_strips(void **state)
{
	const unsigned int relaxed = IBV_ACCESS_RELAXED_ORDERING;
	struct ibv_pd pd;
	struct verbs_context *vctx = mr_ctx(&pd);
	static char buf[256];
	struct ibv_mr *mr;

	mr = ibv_reg_mr(&pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	assert_ptr_equal(mr, &fake_mr.ibv_mr);
	assert_ptr_equal(mr->context, &vctx->context);
	assert_ptr_equal(mr->pd, &pd);
	assert_ptr_equal(mr->addr, buf);
	assert_int_equal(mr->length, sizeof(buf));
	assert_int_equal(seen.iova, (uintptr_t)buf);

	/* A kernel without optional-access support never sees those bits. */
	ibv_reg_mr_iova2(&pd, buf, sizeof(buf), 0x10000,
			 IBV_ACCESS_LOCAL_WRITE | relaxed);
	assert_int_equal(seen.access, IBV_ACCESS_LOCAL_WRITE);
	assert_int_equal(seen.iova, 0x10000);
	vctx->priv->core_support = IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS;
	ibv_reg_mr_iova2(&pd, buf, sizeof(buf), 0x10000,
			 IBV_ACCESS_LOCAL_WRITE | relaxed);
	assert_int_equal(seen.access, IBV_ACCESS_LOCAL_WRITE | relaxed);

	mr = ibv_reg_dmabuf_mr(&pd, 8192, 4096, 0x2000, 9, 0);
	assert_ptr_equal(mr->addr, (void *)8192);
	assert_int_equal(mr->length, 4096);
	assert_int_equal(seen.fd, 9);
	fake_ctx_free(vctx);
}

static void test_reg_mr_ex(void **state)
{
	struct ibv_pd pd;
	struct verbs_context *vctx = mr_ctx(&pd);
	static char buf[128];
	struct ibv_mr_init_attr a = {
		.length = sizeof(buf),
		.access = IBV_ACCESS_LOCAL_WRITE,
		.addr = buf,
		.fd = 11,
		.fd_offset = 4096,
		.iova = 0x7000,
	};
	static const uint64_t bad_masks[] = {
		0,
		IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_FD,
		IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_FD_OFFSET,
		IBV_REG_MR_MASK_IOVA,
		IBV_REG_MR_MASK_ADDR | (1ULL << 10),
	};
	size_t i;

	for (i = 0; i < sizeof(bad_masks) / sizeof(bad_masks[0]); i++) {
		a.comp_mask = bad_masks[i];
		errno = 0;
		assert_null(ibv_reg_mr_ex(&pd, &a));
		assert_int_equal(errno, EINVAL);
	}
	assert_int_equal(seen.calls, 0);

	a.comp_mask = IBV_REG_MR_MASK_ADDR;
	assert_non_null(ibv_reg_mr_ex(&pd, &a));
	assert_ptr_equal(seen.addr, buf);
	assert_int_equal(seen.iova, (uintptr_t)buf);
	a.comp_mask = IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_IOVA;
	assert_non_null(ibv_reg_mr_ex(&pd, &a));
	assert_int_equal(seen.iova, 0x7000);

	a.comp_mask = IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET;
	assert_non_null(ibv_reg_mr_ex(&pd, &a));
	assert_int_equal(seen.fd, 11);
	assert_ptr_equal(seen.addr, (void *)4096);
	assert_int_equal(seen.iova, 4096);

	/* A handle of this context, which the default cannot carry. */
	a.comp_mask = IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_DMAH;
	a.dmah = &(struct ibv_dmah){.context = &vctx->context};
	errno = 0;
	assert_null(ibv_reg_mr_ex(&pd, &a));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(seen.calls, 3);
	fake_ctx_free(vctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_query_device_ex),
		cmocka_unit_test(test_query_port),
		cmocka_unit_test(test_reg_mr_fills_and_strips),
		cmocka_unit_test(test_reg_mr_ex),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
