// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The HCA on the simulated world's dma-bufs, as Debian's libibverbs and
 * libmlx5 (rdma-core 44) drive it: RDMA WRITE into and READ out of a GPU
 * (amdgpu GEM) buffer and a DMA-buf heap buffer registered with
 * ibv_reg_dmabuf_mr, the bytes checked through the CPU's mappings; then
 * GPU-initiated networking: a WQE written into the QP's send queue and a
 * doorbell rung by the peer device through an exported UAR page, its
 * completion and bytes checked. Usage: debian_bufs
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>
#include <linux/dma-heap.h>
#include <libdrm/amdgpu_drm.h>
#include <libdrm/drm.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "fds.h"
#include "gem.h"
#include "judge.h"
#include "qp_link.h"
#include "raw_ioctl.h"
#include "rdma_sim_peer.h"

#define LEN 8192
#define ACC                                                                    \
	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |                    \
	 IBV_ACCESS_REMOTE_READ)

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cq;
static struct ibv_qp *qp;
static struct ibv_mr *host_mr;
static uint8_t *host;

static int setup(void)
{
	struct ibv_qp_init_attr ia = {
		.qp_type = IBV_QPT_RC,
		.cap = {.max_send_wr = 16,
			.max_recv_wr = 16,
			.max_send_sge = 1,
			.max_recv_sge = 1},
	};
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_port_attr pa;
	struct qp_link l;

	ctx = list && list[0] ? ibv_open_device(list[0]) : NULL;
	ibv_free_device_list(list);
	if (!ctx || ibv_query_port(ctx, 1, &pa))
		return -1;
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	host = aligned_alloc(4096, LEN);
	if (!pd || !cq || !host)
		return -1;
	host_mr = ibv_reg_mr(pd, host, LEN, ACC);
	ia.send_cq = ia.recv_cq = cq;
	qp = ibv_create_qp(pd, &ia);
	if (!host_mr || !qp)
		return -1;
	l = qp_link_default(qp->qp_num); /* a loopback RC QP */
	l.dlid = pa.lid;
	return qp_link_up(qp, &l);
}

static void teardown(void)
{
	ibv_destroy_qp(qp);
	ibv_dereg_mr(host_mr);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	free(host);
}

/* One signaled RDMA op of host[loff..] against the MR at iova raddr. */
static int rdma(enum ibv_wr_opcode op, size_t loff, uint64_t raddr,
		uint32_t rkey, uint32_t len)
{
	struct ibv_sge sge = {.addr = (uintptr_t)host + loff,
			      .length = len,
			      .lkey = host_mr->lkey};
	struct ibv_send_wr wr = {.sg_list = &sge,
				 .num_sge = 1,
				 .opcode = op,
				 .send_flags = IBV_SEND_SIGNALED,
				 .wr = {.rdma = {.remote_addr = raddr,
						 .rkey = rkey}}},
			   *bad;
	struct ibv_wc wc;
	int n, i;

	if (ibv_post_send(qp, &wr, &bad))
		return -1;
	for (i = 0, n = 0; i < 2000000 && !n; i++)
		n = ibv_poll_cq(cq, 1, &wc);
	return n == 1 ? (int)wc.status : -1;
}

/*
 * A device buffer: registered from its dma-buf fd at iova 0, mapped by
 * the CPU at cpu. WRITE host -> buffer, READ buffer -> host.
 */
static void check_traffic(const char *what, int dfd, uint8_t *cpu)
{
	struct ibv_mr *mr = ibv_reg_dmabuf_mr(pd, 0, LEN, 0, dfd, ACC);

	CHECK(mr, "%s: ibv_reg_dmabuf_mr: %s", what, strerror(errno));
	if (!mr || !cpu)
		return;
	memset(host, 'h', 4096);
	CHECK(rdma(IBV_WR_RDMA_WRITE, 0, 100, mr->rkey, 4096) == IBV_WC_SUCCESS,
	      "%s: RDMA WRITE", what);
	CHECK(cpu[99] == 0 && cpu[100] == 'h' && cpu[4195] == 'h' &&
		      cpu[4196] == 0,
	      "%s: the bytes written", what);
	memcpy(cpu + 4096, "from the device", 16);
	CHECK(rdma(IBV_WR_RDMA_READ, 4096, 4096, mr->rkey, 16) ==
			      IBV_WC_SUCCESS &&
		      !strcmp((char *)host + 4096, "from the device"),
	      "%s: RDMA READ", what);
	ibv_dereg_mr(mr);
}

/* pyverbs' DmaBuf allocation (VRAM with CPU access, or GTT write-combined):
 * a GEM object, its PRIME fd, the CPU's mapping through the node. */
static void check_gpu(const char *what, uint64_t domain, uint64_t flags)
{
	int fd = open(RENDER, O_RDWR | O_CLOEXEC), dfd = -1;
	uint32_t h = 0;
	uint8_t *cpu;

	CHECK(fd >= 0 && !gem_create(fd, LEN, domain, flags, &h) &&
		      !prime_export(fd, h, DRM_CLOEXEC | DRM_RDWR, &dfd),
	      "%s: a GEM buffer and its dma-buf", what);
	cpu = fd >= 0 ? gem_map(fd, h, LEN) : NULL;
	check_traffic(what, dfd, cpu);
	if (cpu)
		munmap(cpu, LEN);
	close(dfd);
	close(fd);
}

static void check_heap(void)
{
	struct dma_heap_allocation_data d = {.len = LEN,
					     .fd_flags = O_RDWR | O_CLOEXEC};
	int fd = open("/dev/dma_heap/system", O_RDWR | O_CLOEXEC);
	uint8_t *cpu = MAP_FAILED;

	CHECK(fd >= 0 && !ioctl(fd, DMA_HEAP_IOCTL_ALLOC, &d), "a heap buffer");
	if (d.fd)
		cpu = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED,
			   (int)d.fd, 0);
	check_traffic("heap", (int)d.fd, cpu == MAP_FAILED ? NULL : cpu);
	if (cpu != MAP_FAILED)
		munmap(cpu, LEN);
	if (d.fd)
		close((int)d.fd);
	close(fd);
}

/* A UAR page of ctx (UAR_OBJ_ALLOC on its cmd fd) exported as a dma-buf. */
static int uar_dmabuf(void)
{
	uint64_t off = 0, fd = 0;
	uint32_t len, page_id, h;
	struct raw_ioctl c;

	raw_driver_id = RDMA_DRIVER_MLX5;
	raw_init(&c, MLX5_IB_OBJECT_UAR, MLX5_IB_METHOD_UAR_OBJ_ALLOC);
	raw_attr(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE, 0, 0);
	raw_attr(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE, 8,
		 MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC);
	raw_ptr(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET, &off);
	raw_ptr(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH, &len);
	raw_ptr(&c, MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID, &page_id);
	if (raw_call_new(ctx->cmd_fd, &c, &h))
		return -1;
	raw_init(&c, 18 /* UVERBS_OBJECT_DMABUF */, 0 /* DMABUF_ALLOC */);
	raw_attr(&c, 0 /* HANDLE */, 0, 0);
	raw_attr(&c, 1 /* PGOFF */, 8, off);
	if (raw_call(ctx->cmd_fd, &c))
		return -1;
	fd = c.hdr.attrs[0].data;
	return (int)fd;
}

/*
 * The GPU posts: an RDMA WRITE WQE built in the send queue, the doorbell
 * record advanced, the doorbell register (ctrl segment's first 8 bytes at
 * 0x800 of a UAR page) written by the peer device through the dma-buf.
 */
static void check_doorbell(void)
{
	struct mlx5dv_qp dqp;
	struct mlx5dv_obj o = {.qp = {.in = qp, .out = &dqp}};
	struct mlx5_wqe_ctrl_seg *ctrl;
	struct mlx5_wqe_raddr_seg *raddr;
	struct rdma_sim_peer *peer;
	struct ibv_wc wc = {};
	uint64_t db;
	int dfd = uar_dmabuf(), i, n;
	uint16_t pi;

	CHECK(dfd >= 0, "UAR export: %s", strerror(errno));
	peer = dfd >= 0 ? rdma_sim_peer_import(dfd) : NULL;
	CHECK(peer, "peer import of the UAR page");
	if (!peer || mlx5dv_init_obj(&o, MLX5DV_OBJ_QP)) {
		close(dfd);
		return;
	}
	/* the SQ is empty after the traffic above: take the next slot */
	pi = (uint16_t)be32toh(dqp.dbrec[MLX5_SND_DBR]);
	ctrl = (void *)((uint8_t *)dqp.sq.buf +
			(pi & (dqp.sq.wqe_cnt - 1)) * dqp.sq.stride);
	memset(ctrl, 0, 64);
	mlx5dv_set_ctrl_seg(ctrl, pi, MLX5_OPCODE_RDMA_WRITE, 0, qp->qp_num,
			    MLX5_WQE_CTRL_CQ_UPDATE, 3, 0, 0);
	raddr = (void *)(ctrl + 1);
	raddr->raddr = htobe64((uintptr_t)host + 6000);
	raddr->rkey = htobe32(host_mr->rkey);
	mlx5dv_set_data_seg((void *)(raddr + 1), 32, host_mr->lkey,
			    (uintptr_t)host);
	memset(host, 'g', 32);
	memset(host + 6000, 0, 32);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	dqp.dbrec[MLX5_SND_DBR] = htobe32((uint32_t)(pi + 1) & 0xffff);
	memcpy(&db, ctrl, sizeof(db));
	CHECK(!rdma_sim_peer_write(peer, 0x800, &db, sizeof(db)),
	      "the peer's doorbell store: %s", strerror(errno));
	/* the HCA executes it: completion, then the bytes */
	for (i = 0, n = 0; i < 5000 && !n; i++) {
		n = ibv_poll_cq(cq, 1, &wc);
		if (!n)
			usleep(1000);
	}
	CHECK(n == 1 && wc.status == IBV_WC_SUCCESS &&
		      wc.opcode == IBV_WC_RDMA_WRITE,
	      "completion of the GPU-posted WQE: %d %d", n, (int)wc.status);
	CHECK(host[6000] == 'g' && host[6031] == 'g' && host[6032] == 0,
	      "the GPU-posted WRITE moved the bytes");
	rdma_sim_peer_release(peer);
	close(dfd);
}

int main(void)
{
	int fds = count_fds(), maps;

	if (setup()) {
		fprintf(stderr, "debian_bufs: set-up failed: %s\n",
			strerror(errno));
		return 1;
	}
	/* after the first QP: the engine's thread and ring stay mapped */
	maps = count_maps();
	check_gpu("VRAM", AMDGPU_GEM_DOMAIN_VRAM,
		  AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED);
	check_gpu("GTT", AMDGPU_GEM_DOMAIN_GTT, AMDGPU_GEM_CREATE_CPU_GTT_USWC);
	check_heap();
	check_doorbell();
	CHECK(count_maps() == maps, "mappings %d -> %d", maps, count_maps());
	teardown();
	CHECK(count_fds() == fds, "fds %d -> %d", fds, count_fds());
	if (failures) {
		fprintf(stderr, "debian_bufs: %d failure(s)\n", failures);
		return 1;
	}
	printf("debian_bufs: all checks passed\n");
	return 0;
}
