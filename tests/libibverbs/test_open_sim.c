// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Device open/close on rdma-sim's simulated mlx5_0, through the shared
 * libibverbs and a provider registered by this program: errors from
 * alloc_context and from the async-fd allocation come back with their
 * errno and leave no fd behind; a device outlives its list while a
 * context uses it; ibv_import_device keeps the caller's fd on failure.
 * Run as: rdma-sim [--fail ASYNC_EVENT_ALLOC:1:EIO] -- test_open_sim
 * [async-fail].
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <rdma/mlx5-abi.h>

#include "driver.h"
#include "fds.h"
#include "test_util.h"

struct fake_context {
	struct verbs_context ibv_ctx;
	int extra;
};

static bool fail_alloc;
static int free_calls;

static void fake_free_context(struct ibv_context *ctx)
{
	struct fake_context *fctx = (struct fake_context *)verbs_get_ctx(ctx);

	free_calls++;
	verbs_uninit_context(&fctx->ibv_ctx);
	free(fctx);
}

static const struct verbs_context_ops fake_ops = {
	.free_context = fake_free_context,
};

static struct verbs_context *fake_alloc_context(struct ibv_device *dev,
						int cmd_fd, void *private_data)
{
	/* The (simulated) mlx5 kernel driver wants its request blob. */
	struct mlx5_ib_alloc_ucontext_req_v2 req = {
		.total_num_bfregs = 16,
		.num_low_latency_bfregs = 4,
		.max_cqe_version = 1,
		.lib_caps = 3,
	};
	struct mlx5_ib_alloc_ucontext_resp resp;
	struct ibv_udata udata = {&req, sizeof(req), &resp, sizeof(resp)};
	struct fake_context *fctx;

	if (fail_alloc) {
		errno = EPERM;
		return NULL;
	}
	fctx = verbs_init_and_alloc_context(dev, cmd_fd, fctx, ibv_ctx,
					    RDMA_DRIVER_MLX5);
	if (!fctx)
		return NULL;
	errno = ibv_cmd_get_context(&fctx->ibv_ctx, &udata, NULL);
	if (errno) {
		verbs_uninit_context(&fctx->ibv_ctx);
		free(fctx);
		return NULL;
	}
	verbs_set_ops(&fctx->ibv_ctx, &fake_ops);
	return &fctx->ibv_ctx;
}

static struct verbs_device *fake_alloc_device(struct verbs_sysfs_dev *sdev)
{
	return calloc(1, sizeof(struct verbs_device));
}

static void fake_uninit_device(struct verbs_device *vdev)
{
	free(vdev);
}

static const struct verbs_match_ent fake_table[] = {
	VERBS_NAME_MATCH("mlx5", NULL),
	VERBS_MATCH_END,
};

static const struct verbs_device_ops fake_device_ops = {
	.name = "fake",
	.match_min_abi_version = 1,
	.match_max_abi_version = 1,
	.match_table = fake_table,
	.alloc_context = fake_alloc_context,
	.alloc_device = fake_alloc_device,
	.uninit_device = fake_uninit_device,
};

static bool async_fail;

static struct ibv_device *first_device(struct ibv_device ***list)
{
	*list = ibv_get_device_list(NULL);
	assert_non_null(*list);
	assert_non_null((*list)[0]);
	assert_string_equal(ibv_get_device_name((*list)[0]), "mlx5_0");
	assert_ptr_equal(verbs_get_device((*list)[0])->ops, &fake_device_ops);
	return (*list)[0];
}

static void test_alloc_context_failure(void **state)
{
	struct ibv_device **list;
	struct ibv_device *dev = first_device(&list);
	int before = count_fds();

	fail_alloc = true;
	free_calls = 0;
	errno = 0;
	assert_null(ibv_open_device(dev));
	assert_int_equal(errno, EPERM);
	assert_int_equal(free_calls, 0);
	assert_int_equal(count_fds(), before);
	fail_alloc = false;
	ibv_free_device_list(list);
}

static void test_open_close(void **state)
{
	struct ibv_device **list;
	struct ibv_device *dev = first_device(&list);
	int before = count_fds();
	struct ibv_context *ctx;

	free_calls = 0;
	errno = 0;
	ctx = ibv_open_device(dev);
	if (async_fail) {
		/* The provider's context is released, the error kept. */
		assert_null(ctx);
		assert_int_equal(errno, EIO);
		assert_int_equal(free_calls, 1);
		assert_int_equal(count_fds(), before);
		ibv_free_device_list(list);
		return;
	}
	assert_non_null(ctx);
	/* cmd_fd and the async event fd. */
	assert_int_equal(count_fds(), before + 2);
	assert_true(ctx->async_fd >= 0);
	assert_int_equal(verbs_context_driver_id(ctx), RDMA_DRIVER_MLX5);

	/* The context keeps the device alive after the list is gone. */
	ibv_free_device_list(list);
	assert_string_equal(ctx->device->name, "mlx5_0");
	assert_int_equal(ibv_close_device(ctx), 0);
	assert_int_equal(free_calls, 1);
	assert_int_equal(count_fds(), before);
}

static void test_import_unsupported(void **state)
{
	struct ibv_device **list;
	struct ibv_device *dev;
	struct ibv_context *ctx;
	int before, fd;

	dev = first_device(&list);
	ctx = ibv_open_device(dev);
	assert_non_null(ctx);
	fd = dup(ctx->cmd_fd);
	before = count_fds();
	errno = 0;
	/* The fake provider cannot import: the caller keeps its fd. */
	assert_null(ibv_import_device(fd));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(count_fds(), before);
	close(fd);
	/* Not an RDMA device at all. */
	assert_null(ibv_import_device(STDIN_FILENO));
	ibv_close_device(ctx);
	ibv_free_device_list(list);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc_context_failure),
		cmocka_unit_test(test_open_close),
		cmocka_unit_test(test_import_unsupported),
	};
	size_t num = sizeof(tests) / sizeof(tests[0]);

	async_fail = argc > 1 && !strcmp(argv[1], "async-fail");
	verbs_register_driver(&fake_device_ops);
	/* The import test (last) has nothing to do with async events. */
	return _cmocka_run_group_tests("test_open_sim", tests, num - async_fail,
				       NULL, NULL);
}
