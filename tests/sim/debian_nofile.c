// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Every verb with the program's descriptor table full (RLIMIT_NOFILE
 * reached). The kernel's own resources never count against the program's
 * limit: a verb that makes no fd for the caller works, one that does
 * (open a device, a completion channel, a dma-buf export) fails with
 * EMFILE, as open() would. On Debian's libraries and on ours
 * (LD_LIBRARY_PATH), mlx5: PD, MR, DM (whose pages the provider maps at
 * alloc) with its bytes, a dma-buf MR of an export made before, CQs (one
 * on a channel made before), an RC QP to RTS and an RDMA WRITE through
 * it, and every destroy. Fds are counted before and after.
 * The table is full at a soft limit of 256 the program set after start
 * (below the numbers rdma-sim keeps its own fds at), or with --at-limit at
 * the limit it was started with.
 * Usage: debian_nofile [--at-limit] (built against Debian's libibverbs)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <infiniband/verbs.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "fds.h"
#include "judge.h"
#include "qp_link.h"

#define LOWERED 256 /* the soft limit a program lowered to */
#define DM_LEN	4096
#define BUF_LEN 4096
#define WR_LEN	512

static int *fillers;
static int nfill;

/* Open /dev/null until the table is full (at most max fds); errno. */
static int fill(rlim_t max)
{
	int fd;

	fillers = calloc(max, sizeof(*fillers));
	if (!fillers)
		return ENOMEM;
	while ((fd = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0) {
		if ((rlim_t)nfill == max) {
			close(fd);
			return 0; /* never full: the check below fails */
		}
		fillers[nfill++] = fd;
	}
	return errno;
}

static void unfill(void)
{
	while (nfill)
		close(fillers[--nfill]);
	free(fillers);
}

static struct ibv_device *find_dev(struct ibv_device **list, int n)
{
	int i;

	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), "mlx5_0"))
			return list[i];
	return NULL;
}

/* ibv_dm_export_dmabuf_fd where the library has it (not Debian's 44). */
typedef int (*export_fn)(struct ibv_dm *dm);

static void rdma_write_self(struct ibv_pd *pd, struct ibv_cq *cq, uint16_t lid,
			    struct ibv_mr *mr, uint8_t *buf)
{
	struct ibv_sge sge = {(uintptr_t)buf, WR_LEN, mr->lkey};
	struct ibv_send_wr wr = {.sg_list = &sge,
				 .num_sge = 1,
				 .opcode = IBV_WR_RDMA_WRITE,
				 .send_flags = IBV_SEND_SIGNALED,
				 .wr.rdma = {(uintptr_t)buf + WR_LEN,
					     mr->rkey}},
			   *bad;
	struct ibv_qp *qp = qp_link_rc_qp(pd, cq, cq, 4);
	struct qp_link l;
	struct ibv_wc wc;
	int i, n = 0, ret;

	CHECK(qp, "create_qp at a full table: %s", strerror(errno));
	if (!qp)
		return;
	l = qp_link_default(qp->qp_num);
	l.dlid = lid;
	ret = qp_link_up(qp, &l);
	CHECK(!ret, "QP to RTS at a full table: %s", strerror(ret));
	for (i = 0; i < WR_LEN; i++)
		buf[i] = (uint8_t)(i * 5 + 3);
	memset(buf + WR_LEN, 0, WR_LEN);
	CHECK(!ret && !ibv_post_send(qp, &wr, &bad), "post_send");
	for (i = 0; !ret && i < 10000000 && !n; i++)
		n = ibv_poll_cq(cq, 1, &wc);
	CHECK(n == 1 && wc.status == IBV_WC_SUCCESS, "poll %d status %d", n,
	      n == 1 ? (int)wc.status : -1);
	CHECK(!memcmp(buf, buf + WR_LEN, WR_LEN), "written bytes differ");
	CHECK(!ibv_destroy_qp(qp), "destroy_qp");
}

int main(int argc, char **argv)
{
	int at_limit = argc > 1 && !strcmp(argv[1], "--at-limit");
	export_fn export =
		(export_fn)dlsym(RTLD_DEFAULT, "ibv_dm_export_dmabuf_fd");
	struct ibv_alloc_dm_attr da = {.length = DM_LEN};
	uint8_t *buf = aligned_alloc(4096, BUF_LEN), in[64], out[64];
	struct ibv_dm *dm = NULL, *dm0 = NULL;
	struct ibv_comp_channel *ch, *ch2;
	struct ibv_mr *mr, *dmabuf_mr = NULL;
	struct ibv_cq *cq, *cq_ch;
	struct ibv_context *ctx, *ctx2;
	struct ibv_device **list;
	struct ibv_port_attr pa;
	struct rlimit rl, low;
	struct ibv_pd *pd;
	int n, before, err, dmabuf = -1;
	unsigned int i;

	before = count_fds();
	list = ibv_get_device_list(&n);
	ctx = find_dev(list, n) ? ibv_open_device(find_dev(list, n)) : NULL;
	CHECK(ctx && !ibv_query_port(ctx, 1, &pa), "open mlx5_0");
	ch = ctx ? ibv_create_comp_channel(ctx) : NULL;
	CHECK(ch && buf, "create_comp_channel: %s", strerror(errno));
	if (!ch || !buf)
		return 1;
	/* An export made while there was room, for the dma-buf MR later. */
	if (export) {
		dm0 = ibv_alloc_dm(ctx, &da);
		dmabuf = dm0 ? export(dm0) : -1;
		CHECK(dmabuf >= 0, "export before the table is full: %s",
		      strerror(errno));
	} else {
		printf("debian_nofile: this libibverbs has no "
		       "ibv_dm_export_dmabuf_fd: no export or dma-buf MR\n");
	}

	CHECK(!getrlimit(RLIMIT_NOFILE, &rl), "getrlimit");
	low = rl;
	if (!at_limit) {
		low.rlim_cur = LOWERED;
		CHECK(!setrlimit(RLIMIT_NOFILE, &low), "setrlimit %d", LOWERED);
	}
	err = fill(low.rlim_cur);
	CHECK(err == EMFILE, "filling the table ended with %s", strerror(err));
	printf("debian_nofile: table full with %d more fds\n", nfill);

	/* Verbs that make an fd for the caller: EMFILE, as open() says. */
	errno = 0;
	ctx2 = ibv_open_device(find_dev(list, n));
	CHECK(!ctx2 && errno == EMFILE, "open_device: %p errno %s",
	      (void *)ctx2, strerror(errno));
	errno = 0;
	ch2 = ibv_create_comp_channel(ctx);
	CHECK(!ch2 && errno == EMFILE, "create_comp_channel: %p errno %s",
	      (void *)ch2, strerror(errno));
	if (export && dm0) {
		errno = 0;
		CHECK(export(dm0) < 0 && errno == EMFILE,
		      "export at a full table: errno %s", strerror(errno));
	}

	/* Verbs that make none: they work. */
	pd = ibv_alloc_pd(ctx);
	CHECK(pd, "alloc_pd: %s", strerror(errno));
	mr = pd ? ibv_reg_mr(pd, buf, BUF_LEN,
			     IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE)
		: NULL;
	CHECK(mr, "reg_mr: %s", strerror(errno));
	dm = ibv_alloc_dm(ctx, &da);
	CHECK(dm, "alloc_dm: %s", strerror(errno));
	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i ^ 0x5a);
	CHECK(dm && !ibv_memcpy_to_dm(dm, 128, in, sizeof(in)) &&
		      !ibv_memcpy_from_dm(out, dm, 128, sizeof(out)) &&
		      !memcmp(in, out, sizeof(in)),
	      "DM bytes read back");
	if (pd && dmabuf >= 0) {
		dmabuf_mr = ibv_reg_dmabuf_mr(pd, 0, DM_LEN, 0, dmabuf,
					      IBV_ACCESS_LOCAL_WRITE);
		CHECK(dmabuf_mr, "reg_dmabuf_mr: %s", strerror(errno));
	}
	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	cq_ch = ibv_create_cq(ctx, 16, NULL, ch, 0);
	CHECK(cq && cq_ch, "create_cq: %s", strerror(errno));
	if (cq_ch)
		CHECK(!ibv_req_notify_cq(cq_ch, 0), "req_notify_cq");
	if (pd && mr && cq)
		rdma_write_self(pd, cq, pa.lid, mr, buf);
	if (dmabuf_mr)
		CHECK(!ibv_dereg_mr(dmabuf_mr), "dereg dmabuf_mr");
	if (cq_ch)
		CHECK(!ibv_destroy_cq(cq_ch), "destroy_cq on the channel");
	if (cq)
		CHECK(!ibv_destroy_cq(cq), "destroy_cq");
	if (dm)
		CHECK(!ibv_free_dm(dm), "free_dm");
	if (mr)
		CHECK(!ibv_dereg_mr(mr), "dereg_mr");
	if (pd)
		CHECK(!ibv_dealloc_pd(pd), "dealloc_pd");

	unfill();
	CHECK(!setrlimit(RLIMIT_NOFILE, &rl), "restore the limit");
	if (dmabuf >= 0)
		close(dmabuf);
	if (dm0)
		CHECK(!ibv_free_dm(dm0), "free_dm of the exported DM");
	CHECK(!ibv_destroy_comp_channel(ch), "destroy_comp_channel");
	CHECK(!ibv_close_device(ctx), "close_device");
	ibv_free_device_list(list);
	free(buf);
	CHECK(count_fds() == before, "fds: %d before, %d after", before,
	      count_fds());
	fprintf(stderr, "debian_nofile: %d failure(s)\n", failures);
	return failures ? 1 : 0;
}
