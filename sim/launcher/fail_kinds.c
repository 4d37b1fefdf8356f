// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * --fail kinds are whatever the preload library implements: it lists them
 * from its own method tables (rdma_sim_fail_kind), the launcher only asks.
 */
#include "launcher.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef const char *(*sim_kind_fn)(unsigned int i);

static sim_kind_fn load_kinds(const char *lib)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	sim_kind_fn fn;

	if (!h) {
		fprintf(stderr, "rdma-sim: cannot load %s: %s\n", lib,
			dlerror());
		return NULL;
	}
	*(void **)&fn = dlsym(h, "rdma_sim_fail_kind");
	if (!fn)
		fprintf(stderr, "rdma-sim: %s has no fault-injection list\n",
			lib);
	return fn;
}

static int known(sim_kind_fn fn, const char *kind)
{
	const char *k;
	unsigned int i;

	for (i = 0; (k = fn(i)); i++)
		if (!strcmp(k, kind))
			return 1;
	return 0;
}

int sim_check_fail_kinds(const char *lib, const struct sim_launch *l)
{
	sim_kind_fn fn;
	unsigned int i;

	if (!l->nfail)
		return 0;
	fn = load_kinds(lib);
	if (!fn)
		return -1;
	for (i = 0; i < l->nfail; i++) {
		if (!known(fn, l->fail[i].kind)) {
			fprintf(stderr,
				"rdma-sim: --fail: unknown kind '%s' (see "
				"--list-fail-kinds)\n",
				l->fail[i].kind);
			return -1;
		}
	}
	return 0;
}

int sim_print_fail_kinds(const char *lib)
{
	sim_kind_fn fn = load_kinds(lib);
	const char *k;
	unsigned int i;

	if (!fn)
		return -1;
	for (i = 0; (k = fn(i)); i++)
		printf("%s\n", k);
	return 0;
}
