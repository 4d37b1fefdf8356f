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
