// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MLX_CQ_ALLOC_TYPE, MLX_QP_ALLOC_TYPE and MLX_SRQ_ALLOC_TYPE under
 * rdma-sim (rdma-core's test_mlx5_huge_page): HUGE without huge pages
 * fails the creation with the kernel's errno, PREFER_HUGE falls back;
 * CONTIG fails (the kernel has no contiguous pages: ENOSYS), PREFER_CONTIG
 * and ALL fall back; an unknown value is the default, which the older
 * HUGE_CQ=y / HUGE_RC=y make HUGE. The object works whatever its memory.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dm_util.h"
#include "fds.h"
#include "rdma_util.h"

static struct dm_env env;
static struct ibv_cq *cq;
static long huge_pages;

static int setup(void **state)
{
	FILE *f;

	f = fopen("/proc/sys/vm/nr_hugepages", "r");
	if (!f || fscanf(f, "%ld", &huge_pages) != 1)
		huge_pages = 0;
	if (f)
		fclose(f);
	if (dm_env_open_sim(&env))
		return -1;
	cq = ibv_create_cq(env.ctx, 8, NULL, NULL, 0);
	return cq ? 0 : -1;
}

static int teardown(void **state)
{
	ibv_destroy_cq(cq);
	dm_env_close(&env);
	return 0;
}

enum obj { OBJ_CQ, OBJ_QP, OBJ_SRQ };
static const char *const env_name[] = {"MLX_CQ_ALLOC_TYPE", "MLX_QP_ALLOC_TYPE",
				       "MLX_SRQ_ALLOC_TYPE"};
/* The older switch to HUGE (SRQs have none; RC is the QP made here). */
static const char *const legacy_name[] = {"HUGE_CQ", "HUGE_RC", NULL};

/* Create and destroy one object with @value in its variable: 0 or errno. */
static int try(enum obj o, const char *value)
{
	struct ibv_qp_init_attr qa = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IBV_QPT_RC,
		.cap = {.max_send_wr = 4,
			.max_recv_wr = 4,
			.max_send_sge = 1,
			.max_recv_sge = 1},
	};
	struct ibv_srq_init_attr sa = {.attr = {.max_wr = 4, .max_sge = 1}};
	int err = 0;
	void *obj;

	setenv(env_name[o], value, 1);
	errno = 0;
	switch (o) {
	case OBJ_CQ:
		obj = ibv_create_cq(env.ctx, 8, NULL, NULL, 0);
		if (obj)
			assert_int_equal(ibv_destroy_cq(obj), 0);
		break;
	case OBJ_QP:
		obj = ibv_create_qp(env.pd, &qa);
		if (obj)
			assert_int_equal(ibv_destroy_qp(obj), 0);
		break;
	default:
		obj = ibv_create_srq(env.pd, &sa);
		if (obj)
			assert_int_equal(ibv_destroy_srq(obj), 0);
		break;
	}
	if (!obj)
		err = errno;
	unsetenv(env_name[o]);
	return err;
}

static void check_object(enum obj o)
{
	int maps = count_maps(), err;

	err = try(o, "HUGE");
	if (!huge_pages)
		assert_true(err == ENOMEM || err == EPERM);
	else
		/* Reserved huge pages: only privilege can still refuse. */
		assert_true(err == 0 || err == EPERM);
	assert_int_equal(try(o, "PREFER_HUGE"), 0);
	assert_int_equal(try(o, "huge") != 0, err != 0); /* any case */
	assert_int_equal(try(o, "CONTIG"), ENOSYS);
	assert_int_equal(try(o, "PREFER_CONTIG"), 0);
	assert_int_equal(try(o, "ALL"), 0);
	assert_int_equal(try(o, "ANON"), 0);
	assert_int_equal(try(o, "no-such-type"), 0);
	if (legacy_name[o]) {
		setenv(legacy_name[o], "y", 1);
		assert_int_equal(try(o, "no-such-type"), err);
		assert_int_equal(try(o, "ANON"), 0); /* the new one wins */
		unsetenv(legacy_name[o]);
	}
	/* Nothing stays mapped or attached. */
	assert_int_equal(count_maps(), maps);
}

static void test_cq(void **state)
{
	check_object(OBJ_CQ);
}

static void test_qp(void **state)
{
	check_object(OBJ_QP);
}

static void test_srq(void **state)
{
	check_object(OBJ_SRQ);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cq),
		cmocka_unit_test(test_qp),
		cmocka_unit_test(test_srq),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
