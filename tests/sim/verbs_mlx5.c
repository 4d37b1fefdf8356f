// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5's user-hardware data of CQ, QP and SRQ creation, rule by rule as
 * mlx5_ib checks it: sizes, flags, reserved fields, user index, ring
 * counts, rings that must be mapped (a failed pin is EFAULT).
 */
#include "verbs.h"

#include <errno.h>
#include <rdma/mlx5-abi.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* An address with nothing mapped (a page we unmapped). */
static uintptr_t hole(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	munmap(p, 4096);
	return (uintptr_t)p;
}

static int cq_with(int fd, const struct v_udata *base,
		   void (*edit)(struct mlx5_ib_create_cq *c, size_t *len))
{
	struct ib_uverbs_create_cq_resp r = {};
	struct ib_uverbs_create_cq c = {.cqe = 15, .comp_channel = -1};
	struct mlx5_ib_create_cq q;
	struct v_udata u = *base;
	int ret;

	memcpy(&q, u.in, sizeof(q));
	edit(&q, &u.in_len);
	memcpy(u.in, &q, sizeof(q));
	ret = v_write_udata(fd, IB_USER_VERBS_CMD_CREATE_CQ, &c, sizeof(c), &r,
			    sizeof(r), &u);
	if (!ret)
		EXPECT_ERR(raw_destroy_cq(fd, r.cq_handle, NULL), 0);
	return ret;
}

static void cq_ok(struct mlx5_ib_create_cq *c, size_t *len)
{
	(void)c, (void)len;
}

static void cq_short(struct mlx5_ib_create_cq *c, size_t *len)
{
	(void)c;
	*len = offsetof(struct mlx5_ib_create_cq, flags) - 1;
}

static void cq_size(struct mlx5_ib_create_cq *c, size_t *len)
{
	(void)len;
	c->cqe_size = 96;
}

static void cq_flag(struct mlx5_ib_create_cq *c, size_t *len)
{
	(void)len;
	c->flags = 1 << 3;
}

static void cq_reserved(struct mlx5_ib_create_cq *c, size_t *len)
{
	(void)len;
	c->reserved1 = 1;
}

static void cq_comp(struct mlx5_ib_create_cq *c, size_t *len)
{
	(void)len;
	c->cqe_comp_en = 1;
}

static void cq_pad(struct mlx5_ib_create_cq *c, size_t *len)
{
	(void)len;
	c->flags = MLX5_IB_CREATE_CQ_FLAGS_CQE_128B_PAD;
}

static void cq_unmapped(struct mlx5_ib_create_cq *c, size_t *len)
{
	(void)len;
	c->buf_addr = hole();
}

static void cq_db_unmapped(struct mlx5_ib_create_cq *c, size_t *len)
{
	(void)len;
	c->db_addr = hole();
}

static const struct {
	const char *what;
	void (*edit)(struct mlx5_ib_create_cq *c, size_t *len);
	int err;
} cq_rules[] = {
	{"valid", cq_ok, 0},
	{"shorter than flags", cq_short, EINVAL},
	{"cqe_size 96", cq_size, EINVAL},
	{"unknown flag", cq_flag, EINVAL},
	{"reserved1", cq_reserved, EINVAL},
	{"CQE compression", cq_comp, EOPNOTSUPP},
	{"128-byte padding", cq_pad, EOPNOTSUPP},
	{"ring not mapped", cq_unmapped, EFAULT},
	{"doorbell not mapped", cq_db_unmapped, EFAULT},
};

static void check_cq_udata(int fd)
{
	struct v_udata base;
	unsigned int i;
	int got;

	v_cq_udata(&base, 15);
	for (i = 0; i < sizeof(cq_rules) / sizeof(cq_rules[0]); i++) {
		got = cq_with(fd, &base, cq_rules[i].edit);
		EXPECT(got == cq_rules[i].err, "CQ %s: %d, want %d",
		       cq_rules[i].what, got, cq_rules[i].err);
	}
}

/* CREATE_QP (RC, 16 receives) with the driver data edited by edit. */
static int qp_with(int fd, uint32_t pd, uint32_t cq, int what)
{
	struct ib_uverbs_create_qp_resp r = {};
	struct ib_uverbs_create_qp c = {
		.pd_handle = pd,
		.send_cq_handle = cq,
		.recv_cq_handle = cq,
		.max_send_wr = 16,
		.max_recv_wr = 16,
		.max_send_sge = 1,
		.max_recv_sge = 1,
		.qp_type = 2, /* RC */
	};
	struct mlx5_ib_create_qp q;
	struct v_udata u;
	int ret;

	v_qp_udata(&u, 16, 1);
	memcpy(&q, u.in, sizeof(q));
	switch (what) {
	case 1:
		u.in_len = offsetof(struct mlx5_ib_create_qp, ece_options) - 1;
		break;
	case 2:
		q.flags = 1u << 12;
		break;
	case 3:
		q.flags =
			MLX5_QP_FLAG_UAR_PAGE_INDEX | MLX5_QP_FLAG_BFREG_INDEX;
		break;
	case 4:
		q.uidx = 0xffffff; /* cqe_version 1 needs a user index */
		break;
	case 5:
		q.sq_wqe_count = 48;
		break;
	case 6:
		q.rq_wqe_count = 24;
		break;
	case 7:
		q.reserved = 1;
		break;
	case 8:
		q.buf_addr = hole();
		break;
	}
	memcpy(u.in, &q, sizeof(q));
	ret = v_write_udata(fd, IB_USER_VERBS_CMD_CREATE_QP, &c, sizeof(c), &r,
			    sizeof(r), &u);
	if (!ret)
		EXPECT_ERR(raw_destroy_qp(fd, r.qp_handle, NULL), 0);
	return ret;
}

static void check_qp_udata(int fd, uint32_t pd, uint32_t cq)
{
	static const char *const what[] = {
		"valid",
		"shorter than ece_options",
		"unknown flag",
		"UAR_PAGE_INDEX with BFREG_INDEX",
		"no user index",
		"SQ count not a power of two",
		"RQ count not a power of two",
		"reserved",
		"ring not mapped",
	};
	static const int want[] = {0,	   EINVAL, EINVAL, EINVAL, EINVAL,
				   EINVAL, EINVAL, EINVAL, EFAULT};
	unsigned int i;
	int got;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		got = qp_with(fd, pd, cq, (int)i);
		EXPECT(got == want[i], "QP %s: %d, want %d", what[i], got,
		       want[i]);
	}
}

static void check_srq_udata(int fd, uint32_t pd)
{
	struct ib_uverbs_create_srq_resp r = {};
	struct ib_uverbs_create_srq c = {
		.pd_handle = pd, .max_wr = 15, .max_sge = 1};
	struct mlx5_ib_create_srq s;
	struct v_udata u;

	v_srq_udata(&u, 15, 1);
	memcpy(&s, u.in, sizeof(s));
	s.reserved0 = 1;
	memcpy(u.in, &s, sizeof(s));
	EXPECT_ERR(v_write_udata(fd, IB_USER_VERBS_CMD_CREATE_SRQ, &c,
				 sizeof(c), &r, sizeof(r), &u),
		   EINVAL);
	v_srq_udata(&u, 15, 1);
	u.in_len = offsetof(struct mlx5_ib_create_srq, uidx) - 1;
	EXPECT_ERR(v_write_udata(fd, IB_USER_VERBS_CMD_CREATE_SRQ, &c,
				 sizeof(c), &r, sizeof(r), &u),
		   EINVAL);
	v_srq_udata(&u, 15, 1);
	EXPECT_ERR(v_write_udata(fd, IB_USER_VERBS_CMD_CREATE_SRQ, &c,
				 sizeof(c), &r, sizeof(r), &u),
		   0);
	EXPECT_ERR(raw_destroy_srq(fd, r.srq_handle), 0);
}

void v_check_mlx5_udata(void)
{
	uint32_t pd, cq;
	int fd;

	if (v_rxe)
		return; /* rxe has its own driver data */
	fd = v_env(&pd, &cq);
	if (fd < 0)
		return;
	check_cq_udata(fd);
	check_qp_udata(fd, pd, cq);
	check_srq_udata(fd, pd);
	close(fd);
}
