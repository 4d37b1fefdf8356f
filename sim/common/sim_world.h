/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What every layer of librdmasim.so shares in a process, and no more: the
 * world it runs in (struct sim_world), the one lock, the trace, libc's
 * own functions (for the sim's calls), the sim's private fds. The HCA
 * (hw/) sees only this of the simulated kernel; sim.h adds the kernel's
 * files and objects for the layers above it.
 */
#ifndef RDMA_SIM_WORLD_H
#define RDMA_SIM_WORLD_H

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "device_model.h"
#include "sim_shared.h"

struct sim_world {
	int active;
	char dir[SIM_PATH_LEN];
	struct sim_shared *sh;
	const struct sim_device_model *model;
	int memic_fd; /* <dir>/memic, kept open from the constructor */
	int trace_fd;
};
extern struct sim_world sim;
extern pthread_mutex_t sim_lock;
/* 1 if the calling thread holds sim_lock. */
int sim_lock_mine(void);
/* Block the asynchronous signals (not SIGSYS, SIGSEGV, SIGTRAP, SIGBUS:
 * core/sigmask.c), for the sim's threads and locked sections; the old
 * mask in *old when old is not NULL. */
void sim_sigmask_async(sigset_t *old);
/* Take and drop sim_lock on a program's thread: its asynchronous signals
 * wait while the lock is held, so a handler that exit()s (and the atexit
 * work that calls the sim again) never finds the lock held by its own
 * thread (core/sigmask.c). */
void sim_lock_take(void);
void sim_lock_drop(void);

/*
 * ---- libc entry points (boundary/init.c) ----
 * Two tables of the same functions: `real` is the next definition after
 * librdmasim.so (dlsym RTLD_NEXT), for passing a program's own call on
 * along its chain of interposers; `sys` is libc's own, for everything the
 * sim does for itself, so that no function the program (or a library
 * preloaded after the sim) interposes ever sees the sim's calls; its
 * mmap, munmap, mremap and mprotect are the sim's own system call
 * (raw_syscall.h), as hooks may patch libc's.
 */
struct sim_real {
	int (*open)(const char *, int, ...);
	int (*openat)(int, const char *, int, ...);
	int (*close)(int);
	int (*ioctl)(int, unsigned long, ...);
	ssize_t (*write)(int, const void *, size_t);
	ssize_t (*read)(int, void *, size_t);
	ssize_t (*pread)(int, void *, size_t, off_t);
	ssize_t (*pwrite)(int, const void *, size_t, off_t);
	void *(*mmap)(void *, size_t, int, int, int, off_t);
	int (*munmap)(void *, size_t);
	void *(*mremap)(void *, size_t, size_t, int, ...);
	int (*dup)(int);
	int (*dup2)(int, int);
	int (*dup3)(int, int, int);
	int (*fcntl)(int, int, ...);
	off_t (*lseek)(int, off_t, int);
	int (*fstat)(int, struct stat *);
	int (*stat)(const char *, struct stat *);
	int (*lstat)(const char *, struct stat *);
	int (*fstatat)(int, const char *, struct stat *, int);
	int (*statx)(int, const char *, int, unsigned int, struct statx *);
	int (*socket)(int, int, int);
	ssize_t (*send)(int, const void *, size_t, int);
	ssize_t (*recvmsg)(int, struct msghdr *, int);
	ssize_t (*readlink)(const char *, char *, size_t);
	DIR *(*opendir)(const char *);
	struct dirent *(*readdir)(DIR *);
	int (*closedir)(DIR *);
	int (*mprotect)(void *, size_t, int);
};
extern struct sim_real real, sys;
void sim_real_init(void);
/* dlsym(RTLD_NEXT, name) */
void *dlsym_next(const char *name);

/* ---- processes (common/pid_gone.c) ---- */
#include "pid_gone.h"

/* ---- trace (core/trace.c) ---- */
void sim_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline int sim_tracing(void)
{
	return sim.trace_fd >= 0;
}

/* ---- the sim's private fds (boundary/fd_private.c) ---- */
/*
 * The sim's short-lived opens, which a full descriptor table must not fail
 * (fd_private.c): open as sys.open, close with sim_close_private. Needs
 * sim_lock.
 */
int sim_fd_private_init(void);
int sim_open_private(const char *path, int flags, mode_t mode);
void sim_close_private(int fd);
/*
 * The sim's long-lived fds, hidden from the program (internal_fd.c, see
 * sim.h). Needs sim_lock. Take over *fdp (may renumber it, also later): 0,
 * or -errno with *fdp closed and -1.
 */
int sim_internal_fd_add(int *fdp);
/* Close a registered fd and set *fdp to -1. */
void sim_internal_fd_close(int *fdp);

static inline uint64_t sim_guid(unsigned int dev)
{
	return sim.model->guid_base + dev;
}

#endif
