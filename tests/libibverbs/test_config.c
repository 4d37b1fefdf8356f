// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Provider configuration: config-file syntax (comments, blank and junk
 * lines), the config directory, RDMAV_DRIVERS/IBV_DRIVERS, warnings only
 * when logging is on, and dlopen() of a real plug-in that registers.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <config.h>

#include "log.h"
#include "provider.h"
#include "test_util.h"

static void expect_names(const struct verbs_name_list *list,
			 const char *const *names, size_t num)
{
	size_t i;

	assert_int_equal(list->num, num);
	for (i = 0; i < num; i++)
		assert_string_equal(list->names[i], names[i]);
}

static void test_file_syntax(void **state)
{
	static const char text[] = "# a comment\n"
				   "\n"
				   "   \t\n"
				   "driver mlx5\n"
				   "  driver\trxe   # trailing comment\n"
				   "driver mlx5\n"
				   "driver\n"
				   "drivers efa\n"
				   "driver a b\n"
				   "hello\n"
				   "driver last";
	static const char *const names[] = {"mlx5", "rxe", "last"};
	struct verbs_name_list list = {};

	/* Four junk lines; duplicates collapse; no final newline needed. */
	assert_int_equal(verbs_parse_driver_config("t", text, &list), 4);
	expect_names(&list, names, 3);
	verbs_name_list_free(&list);

	assert_int_equal(verbs_parse_driver_config("t", "", &list), 0);
	assert_int_equal(list.num, 0);
}

static void parse_junk(void *arg)
{
	struct verbs_name_list list = {};

	verbs_parse_driver_config("/etc/x.driver", "junk\n\nbad line\n", &list);
	verbs_name_list_free(&list);
}

static void test_junk_warned_only_when_asked(void **state)
{
	char *out;

	unsetenv("IBV_SHOW_WARNINGS");
	unsetenv("VERBS_LOG_LEVEL");
	verbs_log_reset();
	out = test_capture_stderr(parse_junk, NULL);
	assert_string_equal(out, "");
	free(out);

	setenv("IBV_SHOW_WARNINGS", "1", 1);
	verbs_log_reset();
	out = test_capture_stderr(parse_junk, NULL);
	assert_non_null(strstr(out, "/etc/x.driver:1: ignoring unknown line"));
	assert_non_null(strstr(out, "/etc/x.driver:3: ignoring unknown line"));
	free(out);

	unsetenv("IBV_SHOW_WARNINGS");
	setenv("VERBS_LOG_LEVEL", "2", 1);
	verbs_log_reset();
	out = test_capture_stderr(parse_junk, NULL);
	assert_non_null(strstr(out, "ignoring unknown line"));
	free(out);
	unsetenv("VERBS_LOG_LEVEL");
	verbs_log_reset();
}

static void test_log_file(void **state)
{
	char *dir = test_mkdtemp();
	char path[512], text[256] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/verbs.log", dir);
	setenv("VERBS_LOG_FILE", path, 1);
	setenv("VERBS_LOG_LEVEL", "2", 1);
	verbs_log_reset();
	parse_junk(NULL);
	verbs_log_reset(); /* closes the file */
	f = fopen(path, "r");
	assert_non_null(f);
	assert_true(fread(text, 1, sizeof(text) - 1, f) > 0);
	fclose(f);
	assert_non_null(strstr(text, "/etc/x.driver:1: ignoring unknown line"));
	unsetenv("VERBS_LOG_FILE");
	unsetenv("VERBS_LOG_LEVEL");
	verbs_log_reset();
	test_rmtree(dir);
}

static void test_config_dir(void **state)
{
	static const char *const names[] = {"alpha", "beta"};
	struct verbs_name_list list = {};
	char *dir = test_mkdtemp();

	test_write_file(dir, "b.driver", "# b\ndriver beta\n");
	test_write_file(dir, "a.driver", "driver alpha\n");
	test_write_file(dir, ".hidden", "driver hidden\n");
	test_write_file(dir, "sub/c.driver", "driver nested\n");
	assert_int_equal(verbs_read_config_dir(dir, &list), 0);
	/* Name order, regular files only, no recursion. */
	expect_names(&list, names, 2);
	verbs_name_list_free(&list);
	test_rmtree(dir);

	assert_int_equal(verbs_read_config_dir("/nonexistent/ibv.d", &list),
			 ENOENT);
	assert_int_equal(list.num, 0);
}

static void test_env_list(void **state)
{
	static const char *const rdmav[] = {"x", "/abs/liby", "z", "cfg"};
	static const char *const ibv[] = {"old", "cfg", "x"};
	struct verbs_name_list list = {};
	char *dir = test_mkdtemp();

	test_write_file(dir, "c.driver", "driver cfg\ndriver x\n");
	setenv("RDMAV_DRIVERS", "x:/abs/liby;;z:", 1);
	setenv("IBV_DRIVERS", "ignored", 1);
	assert_int_equal(verbs_collect_driver_names(dir, &list), 0);
	/* The environment first, then the files; each name once. */
	expect_names(&list, rdmav, 4);
	verbs_name_list_free(&list);

	unsetenv("RDMAV_DRIVERS");
	setenv("IBV_DRIVERS", "old", 1);
	assert_int_equal(verbs_collect_driver_names(dir, &list), 0);
	expect_names(&list, ibv, 3);
	verbs_name_list_free(&list);
	unsetenv("IBV_DRIVERS");

	/* A missing directory is not an error: nothing configured. */
	assert_int_equal(verbs_collect_driver_names("/nonexistent", &list), 0);
	assert_int_equal(list.num, 0);
	test_rmtree(dir);
}

static void test_load_plugin(void **state)
{
	size_t before = verbs_num_providers();
	struct verbs_sysfs_dev dev = {.ibdev_name = "testdev7"};
	const struct verbs_device_ops *ops;

	assert_int_equal(verbs_load_provider("/nonexistent", "nosuch"), ENOENT);
	assert_int_equal(verbs_load_provider("/nonexistent", RDMA_DM_BUILD_DIR
					     "/tests/libtestprov"),
			 0);
	assert_int_equal(verbs_num_providers(), before + 1);
	ops = verbs_find_provider(&dev);
	assert_non_null(ops);
	assert_string_equal(ops->name, "testprov");

	/* By name through the provider directory, the same plug-in again. */
	assert_int_equal(
		verbs_load_provider(RDMA_DM_BUILD_DIR "/tests", "testprov"), 0);
	assert_int_equal(verbs_num_providers(), before + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_syntax),
		cmocka_unit_test(test_junk_warned_only_when_asked),
		cmocka_unit_test(test_log_file),
		cmocka_unit_test(test_config_dir),
		cmocka_unit_test(test_env_list),
		cmocka_unit_test(test_load_plugin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
