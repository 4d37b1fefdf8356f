// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The sim's private fds are out of the program's reach: close loops,
 * close_range(3, ~0U), closefrom(), close() and dup2() onto one of their
 * numbers leave DM allocation, mapping, export and netlink working.
 */
#include "raw.h"
#include "rdma_sim_peer.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef NETLINK_RDMA
#define NETLINK_RDMA 20
#endif

/* Allocate, map, write, export and read back through the peer: 0 if ok. */
static int dm_works(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int fd = raw_open_ctx(NULL), dfd = -1, bad = 1;
	struct rdma_sim_peer *peer = NULL;
	char buf[8] = "";
	uint32_t h;
	uint16_t idx;
	char *p;

	if (fd < 0 || raw_dm_alloc(fd, 64, 0, &h, &idx))
		goto out;
	p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 raw_dm_offset(idx));
	if (p == MAP_FAILED)
		goto out;
	memcpy(p, "closed", 7);
	munmap(p, page);
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, raw_dm_offset(idx));
	if (p == MAP_FAILED)
		goto out;
	bad = strcmp(p, "closed") != 0;
	munmap(p, page);
	if (bad || raw_no_dmabuf)
		goto out;
	bad = 1;
	if (raw_export(fd, raw_dm_offset(idx), &dfd))
		goto out;
	peer = rdma_sim_peer_import(dfd);
	bad = !peer || rdma_sim_peer_read(peer, 0, buf, 7) ||
	      strcmp(buf, "closed");
out:
	rdma_sim_peer_release(peer);
	if (dfd >= 0)
		close(dfd);
	if (fd >= 0)
		close(fd);
	return bad;
}

/* A NETLINK_RDMA dump still gets its answer: 0 if ok. */
static int netlink_works(int fd)
{
	struct {
		struct nlmsghdr h;
	} r = {.h = {.nlmsg_len = NLMSG_HDRLEN,
		     .nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
						    RDMA_NLDEV_CMD_GET),
		     .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP}};
	uint8_t buf[8192];

	if (send(fd, &r, sizeof(r), 0) != sizeof(r))
		return 1;
	return recv(fd, buf, sizeof(buf), MSG_DONTWAIT) <= 0;
}

/* Every fd number that links into rdma-sim's world directory. */
static int sim_fds_open(int *out, int max)
{
	const char *dir = getenv("RDMA_SIM_DIR");
	char path[300], link[4096];
	struct dirent *de;
	DIR *d = opendir("/proc/self/fd");
	int n = 0;
	ssize_t len;

	while (d && (de = readdir(d)) && n < max) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len <= 0)
			continue;
		link[len] = 0;
		if (dir && strstr(link, dir))
			out[n++] = atoi(de->d_name);
	}
	if (d)
		closedir(d);
	return n;
}

enum { CLOSE_LOOP, CLOSE_RANGE, CLOSEFROM, DUP2_ONTO, CLOSE_EACH };

/* In a child (the loops wreck the test's own fds): 0 if all held. */
static int child(int how)
{
	int nl = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	int fds[64], n, i, fails = 0, null;

	if (nl < 0)
		return 100;
	switch (how) {
	case CLOSE_LOOP:
		for (i = 3; i < 4096; i++)
			if (i != nl)
				close(i);
		break;
	case CLOSE_RANGE:
		close_range(nl + 1, ~0U, 0);
		close_range(3, nl - 1, 0);
		break;
	case CLOSEFROM:
		if (nl != 3) {
			dup2(nl, 3);
			close(nl);
			nl = 3;
		}
		closefrom(4);
		break;
	case DUP2_ONTO:
		null = open("/dev/null", O_RDONLY);
		n = sim_fds_open(fds, 64);
		fails += !n;
		for (i = 0; i < n; i++)
			fails += dup2(null, fds[i]) != fds[i];
		for (i = 0; i < n; i++)
			fails += close(fds[i]) != 0;
		break;
	case CLOSE_EACH:
		/* the kernel has no such fds: close says EBADF */
		n = sim_fds_open(fds, 64);
		fails += !n;
		for (i = 0; i < n; i++)
			fails += !(close(fds[i]) < 0 && errno == EBADF);
		break;
	}
	fails += 10 * dm_works();
	fails += 20 * netlink_works(nl);
	return fails;
}

void raw_check_internal_fds(void)
{
	static const char *const names[] = {"close loop", "close_range",
					    "closefrom", "dup2 onto",
					    "close each"};
	unsigned int how;
	int st;
	pid_t pid;

	EXPECT(!dm_works(), "DM round trip before any close loop");
	for (how = 0; how < 5; how++) {
		pid = fork();
		if (!pid)
			_exit(child((int)how));
		EXPECT(waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
			       !WEXITSTATUS(st),
		       "%s: the sim's own fds were hit (status %d)", names[how],
		       WEXITSTATUS(st));
	}
}
