// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-sim data-path objects by raw uverbs calls, each expecting the
 * kernel's exact answer. Usage: sim_verbs [--rxe] (run under rdma-sim,
 * with --driver rxe for --rxe), or sim_verbs --abort KIND (verbs_abort.c),
 * or sim_verbs --fork-destroy (verbs_fork.c).
 */
#include "verbs.h"
#include "rdma_sim_peer.h"

const char *raw_argv0;

int main(int argc, char **argv)
{
	raw_argv0 = argv[0];
	v_rxe = argc > 1 && !strcmp(argv[1], "--rxe");
	if (!rdma_sim_active()) {
		fprintf(stderr, "sim_verbs: must run under rdma-sim\n");
		return 1;
	}
	if (argc > 2 && !strcmp(argv[1], "--abort")) {
		if (v_check_abort(argv[2]) || raw_failures)
			return 1;
		printf("sim_verbs --abort %s: nothing left\n", argv[2]);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--fork-destroy")) {
		if (v_check_fork_destroy() || raw_failures)
			return 1;
		printf("sim_verbs --fork-destroy: done\n");
		return 0;
	}
	v_check_cq();
	v_check_qp();
	v_check_states();
	v_check_srq_ah();
	v_check_events();
	v_check_leaks();
	v_check_mlx5_udata();
	v_check_xrc();
	v_check_rxe_dp();
	if (raw_failures) {
		fprintf(stderr, "sim_verbs: %d failure(s)\n", raw_failures);
		return 1;
	}
	printf("sim_verbs%s: all checks passed\n", v_rxe ? " --rxe" : "");
	return 0;
}
