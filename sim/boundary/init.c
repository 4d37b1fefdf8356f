// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Resolving libc, joining the world named by $RDMA_SIM_DIR. */
#include "sim.h"
#include "restrack.h"
#include "sig_held.h"
#include "syscall_trap.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gnu/lib-names.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct sim_world sim = {.trace_fd = -1};
struct sim_real real, sys;
pthread_mutex_t sim_lock = PTHREAD_MUTEX_INITIALIZER;

/* glibc records the holder's thread id in every mutex it locks (the field
 * debuggers show): the sim keeps no count of its own. */
int sim_lock_mine(void)
{
	return __atomic_load_n(&sim_lock.__data.__owner, __ATOMIC_RELAXED) ==
	       gettid();
}

#define RESOLVE(name) (*(void **)&r->name = dlsym(h, #name))

static void resolve(struct sim_real *r, void *h)
{
	RESOLVE(openat);
	RESOLVE(close);
	RESOLVE(ioctl);
	RESOLVE(write);
	RESOLVE(read);
	RESOLVE(pread);
	RESOLVE(pwrite);
	RESOLVE(mmap);
	RESOLVE(munmap);
	RESOLVE(mremap);
	RESOLVE(dup);
	RESOLVE(dup2);
	RESOLVE(dup3);
	RESOLVE(fcntl);
	RESOLVE(lseek);
	RESOLVE(fstat);
	RESOLVE(stat);
	RESOLVE(lstat);
	RESOLVE(fstatat);
	RESOLVE(statx);
	RESOLVE(socket);
	RESOLVE(send);
	RESOLVE(recvmsg);
	RESOLVE(readlink);
	RESOLVE(opendir);
	RESOLVE(readdir);
	RESOLVE(closedir);
	RESOLVE(mprotect);
	RESOLVE(open); /* last: the tables are ready when it is set */
}

/* The sim's own mappings are made by its own system call: a program's
 * hooks may patch libc's mmap family to call syscall(2), which the sim
 * traps (raw_syscall.h). */
static void raw_memory(struct sim_real *r)
{
	r->mmap = sim_raw_mmap;
	r->munmap = sim_raw_munmap;
	r->mremap = sim_raw_mremap;
	r->mprotect = sim_raw_mprotect;
}

void sim_real_init(void)
{
	if (real.open)
		return;
	resolve(&sys, RTLD_NEXT); /* until the constructor finds libc's */
	raw_memory(&sys);
	resolve(&real, RTLD_NEXT);
}

/*
 * sys becomes libc's own functions. In the constructor, not in the first
 * wrapped call: that may come from a sanitizer runtime's start-up, where
 * its dlopen interceptor would wait for itself.
 */
static void sys_init(void)
{
	void *libc = dlopen(LIBC_SO, RTLD_LAZY | RTLD_NOLOAD);

	if (libc)
		resolve(&sys, libc); /* libc stays loaded: keep the handle */
	raw_memory(&sys);
}

/* dma-buf fds that survived an exec are still dma-bufs (needs sim_lock). */
static void adopt_inherited(void)
{
	struct dirent *de;
	DIR *d = sys.opendir("/proc/self/fd");

	while (d && (de = sys.readdir(d)))
		if (de->d_name[0] != '.' && atoi(de->d_name) != dirfd(d))
			sim_dmabuf_adopt(atoi(de->d_name));
	if (d)
		sys.closedir(d);
}

/* The world's state file (created by the launcher); NULL + errno. */
static struct sim_shared *map_state(const char *dir)
{
	char path[SIM_PATH_LEN + 16];
	struct sim_shared *sh;
	int fd, err;

	sim_state_path(path, sizeof(path), dir);
	fd = sys.open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	sh = sys.mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED,
		      fd, 0);
	err = errno;
	sys.close(fd);
	if (sh == MAP_FAILED) {
		errno = err;
		return NULL;
	}
	if (sh->magic != SIM_MAGIC || sh->size != sizeof(*sh)) {
		sys.munmap(sh, sizeof(*sh));
		errno = EINVAL;
		return NULL;
	}
	return sh;
}

static int open_world(const char *dir)
{
	char path[SIM_PATH_LEN + 16];
	int ret;

	snprintf(sim.dir, sizeof(sim.dir), "%s", dir);
	sim.sh = map_state(dir);
	if (!sim.sh)
		return -errno;
	sim.model = sim_model_by_kind(sim.sh->cfg.driver);
	sim_res_forget_pid(getpid()); /* exec: the old image's objects went */
	sim_fds = calloc(SIM_MAX_FDS, sizeof(*sim_fds));
	if (!sim_fds)
		return -ENOMEM;
	pthread_mutex_lock(&sim_lock);
	sim_memic_path(path, sizeof(path), dir);
	sim.memic_fd = sys.open(path, O_RDWR | O_CLOEXEC);
	ret = sim.memic_fd < 0 ? -errno : sim_internal_fd_add(&sim.memic_fd);
	if (!ret)
		ret = sim_fd_private_init();
	if (!ret && sim.sh->cfg.trace_path[0]) {
		sim.trace_fd = sys.open(
			sim.sh->cfg.trace_path,
			O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
		if (sim.trace_fd >= 0)
			sim_internal_fd_add(&sim.trace_fd);
	}
	if (!ret) {
		adopt_inherited();
		sim_dma_exec_reset();
	}
	pthread_mutex_unlock(&sim_lock);
	return ret;
}

/* A fork never copies the sim lock while another thread holds it. */
static void fork_prepare(void)
{
	pthread_mutex_lock(&sim_lock);
	sim_dma_fork_prepare();
}

static void fork_parent(void)
{
	sim_dma_fork_parent();
	pthread_mutex_unlock(&sim_lock);
}

static void fork_child(void)
{
	sim_dma_fork_child();
	pthread_mutex_unlock(&sim_lock);
}

static void __attribute__((constructor)) sim_init(void)
{
	const char *dir = getenv("RDMA_SIM_DIR");
	int ret;

	sim_real_init();
	sys_init();
	sim_sig_trap_register(&sim_sig_held_trap);
	if (!dir || !*dir)
		return;
	ret = open_world(dir);
	if (ret) {
		fprintf(stderr, "librdmasim: cannot join %s: %s\n", dir,
			strerror(-ret));
		return;
	}
	pthread_atfork(fork_prepare, fork_parent, fork_child);
	sim.active = 1;
	sim_syscall_trap_init();
}

int sim_fail(const char *kind)
{
	return sim.active ? sim_fail_check(sim.sh, kind, 0) : 0;
}

int sim_fail_commit(const char *kind)
{
	return sim.active ? sim_fail_check(sim.sh, kind, 1) : 0;
}

void *dlsym_next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}
