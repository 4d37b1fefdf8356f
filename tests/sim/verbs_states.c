// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MODIFY_QP against the kernel's state table (ib_modify_qp_is_ok, 6.1 and
 * 6.12): for every valid transition of RC, UC and UD (SQE cannot be
 * entered from userspace), the required attributes alone succeed, each one
 * missing fails, each optional one is accepted, an attribute outside the
 * row fails; every transition outside the table fails.
 */
#include "verbs.h"

#include <errno.h>
#include <unistd.h>

enum {
	S_STATE = 1 << 0,
	S_CUR = 1 << 1,
	S_SQD_NOTIFY = 1 << 2,
	S_ACCESS = 1 << 3,
	S_PKEY = 1 << 4,
	S_PORT = 1 << 5,
	S_QKEY = 1 << 6,
	S_AV = 1 << 7,
	S_MTU = 1 << 8,
	S_TIMEOUT = 1 << 9,
	S_RETRY = 1 << 10,
	S_RNR_RETRY = 1 << 11,
	S_RQ_PSN = 1 << 12,
	S_RD_ATOMIC = 1 << 13,
	S_ALT = 1 << 14,
	S_MIN_RNR = 1 << 15,
	S_SQ_PSN = 1 << 16,
	S_DEST_RD_ATOMIC = 1 << 17,
	S_MIG = 1 << 18,
	S_CAP = 1 << 19,
	S_DEST_QPN = 1 << 20,
};

enum { RESET, INIT, RTR, RTS, SQD, SQE, ERR };
enum { RC = 2, UC = 3, UD = 4 };

struct oracle_row {
	uint8_t type, from, to;
	uint32_t req, opt;
};

#define RTS_OPT_RC (S_CUR | S_ALT | S_ACCESS | S_MIN_RNR | S_MIG)
#define RTS_OPT_UC (S_CUR | S_ALT | S_ACCESS | S_MIG)

/* The kernel's table, as the datapath fact sheet gives it (2.3). */
static const struct oracle_row oracle[] = {
	{RC, RESET, RESET, 0, 0},
	{RC, RESET, INIT, S_PKEY | S_PORT | S_ACCESS, 0},
	{RC, INIT, INIT, 0, S_PKEY | S_PORT | S_ACCESS},
	{RC, INIT, RTR,
	 S_AV | S_MTU | S_DEST_QPN | S_RQ_PSN | S_DEST_RD_ATOMIC | S_MIN_RNR,
	 S_ALT | S_ACCESS | S_PKEY},
	{RC, RTR, RTS,
	 S_TIMEOUT | S_RETRY | S_RNR_RETRY | S_SQ_PSN | S_RD_ATOMIC,
	 RTS_OPT_RC},
	{RC, RTS, RTS, 0, RTS_OPT_RC},
	{RC, RTS, SQD, 0, S_SQD_NOTIFY},
	{RC, SQD, RTS, 0, RTS_OPT_RC},
	{RC, SQD, SQD, 0,
	 S_PORT | S_AV | S_TIMEOUT | S_RETRY | S_RNR_RETRY | S_RD_ATOMIC |
		 S_DEST_RD_ATOMIC | S_ALT | S_ACCESS | S_PKEY | S_MIN_RNR |
		 S_MIG},
	{UC, RESET, RESET, 0, 0},
	{UC, RESET, INIT, S_PKEY | S_PORT | S_ACCESS, 0},
	{UC, INIT, INIT, 0, S_PKEY | S_PORT | S_ACCESS},
	{UC, INIT, RTR, S_AV | S_MTU | S_DEST_QPN | S_RQ_PSN,
	 S_ALT | S_ACCESS | S_PKEY},
	{UC, RTR, RTS, S_SQ_PSN, RTS_OPT_UC},
	{UC, RTS, RTS, 0, RTS_OPT_UC},
	{UC, RTS, SQD, 0, S_SQD_NOTIFY},
	{UC, SQD, RTS, 0, RTS_OPT_UC},
	{UC, SQD, SQD, 0, S_AV | S_ALT | S_ACCESS | S_PKEY | S_MIG},
	{UD, RESET, RESET, 0, 0},
	{UD, RESET, INIT, S_PKEY | S_PORT | S_QKEY, 0},
	{UD, INIT, INIT, 0, S_PKEY | S_PORT | S_QKEY},
	{UD, INIT, RTR, 0, S_PKEY | S_QKEY},
	{UD, RTR, RTS, S_SQ_PSN, S_CUR | S_QKEY},
	{UD, RTS, RTS, 0, S_CUR | S_QKEY},
	{UD, RTS, SQD, 0, S_SQD_NOTIFY},
	{UD, SQD, RTS, 0, S_CUR | S_QKEY},
	{UD, SQD, SQD, 0, S_PKEY | S_QKEY},
};

static const struct oracle_row *find(uint8_t type, uint8_t from, uint8_t to)
{
	static const struct oracle_row bare = {0, 0, 0, 0, 0};
	unsigned int i;

	/* every state but RESET may go to RESET or ERR with nothing else */
	if (from != RESET && (to == RESET || to == ERR))
		return &bare;
	for (i = 0; i < sizeof(oracle) / sizeof(oracle[0]); i++)
		if (oracle[i].type == type && oracle[i].from == from &&
		    oracle[i].to == to)
			return &oracle[i];
	return NULL;
}

static int step(int fd, uint32_t qp, uint8_t type, uint8_t from, uint8_t to,
		uint32_t mask)
{
	struct ib_uverbs_modify_qp m;

	(void)type;
	v_modify_base(&m, qp, to, S_STATE | mask);
	m.cur_qp_state = from;
	return raw_modify_qp(fd, &m);
}

int v_drive(int fd, uint32_t qp, uint8_t type, uint8_t state)
{
	static const uint8_t path[] = {INIT, RTR, RTS, SQD};
	uint8_t cur = RESET;
	unsigned int i;
	int ret;

	if (state == ERR) {
		ret = v_drive(fd, qp, type, INIT);
		return ret ? ret : step(fd, qp, type, INIT, ERR, 0);
	}
	for (i = 0; i < sizeof(path) && cur != state; i++) {
		ret = step(fd, qp, type, cur, path[i],
			   find(type, cur, path[i])->req);
		if (ret)
			return ret;
		cur = path[i];
	}
	return 0;
}

struct fixture {
	int fd;
	uint32_t pd, cq;
};

/* A fresh QP of type in state from; ~0 on failure (reported). */
static uint32_t qp_at(struct fixture *f, uint8_t type, uint8_t from)
{
	struct v_qp_req r;
	uint32_t qp = ~0u;
	int ret;

	v_qp_req_init(&r, f->pd, f->cq, type);
	ret = v_create_qp(f->fd, &r, &qp, NULL);
	if (!ret)
		ret = v_drive(f->fd, qp, type, from);
	EXPECT(!ret, "type %u: cannot reach state %u: %s", type, from,
	       strerrorname_np(ret));
	return ret ? ~0u : qp;
}

static void expect_step(struct fixture *f, uint8_t type, uint8_t from,
			uint8_t to, uint32_t mask, int want, const char *what)
{
	uint32_t qp = qp_at(f, type, from);
	uint8_t state = 0xff;
	int got;

	if (qp == ~0u)
		return;
	got = step(f->fd, qp, type, from, to, mask);
	EXPECT(got == want, "type %u %u->%u %s (mask %#x): got %s, want %s",
	       type, from, to, what, mask, got ? strerrorname_np(got) : "0",
	       want ? strerrorname_np(want) : "0");
	if (!got && !v_query_state(f->fd, qp, &state))
		EXPECT(state == to, "type %u %u->%u: state now %u", type, from,
		       to, state);
	raw_destroy_qp(f->fd, qp, NULL);
}

/* A bit the row does not allow, taken from other rows' vocabulary. */
static uint32_t extra_bit(const struct oracle_row *r)
{
	static const uint32_t cand[] = {S_QKEY, S_ACCESS, S_PORT,
					S_AV,	S_SQ_PSN, S_SQD_NOTIFY};
	unsigned int i;

	for (i = 0; i < sizeof(cand) / sizeof(cand[0]); i++)
		if (!(cand[i] & (r->req | r->opt)))
			return cand[i];
	return S_CAP;
}

/* An AV outside INIT->RTR brings the QP's port into the mask (uverbs),
 * which UC's SQD->SQD row does not allow: the kernel refuses it. */
static int av_adds_port(uint8_t type, uint8_t from, uint8_t to, uint32_t bit)
{
	return bit == S_AV && type == UC && from == SQD && to == SQD;
}

static void sweep_row(struct fixture *f, uint8_t type, uint8_t from, uint8_t to,
		      const struct oracle_row *r)
{
	uint32_t b;

	expect_step(f, type, from, to, r->req, 0, "required only");
	for (b = 1; b; b <<= 1) {
		if (r->req & b)
			expect_step(f, type, from, to, r->req & ~b, EINVAL,
				    "one required missing");
		/* RoCE has no alternate path (the core refuses it) */
		if ((r->opt & b) && !(v_rxe && b == S_ALT))
			expect_step(f, type, from, to, r->req | b,
				    av_adds_port(type, from, to, b) ? EINVAL
								    : 0,
				    "one optional added");
	}
	expect_step(f, type, from, to, r->req | extra_bit(r), EINVAL,
		    "one extra");
	expect_step(f, type, from, to, r->req | S_CAP, EINVAL, "CAP");
}

static void sweep_type(struct fixture *f, uint8_t type)
{
	static const uint8_t reachable[] = {RESET, INIT, RTR, RTS, SQD, ERR};
	const struct oracle_row *r;
	unsigned int i;
	uint8_t to;

	for (i = 0; i < sizeof(reachable); i++) {
		for (to = RESET; to <= ERR; to++) {
			r = find(type, reachable[i], to);
			if (r)
				sweep_row(f, type, reachable[i], to, r);
			else
				expect_step(f, type, reachable[i], to, 0,
					    EINVAL, "not in the table");
		}
		/* a state past ERR is refused before the table */
		expect_step(f, type, reachable[i], ERR + 1, 0, EINVAL,
			    "state 7");
	}
}

void v_check_states(void)
{
	static const uint8_t types[] = {RC, UC, UD};
	struct fixture f;
	unsigned int i;

	f.fd = v_env(&f.pd, &f.cq);
	if (f.fd < 0)
		return;
	for (i = 0; i < sizeof(types); i++)
		sweep_type(&f, types[i]);
	close(f.fd);
}
