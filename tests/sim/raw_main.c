// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-sim conformance: raw uverbs calls against the simulated kernel,
 * each expecting the kernel's exact errno. Usage: sim_raw [--no-dmabuf]
 */
#include "raw.h"
#include "rdma_sim_peer.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --alloc E: one DM_ALLOC must end with errno E (for --fail tests). */
static int alloc_once(int want)
{
	int fd = raw_open_ctx(NULL), got;
	uint32_t h;
	uint16_t idx;

	if (fd < 0) {
		fprintf(stderr, "sim_raw: no context\n");
		return 1;
	}
	got = raw_dm_alloc(fd, 64, 0, &h, &idx);
	close(fd);
	if (got != want)
		fprintf(stderr, "sim_raw: DM_ALLOC gave %d, want %d\n", got,
			want);
	return got != want;
}

const char *raw_argv0;

int main(int argc, char **argv)
{
	raw_argv0 = argv[0];
	raw_driver_id = RDMA_DRIVER_MLX5;
	if (argc > 2 && !strcmp(argv[1], "--alloc"))
		return alloc_once(atoi(argv[2]));
	if (argc > 2 && !strcmp(argv[1], "--limits"))
		return raw_check_limits((unsigned int)atoi(argv[2]));
	if (argc > 2 && !strcmp(argv[1], "--peer-reads"))
		return raw_peer_reads(argv[2]);
	if (argc > 2 && !strcmp(argv[1], "--netlink-many"))
		return raw_check_netlink_many((unsigned int)atoi(argv[2]));
	if (argc > 1 && !strcmp(argv[1], "--rxe"))
		return raw_check_rxe();
	raw_no_dmabuf = argc > 1 && !strcmp(argv[1], "--no-dmabuf");
	if (argc > 1 && !strcmp(argv[1], "--outside"))
		return raw_check_outside();
	if (!rdma_sim_active()) {
		fprintf(stderr, "sim_raw: must run under rdma-sim\n");
		return 1;
	}
	raw_check_header();
	raw_check_context();
	raw_check_write();
	raw_check_dm();
	raw_check_dmabuf();
	raw_check_lifetime();
	raw_check_netlink();
	raw_check_uar();
	raw_check_paths();
	raw_check_internal_fds();
	raw_check_access();
	raw_check_share();
	if (raw_failures) {
		fprintf(stderr, "sim_raw: %d failure(s)\n", raw_failures);
		return 1;
	}
	printf("sim_raw: all checks passed\n");
	return 0;
}
