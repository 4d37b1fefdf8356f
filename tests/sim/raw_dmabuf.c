// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* DMABUF_ALLOC, REG_DMABUF_MR, the peer device, revocation, reuse. */
#include "raw.h"
#include "rdma_sim_peer.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <linux/dma-buf.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

static size_t page;

/* -1 with errno e, as a syscall returns: 1 if so */
#define FAILS_WITH(call, e) ((call) == -1 && errno == (e))

static int map_errno(int dfd, int prot, int flags)
{
	void *p = mmap(NULL, page, prot, flags, dfd, 0);

	if (p != MAP_FAILED) {
		munmap(p, page);
		return 0;
	}
	return errno;
}

static int sync_errno(int dfd, uint64_t flags)
{
	struct dma_buf_sync s = {.flags = flags};

	return ioctl(dfd, DMA_BUF_IOCTL_SYNC, &s) ? errno : 0;
}

/* The fd behaves as the kernel's read-only dma-buf file. */
static void check_export_fd(int fd, uint16_t idx, int dfd)
{
	char b[64] = "";
	struct iovec iov = {.iov_base = b, .iov_len = 1};
	struct stat st;

	EXPECT(dfd >= 0 && (fcntl(dfd, F_GETFD) & FD_CLOEXEC),
	       "dma-buf fd %d not O_CLOEXEC", dfd);
	EXPECT(fcntl(dfd, F_GETFL) == O_RDONLY, "F_GETFL %#x, want O_RDONLY",
	       fcntl(dfd, F_GETFL));
	EXPECT(lseek(dfd, 0, SEEK_END) == (off_t)page,
	       "dma-buf size is not the whole entry");
	EXPECT(lseek(dfd, 0, SEEK_SET) == 0, "lseek SEEK_SET");
	EXPECT(FAILS_WITH(lseek(dfd, 0, SEEK_CUR), EINVAL), "SEEK_CUR");
	EXPECT(FAILS_WITH(lseek(dfd, 1, SEEK_SET), EINVAL), "lseek to 1");
	EXPECT(!fstat(dfd, &st) && st.st_size == (off_t)page, "fstat size");
	EXPECT_ERR(map_errno(dfd, PROT_READ, MAP_SHARED), EINVAL);
	EXPECT_ERR(map_errno(dfd, PROT_READ | PROT_WRITE, MAP_SHARED), EACCES);
	EXPECT_ERR(map_errno(dfd, PROT_READ | PROT_WRITE, MAP_PRIVATE), EINVAL);
	EXPECT(FAILS_WITH(read(dfd, b, 1), EINVAL), "read: want EINVAL");
	EXPECT(FAILS_WITH(readv(dfd, &iov, 1), EINVAL), "readv");
	EXPECT(FAILS_WITH(write(dfd, b, 1), EBADF), "write: want EBADF");
	EXPECT(FAILS_WITH(writev(dfd, &iov, 1), EBADF), "writev");
	EXPECT(FAILS_WITH(pread(dfd, b, 1, 0), ESPIPE), "pread: want ESPIPE");
	EXPECT(FAILS_WITH(pwrite(dfd, b, 1, 0), ESPIPE), "pwrite: ESPIPE");
	EXPECT_ERR(sync_errno(dfd, DMA_BUF_SYNC_START | DMA_BUF_SYNC_RW), 0);
	EXPECT_ERR(sync_errno(dfd, DMA_BUF_SYNC_END | DMA_BUF_SYNC_READ), 0);
	EXPECT_ERR(sync_errno(dfd, DMA_BUF_SYNC_END), EINVAL); /* no R/W */
	EXPECT_ERR(sync_errno(dfd, DMA_BUF_SYNC_RW | 8), EINVAL);
	EXPECT(FAILS_WITH(ioctl(dfd, DMA_BUF_IOCTL_SYNC, NULL), EFAULT),
	       "SYNC with a NULL argument");
	EXPECT(!ioctl(dfd, DMA_BUF_SET_NAME_B, "rdma-dm"), "SET_NAME");
	memset(b, 'n', 40);
	EXPECT(FAILS_WITH(ioctl(dfd, DMA_BUF_SET_NAME_B, b), EINVAL),
	       "a name of 32 bytes or more");
	EXPECT(FAILS_WITH(ioctl(dfd, _IO('b', 9)), ENOTTY), "other ioctl");
}

static void check_mr(int fd, int dfd)
{
	int null = open("/dev/null", O_RDONLY);
	uint32_t pd, mr;

	EXPECT_ERR(raw_alloc_pd(fd, &pd), 0);
	EXPECT_ERR(raw_reg_dmabuf_mr(fd, pd, -1, 0, 64, &mr), EBADF);
	EXPECT_ERR(raw_reg_dmabuf_mr(fd, pd, null, 0, 64, &mr), EINVAL);
	EXPECT_ERR(raw_reg_dmabuf_mr(fd, pd, dfd, 0, page + 1, &mr), EINVAL);
	EXPECT_ERR(raw_reg_dmabuf_mr(fd, pd, dfd, 0, page, &mr), 0);
	EXPECT_ERR(
		raw_destroy(fd, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY, mr),
		0);
	EXPECT_ERR(
		raw_destroy(fd, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY, pd),
		0);
	close(null);
}

/* CPU writes are seen by the peer and the other way round. */
static void check_peer(int fd, uint16_t idx, int dfd)
{
	struct rdma_sim_peer *peer = rdma_sim_peer_import(dfd);
	char buf[8] = "", *p;

	EXPECT(peer && rdma_sim_peer_size(peer) == page, "peer import");
	if (!peer)
		return;
	p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 raw_dm_offset(idx));
	EXPECT(p != MAP_FAILED, "mmap");
	if (p != MAP_FAILED) {
		memcpy(p + 8, "cpu2gpu", 8);
		EXPECT(!rdma_sim_peer_read(peer, 8, buf, 8) &&
			       !strcmp(buf, "cpu2gpu"),
		       "peer read");
		EXPECT(!rdma_sim_peer_write(peer, 64, "gpu2cpu", 8) &&
			       !strcmp(p + 64, "gpu2cpu"),
		       "peer write");
		munmap(p, page);
	}
	EXPECT(rdma_sim_peer_read(peer, page - 4, buf, 8) && errno == EINVAL,
	       "peer read past the end");
	rdma_sim_peer_release(peer);
}

static void check_revoke_on_free(void)
{
	int fd = raw_open_ctx(NULL), dfd;
	struct rdma_sim_peer *peer;
	uint32_t h;
	uint16_t idx;
	char b;

	EXPECT_ERR(raw_dm_alloc(fd, 100, 0, &h, &idx), 0);
	EXPECT_ERR(raw_export(fd, raw_dm_offset(idx), &dfd), 0);
	peer = rdma_sim_peer_import(dfd);
	EXPECT(peer, "import");
	EXPECT_ERR(raw_destroy(fd, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE, h),
		   0);
	EXPECT(peer && rdma_sim_peer_read(peer, 0, &b, 1) && errno == ENODEV,
	       "peer read after DM_FREE must be ENODEV");
	EXPECT(fcntl(dfd, F_GETFD) >= 0 &&
		       lseek(dfd, 0, SEEK_END) == (off_t)page,
	       "revoked dma-buf fd must stay open");
	EXPECT(!rdma_sim_peer_import(dfd) && errno == ENODEV,
	       "import of a revoked export");
	rdma_sim_peer_release(peer);
	close(dfd);
	/* close of the device fd revokes too */
	EXPECT_ERR(raw_dm_alloc(fd, 100, 0, &h, &idx), 0);
	EXPECT_ERR(raw_export(fd, raw_dm_offset(idx), &dfd), 0);
	peer = rdma_sim_peer_import(dfd);
	close(fd);
	EXPECT(peer && rdma_sim_peer_write(peer, 0, "x", 1) && errno == ENODEV,
	       "peer write after closing the device must be ENODEV");
	rdma_sim_peer_release(peer);
	close(dfd);
}

/* Exported MEMIC stays reserved until the last export fd is closed. */
static void check_no_reuse(void)
{
	int fd = raw_open_ctx(NULL), dfd;
	uint32_t h, h2;
	uint16_t idx, idx2;

	EXPECT_ERR(raw_dm_alloc(fd, 131072, 0, &h, &idx), 0);
	EXPECT_ERR(raw_export(fd, raw_dm_offset(idx), &dfd), 0);
	EXPECT_ERR(raw_destroy(fd, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE, h),
		   0);
	EXPECT_ERR(raw_dm_alloc(fd, 64, 0, &h2, &idx2), ENOMEM);
	close(dfd);
	EXPECT_ERR(raw_dm_alloc(fd, 131072, 0, &h2, &idx2), 0);
	close(fd);
}

void raw_check_dmabuf(void)
{
	int fd = raw_open_ctx(NULL), dfd;
	uint32_t h;
	uint16_t idx;

	page = (size_t)sysconf(_SC_PAGESIZE);
	EXPECT_ERR(raw_dm_alloc(fd, 100, 0, &h, &idx), 0);
	if (raw_no_dmabuf) {
		EXPECT_ERR(raw_export(fd, raw_dm_offset(idx), &dfd),
			   EPROTONOSUPPORT);
		close(fd);
		return;
	}
	EXPECT_ERR(raw_export(fd, raw_dm_offset(idx) + 7 * page * 256, &dfd),
		   EINVAL);
	EXPECT_ERR(raw_export(fd, raw_dm_offset(idx), &dfd), 0);
	check_export_fd(fd, idx, dfd);
	check_mr(fd, dfd);
	check_peer(fd, idx, dfd);
	close(dfd);
	close(fd);
	check_revoke_on_free();
	check_no_reuse();
}

/* A new allocation never shows an earlier owner's bytes. */
void raw_check_lifetime(void)
{
	int a = raw_open_ctx(NULL), b;
	uint32_t h;
	uint16_t idx;
	char *p;

	EXPECT_ERR(raw_dm_alloc(a, 131072, 0, &h, &idx), 0);
	p = mmap(NULL, 131072, PROT_READ | PROT_WRITE, MAP_SHARED, a,
		 raw_dm_offset(idx));
	EXPECT(p != MAP_FAILED, "map all MEMIC");
	if (p == MAP_FAILED)
		return;
	memset(p, 0xab, 131072);
	EXPECT_ERR(raw_destroy(a, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE, h),
		   0);
	b = raw_open_ctx(NULL);
	/* still mapped by a: the pages are not handed out */
	EXPECT_ERR(raw_dm_alloc(b, 64, 0, &h, &idx), ENOMEM);
	munmap(p, 131072);
	EXPECT_ERR(raw_dm_alloc(b, 4096, 0, &h, &idx), 0);
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, b, raw_dm_offset(idx));
	EXPECT(p != MAP_FAILED && p[0] == 0 && p[page - 1] == 0,
	       "other context's bytes visible");
	if (p != MAP_FAILED)
		munmap(p, page);
	close(a);
	close(b);
}
