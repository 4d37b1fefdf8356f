// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The sim's own short-lived opens (a MEMIC mapping's open file, a
 * process's packet ring, a look at an export's lock) at a full descriptor
 * table. The kernel opens such files without taking a descriptor of the
 * program's, so RLIMIT_NOFILE never fails them; here they need a slot for
 * the moment between open and close. When the table is full:
 *  - a reserve: an internal fd on /dev/null opened with the world gives
 *    its slot up for the open and is taken back at the close. That helps
 *    while the reserve's number is below the limit (the program filled
 *    its table up to the limit it started with);
 *  - else headroom: the soft limit is raised (up to the hard one) for the
 *    open and put back at once; the fd keeps working above the limit.
 *    That helps a program that lowered its limit below the sim's fds.
 * A thread of the program that opens in that window may win the slot:
 * then the sim's open fails with EMFILE, as it did without this. Needs
 * sim_lock.
 */
#include "sim.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>

static int reserve = -1;

static void take_reserve(void)
{
	reserve = sys.open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (reserve >= 0)
		sim_internal_fd_add(&reserve);
}

int sim_fd_private_init(void)
{
	take_reserve();
	return reserve < 0 ? -errno : 0;
}

/* Open with the soft limit raised by a few slots, then put it back. */
static int open_with_headroom(const char *path, int flags, mode_t mode)
{
	struct rlimit rl, more;
	int fd, err;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= rl.rlim_max) {
		errno = EMFILE;
		return -1;
	}
	more = rl;
	more.rlim_cur =
		rl.rlim_cur + 16 < rl.rlim_max ? rl.rlim_cur + 16 : rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &more)) {
		errno = EMFILE;
		return -1;
	}
	fd = sys.open(path, flags, mode);
	err = errno;
	setrlimit(RLIMIT_NOFILE, &rl);
	errno = err;
	return fd;
}

int sim_open_private(const char *path, int flags, mode_t mode)
{
	struct rlimit rl;
	int fd, err;

	fd = sys.open(path, flags, mode);
	if (fd >= 0 || errno != EMFILE)
		return fd;
	if (reserve >= 0 && !getrlimit(RLIMIT_NOFILE, &rl) &&
	    (rlim_t)reserve < rl.rlim_cur) {
		sim_internal_fd_close(&reserve);
		fd = sys.open(path, flags, mode);
		if (fd >= 0)
			return fd; /* the reserve comes back at the close */
		err = errno;
		take_reserve();
		if (err != EMFILE) {
			errno = err;
			return -1;
		}
	}
	return open_with_headroom(path, flags, mode);
}

void sim_close_private(int fd)
{
	sys.close(fd);
	if (reserve < 0)
		take_reserve();
}
