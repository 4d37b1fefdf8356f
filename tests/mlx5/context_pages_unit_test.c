// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * White-box test of providers/mlx5/context_pages.c against a memfd posing
 * as the uverbs cmd fd: the legacy static-UAR mode (tot_bfregs != 0, which
 * rdma-sim never selects) maps one page per two bfregs at REGULAR_PAGE
 * offsets, the clock pages are optional, a failed UAR mmap unwinds, and
 * close leaves no mapping behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "dm_util.h"
#include "mlx5.h"

#define PAGE 4096

static struct mlx5_context ctx;
static struct mlx5_ib_alloc_ucontext_resp resp;
static int memfd;

static int setup(void **state)
{
	memfd = memfd_create("uverbs", MFD_CLOEXEC);
	/* Large enough for the CLOCK_INFO page at (7 << 8) pages. */
	if (memfd < 0 || ftruncate(memfd, (off_t)(8 << 8) * PAGE))
		return -1;
	memset(&ctx, 0, sizeof(ctx));
	ctx.ibv_ctx.context.cmd_fd = memfd;
	ctx.page_size = PAGE;
	ctx.num_uars_per_page = 1;
	memset(&resp, 0, sizeof(resp));
	return 0;
}

static int teardown(void **state)
{
	close(memfd);
	return 0;
}

static void test_legacy_uars_and_clocks(void **state)
{
	int maps = count_maps();
	uint32_t word = 0;
	unsigned int i;

	ctx.tot_bfregs = 16;
	resp.comp_mask = MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_CORE_CLOCK_OFFSET;
	resp.clock_info_versions = 1 << MLX5_IB_CLOCK_INFO_V1;
	assert_int_equal(mlx5_map_context_pages(&ctx, &resp), 0);
	/* 16 bfregs, 2 per UAR, 1 UAR per page: 8 pages. */
	assert_int_equal(ctx.num_uar_pages, 8);
	for (i = 0; i < ctx.num_uar_pages; i++)
		assert_non_null(ctx.uar_pages[i].addr);
	assert_non_null(ctx.core_clock.addr);
	assert_non_null(ctx.clock_info.addr);
	/* Adjacent mappings of one file may merge, so only "more". */
	assert_true(count_maps() > maps);

	/* Page 3 is file page 3: REGULAR_PAGE command 0, index 3. */
	*(volatile uint32_t *)ctx.uar_pages[3].addr = 0x12345678;
	assert_int_equal(pread(memfd, &word, 4, 3 * PAGE), 4);
	assert_int_equal(word, 0x12345678);
	/* No NC UAR object in legacy mode. */
	mlx5_alloc_nc_uar(&ctx);
	assert_false(ctx.have_nc_uar);

	mlx5_unmap_context_pages(&ctx);
	assert_null(ctx.uar_pages);
	assert_null(ctx.core_clock.addr);
	assert_null(ctx.clock_info.addr);
	assert_int_equal(count_maps(), maps);
}

/* DYN_UAR mode maps no UAR page; clock pages only when advertised. */
static void test_dyn_uar_maps_nothing(void **state)
{
	int maps = count_maps();

	assert_int_equal(mlx5_map_context_pages(&ctx, &resp), 0);
	assert_int_equal(ctx.num_uar_pages, 0);
	assert_null(ctx.core_clock.addr);
	assert_null(ctx.clock_info.addr);
	assert_int_equal(count_maps(), maps);
	mlx5_unmap_context_pages(&ctx);
}

/* A UAR page that cannot be mapped fails the open and unwinds. */
static void test_uar_failure_unwinds(void **state)
{
	char path[64];
	int maps = count_maps(), rofd;

	/* Read-only: PROT_WRITE shared mappings of it fail with EACCES. */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	rofd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(rofd >= 0);
	ctx.ibv_ctx.context.cmd_fd = rofd;
	ctx.tot_bfregs = 4;
	resp.comp_mask = MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_CORE_CLOCK_OFFSET;
	assert_int_equal(mlx5_map_context_pages(&ctx, &resp), EACCES);
	assert_null(ctx.uar_pages);
	assert_int_equal(count_maps(), maps);
	close(rofd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_legacy_uars_and_clocks,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_dyn_uar_maps_nothing,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_uar_failure_unwinds,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
