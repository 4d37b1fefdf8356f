// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * 8 threads allocate, write, export, check through the peer and free DMs
 * on one shared context at the same time. Every byte is checked, and the
 * process ends with the fds and mappings it started with.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma_sim_peer.h>

#include "dm_util.h"

#define THREADS 8
#define ROUNDS 40
#define LEN 512

static struct dm_env env;

struct worker {
	pthread_t tid;
	unsigned int id;
	unsigned int rounds;
	char error[200];
};

static int one_round(struct worker *w, unsigned int round)
{
	uint8_t pat[LEN], got[LEN];
	struct rdma_sim_peer *peer;
	struct ibv_dm *dm;
	int fd, err;

	dm = alloc_dm(env.ctx, LEN, 0);
	if (!dm) {
		snprintf(w->error, sizeof(w->error), "alloc: %s",
			 strerror(errno));
		return -1;
	}
	fill_pattern(pat, LEN, w->id * 1000 + round);
	err = ibv_memcpy_to_dm(dm, 0, pat, LEN);
	fd = err ? -1 : ibv_dm_export_dmabuf_fd(dm);
	if (fd < 0) {
		snprintf(w->error, sizeof(w->error), "copy/export: %s",
			 strerror(err ? err : errno));
		ibv_free_dm(dm);
		return -1;
	}
	peer = rdma_sim_peer_import(fd);
	if (!peer || rdma_sim_peer_read(peer, 0, got, LEN) ||
	    memcmp(got, pat, LEN)) {
		snprintf(w->error, sizeof(w->error),
			 "peer does not see this thread's bytes");
		err = -1;
	}
	rdma_sim_peer_release(peer);
	close(fd);
	if (ibv_free_dm(dm)) {
		snprintf(w->error, sizeof(w->error), "free failed");
		err = -1;
	}
	return err;
}

static void *run(void *arg)
{
	struct worker *w = arg;
	unsigned int round;

	for (round = 0; round < w->rounds; round++)
		if (one_round(w, round))
			break;
	return NULL;
}

/* The counter must see a DM mapping, or the leak check proves nothing. */
static int shared_map_counted(int maps)
{
	struct ibv_dm *dm = alloc_dm(env.ctx, LEN, 0);
	int seen = count_shared_maps();

	if (!dm || ibv_free_dm(dm) || seen != maps + 1) {
		fprintf(stderr,
			"FAIL: a DM mapping is not counted (%d -> %d)\n", maps,
			seen);
		return 1;
	}
	return 0;
}

static int run_workers(unsigned int rounds)
{
	struct worker workers[THREADS] = {};
	unsigned int i;
	int failed = 0;

	for (i = 0; i < THREADS; i++) {
		workers[i].id = i;
		workers[i].rounds = rounds;
		if (pthread_create(&workers[i].tid, NULL, run, &workers[i])) {
			fprintf(stderr, "FAIL: pthread_create\n");
			exit(1);
		}
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(workers[i].tid, NULL);
		if (workers[i].error[0]) {
			fprintf(stderr, "FAIL: thread %u: %s\n", i,
				workers[i].error);
			failed = 1;
		}
	}
	return failed;
}

int main(void)
{
	int fds, maps, failed;
	char *before;

	if (!rdma_sim_active()) {
		fprintf(stderr, "run this under rdma-sim\n");
		return 2;
	}
	if (dm_env_open(&env, 0)) {
		fprintf(stderr, "FAIL: cannot open device 0\n");
		return 1;
	}
	/*
	 * Threads leave libc's malloc arenas and cached stacks mapped (how
	 * many depends on contention), so only shared mappings are counted:
	 * every DM, UAR or device page is one, and libc's never are.
	 */
	failed = run_workers(1);
	fds = count_fds();
	maps = count_shared_maps();
	if (shared_map_counted(maps))
		return 1;
	before = read_maps();
	failed |= run_workers(ROUNDS);
	if (count_fds() != fds || count_shared_maps() != maps) {
		fprintf(stderr, "FAIL: fds %d -> %d, shared maps %d -> %d\n",
			fds, count_fds(), maps, count_shared_maps());
		print_new_maps(before);
		failed = 1;
	}
	free(before);
	dm_env_close(&env);
	if (!failed)
		printf("PASS: %d threads x %d alloc/export/free rounds\n",
		       THREADS, ROUNDS);
	return failed;
}
