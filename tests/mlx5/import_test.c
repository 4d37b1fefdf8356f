// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Shared PD and MR (rdma-core's test_shared_pd): a second context on a
 * dup of the first one's cmd fd (ibv_import_device) imports its PD and MR
 * by handle (mlx5 PD_QUERY, QUERY_MR), builds an RC QP on the imported PD
 * and moves data with the imported MR's keys; unimporting frees only the
 * local objects. mlx5dv_init_obj(MLX5DV_OBJ_PD) answers the number both
 * the PD's ALLOC_PD and the importer's PD_QUERY gave. Under rdma-sim on
 * mlx5_0.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <infiniband/mlx5dv.h>

#include "dm_util.h"
#include "fds.h"
#include "rdma_util.h"

#define BUF_LEN 8192
#define ACCESS                                                                 \
	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |                    \
	 IBV_ACCESS_REMOTE_READ)

static struct dm_env env;

static int setup(void **state)
{
	return dm_env_open_sim(&env);
}

static int teardown(void **state)
{
	dm_env_close(&env);
	return 0;
}

static void test_import_pd_mr(void **state)
{
	int fds = count_fds(), maps = count_maps();
	uint8_t *src = aligned_alloc(4096, BUF_LEN);
	uint8_t *dst = aligned_alloc(4096, BUF_LEN);
	struct ibv_mr *mr, *imr, *dst_mr;
	struct rdma_ep a = {}, b = {};
	struct ep_opts o = {.type = IBV_QPT_RC, .depth = 4};
	struct ibv_context *ctx2;
	struct ibv_pd *ipd;
	struct ibv_wc wc;

	assert_non_null(src);
	assert_non_null(dst);
	ctx2 = ibv_import_device(dup(env.ctx->cmd_fd));
	assert_non_null(ctx2);
	mr = ibv_reg_mr(env.pd, src, BUF_LEN, ACCESS);
	assert_non_null(mr);

	ipd = ibv_import_pd(ctx2, env.pd->handle);
	assert_non_null(ipd);
	assert_ptr_equal(ipd->context, ctx2);
	assert_int_equal(ipd->handle, env.pd->handle);
	imr = ibv_import_mr(ipd, mr->handle);
	assert_non_null(imr);
	assert_ptr_equal(imr->context, ctx2);
	assert_ptr_equal(imr->pd, ipd);
	assert_int_equal(imr->handle, mr->handle);
	assert_int_equal(imr->lkey, mr->lkey);
	assert_int_equal(imr->rkey, mr->rkey);
	assert_int_equal(imr->length, BUF_LEN);
	assert_null(imr->addr); /* the registrant's address is not known */

	/* No such object: the kernel's IDR lookup answers ENOENT. */
	errno = 0;
	assert_null(ibv_import_pd(ctx2, env.pd->handle + 100));
	assert_int_equal(errno, ENOENT);
	errno = 0;
	assert_null(ibv_import_mr(ipd, mr->handle + 100));
	assert_int_equal(errno, ENOENT);

	/* An RC QP on the imported PD writes with the imported MR's lkey. */
	dst_mr = ibv_reg_mr(env.pd, dst, BUF_LEN, ACCESS);
	assert_non_null(dst_mr);
	assert_int_equal(ep_pair(&a, ipd, &o, &b, env.pd, &o), 0);
	memset(dst, 0, BUF_LEN);
	fill_pattern(src, BUF_LEN, 7);
	assert_int_equal(ep_post(&a, IBV_WR_RDMA_WRITE, src, BUF_LEN, imr->lkey,
				 (uintptr_t)dst, dst_mr->rkey,
				 IBV_SEND_SIGNALED, 1),
			 0);
	assert_int_equal(ep_poll(&a, &wc, 1), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_memory_equal(dst, src, BUF_LEN);
	ep_close(&a);
	ep_close(&b);

	/* Unimport is local: the originals still go through the kernel. */
	ibv_unimport_mr(imr);
	ibv_unimport_pd(ipd);
	assert_int_equal(ibv_dereg_mr(dst_mr), 0);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	assert_int_equal(ibv_close_device(ctx2), 0);
	assert_int_equal(count_fds(), fds);
	assert_int_equal(count_maps(), maps);
	free(src);
	free(dst);
}

static int dv_pdn(struct ibv_pd *pd, uint32_t *pdn)
{
	struct mlx5dv_pd dv = {.pdn = ~0u, .comp_mask = ~0ull};
	struct mlx5dv_obj obj = {.pd = {.in = pd, .out = &dv}};
	int ret = mlx5dv_init_obj(&obj, MLX5DV_OBJ_PD);

	if (!ret) {
		assert_int_equal(dv.comp_mask, 0);
		*pdn = dv.pdn;
	}
	return ret;
}

static void test_dv_pd(void **state)
{
	struct ibv_parent_domain_init_attr pa = {.pd = env.pd};
	uint32_t pdn = ~0u, ipdn = ~0u, pdn2 = ~0u, ppdn = ~0u;
	struct mlx5dv_pd dv;
	struct mlx5dv_obj obj = {.pd = {.in = env.pd, .out = NULL}};
	struct ibv_context *ctx2;
	struct ibv_pd *ipd, *pd2, *parent;

	ctx2 = ibv_import_device(dup(env.ctx->cmd_fd));
	assert_non_null(ctx2);
	ipd = ibv_import_pd(ctx2, env.pd->handle);
	assert_non_null(ipd);
	pd2 = ibv_alloc_pd(env.ctx);
	assert_non_null(pd2);
	parent = ibv_alloc_parent_domain(env.ctx, &pa);
	assert_non_null(parent);

	assert_int_equal(dv_pdn(env.pd, &pdn), 0);
	assert_int_equal(dv_pdn(ipd, &ipdn), 0);
	assert_int_equal(ipdn, pdn);
	assert_int_equal(dv_pdn(pd2, &pdn2), 0);
	assert_int_not_equal(pdn2, pdn);
	assert_int_equal(dv_pdn(parent, &ppdn), 0);
	assert_int_equal(ppdn, pdn);

	/* no output, or no PD */
	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_PD), EINVAL);
	obj.pd.out = &dv;
	obj.pd.in = NULL;
	assert_int_equal(mlx5dv_init_obj(&obj, MLX5DV_OBJ_PD), EINVAL);

	assert_int_equal(ibv_dealloc_pd(parent), 0);
	assert_int_equal(ibv_dealloc_pd(pd2), 0);
	ibv_unimport_pd(ipd);
	assert_int_equal(ibv_close_device(ctx2), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_import_pd_mr),
		cmocka_unit_test(test_dv_pd),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
