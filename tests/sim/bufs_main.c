// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* sim_bufs: the dma-buf paths of rdma-sim (must run under rdma-sim). */
#include "bufs.h"

#include "fds.h"

#include <string.h>
#include <unistd.h>

const char *raw_argv0;

/* --rxe: what the soft-RoCE driver lacks. */
static int check_rxe(void)
{
	struct raw_ioctl c;
	int fd = raw_open();
	uint32_t vecs;

	raw_driver_id = RDMA_DRIVER_RXE;
	raw_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT);
	raw_ptr(&c, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, &vecs);
	EXPECT_ERR(raw_call(fd, &c), 0);
	bufs_check_rxe(fd);
	close(fd);
	return raw_failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	int fds_before, maps_before;

	raw_argv0 = argv[0];
	raw_driver_id = RDMA_DRIVER_MLX5;
	if (argc > 1 && !strcmp(argv[1], "--rxe"))
		return check_rxe();
	if (!rdma_sim_active()) {
		fprintf(stderr, "sim_bufs: must run under rdma-sim\n");
		return 1;
	}
	fds_before = count_fds();
	maps_before = count_maps();
	bufs_check_uar();
	bufs_check_dmah();
	bufs_check_heap(argc > 1 && !strcmp(argv[1], "--cc-guest"));
	bufs_check_drm();
	EXPECT(count_fds() == fds_before, "fds leaked: %d -> %d", fds_before,
	       count_fds());
	EXPECT(count_maps() == maps_before, "mappings leaked: %d -> %d",
	       maps_before, count_maps());
	if (raw_failures) {
		fprintf(stderr, "sim_bufs: %d failure(s)\n", raw_failures);
		return 1;
	}
	printf("sim_bufs: all checks passed\n");
	return 0;
}
