// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The QP state machine through MODIFY_QP, for RC, UC and UD: each valid
 * transition with exactly its required attributes (ok), with each required
 * attribute left out, and with one attribute it does not allow; plus
 * transitions the table does not have. Every attribute value is valid, so
 * only the mask decides. Each row uses a fresh QP driven to the start
 * state with the "ok" masks.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "conf.h"

enum { T_RC, T_UC, T_UD, T_N };

struct transition {
	const char *name;
	enum ibv_qp_state cur, next;
	int req[T_N];
	int opt[T_N];
};

#define RC_RTR_REQ                                                             \
	(IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |       \
	 IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER)
#define UC_RTR_REQ                                                             \
	(IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN)
#define RC_RTS_REQ                                                             \
	(IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |                \
	 IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC)
#define INIT_REQ    (IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS)
#define UD_INIT_REQ (IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY)
#define RTS_OPT_UC                                                             \
	(IBV_QP_CUR_STATE | IBV_QP_ALT_PATH | IBV_QP_ACCESS_FLAGS |            \
	 IBV_QP_PATH_MIG_STATE)
#define RTS_OPT_RC (RTS_OPT_UC | IBV_QP_MIN_RNR_TIMER)
#define UD_OPT	   (IBV_QP_CUR_STATE | IBV_QP_QKEY)
#define RTR_OPT	   (IBV_QP_ALT_PATH | IBV_QP_ACCESS_FLAGS | IBV_QP_PKEY_INDEX)

#define TR(n, c, x, ...)                                                       \
	{                                                                      \
		.name = (n), .cur = (c), .next = (x), __VA_ARGS__              \
	}
#define TSTATE(n, c, x) TR(n, c, x, .req = {0}, .opt = {0})

/* The kernel's qp_state_table, the rows a QP can be driven to here. */
static const struct transition table[] = {
	TSTATE("reset_reset", IBV_QPS_RESET, IBV_QPS_RESET),
	TR("reset_init", IBV_QPS_RESET, IBV_QPS_INIT,
	   .req = {INIT_REQ, INIT_REQ, UD_INIT_REQ}, .opt = {0}),
	TR("init_init", IBV_QPS_INIT, IBV_QPS_INIT, .req = {0},
	   .opt = {INIT_REQ, INIT_REQ, UD_INIT_REQ}),
	TR("init_rtr", IBV_QPS_INIT, IBV_QPS_RTR,
	   .req = {RC_RTR_REQ, UC_RTR_REQ, 0},
	   .opt = {RTR_OPT, RTR_OPT, IBV_QP_PKEY_INDEX | IBV_QP_QKEY}),
	TSTATE("init_reset", IBV_QPS_INIT, IBV_QPS_RESET),
	TSTATE("init_err", IBV_QPS_INIT, IBV_QPS_ERR),
	TR("rtr_rts", IBV_QPS_RTR, IBV_QPS_RTS,
	   .req = {RC_RTS_REQ, IBV_QP_SQ_PSN, IBV_QP_SQ_PSN},
	   .opt = {RTS_OPT_RC, RTS_OPT_UC, UD_OPT}),
	TSTATE("rtr_reset", IBV_QPS_RTR, IBV_QPS_RESET),
	TSTATE("rtr_err", IBV_QPS_RTR, IBV_QPS_ERR),
	TR("rts_rts", IBV_QPS_RTS, IBV_QPS_RTS, .req = {0},
	   .opt = {RTS_OPT_RC, RTS_OPT_UC, UD_OPT}),
	TR("rts_sqd", IBV_QPS_RTS, IBV_QPS_SQD, .req = {0},
	   .opt = {IBV_QP_EN_SQD_ASYNC_NOTIFY, IBV_QP_EN_SQD_ASYNC_NOTIFY,
		   IBV_QP_EN_SQD_ASYNC_NOTIFY}),
	TSTATE("rts_reset", IBV_QPS_RTS, IBV_QPS_RESET),
	TSTATE("rts_err", IBV_QPS_RTS, IBV_QPS_ERR),
	TSTATE("err_reset", IBV_QPS_ERR, IBV_QPS_RESET),
	TSTATE("err_err", IBV_QPS_ERR, IBV_QPS_ERR),
};

/* Transitions the table does not have: STATE alone is refused. */
static const struct transition invalid[] = {
	TSTATE("reset_rtr", IBV_QPS_RESET, IBV_QPS_RTR),
	TSTATE("reset_err", IBV_QPS_RESET, IBV_QPS_ERR),
	TSTATE("init_rts", IBV_QPS_INIT, IBV_QPS_RTS),
	TSTATE("rtr_init", IBV_QPS_RTR, IBV_QPS_INIT),
	TSTATE("rts_rtr", IBV_QPS_RTS, IBV_QPS_RTR),
	TSTATE("err_rts", IBV_QPS_ERR, IBV_QPS_RTS),
};

static const uint8_t qp_types[T_N] = {IB_UVERBS_QPT_RC, IB_UVERBS_QPT_UC,
				      IB_UVERBS_QPT_UD};
static const char *const type_names[T_N] = {"rc", "uc", "ud"};

/* The one disallowed attribute a row adds: the first of these not allowed. */
static const int extra_pref[] = {IBV_QP_ACCESS_FLAGS, IBV_QP_QKEY,
				 IBV_QP_SQ_PSN, IBV_QP_RQ_PSN,
				 IBV_QP_PKEY_INDEX};

static const struct {
	int bit;
	const char *name;
} bit_names[] = {
	{IBV_QP_ACCESS_FLAGS, "access_flags"},
	{IBV_QP_PKEY_INDEX, "pkey_index"},
	{IBV_QP_PORT, "port"},
	{IBV_QP_QKEY, "qkey"},
	{IBV_QP_AV, "av"},
	{IBV_QP_PATH_MTU, "path_mtu"},
	{IBV_QP_TIMEOUT, "timeout"},
	{IBV_QP_RETRY_CNT, "retry_cnt"},
	{IBV_QP_RNR_RETRY, "rnr_retry"},
	{IBV_QP_RQ_PSN, "rq_psn"},
	{IBV_QP_MAX_QP_RD_ATOMIC, "max_rd_atomic"},
	{IBV_QP_MIN_RNR_TIMER, "min_rnr_timer"},
	{IBV_QP_SQ_PSN, "sq_psn"},
	{IBV_QP_MAX_DEST_RD_ATOMIC, "max_dest_rd_atomic"},
	{IBV_QP_DEST_QPN, "dest_qpn"},
};

static const char *bit_name(int bit)
{
	for (size_t i = 0; i < sizeof(bit_names) / sizeof(bit_names[0]); i++)
		if (bit_names[i].bit == bit)
			return bit_names[i].name;
	return "?";
}

static uint32_t pd_h, cq_h;

/* A modify command with every attribute valid for rxe0 port 1. */
static void modify_cmd(struct ib_uverbs_modify_qp *m, uint32_t qp, uint32_t qpn,
		       enum ibv_qp_state next, int mask)
{
	raw_modify_qp_init(m, qp, (uint8_t)next, (uint32_t)mask);
	m->qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
	m->dest_qp_num = qpn;
	memcpy(m->dest.dgid, conf_gid0.gid, sizeof(m->dest.dgid));
	m->dest.sgid_index = 0;
	m->dest.hop_limit = 64;
	m->dest.is_global = 1;
}

static int modify(uint32_t qp, uint32_t qpn, enum ibv_qp_state next, int mask)
{
	struct ib_uverbs_modify_qp m;

	modify_cmd(&m, qp, qpn, next, mask);
	return raw_modify_qp(conf_fd, &m);
}

static const struct transition *find(enum ibv_qp_state cur,
				     enum ibv_qp_state next)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].cur == cur && table[i].next == next)
			return &table[i];
	return NULL;
}

/* A new QP of type @t in state @state; 0 or the errno on the way. */
static int qp_in_state(int t, enum ibv_qp_state state, uint32_t *h,
		       uint32_t *qpn)
{
	static const enum ibv_qp_state path[] = {IBV_QPS_INIT, IBV_QPS_RTR,
						 IBV_QPS_RTS};
	struct ib_uverbs_create_qp_resp r = {};
	struct ib_uverbs_create_qp cmd;
	enum ibv_qp_state at = IBV_QPS_RESET;
	int err;

	raw_qp_cmd_init(&cmd, pd_h, cq_h, qp_types[t]);
	err = raw_create_qp(conf_fd, &cmd, 0, &r);
	if (err)
		return err;
	*h = r.qp_handle;
	*qpn = r.qpn;
	for (size_t i = 0; i < 3 && !err && at != state; i++) {
		if (state == IBV_QPS_ERR && at == IBV_QPS_RTS)
			break;
		err = modify(*h, *qpn, path[i],
			     IBV_QP_STATE | find(at, path[i])->req[t]);
		at = path[i];
	}
	if (!err && state == IBV_QPS_ERR)
		err = modify(*h, *qpn, IBV_QPS_ERR, IBV_QP_STATE);
	if (err)
		raw_destroy_qp(conf_fd, *h, NULL);
	return err;
}

static void row(int t, const struct transition *tr, const char *what, int mask,
		int expected)
{
	char name[96];
	uint32_t h = 0, qpn = 0;
	int err;

	snprintf(name, sizeof(name), "qp.%s.%s.%s", type_names[t], tr->name,
		 what);
	err = qp_in_state(t, tr->cur, &h, &qpn);
	if (err) {
		/* Getting there failed: show it as this row's answer. */
		conf_expect(name, expected, err);
		return;
	}
	conf_expect(name, expected, modify(h, qpn, tr->next, mask));
	raw_destroy_qp(conf_fd, h, NULL);
}

static void transition_rows(int t, const struct transition *tr)
{
	int req = tr->req[t], allowed = req | tr->opt[t] | IBV_QP_STATE;
	char what[64];
	size_t i;

	row(t, tr, "ok", IBV_QP_STATE | req, 0);
	for (i = 0; i < sizeof(bit_names) / sizeof(bit_names[0]); i++) {
		if (!(req & bit_names[i].bit))
			continue;
		snprintf(what, sizeof(what), "missing_%s", bit_names[i].name);
		row(t, tr, what, (IBV_QP_STATE | req) & ~bit_names[i].bit,
		    EINVAL);
	}
	for (i = 0; i < sizeof(extra_pref) / sizeof(extra_pref[0]); i++) {
		if (allowed & extra_pref[i])
			continue;
		snprintf(what, sizeof(what), "extra_%s",
			 bit_name(extra_pref[i]));
		row(t, tr, what, IBV_QP_STATE | req | extra_pref[i], EINVAL);
		break;
	}
}

void check_qp_states(void)
{
	size_t i;
	int t;

	conf_print_header("QP state machine: required, missing, extra bits");
	raw_alloc_pd(conf_fd, &pd_h);
	raw_create_cq(conf_fd, 64, 0, -1, 0, &cq_h, NULL);
	for (t = 0; t < T_N; t++) {
		for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
			transition_rows(t, &table[i]);
		for (i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++)
			row(t, &invalid[i], "state_only", IBV_QP_STATE, EINVAL);
	}
	/* Bits beyond the standard set on the legacy command. */
	row(T_RC, &table[0], "rate_limit_bit", IBV_QP_STATE | IBV_QP_RATE_LIMIT,
	    EOPNOTSUPP);
	raw_destroy_cq(conf_fd, cq_h, NULL);
	raw_destroy_pd(conf_fd, pd_h);
}
