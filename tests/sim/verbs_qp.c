// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * QP create (ioctl and ex write rules), numbers unique across processes,
 * and MODIFY_QP's checks outside the state table: mask bits, handles,
 * ports, states, Q_Key privilege, GIDs, and the ranges mlx5_ib and rxe
 * check differently (P_Key index, MTU, rd_atomic, timeout, CUR_STATE).
 */
#include "verbs.h"

#include <errno.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

enum { RC = 2, UD = 4 };
enum { INIT = 1, RTR = 2, RTS = 3 };

static int have_net_raw(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = {};

	return !syscall(SYS_capget, &h, d) &&
	       (d[0].effective & (1u << CAP_NET_RAW));
}

struct qp_env {
	int fd;
	uint32_t pd, cq;
};

static void check_create_ioctl(struct qp_env *e)
{
	struct v_qp_req r;
	uint32_t h, qpn;

	v_qp_req_init(&r, e->pd, e->cq, RC);
	EXPECT_ERR(v_create_qp_ioctl(e->fd, &r, 0, &h, &qpn), 0);
	EXPECT(qpn >= 16 && qpn <= 0xffffff, "qpn %#x", qpn);
	EXPECT_ERR(raw_destroy_qp(e->fd, h, NULL), 0);
	/* SQ_SIG_ALL is the one create flag every driver takes */
	EXPECT_ERR(v_create_qp_ioctl(e->fd, &r, IB_UVERBS_QP_CREATE_SQ_SIG_ALL,
				     &h, NULL),
		   0);
	EXPECT_ERR(raw_destroy_qp(e->fd, h, NULL), 0);
	EXPECT_ERR(v_create_qp_ioctl(e->fd, &r, 1, &h, NULL), EINVAL);
	r.type = 0x42;
	EXPECT_ERR(v_create_qp_ioctl(e->fd, &r, 0, &h, NULL), EINVAL);
	/* rxe has no XRC; mlx5's XRC_INI has no RQ, so RQ fields are
	 * "invalid rq params" */
	r.type = IB_UVERBS_QPT_XRC_INI;
	EXPECT_ERR(v_create_qp_ioctl(e->fd, &r, 0, &h, NULL),
		   v_rxe ? EOPNOTSUPP : EINVAL);
	r.type = IB_UVERBS_QPT_XRC_TGT; /* with a PD: refused before XRCD */
	EXPECT_ERR(v_create_qp_ioctl(e->fd, &r, 0, &h, NULL), EINVAL);
	r.type = RC;
	r.pd = 0xdead;
	EXPECT_ERR(v_create_qp_ioctl(e->fd, &r, 0, &h, NULL), ENOENT);
	r.pd = e->cq; /* a CQ's handle where a PD's goes */
	EXPECT_ERR(v_create_qp_ioctl(e->fd, &r, 0, &h, NULL), EINVAL);
}

static void check_create_ex(struct qp_env *e)
{
	struct ib_uverbs_ex_create_qp_resp resp;
	struct ib_uverbs_ex_create_qp c = {
		.pd_handle = e->pd,
		.send_cq_handle = e->cq,
		.recv_cq_handle = e->cq,
		.max_send_wr = 1,
		.qp_type = RC,
	};

	c.comp_mask = 2;
	EXPECT_ERR(raw_write_ex(e->fd, IB_USER_VERBS_EX_CMD_CREATE_QP, &c,
				sizeof(c), &resp, sizeof(resp)),
		   EINVAL);
	c.comp_mask = IB_UVERBS_CREATE_QP_MASK_IND_TABLE; /* no such table */
	EXPECT_ERR(raw_write_ex(e->fd, IB_USER_VERBS_EX_CMD_CREATE_QP, &c,
				sizeof(c), &resp, sizeof(resp)),
		   EINVAL);
	c.comp_mask = 0;
	c.create_flags = 1; /* not an IB_QP_CREATE_* flag uverbs passes */
	EXPECT_ERR(raw_write_ex(e->fd, IB_USER_VERBS_EX_CMD_CREATE_QP, &c,
				sizeof(c), &resp, sizeof(resp)),
		   EINVAL);
	c.create_flags = 0;
	c.reserved = 1;
	EXPECT_ERR(raw_write_ex(e->fd, IB_USER_VERBS_EX_CMD_CREATE_QP, &c,
				sizeof(c), &resp, sizeof(resp)),
		   EINVAL);
}

/* A child creates a QP on its own context: its number is new. */
static void check_qpn_across_processes(struct qp_env *e)
{
	uint32_t h, mine, theirs = 0;
	struct v_qp_req r;
	int p[2], status;
	pid_t pid;

	v_qp_req_init(&r, e->pd, e->cq, UD);
	EXPECT_ERR(v_create_qp(e->fd, &r, &h, &mine), 0);
	if (pipe(p))
		return;
	pid = fork();
	if (!pid) {
		int fd = v_open();
		uint32_t pd, cq, qp, n = 0;
		struct v_qp_req q;

		if (fd >= 0 && !raw_alloc_pd(fd, &pd) &&
		    !v_create_cq(fd, 16, 0, -1, &cq, NULL)) {
			v_qp_req_init(&q, pd, cq, UD);
			if (v_create_qp(fd, &q, &qp, &n))
				n = 0;
		}
		_exit(write(p[1], &n, sizeof(n)) == sizeof(n) ? 0 : 1);
	}
	close(p[1]);
	EXPECT(read(p[0], &theirs, sizeof(theirs)) == sizeof(theirs),
	       "no QP number from the child");
	close(p[0]);
	waitpid(pid, &status, 0);
	EXPECT(theirs && theirs != mine, "child's qpn %#x, ours %#x", theirs,
	       mine);
	EXPECT_ERR(raw_destroy_qp(e->fd, h, NULL), 0);
}

static uint32_t rc_at(struct qp_env *e, uint8_t state)
{
	struct v_qp_req r;
	uint32_t h = ~0u;

	v_qp_req_init(&r, e->pd, e->cq, RC);
	EXPECT_ERR(v_create_qp(e->fd, &r, &h, NULL), 0);
	EXPECT_ERR(v_drive(e->fd, h, RC, state), 0);
	return h;
}

#define M_STATE	 (1u << 0)
#define M_CUR	 (1u << 1)
#define M_ACCESS (1u << 3)
#define M_PKEY	 (1u << 4)
#define M_PORT	 (1u << 5)
#define M_QKEY	 (1u << 6)
#define M_AV	 (1u << 7)
#define M_MTU	 (1u << 8)
#define M_TO	 (1u << 9)
#define M_RTR_RC                                                               \
	(M_AV | M_MTU | (1u << 20) | (1u << 12) | (1u << 17) | (1u << 15))
#define M_RTS_RC (M_TO | (1u << 10) | (1u << 11) | (1u << 16) | (1u << 13))
#define M_INIT	 (M_PKEY | M_PORT | M_ACCESS)

/* RESET->INIT with one field changed; -1 leaves the template. */
static int to_init(struct qp_env *e, uint32_t mask, int port, int pkey)
{
	struct ib_uverbs_modify_qp m;
	uint32_t qp = rc_at(e, 0);
	int ret;

	v_modify_base(&m, qp, INIT, mask);
	if (port >= 0)
		m.port_num = (uint8_t)port;
	if (pkey >= 0)
		m.pkey_index = (uint16_t)pkey;
	ret = raw_modify_qp(e->fd, &m);
	raw_destroy_qp(e->fd, qp, NULL);
	return ret;
}

/* An RC QP in state from goes to the next with its required attributes,
 * after f changed the template. */
static int next_step(struct qp_env *e, uint8_t from,
		     void (*f)(struct ib_uverbs_modify_qp *))
{
	struct ib_uverbs_modify_qp m;
	uint32_t qp = rc_at(e, from);
	int ret;

	v_modify_base(&m, qp, from + 1,
		      M_STATE | (from == INIT ? M_RTR_RC : M_RTS_RC));
	f(&m);
	ret = raw_modify_qp(e->fd, &m);
	raw_destroy_qp(e->fd, qp, NULL);
	return ret;
}

#define to_rtr(e, f) next_step(e, INIT, f)
#define to_rts(e, f) next_step(e, RTR, f)

static void av_port_2(struct ib_uverbs_modify_qp *m)
{
	m->dest.port_num = 2;
}

/* past mlx5's 4-entry GID table; inside rxe's 1024, but empty */
static void sgid_4(struct ib_uverbs_modify_qp *m)
{
	m->dest.is_global = 1;
	m->dest.sgid_index = 4;
}

/* rxe: 0 the default GID, 1 and 2 its netdev's IPv4 and IPv6 address */
static void sgid_empty(struct ib_uverbs_modify_qp *m)
{
	m->dest.is_global = 1;
	m->dest.sgid_index = v_rxe ? 3 : 1;
}

static void no_grh(struct ib_uverbs_modify_qp *m)
{
	m->dest.is_global = 0;
}

static void mtu_0(struct ib_uverbs_modify_qp *m)
{
	m->path_mtu = 0;
}

static void mtu_6(struct ib_uverbs_modify_qp *m)
{
	m->path_mtu = 6;
}

static void dest_rd_17(struct ib_uverbs_modify_qp *m)
{
	m->max_dest_rd_atomic = 17;
}

static void rd_17(struct ib_uverbs_modify_qp *m)
{
	m->max_rd_atomic = 17;
}

static void rd_129(struct ib_uverbs_modify_qp *m)
{
	m->max_rd_atomic = 129;
}

static void timeout_32(struct ib_uverbs_modify_qp *m)
{
	m->timeout = 32;
}

static void cur_past_err(struct ib_uverbs_modify_qp *m)
{
	m->attr_mask |= M_CUR;
	m->cur_qp_state = 7;
}

static void check_modify_uverbs(struct qp_env *e)
{
	struct ib_uverbs_modify_qp m;
	uint32_t qp = rc_at(e, 0);

	v_modify_base(&m, qp, INIT, M_STATE | M_INIT | (1u << 21));
	EXPECT_ERR(raw_modify_qp(e->fd, &m), EOPNOTSUPP); /* bit 21 */
	v_modify_base(&m, 0xdead, INIT, M_STATE | M_INIT);
	EXPECT_ERR(raw_modify_qp(e->fd, &m), ENOENT);
	v_modify_base(&m, e->pd, INIT, M_STATE | M_INIT);
	EXPECT_ERR(raw_modify_qp(e->fd, &m), EINVAL); /* a PD is not a QP */
	raw_destroy_qp(e->fd, qp, NULL);
	EXPECT_ERR(to_init(e, M_STATE | M_INIT, 2, -1), EINVAL);
	EXPECT_ERR(to_init(e, M_STATE | M_INIT, 0, -1), EINVAL);
	EXPECT_ERR(to_rtr(e, av_port_2), EINVAL);
	EXPECT_ERR(to_rts(e, cur_past_err), EINVAL);
	/* a privileged Q_Key needs CAP_NET_RAW */
	qp = rc_at(e, 0);
	v_modify_base(&m, qp, INIT, M_STATE | M_INIT);
	EXPECT_ERR(raw_modify_qp(e->fd, &m), 0);
	v_modify_base(&m, qp, INIT, M_STATE | M_QKEY);
	m.qkey = 0x80000001;
	/* RC INIT->INIT takes no Q_Key: EINVAL once the privilege passed */
	EXPECT_ERR(raw_modify_qp(e->fd, &m), have_net_raw() ? EINVAL : EPERM);
	raw_destroy_qp(e->fd, qp, NULL);
}

static void check_modify_gid(struct qp_env *e)
{
	EXPECT_ERR(to_rtr(e, sgid_empty), ENODATA);
	EXPECT_ERR(to_rtr(e, sgid_4), v_rxe ? ENODATA : EINVAL);
	EXPECT_ERR(to_rtr(e, no_grh), v_rxe ? EINVAL : 0); /* RoCE: GRH */
}

/* The table is looked up with the state the caller claims (here RTS->RTS
 * for a QP in RTR): rxe believes it, mlx5's firmware does not. */
static void check_cur_state_lie(struct qp_env *e)
{
	struct ib_uverbs_modify_qp m;
	uint32_t qp = rc_at(e, RTR);
	uint8_t state = 0;

	v_modify_base(&m, qp, RTS, M_STATE | M_CUR | M_ACCESS);
	m.cur_qp_state = RTS;
	EXPECT_ERR(raw_modify_qp(e->fd, &m), v_rxe ? 0 : EINVAL);
	EXPECT_ERR(v_query_state(e->fd, qp, &state), 0);
	EXPECT(state == (v_rxe ? RTS : RTR), "state %u after the lie", state);
	raw_destroy_qp(e->fd, qp, NULL);
}

/* The ranges mlx5_ib and rxe check differently. */
static void check_modify_driver(struct qp_env *e)
{
	EXPECT_ERR(to_init(e, M_STATE | M_INIT, -1, 4), v_rxe ? 0 : EINVAL);
	EXPECT_ERR(to_init(e, M_STATE | M_INIT, -1, 3), 0);
	EXPECT_ERR(to_rtr(e, mtu_0), v_rxe ? 0 : EINVAL);
	EXPECT_ERR(to_rtr(e, mtu_6), EINVAL);
	EXPECT_ERR(to_rtr(e, dest_rd_17), v_rxe ? 0 : EINVAL);
	EXPECT_ERR(to_rts(e, rd_17), v_rxe ? 0 : EINVAL);
	EXPECT_ERR(to_rts(e, rd_129), EINVAL);
	EXPECT_ERR(to_rts(e, timeout_32), v_rxe ? EINVAL : 0);
	check_cur_state_lie(e);
}

/* PSNs keep 24 bits; QUERY_QP reports what was set. */
static void check_query(struct qp_env *e)
{
	struct ib_uverbs_query_qp_resp r = {};
	struct ib_uverbs_query_qp q = {.response = (uintptr_t)&r};
	struct ib_uverbs_modify_qp m;
	uint32_t qp = rc_at(e, RTR);

	v_modify_base(&m, qp, RTS, M_STATE | M_RTS_RC);
	m.sq_psn = 0x1234567;
	m.timeout = 9;
	EXPECT_ERR(raw_modify_qp(e->fd, &m), 0);
	q.qp_handle = qp;
	EXPECT_ERR(raw_write(e->fd, IB_USER_VERBS_CMD_QUERY_QP, &q, sizeof(q),
			     sizeof(r)),
		   0);
	EXPECT(r.qp_state == RTS && r.sq_psn == 0x234567 && r.timeout == 9 &&
		       r.dest_qp_num == 0x123 && r.path_mtu == 3 &&
		       r.port_num == 1 && r.max_send_wr >= 8,
	       "query: state %u sq_psn %#x timeout %u dqpn %#x mtu %u port %u",
	       r.qp_state, r.sq_psn, r.timeout, r.dest_qp_num, r.path_mtu,
	       r.port_num);
	q.qp_handle = 0xdead;
	EXPECT_ERR(raw_write(e->fd, IB_USER_VERBS_CMD_QUERY_QP, &q, sizeof(q),
			     sizeof(r)),
		   ENOENT);
	raw_destroy_qp(e->fd, qp, NULL);
}

/* POST_SEND by write(): nwr WRs of opcode with one SGE each. */
static int post_send(int fd, uint32_t qp, uint32_t nwr, uint32_t opcode,
		     uint32_t wqe_size, uint32_t sge_count, uint32_t *bad)
{
	struct ib_uverbs_post_send_resp r = {9};
	struct ib_uverbs_send_wr wr = {.num_sge = 1, .opcode = opcode};
	struct ib_uverbs_post_send c = {.response = (uintptr_t)&r,
					.qp_handle = qp,
					.wr_count = nwr,
					.sge_count = sge_count,
					.wqe_size = wqe_size};
	uint8_t body[sizeof(c) + 2 * sizeof(wr) + 2 * 16] = {};
	size_t len = sizeof(c);
	uint32_t i;
	int ret;

	memcpy(body, &c, sizeof(c));
	for (i = 0; i < nwr && i < 2; i++, len += sizeof(wr))
		memcpy(body + len, &wr, sizeof(wr));
	len += (size_t)(sge_count < 2 ? sge_count : 2) * 16;
	ret = raw_write(fd, IB_USER_VERBS_CMD_POST_SEND, body, len, sizeof(r));
	*bad = r.bad_wr;
	return ret;
}

/* uverbs' checks of the WR arrays, then the driver: rxe's doorbell
 * (no WRs) works once the QP sends; mlx5 posts in userspace only. */
static void check_post(struct qp_env *e)
{
	const uint32_t sz = sizeof(struct ib_uverbs_send_wr);
	uint32_t qp = rc_at(e, INIT), bad = 0;

	EXPECT_ERR(post_send(e->fd, qp, 1, 2, sz - 8, 1, &bad), EINVAL);
	EXPECT_ERR(post_send(e->fd, qp, 2, 2, sz, 1, &bad), EINVAL);
	EXPECT_ERR(post_send(e->fd, qp, 1, 7, sz, 1, &bad), EINVAL);
	EXPECT_ERR(post_send(e->fd, qp, 3, 2, sz, 1, &bad), ENOSPC);
	EXPECT_ERR(post_send(e->fd, 0xdead, 1, 2, sz, 1, &bad), ENOENT);
	EXPECT_ERR(post_send(e->fd, qp, 0, 2, sz, 0, &bad),
		   v_rxe ? EINVAL : EOPNOTSUPP);
	EXPECT_ERR(v_drive(e->fd, qp, RC, RTS), 0);
	EXPECT_ERR(post_send(e->fd, qp, 0, 2, sz, 0, &bad),
		   v_rxe ? 0 : EOPNOTSUPP);
	EXPECT_ERR(post_send(e->fd, qp, 1, 2, sz, 1, &bad),
		   v_rxe ? 0 : EOPNOTSUPP);
	raw_destroy_qp(e->fd, qp, NULL);
}

void v_check_qp(void)
{
	struct qp_env e;

	e.fd = v_env(&e.pd, &e.cq);
	if (e.fd < 0)
		return;
	check_create_ioctl(&e);
	check_create_ex(&e);
	check_qpn_across_processes(&e);
	check_modify_uverbs(&e);
	check_modify_gid(&e);
	check_modify_driver(&e);
	check_query(&e);
	check_post(&e);
	close(e.fd);
}
