// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Programs built against upstream's headers run our contexts: the inline
 * verbs of rdma-core 44 (v44_probe.c) against in-memory contexts whose
 * provider implements DM, device and port queries, or nothing at all.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fake_ctx.h"
#include "v44_probe.h"

static struct verbs_dm fake_dm;
static struct verbs_mr fake_mr;

static struct ibv_dm *fake_alloc_dm(struct ibv_context *context,
				    struct ibv_alloc_dm_attr *attr)
{
	memset(&fake_dm, 0, sizeof(fake_dm));
	fake_dm.dm.context = context;
	fake_dm.dm.handle = (uint32_t)attr->length;
	fake_dm.dm.comp_mask = IBV_DM_MASK_HANDLE;
	return &fake_dm.dm;
}

static int fake_free_dm(struct ibv_dm *dm)
{
	return dm == &fake_dm.dm ? 0 : EINVAL;
}

static struct ibv_mr *fake_reg_dm_mr(struct ibv_pd *pd, struct ibv_dm *dm,
				     uint64_t dm_offset, size_t length,
				     unsigned int access)
{
	if (!(access & IBV_ACCESS_ZERO_BASED)) {
		errno = EINVAL;
		return NULL;
	}
	return &fake_mr.ibv_mr;
}

static int fake_query_device_ex(struct ibv_context *context,
				const struct ibv_query_device_ex_input *input,
				struct ibv_device_attr_ex *attr,
				size_t attr_size)
{
	memset(attr, 0, attr_size);
	if (attr_size >= offsetof(struct ibv_device_attr_ex, max_dm_size) +
				 sizeof(attr->max_dm_size))
		attr->max_dm_size = 256 * 1024;
	return 0;
}

static int fake_query_port(struct ibv_context *context, uint8_t port_num,
			   struct ibv_port_attr *attr)
{
	attr->lid = 7;
	attr->port_cap_flags2 = 0x3;
	attr->active_speed_ex = 0xffffffff;
	return 0;
}

static int fake_poll_cq(struct ibv_cq *cq, int num_entries,
			struct ibv_wc *wc)
{
	return 0;
}

static void test_provider_with_dm(void **state)
{
	struct verbs_context *vctx = fake_ctx_new(sizeof(*vctx));
	const struct verbs_context_ops ops = {
		.alloc_dm = fake_alloc_dm,
		.free_dm = fake_free_dm,
		.reg_dm_mr = fake_reg_dm_mr,
		.query_device_ex = fake_query_device_ex,
		.query_port = fake_query_port,
		.poll_cq = fake_poll_cq,
	};
	struct v44_result res;

	verbs_set_ops(vctx, &ops);
	v44_probe(&vctx->context, &res);

	assert_ptr_equal(res.dm, &fake_dm.dm);
	assert_int_equal(res.dm_handle, 4096);
	assert_ptr_equal(res.dm_mr, &fake_mr.ibv_mr);
	assert_int_equal(res.free_dm_ret, 0);
	assert_int_equal(res.query_ex_ret, 0);
	assert_int_equal(res.max_dm_size, 256 * 1024);
	assert_int_equal(res.query_ex_bad_mask, EINVAL);
	assert_int_equal(res.query_port_ret, 0);
	assert_int_equal(res.lid, 7);
	/* v44's struct is shorter: nothing past it may be written. */
	assert_true(res.port_bytes_past_v44_untouched);
	assert_int_equal(res.poll_ret, 0);
	fake_ctx_free(vctx);
}

static void test_provider_without_anything(void **state)
{
	struct verbs_context *vctx = fake_ctx_new(sizeof(*vctx));
	struct v44_result res;

	v44_probe(&vctx->context, &res);
	assert_null(res.dm);
	assert_int_equal(res.alloc_dm_errno, EOPNOTSUPP);
	/* Falls back to ibv_query_device(), which fails the same way. */
	assert_int_equal(res.query_ex_ret, EOPNOTSUPP);
	assert_int_equal(res.query_ex_bad_mask, EINVAL);
	assert_int_equal(res.query_port_ret, EOPNOTSUPP);
	assert_int_equal(res.poll_ret, -EOPNOTSUPP);
	fake_ctx_free(vctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_provider_with_dm),
		cmocka_unit_test(test_provider_without_anything),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
