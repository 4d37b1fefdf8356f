/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#ifndef RDMA_SIM_LAUNCHER_H
#define RDMA_SIM_LAUNCHER_H

#include "sim_shared.h"
#include "static_elf.h"

struct sim_launch {
	struct sim_config cfg;
	struct sim_fail_rule fail[SIM_MAX_FAIL];
	unsigned int nfail;
	int list_kinds; /* --list-fail-kinds */
	char **argv;	/* PROGRAM [ARGS...] */
};

/* Parse the command line. 0, 1 (--help printed) or -1 (error printed). */
int sim_parse_options(int argc, char **argv, struct sim_launch *l);
/* Reject --fail kinds the preload library lib does not know. 0 or -1
 * (message printed). */
int sim_check_fail_kinds(const char *lib, const struct sim_launch *l);
/* Print the kinds lib knows, one per line. 0 or -1. */
int sim_print_fail_kinds(const char *lib);
/* Write the sysfs tree and device nodes under dir. 0 or -errno. */
int sim_write_sysfs(const char *dir, const struct sim_config *cfg);

#endif
