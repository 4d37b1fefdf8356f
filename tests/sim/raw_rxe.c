// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The soft-RoCE model: what the real-kernel lane's rxe answers. */
#include "raw.h"

#include <errno.h>
#include <rdma/rdma_user_rxe.h>
#include <unistd.h>

/* CQ_CREATE with its FLAGS attribute as given; 0 or the errno. */
static int create_cq(int fd, uint16_t flags_len, uint64_t flags)
{
	struct rxe_create_cq_resp resp;
	struct raw_ioctl c;
	uint32_t cqe, h;

	raw_init(&c, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	raw_attr(&c, UVERBS_ATTR_CREATE_CQ_HANDLE, 0, 0);
	raw_attr(&c, UVERBS_ATTR_CREATE_CQ_CQE, 4, 16);
	raw_attr(&c, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 8, 0x1234);
	raw_attr(&c, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 4, 0);
	raw_ptr(&c, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &cqe);
	raw_ptr(&c, UVERBS_ATTR_UHW_OUT, &resp);
	raw_attr(&c, UVERBS_ATTR_CREATE_CQ_FLAGS, flags_len, flags);
	return raw_call_new(fd, &c, &h);
}

/* CREATE_CQ_FLAGS is a flags attribute: 4 or 8 bytes, known bits only. */
static void check_cq_flags(int fd)
{
	EXPECT_ERR(create_cq(fd, 4, 0), 0);
	EXPECT_ERR(create_cq(fd, 8, 0), 0);
	EXPECT_ERR(create_cq(fd, 6, 0), EINVAL);
	EXPECT_ERR(create_cq(fd, 8, 1ULL << 40), EINVAL);
}

int raw_check_rxe(void)
{
	uint32_t vecs, h;
	uint16_t idx;
	struct raw_ioctl c;
	int fd = raw_open(), dfd;

	raw_driver_id = RDMA_DRIVER_RXE;
	raw_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT);
	raw_ptr(&c, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, &vecs);
	c.hdr.driver_id = RDMA_DRIVER_MLX5;
	EXPECT_ERR(raw_call(fd, &c), EINVAL); /* wrong driver id */
	c.hdr.driver_id = RDMA_DRIVER_RXE;
	EXPECT_ERR(raw_call(fd, &c), 0);
	/* rxe has no DM ops: the kernel hides the DM object (6.1, 6.12) */
	EXPECT_ERR(raw_dm_alloc(fd, 64, 0, &h, &idx), EPROTONOSUPPORT);
	raw_init(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC);
	raw_attr(&c, UVERBS_ATTR_ALLOC_DM_HANDLE, 0, 0);
	raw_attr(&c, UVERBS_ATTR_ALLOC_DM_LENGTH, 8, 64);
	raw_attr(&c, UVERBS_ATTR_ALLOC_DM_ALIGNMENT, 4, 0);
	EXPECT_ERR(raw_call(fd, &c), EPROTONOSUPPORT);
	EXPECT_ERR(raw_export(fd, 0, &dfd), EPROTONOSUPPORT);
	raw_init(&c, UVERBS_OBJECT_DM, MLX5_IB_METHOD_DM_MAP_OP_ADDR);
	EXPECT_ERR(raw_call(fd, &c), EPROTONOSUPPORT);
	raw_init(&c, MLX5_IB_OBJECT_UAR, MLX5_IB_METHOD_UAR_OBJ_ALLOC);
	EXPECT_ERR(raw_call(fd, &c), EPROTONOSUPPORT);
	check_cq_flags(fd);
	close(fd);
	if (raw_failures)
		fprintf(stderr, "sim_raw --rxe: %d failure(s)\n", raw_failures);
	else
		printf("sim_raw --rxe: all checks passed\n");
	return raw_failures ? 1 : 0;
}
