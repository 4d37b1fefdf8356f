// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "raw.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int raw_failures;
int raw_no_dmabuf;

int raw_open(void)
{
	return open("/dev/infiniband/uverbs0", O_RDWR | O_CLOEXEC);
}

int raw_get_context(int fd, const void *req, uint16_t req_len,
		    struct mlx5_ib_alloc_ucontext_resp *resp)
{
	struct raw_ioctl c;
	uint32_t vecs;
	uint64_t support;

	raw_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT);
	raw_ptr(&c, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, &vecs);
	raw_ptr(&c, UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT, &support);
	raw_attr(&c, UVERBS_ATTR_UHW_IN, req_len, (uintptr_t)req);
	raw_ptr(&c, UVERBS_ATTR_UHW_OUT, resp);
	if (req_len <= 8)
		memcpy(&c.hdr.attrs[2].data, req, req_len);
	return raw_call(fd, &c);
}

int raw_open_ctx(struct mlx5_ib_alloc_ucontext_resp *resp)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = {
		.total_num_bfregs = 16,
		.num_low_latency_bfregs = 4,
		.max_cqe_version = 1,
		.lib_caps = MLX5_LIB_CAP_4K_UAR | MLX5_LIB_CAP_DYN_UAR,
	};
	struct mlx5_ib_alloc_ucontext_resp r;
	int fd = raw_open();

	if (fd < 0 ||
	    raw_get_context(fd, &req, sizeof(req), resp ? resp : &r)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int raw_dm_alloc(int fd, uint64_t len, uint32_t align, uint32_t *handle,
		 uint16_t *page_idx)
{
	struct raw_ioctl c;
	uint64_t start = ~0ULL;
	int ret;

	raw_init(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC);
	raw_attr(&c, UVERBS_ATTR_ALLOC_DM_HANDLE, 0, 0);
	raw_attr(&c, UVERBS_ATTR_ALLOC_DM_LENGTH, 8, len);
	raw_attr(&c, UVERBS_ATTR_ALLOC_DM_ALIGNMENT, 4, align);
	raw_ptr(&c, MLX5_IB_ATTR_ALLOC_DM_RESP_START_OFFSET, &start);
	raw_ptr(&c, MLX5_IB_ATTR_ALLOC_DM_RESP_PAGE_INDEX, page_idx);
	ret = raw_call(fd, &c);
	if (!ret) {
		*handle = (uint32_t)c.hdr.attrs[0].data;
		EXPECT(start == 0, "start_offset %llu",
		       (unsigned long long)start);
		EXPECT(c.hdr.attrs[3].flags & UVERBS_ATTR_F_VALID_OUTPUT,
		       "VALID_OUTPUT not set on START_OFFSET");
	}
	return ret;
}

uint64_t raw_dm_offset(uint16_t page_idx)
{
	uint64_t pgoff = (MLX5_IB_MMAP_DEVICE_MEM << 8) | (page_idx & 0xff) |
			 ((uint64_t)(page_idx >> 8) << 16);

	return pgoff * (uint64_t)sysconf(_SC_PAGESIZE);
}

int raw_export(int fd, uint64_t pgoff, int *dmabuf_fd)
{
	struct raw_ioctl c;
	int ret;

	raw_init(&c, RDMA_DM_OBJECT_DMABUF, RDMA_DM_METHOD_DMABUF_ALLOC);
	raw_attr(&c, RDMA_DM_ATTR_ALLOC_DMABUF_HANDLE, 0, 0);
	raw_attr(&c, RDMA_DM_ATTR_ALLOC_DMABUF_PGOFF, 8, pgoff);
	ret = raw_call(fd, &c);
	*dmabuf_fd = ret ? -1 : (int)c.hdr.attrs[0].data;
	return ret;
}

int raw_uar_alloc(int fd, uint64_t type, uint32_t *h, uint64_t *off)
{
	uint32_t len = 0, page_id;
	struct raw_ioctl c;
	int ret;

	raw_init(&c, MLX5_IB_OBJECT_UAR, MLX5_IB_METHOD_UAR_OBJ_ALLOC);
	raw_attr(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE, 0, 0);
	raw_attr(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE, 8, type);
	raw_ptr(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET, off);
	raw_ptr(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH, &len);
	raw_ptr(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID, &page_id);
	ret = raw_call_new(fd, &c, h);
	EXPECT(ret || len == (uint32_t)sysconf(_SC_PAGESIZE), "UAR length %u",
	       len);
	return ret;
}

int raw_reg_dmabuf_mr(int fd, uint32_t pd, int dfd, uint64_t off, uint64_t len,
		      uint32_t *mr)
{
	uint32_t lkey, rkey;
	struct raw_ioctl c;

	raw_init(&c, UVERBS_OBJECT_MR, UVERBS_METHOD_REG_DMABUF_MR);
	raw_attr(&c, UVERBS_ATTR_REG_DMABUF_MR_HANDLE, 0, 0);
	raw_attr(&c, UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, 0, pd);
	raw_attr(&c, UVERBS_ATTR_REG_DMABUF_MR_OFFSET, 8, off);
	raw_attr(&c, UVERBS_ATTR_REG_DMABUF_MR_LENGTH, 8, len);
	raw_attr(&c, UVERBS_ATTR_REG_DMABUF_MR_IOVA, 8, off);
	raw_attr(&c, UVERBS_ATTR_REG_DMABUF_MR_FD, 4, (uint32_t)dfd);
	raw_attr(&c, UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, 4,
		 IB_UVERBS_ACCESS_LOCAL_WRITE);
	raw_ptr(&c, UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, &lkey);
	raw_ptr(&c, UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, &rkey);
	return raw_call_new(fd, &c, mr);
}

int raw_reg_dm_mr(int fd, uint32_t pd, uint32_t dm, uint64_t off, uint64_t len,
		  uint32_t access, uint32_t *mr)
{
	uint32_t lkey, rkey;
	struct raw_ioctl c;

	raw_init(&c, UVERBS_OBJECT_MR, UVERBS_METHOD_DM_MR_REG);
	raw_attr(&c, UVERBS_ATTR_REG_DM_MR_HANDLE, 0, 0);
	raw_attr(&c, UVERBS_ATTR_REG_DM_MR_OFFSET, 8, off);
	raw_attr(&c, UVERBS_ATTR_REG_DM_MR_LENGTH, 8, len);
	raw_attr(&c, UVERBS_ATTR_REG_DM_MR_PD_HANDLE, 0, pd);
	raw_attr(&c, UVERBS_ATTR_REG_DM_MR_ACCESS_FLAGS, 4, access);
	raw_attr(&c, UVERBS_ATTR_REG_DM_MR_DM_HANDLE, 0, dm);
	raw_ptr(&c, UVERBS_ATTR_REG_DM_MR_RESP_LKEY, &lkey);
	raw_ptr(&c, UVERBS_ATTR_REG_DM_MR_RESP_RKEY, &rkey);
	return raw_call_new(fd, &c, mr);
}
