// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The control-path scenario dm_fault_injection.py runs under
 * `rdma-sim --fail ...` (with --ctl): open a device, PD, MR, completion
 * channel, CQ on it, SRQ, RC QP on the SRQ brought to RTS, an extended CQ
 * and an extended QP on it, AH, and where the device has device memory a
 * DM and its MR; then every destroy in reverse and the close. On mlx5, or
 * rxe (RoCE: addressed by GID 0). The first verb that fails is reported
 * as
 *   RESULT <verb> <errno>
 * and everything made so far is undone. A destroy that fails must leave
 * its object in place: a second destroy must work. Finally the process
 * must hold exactly the fds and mappings it had before, and (ASan build)
 * LeakSanitizer finds no memory left behind.
 *
 * Exit: 0 all verbs passed, 3 one verb failed cleanly, 1 a check failed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dm_util.h"
#include "qp_link.h"

#define BUF 4096

struct objs {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_comp_channel *ch;
	struct ibv_cq *cq;
	struct ibv_srq *srq;
	struct ibv_qp *qp;
	struct ibv_cq_ex *cqx;
	struct ibv_qp *qpx;
	struct ibv_ah *ah;
	struct ibv_dm *dm;
	struct ibv_mr *dm_mr;
	void *buf;
};

static int result;

/*
 * Mappings of the simulated fabric's packet ring of this process (the
 * HCA's, made at the first QP and kept for the process's life): not the
 * program's, so not counted as its leak.
 */
static int fabric_maps(void)
{
	const char *dir = getenv("RDMA_SIM_DIR");
	char *maps = read_maps(), *p, ring[4200];
	int n = 0;

	if (!dir || !maps)
		goto out;
	snprintf(ring, sizeof(ring), " %s/r%d\n", dir, (int)getpid());
	for (p = maps; (p = strstr(p, ring)); p++)
		n++;
out:
	free(maps);
	return n;
}

static int program_maps(void)
{
	return count_maps() - fabric_maps();
}

static void report(const char *verb, int err)
{
	if (!result)
		printf("RESULT %s %d\n", verb, err);
	result = 3;
}

/* A create that returned NULL: report it, 1. */
static int failed(const void *obj, const char *verb)
{
	if (obj)
		return 0;
	report(verb, errno);
	return 1;
}

static int d_ah(void *o)
{
	return ibv_destroy_ah(o);
}

static int d_dm(void *o)
{
	return ibv_free_dm(o);
}

static int d_qp(void *o)
{
	return ibv_destroy_qp(o);
}

static int d_srq(void *o)
{
	return ibv_destroy_srq(o);
}

static int d_cq(void *o)
{
	return ibv_destroy_cq(o);
}

static int d_cqx(void *o)
{
	return ibv_destroy_cq(ibv_cq_ex_to_cq(o));
}

static int d_ch(void *o)
{
	return ibv_destroy_comp_channel(o);
}

static int d_mr(void *o)
{
	return ibv_dereg_mr(o);
}

static int d_pd(void *o)
{
	return ibv_dealloc_pd(o);
}

static int d_ctx(void *o)
{
	return ibv_close_device(o);
}

/* The extended CQ and QP, and the DM with its MR where there is MEMIC. */
static void build_ex(struct objs *o)
{
	struct ibv_cq_init_attr_ex ca = {.cqe = 16,
					 .wc_flags = IBV_WC_STANDARD_FLAGS};
	struct ibv_qp_init_attr_ex qa = {
		.qp_type = IBV_QPT_RC,
		.cap = {.max_send_wr = 8,
			.max_recv_wr = 8,
			.max_send_sge = 1,
			.max_recv_sge = 1},
		.comp_mask =
			IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.send_ops_flags =
			IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_RDMA_WRITE,
	};
	struct ibv_alloc_dm_attr da = {.length = 256};
	struct ibv_device_attr_ex dev = {};
	int err;

	o->cqx = ibv_create_cq_ex(o->ctx, &ca);
	if (failed(o->cqx, "ibv_create_cq_ex"))
		return;
	qa.pd = o->pd;
	qa.send_cq = qa.recv_cq = ibv_cq_ex_to_cq(o->cqx);
	o->qpx = ibv_create_qp_ex(o->ctx, &qa);
	if (failed(o->qpx, "ibv_create_qp_ex"))
		return;
	err = ibv_query_device_ex(o->ctx, NULL, &dev);
	if (err) {
		report("ibv_query_device_ex", err);
		return;
	}
	if (!dev.max_dm_size)
		return;
	o->dm = ibv_alloc_dm(o->ctx, &da);
	if (failed(o->dm, "ibv_alloc_dm"))
		return;
	o->dm_mr =
		ibv_reg_dm_mr(o->pd, o->dm, 0, da.length,
			      IBV_ACCESS_ZERO_BASED | IBV_ACCESS_LOCAL_WRITE);
	failed(o->dm_mr, "ibv_reg_dm_mr");
}

static void build(struct objs *o, struct ibv_device *dev)
{
	struct ibv_srq_init_attr sa = {.attr = {.max_wr = 8, .max_sge = 1}};
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = {.max_send_wr = 8, .max_send_sge = 1},
	};
	struct ibv_ah_attr aa = {.port_num = 1};
	struct ibv_port_attr pa;
	union ibv_gid gid;
	struct qp_link l;
	int err, roce;

	o->ctx = ibv_open_device(dev);
	if (failed(o->ctx, "ibv_open_device"))
		return;
	err = ibv_query_port(o->ctx, 1, &pa);
	if (err) {
		report("ibv_query_port", err);
		return;
	}
	roce = pa.link_layer == IBV_LINK_LAYER_ETHERNET;
	err = roce ? ibv_query_gid(o->ctx, 1, 0, &gid) : 0;
	if (err) {
		report("ibv_query_gid", errno);
		return;
	}
	o->pd = ibv_alloc_pd(o->ctx);
	if (failed(o->pd, "ibv_alloc_pd"))
		return;
	o->mr = ibv_reg_mr(o->pd, o->buf, BUF, IBV_ACCESS_LOCAL_WRITE);
	if (failed(o->mr, "ibv_reg_mr"))
		return;
	o->ch = ibv_create_comp_channel(o->ctx);
	if (failed(o->ch, "ibv_create_comp_channel"))
		return;
	o->cq = ibv_create_cq(o->ctx, 16, NULL, o->ch, 0);
	if (failed(o->cq, "ibv_create_cq"))
		return;
	o->srq = ibv_create_srq(o->pd, &sa);
	if (failed(o->srq, "ibv_create_srq"))
		return;
	qa.send_cq = qa.recv_cq = o->cq;
	qa.srq = o->srq;
	o->qp = ibv_create_qp(o->pd, &qa);
	if (failed(o->qp, "ibv_create_qp"))
		return;
	l = qp_link_default(o->qp->qp_num);
	l.dlid = pa.lid;
	if (roce)
		l.dgid = &gid;
	err = qp_link_up(o->qp, &l);
	if (err) {
		report("ibv_modify_qp", err);
		return;
	}
	aa.dlid = pa.lid;
	if (roce) {
		aa.is_global = 1;
		aa.grh.dgid = gid;
		aa.grh.hop_limit = 1;
	}
	o->ah = ibv_create_ah(o->pd, &aa);
	if (failed(o->ah, "ibv_create_ah"))
		return;
	build_ex(o);
}

/*
 * Every destroy, the reverse of build. A failure is reported, and then the
 * object must still be there for a second destroy: 1 if that one failed.
 */
static int teardown(struct objs *o)
{
	const struct {
		void *obj;
		const char *verb;
		int (*destroy)(void *obj);
	} steps[] = {
		{o->dm_mr, "ibv_dereg_mr", d_mr},
		{o->dm, "ibv_free_dm", d_dm},
		{o->qpx, "ibv_destroy_qp", d_qp},
		{o->cqx, "ibv_destroy_cq", d_cqx},
		{o->ah, "ibv_destroy_ah", d_ah},
		{o->qp, "ibv_destroy_qp", d_qp},
		{o->srq, "ibv_destroy_srq", d_srq},
		{o->cq, "ibv_destroy_cq", d_cq},
		{o->ch, "ibv_destroy_comp_channel", d_ch},
		{o->mr, "ibv_dereg_mr", d_mr},
		{o->pd, "ibv_dealloc_pd", d_pd},
		{o->ctx, "ibv_close_device", d_ctx},
	};
	unsigned int i;
	int err, bad = 0;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (!steps[i].obj)
			continue;
		err = steps[i].destroy(steps[i].obj);
		if (!err)
			continue;
		report(steps[i].verb, err);
		if (steps[i].destroy(steps[i].obj)) {
			fprintf(stderr, "FAIL: a second %s failed too\n",
				steps[i].verb);
			bad = 1;
		}
	}
	return bad;
}

int main(void)
{
	struct ibv_device **list;
	struct objs o = {0};
	int num, fds, maps, bad;
	char *before;

	list = ibv_get_device_list(&num);
	if (!list || !num) {
		fprintf(stderr, "FAIL: no device\n");
		return 1;
	}
	o.buf = calloc(1, BUF);
	if (!o.buf)
		return 1;
	fds = count_fds();
	maps = program_maps();
	before = read_maps();
	build(&o, list[0]);
	bad = teardown(&o);
	if (count_fds() != fds || program_maps() != maps) {
		fprintf(stderr, "FAIL: leaked: fds %d -> %d, maps %d -> %d\n",
			fds, count_fds(), maps, program_maps());
		print_new_maps(before);
		bad = 1;
	}
	free(before);
	free(o.buf);
	ibv_free_device_list(list);
	if (bad)
		return 1;
	if (!result)
		printf("RESULT none 0\n");
	return result;
}
