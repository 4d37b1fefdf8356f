/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the judge programs (built against Debian's libibverbs) share: a
 * CHECK that reports where it failed and counts, so a run lists every
 * failure and exits non-zero at the end.
 */
#ifndef RDMA_TEST_JUDGE_H
#define RDMA_TEST_JUDGE_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "FAIL %s:%d: ", __func__, __LINE__);   \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
			failures++;                                            \
		}                                                              \
	} while (0)

#endif
