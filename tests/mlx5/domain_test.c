// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Thread domains and parent domains on mlx5 (rdma-core's
 * test_parent_domain), under rdma-sim: the argument checks, the
 * references that make freeing a held domain EBUSY, a parent domain's
 * allocators serving the CQ, QP, SRQ and doorbell memory with upstream's
 * sizes, alignments and resource types, IBV_ALLOCATOR_USE_DEFAULT, and
 * data moving through a QP of a thread domain.
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

static struct dm_env env;
static long page;

/* What the allocators saw. */
#define MAX_ALLOCS 64
static struct {
	void *ptr;
	size_t size, align;
	uint64_t type;
} allocs[MAX_ALLOCS];
static int nallocs, nfrees, live;
static void *(*answer)(size_t size, size_t align);
static void *seen_pd, *seen_ctx;

static void *pd_alloc(struct ibv_pd *pd, void *pd_context, size_t size,
		      size_t alignment, uint64_t resource_type)
{
	void *p = answer(size, alignment);

	seen_pd = pd;
	seen_ctx = pd_context;
	assert_true(nallocs < MAX_ALLOCS);
	allocs[nallocs].ptr = p;
	allocs[nallocs].size = size;
	allocs[nallocs].align = alignment;
	allocs[nallocs++].type = resource_type;
	if (p && p != IBV_ALLOCATOR_USE_DEFAULT) {
		/* Not zeroed, as a caller's memory may be. */
		memset(p, 0xa5, size);
		live++;
	}
	return p;
}

static void pd_free(struct ibv_pd *pd, void *pd_context, void *ptr,
		    uint64_t resource_type)
{
	int i;

	for (i = 0; i < nallocs; i++)
		if (allocs[i].ptr == ptr)
			break;
	assert_true(i < nallocs);
	assert_int_equal(allocs[i].type, resource_type);
	assert_ptr_equal(pd_context, seen_ctx);
	free(ptr);
	nfrees++;
	live--;
}

static void *aligned(size_t size, size_t align)
{
	void *p = NULL;

	return posix_memalign(&p,
			      align < sizeof(void *) ? sizeof(void *) : align,
			      size)
		       ? NULL
		       : p;
}

static void *use_default(size_t size, size_t align)
{
	(void)size;
	(void)align;
	return IBV_ALLOCATOR_USE_DEFAULT;
}

static void *refuse(size_t size, size_t align)
{
	(void)size;
	(void)align;
	return NULL;
}

static int setup(void **state)
{
	page = sysconf(_SC_PAGESIZE);
	return dm_env_open_sim(&env);
}

static int teardown(void **state)
{
	dm_env_close(&env);
	return 0;
}

static struct ibv_pd *parent(struct ibv_td *td, uint32_t mask)
{
	struct ibv_parent_domain_init_attr a = {
		.pd = env.pd,
		.td = td,
		.comp_mask = mask,
		.alloc = pd_alloc,
		.free = pd_free,
		.pd_context = &env,
	};

	return ibv_alloc_parent_domain(env.ctx, &a);
}

static struct ibv_cq_ex *cq_on(struct ibv_pd *pd)
{
	struct ibv_cq_init_attr_ex a = {
		.cqe = 16,
		.wc_flags = IBV_WC_STANDARD_FLAGS,
		.comp_mask = IBV_CQ_INIT_ATTR_MASK_PD,
		.parent_domain = pd,
	};

	return ibv_create_cq_ex(env.ctx, &a);
}

static void test_arguments(void **state)
{
	struct ibv_td_init_attr tda = {.comp_mask = 1};
	struct ibv_parent_domain_init_attr a = {.pd = NULL};
	struct ibv_td *td;
	struct ibv_pd *pd;

	errno = 0;
	assert_null(ibv_alloc_td(env.ctx, &tda));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(ibv_alloc_parent_domain(env.ctx, &a));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(parent(NULL, 1u << 3));
	assert_int_equal(errno, EINVAL);
	/* A CQ belongs to a parent domain, never to a plain PD. */
	errno = 0;
	assert_null(cq_on(env.pd));
	assert_int_equal(errno, EINVAL);

	tda.comp_mask = 0;
	td = ibv_alloc_td(env.ctx, &tda);
	assert_non_null(td);
	assert_ptr_equal(td->context, env.ctx);
	pd = parent(td, IBV_PARENT_DOMAIN_INIT_ATTR_PD_CONTEXT);
	assert_non_null(pd);
	/* The inner PD's identity: the kernel only ever sees that one. */
	assert_ptr_equal(pd->context, env.ctx);
	assert_int_equal(pd->handle, env.pd->handle);
	/* Held by the parent domain: neither goes. */
	assert_int_equal(ibv_dealloc_td(td), EBUSY);
	assert_int_equal(ibv_dealloc_pd(env.pd), EBUSY);
	assert_int_equal(ibv_dealloc_pd(pd), 0);
	assert_int_equal(ibv_dealloc_td(td), 0);
}

static void test_cq_holds_parent(void **state)
{
	struct ibv_pd *pd = parent(NULL, 0);
	struct ibv_cq_ex *cq;

	assert_non_null(pd);
	cq = cq_on(pd);
	assert_non_null(cq);
	assert_int_equal(ibv_dealloc_pd(pd), EBUSY);
	assert_int_equal(ibv_destroy_cq(ibv_cq_ex_to_cq(cq)), 0);
	assert_int_equal(ibv_dealloc_pd(pd), 0);
}

static int count_type(uint64_t type)
{
	int i, n = 0;

	for (i = 0; i < nallocs; i++)
		n += allocs[i].type == type;
	return n;
}

static int find_type(uint64_t type)
{
	int i;

	for (i = 0; i < nallocs; i++)
		if (allocs[i].type == type)
			return i;
	fail_msg("no allocation of type %#lx", (unsigned long)type);
	return -1;
}

/* CQ, QP (with a thread domain) and SRQ rings from the allocators. */
static void test_allocators(void **state)
{
	struct ibv_td_init_attr tda = {};
	struct ibv_srq_init_attr_ex sa = {
		.attr = {.max_wr = 16, .max_sge = 1},
		.comp_mask = IBV_SRQ_INIT_ATTR_PD,
	};
	struct ep_opts o = {.type = IBV_QPT_RC, .depth = 8};
	uint8_t *src = aligned_alloc(4096, 4096),
		*dst = aligned_alloc(4096, 4096);
	struct ibv_mr *smr, *dmr;
	struct rdma_ep a, b;
	struct ibv_cq_ex *cq;
	struct ibv_srq *srq;
	struct ibv_td *td;
	struct ibv_pd *pd;
	struct ibv_wc wc;
	int maps = count_maps(), i;

	nallocs = nfrees = live = 0;
	answer = aligned;
	td = ibv_alloc_td(env.ctx, &tda);
	assert_non_null(td);
	pd = parent(td, IBV_PARENT_DOMAIN_INIT_ATTR_ALLOCATORS |
				IBV_PARENT_DOMAIN_INIT_ATTR_PD_CONTEXT);
	assert_non_null(pd);

	cq = cq_on(pd);
	assert_non_null(cq);
	i = find_type(MLX5DV_RES_TYPE_CQ);
	assert_int_equal(allocs[i].align, page);
	assert_int_equal(allocs[i].size, 32 * 64); /* 16 + 1 -> 32 CQEs */
	i = find_type(MLX5DV_RES_TYPE_DBR);
	assert_int_equal(allocs[i].size, 8);
	assert_int_equal(allocs[i].align, 8);
	assert_ptr_equal(seen_pd, pd);
	assert_ptr_equal(seen_ctx, &env);

	sa.pd = pd;
	srq = ibv_create_srq_ex(env.ctx, &sa);
	assert_non_null(srq);
	assert_int_equal(allocs[find_type(MLX5DV_RES_TYPE_SRQ)].align, page);
	assert_int_equal(ibv_destroy_srq(srq), 0);

	/* An RC pair: one QP in the thread domain, writing to the other. */
	assert_int_equal(ep_pair(&a, pd, &o, &b, env.pd, &o), 0);
	i = find_type(MLX5DV_RES_TYPE_QP);
	assert_true(allocs[i].align >= 64 &&
		    !(allocs[i].align & (allocs[i].align - 1)));
	assert_int_equal(count_type(MLX5DV_RES_TYPE_DBR), 3);
	smr = ibv_reg_mr(pd, src, 4096, IBV_ACCESS_LOCAL_WRITE);
	dmr = ibv_reg_mr(env.pd, dst, 4096,
			 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	assert_non_null(smr);
	assert_non_null(dmr);
	fill_pattern(src, 4096, 3);
	memset(dst, 0, 4096);
	assert_int_equal(ep_post(&a, IBV_WR_RDMA_WRITE, src, 4096, smr->lkey,
				 (uintptr_t)dst, dmr->rkey, IBV_SEND_SIGNALED,
				 5),
			 0);
	assert_int_equal(ep_poll(&a, &wc, 1), 1);
	assert_int_equal(wc.status, IBV_WC_SUCCESS);
	assert_memory_equal(dst, src, 4096);
	assert_int_equal(ibv_dealloc_pd(pd), EBUSY); /* the QP holds it */
	assert_int_equal(ibv_dereg_mr(smr), 0);
	assert_int_equal(ibv_dereg_mr(dmr), 0);
	ep_close(&a);
	ep_close(&b);
	assert_int_equal(ibv_destroy_cq(ibv_cq_ex_to_cq(cq)), 0);

	/* Everything allocated went back through free. */
	assert_int_equal(live, 0);
	assert_int_equal(nfrees, nallocs);
	assert_int_equal(ibv_dealloc_pd(pd), 0);
	assert_int_equal(ibv_dealloc_td(td), 0);
	assert_int_equal(count_maps(), maps);
	free(src);
	free(dst);
}

/* USE_DEFAULT: asked, then the library's own memory; NULL fails. */
static void test_use_default_and_refusal(void **state)
{
	struct ibv_pd *pd =
		parent(NULL, IBV_PARENT_DOMAIN_INIT_ATTR_ALLOCATORS);
	struct ibv_cq_ex *cq;

	assert_non_null(pd);
	nallocs = nfrees = live = 0;
	answer = use_default;
	cq = cq_on(pd);
	assert_non_null(cq);
	assert_int_equal(count_type(MLX5DV_RES_TYPE_CQ), 1);
	assert_int_equal(ibv_destroy_cq(ibv_cq_ex_to_cq(cq)), 0);
	assert_int_equal(nfrees, 0);

	answer = refuse;
	errno = 0;
	assert_null(cq_on(pd));
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(ibv_dealloc_pd(pd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arguments),
		cmocka_unit_test(test_cq_holds_parent),
		cmocka_unit_test(test_allocators),
		cmocka_unit_test(test_use_default_and_refusal),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
