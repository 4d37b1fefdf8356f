// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * exec of a statically linked program by a program under the sim. The new
 * image has no dynamic loader to preload the sim into, yet keeps the
 * seccomp filter: it goes through rdma-sim-static instead, as when
 * rdma-sim starts one. Every other exec is left as it is (valgrind's tool
 * too, below). posix_spawn
 * (glibc execs inside it, past any interposer) is not seen.
 */
#include "sim.h"
#include "static_elf.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int (*sim_execve_fn)(const char *, char *const[], char *const[]);

/* rdma-sim-static PATH ARGS... (argv[0] gives way to the path). */
static int exec_static(sim_execve_fn next, const char *path, char *const argv[],
		       char *const envp[])
{
	size_t argc = 0;
	char **v;
	int err;

	while (argv[argc])
		argc++;
	v = calloc(argc + 2, sizeof(*v));
	if (!v) {
		errno = ENOMEM;
		return -1;
	}
	v[0] = sim.sh->cfg.static_helper;
	v[1] = (char *)path;
	memcpy(&v[2], &argv[argc ? 1 : 0], (argc ? argc : 1) * sizeof(*v));
	next(sim.sh->cfg.static_helper, v, envp);
	err = errno;
	free(v);
	errno = err;
	return -1;
}

/*
 * valgrind's launcher execs its tool, a static program that loads the
 * guest itself (and passes the sim's preload on to it): not ours to load.
 */
static int valgrind_tool(char *const envp[])
{
	size_t i;

	for (i = 0; envp && envp[i]; i++)
		if (!strncmp(envp[i], "VALGRIND_LAUNCHER=", 18))
			return 1;
	return 0;
}

int execve(const char *path, char *const argv[], char *const envp[])
{
	static sim_execve_fn next;

	if (!next)
		*(void **)&next = dlsym_next("execve");
	if (sim.active && sim.sh->cfg.static_helper[0] &&
	    !valgrind_tool(envp) && sim_static_elf(path))
		return exec_static(next, path, argv, envp);
	return next(path, argv, envp);
}

int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

int execvpe(const char *file, char *const argv[], char *const envp[])
{
	static sim_execve_fn next;
	char path[PATH_MAX];

	if (!next)
		*(void **)&next = dlsym_next("execvpe");
	if (sim.active && sim.sh->cfg.static_helper[0] &&
	    sim_static_program(file, path, sizeof(path)))
		return execve(path, argv, envp);
	return next(file, argv, envp);
}

int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}
