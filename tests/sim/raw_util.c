// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "raw.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int raw_failures;
int raw_no_dmabuf;
uint32_t raw_driver_id = RDMA_DRIVER_MLX5;

void raw_init(struct raw_cmd *c, uint16_t obj, uint16_t method)
{
	memset(c, 0, sizeof(*c));
	c->hdr.object_id = obj;
	c->hdr.method_id = method;
	c->hdr.driver_id = raw_driver_id;
	c->hdr.length = sizeof(c->hdr);
}

struct ib_uverbs_attr *raw_attr(struct raw_cmd *c, uint16_t id, uint16_t len,
				uint64_t data)
{
	struct ib_uverbs_attr *a = &c->hdr.attrs[c->hdr.num_attrs++];

	a->attr_id = id;
	a->len = len;
	a->flags = UVERBS_ATTR_F_MANDATORY;
	a->data = data;
	c->hdr.length += sizeof(*a);
	return a;
}

int raw_run(int fd, struct raw_cmd *c)
{
	return ioctl(fd, RDMA_VERBS_IOCTL, c) ? errno : 0;
}

int raw_run_new(int fd, struct raw_cmd *c, uint32_t *handle)
{
	int ret = raw_run(fd, c);

	*handle = (uint32_t)c->hdr.attrs[0].data;
	return ret;
}

int raw_open(void)
{
	return open("/dev/infiniband/uverbs0", O_RDWR | O_CLOEXEC);
}

int raw_get_context(int fd, const void *req, uint16_t req_len,
		    struct mlx5_ib_alloc_ucontext_resp *resp)
{
	struct raw_cmd c;
	uint32_t vecs;
	uint64_t support;

	raw_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT);
	raw_ptr(&c, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, &vecs);
	raw_ptr(&c, UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT, &support);
	raw_attr(&c, UVERBS_ATTR_UHW_IN, req_len, (uintptr_t)req);
	raw_ptr(&c, UVERBS_ATTR_UHW_OUT, resp);
	if (req_len <= 8)
		memcpy(&c.hdr.attrs[2].data, req, req_len);
	return raw_run(fd, &c);
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
	struct raw_cmd c;
	uint64_t start = ~0ULL;
	int ret;

	raw_init(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC);
	raw_attr(&c, UVERBS_ATTR_ALLOC_DM_HANDLE, 0, 0);
	raw_attr(&c, UVERBS_ATTR_ALLOC_DM_LENGTH, 8, len);
	raw_attr(&c, UVERBS_ATTR_ALLOC_DM_ALIGNMENT, 4, align);
	raw_ptr(&c, MLX5_IB_ATTR_ALLOC_DM_RESP_START_OFFSET, &start);
	raw_ptr(&c, MLX5_IB_ATTR_ALLOC_DM_RESP_PAGE_INDEX, page_idx);
	ret = raw_run(fd, &c);
	if (!ret) {
		*handle = (uint32_t)c.hdr.attrs[0].data;
		EXPECT(start == 0, "start_offset %llu",
		       (unsigned long long)start);
		EXPECT(c.hdr.attrs[3].flags & UVERBS_ATTR_F_VALID_OUTPUT,
		       "VALID_OUTPUT not set on START_OFFSET");
	}
	return ret;
}

int raw_destroy_attr(int fd, uint16_t obj, uint16_t method, uint16_t attr,
		     uint32_t handle)
{
	struct raw_cmd c;

	raw_init(&c, obj, method);
	raw_attr(&c, attr, 0, handle);
	return raw_run(fd, &c);
}

int raw_destroy(int fd, uint16_t obj, uint16_t method, uint32_t handle)
{
	return raw_destroy_attr(fd, obj, method, 0, handle);
}

int raw_alloc_pd(int fd, uint32_t *handle)
{
	struct ib_uverbs_alloc_pd_resp resp = {};
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_alloc_pd cmd;
	} w = {
		.hdr = {.command = IB_USER_VERBS_CMD_ALLOC_PD,
			.in_words = sizeof(w) / 4,
			.out_words = sizeof(resp) / 4},
		.cmd = {.response = (uintptr_t)&resp},
	};

	if (write(fd, &w, sizeof(w)) != sizeof(w))
		return errno;
	*handle = resp.pd_handle;
	return 0;
}

uint64_t raw_dm_offset(uint16_t page_idx)
{
	uint64_t pgoff = (MLX5_IB_MMAP_DEVICE_MEM << 8) | (page_idx & 0xff) |
			 ((uint64_t)(page_idx >> 8) << 16);

	return pgoff * (uint64_t)sysconf(_SC_PAGESIZE);
}

int raw_export(int fd, uint64_t pgoff, int *dmabuf_fd)
{
	struct raw_cmd c;
	int ret;

	raw_init(&c, RDMA_DM_OBJECT_DMABUF, RDMA_DM_METHOD_DMABUF_ALLOC);
	raw_attr(&c, RDMA_DM_ATTR_ALLOC_DMABUF_HANDLE, 0, 0);
	raw_attr(&c, RDMA_DM_ATTR_ALLOC_DMABUF_PGOFF, 8, pgoff);
	ret = raw_run(fd, &c);
	*dmabuf_fd = ret ? -1 : (int)c.hdr.attrs[0].data;
	return ret;
}
