// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The scenario dm_fault_injection.py runs under `rdma-sim --fail ...`:
 * ibv_open_device, ibv_alloc_dm, ibv_dm_export_dmabuf_fd, ibv_free_dm,
 * ibv_close_device. The first verb that fails is reported as
 *   RESULT <verb> <errno>
 * and everything made so far is undone. A failed ibv_free_dm must leave
 * the DM usable (its bytes are read back) and a second free must work.
 * Finally the process must hold exactly the fds and mappings it had before
 * the device was opened.
 *
 * Exit: 0 all verbs passed, 3 one verb failed cleanly, 1 a check failed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dm_util.h"

#define LEN 256

static int report(const char *verb, int err)
{
	printf("RESULT %s %d\n", verb, err);
	return 3;
}

static int free_dm_checked(struct ibv_dm *dm, const uint8_t *pat, int *ret)
{
	uint8_t back[LEN];
	int err = ibv_free_dm(dm);

	if (!err)
		return 0;
	*ret = report("ibv_free_dm", err);
	/* Nothing may have been released: the DM still reads back. */
	if (ibv_memcpy_from_dm(back, dm, 0, LEN) || memcmp(back, pat, LEN)) {
		fprintf(stderr, "FAIL: DM unusable after a failed free\n");
		return 1;
	}
	if (ibv_free_dm(dm)) {
		fprintf(stderr, "FAIL: second ibv_free_dm failed\n");
		return 1;
	}
	return 0;
}

/*
 * After a failed ibv_alloc_dm nothing may stay allocated in the device:
 * the whole of max_dm_size must still be available.
 */
static int memic_all_free(struct ibv_context *ctx)
{
	struct ibv_device_attr_ex attr = {};
	struct ibv_dm *all;

	if (ibv_query_device_ex(ctx, NULL, &attr))
		return 0;
	all = alloc_dm(ctx, attr.max_dm_size, 0);
	if (!all) {
		fprintf(stderr, "FAIL: MEMIC still held after a failed "
			"alloc: %s\n", strerror(errno));
		return 0;
	}
	return !ibv_free_dm(all);
}

static int run(struct ibv_device *dev, int *ret)
{
	uint8_t pat[LEN];
	struct ibv_context *ctx;
	struct ibv_dm *dm;
	int fd, err = 0;

	ctx = ibv_open_device(dev);
	if (!ctx) {
		*ret = report("ibv_open_device", errno);
		return 0;
	}
	dm = alloc_dm(ctx, LEN, 0);
	if (!dm) {
		*ret = report("ibv_alloc_dm", errno);
		if (!memic_all_free(ctx))
			err = 1;
		goto out_close;
	}
	fill_pattern(pat, LEN, 1);
	if (ibv_memcpy_to_dm(dm, 0, pat, LEN)) {
		fprintf(stderr, "FAIL: copy to DM\n");
		err = 1;
		goto out_free;
	}
	fd = ibv_dm_export_dmabuf_fd(dm);
	if (fd < 0)
		*ret = report("ibv_dm_export_dmabuf_fd", errno);
	else
		close(fd);
out_free:
	if (free_dm_checked(dm, pat, ret))
		err = 1;
out_close:
	if (ibv_close_device(ctx)) {
		fprintf(stderr, "FAIL: ibv_close_device\n");
		err = 1;
	}
	return err;
}

int main(void)
{
	struct ibv_device **list;
	int num, fds, maps, ret = 0;

	list = ibv_get_device_list(&num);
	if (!list || !num) {
		fprintf(stderr, "FAIL: no device\n");
		return 1;
	}
	fds = count_fds();
	maps = count_maps();
	if (run(list[0], &ret))
		return 1;
	if (count_fds() != fds || count_maps() != maps) {
		fprintf(stderr, "FAIL: leaked: fds %d -> %d, maps %d -> %d\n",
			fds, count_fds(), maps, count_maps());
		return 1;
	}
	ibv_free_device_list(list);
	if (!ret)
		printf("RESULT none 0\n");
	return ret;
}
