// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The DMA-buf heaps of the simulated world: DMA_HEAP_IOCTL_ALLOC's errnos,
 * the buffer as a dma-buf (size, flags, CPU mapping, peer access, a
 * dma-buf MR over it), the CoCo heap only in a --cc-guest world.
 */
#include "bufs.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/dma-heap.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static int heap_alloc(int hfd, uint64_t len, uint32_t fd_flags, int *out)
{
	struct dma_heap_allocation_data d = {.len = len, .fd_flags = fd_flags};

	if (ioctl(hfd, DMA_HEAP_IOCTL_ALLOC, &d))
		return errno;
	*out = (int)d.fd;
	return 0;
}

static void check_errnos(int hfd)
{
	struct dma_heap_allocation_data d = {.len = 4096, .fd_flags = O_RDWR};
	int fd = -1;

	EXPECT_ERR(heap_alloc(hfd, 0, O_RDWR, &fd), EINVAL);
	EXPECT_ERR(heap_alloc(hfd, 1, O_RDWR | O_NONBLOCK, &fd), EINVAL);
	EXPECT_ERR(heap_alloc(hfd, 1ULL << 60, O_RDWR, &fd), ENOMEM);
	d.fd = 5;
	EXPECT(ioctl(hfd, DMA_HEAP_IOCTL_ALLOC, &d) && errno == EINVAL,
	       "fd set on input");
	d.fd = 0;
	d.heap_flags = 1;
	EXPECT(ioctl(hfd, DMA_HEAP_IOCTL_ALLOC, &d) && errno == EINVAL,
	       "heap flags");
	EXPECT(ioctl(hfd, _IOWR('H', 1, d), &d) && errno == EINVAL,
	       "ioctl past the table");
	/* the core looks at the number only: this allocates */
	d.heap_flags = 0;
	EXPECT(!ioctl(hfd, _IOWR('X', 0, d), &d) && d.fd > 0 &&
		       !close((int)d.fd),
	       "another type byte, the same number");
	d.fd = 0;
	EXPECT(ioctl(hfd, _IOR('H', 0, d), &d) && errno == EINVAL,
	       "nothing copied in: length 0");
	EXPECT(ioctl(hfd, DMA_HEAP_IOCTL_ALLOC, (void *)8) && errno == EFAULT,
	       "bad pointer");
}

/* A buffer: its file, the CPU and the peer see the same bytes, and a
 * dma-buf MR takes it. */
static void check_buffer(int hfd)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct rdma_sim_peer *peer;
	char buf[8] = "";
	struct stat st;
	int fd = -1, ro = -1, vfd;
	uint32_t pd, mr;
	char *p;

	EXPECT_ERR(heap_alloc(hfd, page + 1, O_RDWR | O_CLOEXEC, &fd), 0);
	EXPECT(!fstat(fd, &st) && (size_t)st.st_size == 2 * page,
	       "heap buffer size");
	EXPECT((fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR &&
		       (fcntl(fd, F_GETFD) & FD_CLOEXEC),
	       "heap buffer flags");
	EXPECT(lseek(fd, 0, SEEK_END) == (off_t)(2 * page), "SEEK_END");
	EXPECT(read(fd, buf, 1) < 0 && errno == EINVAL, "read");
	EXPECT(write(fd, buf, 1) < 0 && errno == EINVAL, "write");
	EXPECT(mmap(NULL, 3 * page, PROT_READ, MAP_SHARED, fd, 0) ==
			       MAP_FAILED &&
		       errno == EINVAL,
	       "mapping beyond the buffer");
	p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT(p != MAP_FAILED, "heap mmap");
	peer = rdma_sim_peer_import(fd);
	EXPECT(peer != NULL, "peer import of a heap buffer");
	if (p != MAP_FAILED && peer) {
		memcpy(p + page, "cpu", 4);
		EXPECT_ERR(rdma_sim_peer_read(peer, page, buf, 4) ? errno : 0,
			   0);
		EXPECT(!strcmp(buf, "cpu"), "peer read %s", buf);
		EXPECT_ERR(rdma_sim_peer_write(peer, 0, "gpu", 4) ? errno : 0,
			   0);
		EXPECT(!strcmp(p, "gpu"), "CPU read %s", p);
		EXPECT_ERR(bufs_exec_reads(fd, "gpu"), 0);
	}
	rdma_sim_peer_release(peer);
	/* children that hold nothing else of ours see the same bytes */
	EXPECT_ERR(bufs_fork_reads(fd, "gpu"), 0);
	EXPECT_ERR(bufs_rights_reads(fd, "gpu"), 0);
	if (p != MAP_FAILED)
		munmap(p, 2 * page);
	/* a read-only buffer maps read-only only */
	EXPECT_ERR(heap_alloc(hfd, page, O_RDONLY, &ro), 0);
	EXPECT(mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, ro, 0) ==
			       MAP_FAILED &&
		       errno == EACCES,
	       "writable map of a read-only buffer");
	close(ro);
	/* a dma-buf MR over it */
	vfd = raw_open_ctx(NULL);
	EXPECT_ERR(raw_alloc_pd(vfd, &pd), 0);
	EXPECT_ERR(raw_reg_dmabuf_mr(vfd, pd, fd, 0, 2 * page, &mr), 0);
	EXPECT_ERR(raw_reg_dmabuf_mr(vfd, pd, fd, page, 2 * page, &mr), EINVAL);
	close(vfd);
	close(fd);
}

/* IBV_DEVICE_CC_DMA_BOUNCE (bit 41 of device_cap_flags_ex) iff a guest */
static void check_cc_flag(int cc_guest)
{
	struct ib_uverbs_ex_query_device_resp resp;
	struct ib_uverbs_ex_query_device cmd = {};
	int fd = raw_open_ctx(NULL);

	memset(&resp, 0, sizeof(resp));
	EXPECT_ERR(raw_write_ex(fd, IB_USER_VERBS_EX_CMD_QUERY_DEVICE, &cmd,
				sizeof(cmd), &resp, sizeof(resp)),
		   0);
	EXPECT(!!(resp.device_cap_flags_ex & RDMA_DM_DEVICE_CC_DMA_BOUNCE) ==
		       !!cc_guest,
	       "device_cap_flags_ex %#llx",
	       (unsigned long long)resp.device_cap_flags_ex);
	close(fd);
}

void bufs_check_heap(int cc_guest)
{
	struct stat st;
	int hfd = open("/dev/dma_heap/system", O_RDWR | O_CLOEXEC), cc;

	EXPECT(hfd >= 0, "open the system heap");
	EXPECT(!stat("/dev/dma_heap/system", &st) && S_ISCHR(st.st_mode) &&
		       major(st.st_rdev) == 251,
	       "heap node");
	check_errnos(hfd);
	check_buffer(hfd);
	close(hfd);
	cc = open("/dev/dma_heap/system_cc_shared", O_RDWR | O_CLOEXEC);
	if (cc_guest) {
		EXPECT(cc >= 0, "the CoCo heap in a guest");
		check_buffer(cc);
		close(cc);
	} else {
		EXPECT(cc < 0 && errno == ENOENT, "no CoCo heap on a host");
	}
	check_cc_flag(cc_guest);
}
