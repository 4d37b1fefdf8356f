// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "fds.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *ent;
	int num = 0;

	if (!d) {
		perror("count_fds: /proc/self/fd");
		abort();
	}
	while ((ent = readdir(d)))
		if (ent->d_name[0] != '.')
			num++;
	closedir(d);
	return num - 1; /* the directory's own fd */
}

int count_fds_but_pins(void)
{
	static const char pins[] = "/memfd:rdma-sim-dma";
	char path[64], link[128];
	int fd, n = count_fds(), pinned = 0;
	ssize_t len;

	/* the sim keeps its memfds at 900 and above (SIM_INTERNAL_FD_BASE) */
	for (fd = 900; fd < 65536 && pinned < n; fd++) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		len = readlink(path, link, sizeof(link) - 1);
		if (len <= 0)
			continue;
		link[len] = 0;
		pinned += !strncmp(link, pins, sizeof(pins) - 1);
	}
	return n - pinned;
}

/*
 * Private anonymous mappings are left out: malloc (and ASan's allocator)
 * create them at will, and no device mapping is one.
 */
int count_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512], perms[8];
	unsigned long inode;
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %7s %*s %*s %lu", perms, &inode) != 2 ||
		    perms[3] != 'p' || inode)
			n++;
	fclose(f);
	return n;
}
