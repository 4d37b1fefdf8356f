/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The file operations of a kind of simulated fd (fops.c), as the kernel's
 * struct file_operations; the interposers (fd_wrap.c) dispatch through
 * them.
 */
#ifndef RDMA_SIM_FOPS_H
#define RDMA_SIM_FOPS_H

#include <stdint.h>
#include <sys/types.h>

/* The --fail kinds ("ioctl", "write", "mmap") that reach a kind's op. */
enum { SIM_INJECT_IOCTL = 1, SIM_INJECT_WRITE = 2, SIM_INJECT_MMAP = 4 };

struct sim_fops {
	/* another fd shares the open file (dup, SCM_RIGHTS, adoption) */
	void (*get)(void *file);
	/* fd, one of the file's, is closed: its reference goes */
	void (*put)(int fd, void *file);
	/* the file outlives the fd until the kernel's close returned: close
	 * holds it across (put with fd -1 after) */
	uint8_t put_after_close;
	/* bytes, or -errno; NULL: -EINVAL */
	ssize_t (*read)(int fd, void *buf, size_t count);
	ssize_t (*write)(int fd, const void *buf, size_t count);
	/* 0 or more, or -errno; NULL: -ENOTTY */
	long (*ioctl)(int fd, unsigned long req, void *arg);
	/* the mapping, or MAP_FAILED with errno; NULL: ENODEV */
	void *(*mmap)(int fd, void *addr, size_t len, int prot, int flags,
		      off_t off);
	/* the new offset, or -errno; NULL: -ESPIPE */
	off_t (*llseek)(int fd, off_t off, int whence);
	/* F_GETFL: which of the open file's flags it shows; NULL: all */
	int (*getfl)(int flags);
	uint8_t inject; /* SIM_INJECT_* */
};

/* The operations of fd kind (enum in sim.h); NULL for SIM_FD_NONE (not
 * simulated) and SIM_FD_INTERNAL (not the program's: EBADF). */
const struct sim_fops *sim_fops_of(uint8_t kind);

#endif
