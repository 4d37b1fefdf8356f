/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The skip convention of this suite: a test that cannot run here exits
 * with TEST_SKIP_EXIT, which every ctest test maps to SKIP
 * (SKIP_RETURN_CODE), so a skip is never counted as a pass.
 *
 * C programs:   return TEST_SKIP_EXIT (or exit(TEST_SKIP_EXIT)) after
 *               printing "SKIP: why".
 * cmocka tests: test_skip("why") inside a test (never cmocka's skip()
 *               alone, which counts as a pass), and main returns
 *               test_exit_status(cmocka_run_group_tests(...)).
 * Scripts:      echo "SKIP: why"; exit 77.
 * CMake:        a suite that cannot be built here is registered with
 *               rdma_unavailable_test(), never dropped with return().
 */
#ifndef RDMA_TEST_SKIP_H
#define RDMA_TEST_SKIP_H

#define TEST_SKIP_EXIT 77

/* Record that the current test is skipped and print "SKIP: <why>". */
void test_note_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* cmocka: skip the running test (does not return); needs <cmocka.h>. */
#define test_skip(...)                                                         \
	do {                                                                   \
		test_note_skip(__VA_ARGS__);                                   \
		skip();                                                        \
	} while (0)

/*
 * Exit status of a cmocka program from its number of failed tests: 1 if
 * any failed, else TEST_SKIP_EXIT if a test was skipped, else 0.
 */
int test_exit_status(int failed);

/*
 * cmocka 1.1 prints an assert that fails in a group teardown but leaves
 * it out of cmocka_run_group_tests()'s count: the leak checks there could
 * never fail a run. A group teardown that asserts calls
 * test_teardown_begin() first and returns test_teardown_end(); when the
 * end was not reached, test_exit_status() returns 1.
 */
void test_teardown_begin(void);
int test_teardown_end(void);

#endif /* RDMA_TEST_SKIP_H */
