// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * White-box test of providers/mlx5/devx_uar.c against the mock kernel:
 * the UAR_OBJ_ALLOC / UAR_OBJ_DESTROY and DMABUF_ALLOC ioctls byte by
 * byte, the page mapped from a memfd posing as cmd_fd at the offset the
 * "kernel" gave, the errnos, and every mapping and object given back.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "dm_util.h"
#include "mlx5.h"
#include "mock_kernel.h"

#define PAGE 4096
#define UAR_OFF (5 * PAGE)
#define UAR_HANDLE 0x31
#define UAR_PAGE_ID 77

static struct ibv_device dev = {.name = "mock_mlx5"};
static struct mlx5_context *ctx;
static int memfd;
static int export_fd;
static uint32_t mmap_len = PAGE;

/* devx_uar.c asks this of device.c, which is not linked here. */
bool mlx5_is_mlx5_context(struct ibv_context *ibctx)
{
	return ibctx == &ctx->ibv_ctx.context;
}

static void put(struct ib_uverbs_ioctl_hdr *hdr, uint16_t id, const void *v,
		size_t len)
{
	struct ib_uverbs_attr *a = mock_find(hdr, id);

	assert_non_null(a);
	memcpy((void *)(uintptr_t)a->data, v, len);
	a->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
}

static int answer(struct ib_uverbs_ioctl_hdr *hdr)
{
	uint64_t off = UAR_OFF;
	uint32_t id = UAR_PAGE_ID;

	if (hdr->object_id == MLX5_IB_OBJECT_UAR &&
	    hdr->method_id == MLX5_IB_METHOD_UAR_OBJ_ALLOC) {
		mock_find(hdr, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE)->data =
			UAR_HANDLE;
		put(hdr, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET, &off, 8);
		put(hdr, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH, &mmap_len, 4);
		put(hdr, MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID, &id, 4);
	}
	if (hdr->object_id == RDMA_DM_OBJECT_DMABUF) {
		export_fd = dup(memfd);
		mock_find(hdr, 0)->data = (uint64_t)export_fd;
	}
	return 0;
}

static int setup(void **state)
{
	mock_reset();
	memfd = memfd_create("uverbs", MFD_CLOEXEC);
	if (memfd < 0 || ftruncate(memfd, 16 * PAGE))
		return -1;
	ctx = verbs_init_and_alloc_context(&dev, memfd, ctx, ibv_ctx,
					   RDMA_DRIVER_MLX5);
	if (!ctx)
		return -1;
	ctx->page_size = PAGE;
	mock_reset();
	mock_ioctl_handler = answer;
	mmap_len = PAGE;
	return 0;
}

static int teardown(void **state)
{
	mlx5_release_all_devx_uars(ctx);
	verbs_uninit_context(&ctx->ibv_ctx);
	free(ctx);
	close(memfd);
	return 0;
}

static void test_dedicated_bytes_and_page(void **state)
{
	const uint8_t destroy[] = {
		HDR(40, MLX5_IB_OBJECT_UAR, MLX5_IB_METHOD_UAR_OBJ_DESTROY, 1,
		    RDMA_DRIVER_MLX5),
		ATTR(MLX5_IB_ATTR_UAR_OBJ_DESTROY_HANDLE, 0, 1, UAR_HANDLE),
	};
	const uint8_t export[] = {
		HDR(56, RDMA_DM_OBJECT_DMABUF, 0, 2, RDMA_DRIVER_MLX5),
		ATTR(0, 0, 1, 0),	 /* HANDLE: fd, new */
		ATTR(1, 8, 1, UAR_OFF), /* PGOFF: the page's byte offset */
	};
	int maps = count_maps();
	struct mlx5dv_devx_uar *u;
	char back[8] = {0};
	int fd;

	u = mlx5dv_devx_alloc_uar(&ctx->ibv_ctx.context,
				  MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED);
	assert_non_null(u);
	mock_expect_hdr(0, MLX5_IB_OBJECT_UAR, MLX5_IB_METHOD_UAR_OBJ_ALLOC,
			5, RDMA_DRIVER_MLX5);
	mock_expect_attr(0, 0, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE, 0, 1, 0);
	/* NC_DEDICATED asks the kernel for an NC page (type 1). */
	mock_expect_attr(0, 1, MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE, 8, 1,
			 MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC);
	assert_int_equal(u->mmap_off, UAR_OFF);
	assert_int_equal(u->page_id, UAR_PAGE_ID);
	assert_ptr_equal(u->reg_addr, (uint8_t *)u->base_addr + 0x800);
	assert_int_equal(count_maps(), maps + 1);
	/* The mapping is the page at the kernel's offset of cmd_fd. */
	memcpy(u->reg_addr, "ring!", 6);
	assert_int_equal(pread(memfd, back, 6, UAR_OFF + 0x800), 6);
	assert_string_equal(back, "ring!");

	fd = mlx5dv_devx_uar_export_dmabuf_fd(u);
	assert_int_equal(fd, export_fd);
	assert_memory_equal(mock_calls[1].bytes, export, sizeof(export));
	close(fd);

	mlx5dv_devx_free_uar(u);
	assert_int_equal(mock_num_calls, 3);
	assert_memory_equal(mock_calls[2].bytes, destroy, sizeof(destroy));
	assert_int_equal(count_maps(), maps);
}

static void test_bf_type_and_close_releases(void **state)
{
	int maps = count_maps();

	assert_non_null(mlx5dv_devx_alloc_uar(&ctx->ibv_ctx.context,
					      MLX5DV_UAR_ALLOC_TYPE_BF));
	mock_expect_attr(0, 1, MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE, 8, 1,
			 MLX5_IB_UAPI_UAR_ALLOC_TYPE_BF);
	/* Never freed: the context's close unmaps and destroys it. */
	mlx5_release_all_devx_uars(ctx);
	assert_int_equal(count_maps(), maps);
	mock_expect_hdr(1, MLX5_IB_OBJECT_UAR, MLX5_IB_METHOD_UAR_OBJ_DESTROY,
			1, RDMA_DRIVER_MLX5);
}

static void test_nc_singleton(void **state)
{
	struct ibv_context *c = &ctx->ibv_ctx.context;
	struct mlx5dv_devx_uar *u;

	errno = 0;
	assert_null(mlx5dv_devx_alloc_uar(c, MLX5DV_UAR_ALLOC_TYPE_NC));
	assert_int_equal(errno, EOPNOTSUPP);

	ctx->have_nc_uar = true;
	ctx->nc_uar.addr = (void *)0x10000;
	ctx->nc_uar.offset = 3 * PAGE;
	ctx->nc_uar_page_id = 9;
	mlx5_init_nc_devx_uar(ctx);
	u = mlx5dv_devx_alloc_uar(c, MLX5DV_UAR_ALLOC_TYPE_NC);
	assert_ptr_equal(u, &ctx->nc_devx_uar.dv);
	assert_int_equal(u->mmap_off, 3 * PAGE);
	assert_int_equal(u->page_id, 9);
	mlx5dv_devx_free_uar(u);
	assert_ptr_equal(mlx5dv_devx_alloc_uar(c, MLX5DV_UAR_ALLOC_TYPE_NC),
			 u);
	/* The singleton costs no command at all. */
	assert_int_equal(mock_num_calls, 0);
	ctx->have_nc_uar = false;
	ctx->nc_uar.addr = NULL;
}

static void test_refusals(void **state)
{
	struct ibv_context *c = &ctx->ibv_ctx.context;
	int maps = count_maps();

	errno = 0;
	assert_null(mlx5dv_devx_alloc_uar(c, 4));
	assert_int_equal(errno, EOPNOTSUPP);
	ctx->tot_bfregs = 16; /* a static-UAR kernel */
	errno = 0;
	assert_null(mlx5dv_devx_alloc_uar(c, MLX5DV_UAR_ALLOC_TYPE_BF));
	assert_int_equal(errno, EOPNOTSUPP);
	ctx->tot_bfregs = 0;
	assert_int_equal(mock_num_calls, 0);

	/* The kernel's errno passes through. */
	mock_ioctl_handler = mock_fail_einval;
	errno = 0;
	assert_null(mlx5dv_devx_alloc_uar(c, MLX5DV_UAR_ALLOC_TYPE_BF));
	assert_int_equal(errno, EINVAL);
	/* A page that cannot be mapped: the object is destroyed again. */
	mock_reset();
	mock_ioctl_handler = answer;
	mmap_len = 0;
	errno = 0;
	assert_null(mlx5dv_devx_alloc_uar(c, MLX5DV_UAR_ALLOC_TYPE_BF));
	assert_int_equal(errno, EINVAL);
	mock_expect_hdr(1, MLX5_IB_OBJECT_UAR, MLX5_IB_METHOD_UAR_OBJ_DESTROY,
			1, RDMA_DRIVER_MLX5);
	assert_int_equal(count_maps(), maps);
	assert_null(ctx->devx_uars);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_dedicated_bytes_and_page),
		T(test_bf_type_and_close_releases),
		T(test_nc_singleton),
		T(test_refusals),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
