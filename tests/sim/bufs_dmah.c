// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UVERBS_OBJECT_DMAH and UVERBS_METHOD_REG_MR as a kernel after 6.12 with
 * mlx5_ib on a TPH-capable device answers them; completion-counter
 * commands as every driver but EFA answers them.
 */
#include "bufs.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

enum { NO_CPU = -1, NO_TYPE = -1, NO_PH = -1 };

/* DMAH_ALLOC with the attributes that are not -1; errno, *h. */
static int dmah_alloc(int fd, int64_t cpu, int type, int ph, uint32_t *h)
{
	uint32_t cpu32 = (uint32_t)cpu;
	uint8_t ph8 = (uint8_t)ph;
	struct ib_uverbs_attr *a;
	struct raw_ioctl c;

	raw_init(&c, RDMA_DM_OBJECT_DMAH, RDMA_DM_METHOD_DMAH_ALLOC);
	raw_attr(&c, RDMA_DM_ATTR_ALLOC_DMAH_HANDLE, 0, 0);
	if (cpu != NO_CPU)
		raw_attr(&c, RDMA_DM_ATTR_ALLOC_DMAH_CPU_ID, 4, cpu32);
	if (type != NO_TYPE) {
		a = raw_attr(&c, RDMA_DM_ATTR_ALLOC_DMAH_TPH_MEM_TYPE, 0, 0);
		a->attr_data.enum_data.elem_id = (uint8_t)type;
	}
	if (ph != NO_PH)
		raw_attr(&c, RDMA_DM_ATTR_ALLOC_DMAH_PH, 1, ph8);
	return raw_call_new(fd, &c, h);
}

static int dmah_free(int fd, uint32_t h)
{
	return raw_destroy(fd, RDMA_DM_OBJECT_DMAH, RDMA_DM_METHOD_DMAH_FREE,
			   h);
}

struct reg {
	int64_t addr, fd, fd_off; /* -1: attribute absent */
	uint64_t iova, len;
	uint32_t access;
	int64_t dmah;
	uint16_t fd_len; /* 0, as UVERBS_ATTR_RAW_FD wants */
};

/* REG_MR (method 5); errno, *mr. */
static int reg_mr(int fd, uint32_t pd, const struct reg *r, uint32_t *mr)
{
	uint32_t lkey = 0, rkey = 0;
	struct raw_ioctl c;
	int ret;

	raw_init(&c, UVERBS_OBJECT_MR, RDMA_DM_METHOD_REG_MR);
	raw_attr(&c, RDMA_DM_ATTR_REG_MR_HANDLE, 0, 0);
	raw_attr(&c, RDMA_DM_ATTR_REG_MR_PD_HANDLE, 0, pd);
	if (r->dmah >= 0)
		raw_attr(&c, RDMA_DM_ATTR_REG_MR_DMA_HANDLE, 0,
			 (uint64_t)r->dmah);
	raw_attr(&c, RDMA_DM_ATTR_REG_MR_IOVA, 8, r->iova);
	if (r->addr >= 0)
		raw_attr(&c, RDMA_DM_ATTR_REG_MR_ADDR, 8, (uint64_t)r->addr);
	raw_attr(&c, RDMA_DM_ATTR_REG_MR_LENGTH, 8, r->len);
	raw_attr(&c, RDMA_DM_ATTR_REG_MR_ACCESS_FLAGS, 4, r->access);
	if (r->fd >= 0) /* a raw fd: length 0, the fd in data */
		raw_attr(&c, RDMA_DM_ATTR_REG_MR_FD, r->fd_len,
			 (uint64_t)r->fd);
	if (r->fd_off >= 0)
		raw_attr(&c, RDMA_DM_ATTR_REG_MR_FD_OFFSET, 8,
			 (uint64_t)r->fd_off);
	raw_ptr(&c, RDMA_DM_ATTR_REG_MR_RESP_LKEY, &lkey);
	raw_ptr(&c, RDMA_DM_ATTR_REG_MR_RESP_RKEY, &rkey);
	ret = raw_call_new(fd, &c, mr);
	EXPECT(ret || (lkey && lkey == rkey), "REG_MR keys %#x/%#x", lkey,
	       rkey);
	return ret;
}

static int mr_destroy(int fd, uint32_t h)
{
	return raw_destroy(fd, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY, h);
}

static void check_alloc(int fd)
{
	uint32_t h;

	EXPECT_ERR(dmah_alloc(fd, NO_CPU, NO_TYPE, 0, &h), 0);
	EXPECT_ERR(dmah_free(fd, h), 0);
	EXPECT_ERR(dmah_free(fd, h), ENOENT);
	EXPECT_ERR(dmah_alloc(fd, 0, RDMA_DM_TPH_MEM_TYPE_PM, 3, &h), 0);
	EXPECT_ERR(dmah_free(fd, h), 0);
	/* mlx5: PH is a must, the steering tag all or nothing */
	EXPECT_ERR(dmah_alloc(fd, NO_CPU, NO_TYPE, NO_PH, &h), EINVAL);
	EXPECT_ERR(dmah_alloc(fd, 0, NO_TYPE, 1, &h), EINVAL);
	EXPECT_ERR(dmah_alloc(fd, NO_CPU, RDMA_DM_TPH_MEM_TYPE_VM, 1, &h),
		   EINVAL);
	/* uverbs: two PH bits, a CPU the caller may use, the enum's range */
	EXPECT_ERR(dmah_alloc(fd, NO_CPU, NO_TYPE, 4, &h), EINVAL);
	EXPECT_ERR(dmah_alloc(fd, 0xffff, RDMA_DM_TPH_MEM_TYPE_PM, 0, &h),
		   EPERM);
	EXPECT_ERR(dmah_alloc(fd, 0, 0xfe, 0, &h), EOPNOTSUPP);
}

static void check_reg_mr(int fd, int cc_guest)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *buf = aligned_alloc(page, 2 * page);
	struct reg r = {.addr = (int64_t)(uintptr_t)buf,
			.fd = -1,
			.fd_off = -1,
			.iova = (uintptr_t)buf,
			.len = 2 * page,
			.access = IB_UVERBS_ACCESS_LOCAL_WRITE,
			.dmah = -1};
	uint32_t pd, h, mr, mr2;
	uint16_t idx;
	int dfd;

	EXPECT_ERR(raw_alloc_pd(fd, &pd), 0);
	EXPECT_ERR(dmah_alloc(fd, 0, RDMA_DM_TPH_MEM_TYPE_VM, 2, &h), 0);
	/* ib_umem_get() of a CoCo guest whose DMA bounces: nothing pinned */
	EXPECT_ERR(reg_mr(fd, pd, &r, &mr), cc_guest ? EOPNOTSUPP : 0);
	if (cc_guest) {
		EXPECT_ERR(dmah_free(fd, h), 0);
		free(buf);
		return;
	}
	EXPECT_ERR(mr_destroy(fd, mr), 0);
	r.dmah = h;
	EXPECT_ERR(reg_mr(fd, pd, &r, &mr), 0);
	EXPECT_ERR(dmah_free(fd, h), EBUSY); /* the MR holds it */
	r.access |= IB_UVERBS_ACCESS_ON_DEMAND;
	EXPECT_ERR(reg_mr(fd, pd, &r, &mr2), EOPNOTSUPP);
	r.access &= ~(uint32_t)IB_UVERBS_ACCESS_ON_DEMAND;
	r.dmah = pd; /* a handle of another type */
	EXPECT_ERR(reg_mr(fd, pd, &r, &mr2), EINVAL);
	r.dmah = h;
	r.iova += 8; /* page offsets differ */
	EXPECT_ERR(reg_mr(fd, pd, &r, &mr2), EINVAL);
	r.iova -= 8;
	r.fd_off = 0; /* ADDR with FD_OFFSET */
	EXPECT_ERR(reg_mr(fd, pd, &r, &mr2), EINVAL);
	r.addr = -1; /* neither ADDR nor FD */
	EXPECT_ERR(reg_mr(fd, pd, &r, &mr2), EINVAL);
	/* the dma-buf path: a DM's export, with the handle */
	EXPECT_ERR(raw_dm_alloc(fd, page, 0, &mr2, &idx), 0);
	EXPECT_ERR(raw_export(fd, raw_dm_offset(idx), &dfd), 0);
	r.fd = dfd;
	r.iova = 0;
	r.len = page;
	r.fd_off = -1; /* FD needs FD_OFFSET */
	EXPECT_ERR(reg_mr(fd, pd, &r, &mr2), EINVAL);
	r.fd_off = 0;
	r.access |= IB_UVERBS_ACCESS_MW_BIND; /* not for dma-bufs */
	EXPECT_ERR(reg_mr(fd, pd, &r, &mr2), EINVAL);
	r.access = IB_UVERBS_ACCESS_LOCAL_WRITE;
	r.len = 2 * page; /* beyond the buffer */
	EXPECT_ERR(reg_mr(fd, pd, &r, &mr2), EINVAL);
	r.len = page;
	r.fd_len = 4; /* a raw fd attribute has no length */
	EXPECT_ERR(reg_mr(fd, pd, &r, &mr2), EINVAL);
	r.fd_len = 0;
	EXPECT_ERR(reg_mr(fd, pd, &r, &mr2), 0);
	EXPECT_ERR(mr_destroy(fd, mr2), 0);
	EXPECT_ERR(mr_destroy(fd, mr), 0);
	EXPECT_ERR(dmah_free(fd, h), 0);
	close(dfd);
	free(buf);
}

/* No driver of ours has completion counters: the object, its methods on
 * DEVICE and QP do not exist (the kernel's uapi hides them). */
static void check_comp_cntr(int fd)
{
	uint32_t n = 0;
	struct raw_ioctl c;

	raw_init(&c, RDMA_DM_OBJECT_COMP_CNTR, RDMA_DM_METHOD_COMP_CNTR_CREATE);
	raw_attr(&c, 0, 0, 0);
	EXPECT_ERR(raw_call(fd, &c), EPROTONOSUPPORT);
	raw_init(&c, RDMA_DM_OBJECT_COMP_CNTR, RDMA_DM_METHOD_COMP_CNTR_READ);
	raw_attr(&c, 0, 0, 1);
	EXPECT_ERR(raw_call(fd, &c), EPROTONOSUPPORT);
	raw_init(&c, UVERBS_OBJECT_DEVICE, RDMA_DM_METHOD_QUERY_COMP_CNTR_CAPS);
	raw_ptr(&c, 0, &n);
	EXPECT_ERR(raw_call(fd, &c), EPROTONOSUPPORT);
	raw_init(&c, UVERBS_OBJECT_QP, RDMA_DM_METHOD_QP_ATTACH_COMP_CNTR);
	raw_attr(&c, 0, 0, 0);
	EXPECT_ERR(raw_call(fd, &c), EPROTONOSUPPORT);
}

void bufs_check_dmah(int cc_guest)
{
	int fd = raw_open_ctx(NULL);

	EXPECT(fd >= 0, "context");
	check_alloc(fd);
	check_reg_mr(fd, cc_guest);
	check_comp_cntr(fd);
	close(fd);
}

/* --rxe: the DMAH object does not exist (rxe has no alloc_dmah). */
void bufs_check_rxe(int fd)
{
	struct raw_ioctl c;
	uint32_t h;

	EXPECT_ERR(dmah_alloc(fd, NO_CPU, NO_TYPE, 0, &h), EPROTONOSUPPORT);
	/* nor REG_MR (method 5): the kernels the rxe model follows lack it */
	raw_init(&c, UVERBS_OBJECT_MR, RDMA_DM_METHOD_REG_MR);
	EXPECT_ERR(raw_call(fd, &c), EPROTONOSUPPORT);
	check_comp_cntr(fd);
}
