// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Temporary trees, fd counting, stderr capture and the destroy-waits-for-
 * its-events check for the unit tests.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_util.h"

char *test_mkdtemp(void)
{
	const char *base = getenv("TMPDIR");
	char *dir;

	assert_true(asprintf(&dir, "%s/ibvtest.XXXXXX", base ? base : "/tmp") >
		    0);
	assert_non_null(mkdtemp(dir));
	return dir;
}

void test_mkdir(const char *dir, const char *relpath)
{
	char path[PATH_MAX], *p;

	snprintf(path, sizeof(path), "%s/%s", dir, relpath);
	for (p = path + strlen(dir) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

void test_write_file(const char *dir, const char *relpath, const char *text)
{
	char path[PATH_MAX], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s", relpath);
	slash = strrchr(path, '/');
	if (slash) {
		*slash = '\0';
		test_mkdir(dir, path);
	}
	snprintf(path, sizeof(path), "%s/%s", dir, relpath);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	return remove(path);
}

void test_rmtree(char *dir)
{
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

char *test_capture_stderr(void (*fn)(void *arg), void *arg)
{
	char *text = calloc(1, 4096);
	int saved, tmp;
	ssize_t len;

	fflush(stderr);
	tmp = fileno(tmpfile());
	assert_true(tmp >= 0);
	saved = dup(STDERR_FILENO);
	dup2(tmp, STDERR_FILENO);
	fn(arg);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	lseek(tmp, 0, SEEK_SET);
	len = read(tmp, text, 4095);
	assert_true(len >= 0);
	close(tmp);
	return text;
}

void test_destroy_waits_for_ack(void *(*destroy)(void *), void *obj,
				struct ibv_async_event *ev)
{
	pthread_t thread;
	void *ret;

	assert_int_equal(pthread_create(&thread, NULL, destroy, obj), 0);
	usleep(50000);
	assert_int_equal(pthread_tryjoin_np(thread, &ret), EBUSY);
	ibv_ack_async_event(ev);
	assert_int_equal(pthread_join(thread, &ret), 0);
	assert_null(ret);
}
