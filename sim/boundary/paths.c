// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Which paths belong to the simulated world, and where they really are. */
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const roots[] = {
	"/sys/class/infiniband_verbs",
	"/sys/class/infiniband_mad",
	"/sys/class/infiniband",
	"/sys/class/misc/rdma_cm", /* the RDMA CM's misc device */
	"/dev/infiniband",
};

static const char mlx5_driver[] = "/sys/bus/pci/drivers/mlx5_core";

int sim_redirect(const char *path, char *out, size_t len)
{
	unsigned int i;
	size_t n;

	if (!sim.active || !path || path[0] != '/')
		return 0;
	for (i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		n = strlen(roots[i]);
		if (strncmp(path, roots[i], n) || (path[n] && path[n] != '/'))
			continue;
		snprintf(out, len, "%s%s", sim.dir, path);
		return 1;
	}
	/* the HCAs' PCI functions, and the driver their links name */
	if (sim.model->pci_vendor &&
	    (sim_pci_dev_of_path(path, sim.sh->cfg.ndev) >= 0 ||
	     (!strncmp(path, mlx5_driver, sizeof(mlx5_driver) - 1) &&
	      (!path[sizeof(mlx5_driver) - 1] ||
	       path[sizeof(mlx5_driver) - 1] == '/')))) {
		snprintf(out, len, "%s%s", sim.dir, path);
		return 1;
	}
	return 0;
}

int sim_uverbs_index(const char *path)
{
	static const char prefix[] = "/dev/infiniband/uverbs";
	unsigned long n;
	char *end;

	if (!sim.active || !path || strncmp(path, prefix, sizeof(prefix) - 1))
		return -1;
	path += sizeof(prefix) - 1;
	if (*path < '0' || *path > '9')
		return -1;
	n = strtoul(path, &end, 10);
	if (*end || n >= sim.sh->cfg.ndev ||
	    !sim_dev_live(sim.sh, (unsigned int)n))
		return -1; /* unregistered: its node is gone */
	return (int)n;
}
