// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Opening a uverbs char device: the char-device and st_rdev checks, and
 * no fd left behind on any failure (counted in /proc/self/fd).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "device.h"
#include "fds.h"
#include "test_util.h"

static void test_char_device_opens(void **state)
{
	int before = count_fds();
	struct stat st;
	int fd;

	assert_int_equal(stat("/dev/null", &st), 0);
	fd = verbs_open_cdev("/dev/null", st.st_rdev);
	assert_true(fd >= 0);
	/* Read-write and close-on-exec, as providers mmap it. */
	assert_int_equal(fcntl(fd, F_GETFL) & O_ACCMODE, O_RDWR);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	/* Unknown dev_t: any char device will do. */
	fd = verbs_open_cdev("/dev/null", 0);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(count_fds(), before);
}

static void test_failures_leak_nothing(void **state)
{
	char *dir = test_mkdtemp();
	int before = count_fds();
	char path[512];

	snprintf(path, sizeof(path), "%s/uverbs0", dir);
	test_write_file(dir, "uverbs0", "not a device");

	errno = 0;
	assert_int_equal(verbs_open_cdev(path, 0), -1);
	assert_int_equal(errno, ENODEV);
	assert_int_equal(verbs_open_cdev("/nonexistent/uverbs9", 0), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(count_fds(), before);
	test_rmtree(dir);
}

static void test_wrong_rdev(void **state)
{
	int before = count_fds();
	struct stat st;
	int fd, err;

	/*
	 * /dev/null opened while /dev/zero is expected: the node is wrong.
	 * Without udev's /dev/char there is nothing to wait for (ENODEV at
	 * once); with it, /dev/char/1:5 is /dev/zero, the right device.
	 */
	assert_int_equal(stat("/dev/zero", &st), 0);
	errno = 0;
	fd = verbs_open_cdev("/dev/null", st.st_rdev);
	err = errno;
	if (access("/dev/char/1:5", F_OK)) {
		assert_int_equal(fd, -1);
		assert_int_equal(err, ENODEV);
	} else {
		assert_true(fd >= 0);
		assert_int_equal(fstat(fd, &st), 0);
		assert_int_equal(st.st_rdev, makedev(1, 5));
		close(fd);
	}
	assert_int_equal(count_fds(), before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_char_device_opens),
		cmocka_unit_test(test_failures_leak_nothing),
		cmocka_unit_test(test_wrong_rdev),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
