// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UAR pages exported as dma-bufs (DMABUF_ALLOC with a UAR's mmap offset):
 * the peer device and the CPU mapping share the page, the export follows
 * the kernel's fd rules, and freeing the UAR or closing the context
 * revokes it (ENODEV), while a static UAR page is no mmap entry (EINVAL).
 */
#include "bufs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static size_t page;

/* A context with one NC UAR and its export. */
static int uar_export(int *fd, uint32_t *h, uint64_t *off, int *dfd)
{
	*fd = raw_open_ctx(NULL);
	if (*fd < 0)
		return -1;
	EXPECT_ERR(raw_uar_alloc(*fd, MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC, h, off),
		   0);
	EXPECT_ERR(raw_export(*fd, *off, dfd), 0);
	return *dfd < 0 ? -1 : 0;
}

/* Bytes the CPU stores in its mapping reach the peer, and back. */
static void check_shared_page(void)
{
	struct rdma_sim_peer *peer;
	char buf[8] = "";
	uint64_t off;
	struct stat st;
	uint32_t h;
	int fd, dfd;
	char *p;

	if (uar_export(&fd, &h, &off, &dfd))
		return;
	EXPECT(!fstat(dfd, &st) && (size_t)st.st_size == page,
	       "UAR export size");
	EXPECT((fcntl(dfd, F_GETFL) & O_ACCMODE) == O_RDONLY &&
		       (fcntl(dfd, F_GETFD) & FD_CLOEXEC),
	       "UAR export flags");
	EXPECT(mmap(NULL, page, PROT_READ, MAP_SHARED, dfd, 0) == MAP_FAILED &&
		       errno == EINVAL,
	       "CPU mapping of a UAR export");
	p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)off);
	EXPECT(p != MAP_FAILED, "UAR mmap");
	peer = rdma_sim_peer_import(dfd);
	EXPECT(peer && rdma_sim_peer_size(peer) == page, "peer import");
	if (p != MAP_FAILED && peer) {
		memcpy(p + 0x10, "cpu", 4);
		EXPECT_ERR(rdma_sim_peer_read(peer, 0x10, buf, 4) ? errno : 0,
			   0);
		EXPECT(!strcmp(buf, "cpu"), "peer read %s", buf);
		EXPECT_ERR(rdma_sim_peer_write(peer, 0x20, "gpu", 4) ? errno
								     : 0,
			   0);
		EXPECT(!strcmp(p + 0x20, "gpu"), "CPU read %s", p + 0x20);
		EXPECT_ERR(rdma_sim_peer_read(peer, page - 2, buf, 4) ? errno
								      : 0,
			   EINVAL);
	}
	if (p != MAP_FAILED)
		munmap(p, page);
	rdma_sim_peer_release(peer);
	close(dfd);
	close(fd);
}

/* UAR_OBJ_DESTROY or the context's end revokes; the fd stays open. */
static void check_revoke(int by_close)
{
	struct rdma_sim_peer *peer;
	uint64_t off;
	uint32_t h;
	int fd, dfd;
	char b;

	if (uar_export(&fd, &h, &off, &dfd))
		return;
	peer = rdma_sim_peer_import(dfd);
	EXPECT(peer != NULL, "peer import");
	if (by_close)
		close(fd);
	else
		EXPECT_ERR(raw_destroy_attr(fd, MLX5_IB_OBJECT_UAR,
					    MLX5_IB_METHOD_UAR_OBJ_DESTROY,
					    MLX5_IB_ATTR_UAR_OBJ_DESTROY_HANDLE,
					    h),
			   0);
	EXPECT(peer && rdma_sim_peer_read(peer, 0, &b, 1) && errno == ENODEV,
	       "read after revoke (%s)", by_close ? "close" : "destroy");
	EXPECT(peer && rdma_sim_peer_write(peer, 0x800, &b, 1) &&
		       errno == ENODEV,
	       "doorbell after revoke");
	EXPECT(!rdma_sim_peer_import(dfd) && errno == ENODEV,
	       "import after revoke");
	EXPECT(fcntl(dfd, F_GETFD) >= 0, "export fd closed by the revoke");
	rdma_sim_peer_release(peer);
	close(dfd);
	if (!by_close) {
		/* the offset is no entry any more */
		EXPECT_ERR(raw_export(fd, off, &dfd), EINVAL);
		close(fd);
	}
}

/* Static (legacy) UAR pages are mapped without an mmap entry. */
static void check_static(void)
{
	struct mlx5_ib_alloc_ucontext_req req = {.total_num_bfregs = 16,
						 .num_low_latency_bfregs = 4};
	struct mlx5_ib_alloc_ucontext_resp r;
	int fd = raw_open(), dfd;

	EXPECT_ERR(raw_get_context(fd, &req, sizeof(req), &r), 0);
	EXPECT_ERR(raw_export(fd, 0, &dfd), EINVAL);
	EXPECT_ERR(raw_export(fd, 3 * page, &dfd), EINVAL);
	close(fd);
}

/* What a child sees of an inherited UAR export: "fork" in the page. */
static int child_reads(int dfd)
{
	struct rdma_sim_peer *peer = rdma_sim_peer_import(dfd);
	char buf[8] = "";
	int ret;

	if (!peer)
		return 10 + errno;
	ret = rdma_sim_peer_read(peer, 0, buf, 5) ? 2 : strcmp(buf, "fork");
	/* and it rings: the page takes the child's store */
	if (!ret && rdma_sim_peer_write(peer, 8, "kid", 4))
		ret = 3;
	rdma_sim_peer_release(peer);
	return ret ? 1 : 0;
}

static int wait_child(pid_t pid)
{
	int st;

	return waitpid(pid, &st, 0) == pid && WIFEXITED(st) ? WEXITSTATUS(st)
							    : -1;
}

static void check_fork_and_rights(void)
{
	struct rdma_sim_peer *peer;
	char buf[8] = "";
	int fd, dfd;
	uint64_t off;
	uint32_t h;
	pid_t pid;

	if (uar_export(&fd, &h, &off, &dfd))
		return;
	peer = rdma_sim_peer_import(dfd);
	if (!peer || rdma_sim_peer_write(peer, 0, "fork", 5)) {
		EXPECT(0, "peer write");
		goto out;
	}
	pid = fork();
	if (!pid) {
		/* the inherited context maps the same page as well */
		char *p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED,
			       fd, (off_t)off);
		int bad = p == MAP_FAILED || strcmp(p, "fork");

		if (p != MAP_FAILED)
			munmap(p, page);
		rdma_sim_peer_release(peer); /* the parent's, inherited */
		_exit(bad ? 30 : child_reads(dfd));
	}
	EXPECT_ERR(wait_child(pid), 0);
	EXPECT_ERR(bufs_exec_reads(dfd, "fork"), 0);
	EXPECT_ERR(rdma_sim_peer_read(peer, 8, buf, 4) ? errno : 0, 0);
	EXPECT(!strcmp(buf, "kid"), "child's store %s", buf);
	/* a process that only gets the fd over a socket */
	EXPECT_ERR(bufs_rights_reads(dfd, "fork"), 0);
out:
	rdma_sim_peer_release(peer);
	close(dfd);
	close(fd);
}

void bufs_check_uar(void)
{
	page = (size_t)sysconf(_SC_PAGESIZE);
	check_shared_page();
	check_revoke(0);
	check_revoke(1);
	check_static();
	check_fork_and_rights();
}
