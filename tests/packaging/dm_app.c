// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * An application built only from the rdma-dm-dev package's pkg-config data
 * (never from the tree): proves the installed headers, library, RPATH and
 * provider/config directories work together.
 *
 *   dm_app            print the libibverbs that got loaded and the devices
 *                     (a host without RDMA has none: not an error)
 *   dm_app DEVNAME    also allocate DM on DEVNAME, round-trip bytes through
 *                     it and export it as a dma-buf
 * Exit 0 on success; any failure prints what and why and exits 1.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr */
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#define DM_LEN 4096

static int fail(const char *what)
{
	fprintf(stderr, "dm_app: %s: %s\n", what, strerror(errno));
	return 1;
}

static int print_library(void)
{
	Dl_info info;

	if (!dladdr((void *)ibv_get_device_list, &info) || !info.dli_fname) {
		fprintf(stderr, "dm_app: dladdr found no libibverbs\n");
		return 1;
	}
	printf("libibverbs: %s\n", info.dli_fname);
	return 0;
}

/* Bytes written to the DM come back unchanged. */
static int check_round_trip(struct ibv_dm *dm)
{
	unsigned char out[DM_LEN], in[DM_LEN];
	size_t i;

	for (i = 0; i < sizeof(out); i++)
		out[i] = (unsigned char)(i * 7 + 3);
	if (ibv_memcpy_to_dm(dm, 0, out, sizeof(out)))
		return fail("ibv_memcpy_to_dm");
	memset(in, 0, sizeof(in));
	if (ibv_memcpy_from_dm(in, dm, 0, sizeof(in)))
		return fail("ibv_memcpy_from_dm");
	if (memcmp(in, out, sizeof(in))) {
		fprintf(stderr, "dm_app: DM read back differs\n");
		return 1;
	}
	printf("dm round trip: %d bytes\n", DM_LEN);
	return 0;
}

/* The export is a new close-on-exec fd, released by close(). */
static int check_export(struct ibv_dm *dm)
{
	struct stat st;
	int fd, flags;

	fd = ibv_dm_export_dmabuf_fd(dm);
	if (fd < 0)
		return fail("ibv_dm_export_dmabuf_fd");
	flags = fcntl(fd, F_GETFD);
	if (flags < 0 || !(flags & FD_CLOEXEC) || fstat(fd, &st)) {
		fprintf(stderr, "dm_app: export fd %d not a CLOEXEC fd\n", fd);
		close(fd);
		return 1;
	}
	printf("dmabuf fd: ok\n");
	return close(fd) ? fail("close(dmabuf fd)") : 0;
}

static int run_dm(struct ibv_device *dev)
{
	struct ibv_alloc_dm_attr attr = { .length = DM_LEN };
	struct ibv_device_attr_ex dattr = {};
	struct ibv_context *ctx;
	struct ibv_dm *dm;
	int ret = 1;

	ctx = ibv_open_device(dev);
	if (!ctx)
		return fail("ibv_open_device");
	if (ibv_query_device_ex(ctx, NULL, &dattr)) {
		fail("ibv_query_device_ex");
		goto close_dev;
	}
	printf("max_dm_size: %llu\n", (unsigned long long)dattr.max_dm_size);
	dm = ibv_alloc_dm(ctx, &attr);
	if (!dm) {
		fail("ibv_alloc_dm");
		goto close_dev;
	}
	ret = check_round_trip(dm) || check_export(dm);
	if (ibv_free_dm(dm))
		ret = fail("ibv_free_dm");
close_dev:
	if (ibv_close_device(ctx))
		ret = fail("ibv_close_device");
	return ret;
}

int main(int argc, char **argv)
{
	struct ibv_device **list, *dev = NULL;
	int i, n, ret;

	if (print_library())
		return 1;
	list = ibv_get_device_list(&n);
	if (!list) {
		/* No RDMA in this kernel (ENOSYS): fine unless DM was asked. */
		printf("no device list: %s\n", strerror(errno));
		return argc > 1;
	}
	for (i = 0; i < n; i++) {
		printf("device: %s\n", ibv_get_device_name(list[i]));
		if (argc > 1 && !strcmp(ibv_get_device_name(list[i]), argv[1]))
			dev = list[i];
	}
	ret = 0;
	if (argc > 1) {
		if (!dev) {
			fprintf(stderr, "dm_app: no device %s\n", argv[1]);
			ret = 1;
		} else {
			ret = run_dm(dev);
		}
	}
	ibv_free_device_list(list);
	return ret;
}
