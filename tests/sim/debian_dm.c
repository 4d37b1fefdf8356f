// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Judge program: built against Debian's own libibverbs-dev (rdma-core 44)
 * and run under rdma-sim, it must get exactly what upstream gets from a
 * real mlx5 kernel. Usage: debian_dm [--no-dm]
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fds.h"
#include "judge.h"
#include "qp_link.h"

static struct ibv_context *open_mlx5_0(void)
{
	return qp_link_open("mlx5_0", NULL);
}

static uint64_t max_dm_size(struct ibv_context *ctx)
{
	struct ibv_device_attr_ex attr;

	memset(&attr, 0, sizeof(attr));
	if (ibv_query_device_ex(ctx, NULL, &attr))
		return (uint64_t)-1;
	return attr.max_dm_size;
}

static struct ibv_dm *alloc_dm(struct ibv_context *ctx, size_t len,
			       uint32_t log_align)
{
	struct ibv_alloc_dm_attr a = {.length = len,
				      .log_align_req = log_align};

	return ibv_alloc_dm(ctx, &a);
}

static void check_roundtrip(struct ibv_context *ctx, size_t len, uint32_t align)
{
	unsigned char *in = malloc(len), *out = malloc(len);
	struct ibv_dm *dm = alloc_dm(ctx, len, align);
	size_t i;

	CHECK(dm, "alloc %zu align %u: %s", len, align, strerror(errno));
	if (!dm || !in || !out)
		goto out;
	for (i = 0; i < len; i++)
		in[i] = (unsigned char)(i * 7 + len + align);
	memset(out, 0, len);
	CHECK(!ibv_memcpy_to_dm(dm, 0, in, len), "to_dm %zu", len);
	CHECK(!ibv_memcpy_from_dm(out, dm, 0, len), "from_dm %zu", len);
	CHECK(!memcmp(in, out, len), "bytes differ, len %zu align %u", len,
	      align);
	CHECK(!ibv_free_dm(dm), "free %zu", len);
out:
	free(in);
	free(out);
}

static void check_bad_access(struct ibv_context *ctx)
{
	static const struct {
		uint64_t off;
		size_t len;
		int err;
	} cases[] = {{3, 4, EINVAL},
		     {4, 3, EINVAL},
		     {104, 4, EFAULT},
		     {0, 104, EFAULT}};
	struct ibv_dm *dm = alloc_dm(ctx, 100, 0);
	unsigned char buf[128] = {0};
	unsigned int i;

	CHECK(dm, "alloc 100");
	if (!dm)
		return;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK(ibv_memcpy_to_dm(dm, cases[i].off, buf, cases[i].len) ==
			      cases[i].err,
		      "to_dm case %u", i);
		CHECK(ibv_memcpy_from_dm(buf, dm, cases[i].off, cases[i].len) ==
			      cases[i].err,
		      "from_dm case %u", i);
	}
	CHECK(!ibv_free_dm(dm), "free");
}

static void check_dm_mr(struct ibv_context *ctx)
{
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	struct ibv_dm *dm = alloc_dm(ctx, 100, 0);
	struct ibv_mr *mr;

	CHECK(pd && dm, "pd/dm");
	if (!pd || !dm)
		return;
	mr = ibv_reg_dm_mr(pd, dm, 0, 100,
			   IBV_ACCESS_ZERO_BASED | IBV_ACCESS_LOCAL_WRITE);
	CHECK(mr, "reg_dm_mr: %s", strerror(errno));
	CHECK(!ibv_reg_dm_mr(pd, dm, 0, 104,
			     IBV_ACCESS_ZERO_BASED | IBV_ACCESS_LOCAL_WRITE),
	      "104 bytes on a 100-byte DM registered");
	errno = 0;
	CHECK(!ibv_reg_dm_mr(pd, dm, 0, 100, IBV_ACCESS_LOCAL_WRITE) &&
		      errno == EINVAL,
	      "no ZERO_BASED: errno %d", errno);
	CHECK(ibv_free_dm(dm) == EBUSY, "free with MR must be EBUSY");
	if (mr)
		CHECK(!ibv_dereg_mr(mr), "dereg");
	CHECK(!ibv_free_dm(dm), "free");
	CHECK(!ibv_dealloc_pd(pd), "dealloc pd");
}

static void check_bad_alloc(struct ibv_context *ctx, uint64_t max)
{
	struct ibv_alloc_dm_attr a = {.length = 64, .comp_mask = 1};
	struct ibv_dm *dm[3];

	errno = 0;
	CHECK(!alloc_dm(ctx, max + 1, 0) && errno == EINVAL, "max+1: errno %d",
	      errno);
	errno = 0;
	CHECK(!ibv_alloc_dm(ctx, &a) && errno == EINVAL, "comp_mask: errno %d",
	      errno);
	/* the device is finite: two halves fit, a third allocation does not */
	dm[0] = alloc_dm(ctx, max / 2, 0);
	dm[1] = alloc_dm(ctx, max / 2, 0);
	errno = 0;
	dm[2] = alloc_dm(ctx, 64, 0);
	CHECK(dm[0] && dm[1], "two halves");
	CHECK(!dm[2] && errno == ENOMEM, "exhausted: errno %d", errno);
	if (dm[0])
		ibv_free_dm(dm[0]);
	if (dm[1])
		ibv_free_dm(dm[1]);
	dm[2] = alloc_dm(ctx, 64, 0);
	CHECK(dm[2], "alloc after free");
	if (dm[2])
		ibv_free_dm(dm[2]);
}

/* upstream's test_import_dm: a second context from dup(cmd_fd) imports
 * the DM by handle and sees the bytes written through the first. */
static void check_import(struct ibv_context *ctx, uint64_t max)
{
	size_t len = max / 2, i;
	unsigned char *in = malloc(len), *out = calloc(1, len);
	struct ibv_context *ctx2 = ibv_import_device(dup(ctx->cmd_fd));
	struct ibv_dm *dm = alloc_dm(ctx, len, 0), *imp = NULL;

	CHECK(ctx2 && dm && in && out, "import_device: %s", strerror(errno));
	if (!ctx2 || !dm || !in || !out)
		goto out;
	memset(in, 0xab, len);
	imp = ibv_import_dm(ctx2, dm->handle);
	CHECK(imp, "import_dm: %s", strerror(errno));
	if (imp) {
		CHECK(!ibv_memcpy_to_dm(dm, 0, in, len), "to_dm");
		CHECK(!ibv_memcpy_from_dm(out, imp, 0, len), "from imported");
		for (i = 0; i < len && out[i] == 0xab; i++)
			;
		CHECK(i == len, "imported DM differs at %zu", i);
		ibv_unimport_dm(imp);
	}
out:
	if (dm)
		CHECK(!ibv_free_dm(dm), "free");
	if (ctx2)
		ibv_close_device(ctx2);
	free(in);
	free(out);
}

/* Five processes hold max/2/5 bytes each at the same time. */
static void check_multi_process(uint64_t max)
{
	int go[2], ready[2], i, status, ok = 0;
	pid_t pids[5];
	char c;

	if (pipe(go) || pipe(ready))
		return;
	for (i = 0; i < 5; i++) {
		pids[i] = fork();
		if (!pids[i]) {
			struct ibv_context *ctx = open_mlx5_0();
			struct ibv_dm *dm =
				ctx ? alloc_dm(ctx, max / 2 / 5, 0) : NULL;
			uint32_t v = 0x1234 + i, r = 0;

			c = dm ? 'y' : 'n';
			if (dm && (ibv_memcpy_to_dm(dm, 0, &v, 4) ||
				   ibv_memcpy_from_dm(&r, dm, 0, 4) || r != v))
				c = 'n';
			if (write(ready[1], &c, 1) != 1 ||
			    read(go[0], &c, 1) != 1)
				_exit(3);
			_exit(dm && !ibv_free_dm(dm) && !ibv_close_device(ctx)
				      ? 0
				      : 1);
		}
	}
	for (i = 0; i < 5; i++)
		if (read(ready[0], &c, 1) == 1 && c == 'y')
			ok++;
	CHECK(ok == 5, "%d of 5 processes allocated", ok);
	for (i = 0; i < 5; i++)
		if (write(go[1], "g", 1) != 1)
			break;
	for (i = 0; i < 5; i++) {
		waitpid(pids[i], &status, 0);
		CHECK(WIFEXITED(status) && !WEXITSTATUS(status), "child %d", i);
	}
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
}

static int count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	int n = 0, ch;

	if (!f)
		return -1;
	while ((ch = fgetc(f)) != EOF)
		n += ch == '\n';
	fclose(f);
	return n;
}

static void cycle(void)
{
	struct ibv_context *ctx = open_mlx5_0();
	struct ibv_dm *dm = ctx ? alloc_dm(ctx, 8192, 3) : NULL;

	CHECK(dm, "cycle alloc");
	if (dm)
		ibv_free_dm(dm);
	if (ctx)
		ibv_close_device(ctx);
}

static void check_leaks(void)
{
	int fds, maps;

	cycle(); /* providers are loaded once and stay */
	fds = count_fds();
	maps = count_lines("/proc/self/maps");
	cycle();
	CHECK(count_fds() == fds, "fds %d -> %d", fds, count_fds());
	CHECK(count_lines("/proc/self/maps") == maps, "maps %d -> %d", maps,
	      count_lines("/proc/self/maps"));
}

int main(int argc, char **argv)
{
	int no_dm = argc > 1 && !strcmp(argv[1], "--no-dm");
	struct ibv_context *ctx = open_mlx5_0();
	unsigned int i, a;
	uint64_t max;

	if (!ctx) {
		fprintf(stderr, "FAIL: cannot open mlx5_0: %s\n",
			strerror(errno));
		return 1;
	}
	max = max_dm_size(ctx);
	if (no_dm) {
		CHECK(max == 0, "max_dm_size %llu", (unsigned long long)max);
		errno = 0;
		CHECK(!alloc_dm(ctx, 64, 0) && errno == EINVAL,
		      "alloc on --no-dm: errno %d", errno);
	} else {
		size_t sizes[] = {4, 64, 100, 4096, 8192, max / 2};

		CHECK(max == 131072, "max_dm_size %llu",
		      (unsigned long long)max);
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			for (a = 0; a <= 6; a++)
				check_roundtrip(ctx, sizes[i], a);
		check_bad_access(ctx);
		check_dm_mr(ctx);
		check_bad_alloc(ctx, max);
		check_import(ctx, max);
		check_multi_process(max);
	}
	CHECK(!ibv_close_device(ctx), "close");
	if (!no_dm)
		check_leaks();
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	else
		printf("debian_dm: all checks passed\n");
	return failures ? 1 : 0;
}
