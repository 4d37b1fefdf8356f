/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#ifndef RDMA_SIM_LAUNCHER_H
#define RDMA_SIM_LAUNCHER_H

#include "sim_shared.h"

struct sim_launch {
	struct sim_config cfg;
	struct sim_fail_rule fail[SIM_MAX_FAIL];
	unsigned int nfail;
	char **argv; /* PROGRAM [ARGS...] */
};

/* Parse the command line. 0, 1 (--help printed) or -1 (error printed). */
int sim_parse_options(int argc, char **argv, struct sim_launch *l);
/* Write the sysfs tree and device nodes under dir. 0 or -errno. */
int sim_write_sysfs(const char *dir, const struct sim_config *cfg);

#endif
