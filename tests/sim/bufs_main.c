// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* sim_bufs: the dma-buf paths of rdma-sim (must run under rdma-sim). */
#include "bufs.h"

#include "fds.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

const char *raw_argv0;

/* The peer device reads WANT at the start of dma-buf @fd: 0, else 1. */
static int reads(int fd, const char *want)
{
	struct rdma_sim_peer *peer = rdma_sim_peer_import(fd);
	char buf[64] = "";
	int bad;

	bad = !peer || strlen(want) >= sizeof(buf) ||
	      rdma_sim_peer_read(peer, 0, buf, strlen(want) + 1) ||
	      strcmp(buf, want);
	rdma_sim_peer_release(peer);
	close(fd);
	return bad;
}

/* --peer-reads FD WANT: an exec'd child reads WANT through the peer. */
static int peer_reads(const char *fd, const char *want)
{
	return reads(atoi(fd), want);
}

static int wait_for(pid_t pid)
{
	int st = -1;

	return waitpid(pid, &st, 0) == pid && WIFEXITED(st) ? WEXITSTATUS(st)
							    : -1;
}

int bufs_fork_reads(int dfd, const char *want)
{
	pid_t pid = fork();

	if (!pid)
		_exit(reads(dfd, want));
	return wait_for(pid);
}

int bufs_rights_reads(int dfd, const char *want)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = {0}, b = 0;
	struct iovec iov = {.iov_base = &b, .iov_len = 1};
	struct msghdr m = {.msg_iov = &iov,
			   .msg_iovlen = 1,
			   .msg_control = cbuf,
			   .msg_controllen = sizeof(cbuf)};
	struct cmsghdr *c;
	int sv[2], got;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv))
		return -1;
	pid = fork();
	if (!pid) {
		close(dfd); /* the child knows it only from the socket */
		if (recvmsg(sv[1], &m, 0) != 1 || !CMSG_FIRSTHDR(&m))
			_exit(20);
		memcpy(&got, CMSG_DATA(CMSG_FIRSTHDR(&m)), sizeof(int));
		_exit(reads(got, want));
	}
	c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &dfd, sizeof(int));
	if (sendmsg(sv[0], &m, 0) != 1)
		kill(pid, SIGKILL);
	close(sv[0]);
	close(sv[1]);
	return wait_for(pid);
}

int bufs_exec_reads(int dfd, const char *want)
{
	int fd = dup(dfd); /* without O_CLOEXEC */
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
	return wait_for(pid);
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
