// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * verbs_set_ops(): where a provider's ops land (private table, public
 * verbs_context slots, legacy ibv_context_ops members), that NULL keeps
 * the default, and that slots beyond the provider's `sz` are left alone.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fake_ctx.h"

typedef void (*any_fn)(void);

static void marker(void)
{
}

static any_fn fn_at(const void *base, ptrdiff_t off)
{
	any_fn fn;

	memcpy(&fn, (const char *)base + off, sizeof(fn));
	return fn;
}

#define VSLOT(name) offsetof(struct verbs_context, name)
#define LSLOT(name) offsetof(struct verbs_context, context.ops.name)

/* Every public slot an inline verb of verbs.h calls through. */
static const size_t copied_slots[] = {
	VSLOT(free_buf),	      VSLOT(alloc_buf),
	VSLOT(reg_mr_ex),	      VSLOT(dealloc_dmah),
	VSLOT(alloc_dmah),	      VSLOT(dm_export_dmabuf_fd),
	VSLOT(advise_mr),
	VSLOT(alloc_null_mr),	      VSLOT(read_counters),
	VSLOT(attach_counters_point_flow), VSLOT(create_counters),
	VSLOT(destroy_counters),      VSLOT(reg_dm_mr),
	VSLOT(alloc_dm),	      VSLOT(free_dm),
	VSLOT(modify_flow_action_esp), VSLOT(destroy_flow_action),
	VSLOT(create_flow_action_esp), VSLOT(modify_qp_rate_limit),
	VSLOT(alloc_parent_domain),   VSLOT(dealloc_td),
	VSLOT(alloc_td),	      VSLOT(modify_cq),
	VSLOT(post_srq_ops),	      VSLOT(destroy_rwq_ind_table),
	VSLOT(create_rwq_ind_table),  VSLOT(destroy_wq),
	VSLOT(modify_wq),	      VSLOT(create_wq),
	VSLOT(query_rt_values),	      VSLOT(create_cq_ex),
	VSLOT(query_device_ex),	      VSLOT(ibv_destroy_flow),
	VSLOT(ibv_create_flow),	      VSLOT(open_qp),
	VSLOT(create_qp_ex),	      VSLOT(get_srq_num),
	VSLOT(create_srq_ex),	      VSLOT(open_xrcd),
	VSLOT(close_xrcd),	      LSLOT(alloc_mw),
	LSLOT(bind_mw),		      LSLOT(dealloc_mw),
	LSLOT(poll_cq),		      LSLOT(req_notify_cq),
	LSLOT(post_srq_recv),	      LSLOT(post_send),
	LSLOT(post_recv),
};

/* Slots without a provider op in driver.h: set_ops must not touch them. */
static const size_t untouched_slots[] = {
	LSLOT(_compat_query_device), LSLOT(_compat_create_cq),
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_every_op_lands(void **state)
{
	struct verbs_context *vctx = fake_ctx_new(sizeof(*vctx));
	struct verbs_context_ops all;
	any_fn mark = marker;
	size_t off, i;

	for (off = 0; off < sizeof(all); off += sizeof(mark))
		memcpy((char *)&all + off, &mark, sizeof(mark));
	verbs_set_ops(vctx, &all);

	for (off = 0; off < sizeof(all); off += sizeof(mark))
		assert_ptr_equal(fn_at(&vctx->priv->ops, off), mark);
	for (i = 0; i < N(copied_slots); i++)
		if (fn_at(vctx, copied_slots[i]) != mark)
			fail_msg("public slot at offset %zu not set",
				 copied_slots[i]);
	for (i = 0; i < N(untouched_slots); i++)
		assert_null(fn_at(vctx, untouched_slots[i]));
	/* query_port gets the library's size-aware wrapper instead. */
	assert_non_null(vctx->query_port);
	assert_ptr_not_equal((any_fn)vctx->query_port, mark);
	fake_ctx_free(vctx);
}

static struct ibv_dm *fake_alloc_dm(struct ibv_context *context,
				    struct ibv_alloc_dm_attr *attr)
{
	static struct ibv_dm dm;

	dm.context = context;
	dm.handle = (uint32_t)attr->length;
	return &dm;
}

static void test_null_keeps_default(void **state)
{
	struct verbs_context *vctx = fake_ctx_new(sizeof(*vctx));
	const struct verbs_context_ops one = { .alloc_dm = fake_alloc_dm };
	struct ibv_alloc_dm_attr attr = { .length = 4096 };
	struct ibv_dm *dm;

	verbs_set_ops(vctx, &one);
	assert_ptr_equal(vctx->priv->ops.alloc_dm, fake_alloc_dm);
	assert_ptr_equal(vctx->alloc_dm, fake_alloc_dm);
	assert_ptr_equal(vctx->priv->ops.free_dm, verbs_dummy_ops.free_dm);
	assert_ptr_equal(vctx->free_dm, verbs_dummy_ops.free_dm);
	assert_ptr_equal(vctx->context.ops.poll_cq, verbs_dummy_ops.poll_cq);

	/* The inline verb reaches the provider through the public slot. */
	dm = ibv_alloc_dm(&vctx->context, &attr);
	assert_non_null(dm);
	assert_int_equal(dm->handle, 4096);
	assert_int_equal(ibv_free_dm(dm), EOPNOTSUPP);
	fake_ctx_free(vctx);
}

static int export_calls;
static struct ibv_dm *export_seen;
static int export_result, export_errno;

static int fake_export(struct ibv_dm *dm)
{
	export_calls++;
	export_seen = dm;
	errno = export_errno;
	return export_result;
}

/*
 * A provider built for rdma-core 44 has a verbs_context 648 bytes long:
 * slots in front of query_port are not its memory. The op still reaches
 * the private table, which is what the exported verb uses.
 */
static void test_short_context(void **state)
{
	const size_t v44_size = sizeof(struct verbs_context) -
				offsetof(struct verbs_context, query_port);
	struct verbs_context *vctx = fake_ctx_new(v44_size);
	const struct verbs_context_ops ops = {
		.dm_export_dmabuf_fd = fake_export,
		.alloc_dm = fake_alloc_dm,
	};
	struct ibv_dm dm = { .context = &vctx->context };

	assert_int_equal(v44_size, 648);
	/* The default install did not touch the slots beyond sz either. */
	assert_null(vctx->dm_export_dmabuf_fd);
	verbs_set_ops(vctx, &ops);
	assert_null(vctx->dm_export_dmabuf_fd);
	assert_ptr_equal(vctx->alloc_dm, fake_alloc_dm);
	assert_ptr_equal(vctx->priv->ops.dm_export_dmabuf_fd, fake_export);

	export_calls = 0;
	export_result = 42;
	assert_int_equal(ibv_dm_export_dmabuf_fd(&dm), 42);
	assert_int_equal(export_calls, 1);
	fake_ctx_free(vctx);
}

static void test_export_dispatch(void **state)
{
	struct verbs_context *vctx = fake_ctx_new(sizeof(*vctx));
	const struct verbs_context_ops ops = {
		.dm_export_dmabuf_fd = fake_export,
	};
	struct ibv_dm dm = { .context = &vctx->context };

	/* NULL dm: EINVAL before any provider is involved. */
	export_calls = 0;
	errno = 0;
	assert_int_equal(ibv_dm_export_dmabuf_fd(NULL), -1);
	assert_int_equal(errno, EINVAL);

	/* No provider op: the default's -1 / EOPNOTSUPP. */
	errno = 0;
	assert_int_equal(ibv_dm_export_dmabuf_fd(&dm), -1);
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(export_calls, 0);

	verbs_set_ops(vctx, &ops);
	assert_ptr_equal(vctx->dm_export_dmabuf_fd, fake_export);

	/* The provider's fd and its failure pass through untouched. */
	export_result = 42;
	export_errno = 0;
	assert_int_equal(ibv_dm_export_dmabuf_fd(&dm), 42);
	assert_ptr_equal(export_seen, &dm);
	export_result = -1;
	export_errno = ENOSPC;
	assert_int_equal(ibv_dm_export_dmabuf_fd(&dm), -1);
	assert_int_equal(errno, ENOSPC);
	assert_int_equal(export_calls, 2);
	fake_ctx_free(vctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_op_lands),
		cmocka_unit_test(test_null_keeps_default),
		cmocka_unit_test(test_short_context),
		cmocka_unit_test(test_export_dispatch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
