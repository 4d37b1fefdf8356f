// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Whether another process of the world has ended. The kernel closes a
 * process's files when it exits, before its parent reaps it, so a zombie
 * counts as gone here, not only a pid kill() no longer finds.
 */
#include "sim.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int sim_pid_gone(pid_t pid)
{
	char path[32], buf[256], *p;
	ssize_t n;
	int fd;

	if (pid == getpid())
		return 0;
	if (kill(pid, 0) && errno == ESRCH)
		return 1;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = sys.open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	n = sys.read(fd, buf, sizeof(buf) - 1);
	sys.close(fd);
	if (n <= 0)
		return 1;
	buf[n] = 0;
	p = strrchr(buf, ')'); /* "pid (comm) S ..." */
	return p && (p[2] == 'Z' || p[2] == 'X');
}
