// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* sim_bufs: the dma-buf paths of rdma-sim (must run under rdma-sim). */
#include "bufs.h"

#include "fds.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *raw_argv0;

/* --peer-reads FD WANT: an exec'd child reads WANT through the peer. */
static int peer_reads(const char *fd, const char *want)
{
	struct rdma_sim_peer *peer = rdma_sim_peer_import(atoi(fd));
	char buf[64] = "";
	int bad;

	bad = !peer || strlen(want) >= sizeof(buf) ||
	      rdma_sim_peer_read(peer, 0, buf, strlen(want) + 1) ||
	      strcmp(buf, want);
	rdma_sim_peer_release(peer);
	close(atoi(fd));
	return bad;
}

int bufs_exec_reads(int dfd, const char *want)
{
	int fd = dup(dfd), st = -1; /* without O_CLOEXEC */
	char arg[16];
	pid_t pid;

	snprintf(arg, sizeof(arg), "%d", fd);
	pid = fork();
	if (!pid) {
		execl(raw_argv0, "sim_bufs", "--peer-reads", arg, want,
		      (char *)NULL);
		_exit(127);
	}
	close(fd);
	return waitpid(pid, &st, 0) == pid && WIFEXITED(st) ? WEXITSTATUS(st)
							    : -1;
}

/* --rxe: what the soft-RoCE driver lacks. */
static int check_rxe(void)
{
	struct raw_ioctl c;
	int fd = raw_open();
	uint32_t vecs;

	raw_driver_id = RDMA_DRIVER_RXE;
	raw_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT);
	raw_ptr(&c, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, &vecs);
	EXPECT_ERR(raw_call(fd, &c), 0);
	bufs_check_rxe(fd);
	close(fd);
	printf("sim_bufs --rxe: %d failure(s)\n", raw_failures);
	return raw_failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	int fds_before, maps_before, cc;

	raw_argv0 = argv[0];
	raw_driver_id = RDMA_DRIVER_MLX5;
	if (argc > 3 && !strcmp(argv[1], "--peer-reads"))
		return peer_reads(argv[2], argv[3]);
	if (argc > 1 && !strcmp(argv[1], "--rxe"))
		return check_rxe();
	if (!rdma_sim_active()) {
		fprintf(stderr, "sim_bufs: must run under rdma-sim\n");
		return 1;
	}
	cc = argc > 1 && !strcmp(argv[1], "--cc-guest");
	fds_before = count_fds();
	maps_before = count_maps();
	bufs_check_uar();
	bufs_check_dmah(cc);
	bufs_check_heap(cc);
	bufs_check_drm();
	EXPECT(count_fds() == fds_before, "fds leaked: %d -> %d", fds_before,
	       count_fds());
	EXPECT(count_maps() == maps_before, "mappings leaked: %d -> %d",
	       maps_before, count_maps());
	if (raw_failures) {
		fprintf(stderr, "sim_bufs: %d failure(s)\n", raw_failures);
		return 1;
	}
	printf("sim_bufs: all checks passed\n");
	return 0;
}
