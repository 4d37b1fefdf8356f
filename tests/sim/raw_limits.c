// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * No limits of the sim's own: every MEMIC page of every device can be its
 * own allocation (the kernel's 256-page bitmap is the limit), and one DM
 * can be exported more than 256 times (RLIMIT_NOFILE is the limit).
 * Run as: rdma-sim --devices 3 --dm-size 1048576 -- sim_raw --limits 3
 */
#include "raw.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#define EXPORTS 300

static int open_dev(unsigned int dev)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = {
		.total_num_bfregs = 16,
		.num_low_latency_bfregs = 4,
		.max_cqe_version = 1,
		.lib_caps = MLX5_LIB_CAP_4K_UAR | MLX5_LIB_CAP_DYN_UAR,
	};
	struct mlx5_ib_alloc_ucontext_resp resp;
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/infiniband/uverbs%u", dev);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd >= 0 && raw_get_context(fd, &req, sizeof(req), &resp)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Every page of the device as an allocation of its own, then ENOMEM. */
static void fill_device(int fd, unsigned int dev, uint32_t pages)
{
	uint32_t i, h, ok = 0;
	uint16_t idx;

	for (i = 0; i < pages; i++)
		ok += !raw_dm_alloc(fd, 64, 0, &h, &idx);
	EXPECT(ok == pages, "device %u: %u of %u one-page DMs", dev, ok, pages);
	EXPECT_ERR(raw_dm_alloc(fd, 64, 0, &h, &idx), ENOMEM);
}

static void many_exports(void)
{
	int fd = open_dev(0), dfd[EXPORTS], n = 0, i;
	uint32_t h;
	uint16_t idx;

	EXPECT_ERR(raw_dm_alloc(fd, 4096, 0, &h, &idx), 0);
	for (i = 0; i < EXPORTS; i++)
		if (!raw_export(fd, raw_dm_offset(idx), &dfd[n]))
			n++;
	EXPECT(n == EXPORTS, "%d of %d exports of one DM", n, EXPORTS);
	while (n)
		close(dfd[--n]);
	close(fd);
}

int raw_check_limits(unsigned int ndev)
{
	uint32_t pages = (uint32_t)(1048576 / sysconf(_SC_PAGESIZE));
	int fds[16];
	unsigned int d;

	if (ndev > 16)
		return 2;
	many_exports();
	for (d = 0; d < ndev; d++) {
		fds[d] = open_dev(d);
		EXPECT(fds[d] >= 0, "open uverbs%u", d);
		if (fds[d] >= 0)
			fill_device(fds[d], d, pages);
	}
	for (d = 0; d < ndev; d++)
		if (fds[d] >= 0)
			close(fds[d]);
	/* all given back: the whole device again */
	fds[0] = open_dev(0);
	if (fds[0] >= 0)
		fill_device(fds[0], 0, pages);
	close(fds[0]);
	if (raw_failures)
		fprintf(stderr, "sim_raw --limits: %d failure(s)\n",
			raw_failures);
	return raw_failures ? 1 : 0;
}
