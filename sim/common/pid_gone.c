// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Whether another process of the world has ended. The kernel closes a
 * process's files when it exits, before its parent reaps it, so a zombie
 * counts as gone here, not only a pid kill() no longer finds. Made with
 * the sim's own system calls: every layer asks (the uverbs core's ucma
 * reaper, the wire's ACK timer and full rings), and none may go through
 * the program's interposed libc.
 */
#include "pid_gone.h"
#include "raw_syscall.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int sim_pid_gone(pid_t pid)
{
	char path[32], buf[256], *p;
	long fd, n;

	if (pid == getpid())
		return 0;
	if (sim_cookie_syscall(__NR_kill, pid, 0, 0, 0, 0) == -ESRCH)
		return 1;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = sim_cookie_syscall(__NR_openat, AT_FDCWD, (long)path,
				O_RDONLY | O_CLOEXEC, 0, 0);
	if (fd < 0)
		return 1;
	n = sim_cookie_syscall(__NR_read, fd, (long)buf, sizeof(buf) - 1, 0, 0);
	sim_cookie_syscall(__NR_close, fd, 0, 0, 0, 0);
	if (n <= 0)
		return 1;
	buf[n] = 0;
	p = strrchr(buf, ')'); /* "pid (comm) S ..." */
	return p && (p[2] == 'Z' || p[2] == 'X');
}
