// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * fork() protection, checked on the kernel's own view of the mappings:
 * /proc/self/smaps shows "dc" (do not copy on fork) in VmFlags for pages
 * under MADV_DONTFORK. Built three times: FORK_TEST_LATE registers memory
 * before ibv_fork_init(), which must then refuse; FORK_TEST_COF runs where
 * the kernel copies pinned pages on fork (rdma-sim's RDMA netlink says so),
 * so protection is never needed nor enabled. The other two run where RDMA
 * netlink is absent (rdma-sim --no-netlink), whatever the host kernel.
 * FORK_TEST_ODP links the shared libibverbs, so that it loads libmlx5 and
 * registers memory (ODP, and by address with ibv_reg_mr and ibv_reg_mr_ex).
 */
#include <errno.h>
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

#include "verbs_internal.h"

/* Is the page at @addr marked do-not-copy-on-fork? -1 if not found. */
static int page_dontfork(const void *addr)
{
	uintptr_t want = (uintptr_t)addr, lo, hi;
	char line[512];
	int in_vma = 0, ret = -1;
	FILE *f = fopen("/proc/self/smaps", "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			in_vma = want >= lo && want < hi;
			continue;
		}
		if (in_vma && !strncmp(line, "VmFlags:", 8)) {
			ret = strstr(line, " dc") != NULL;
			break;
		}
	}
	fclose(f);
	return ret;
}

#if defined(FORK_TEST_COF)
static void test_copy_on_fork(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(map != MAP_FAILED);
	assert_int_equal(ibv_is_fork_initialized(), IBV_FORK_UNNEEDED);
	/* Even the environment's request enables nothing. */
	setenv("RDMAV_FORK_SAFE", "1", 1);
	assert_int_equal(ibv_dontfork_range(map, page), 0);
	assert_int_equal(page_dontfork(map), 0);
	/* Registered memory first, yet no EINVAL: there is nothing to do. */
	assert_int_equal(ibv_fork_init(), 0);
	assert_int_equal(ibv_is_fork_initialized(), IBV_FORK_UNNEEDED);
	assert_int_equal(ibv_dontfork_range(map, page), 0);
	assert_int_equal(page_dontfork(map), 0);
	assert_int_equal(ibv_dofork_range(map, page), 0);
	assert_int_equal(ibv_dofork_range(map, page), 0);
	munmap(map, page);
}
#elif defined(FORK_TEST_LATE)
static void test_init_after_registration(void **state)
{
	char buf[64];

	assert_int_equal(ibv_dontfork_range(buf, sizeof(buf)), 0);
	assert_int_equal(page_dontfork(buf), 0);
	assert_int_equal(ibv_fork_init(), EINVAL);
	assert_int_equal(ibv_is_fork_initialized(), IBV_FORK_DISABLED);
}
#elif !defined(FORK_TEST_ODP)
static void test_nested_ranges(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(map != MAP_FAILED);
	assert_int_equal(ibv_is_fork_initialized(), IBV_FORK_DISABLED);
	assert_int_equal(ibv_fork_init(), 0);
	assert_int_equal(ibv_is_fork_initialized(), IBV_FORK_ENABLED);

	/* A covers pages 0-1, B covers pages 1-2 (unaligned ends). */
	assert_int_equal(ibv_dontfork_range(map + 10, 2 * page - 20), 0);
	assert_int_equal(ibv_dontfork_range(map + page + 1, page + 5), 0);
	assert_int_equal(page_dontfork(map), 1);
	assert_int_equal(page_dontfork(map + 2 * page), 1);
	assert_int_equal(page_dontfork(map + 3 * page), 0);

	/* Dropping A frees page 0 only: page 1 is still B's. */
	assert_int_equal(ibv_dofork_range(map + 10, 2 * page - 20), 0);
	assert_int_equal(page_dontfork(map), 0);
	assert_int_equal(page_dontfork(map + page), 1);
	assert_int_equal(page_dontfork(map + 2 * page), 1);

	assert_int_equal(ibv_dofork_range(map + page + 1, page + 5), 0);
	assert_int_equal(page_dontfork(map + page), 0);
	assert_int_equal(page_dontfork(map + 2 * page), 0);
	/* An unknown range and an empty one change nothing. */
	assert_int_equal(ibv_dofork_range(map, page), 0);
	assert_int_equal(ibv_dontfork_range(map, 0), 0);
	assert_int_equal(page_dontfork(map), 0);
	munmap(map, 4 * page);
}
#endif

#if defined(FORK_TEST_ODP)
static struct ibv_device **list;
static struct ibv_context *ctx;
static struct ibv_pd *pd;

static int open_pd(void **state)
{
	int n;

	(void)state;
	if (ibv_fork_init() || ibv_is_fork_initialized() != IBV_FORK_ENABLED)
		return -1;
	list = ibv_get_device_list(&n);
	ctx = list && n > 0 ? ibv_open_device(list[0]) : NULL;
	pd = ctx ? ibv_alloc_pd(ctx) : NULL;
	return pd ? 0 : -1;
}

static int close_pd(void **state)
{
	(void)state;
	if (ibv_dealloc_pd(pd) || ibv_close_device(ctx))
		return -1;
	ibv_free_device_list(list);
	return 0;
}

/* An ODP MR never makes its pages DONTFORK: nor does moving it. */
static void test_odp_rereg(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct ibv_mr *mr;

	assert_true(map != MAP_FAILED);
	mr = ibv_reg_mr(pd, map, page,
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ON_DEMAND);
	assert_non_null(mr);
	assert_int_equal(page_dontfork(map), 0);
	assert_int_equal(ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_TRANSLATION, NULL,
				      map + page, page, 0),
			 0);
	assert_int_equal(page_dontfork(map + page), 0);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	munmap(map, 2 * page);
}

/*
 * ibv_reg_mr and ibv_reg_mr_ex by address keep the pages out of fork()'s
 * copies while registered, and give them back on deregistration and when
 * the registration fails (REMOTE_WRITE without LOCAL_WRITE: EINVAL).
 */
static void test_reg_pins(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct ibv_mr_init_attr a = {
		.length = (size_t)page,
		.access = IBV_ACCESS_LOCAL_WRITE,
		.comp_mask = IBV_REG_MR_MASK_ADDR,
		.addr = map + page,
	};
	struct ibv_mr *mr, *mr_ex;

	assert_true(map != MAP_FAILED);
	mr = ibv_reg_mr(pd, map, page, IBV_ACCESS_LOCAL_WRITE);
	assert_non_null(mr);
	mr_ex = ibv_reg_mr_ex(pd, &a);
	assert_non_null(mr_ex);
	assert_ptr_equal(mr_ex->addr, map + page);
	assert_int_equal(page_dontfork(map), 1);
	assert_int_equal(page_dontfork(map + page), 1);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	assert_int_equal(ibv_dereg_mr(mr_ex), 0);
	assert_int_equal(page_dontfork(map), 0);
	assert_int_equal(page_dontfork(map + page), 0);

	errno = 0;
	assert_null(ibv_reg_mr(pd, map, page, IBV_ACCESS_REMOTE_WRITE));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(page_dontfork(map), 0);
	a.access = IBV_ACCESS_REMOTE_WRITE;
	errno = 0;
	assert_null(ibv_reg_mr_ex(pd, &a));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(page_dontfork(map + page), 0);
	munmap(map, 2 * page);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
#if defined(FORK_TEST_COF)
		cmocka_unit_test(test_copy_on_fork),
#elif defined(FORK_TEST_LATE)
		cmocka_unit_test(test_init_after_registration),
#elif defined(FORK_TEST_ODP)
		cmocka_unit_test(test_odp_rereg),
		cmocka_unit_test(test_reg_pins),
#else
		cmocka_unit_test(test_nested_ranges),
#endif
	};

#if defined(FORK_TEST_ODP)
	return cmocka_run_group_tests(tests, open_pd, close_pd);
#else
	return cmocka_run_group_tests(tests, NULL, NULL);
#endif
}
