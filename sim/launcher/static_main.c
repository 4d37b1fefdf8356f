// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-sim-static PROGRAM [ARGS...]: what rdma-sim runs in place of a
 * statically linked PROGRAM. A static program has no dynamic loader to
 * preload the sim into, so this small dynamic program carries it
 * (rdma-sim preloads librdmasim.so into it as into any program) and has
 * the sim load PROGRAM into this process (boundary/static_exec.c).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int (*run)(char **argv, char **envp);
	int ret;

	if (argc < 2) {
		fprintf(stderr, "usage: rdma-sim-static PROGRAM [ARGS...] "
				"(started by rdma-sim)\n");
		return 2;
	}
	*(void **)&run = dlsym(RTLD_DEFAULT, "rdma_sim_exec_static");
	if (!run) {
		fprintf(stderr, "rdma-sim-static: not under rdma-sim\n");
		return 127;
	}
	ret = run(&argv[1], environ);
	fprintf(stderr, "rdma-sim: cannot run the static program %s: %s\n",
		argv[1],
		ret == -ENOSYS ? "no system-call trap (valgrind, "
				 "--no-seccomp or no seccomp)"
			       : strerror(-ret));
	return 127;
}
