/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Small helpers shared by the libibverbs unit tests. */
#ifndef RDMA_DM_TEST_UTIL_H
#define RDMA_DM_TEST_UTIL_H

#include <stddef.h>

#include <infiniband/verbs.h>

/* A fresh empty directory under $TMPDIR (or /tmp); caller frees. */
char *test_mkdtemp(void);
/* Write @text to <dir>/<relpath>, creating parent directories. */
void test_write_file(const char *dir, const char *relpath, const char *text);
/* mkdir -p <dir>/<relpath>. */
void test_mkdir(const char *dir, const char *relpath);
/* rm -rf @dir and free it. */
void test_rmtree(char *dir);

/* Run @fn with stderr captured; returns what it printed (caller frees). */
char *test_capture_stderr(void (*fn)(void *arg), void *arg);

/*
 * Run @destroy(@obj) in a thread (it returns the errno as its result):
 * 50 ms later it must still wait for @ev, and once @ev is acknowledged
 * it must return 0.
 */
void test_destroy_waits_for_ack(void *(*destroy)(void *), void *obj,
				struct ibv_async_event *ev);

#endif /* RDMA_DM_TEST_UTIL_H */
