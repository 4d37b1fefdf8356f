// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The --fail kinds, derived from what the sim implements: the syscalls it
 * intercepts on simulated fds, every ioctl method of every object type and
 * driver, every write() command. A verb reachable both ways (GET_CONTEXT,
 * QUERY_PORT) has one name. The launcher asks for the list through
 * rdma_sim_fail_kind(), so it can never drift from the method tables.
 */
#include "uapi.h"

#include <string.h>

/* What fd_wrap.c and fs_wrap.c pass to sim_fail(). */
static const char *const syscall_kinds[] = {"open", "ioctl", "write", "mmap"};

#define SIM_MAX_KINDS 256

struct kind_list {
	const char *name[SIM_MAX_KINDS];
	unsigned int n;
};

static void add(struct kind_list *l, const char *name)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->name[i], name))
			return;
	if (l->n < SIM_MAX_KINDS)
		l->name[l->n++] = name;
}

static void add_methods(struct kind_list *l, const struct sim_method *m,
			unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		add(l, m[i].name);
}

/* Syscalls, core methods, driver methods, write() commands. */
static void collect(struct kind_list *l)
{
	const struct sim_obj_type *const *t;
	const struct sim_driver_ops *d;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(syscall_kinds); i++)
		add(l, syscall_kinds[i]);
	sim_for_each_type (t)
		add_methods(l, (*t)->methods, (*t)->nmethods);
	for (i = 0; (d = sim_driver_at(i)); i++)
		if (d->methods)
			add_methods(l, d->methods, *d->nmethods);
	sim_for_each_type (t)
		for (i = 0; i < (*t)->nwcmds; i++)
			add(l, (*t)->wcmds[i].name);
}

/* Exported for the launcher: the i-th kind, NULL past the last. */
const char *rdma_sim_fail_kind(unsigned int i);
const char *rdma_sim_fail_kind(unsigned int i)
{
	static struct kind_list l;

	if (!l.n)
		collect(&l);
	return i < l.n ? l.name[i] : NULL;
}
