// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "fds.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

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
