// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Objects and methods around device memory and dma-buf: DM_ALLOC on a
 * device without DM, the DMABUF object (newer than 6.1/6.12), dma-buf MR
 * registration with a bad fd and with a real udmabuf, and the ids that only
 * newer kernels know.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/udmabuf.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rdma/rdma_dm_uapi.h"
#include "conf.h"

static int dm_alloc(void)
{
	struct raw_ioctl cmd;

	raw_init(&cmd, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC);
	raw_add(&cmd, UVERBS_ATTR_ALLOC_DM_HANDLE, 0, UVERBS_ATTR_F_MANDATORY,
		0);
	raw_add(&cmd, UVERBS_ATTR_ALLOC_DM_LENGTH, sizeof(uint64_t),
		UVERBS_ATTR_F_MANDATORY, 4096);
	raw_add(&cmd, UVERBS_ATTR_ALLOC_DM_ALIGNMENT, sizeof(uint32_t),
		UVERBS_ATTR_F_MANDATORY, 0);
	return raw_exec(conf_fd, &cmd);
}

static int dmabuf_alloc(void)
{
	struct raw_ioctl cmd;

	raw_init(&cmd, RDMA_DM_OBJECT_DMABUF, RDMA_DM_METHOD_DMABUF_ALLOC);
	raw_add(&cmd, RDMA_DM_ATTR_ALLOC_DMABUF_HANDLE, 0,
		UVERBS_ATTR_F_MANDATORY, 0);
	raw_add(&cmd, RDMA_DM_ATTR_ALLOC_DMABUF_PGOFF, sizeof(uint64_t),
		UVERBS_ATTR_F_MANDATORY, 0);
	return raw_exec(conf_fd, &cmd);
}

static int reg_dmabuf_mr(uint32_t pd, int fd)
{
	struct raw_ioctl cmd;
	uint32_t lkey, rkey;

	raw_init(&cmd, UVERBS_OBJECT_MR, UVERBS_METHOD_REG_DMABUF_MR);
	raw_add(&cmd, UVERBS_ATTR_REG_DMABUF_MR_HANDLE, 0,
		UVERBS_ATTR_F_MANDATORY, 0);
	raw_add(&cmd, UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, 0,
		UVERBS_ATTR_F_MANDATORY, pd);
	raw_add(&cmd, UVERBS_ATTR_REG_DMABUF_MR_OFFSET, sizeof(uint64_t),
		UVERBS_ATTR_F_MANDATORY, 0);
	raw_add(&cmd, UVERBS_ATTR_REG_DMABUF_MR_LENGTH, sizeof(uint64_t),
		UVERBS_ATTR_F_MANDATORY, 4096);
	raw_add(&cmd, UVERBS_ATTR_REG_DMABUF_MR_IOVA, sizeof(uint64_t),
		UVERBS_ATTR_F_MANDATORY, 0);
	raw_add(&cmd, UVERBS_ATTR_REG_DMABUF_MR_FD, sizeof(uint32_t),
		UVERBS_ATTR_F_MANDATORY, (uint32_t)fd);
	raw_add(&cmd, UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, sizeof(uint32_t),
		UVERBS_ATTR_F_MANDATORY, IB_UVERBS_ACCESS_LOCAL_WRITE);
	raw_add(&cmd, UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, sizeof(lkey),
		UVERBS_ATTR_F_MANDATORY, (uintptr_t)&lkey);
	raw_add(&cmd, UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, sizeof(rkey),
		UVERBS_ATTR_F_MANDATORY, (uintptr_t)&rkey);
	return raw_exec(conf_fd, &cmd);
}

/* A one-page dma-buf from /dev/udmabuf (6.12 has it built in); -errno. */
int conf_udmabuf_create(void)
{
	struct udmabuf_create create = {.size = 4096};
	int dev, mfd, fd = -ENOENT;

	dev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
	if (dev < 0)
		return -errno;
	mfd = memfd_create("conf-udmabuf", MFD_ALLOW_SEALING | MFD_CLOEXEC);
	if (mfd < 0) {
		fd = -errno;
		goto out_dev;
	}
	if (ftruncate(mfd, 4096) || fcntl(mfd, F_ADD_SEALS, F_SEAL_SHRINK)) {
		fd = -errno;
		goto out_mfd;
	}
	create.memfd = mfd;
	create.flags = UDMABUF_FLAGS_CLOEXEC;
	fd = ioctl(dev, UDMABUF_CREATE, &create);
	if (fd < 0)
		fd = -errno;
out_mfd:
	close(mfd);
out_dev:
	close(dev);
	return fd;
}

static void check_dmabuf_mr(void)
{
	const char *got;
	uint32_t pd;
	int buf;

	if (raw_alloc_pd(conf_fd, &pd)) {
		conf_expect("objects.alloc_pd", 0, errno);
		return;
	}
	conf_expect("mr.reg_dmabuf_mr.fd_minus_1", EOPNOTSUPP,
		    reg_dmabuf_mr(pd, -1));
	buf = conf_udmabuf_create();
	conf_expect_kv("udmabuf.create", ENOENT, 0, buf < 0 ? -buf : 0);
	/* 6.1 has no /dev/udmabuf, so the row only has an answer on 6.12. */
	got = "no-udmabuf";
	if (buf >= 0) {
		got = conf_err(reg_dmabuf_mr(pd, buf));
		close(buf);
	}
	conf_row("kver", "mr.reg_dmabuf_mr.udmabuf_fd",
		 conf_kernel_at_least(6, 12) ? "EOPNOTSUPP" : "no-udmabuf",
		 got);
	raw_destroy_pd(conf_fd, pd);
}

/* write(REG_MR) of one page with access flags acc; on success deregistered. */
static int reg_mr_access(uint32_t pd, uint32_t acc)
{
	static uint8_t page[4096] __attribute__((aligned(4096)));
	struct ib_uverbs_reg_mr_resp r = {};
	struct ib_uverbs_reg_mr cmd = {
		.response = (uintptr_t)&r,
		.start = (uintptr_t)page,
		.length = sizeof(page),
		.hca_va = (uintptr_t)page,
		.pd_handle = pd,
		.access_flags = acc,
	};
	int err = raw_write(conf_fd, IB_USER_VERBS_CMD_REG_MR, &cmd,
			    sizeof(cmd), sizeof(r));

	if (!err)
		raw_write(conf_fd, IB_USER_VERBS_CMD_DEREG_MR, &r.mr_handle,
			  sizeof(r.mr_handle), 0);
	return err;
}

/* rxe has no ODP on 6.1 or 6.12: ib_check_mr_access refuses ON_DEMAND,
 * with EINVAL before 6.12 and EOPNOTSUPP since. */
static void check_odp_mr(void)
{
	uint32_t pd;

	if (raw_alloc_pd(conf_fd, &pd)) {
		conf_expect("objects.alloc_pd", 0, errno);
		return;
	}
	conf_expect_kmod("mr.reg_mr.on_demand", EINVAL, EOPNOTSUPP,
			 reg_mr_access(pd, IB_UVERBS_ACCESS_LOCAL_WRITE |
						   IB_UVERBS_ACCESS_ON_DEMAND));
	/* the same page without ON_DEMAND registers */
	conf_expect("mr.reg_mr.plain", 0,
		    reg_mr_access(pd, IB_UVERBS_ACCESS_LOCAL_WRITE));
	raw_destroy_pd(conf_fd, pd);
}

static int method_probe(uint16_t object, uint16_t method)
{
	struct raw_ioctl cmd;

	raw_init(&cmd, object, method);
	return raw_exec(conf_fd, &cmd);
}

void check_objects(void)
{
	conf_print_header("device memory, dma-buf and newer ids");
	/* rxe has no DM ops, so the kernel hides the whole DM object. */
	conf_expect("dm.alloc.rxe", EPROTONOSUPPORT, dm_alloc());
	conf_expect("dmabuf.alloc.object18", EPROTONOSUPPORT, dmabuf_alloc());
	check_dmabuf_mr();
	check_odp_mr();
	/* Methods and objects added after 6.1: probed with no attributes. */
	conf_expect("probe.mr.reg_mr_method5", EPROTONOSUPPORT,
		    method_probe(UVERBS_OBJECT_MR, RDMA_DM_METHOD_REG_MR));
	conf_expect("probe.device.query_port_speed_method7", EPROTONOSUPPORT,
		    method_probe(UVERBS_OBJECT_DEVICE,
				 RDMA_DM_METHOD_QUERY_PORT_SPEED));
	conf_expect("probe.object17_dmah.alloc", EPROTONOSUPPORT,
		    method_probe(RDMA_DM_OBJECT_DMAH, 0));
	conf_expect(
		"probe.device.info_handles_no_attrs", EINVAL,
		method_probe(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES));
}
