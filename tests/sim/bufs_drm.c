// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The simulated GPU: /dev/dri/renderD128 as an amdgpu render node. Each
 * ioctl's errnos and outputs, GEM buffers seen by the CPU (mmap of the
 * node), the peer and a dma-buf MR, and PRIME import of our own DM and UAR
 * exports (the GPU as the importer), with revocation.
 */
#include "bufs.h"
#include "fds.h"
#include "gem.h"

#include <errno.h>
#include <fcntl.h>
#include <libdrm/amdgpu_drm.h>
#include <libdrm/drm.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

static size_t page;

static void check_node(int fd)
{
	char name[3] = "", date[16] = "";
	struct drm_version v = {.name_len = sizeof(name),
				.name = name,
				.date_len = sizeof(date),
				.date = date};
	struct stat st;

	EXPECT(!stat(RENDER, &st) && S_ISCHR(st.st_mode) &&
		       major(st.st_rdev) == 226 && minor(st.st_rdev) == 128,
	       "render node");
	EXPECT(!fstat(fd, &st) && S_ISCHR(st.st_mode) &&
		       major(st.st_rdev) == 226 && minor(st.st_rdev) == 128,
	       "render node fd");
	EXPECT(!ioctl(fd, DRM_IOCTL_VERSION, &v), "DRM_IOCTL_VERSION");
	EXPECT(v.name_len == 6 && !memcmp(name, "amd", 3) && v.date_len == 8 &&
		       !strcmp(date, "20150101") && v.version_major == 3,
	       "version: %zu %.3s", (size_t)v.name_len, name);
	EXPECT(ioctl(fd, DRM_IOCTL_VERSION, (void *)8) && errno == EFAULT,
	       "version to a bad pointer");
	EXPECT(ioctl(fd, DRM_IOCTL_GEM_FLINK, &v) && errno == EACCES,
	       "FLINK on a render node");
	EXPECT(ioctl(fd, DRM_IOWR(0x7f, struct drm_version), &v) &&
		       errno == EINVAL,
	       "ioctl past the driver table");
	EXPECT(!ioctl(fd, _IOWR('X', 0, struct drm_version), &v) &&
		       v.name_len == 6,
	       "only the number counts");
	EXPECT(ioctl(fd, DRM_IOWR(0xcf, struct drm_version), &v) &&
		       errno == EINVAL,
	       "past the core table");
}

static void check_gem(int fd)
{
	uint32_t h = 0, h2 = 0, nocpu = 0;
	uint64_t off = 0;
	int other;
	char *p;

	EXPECT_ERR(gem_create(fd, 0, AMDGPU_GEM_DOMAIN_GTT, 0, &h), EINVAL);
	EXPECT_ERR(gem_create(fd, page, 1 << 7, 0, &h), EINVAL);
	EXPECT_ERR(gem_create(fd, page, AMDGPU_GEM_DOMAIN_GTT, 1ULL << 40, &h),
		   EINVAL);
	EXPECT_ERR(gem_create(fd, 2ULL << 30, AMDGPU_GEM_DOMAIN_VRAM, 0, &h),
		   ENOMEM);
	EXPECT_ERR(gem_create(fd, page + 1, AMDGPU_GEM_DOMAIN_GTT,
			      AMDGPU_GEM_CREATE_CPU_GTT_USWC, &h),
		   0);
	EXPECT(h == 1, "first handle %u", h);
	EXPECT_ERR(gem_create(fd, page, AMDGPU_GEM_DOMAIN_VRAM,
			      AMDGPU_GEM_CREATE_NO_CPU_ACCESS, &nocpu),
		   0);
	EXPECT_ERR(gem_offset(fd, nocpu, &off), EPERM);
	EXPECT_ERR(gem_offset(fd, 99, &off), ENOENT);
	EXPECT_ERR(gem_offset(fd, h, &off), 0);
	p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)off);
	EXPECT(p != MAP_FAILED, "GEM mmap");
	if (p != MAP_FAILED) {
		strcpy(p + page, "vram");
		munmap(p, 2 * page);
		p = gem_map(fd, h, 2 * page); /* the same bytes again */
		EXPECT(p && !strcmp(p + page, "vram"), "GEM bytes kept");
		if (p)
			munmap(p, 2 * page);
	}
	EXPECT(mmap(NULL, 3 * page, PROT_READ, MAP_SHARED, fd, (off_t)off) ==
			       MAP_FAILED &&
		       errno == EINVAL,
	       "mapping past the object");
	EXPECT(mmap(NULL, page, PROT_READ, MAP_SHARED, fd, (off_t)page) ==
			       MAP_FAILED &&
		       errno == EINVAL,
	       "no object there");
	other = open(RENDER, O_RDWR | O_CLOEXEC);
	EXPECT(mmap(NULL, page, PROT_READ, MAP_SHARED, other, (off_t)off) ==
			       MAP_FAILED &&
		       errno == EACCES,
	       "another file's object");
	close(other);
	EXPECT_ERR(gem_create(fd, page, AMDGPU_GEM_DOMAIN_VRAM,
			      AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED, &h2),
		   0);
	EXPECT_ERR(gem_close(fd, h2), 0);
	EXPECT_ERR(gem_close(fd, h2), EINVAL);
	EXPECT_ERR(gem_close(fd, nocpu), 0);
	EXPECT_ERR(gem_close(fd, h), 0);
}

/* PRIME export of a GEM object: one dma-buf, the CPU, the peer and a
 * dma-buf MR agree; the buffer outlives the handle. */
static void check_export(int fd)
{
	struct rdma_sim_peer *peer = NULL;
	struct stat a, b;
	uint32_t h = 0, pd, mr;
	int d1 = -1, d2 = -1, ro = -1, vfd;
	char buf[8] = "", *p;

	EXPECT_ERR(gem_create(fd, page, AMDGPU_GEM_DOMAIN_GTT, 0, &h), 0);
	EXPECT_ERR(prime_export(fd, h, 0x4, &d1), EINVAL);
	EXPECT_ERR(prime_export(fd, 77, DRM_CLOEXEC, &d1), ENOENT);
	EXPECT_ERR(prime_export(fd, h, DRM_CLOEXEC | DRM_RDWR, &d1), 0);
	EXPECT_ERR(prime_export(fd, h, 0, &d2), 0);
	EXPECT(!fstat(d1, &a) && !fstat(d2, &b) && a.st_ino == b.st_ino &&
		       (size_t)a.st_size == page,
	       "one dma-buf per object");
	EXPECT((fcntl(d1, F_GETFL) & O_ACCMODE) == O_RDWR &&
		       (fcntl(d1, F_GETFD) & FD_CLOEXEC) &&
		       !(fcntl(d2, F_GETFD) & FD_CLOEXEC),
	       "PRIME fd flags");
	p = gem_map(fd, h, page);
	EXPECT(p != NULL, "GEM map");
	if (p)
		strcpy(p, "gem");
	EXPECT_ERR(gem_close(fd, h), 0); /* the dma-buf keeps the memory */
	peer = rdma_sim_peer_import(d1);
	EXPECT(peer && !rdma_sim_peer_read(peer, 0, buf, 4) &&
		       !strcmp(buf, "gem"),
	       "peer reads the GEM buffer: %s", buf);
	EXPECT(peer && !rdma_sim_peer_write(peer, 4, "hca", 4) && p &&
		       !strcmp(p + 4, "hca"),
	       "CPU sees the peer's store");
	rdma_sim_peer_release(peer);
	if (p)
		munmap(p, page);
	vfd = raw_open_ctx(NULL);
	EXPECT_ERR(raw_alloc_pd(vfd, &pd), 0);
	EXPECT_ERR(raw_reg_dmabuf_mr(vfd, pd, d2, 0, page, &mr), 0);
	close(vfd);
	/* an export without DRM_RDWR is a read-only file */
	EXPECT_ERR(gem_create(fd, page, AMDGPU_GEM_DOMAIN_GTT, 0, &h), 0);
	EXPECT_ERR(prime_export(fd, h, DRM_CLOEXEC, &ro), 0);
	EXPECT((fcntl(ro, F_GETFL) & O_ACCMODE) == O_RDONLY,
	       "export without DRM_RDWR");
	EXPECT_ERR(gem_close(fd, h), 0);
	close(ro);
	close(d1);
	close(d2);
}

/* The GPU imports our DM and UAR exports (PRIME_FD_TO_HANDLE). */
static void check_import(int fd)
{
	uint32_t dm, uar, h = 0, h2 = 0, self = 0;
	uint64_t uar_off, o1 = 0, o2 = 1;
	uint16_t idx;
	int vfd = raw_open_ctx(NULL), ddm = -1, duar = -1, gem_fd = -1, other;
	char *p, *q, *dmp;

	EXPECT_ERR(prime_import(fd, -1, &h), EBADF);
	EXPECT_ERR(prime_import(fd, fd, &h), EINVAL);
	/* a DM whose bytes the GPU then sees */
	EXPECT_ERR(raw_dm_alloc(vfd, 64, 0, &dm, &idx), 0);
	dmp = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, vfd,
		   (off_t)raw_dm_offset(idx));
	EXPECT(dmp != MAP_FAILED, "DM map");
	if (dmp != MAP_FAILED) {
		strcpy(dmp, "memic");
		munmap(dmp, page);
	}
	EXPECT_ERR(raw_export(vfd, raw_dm_offset(idx), &ddm), 0);
	EXPECT_ERR(prime_import(fd, ddm, &h), 0);
	EXPECT_ERR(prime_import(fd, ddm, &h2), 0);
	EXPECT(h == h2, "one handle per imported dma-buf (%u, %u)", h, h2);
	p = gem_map(fd, h, page);
	EXPECT(p && !strcmp(p, "memic"), "the GPU's view of the DM");
	if (p)
		munmap(p, page);
	/* re-export gives the original dma-buf back */
	EXPECT_ERR(prime_export(fd, h, DRM_CLOEXEC, &gem_fd), 0);
	if (gem_fd >= 0) {
		struct stat a, b;

		EXPECT(!fstat(gem_fd, &a) && !fstat(ddm, &b) &&
			       a.st_ino == b.st_ino,
		       "re-export of an import");
		close(gem_fd);
	}
	EXPECT_ERR(gem_close(fd, h), 0);
	/* a UAR page, then revoked: the GPU's mapping attempt fails */
	EXPECT_ERR(raw_uar_alloc(vfd, MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC, &uar,
				 &uar_off),
		   0);
	EXPECT_ERR(raw_export(vfd, uar_off, &duar), 0);
	EXPECT_ERR(prime_import(fd, duar, &h), 0);
	p = gem_map(fd, h, page);
	EXPECT(p != NULL, "the GPU maps the UAR page");
	if (p)
		munmap(p, page);
	EXPECT_ERR(raw_destroy_attr(vfd, MLX5_IB_OBJECT_UAR,
				    MLX5_IB_METHOD_UAR_OBJ_DESTROY,
				    MLX5_IB_ATTR_UAR_OBJ_DESTROY_HANDLE, uar),
		   0);
	EXPECT(!gem_map(fd, h, page) && errno == ENODEV,
	       "mapping a revoked import");
	EXPECT_ERR(gem_close(fd, h), 0);
	/* our own export comes back as the same object */
	EXPECT_ERR(gem_create(fd, page, AMDGPU_GEM_DOMAIN_GTT, 0, &self), 0);
	EXPECT_ERR(prime_export(fd, self, DRM_CLOEXEC, &gem_fd), 0);
	EXPECT_ERR(prime_import(fd, gem_fd, &h), 0);
	EXPECT(h == self, "self import %u of %u", h, self);
	/* another file of the device gets a handle to the same object */
	other = open(RENDER, O_RDWR | O_CLOEXEC);
	EXPECT_ERR(prime_import(other, gem_fd, &h), 0);
	p = gem_map(other, h, page);
	q = gem_map(fd, self, page);
	if (p && q) {
		strcpy(q, "shared");
		EXPECT(!strcmp(p, "shared"), "one object in two files");
	}
	EXPECT(p && q && gem_offset(other, h, &o1) == 0 &&
		       gem_offset(fd, self, &o2) == 0 && o1 == o2,
	       "the same object's offset");
	if (p)
		munmap(p, page);
	if (q)
		munmap(q, page);
	close(other);
	EXPECT_ERR(gem_close(fd, self), 0);
	close(gem_fd);
	close(duar);
	close(ddm);
	close(vfd);
}

/* A forked child reads the GEM buffer through the inherited dma-buf. */
static void check_fork(int fd)
{
	int d = -1, st = -1;
	uint32_t h = 0;
	char *p;
	pid_t pid;

	EXPECT_ERR(gem_create(fd, page, AMDGPU_GEM_DOMAIN_VRAM, 0, &h), 0);
	p = gem_map(fd, h, page);
	if (p) {
		strcpy(p, "inherited");
		munmap(p, page);
	}
	EXPECT_ERR(prime_export(fd, h, DRM_CLOEXEC | DRM_RDWR, &d), 0);
	pid = fork();
	if (!pid) {
		struct rdma_sim_peer *peer = rdma_sim_peer_import(d);
		char buf[16] = "";
		int bad = !peer || rdma_sim_peer_read(peer, 0, buf, 10) ||
			  strcmp(buf, "inherited");

		rdma_sim_peer_release(peer);
		_exit(bad);
	}
	EXPECT(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st),
	       "child's read of the GEM dma-buf");
	EXPECT_ERR(bufs_exec_reads(d, "inherited"), 0);
	EXPECT_ERR(bufs_rights_reads(d, "inherited"), 0);
	EXPECT_ERR(gem_close(fd, h), 0);
	close(d);
}

#define FILLERS 32

/*
 * Lower the soft limit a few slots above the lowest free descriptor (the
 * sim's own may sit higher and keep working) and dup until EMFILE; how
 * many were taken.
 */
static int fill_table(int fd, int *fills, struct rlimit *saved)
{
	struct rlimit low;
	int n = 0, f = dup(fd);

	close(f);
	getrlimit(RLIMIT_NOFILE, saved);
	low = *saved;
	low.rlim_cur = (rlim_t)f + FILLERS / 4;
	EXPECT(!setrlimit(RLIMIT_NOFILE, &low), "lower RLIMIT_NOFILE");
	while (n < FILLERS && (f = dup(fd)) >= 0)
		fills[n++] = f;
	EXPECT(n < FILLERS && errno == EMFILE, "table full after %d", n);
	return n;
}

/*
 * PRIME export at a full descriptor table: EMFILE, for the first export
 * of an object and for a re-export alike, with nothing left behind; once
 * a slot is free the export works, and is the object's one dma-buf.
 */
static void check_full_table(int fd)
{
	int fills[FILLERS], n, d = -1, d2 = -1, fds = count_fds();
	struct stat a = {}, b = {};
	struct rlimit saved;
	uint32_t h = 0;

	EXPECT_ERR(gem_create(fd, page, AMDGPU_GEM_DOMAIN_GTT, 0, &h), 0);
	n = fill_table(fd, fills, &saved);
	EXPECT_ERR(prime_export(fd, h, DRM_CLOEXEC | DRM_RDWR, &d), EMFILE);
	close(fills[--n]);
	EXPECT_ERR(prime_export(fd, h, DRM_CLOEXEC | DRM_RDWR, &d), 0);
	EXPECT_ERR(prime_export(fd, h, DRM_CLOEXEC, &d2), EMFILE);
	close(fills[--n]);
	EXPECT_ERR(prime_export(fd, h, DRM_CLOEXEC, &d2), 0);
	EXPECT(!fstat(d, &a) && !fstat(d2, &b) && a.st_ino == b.st_ino,
	       "re-export is the same dma-buf");
	while (n)
		close(fills[--n]);
	setrlimit(RLIMIT_NOFILE, &saved);
	close(d);
	close(d2);
	EXPECT_ERR(gem_close(fd, h), 0);
	EXPECT(count_fds() == fds, "fds after full-table exports: %d, want %d",
	       count_fds(), fds);
}

void bufs_check_drm(void)
{
	int fd = open(RENDER, O_RDWR | O_CLOEXEC);

	page = (size_t)sysconf(_SC_PAGESIZE);
	EXPECT(fd >= 0, "open " RENDER);
	if (fd < 0)
		return;
	check_node(fd);
	check_gem(fd);
	check_export(fd);
	check_import(fd);
	check_fork(fd);
	check_full_table(fd);
	close(fd);
}
