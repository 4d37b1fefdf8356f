// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-sim [OPTIONS] -- PROGRAM [ARGS...]: builds a private world in a
 * temporary directory, runs PROGRAM with librdmasim.so preloaded, exits with
 * PROGRAM's status and removes the directory.
 */
#define _XOPEN_SOURCE 700
#include "launcher.h"
#include "device_model.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pid_t child;

static void forward_signal(int sig)
{
	if (child > 0)
		kill(child, sig);
}

static int remove_entry(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	return remove(path);
}

static void remove_tree(const char *dir)
{
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * $RDMA_SIM_PRELOAD, else <dir of this executable>/../lib/librdmasim.so (the
 * build tree and the packaged layout), else the configured install path.
 */
static int preload_path(char *buf, size_t len)
{
	const char *env = getenv("RDMA_SIM_PRELOAD");
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return access(buf, R_OK) ? -errno : 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 32);
	if (n < 0)
		return -errno;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	*slash = 0;
	if (snprintf(buf, len, "%s/../lib/librdmasim.so", exe) >= (int)len)
		return -ENAMETOOLONG;
	if (!access(buf, R_OK))
		return 0;
	/* Installed with bin/ and lib/ apart (plain `cmake --install`). */
	snprintf(buf, len, "%s", RDMA_SIM_INSTALLED_PRELOAD);
	return access(buf, R_OK) ? -errno : 0;
}

/* A sanitizer runtime the preload library needs loaded before it. */
#ifdef RDMA_SIM_PRELOAD_FIRST
#define PRELOAD_FIRST RDMA_SIM_PRELOAD_FIRST ":"
#else
#define PRELOAD_FIRST ""
#endif

static int set_env(const char *dir, const char *lib)
{
	const char *old = getenv("LD_PRELOAD");
	char *val;
	int ret;

	if (old && *old)
		ret = asprintf(&val, PRELOAD_FIRST "%s:%s", lib, old);
	else
		ret = asprintf(&val, PRELOAD_FIRST "%s", lib);
	if (ret < 0)
		return -ENOMEM;
	ret = setenv("LD_PRELOAD", val, 1) || setenv("RDMA_SIM_DIR", dir, 1);
	free(val);
	return ret ? -errno : 0;
}

static int run(char **argv)
{
	struct sigaction sa = {.sa_handler = forward_signal};
	int status;

	child = fork();
	if (child < 0) {
		perror("rdma-sim: fork");
		return 127;
	}
	if (!child) {
		execvp(argv[0], argv);
		fprintf(stderr, "rdma-sim: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR)
			return 127;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	char dir[PATH_MAX], lib[PATH_MAX + 32];
	struct sim_launch l;
	struct sim_net_setup ns;
	struct timespec now;
	const char *tmp;
	int ret;

	ret = sim_parse_options(argc, argv, &l);
	if (ret)
		return ret > 0 ? 0 : 2;
	ret = preload_path(lib, sizeof(lib));
	if (ret) {
		fprintf(stderr, "rdma-sim: librdmasim.so not found (%s)\n",
			strerror(-ret));
		return 2;
	}
	if (l.list_kinds)
		return sim_print_fail_kinds(lib) ? 2 : 0;
	if (sim_check_fail_kinds(lib, &l))
		return 2;
	/* before any thread: a user namespace wants a single thread */
	ns.guid_base = sim_model_by_kind(l.cfg.driver)->guid_base;
	ret = sim_net_setup(&l, &ns);
	if (ret) {
		fprintf(stderr,
			"rdma-sim: cannot give the world its network "
			"(namespace, netdevs): %s\n",
			strerror(-ret));
		sim_net_teardown(&ns);
		return 2;
	}
	tmp = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/rdma-sim.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "rdma-sim: mkdtemp %s: %s\n", dir,
			strerror(errno));
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	l.cfg.start_ns =
		(uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
	ret = sim_shared_create(dir, &l.cfg, l.fail, l.nfail);
	if (!ret)
		ret = sim_write_sysfs(dir, &l.cfg);
	if (!ret)
		ret = sim_net_monitor_start(dir, &l, &ns);
	if (!ret)
		sim_net_mount_sysfs(&ns, dir);
	if (!ret)
		ret = set_env(dir, lib);
	if (ret) {
		fprintf(stderr, "rdma-sim: cannot set up %s: %s\n", dir,
			strerror(-ret));
		sim_net_monitor_stop();
		sim_net_teardown(&ns);
		remove_tree(dir);
		return 2;
	}
	ret = run(l.argv);
	sim_net_monitor_stop();
	sim_net_teardown(&ns);
	remove_tree(dir);
	return ret;
}
