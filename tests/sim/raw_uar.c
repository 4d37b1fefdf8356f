// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* mlx5 UARs (dynamic and static), GID table, peer API outside the sim. */
#include "raw.h"
#include "rdma_sim_peer.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

/* The clock-info page: read-only, one page, the 156.25 MHz clock. */
static void check_clock_info(int fd, size_t page)
{
	const off_t off = (off_t)(MLX5_IB_MMAP_CLOCK_INFO << 8) * (off_t)page;
	const struct mlx5_ib_clock_info *ci;

	ci = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, off);
	EXPECT(ci != MAP_FAILED, "clock-info page");
	if (ci != MAP_FAILED) {
		EXPECT(ci->mult == 3435973837u && ci->shift == 29 &&
			       ci->mask == (1ULL << 41) - 1 &&
			       ci->overflow_period == 4294 && !(ci->sign & 1),
		       "clock info mult %u shift %u", ci->mult, ci->shift);
		munmap((void *)ci, page);
	}
	EXPECT(mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off) ==
			       MAP_FAILED &&
		       errno == EPERM,
	       "writable clock-info page");
	EXPECT(mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, fd, off) ==
			       MAP_FAILED &&
		       errno == EINVAL,
	       "two-page clock-info mapping");
}

static void check_dynamic(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int fd = raw_open_ctx(NULL);
	uint64_t off = 0;
	uint32_t h;
	void *p;

	EXPECT_ERR(raw_uar_alloc(fd, 7, &h, &off), EOPNOTSUPP);
	EXPECT_ERR(raw_uar_alloc(fd, MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC, &h, &off),
		   0);
	p = mmap(NULL, page, PROT_WRITE, MAP_SHARED, fd, (off_t)off);
	EXPECT(p != MAP_FAILED, "UAR mmap");
	if (p != MAP_FAILED)
		munmap(p, page);
	EXPECT(mmap(NULL, page, PROT_WRITE, MAP_SHARED, fd, 0) == MAP_FAILED &&
		       errno == EINVAL,
	       "static UAR page in a DYN_UAR context");
	/* the handle lives at the driver attr id; 0 is unknown here */
	EXPECT_ERR(raw_destroy(fd, MLX5_IB_OBJECT_UAR,
			       MLX5_IB_METHOD_UAR_OBJ_DESTROY, h),
		   EPROTONOSUPPORT);
	EXPECT_ERR(raw_destroy_attr(fd, MLX5_IB_OBJECT_UAR,
				    MLX5_IB_METHOD_UAR_OBJ_DESTROY,
				    MLX5_IB_ATTR_UAR_OBJ_DESTROY_HANDLE, h),
		   0);
	EXPECT(mmap(NULL, page, PROT_WRITE, MAP_SHARED, fd, (off_t)off) ==
			       MAP_FAILED &&
		       errno == EINVAL,
	       "mmap of a destroyed UAR");
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, fd,
		 (off_t)(MLX5_IB_MMAP_CORE_CLOCK << 8) * (off_t)page);
	EXPECT(p != MAP_FAILED, "core clock page");
	if (p != MAP_FAILED)
		munmap(p, page);
	check_clock_info(fd, page);
	close(fd);
}

static void check_static(void)
{
	struct mlx5_ib_alloc_ucontext_req req = {.total_num_bfregs = 16,
						 .num_low_latency_bfregs = 4};
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct mlx5_ib_alloc_ucontext_resp r;
	int fd = raw_open();
	uint64_t off;
	uint32_t h;
	void *p;

	EXPECT_ERR(raw_get_context(fd, &req, sizeof(req), &r), 0);
	EXPECT_ERR(raw_uar_alloc(fd, MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC, &h, &off),
		   EOPNOTSUPP);
	p = mmap(NULL, page, PROT_WRITE, MAP_SHARED, fd, 7 * (off_t)page);
	EXPECT(p != MAP_FAILED, "static UAR page 7 of 8");
	if (p != MAP_FAILED)
		munmap(p, page);
	EXPECT(mmap(NULL, page, PROT_WRITE, MAP_SHARED, fd, 8 * (off_t)page) ==
		       MAP_FAILED,
	       "static UAR page 8 of 8");
	close(fd);
}

static void check_gid_table(void)
{
	struct ib_uverbs_gid_entry e[4];
	uint64_t n = 0;
	struct raw_ioctl c;
	int fd = raw_open_ctx(NULL);

	raw_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_TABLE);
	raw_attr(&c, UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, 8, sizeof(e[0]));
	raw_attr(&c, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, sizeof(e),
		 (uintptr_t)e);
	raw_ptr(&c, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, &n);
	EXPECT_ERR(raw_call(fd, &c), 0);
	EXPECT(n == 1 && e[0].port_num == 1 && e[0].gid_index == 0 &&
		       e[0].gid_type == IB_UVERBS_GID_TYPE_IB,
	       "GID table: %llu entries", (unsigned long long)n);
	/* the FLAGS attr is a flags attribute: 4 or 8 bytes, no bit known */
	raw_attr(&c, UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, 4, 0);
	EXPECT_ERR(raw_call(fd, &c), 0);
	c.hdr.attrs[3].len = 6;
	EXPECT_ERR(raw_call(fd, &c), EINVAL);
	c.hdr.attrs[3].len = 8;
	c.hdr.attrs[3].data = 1;
	EXPECT_ERR(raw_call(fd, &c), EINVAL);
	c.hdr.attrs[3].data = 0;
	c.hdr.attrs[1].len = sizeof(e) - 4; /* not a multiple */
	EXPECT_ERR(raw_call(fd, &c), EINVAL);
	close(fd);
}

void raw_check_uar(void)
{
	check_dynamic();
	check_static();
	check_gid_table();
}

/* Not under the sim: the peer API must fail cleanly. */
int raw_check_outside(void)
{
	int fd = dup(1);

	EXPECT(!rdma_sim_active(), "rdma_sim_active outside the sim");
	EXPECT(!rdma_sim_peer_import(-1) && errno == EBADF, "import(-1)");
	EXPECT(!rdma_sim_peer_import(fd) && errno == EINVAL, "import(stdout)");
	EXPECT(rdma_sim_peer_read(NULL, 0, &fd, 1) && errno == EINVAL,
	       "read(NULL)");
	rdma_sim_peer_release(NULL);
	close(fd);
	if (raw_failures)
		fprintf(stderr, "sim_raw --outside: %d failure(s)\n",
			raw_failures);
	return raw_failures ? 1 : 0;
}
