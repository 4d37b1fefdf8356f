// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The program's fds that are simulated files: per fd its kind and the open
 * file it shares with its dups (and a fork's copy of the table), like the
 * kernel's fd table of struct file pointers. Taking and dropping an fd's
 * reference is its kind's file operation (get/put in fops.c), as the
 * kernel's get_file and fput.
 */
#include "sim.h"
#include "fops.h"

#include <errno.h>
#include <unistd.h>

struct sim_fd *sim_fds;

struct sim_fd *sim_fd_get(int fd)
{
	return sim_fd_tracked(fd) ? &sim_fds[fd] : NULL;
}

int sim_fd_set(int fd, uint8_t kind, void *obj)
{
	const struct sim_fops *op = sim_fops_of(kind);

	if (!sim_fds || fd < 0 || fd >= SIM_MAX_FDS)
		return -EMFILE;
	sim_fd_drop(fd);
	sim_fds[fd].any = obj;
	if (op)
		op->get(obj);
	__atomic_store_n(&sim_fds[fd].kind, kind, __ATOMIC_RELEASE);
	return 0;
}

void sim_fd_drop(int fd)
{
	struct sim_fd *f = sim_fd_get(fd);
	const struct sim_fops *op;

	if (!f || f->kind == SIM_FD_INTERNAL)
		return;
	op = sim_fops_of(f->kind);
	if (op)
		op->put(fd, f->any);
	__atomic_store_n(&f->kind, SIM_FD_NONE, __ATOMIC_RELEASE);
	f->any = NULL;
}

void sim_fd_discard(struct sim_uvfile *uv, int fd)
{
	(void)uv;
	sim_fd_drop(fd);
	sys.close(fd);
}
