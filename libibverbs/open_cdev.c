// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Opening a uverbs character device, tolerating a slow udev. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "device.h"

#define CDEV_WAIT_MS 5000
#define DEV_CHAR_DIR "/dev/char"

/* The fd if @path is the wanted char device, else -1 with errno. */
static int open_checked(const char *path, dev_t cdev)
{
	struct stat st;
	int fd;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISCHR(st.st_mode) ||
	    (cdev && st.st_rdev != cdev)) {
		close(fd);
		errno = ENODEV;
		return -1;
	}
	return fd;
}

static int elapsed_ms(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int)((now.tv_sec - start->tv_sec) * 1000 +
		     (now.tv_nsec - start->tv_nsec) / 1000000);
}

/* Wait for udev to create /dev/char/<maj>:<min>, then open it. */
static int wait_for_udev(dev_t cdev)
{
	char path[PATH_MAX], events[4096];
	struct timespec start;
	struct pollfd pfd;
	int ino, fd, left;

	snprintf(path, sizeof(path), DEV_CHAR_DIR "/%u:%u", major(cdev),
		 minor(cdev));
	fd = open_checked(path, cdev);
	ino = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	/* No /dev/char (no udev): nothing will ever appear there. */
	if (fd < 0 && ino >= 0 &&
	    inotify_add_watch(ino, DEV_CHAR_DIR, IN_CREATE | IN_MOVED_TO) >=
		    0) {
		clock_gettime(CLOCK_MONOTONIC, &start);
		pfd = (struct pollfd){.fd = ino, .events = POLLIN};
		do {
			left = CDEV_WAIT_MS - elapsed_ms(&start);
			if (left <= 0 || poll(&pfd, 1, left) <= 0)
				break;
			while (read(ino, events, sizeof(events)) > 0)
				;
			fd = open_checked(path, cdev);
		} while (fd < 0);
		/* The node may have come with the last, timed-out poll. */
		if (fd < 0)
			fd = open_checked(path, cdev);
	}
	if (ino >= 0)
		close(ino);
	if (fd < 0)
		errno = ENODEV;
	return fd;
}

int verbs_open_cdev(const char *path, dev_t cdev)
{
	int fd = open_checked(path, cdev);

	if (fd >= 0 || !cdev || (errno != ENOENT && errno != ENODEV))
		return fd;
	return wait_for_udev(cdev);
}
