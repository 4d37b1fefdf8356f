// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* mlx5 DM: allocation rules, MEMIC mmap, op addresses, query, DM MRs. */
#include "raw.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

static size_t page;

static int dm_alloc_typed(int fd, uint64_t type, int with_page_index)
{
	uint64_t start;
	uint16_t idx;
	struct raw_ioctl c;

	raw_init(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC);
	raw_attr(&c, UVERBS_ATTR_ALLOC_DM_HANDLE, 0, 0);
	raw_attr(&c, UVERBS_ATTR_ALLOC_DM_LENGTH, 8, 4096);
	raw_attr(&c, UVERBS_ATTR_ALLOC_DM_ALIGNMENT, 4, 0);
	raw_ptr(&c, MLX5_IB_ATTR_ALLOC_DM_RESP_START_OFFSET, &start);
	raw_attr(&c, MLX5_IB_ATTR_ALLOC_DM_REQ_TYPE, 8, type);
	if (with_page_index)
		raw_ptr(&c, MLX5_IB_ATTR_ALLOC_DM_RESP_PAGE_INDEX, &idx);
	return raw_call(fd, &c);
}

static int have_raw_caps(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = {};
	uint32_t need = (1u << CAP_SYS_RAWIO) | (1u << CAP_NET_RAW);

	return !syscall(SYS_capget, &h, d) && (d[0].effective & need) == need;
}

static void check_alloc_rules(int fd)
{
	uint32_t h;
	uint16_t idx;

	EXPECT_ERR(raw_dm_alloc(fd, 0, 0, &h, &idx), EINVAL);
	EXPECT_ERR(raw_dm_alloc(fd, 131072 + 64, 0, &h, &idx), ENOMEM);
	EXPECT_ERR(raw_dm_alloc(fd, 64, 13, &h, &idx), EINVAL);
	EXPECT_ERR(raw_dm_alloc(fd, 64, 12, &h, &idx), 0);
	EXPECT_ERR(raw_destroy(fd, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE, h),
		   0);
	EXPECT_ERR(dm_alloc_typed(fd, MLX5_IB_UAPI_DM_TYPE_STEERING_SW_ICM, 0),
		   have_raw_caps() ? EOPNOTSUPP : EPERM);
	EXPECT_ERR(dm_alloc_typed(fd, 9, 0), EOPNOTSUPP);
	/* the kernel writes PAGE_INDEX unconditionally for MEMIC */
	EXPECT_ERR(dm_alloc_typed(fd, MLX5_IB_UAPI_DM_TYPE_MEMIC, 0), ENOENT);
	EXPECT_ERR(dm_alloc_typed(fd, MLX5_IB_UAPI_DM_TYPE_MEMIC, 1), 0);
}

static void check_mmap(int fd, uint32_t h, uint16_t idx)
{
	uint64_t off = raw_dm_offset(idx);
	char *p, *q;

	p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);
	EXPECT(p != MAP_FAILED, "MEMIC mmap");
	if (p == MAP_FAILED)
		return;
	EXPECT(p[0] == 0 && p[page - 1] == 0, "fresh MEMIC not zeroed");
	memcpy(p, "memic", 6);
	q = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, off);
	EXPECT(q != MAP_FAILED && !strcmp(q, "memic"), "second mapping");
	if (q != MAP_FAILED)
		munmap(q, page);
	EXPECT(mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, fd, off) ==
			       MAP_FAILED &&
		       errno == EINVAL,
	       "oversized mmap");
	EXPECT(mmap(NULL, page, PROT_READ, MAP_PRIVATE, fd, off) ==
			       MAP_FAILED &&
		       errno == EINVAL,
	       "private mmap");
	EXPECT(mmap(NULL, page, PROT_READ, MAP_SHARED, fd,
		    raw_dm_offset(idx + 77)) == MAP_FAILED &&
		       errno == EINVAL,
	       "mmap of no entry");
	munmap(p, page);
}

static int map_op(int fd, uint32_t h, uint8_t op, uint16_t *idx)
{
	struct raw_ioctl c;
	uint64_t start;

	raw_init(&c, UVERBS_OBJECT_DM, MLX5_IB_METHOD_DM_MAP_OP_ADDR);
	raw_attr(&c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_HANDLE, 0, h);
	raw_attr(&c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_OP, 1, op);
	raw_ptr(&c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_START_OFFSET, &start);
	raw_ptr(&c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_PAGE_INDEX, idx);
	return raw_call(fd, &c);
}

static void check_op_and_query(int fd, uint32_t h, uint16_t idx)
{
	uint16_t op0 = 0, again = 0, qidx = 0;
	uint64_t start = 1, len = 0;
	struct raw_ioctl c;
	void *p;

	EXPECT_ERR(map_op(fd, h, 0, &op0), 0);
	EXPECT(op0 != idx, "op entry shares the base entry");
	EXPECT_ERR(map_op(fd, h, 0, &again), 0);
	EXPECT(again == op0, "same op, new entry");
	EXPECT_ERR(map_op(fd, h, 5, &again), EOPNOTSUPP);
	p = mmap(NULL, page, PROT_WRITE, MAP_SHARED, fd, raw_dm_offset(op0));
	EXPECT(p != MAP_FAILED, "op mmap");
	if (p != MAP_FAILED)
		munmap(p, page);
	raw_init(&c, UVERBS_OBJECT_DM, MLX5_IB_METHOD_DM_QUERY);
	raw_attr(&c, MLX5_IB_ATTR_QUERY_DM_REQ_HANDLE, 0, h);
	raw_ptr(&c, MLX5_IB_ATTR_QUERY_DM_RESP_START_OFFSET, &start);
	raw_ptr(&c, MLX5_IB_ATTR_QUERY_DM_RESP_PAGE_INDEX, &qidx);
	raw_ptr(&c, MLX5_IB_ATTR_QUERY_DM_RESP_LENGTH, &len);
	EXPECT_ERR(raw_call(fd, &c), 0);
	EXPECT(start == 0 && qidx == idx && len == 100, "DM_QUERY");
}

static void check_dm_mr(int fd, uint32_t dm)
{
	uint32_t pd, mr,
		zb = IB_UVERBS_ACCESS_ZERO_BASED | IB_UVERBS_ACCESS_LOCAL_WRITE;

	EXPECT_ERR(raw_alloc_pd(fd, &pd), 0);
	EXPECT_ERR(raw_reg_dm_mr(fd, pd, dm, 0, 100,
				 IB_UVERBS_ACCESS_LOCAL_WRITE, &mr),
		   EINVAL);
	EXPECT_ERR(raw_reg_dm_mr(fd, pd, dm, 4, 100, zb, &mr), EINVAL);
	EXPECT_ERR(raw_reg_dm_mr(fd, pd, dm, 0, 100,
				 zb | IB_UVERBS_ACCESS_MW_BIND, &mr),
		   EINVAL);
	EXPECT_ERR(raw_reg_dm_mr(fd, dm, pd, 0, 100, zb, &mr),
		   EINVAL); /* handles swapped: wrong object types */
	/* The kernel checks only the range: an empty MR inside is fine. */
	EXPECT_ERR(raw_reg_dm_mr(fd, pd, dm, 1 << 20, 0, zb, &mr), EINVAL);
	EXPECT_ERR(raw_reg_dm_mr(fd, pd, dm, 0, 0, zb, &mr), 0);
	EXPECT_ERR(
		raw_destroy(fd, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY, mr),
		0);
	EXPECT_ERR(raw_reg_dm_mr(fd, pd, dm, 0, 100, zb, &mr), 0);
	EXPECT_ERR(raw_destroy(fd, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE, dm),
		   EBUSY);
	EXPECT_ERR(
		raw_destroy(fd, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY, pd),
		EBUSY);
	EXPECT_ERR(
		raw_destroy(fd, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY, mr),
		0);
	EXPECT_ERR(
		raw_destroy(fd, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY, pd),
		0);
}

static void check_handles(int fd, uint32_t dm)
{
	int other = raw_open_ctx(NULL);
	uint32_t pd;

	/* another context has no such object */
	EXPECT_ERR(
		raw_destroy(other, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE, dm),
		ENOENT);
	EXPECT_ERR(raw_alloc_pd(other, &pd), 0);
	/* a PD handle is not a DM */
	EXPECT_ERR(
		raw_destroy(other, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE, pd),
		EINVAL);
	close(other);
	EXPECT_ERR(raw_destroy(fd, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE, dm),
		   0);
	EXPECT_ERR(raw_destroy(fd, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE, dm),
		   ENOENT);
}

void raw_check_dm(void)
{
	int fd = raw_open_ctx(NULL);
	uint32_t h;
	uint16_t idx;

	page = (size_t)sysconf(_SC_PAGESIZE);
	EXPECT(fd >= 0, "context");
	if (fd < 0)
		return;
	check_alloc_rules(fd);
	close(fd);
	fd = raw_open_ctx(NULL);
	EXPECT_ERR(raw_dm_alloc(fd, 100, 0, &h, &idx), 0);
	check_mmap(fd, h, idx);
	check_op_and_query(fd, h, idx);
	check_dm_mr(fd, h);
	check_handles(fd, h);
	close(fd);
}
