// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The soft-RoCE model: what the real-kernel lane's rxe answers. */
#include "raw.h"

#include <errno.h>
#include <unistd.h>

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
	close(fd);
	if (raw_failures)
		fprintf(stderr, "sim_raw --rxe: %d failure(s)\n", raw_failures);
	else
		printf("sim_raw --rxe: all checks passed\n");
	return raw_failures ? 1 : 0;
}
