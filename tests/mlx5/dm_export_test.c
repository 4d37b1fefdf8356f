// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ibv_dm_export_dmabuf_fd on mlx5 under rdma-sim (run with --devices 2):
 * the fd itself, import on a second context, the peer device's view of the
 * bytes, close orders and revocation, and leaks.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <infiniband/mlx5dv.h>
#include <rdma_sim_peer.h>

#include "dm_util.h"

#define DM_LEN 4096

static struct dm_env owner, importer;

static int setup(void **state)
{
	int err;

	if (!rdma_sim_active()) {
		print_error("run this under rdma-sim --devices 2\n");
		return -1;
	}
	err = dm_env_open(&owner, 0);
	if (!err)
		err = dm_env_open(&importer, 1);
	if (err) {
		print_error("cannot open devices 0 and 1: %s\n", strerror(err));
		dm_env_close(&owner);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	dm_env_close(&importer);
	dm_env_close(&owner);
	return 0;
}

static struct ibv_dm *dm_with_pattern(size_t len, unsigned int seed,
				      uint8_t *pattern)
{
	struct ibv_dm *dm = alloc_dm(owner.ctx, len, 0);

	assert_non_null(dm);
	fill_pattern(pattern, len, seed);
	assert_int_equal(ibv_memcpy_to_dm(dm, 0, pattern, len), 0);
	return dm;
}

static void assert_peer_sees(struct rdma_sim_peer *peer, const uint8_t *want,
			     size_t len)
{
	uint8_t got[DM_LEN];

	assert_true(len <= sizeof(got));
	assert_int_equal(rdma_sim_peer_read(peer, 0, got, len), 0);
	assert_memory_equal(got, want, len);
}

static void assert_revoked(struct rdma_sim_peer *peer)
{
	uint8_t b[4];

	errno = 0;
	assert_int_equal(rdma_sim_peer_read(peer, 0, b, sizeof(b)), -1);
	assert_int_equal(errno, ENODEV);
	errno = 0;
	assert_int_equal(rdma_sim_peer_write(peer, 0, b, sizeof(b)), -1);
	assert_int_equal(errno, ENODEV);
}

/* Export @dm and import the new fd on the peer device. */
static struct rdma_sim_peer *export_to_peer(struct ibv_dm *dm, int *fd)
{
	struct rdma_sim_peer *peer;

	*fd = ibv_dm_export_dmabuf_fd(dm);
	assert_true(*fd > 2);
	peer = rdma_sim_peer_import(*fd);
	assert_non_null(peer);
	return peer;
}

static void test_fd_properties(void **state)
{
	uint8_t pat[DM_LEN];
	struct ibv_dm *dm = dm_with_pattern(DM_LEN, 1, pat);
	struct rdma_sim_peer *peer;
	int fd1, fd2;

	fd1 = ibv_dm_export_dmabuf_fd(dm);
	fd2 = ibv_dm_export_dmabuf_fd(dm);
	assert_true(fd1 > 2);
	assert_true(fd2 > 2);
	assert_int_not_equal(fd1, fd2);
	assert_int_equal(fcntl(fd1, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	assert_int_equal(fcntl(fd2, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	/* The dma-buf covers the whole page-rounded entry. */
	assert_int_equal(lseek(fd1, 0, SEEK_END), DM_LEN);

	/* Independent: the second still works after the first is closed. */
	assert_int_equal(close(fd1), 0);
	peer = rdma_sim_peer_import(fd2);
	assert_non_null(peer);
	assert_peer_sees(peer, pat, DM_LEN);
	rdma_sim_peer_release(peer);
	assert_int_equal(close(fd2), 0);
	assert_int_equal(ibv_free_dm(dm), 0);
}

static void test_import_on_second_context(void **state)
{
	uint8_t pat[DM_LEN], mine[DM_LEN], seen[DM_LEN];
	struct ibv_dm *dm = dm_with_pattern(DM_LEN, 2, pat);
	struct rdma_sim_peer *peer;
	struct ibv_mr *mr;
	int fd;

	fd = ibv_dm_export_dmabuf_fd(dm);
	assert_true(fd > 2);
	mr = ibv_reg_dmabuf_mr(importer.pd, 0, DM_LEN, 0, fd,
			       IBV_ACCESS_LOCAL_WRITE |
				       IBV_ACCESS_REMOTE_READ |
				       IBV_ACCESS_REMOTE_WRITE);
	assert_non_null(mr);
	assert_ptr_equal(mr->pd, importer.pd);
	assert_int_equal(mr->length, DM_LEN);
	/* Beyond the dma-buf: refused. */
	errno = 0;
	assert_null(ibv_reg_dmabuf_mr(importer.pd, 0, 2 * DM_LEN, 0, fd,
				      IBV_ACCESS_LOCAL_WRITE));
	assert_int_equal(errno, EINVAL);

	peer = rdma_sim_peer_import(fd);
	assert_non_null(peer);
	assert_int_equal(close(fd), 0); /* the peer and MR hold their own */
	assert_peer_sees(peer, pat, DM_LEN);
	fill_pattern(mine, DM_LEN, 77);
	assert_int_equal(rdma_sim_peer_write(peer, 0, mine, DM_LEN), 0);
	assert_int_equal(ibv_memcpy_from_dm(seen, dm, 0, DM_LEN), 0);
	assert_memory_equal(seen, mine, DM_LEN);

	assert_int_equal(ibv_dereg_mr(mr), 0);
	rdma_sim_peer_release(peer);
	assert_int_equal(ibv_free_dm(dm), 0);
}

/* ibv_reg_mr_ex with a dma-buf fd reaches the same registration. */
static void test_reg_mr_ex_with_fd(void **state)
{
	uint8_t pat[DM_LEN];
	struct ibv_dm *dm = dm_with_pattern(DM_LEN, 8, pat);
	struct ibv_mr_init_attr attr = {
		.length = DM_LEN / 2,
		.access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ,
		.comp_mask = IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET |
			     IBV_REG_MR_MASK_IOVA,
		.iova = 0x10000 + DM_LEN / 2,
		.fd_offset = DM_LEN / 2,
	};
	struct ibv_mr *mr;

	attr.fd = ibv_dm_export_dmabuf_fd(dm);
	assert_true(attr.fd > 2);
	mr = ibv_reg_mr_ex(importer.pd, &attr);
	assert_non_null(mr);
	assert_int_equal(mr->length, DM_LEN / 2);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	/* Past the end of the dma-buf. */
	attr.length = DM_LEN;
	errno = 0;
	assert_null(ibv_reg_mr_ex(importer.pd, &attr));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(close(attr.fd), 0);
	assert_int_equal(ibv_free_dm(dm), 0);
}

/* Close the fd first; the peer's import lives until the DM is freed. */
static void test_close_fd_then_free(void **state)
{
	uint8_t pat[256];
	struct ibv_dm *dm = dm_with_pattern(sizeof(pat), 3, pat);
	int fd;
	struct rdma_sim_peer *peer = export_to_peer(dm, &fd);

	assert_int_equal(close(fd), 0);
	assert_peer_sees(peer, pat, sizeof(pat));
	assert_int_equal(ibv_free_dm(dm), 0);
	assert_revoked(peer);
	rdma_sim_peer_release(peer);
}

/* Free first: the fd stays open but its buffer is revoked. */
static void test_free_then_close_fd(void **state)
{
	uint8_t pat[256];
	struct ibv_dm *dm = dm_with_pattern(sizeof(pat), 4, pat);
	int fd;
	struct rdma_sim_peer *peer = export_to_peer(dm, &fd);

	assert_int_equal(ibv_free_dm(dm), 0);
	assert_revoked(peer);
	assert_true(fcntl(fd, F_GETFD) >= 0);
	/* A new import of a revoked export fails too. */
	errno = 0;
	assert_null(rdma_sim_peer_import(fd));
	assert_int_equal(errno, ENODEV);
	/* So does a registration (ibv_reg_dmabuf_mr(3) lists ENODEV). */
	errno = 0;
	assert_null(ibv_reg_dmabuf_mr(importer.pd, 0, sizeof(pat), 0, fd,
				      IBV_ACCESS_LOCAL_WRITE));
	assert_int_equal(errno, ENODEV);
	assert_int_equal(close(fd), 0);
	rdma_sim_peer_release(peer);
}

/* The fd outlives the whole device context. */
static void test_close_fd_after_close_device(void **state)
{
	struct dm_env third;
	struct rdma_sim_peer *peer;
	struct ibv_dm *dm;
	int fd;

	assert_int_equal(dm_env_open(&third, 0), 0);
	dm = alloc_dm(third.ctx, 128, 0);
	assert_non_null(dm);
	peer = export_to_peer(dm, &fd);
	assert_int_equal(ibv_free_dm(dm), 0);
	dm_env_close(&third);
	assert_revoked(peer);
	assert_true(fcntl(fd, F_GETFD) >= 0);
	assert_int_equal(close(fd), 0);
	rdma_sim_peer_release(peer);
}

/*
 * Closing the device with the DM never freed: the provider unmaps it (a
 * live mapping would keep the kernel context alive), so the export is
 * revoked and no mapping is left, yet the fd stays open until closed.
 */
static void test_close_device_with_dm_alive(void **state)
{
	int maps = count_maps(), fds = count_fds();
	struct rdma_sim_peer *peer;
	struct dm_env third;
	struct ibv_dm *dm;
	int fd;

	assert_int_equal(dm_env_open(&third, 0), 0);
	dm = alloc_dm(third.ctx, 128, 0);
	assert_non_null(dm);
	peer = export_to_peer(dm, &fd);
	dm_env_close(&third); /* no ibv_free_dm */
	assert_revoked(peer);
	assert_int_equal(count_maps(), maps);
	assert_true(fcntl(fd, F_GETFD) >= 0);
	assert_int_equal(close(fd), 0);
	rdma_sim_peer_release(peer);
	assert_int_equal(count_fds(), fds);
}

/* Everything made by a full export cycle is released again. */
static void test_no_leaks(void **state)
{
	int fds = count_fds(), maps = count_maps();
	uint8_t pat[DM_LEN];
	struct dm_env local;
	struct rdma_sim_peer *peer;
	struct ibv_mr *mr;
	struct ibv_dm *dm;
	void *op;
	int fd, round;

	for (round = 0; round < 3; round++) {
		assert_int_equal(dm_env_open(&local, 0), 0);
		dm = alloc_dm(local.ctx, DM_LEN, 0);
		assert_non_null(dm);
		op = mlx5dv_dm_map_op_addr(dm, 1);
		assert_non_null(op);
		assert_int_equal(unmap_op_addr(op, DM_LEN), 0);
		fill_pattern(pat, DM_LEN, (unsigned int)round);
		assert_int_equal(ibv_memcpy_to_dm(dm, 0, pat, DM_LEN), 0);
		fd = ibv_dm_export_dmabuf_fd(dm);
		assert_true(fd > 2);
		mr = ibv_reg_dmabuf_mr(importer.pd, 0, DM_LEN, 0, fd,
				       IBV_ACCESS_LOCAL_WRITE);
		assert_non_null(mr);
		peer = rdma_sim_peer_import(fd);
		assert_non_null(peer);
		assert_peer_sees(peer, pat, DM_LEN);
		rdma_sim_peer_release(peer);
		assert_int_equal(ibv_dereg_mr(mr), 0);
		assert_int_equal(close(fd), 0);
		assert_int_equal(ibv_free_dm(dm), 0);
		dm_env_close(&local);
	}
	assert_int_equal(count_fds(), fds);
	assert_int_equal(count_maps(), maps);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fd_properties),
		cmocka_unit_test(test_import_on_second_context),
		cmocka_unit_test(test_reg_mr_ex_with_fd),
		cmocka_unit_test(test_close_fd_then_free),
		cmocka_unit_test(test_free_then_close_fd),
		cmocka_unit_test(test_close_fd_after_close_device),
		cmocka_unit_test(test_close_device_with_dm_alive),
		cmocka_unit_test(test_no_leaks),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
