// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Access flags of DM_MR_REG and REG_DMABUF_MR: a flags attribute (optional,
 * 4 or 8 bytes, as uverbs_get_flags reads it) and each method's own set of
 * allowed bits, with the kernel's errnos.
 */
#include "raw.h"

#include <errno.h>
#include <unistd.h>

#define LW	IB_UVERBS_ACCESS_LOCAL_WRITE
#define ZB	IB_UVERBS_ACCESS_ZERO_BASED
#define NO_ATTR 0xffff /* leave the ACCESS_FLAGS attribute out */

/* The flags attribute as sent: len 4 and 8 inline, others too. */
static void add_flags(struct raw_ioctl *c, uint16_t id, uint16_t len,
		      uint64_t acc)
{
	if (len != NO_ATTR)
		raw_attr(c, id, len, acc)->flags = 0;
}

/* Issue the MR registration @c; on success deregister it again. */
static int reg_then_dereg(int fd, struct raw_ioctl *c)
{
	uint32_t mr;
	int ret = raw_call_new(fd, c, &mr);

	if (!ret)
		EXPECT_ERR(raw_destroy(fd, UVERBS_OBJECT_MR,
				       UVERBS_METHOD_MR_DESTROY, mr),
			   0);
	return ret;
}

static int dmabuf_mr(int fd, uint32_t pd, int dfd, uint16_t len, uint64_t acc)
{
	uint32_t lkey, rkey;
	struct raw_ioctl c;

	raw_init(&c, UVERBS_OBJECT_MR, UVERBS_METHOD_REG_DMABUF_MR);
	raw_attr(&c, UVERBS_ATTR_REG_DMABUF_MR_HANDLE, 0, 0);
	raw_attr(&c, UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, 0, pd);
	raw_attr(&c, UVERBS_ATTR_REG_DMABUF_MR_OFFSET, 8, 0);
	raw_attr(&c, UVERBS_ATTR_REG_DMABUF_MR_LENGTH, 8, 64);
	raw_attr(&c, UVERBS_ATTR_REG_DMABUF_MR_IOVA, 8, 0);
	raw_attr(&c, UVERBS_ATTR_REG_DMABUF_MR_FD, 4, (uint32_t)dfd);
	add_flags(&c, UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, len, acc);
	raw_ptr(&c, UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, &lkey);
	raw_ptr(&c, UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, &rkey);
	return reg_then_dereg(fd, &c);
}

static int dm_mr(int fd, uint32_t pd, uint32_t dm, uint64_t mr_len,
		 uint16_t len, uint64_t acc)
{
	uint32_t lkey, rkey;
	struct raw_ioctl c;

	raw_init(&c, UVERBS_OBJECT_MR, UVERBS_METHOD_DM_MR_REG);
	raw_attr(&c, UVERBS_ATTR_REG_DM_MR_HANDLE, 0, 0);
	raw_attr(&c, UVERBS_ATTR_REG_DM_MR_OFFSET, 8, 0);
	raw_attr(&c, UVERBS_ATTR_REG_DM_MR_LENGTH, 8, mr_len);
	raw_attr(&c, UVERBS_ATTR_REG_DM_MR_PD_HANDLE, 0, pd);
	add_flags(&c, UVERBS_ATTR_REG_DM_MR_ACCESS_FLAGS, len, acc);
	raw_attr(&c, UVERBS_ATTR_REG_DM_MR_DM_HANDLE, 0, dm);
	raw_ptr(&c, UVERBS_ATTR_REG_DM_MR_RESP_LKEY, &lkey);
	raw_ptr(&c, UVERBS_ATTR_REG_DM_MR_RESP_RKEY, &rkey);
	return reg_then_dereg(fd, &c);
}

static void check_dmabuf_access(int fd, uint32_t pd, int dfd)
{
	/* the flags attribute is optional: absent means 0 */
	EXPECT_ERR(dmabuf_mr(fd, pd, dfd, NO_ATTR, 0), 0);
	EXPECT_ERR(dmabuf_mr(fd, pd, dfd, 4, LW), 0);
	EXPECT_ERR(dmabuf_mr(fd, pd, dfd, 8, LW), 0);
	EXPECT_ERR(dmabuf_mr(fd, pd, dfd, 8,
			     LW | IB_UVERBS_ACCESS_REMOTE_READ |
				     IB_UVERBS_ACCESS_REMOTE_WRITE |
				     IB_UVERBS_ACCESS_REMOTE_ATOMIC |
				     IB_UVERBS_ACCESS_RELAXED_ORDERING),
		   0);
	/* 4 or 8 bytes only; 2 and 16 are outside the declared size */
	EXPECT_ERR(dmabuf_mr(fd, pd, dfd, 2, LW), EINVAL);
	EXPECT_ERR(dmabuf_mr(fd, pd, dfd, 6, LW), EINVAL);
	EXPECT_ERR(dmabuf_mr(fd, pd, dfd, 16, LW), EINVAL);
	/* bits REG_DMABUF_MR does not take */
	EXPECT_ERR(dmabuf_mr(fd, pd, dfd, 4, LW | ZB), EINVAL);
	EXPECT_ERR(dmabuf_mr(fd, pd, dfd, 4, LW | IB_UVERBS_ACCESS_MW_BIND),
		   EINVAL);
	EXPECT_ERR(dmabuf_mr(fd, pd, dfd, 4, LW | IB_UVERBS_ACCESS_ON_DEMAND),
		   EINVAL);
	EXPECT_ERR(dmabuf_mr(fd, pd, dfd, 4, LW | IB_UVERBS_ACCESS_HUGETLB),
		   EINVAL);
	EXPECT_ERR(dmabuf_mr(fd, pd, dfd, 4, LW | (1u << 21)), EINVAL);
	EXPECT_ERR(dmabuf_mr(fd, pd, dfd, 8, LW | (1ULL << 32)), EINVAL);
	/* remote write needs local write (ib_check_mr_access) */
	EXPECT_ERR(dmabuf_mr(fd, pd, dfd, 4, IB_UVERBS_ACCESS_REMOTE_WRITE),
		   EINVAL);
}

static void check_dm_access(int fd, uint32_t pd, uint32_t dm)
{
	/* absent flags are 0, which lacks ZERO_BASED */
	EXPECT_ERR(dm_mr(fd, pd, dm, 64, NO_ATTR, 0), EINVAL);
	EXPECT_ERR(dm_mr(fd, pd, dm, 64, 4, ZB), 0);
	EXPECT_ERR(dm_mr(fd, pd, dm, 64, 8, ZB | LW), 0);
	EXPECT_ERR(dm_mr(fd, pd, dm, 64, 6, ZB), EINVAL);
	EXPECT_ERR(dm_mr(fd, pd, dm, 64, 8, ZB | (1ULL << 32)), EINVAL);
	/* MEMIC takes only local/remote read/write/atomic and ZERO_BASED */
	EXPECT_ERR(dm_mr(fd, pd, dm, 64, 4,
			 ZB | LW | IB_UVERBS_ACCESS_RELAXED_ORDERING),
		   EINVAL);
	EXPECT_ERR(dm_mr(fd, pd, dm, 64, 4, ZB | IB_UVERBS_ACCESS_MW_BIND),
		   EINVAL);
	/* the kernel checks only the range: a zero-length DM MR is fine */
	EXPECT_ERR(dm_mr(fd, pd, dm, 0, 4, ZB), 0);
	EXPECT_ERR(dm_mr(fd, pd, dm, 65, 4, ZB), 0);
	EXPECT_ERR(dm_mr(fd, pd, dm, 4097, 4, ZB), EINVAL);
}

void raw_check_access(void)
{
	int fd = raw_open_ctx(NULL), dfd = -1;
	uint32_t pd, dm;
	uint16_t idx;

	EXPECT_ERR(raw_alloc_pd(fd, &pd), 0);
	EXPECT_ERR(raw_dm_alloc(fd, 4096, 0, &dm, &idx), 0);
	check_dm_access(fd, pd, dm);
	if (!raw_no_dmabuf) {
		EXPECT_ERR(raw_export(fd, raw_dm_offset(idx), &dfd), 0);
		check_dmabuf_access(fd, pd, dfd);
		close(dfd);
	}
	close(fd);
}
