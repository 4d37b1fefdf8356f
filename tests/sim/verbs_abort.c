// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A create that fails at its very end leaves nothing behind. Run as
 *   rdma-sim --fail KIND:1:EIO:commit -- sim_verbs --abort KIND
 * the first create of KIND runs its handler to success, then the
 * framework aborts its new object (sim/core/obj.h). Counted after it: no
 * handle (INFO_HANDLES; the next create gets the lowest free one), no fd
 * (the next one gets the lowest free number), no mapping, nothing held
 * (the objects it used destroy without EBUSY), and the device resources
 * it took (MEMIC pages, an XRC domain, a UAR page) are free again.
 */
#include "verbs.h"
#include "fds.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#define ALL_MEMIC 131072 /* the default --dm-size */

/* What a case needs before its create (made by other kinds). */
enum {
	NEED_PD = 1,
	NEED_CQ = 2,
	NEED_XRCD = 4,
	NEED_DM = 8,
	NEED_TGT = 16,
	NEED_DYN_UAR = 32, /* a context with dynamic UARs */
	/* the process's fabric ring, which its first QP or XRC SRQ maps for
	 * good */
	NEED_RING = 64,
};

struct env {
	int fd, file, dfd;
	uint32_t pd, cq, xrcd, dm, tgt, tgt_qpn;
	uint32_t nobjs; /* handles taken so far, densely from 0 */
	uint16_t dm_idx;
	char path[32];
};

struct abort_case {
	const char *kind;
	uint16_t obj;	   /* its uverbs object type; 0: an fd object */
	unsigned int need; /* NEED_* */
	/* one create: 0 or the errno; *out: its handle or fd */
	int (*create)(struct env *e, uint32_t *out);
	/* destroy what a successful create made: 0 or the errno */
	int (*destroy)(struct env *e, uint32_t h);
	/* the device resource it took is free again (NULL: none) */
	void (*released)(struct env *e);
};

static int c_pd(struct env *e, uint32_t *h)
{
	return raw_alloc_pd(e->fd, h);
}

static int d_pd(struct env *e, uint32_t h)
{
	return raw_destroy_pd(e->fd, h);
}

static uint8_t mr_buf[8192] __attribute__((aligned(4096)));

static int c_mr(struct env *e, uint32_t *h)
{
	return raw_reg_mr(e->fd, e->pd, mr_buf, 4096, h);
}

static int d_mr(struct env *e, uint32_t h)
{
	return raw_destroy(e->fd, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY,
			   h);
}

static int c_dmabuf_mr(struct env *e, uint32_t *h)
{
	return raw_reg_dmabuf_mr(e->fd, e->pd, e->dfd, 0, 4096, h);
}

static int c_dm_mr(struct env *e, uint32_t *h)
{
	return raw_reg_dm_mr(
		e->fd, e->pd, e->dm, 0, 4096,
		IB_UVERBS_ACCESS_ZERO_BASED | IB_UVERBS_ACCESS_LOCAL_WRITE, h);
}

static int c_mw(struct env *e, uint32_t *h)
{
	struct ib_uverbs_alloc_mw_resp r = {};
	struct ib_uverbs_alloc_mw c = {
		.response = (uintptr_t)&r,
		.pd_handle = e->pd,
		.mw_type = 2,
	};
	int ret = raw_write(e->fd, IB_USER_VERBS_CMD_ALLOC_MW, &c, sizeof(c),
			    sizeof(r));

	*h = r.mw_handle;
	return ret;
}

static int d_mw(struct env *e, uint32_t h)
{
	return raw_destroy(e->fd, UVERBS_OBJECT_MW, UVERBS_METHOD_MW_DESTROY,
			   h);
}

static int c_cq(struct env *e, uint32_t *h)
{
	return v_create_cq(e->fd, 16, 0, -1, h, NULL);
}

static int c_cq_ioctl(struct env *e, uint32_t *h)
{
	return v_create_cq_ioctl(e->fd, 16, 0, -1, -1, 0, h);
}

static int c_cq_ex(struct env *e, uint32_t *h)
{
	struct ib_uverbs_ex_create_cq_resp r = {};
	struct ib_uverbs_ex_create_cq c = {.cqe = 16, .comp_channel = -1};
	struct v_udata u;
	int ret;

	v_cq_udata(&u, c.cqe);
	ret = v_write_ex_udata(e->fd, IB_USER_VERBS_EX_CMD_CREATE_CQ, &c,
			       sizeof(c), &r, sizeof(r), &u);
	*h = r.base.cq_handle;
	return ret;
}

static int d_cq(struct env *e, uint32_t h)
{
	return raw_destroy_cq(e->fd, h, NULL);
}

static int c_qp(struct env *e, uint32_t *h)
{
	struct v_qp_req r;

	v_qp_req_init(&r, e->pd, e->cq, IB_UVERBS_QPT_RC);
	return v_create_qp(e->fd, &r, h, NULL);
}

static int c_qp_ioctl(struct env *e, uint32_t *h)
{
	struct v_qp_req r;

	v_qp_req_init(&r, e->pd, e->cq, IB_UVERBS_QPT_RC);
	return v_create_qp_ioctl(e->fd, &r, 0, h, NULL);
}

static int c_qp_ex(struct env *e, uint32_t *h)
{
	struct ib_uverbs_ex_create_qp_resp r = {};
	struct ib_uverbs_ex_create_qp c = {
		.pd_handle = e->pd,
		.send_cq_handle = e->cq,
		.recv_cq_handle = e->cq,
		.max_send_wr = 8,
		.max_recv_wr = 8,
		.max_send_sge = 1,
		.max_recv_sge = 1,
		.qp_type = IB_UVERBS_QPT_RC,
	};
	struct v_udata u;
	int ret;

	v_qp_udata(&u, c.max_recv_wr, 1);
	ret = v_write_ex_udata(e->fd, IB_USER_VERBS_EX_CMD_CREATE_QP, &c,
			       sizeof(c), &r, sizeof(r), &u);
	*h = r.base.qp_handle;
	return ret;
}

static int c_open_qp(struct env *e, uint32_t *h)
{
	return v_open_qp(e->fd, e->xrcd, e->tgt_qpn, IB_UVERBS_QPT_XRC_TGT, h);
}

static int d_qp(struct env *e, uint32_t h)
{
	return raw_destroy_qp(e->fd, h, NULL);
}

static int c_srq(struct env *e, uint32_t *h)
{
	return v_create_srq(e->fd, e->pd, 16, 1, h);
}

static int c_xsrq(struct env *e, uint32_t *h)
{
	struct ib_uverbs_create_srq_resp r = {};
	struct ib_uverbs_create_xsrq c = {
		.srq_type = IB_UVERBS_SRQT_XRC,
		.pd_handle = e->pd,
		.max_wr = 16,
		.max_sge = 1,
		.xrcd_handle = e->xrcd,
		.cq_handle = e->cq,
	};
	struct v_udata u;
	int ret;

	v_srq_udata(&u, 16, 1);
	ret = v_write_udata(e->fd, IB_USER_VERBS_CMD_CREATE_XSRQ, &c, sizeof(c),
			    &r, sizeof(r), &u);
	*h = r.srq_handle;
	return ret;
}

static int d_srq(struct env *e, uint32_t h)
{
	return raw_destroy_srq(e->fd, h);
}

static int c_ah(struct env *e, uint32_t *h)
{
	uint8_t r[sizeof(struct ib_uverbs_create_ah_resp) + 64] = {};
	struct ib_uverbs_create_ah_resp core;
	struct ib_uverbs_create_ah c = {
		.response = (uintptr_t)r,
		.pd_handle = e->pd,
		.attr = {.dlid = 1, .port_num = 1},
	};
	int ret = raw_write(e->fd, IB_USER_VERBS_CMD_CREATE_AH, &c, sizeof(c),
			    sizeof(core));

	memcpy(&core, r, sizeof(core));
	*h = core.ah_handle;
	return ret;
}

static int d_ah(struct env *e, uint32_t h)
{
	return raw_destroy(e->fd, UVERBS_OBJECT_AH, UVERBS_METHOD_AH_DESTROY,
			   h);
}

static int c_xrcd(struct env *e, uint32_t *h)
{
	return v_open_xrcd(e->fd, e->file, O_CREAT, h);
}

static int d_xrcd(struct env *e, uint32_t h)
{
	return raw_destroy(e->fd, UVERBS_OBJECT_XRCD,
			   UVERBS_METHOD_XRCD_DESTROY, h);
}

/* The file's domain went with the aborted handle. */
static void xrcd_released(struct env *e)
{
	uint32_t x;

	EXPECT_ERR(v_open_xrcd(e->fd, e->file, 0, &x), EAGAIN);
}

static int c_dm(struct env *e, uint32_t *h)
{
	uint16_t idx;

	return raw_dm_alloc(e->fd, ALL_MEMIC, 0, h, &idx);
}

static int d_dm(struct env *e, uint32_t h)
{
	return raw_destroy(e->fd, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE, h);
}

/* All of the MEMIC the aborted DM had is free: the next takes it all. */
static void memic_released(struct env *e)
{
	uint32_t h;
	uint16_t idx;

	EXPECT_ERR(raw_dm_alloc(e->fd, ALL_MEMIC, 0, &h, &idx), 0);
	EXPECT_ERR(d_dm(e, h), 0);
}

static uint64_t uar_off;

static int c_uar(struct env *e, uint32_t *h)
{
	return raw_uar_alloc(e->fd, MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC, h,
			     &uar_off);
}

static int d_uar(struct env *e, uint32_t h)
{
	return raw_destroy_attr(e->fd, MLX5_IB_OBJECT_UAR,
				MLX5_IB_METHOD_UAR_OBJ_DESTROY,
				MLX5_IB_ATTR_UAR_OBJ_DESTROY_HANDLE, h);
}

/* The aborted UAR's mmap offset was handed back: the next gets it. */
static void uar_released(struct env *e)
{
	uint64_t failed = uar_off;
	uint32_t h;

	EXPECT_ERR(c_uar(e, &h), 0);
	EXPECT(uar_off == failed, "UAR offset %#llx, the aborted one %#llx",
	       (unsigned long long)uar_off, (unsigned long long)failed);
	EXPECT_ERR(d_uar(e, h), 0);
}

static int c_dmah(struct env *e, uint32_t *h)
{
	struct raw_ioctl c;

	raw_init(&c, RDMA_DM_OBJECT_DMAH, RDMA_DM_METHOD_DMAH_ALLOC);
	raw_attr(&c, RDMA_DM_ATTR_ALLOC_DMAH_HANDLE, 0, 0);
	raw_attr(&c, RDMA_DM_ATTR_ALLOC_DMAH_PH, 1, 0);
	return raw_call_new(e->fd, &c, h);
}

static int d_dmah(struct env *e, uint32_t h)
{
	return raw_destroy(e->fd, RDMA_DM_OBJECT_DMAH, RDMA_DM_METHOD_DMAH_FREE,
			   h);
}

static int c_channel(struct env *e, uint32_t *fd)
{
	int ch = -1, ret = v_create_channel(e->fd, &ch);

	*fd = (uint32_t)ch;
	return ret;
}

static int c_async(struct env *e, uint32_t *fd)
{
	struct raw_ioctl c;
	int ret;

	raw_init(&c, UVERBS_OBJECT_ASYNC_EVENT,
		 UVERBS_METHOD_ASYNC_EVENT_ALLOC);
	raw_attr(&c, UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, 0, 0);
	ret = raw_call(e->fd, &c);
	*fd = (uint32_t)c.attrs[0].data;
	return ret;
}

static int c_dmabuf(struct env *e, uint32_t *fd)
{
	int dfd = -1, ret = raw_export(e->fd, raw_dm_offset(e->dm_idx), &dfd);

	*fd = (uint32_t)dfd;
	return ret;
}

static int d_fd(struct env *e, uint32_t fd)
{
	(void)e;
	return close((int)fd) ? errno : 0;
}

static const struct abort_case cases[] = {
	{"ALLOC_PD", UVERBS_OBJECT_PD, 0, c_pd, d_pd, NULL},
	{"REG_MR", UVERBS_OBJECT_MR, NEED_PD, c_mr, d_mr, NULL},
	{"REG_DMABUF_MR", UVERBS_OBJECT_MR, NEED_PD | NEED_DM, c_dmabuf_mr,
	 d_mr, NULL},
	{"DM_MR_REG", UVERBS_OBJECT_MR, NEED_PD | NEED_DM, c_dm_mr, d_mr, NULL},
	{"ALLOC_MW", UVERBS_OBJECT_MW, NEED_PD, c_mw, d_mw, NULL},
	{"CREATE_CQ", UVERBS_OBJECT_CQ, 0, c_cq, d_cq, NULL},
	{"CQ_CREATE", UVERBS_OBJECT_CQ, 0, c_cq_ioctl, d_cq, NULL},
	{"EX_CREATE_CQ", UVERBS_OBJECT_CQ, 0, c_cq_ex, d_cq, NULL},
	{"CREATE_QP", UVERBS_OBJECT_QP, NEED_PD | NEED_CQ | NEED_RING, c_qp,
	 d_qp, NULL},
	{"QP_CREATE", UVERBS_OBJECT_QP, NEED_PD | NEED_CQ | NEED_RING,
	 c_qp_ioctl, d_qp, NULL},
	{"EX_CREATE_QP", UVERBS_OBJECT_QP, NEED_PD | NEED_CQ | NEED_RING,
	 c_qp_ex, d_qp, NULL},
	{"OPEN_QP", UVERBS_OBJECT_QP, NEED_XRCD | NEED_TGT, c_open_qp, d_qp,
	 NULL},
	{"CREATE_SRQ", UVERBS_OBJECT_SRQ, NEED_PD, c_srq, d_srq, NULL},
	{"CREATE_XSRQ", UVERBS_OBJECT_SRQ,
	 NEED_PD | NEED_CQ | NEED_XRCD | NEED_RING, c_xsrq, d_srq, NULL},
	{"CREATE_AH", UVERBS_OBJECT_AH, NEED_PD, c_ah, d_ah, NULL},
	{"OPEN_XRCD", UVERBS_OBJECT_XRCD, 0, c_xrcd, d_xrcd, xrcd_released},
	{"DM_ALLOC", UVERBS_OBJECT_DM, 0, c_dm, d_dm, memic_released},
	{"UAR_OBJ_ALLOC", MLX5_IB_OBJECT_UAR, NEED_DYN_UAR, c_uar, d_uar,
	 uar_released},
	{"DMAH_ALLOC", RDMA_DM_OBJECT_DMAH, 0, c_dmah, d_dmah, NULL},
	{"CREATE_COMP_CHANNEL", 0, 0, c_channel, d_fd, NULL},
	{"ASYNC_EVENT_ALLOC", 0, 0, c_async, d_fd, NULL},
	{"DMABUF_ALLOC", 0, NEED_DM, c_dmabuf, d_fd, NULL},
};

/* One more object of the environment: its handle is the next one. */
static int took(struct env *e, int ret, const uint32_t *h, const char *what)
{
	EXPECT(!ret && *h == e->nobjs, "setup %s: %s, handle %u", what,
	       ret ? strerrorname_np(ret) : "0", *h);
	e->nobjs++;
	return ret;
}

/* A QP made and destroyed by the path the case does not test. */
static int warm_up(struct env *e, const char *kind)
{
	uint32_t h;
	int ret = strcmp(kind, "CREATE_QP") ? c_qp(e, &h) : c_qp_ioctl(e, &h);

	return ret ? ret : d_qp(e, h);
}

static int env_up(struct env *e, const char *kind, unsigned int need)
{
	int ret = 0;

	raw_driver_id = RDMA_DRIVER_MLX5;
	e->fd = (need & NEED_DYN_UAR) ? raw_open_ctx(NULL) : v_open();
	if (e->fd < 0)
		return -1;
	strcpy(e->path, "/tmp/sim-abort-XXXXXX");
	e->file = mkstemp(e->path);
	if (e->file < 0)
		return -1;
	if (need & NEED_PD) {
		ret = raw_alloc_pd(e->fd, &e->pd);
		ret = took(e, ret, &e->pd, "PD");
	}
	if (!ret && (need & NEED_CQ)) {
		ret = v_create_cq(e->fd, 16, 0, -1, &e->cq, NULL);
		ret = took(e, ret, &e->cq, "CQ");
	}
	if (!ret && (need & NEED_XRCD)) {
		ret = v_open_xrcd(e->fd, e->file, O_CREAT, &e->xrcd);
		ret = took(e, ret, &e->xrcd, "XRCD");
	}
	if (!ret && (need & NEED_TGT)) {
		ret = v_create_tgt(e->fd, e->xrcd, &e->tgt, &e->tgt_qpn);
		ret = took(e, ret, &e->tgt, "XRC_TGT QP");
	}
	if (!ret && (need & NEED_DM)) {
		ret = raw_dm_alloc(e->fd, 4096, 0, &e->dm, &e->dm_idx);
		ret = took(e, ret, &e->dm, "DM");
	}
	if (!ret && (need & NEED_RING))
		ret = warm_up(e, kind);
	if (!ret && (need & NEED_DM) && (need & NEED_PD))
		ret = raw_export(e->fd, raw_dm_offset(e->dm_idx), &e->dfd);
	return ret ? -1 : 0;
}

/* Everything the aborted create used is free to go: none says EBUSY. */
static void env_down(struct env *e, unsigned int need)
{
	if (e->dfd >= 0)
		close(e->dfd);
	if (need & NEED_DM)
		EXPECT_ERR(d_dm(e, e->dm), 0);
	if (need & NEED_TGT)
		EXPECT_ERR(d_qp(e, e->tgt), 0);
	if (need & NEED_XRCD)
		EXPECT_ERR(d_xrcd(e, e->xrcd), 0);
	if (need & NEED_CQ)
		EXPECT_ERR(d_cq(e, e->cq), 0);
	if (need & NEED_PD)
		EXPECT_ERR(d_pd(e, e->pd), 0);
	close(e->fd);
	close(e->file);
	unlink(e->path);
}

/* The lowest fd number free now (what the next new fd gets). */
static int lowest_free_fd(void)
{
	int fd = dup(0);

	if (fd >= 0)
		close(fd);
	return fd;
}

static void run_case(const struct abort_case *k)
{
	struct env e = {.fd = -1, .file = -1, .dfd = -1};
	int fds, maps, next_fd;
	uint32_t n = 0, h = ~0u;

	if (env_up(&e, k->kind, k->need)) {
		EXPECT(0, "%s: no environment", k->kind);
		return;
	}
	if (k->obj)
		n = v_count_handles(e.fd, k->obj);
	fds = count_fds();
	maps = count_maps();
	next_fd = lowest_free_fd();
	EXPECT_ERR(k->create(&e, &h), EIO);
	EXPECT(count_fds() == fds, "%s: %d fds, %d before", k->kind,
	       count_fds(), fds);
	EXPECT(count_maps() == maps, "%s: %d mappings, %d before", k->kind,
	       count_maps(), maps);
	if (k->obj)
		EXPECT(v_count_handles(e.fd, k->obj) == n,
		       "%s: %u handles, %u before", k->kind,
		       v_count_handles(e.fd, k->obj), n);
	if (k->released)
		k->released(&e);
	/* the next create succeeds with what the aborted one had */
	EXPECT_ERR(k->create(&e, &h), 0);
	if (k->obj)
		EXPECT(h == e.nobjs, "%s: handle %u, the lowest free is %u",
		       k->kind, h, e.nobjs);
	else
		EXPECT((int)h == next_fd, "%s: fd %d, the lowest free is %d",
		       k->kind, (int)h, next_fd);
	EXPECT_ERR(k->destroy(&e, h), 0);
	env_down(&e, k->need);
}

int v_check_abort(const char *kind)
{
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (!strcmp(cases[i].kind, kind)) {
			run_case(&cases[i]);
			return 0;
		}
	}
	fprintf(stderr, "sim_verbs --abort: no case for %s\n", kind);
	return -1;
}
