// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A process that died and was not reaped: the kernel closed its files at
 * exit, so what it held is released although its pid still exists.
 */
#include "raw.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* 'Z' once pid is a zombie; 0 if its stat cannot be read. */
static char proc_state(pid_t pid)
{
	char path[32], buf[256], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] && p[2] ? p[2] : 0;
}

pid_t raw_zombie(int (*fn)(void *arg), void *arg)
{
	struct timespec ms = {0, 1000000};
	int res[2], i;
	char ok = 0;
	pid_t pid;

	if (pipe(res))
		return -1;
	pid = fork();
	if (!pid) {
		ok = fn(arg) ? 'n' : 'y';
		if (write(res[1], &ok, 1) != 1)
			_exit(3);
		raise(SIGKILL); /* no exit handler of any library runs */
		_exit(4);
	}
	close(res[1]);
	if (pid < 0 || read(res[0], &ok, 1) != 1 || ok != 'y') {
		close(res[0]);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		return -1;
	}
	close(res[0]);
	for (i = 0; i < 10000 && proc_state(pid) != 'Z'; i++)
		nanosleep(&ms, NULL);
	if (proc_state(pid) == 'Z')
		return pid;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return -1;
}
