// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Objects shared between processes live as long as the kernel's would: a
 * dma-buf is one file however many fds (fork, exec, SCM_RIGHTS) refer to
 * it, a child's close changes nothing for the parent, inherited mappings
 * and exports keep their MEMIC pages, and a context with a live mapping
 * outlives its last fd until munmap.
 */
#include "raw.h"
#include "rdma_sim_peer.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define ALL_MEMIC 131072 /* the default --dm-size */

static size_t page;

/* The peer reads back what the CPU wrote: 0, or the errno. */
static int peer_sees(int dfd, const char *want)
{
	struct rdma_sim_peer *peer = rdma_sim_peer_import(dfd);
	char buf[16] = "";
	int ret;

	if (!peer)
		return errno;
	ret = rdma_sim_peer_read(peer, 0, buf, strlen(want) + 1) ? errno : 0;
	rdma_sim_peer_release(peer);
	if (!ret && strcmp(buf, want))
		ret = EIO;
	return ret;
}

/* A DM of len bytes holding "parent", and its export. */
static int setup(int *fd, uint32_t *h, int *dfd, uint64_t len)
{
	uint16_t idx;
	char *p;

	*fd = raw_open_ctx(NULL);
	if (*fd < 0 || raw_dm_alloc(*fd, len, 0, h, &idx))
		return -1;
	len = (len + page - 1) & ~(uint64_t)(page - 1); /* the whole entry */
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, *fd,
		 raw_dm_offset(idx));
	if (p == MAP_FAILED)
		return -1;
	strcpy(p, "parent");
	munmap(p, len);
	return raw_export(*fd, raw_dm_offset(idx), dfd) ? -1 : 0;
}

static int run_child(void (*fn)(int), int arg)
{
	int st;
	pid_t pid = fork();

	if (!pid) {
		fn(arg);
		_exit(0);
	}
	return waitpid(pid, &st, 0) == pid && WIFEXITED(st) ? WEXITSTATUS(st)
							    : -1;
}

static void close_one(int dfd)
{
	close(dfd);
}

static void close_all(int dfd)
{
	(void)dfd;
	close_range(3, ~0U, 0);
}

static void close_loop(int dfd)
{
	int i;

	(void)dfd;
	for (i = 3; i < 4096; i++)
		close(i);
}

/* A child closing its inherited copy does not revoke the parent's. */
static void check_child_close(void)
{
	void (*const closers[])(int) = {close_one, close_all, close_loop};
	uint32_t h, pd;
	unsigned int i;
	int fd, dfd;

	EXPECT(!setup(&fd, &h, &dfd, 64), "setup");
	for (i = 0; i < sizeof(closers) / sizeof(closers[0]); i++) {
		EXPECT_ERR(run_child(closers[i], dfd), 0);
		EXPECT_ERR(peer_sees(dfd, "parent"), 0);
	}
	EXPECT_ERR(raw_alloc_pd(fd, &pd), 0);
	EXPECT(fcntl(dfd, F_GETFD) >= 0, "parent's fd closed");
	close(dfd);
	close(fd);
}

static int wait_fd[2];

/* Hold what was inherited until the parent writes to the pipe. */
static void hold(int unused)
{
	char b;

	close(wait_fd[1]);
	if (read(wait_fd[0], &b, 1) < 0)
		_exit(3);
}

static pid_t start_holder(void)
{
	pid_t pid;

	if (pipe(wait_fd))
		return -1;
	pid = fork();
	if (!pid) {
		hold(0);
		_exit(0);
	}
	close(wait_fd[0]);
	return pid;
}

static void stop_holder(pid_t pid)
{
	close(wait_fd[1]);
	waitpid(pid, NULL, 0);
}

/*
 * Free DM @h (all of the device's MEMIC) while the holder @pid keeps what
 * it inherited: no MEMIC is left until the holder goes. Closes @fd.
 */
static void expect_held_until_stopped(int fd, uint32_t h, pid_t pid)
{
	uint32_t h2;
	uint16_t idx;

	EXPECT_ERR(raw_destroy(fd, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE, h),
		   0);
	EXPECT_ERR(raw_dm_alloc(fd, 64, 0, &h2, &idx), ENOMEM);
	stop_holder(pid);
	EXPECT_ERR(raw_dm_alloc(fd, 64, 0, &h2, &idx), 0);
	close(fd);
}

/* The parent's close and DM_FREE leave the pages to the child's copy. */
static void check_child_holds_export(void)
{
	uint32_t h;
	int fd, dfd;
	pid_t pid;

	EXPECT(!setup(&fd, &h, &dfd, ALL_MEMIC), "setup");
	pid = start_holder();
	close(dfd);
	expect_held_until_stopped(fd, h, pid);
}

/* A mapping inherited over fork keeps its pages from the next owner. */
static void check_child_holds_mapping(void)
{
	uint32_t h;
	uint16_t idx;
	pid_t pid;
	int fd = raw_open_ctx(NULL);
	char *p;

	EXPECT_ERR(raw_dm_alloc(fd, ALL_MEMIC, 0, &h, &idx), 0);
	p = mmap(NULL, ALL_MEMIC, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 raw_dm_offset(idx));
	EXPECT(p != MAP_FAILED, "map");
	pid = start_holder();
	munmap(p, ALL_MEMIC);
	expect_held_until_stopped(fd, h, pid);
}

/* All of the device's MEMIC, held by a process that then dies. */
static int take_all_memic(void *unused)
{
	uint32_t h;
	uint16_t idx;
	int fd = raw_open_ctx(NULL);

	(void)unused;
	return fd < 0 || raw_dm_alloc(fd, ALL_MEMIC, 0, &h, &idx);
}

/* A dead child not yet reaped has left its DM pages to the next one. */
static void check_zombie_frees_memic(void)
{
	pid_t pid = raw_zombie(take_all_memic, NULL);
	int fd = raw_open_ctx(NULL);
	uint32_t h;
	uint16_t idx;

	EXPECT(pid > 0, "no zombie holding MEMIC");
	EXPECT_ERR(raw_dm_alloc(fd, ALL_MEMIC, 0, &h, &idx), 0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	close(fd);
}

/* The fd survives exec (not O_CLOEXEC) and is still a dma-buf there. */
static void check_exec(void)
{
	char arg[16];
	uint32_t h;
	int fd, dfd, st;
	pid_t pid;

	EXPECT(!setup(&fd, &h, &dfd, 64), "setup");
	fcntl(dfd, F_SETFD, 0);
	snprintf(arg, sizeof(arg), "%d", dfd);
	pid = fork();
	if (!pid) {
		execl(raw_argv0, "sim_raw", "--peer-reads", arg, (char *)NULL);
		_exit(127);
	}
	EXPECT(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st),
	       "exec'd child could not use the inherited dma-buf (%d)",
	       WEXITSTATUS(st));
	close(dfd);
	close(fd);
}

int raw_peer_reads(const char *fd)
{
	int err = peer_sees(atoi(fd), "parent");

	if (err)
		fprintf(stderr, "sim_raw --peer-reads %s: %s\n", fd,
			strerrorname_np(err));
	return err ? 1 : 0;
}

/* A dma-buf fd received over a unix socket is a dma-buf too. */
static void check_scm_rights(void)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = {0}, b = 'x';
	struct iovec iov = {.iov_base = &b, .iov_len = 1};
	struct msghdr m = {.msg_iov = &iov,
			   .msg_iovlen = 1,
			   .msg_control = cbuf,
			   .msg_controllen = sizeof(cbuf)};
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	int fd, dfd, got = -1, sv[2];
	uint32_t h;

	EXPECT(!setup(&fd, &h, &dfd, 64), "setup");
	EXPECT(!socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), "socketpair");
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &dfd, sizeof(int));
	EXPECT(sendmsg(sv[0], &m, 0) == 1, "sendmsg");
	close(dfd); /* the message holds the file now */
	memset(cbuf, 0, sizeof(cbuf));
	EXPECT(recvmsg(sv[1], &m, 0) == 1, "recvmsg");
	c = CMSG_FIRSTHDR(&m);
	if (c && c->cmsg_type == SCM_RIGHTS)
		memcpy(&got, CMSG_DATA(c), sizeof(int));
	EXPECT(got >= 0, "no fd received");
	EXPECT_ERR(peer_sees(got, "parent"), 0);
	close(got);
	close(sv[0]);
	close(sv[1]);
	close(fd);
}

/* A live op-address mapping keeps the context, its DM and exports. */
static void check_mapping_keeps_context(void)
{
	struct raw_ioctl c;
	uint64_t start;
	uint16_t op_idx;
	uint32_t h;
	int fd, dfd;
	void *op;

	EXPECT(!setup(&fd, &h, &dfd, 64), "setup");
	raw_init(&c, UVERBS_OBJECT_DM, MLX5_IB_METHOD_DM_MAP_OP_ADDR);
	raw_attr(&c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_HANDLE, 0, h);
	raw_attr(&c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_OP, 1, 0);
	raw_ptr(&c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_START_OFFSET, &start);
	raw_ptr(&c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_PAGE_INDEX, &op_idx);
	EXPECT_ERR(raw_call(fd, &c), 0);
	op = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		  raw_dm_offset(op_idx));
	EXPECT(op != MAP_FAILED, "op mapping");
	close(fd);
	EXPECT_ERR(peer_sees(dfd, "parent"), 0);
	munmap(op, page);
	EXPECT_ERR(peer_sees(dfd, "parent"), ENODEV);
	close(dfd);
}

/* An op-address mapping of the DM's npages pages; NULL on failure. */
static char *map_op0(int fd, uint32_t h, size_t len)
{
	struct raw_ioctl c;
	uint64_t start;
	uint16_t op_idx;
	void *op;

	raw_init(&c, UVERBS_OBJECT_DM, MLX5_IB_METHOD_DM_MAP_OP_ADDR);
	raw_attr(&c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_HANDLE, 0, h);
	raw_attr(&c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_OP, 1, 0);
	raw_ptr(&c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_START_OFFSET, &start);
	raw_ptr(&c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_PAGE_INDEX, &op_idx);
	if (raw_call(fd, &c))
		return NULL;
	op = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		  raw_dm_offset(op_idx));
	return op == MAP_FAILED ? NULL : op;
}

/* The context lives until the last piece of the mapping is unmapped. */
static void check_partial_munmap(void)
{
	uint32_t h;
	int fd, dfd;
	char *op;

	EXPECT(!setup(&fd, &h, &dfd, 2 * page), "setup");
	op = map_op0(fd, h, 2 * page);
	EXPECT(op, "op mapping");
	close(fd);
	munmap(op, page);
	EXPECT_ERR(peer_sees(dfd, "parent"), 0);
	munmap(op + page, page);
	EXPECT_ERR(peer_sees(dfd, "parent"), ENODEV);
	close(dfd);
}

/* A moved mapping still holds the context; device mappings do not grow. */
static void check_mremap(void)
{
	uint32_t h;
	int fd, dfd;
	char *op, *moved;

	EXPECT(!setup(&fd, &h, &dfd, 64), "setup");
	op = map_op0(fd, h, page);
	EXPECT(op, "op mapping");
	EXPECT(mremap(op, page, 2 * page, MREMAP_MAYMOVE) == MAP_FAILED &&
		       errno == EFAULT,
	       "growing a device mapping: want EFAULT");
	moved = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	moved = mremap(op, page, page, MREMAP_MAYMOVE | MREMAP_FIXED, moved);
	EXPECT(moved != MAP_FAILED, "mremap");
	close(fd);
	EXPECT_ERR(peer_sees(dfd, "parent"), 0);
	munmap(moved, page);
	EXPECT_ERR(peer_sees(dfd, "parent"), ENODEV);
	close(dfd);
}

void raw_check_share(void)
{
	page = (size_t)sysconf(_SC_PAGESIZE);
	if (raw_no_dmabuf) {
		check_child_holds_mapping();
		return;
	}
	check_child_close();
	check_zombie_frees_memic();
	check_child_holds_export();
	check_child_holds_mapping();
	check_exec();
	check_scm_rights();
	check_mapping_keeps_context();
	check_partial_munmap();
	check_mremap();
}
