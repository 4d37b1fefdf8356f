// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A program that loads libibverbs as a plug-in would: dlopen(RTLD_LOCAL)
 * and every verb through a pointer from dlsym() of that handle, nothing
 * linked, nothing preloaded. Python extensions, JNI and plug-in loaders
 * reach the sim this way. Two RC QPs on mlx5_0 looped back: a SEND lands
 * in the posted receive, both completions carry the right status, opcode
 * and length, and the bytes are read back.
 * Usage: sim_dlopen_verbs PATH_TO_LIBIBVERBS_SO
 */
#include <dlfcn.h>
#include <infiniband/verbs.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "judge.h"

#define MSG	 200
#define LIMIT_NS 30000000000ull

/* The verbs this program calls, by their exported names. */
static struct {
	struct ibv_device **(*get_device_list)(int *n);
	void (*free_device_list)(struct ibv_device **l);
	const char *(*get_device_name)(struct ibv_device *d);
	struct ibv_context *(*open_device)(struct ibv_device *d);
	int (*close_device)(struct ibv_context *c);
	int (*query_port)(struct ibv_context *c, uint8_t port,
			  struct ibv_port_attr *a);
	struct ibv_pd *(*alloc_pd)(struct ibv_context *c);
	int (*dealloc_pd)(struct ibv_pd *pd);
	struct ibv_mr *(*reg_mr)(struct ibv_pd *pd, void *a, size_t len,
				 int access);
	int (*dereg_mr)(struct ibv_mr *mr);
	struct ibv_cq *(*create_cq)(struct ibv_context *c, int cqe, void *uctx,
				    struct ibv_comp_channel *ch, int vec);
	int (*destroy_cq)(struct ibv_cq *cq);
	struct ibv_qp *(*create_qp)(struct ibv_pd *pd,
				    struct ibv_qp_init_attr *a);
	int (*destroy_qp)(struct ibv_qp *qp);
	int (*modify_qp)(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask);
} v;

static const struct {
	const char *name;
	void **slot;
} syms[] = {
	{"ibv_get_device_list", (void **)&v.get_device_list},
	{"ibv_free_device_list", (void **)&v.free_device_list},
	{"ibv_get_device_name", (void **)&v.get_device_name},
	{"ibv_open_device", (void **)&v.open_device},
	{"ibv_close_device", (void **)&v.close_device},
	{"ibv_query_port", (void **)&v.query_port},
	{"ibv_alloc_pd", (void **)&v.alloc_pd},
	{"ibv_dealloc_pd", (void **)&v.dealloc_pd},
	{"ibv_reg_mr", (void **)&v.reg_mr},
	{"ibv_dereg_mr", (void **)&v.dereg_mr},
	{"ibv_create_cq", (void **)&v.create_cq},
	{"ibv_destroy_cq", (void **)&v.destroy_cq},
	{"ibv_create_qp", (void **)&v.create_qp},
	{"ibv_destroy_qp", (void **)&v.destroy_qp},
	{"ibv_modify_qp", (void **)&v.modify_qp},
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int connect_qp(struct ibv_qp *qp, uint32_t dest, uint16_t dlid)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE,
	};

	if (v.modify_qp(qp, &a,
			IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				IBV_QP_ACCESS_FLAGS))
		return -1;
	a = (struct ibv_qp_attr){
		.qp_state = IBV_QPS_RTR,
		.path_mtu = IBV_MTU_1024,
		.dest_qp_num = dest,
		.ah_attr = {.dlid = dlid, .port_num = 1},
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 12,
	};
	if (v.modify_qp(qp, &a,
			IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
				IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				IBV_QP_MAX_DEST_RD_ATOMIC |
				IBV_QP_MIN_RNR_TIMER))
		return -1;
	a = (struct ibv_qp_attr){
		.qp_state = IBV_QPS_RTS,
		.timeout = 14,
		.retry_cnt = 7,
		.rnr_retry = 7,
		.max_rd_atomic = 1,
	};
	return v.modify_qp(qp, &a,
			   IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
				   IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
				   IBV_QP_MAX_QP_RD_ATOMIC);
}

/* One completion from cq within LIMIT_NS: 1, or 0 on timeout. */
static int wait_wc(struct ibv_cq *cq, struct ibv_wc *wc)
{
	uint64_t end = now_ns() + LIMIT_NS;
	int n;

	while (!(n = cq->context->ops.poll_cq(cq, 1, wc)) && now_ns() < end)
		;
	return n == 1;
}

static void send_recv(struct ibv_context *ctx, uint16_t lid)
{
	static uint8_t buf[2 * MSG];
	struct ibv_qp_init_attr qa = {
		.cap = {.max_send_wr = 4, .max_recv_wr = 4,
			.max_send_sge = 1, .max_recv_sge = 1},
		.qp_type = IBV_QPT_RC,
	};
	struct ibv_sge ssge = {.addr = (uintptr_t)buf, .length = MSG};
	struct ibv_sge rsge = {.addr = (uintptr_t)buf + MSG, .length = MSG};
	struct ibv_send_wr swr = {.wr_id = 7, .sg_list = &ssge, .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED};
	struct ibv_recv_wr rwr = {.wr_id = 9, .sg_list = &rsge, .num_sge = 1};
	struct ibv_send_wr *sbad;
	struct ibv_recv_wr *rbad;
	struct ibv_qp *a = NULL, *b = NULL;
	struct ibv_cq *cq;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_wc wc;
	uint64_t t0;
	int i;

	pd = v.alloc_pd(ctx);
	mr = pd ? v.reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE) : NULL;
	cq = v.create_cq(ctx, 8, NULL, NULL, 0);
	CHECK(pd && mr && cq, "pd %p mr %p cq %p", (void *)pd, (void *)mr,
	      (void *)cq);
	if (!mr || !cq)
		goto out;
	qa.send_cq = qa.recv_cq = cq;
	a = v.create_qp(pd, &qa);
	b = v.create_qp(pd, &qa);
	CHECK(a && b, "create_qp");
	if (!a || !b)
		goto out;
	CHECK(!connect_qp(a, b->qp_num, lid) && !connect_qp(b, a->qp_num, lid),
	      "RESET->RTS");
	for (i = 0; i < MSG; i++)
		buf[i] = (uint8_t)(i * 3 + 1);
	memset(buf + MSG, 0, MSG);
	ssge.lkey = rsge.lkey = mr->lkey;
	t0 = now_ns();
	CHECK(!b->context->ops.post_recv(b, &rwr, &rbad), "post_recv");
	CHECK(!a->context->ops.post_send(a, &swr, &sbad), "post_send");
	for (i = 0; i < 2; i++) {
		CHECK(wait_wc(cq, &wc), "completion %d of 2", i);
		CHECK(wc.status == IBV_WC_SUCCESS, "wc status %d", wc.status);
		if (wc.qp_num == a->qp_num)
			CHECK(wc.wr_id == 7 && wc.opcode == IBV_WC_SEND,
			      "send wc id %llu opcode %d",
			      (unsigned long long)wc.wr_id, wc.opcode);
		else
			CHECK(wc.wr_id == 9 && wc.opcode == IBV_WC_RECV &&
				      wc.byte_len == MSG,
			      "recv wc id %llu opcode %d len %u",
			      (unsigned long long)wc.wr_id, wc.opcode,
			      wc.byte_len);
	}
	CHECK(!memcmp(buf, buf + MSG, MSG), "received bytes differ");
	printf("send/recv completed in %.3f ms\n", (now_ns() - t0) / 1e6);
out:
	if (b)
		CHECK(!v.destroy_qp(b), "destroy_qp");
	if (a)
		CHECK(!v.destroy_qp(a), "destroy_qp");
	if (cq)
		CHECK(!v.destroy_cq(cq), "destroy_cq");
	if (mr)
		CHECK(!v.dereg_mr(mr), "dereg_mr");
	if (pd)
		CHECK(!v.dealloc_pd(pd), "dealloc_pd");
}

int main(int argc, char **argv)
{
	struct ibv_port_attr pa;
	struct ibv_device **list;
	struct ibv_context *ctx;
	unsigned int i;
	void *lib;
	int n;

	if (argc != 2) {
		fprintf(stderr, "usage: %s LIBIBVERBS\n", argv[0]);
		return 2;
	}
	lib = dlopen(argv[1], RTLD_LOCAL | RTLD_NOW);
	if (!lib) {
		fprintf(stderr, "FAIL dlopen: %s\n", dlerror());
		return 1;
	}
	CHECK(!dlsym(RTLD_DEFAULT, "ibv_get_device_list"),
	      "libibverbs is in the global scope");
	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		*syms[i].slot = dlsym(lib, syms[i].name);
		if (!*syms[i].slot) {
			fprintf(stderr, "FAIL dlsym %s\n", syms[i].name);
			return 1;
		}
	}
	list = v.get_device_list(&n);
	CHECK(list && n == 1 && !strcmp(v.get_device_name(list[0]), "mlx5_0"),
	      "device list (%d)", list ? n : -1);
	if (!list || n < 1)
		return 1;
	ctx = v.open_device(list[0]);
	CHECK(ctx, "ibv_open_device: %m");
	if (ctx) {
		CHECK(!v.query_port(ctx, 1, &pa) && pa.state == IBV_PORT_ACTIVE,
		      "query_port");
		send_recv(ctx, pa.lid);
		CHECK(!v.close_device(ctx), "close_device");
	}
	v.free_device_list(list);
	CHECK(!dlclose(lib), "dlclose");
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	return failures ? 1 : 0;
}
