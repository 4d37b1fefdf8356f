/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A CHECK for test programs whose later steps make no sense once one
 * failed: it says where and why (with errno) and exits 1.
 */
#ifndef MLX5_TEST_CHECK_EXIT_H
#define MLX5_TEST_CHECK_EXIT_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);        \
			fprintf(stderr, __VA_ARGS__);                          \
			fprintf(stderr, " (errno %d)\n", errno);               \
			exit(1);                                               \
		}                                                              \
	} while (0)

#endif /* MLX5_TEST_CHECK_EXIT_H */
