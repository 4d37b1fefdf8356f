// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit test of the MEMIC copy routine against plain memory: range and
 * alignment checks, bytes moved exactly (nothing outside the range touched),
 * unaligned host buffers, and the number of device accesses.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "dm_copy.h"

#define DEV_SIZE 8200
#define GUARD 0xa5

/* The "device": 8-aligned, with guard bytes around the copied range. */
static uint64_t dev_words[DEV_SIZE / 8 + 2];
static uint8_t *const dev = (uint8_t *)dev_words;
static uint8_t host[DEV_SIZE + 16];
static uint8_t back[DEV_SIZE + 16];

static void test_check_access(void **state)
{
	static const struct {
		uint64_t dm_len, off;
		size_t len;
		int err;
	} cases[] = {
		{ 100, 0, 100, 0 },
		{ 100, 96, 4, 0 },
		{ 100, 100, 0, 0 },
		{ 100, 0, 0, 0 },
		{ 100, 0, 104, EFAULT },
		{ 100, 104, 4, EFAULT },
		{ 100, 101, 0, EFAULT },
		{ 100, 3, 4, EINVAL },
		{ 100, 4, 3, EINVAL },
		{ 100, 98, 1, EINVAL },
		/* Range is checked before alignment. */
		{ 100, 99, 4, EFAULT },
		/* offset + length wraps around: still out of range. */
		{ 100, 8, SIZE_MAX - 3, EFAULT },
		{ 100, UINT64_MAX - 3, 8, EFAULT },
		{ UINT64_MAX, UINT64_MAX - 3, 8, EFAULT },
		{ UINT64_MAX, 4, SIZE_MAX - 5, EINVAL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_message("case %zu\n", i);
		assert_int_equal(mlx5_dm_check_access(cases[i].dm_len,
						      cases[i].off,
						      cases[i].len),
				 cases[i].err);
	}
}

static void fill_pattern(uint8_t *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 131 + seed * 7 + 1);
}

/* Expected device accesses: 32-bit edge, 64-bit body, 32-bit tail. */
static uint64_t expected_accesses(size_t off, size_t len)
{
	uint64_t n = 0;

	if (len >= 4 && (off & 7)) {
		n++;
		len -= 4;
	}
	return n + len / 8 + (len % 8 ? 1 : 0);
}

static void round_trip(size_t off, size_t len, size_t host_misalign)
{
	uint8_t *src = host + host_misalign;
	uint8_t *dst = back + host_misalign;
	uint64_t before;
	size_t i;

	memset(dev, GUARD, DEV_SIZE);
	fill_pattern(src, len, (unsigned int)(off + len));
	memset(back, 0, sizeof(back));

	before = mlx5_dm_access_count;
	mlx5_dm_write(dev + off, src, len);
	assert_int_equal(mlx5_dm_access_count - before,
			 expected_accesses(off, len));

	for (i = 0; i < DEV_SIZE; i++) {
		if (i >= off && i < off + len)
			assert_int_equal(dev[i], src[i - off]);
		else
			assert_int_equal(dev[i], GUARD);
	}

	before = mlx5_dm_access_count;
	mlx5_dm_read(dst, dev + off, len);
	assert_int_equal(mlx5_dm_access_count - before,
			 expected_accesses(off, len));
	assert_memory_equal(dst, src, len);
	/* Host bytes after the copy are untouched. */
	assert_int_equal(dst[len], 0);
}

static void test_round_trips(void **state)
{
	static const size_t lens[] = { 0, 4, 8, 12, 28, 64, 100, 4096, 8192 };
	static const size_t offs[] = { 0, 4, 8, 12, 60 };
	size_t l, o, m;

	(void)state;
	for (l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
		for (o = 0; o < sizeof(offs) / sizeof(offs[0]); o++)
			for (m = 0; m < 4; m++) {
				if (offs[o] + lens[l] > DEV_SIZE)
					continue;
				round_trip(offs[o], lens[l], m * 3);
			}
}

/* The target: a KiB takes 128 accesses, half of a 32-bit-word copy's 256. */
static void test_access_budget(void **state)
{
	uint64_t before;

	(void)state;
	before = mlx5_dm_access_count;
	mlx5_dm_write(dev, host, 1024);
	assert_int_equal(mlx5_dm_access_count - before, 1024 / 8);

	before = mlx5_dm_access_count;
	mlx5_dm_read(back, dev + 4, 1024);
	assert_int_equal(mlx5_dm_access_count - before, 1 + 1016 / 8 + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_access),
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_access_budget),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
