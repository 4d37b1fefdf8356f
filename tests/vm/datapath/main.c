// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe-datapath [GID_INDEX]: the data-path checks on rxe0 through our
 * libibverbs and rxe provider, then a leak count: after closing the
 * device no fd and no mapping of the uverbs device may remain. Exit code:
 * number of failed checks (capped at 100), 2 when rxe0 is absent.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dp.h"

struct dp_env dp;

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* Mappings of the uverbs char device: the rings the provider mapped. */
static int count_uverbs_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, "/dev/infiniband/uverbs") != NULL;
	fclose(f);
	return n;
}

static struct ibv_context *open_rxe0(void)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;

	for (int i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), "rxe0"))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	return ctx;
}

int main(int argc, char **argv)
{
	int fds0 = count_fds(), maps;

	setvbuf(stdout, NULL, _IOLBF, 0);
	dp.gid_index = argc > 1 ? atoi(argv[1]) : 1;
	dp.ctx = open_rxe0();
	if (!dp.ctx) {
		printf("DP open FAIL: no rxe0 (errno %d)\n", errno);
		return 2;
	}
	dp.pd = ibv_alloc_pd(dp.ctx);
	if (!dp_check("setup",
		      dp.pd && !ibv_query_gid(dp.ctx, 1, dp.gid_index, &dp.gid),
		      "pd/gid (errno %d)", errno))
		return 1;

	dp_rc_ops();
	dp_rc_new_api();
	dp_srq();
	dp_ud();
	dp_events();
	dp_errors();
	dp_resize();
	dp_mw();

	maps = count_uverbs_maps();
	dp_check("leak.maps_while_open", maps == 0,
		 "%d uverbs mappings left after every object was destroyed",
		 maps);
	dp_check("teardown",
		 !ibv_dealloc_pd(dp.pd) && !ibv_close_device(dp.ctx),
		 "dealloc/close");
	dp_check("leak.fds", count_fds() == fds0, "%d fds before, %d after",
		 fds0, count_fds());
	printf("DP done: %d failed\n", dp_failures());
	return dp_failures() > 100 ? 100 : dp_failures();
}
