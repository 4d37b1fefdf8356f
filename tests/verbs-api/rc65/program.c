// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A program as if built against rdma-core 65: linked against stand-ins
 * with 65's version nodes (stubs.py), it needs every public symbol of
 * libibverbs and libmlx5 at its node (program_refs.c), links an rc65
 * provider (provider.c), and then runs on rdma-dm's libraries under
 * rdma-sim: verbs at 65's nodes work, the compat names answer as
 * documented, and the rc65 provider's registration was declined without
 * taking the device from our mlx5.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

/* rc65's driver.h, bound at IBVERBS_PRIVATE_65 as pyverbs does. */
int ibv_query_gid_type(struct ibv_context *ctx, uint8_t port,
		       unsigned int index, int *type);
/* The 1.0 form, which a binary of that era binds. */
extern struct ibv_device **old_get_device_list(int *num);
__asm__(".symver old_get_device_list, ibv_get_device_list@IBVERBS_1.0");

int fake65_registered(void);
extern const unsigned int ibverbs_pub_nrefs, mlx5_nrefs;

static int failures;

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			printf("FAIL %s:%d: %s (errno %d)\n", __FILE__,        \
			       __LINE__, #cond, errno);                        \
			failures++;                                            \
		}                                                              \
	} while (0)

static void gid_type(struct ibv_context *ctx)
{
	struct ibv_gid_entry entry;
	int type = -1, want;

	CHECK(ibv_query_gid_type(ctx, 1, 0, &type) == 0);
	want = !ibv_query_gid_ex(ctx, 1, 0, &entry, 0) &&
	       entry.gid_type == IBV_GID_TYPE_ROCE_V2;
	CHECK(type == want);
	printf("ibv_query_gid_type@IBVERBS_PRIVATE_65: port 1 gid 0 type %d\n",
	       type);
}

static void verbs(struct ibv_context *ctx)
{
	static char buf[4096];
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	struct ibv_mr *mr;
	struct ibv_cq *cq;

	CHECK(pd);
	if (!pd)
		return;
	mr = ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	CHECK(mr && mr->length == sizeof(buf));
	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	CHECK(cq);
	if (cq)
		CHECK(ibv_destroy_cq(cq) == 0);
	if (mr)
		CHECK(ibv_dereg_mr(mr) == 0);
	CHECK(ibv_dealloc_pd(pd) == 0);
}

static void mlx5dv(struct ibv_context *ctx)
{
	struct mlx5dv_export_sizes sizes;
	char data[64] = {};

	CHECK(mlx5dv_is_supported(ctx->device));
	memset(&sizes, 0xff, sizeof(sizes));
	mlx5dv_get_export_sizes(&sizes);
	CHECK(sizes.var_attrs_size == 24 && sizes.devx_umem_attrs_size == 8 &&
	      sizes.devx_obj_attrs_size == 32);
	/* The macro reaches __mlx5dv_create_flow@MLX5_1.25.1. */
	errno = 0;
	CHECK(!mlx5dv_create_flow(NULL, NULL, 0, NULL) && errno == EOPNOTSUPP);
	errno = 0;
	CHECK(!mlx5dv_devx_obj_import(ctx, data) && errno == EOPNOTSUPP);
}

int main(void)
{
	struct ibv_device **list;
	struct ibv_context *ctx;
	int num = 0;

	printf("%u libibverbs and %u libmlx5 symbols of rdma-core 65 bound\n",
	       ibverbs_pub_nrefs, mlx5_nrefs);
	CHECK(fake65_registered() == 1);
	errno = 0;
	CHECK(!old_get_device_list(&num) && errno == EOPNOTSUPP);
	/* rdma-sim's kernel copies pinned pages on fork, as Linux >= 5.13. */
	CHECK(ibv_is_fork_initialized() == IBV_FORK_UNNEEDED);

	list = ibv_get_device_list(&num);
	CHECK(list && num >= 1);
	if (!list || num < 1)
		return 1;
	ctx = ibv_open_device(list[0]);
	CHECK(ctx);
	if (ctx) {
		printf("opened %s\n", ibv_get_device_name(ctx->device));
		gid_type(ctx);
		verbs(ctx);
		mlx5dv(ctx);
		CHECK(ibv_close_device(ctx) == 0);
	}
	ibv_free_device_list(list);
	printf("%s\n", failures ? "FAILED" : "rdma-core 65 program ran");
	return failures ? 1 : 0;
}
