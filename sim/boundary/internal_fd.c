// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The sim's private fds live in the program's fd table, where the kernel's
 * would not: registered ones are moved high, marked close-on-exec and
 * hidden behind SIM_FD_INTERNAL, so nothing the program does to its own
 * fds (close loops, close_range, dup2 onto the number) reaches them.
 */
#include "sim.h"

#include <errno.h>
#include <fcntl.h>

/* A close-on-exec copy of fd at SIM_INTERNAL_FD_BASE or above; -errno. */
static int dup_high(int fd)
{
	int hi = sys.fcntl(fd, F_DUPFD_CLOEXEC, SIM_INTERNAL_FD_BASE);

	if (hi >= SIM_MAX_FDS) {
		sys.close(hi);
		return -EMFILE;
	}
	return hi < 0 ? -errno : hi;
}

static void record(int fd, int *fdp)
{
	sim_fds[fd].owner = fdp;
	__atomic_store_n(&sim_fds[fd].kind, SIM_FD_INTERNAL, __ATOMIC_RELEASE);
	*fdp = fd;
}

int sim_internal_fd_add(int *fdp)
{
	int fd = *fdp, hi;

	if (fd < 0)
		return -EBADF;
	if (!sim_fds)
		return 0; /* not under the sim: nobody to hide it from */
	hi = dup_high(fd);
	if (hi >= 0) {
		sys.close(fd);
		fd = hi;
	} else if (fd >= SIM_MAX_FDS ||
		   sys.fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) {
		/* RLIMIT_NOFILE below the base: keep the low number */
		sys.close(fd);
		*fdp = -1;
		return hi;
	}
	sim_fd_drop(fd); /* a number the program closed behind our back */
	record(fd, fdp);
	return 0;
}

void sim_internal_fd_close(int *fdp)
{
	int fd = *fdp;

	if (fd < 0)
		return;
	if (sim_fd_internal(fd)) {
		__atomic_store_n(&sim_fds[fd].kind, SIM_FD_NONE,
				 __ATOMIC_RELEASE);
		sim_fds[fd].owner = NULL;
	}
	sys.close(fd);
	*fdp = -1;
}

int sim_internal_fd_evict(int fd)
{
	int *owner, hi;

	if (!sim_fd_internal(fd))
		return 0;
	hi = dup_high(fd);
	if (hi < 0)
		return hi;
	owner = sim_fds[fd].owner;
	__atomic_store_n(&sim_fds[fd].kind, SIM_FD_NONE, __ATOMIC_RELEASE);
	sim_fds[fd].owner = NULL;
	record(hi, owner);
	sys.close(fd);
	return 0;
}
