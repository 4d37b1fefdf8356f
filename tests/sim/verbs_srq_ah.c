// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * SRQ create (ioctl types and limits), modify (limit, resize per driver),
 * query, destroy while a QP uses it; AH create/destroy and the PD it holds.
 */
#include "verbs.h"

#include <errno.h>
#include <rdma/rdma_user_rxe.h>
#include <unistd.h>

static int srq_ioctl(int fd, uint32_t pd, uint64_t type, uint32_t max_wr,
		     uint32_t max_sge, uint32_t *handle, uint32_t *got_wr)
{
	struct raw_ioctl c;
	struct v_udata u;
	uint32_t wr = 0, sge = 0;
	int ret;

	v_srq_udata(&u, max_wr, max_sge);
	raw_init(&c, UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_CREATE);
	raw_attr(&c, UVERBS_ATTR_CREATE_SRQ_HANDLE, 0, 0);
	raw_attr(&c, UVERBS_ATTR_CREATE_SRQ_PD_HANDLE, 0, pd);
	raw_attr(&c, UVERBS_ATTR_CREATE_SRQ_USER_HANDLE, 8, 0x99);
	raw_attr(&c, UVERBS_ATTR_CREATE_SRQ_MAX_WR, 4, max_wr);
	raw_attr(&c, UVERBS_ATTR_CREATE_SRQ_MAX_SGE, 4, max_sge);
	raw_attr(&c, UVERBS_ATTR_CREATE_SRQ_LIMIT, 4, 0);
	raw_attr(&c, UVERBS_ATTR_CREATE_SRQ_TYPE, 8, type);
	raw_ptr(&c, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR, &wr);
	raw_ptr(&c, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE, &sge);
	v_add_uhw(&c, &u);
	ret = raw_call_new(fd, &c, handle);
	if (got_wr)
		*got_wr = wr;
	return ret;
}

static int query_limit(int fd, uint32_t h, uint32_t *limit, uint32_t *wr)
{
	struct ib_uverbs_query_srq_resp r = {};
	struct ib_uverbs_query_srq q = {.response = (uintptr_t)&r,
					.srq_handle = h};
	int ret = raw_write(fd, IB_USER_VERBS_CMD_QUERY_SRQ, &q, sizeof(q),
			    sizeof(r));

	*limit = r.srq_limit;
	*wr = r.max_wr;
	return ret;
}

static void check_srq(int fd, uint32_t pd, uint32_t cq)
{
	uint32_t h, got = 0, limit = 0, wr = 0, qp;
	struct v_qp_req q;

	EXPECT_ERR(srq_ioctl(fd, pd, IB_UVERBS_SRQT_BASIC, 16, 1, &h, &got), 0);
	EXPECT(got >= 16, "max_wr %u granted for 16", got);
	EXPECT_ERR(raw_destroy_attr(fd, UVERBS_OBJECT_SRQ,
				    UVERBS_METHOD_SRQ_DESTROY,
				    UVERBS_ATTR_DESTROY_SRQ_HANDLE, h),
		   EINVAL); /* RESP is mandatory */
	EXPECT_ERR(raw_destroy_srq(fd, h), 0);
	EXPECT_ERR(srq_ioctl(fd, pd, IB_UVERBS_SRQT_XRC, 16, 1, &h, NULL),
		   ENOENT); /* its XRCD does not exist */
	EXPECT_ERR(srq_ioctl(fd, pd, IB_UVERBS_SRQT_TM, 16, 1, &h, NULL),
		   ENOENT); /* no CQ given */
	EXPECT_ERR(srq_ioctl(fd, pd, 3, 16, 1, &h, NULL), EINVAL);
	EXPECT_ERR(srq_ioctl(fd, 0xdead, 0, 16, 1, &h, NULL), ENOENT);
	EXPECT_ERR(srq_ioctl(fd, pd, 0, v_rxe ? (1u << 20) + 1 : 1u << 15, 1,
			     &h, NULL),
		   EINVAL);
	EXPECT_ERR(srq_ioctl(fd, pd, 0, 16, v_rxe ? 28 : 32, &h, NULL), EINVAL);
	/* limit, resize, query */
	EXPECT_ERR(v_create_srq(fd, pd, 16, 1, &h), 0);
	EXPECT_ERR(raw_modify_srq(fd, h, 2, 0, 4, v_rxe), 0);
	EXPECT_ERR(query_limit(fd, h, &limit, &wr), 0);
	EXPECT(limit == 4, "limit %u", limit);
	EXPECT_ERR(raw_modify_srq(fd, h, 2, 0, wr + 1, v_rxe), EINVAL);
	/* rxe grows the ring; mlx5 SRQs do not resize */
	EXPECT_ERR(raw_modify_srq(fd, h, 1, 100, 0, v_rxe), v_rxe ? 0 : EINVAL);
	EXPECT_ERR(query_limit(fd, h, &limit, &wr), 0);
	EXPECT(wr == (v_rxe ? 127u : got), "max_wr %u after resize", wr);
	EXPECT_ERR(raw_modify_srq(fd, 0xdead, 2, 0, 1, v_rxe), ENOENT);
	/* a QP on the SRQ holds it */
	v_qp_req_init(&q, pd, cq, 2);
	q.srq = h;
	EXPECT_ERR(v_create_qp(fd, &q, &qp, NULL), 0);
	EXPECT_ERR(raw_destroy_srq(fd, h), EBUSY);
	EXPECT_ERR(raw_destroy_qp(fd, qp, NULL), 0);
	EXPECT_ERR(raw_destroy_srq(fd, h), 0);
	EXPECT_ERR(raw_destroy_srq(fd, h), ENOENT);
}

static int create_ah(int fd, uint32_t pd, uint8_t global, uint8_t sgid,
		     uint32_t *h)
{
	uint8_t r[sizeof(struct ib_uverbs_create_ah_resp) +
		  sizeof(struct rxe_create_ah_resp)] = {};
	struct ib_uverbs_create_ah_resp core;
	struct ib_uverbs_create_ah c = {
		.response = (uintptr_t)r,
		.pd_handle = pd,
		.attr = {.dlid = 1,
			 .port_num = 1,
			 .is_global = global,
			 .grh = {.sgid_index = sgid, .hop_limit = 1}},
	};
	int ret = raw_write(fd, IB_USER_VERBS_CMD_CREATE_AH, &c, sizeof(c),
			    sizeof(r));

	memcpy(&core, r, sizeof(core));
	*h = core.ah_handle;
	return ret;
}

static void check_ah(int fd, uint32_t pd)
{
	struct ib_uverbs_destroy_ah d;
	uint32_t h, pd2;

	EXPECT_ERR(raw_alloc_pd(fd, &pd2), 0);
	EXPECT_ERR(create_ah(fd, pd2, 1, 0, &h), 0);
	EXPECT_ERR(raw_destroy_pd(fd, pd2), EBUSY); /* the AH holds it */
	EXPECT_ERR(
		raw_destroy(fd, UVERBS_OBJECT_AH, UVERBS_METHOD_AH_DESTROY, h),
		0);
	EXPECT_ERR(
		raw_destroy(fd, UVERBS_OBJECT_AH, UVERBS_METHOD_AH_DESTROY, h),
		ENOENT);
	EXPECT_ERR(raw_destroy_pd(fd, pd2), 0);
	/* IB takes an AH without a GRH; RoCE does not */
	EXPECT_ERR(create_ah(fd, pd, 0, 0, &h), v_rxe ? EINVAL : 0);
	if (!v_rxe) {
		d.ah_handle = h;
		EXPECT_ERR(raw_write(fd, IB_USER_VERBS_CMD_DESTROY_AH, &d,
				     sizeof(d), 0),
			   0);
	}
	EXPECT_ERR(create_ah(fd, pd, 1, 3, &h), ENODATA);
	EXPECT_ERR(create_ah(fd, pd, 1, 4, &h), v_rxe ? ENODATA : EINVAL);
	EXPECT_ERR(create_ah(fd, 0xdead, 1, 0, &h), ENOENT);
}

void v_check_srq_ah(void)
{
	uint32_t pd, cq;
	int fd = v_env(&pd, &cq);

	if (fd < 0)
		return;
	check_srq(fd, pd, cq);
	check_ah(fd, pd);
	close(fd);
}
