// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Export after mlx5dv_dm_map_op_addr() must export the DM's base MEMIC
 * mapping, not the op page (upstream's libmlx5 gets this wrong).
 *
 * Run as: rdma-sim --trace FILE -- dm_op_export_test FILE
 * One DM is mapped twice (base at alloc, then the op alias); the trace
 * shows both DEVICE_MEM mmap offsets and the DMABUF_ALLOC PGOFF, which
 * must be the base one. The peer device then checks the bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>
#include <rdma_sim_peer.h>

#include "dm_util.h"

#define MLX5_MMAP_DEVICE_MEM 8
#define DM_LEN 512

static int fail(const char *what)
{
	fprintf(stderr, "FAIL: %s\n", what);
	return 1;
}

static int is_device_mem(unsigned long long off, long page)
{
	return ((off / (unsigned long long)page) >> 8 & 0xff) ==
	       MLX5_MMAP_DEVICE_MEM;
}

/*
 * From the trace: the DEVICE_MEM mmap offsets in order, and the PGOFF
 * of the last DMABUF_ALLOC.
 */
static int scan_trace(const char *path, unsigned long long *maps, int *nmaps,
		      unsigned long long *pgoff)
{
	long page = sysconf(_SC_PAGESIZE);
	FILE *f = fopen(path, "r");
	char line[4096];
	int found = 0;

	if (!f)
		return -1;
	*nmaps = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long off;
		char *p, *q;

		p = strstr(line, "mmap fd ");
		if (p && (p = strstr(p, " off ")) &&
		    sscanf(p, " off %llx", &off) == 1 &&
		    !strstr(line, "-> E") && is_device_mem(off, page) &&
		    *nmaps < 8)
			maps[(*nmaps)++] = off;
		/* The PGOFF attribute, by name or by number (1). */
		p = strstr(line, "DMABUF_ALLOC attrs=");
		if (p && ((q = strstr(p, "PGOFF:len=8,")) ||
			  (q = strstr(p, " 0x1:len=8,"))) &&
		    (q = strstr(q, "data=")) &&
		    sscanf(q, "data=%llx", pgoff) == 1)
			found = 1;
	}
	fclose(f);
	return found ? 0 : -1;
}

int main(int argc, char **argv)
{
	unsigned long long maps[8], pgoff = 0;
	uint8_t pat[DM_LEN], got[DM_LEN];
	struct rdma_sim_peer *peer;
	struct dm_env env;
	struct ibv_dm *dm;
	int fd, nmaps;
	void *op;

	if (argc != 2 || !rdma_sim_active()) {
		fprintf(stderr, "usage: rdma-sim --trace F -- %s F\n", argv[0]);
		return 2;
	}
	if (dm_env_open(&env, 0))
		return fail("open device");
	dm = alloc_dm(env.ctx, DM_LEN, 0);
	if (!dm)
		return fail("alloc DM");
	fill_pattern(pat, DM_LEN, 11);
	if (ibv_memcpy_to_dm(dm, 0, pat, DM_LEN))
		return fail("write DM");
	op = mlx5dv_dm_map_op_addr(dm, 0);
	if (!op)
		return fail("map op address");
	fd = ibv_dm_export_dmabuf_fd(dm);
	if (fd < 0)
		return fail("export");

	if (scan_trace(argv[1], maps, &nmaps, &pgoff))
		return fail("no DMABUF_ALLOC with a PGOFF in the trace");
	printf("DEVICE_MEM mmaps: %d (base %#llx, op %#llx); exported %#llx\n",
	       nmaps, nmaps > 0 ? maps[0] : 0, nmaps > 1 ? maps[1] : 0,
	       pgoff);
	if (nmaps != 2)
		return fail("expected exactly the base and the op mapping");
	if (maps[0] == maps[1])
		return fail("op mapping reused the base offset");
	if (pgoff != maps[0])
		return fail("export did not use the base MEMIC mapping");

	peer = rdma_sim_peer_import(fd);
	if (!peer || rdma_sim_peer_read(peer, 0, got, DM_LEN))
		return fail("peer read");
	if (memcmp(got, pat, DM_LEN))
		return fail("peer saw other bytes than the base memory");
	rdma_sim_peer_release(peer);
	close(fd);
	unmap_op_addr(op, DM_LEN);
	if (ibv_free_dm(dm))
		return fail("free DM");
	dm_env_close(&env);
	printf("PASS: export after map_op_addr exported the base mapping\n");
	return 0;
}
