// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The peer-device step of ibv_dm_export. A real deployment would hand the
 * dma-buf to a GPU or a second NIC; under rdma-sim its peer device plays
 * that role and reads/writes the exported memory without a CPU mapping.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>

#include "dm_export_peer.h"

#ifdef HAVE_RDMA_SIM_PEER_H
#include <dlfcn.h>
#include <rdma_sim_peer.h>

/*
 * The peer library is loaded at run time, so the installed tool does not
 * depend on rdma-sim; without it the step is skipped.
 */
static struct {
	__typeof__(rdma_sim_active) *active;
	__typeof__(rdma_sim_peer_import) *import;
	__typeof__(rdma_sim_peer_size) *size;
	__typeof__(rdma_sim_peer_read) *read;
	__typeof__(rdma_sim_peer_write) *write;
	__typeof__(rdma_sim_peer_release) *release;
} sim;

static int load_peer_library(char *why, size_t why_len)
{
	static const char *const names[] = {
		"rdma_sim_active",    "rdma_sim_peer_import",
		"rdma_sim_peer_size", "rdma_sim_peer_read",
		"rdma_sim_peer_write", "rdma_sim_peer_release",
	};
	void **slots = (void **)&sim;
	void *lib = dlopen("librdmasim_peer.so", RTLD_NOW);
	size_t i;

	if (!lib) {
		snprintf(why, why_len,
			 "rdma-sim's peer library is not installed (%s)",
			 dlerror());
		return -1;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		slots[i] = dlsym(lib, names[i]);
		if (!slots[i]) {
			snprintf(why, why_len, "peer library lacks %s",
				 names[i]);
			return -1;
		}
	}
	return 0;
}

/* Where byte 0 of @dm sits in its dma-buf: its offset in its first page. */
static uint64_t dm_offset_in_dmabuf(struct ibv_dm *dm)
{
	struct mlx5dv_dm dvdm = {};
	struct mlx5dv_obj obj = { .dm = { .in = dm, .out = &dvdm } };
	long page = sysconf(_SC_PAGESIZE);

	if (page <= 0 || !mlx5dv_is_supported(dm->context->device) ||
	    mlx5dv_init_obj(&obj, MLX5DV_OBJ_DM) || !dvdm.buf)
		return 0;
	return (uintptr_t)dvdm.buf % (uint64_t)page;
}

static int compare_peer_read(struct rdma_sim_peer *peer, uint64_t off,
			     const uint8_t *pattern, size_t len, char *why,
			     size_t why_len)
{
	uint8_t *buf = malloc(len ? len : 1);
	int ok;

	if (!buf) {
		snprintf(why, why_len, "out of memory");
		return 0;
	}
	if (sim.read(peer, off, buf, len)) {
		snprintf(why, why_len, "peer read failed: %s",
			 strerror(errno));
		free(buf);
		return 0;
	}
	ok = !memcmp(buf, pattern, len);
	if (!ok)
		snprintf(why, why_len, "peer saw different bytes than the CPU "
			 "wrote");
	free(buf);
	return ok;
}

/* The peer's bytes as the CPU reads them: from @dm, or at @cpu. */
static int peer_write_cpu_read(struct rdma_sim_peer *peer, uint64_t off,
			       struct ibv_dm *dm, const uint8_t *cpu,
			       size_t len, char *why, size_t why_len)
{
	uint8_t *mine = malloc(len ? len : 1), *seen = malloc(len ? len : 1);
	size_t i;
	int err, ok = 0;

	if (!mine || !seen) {
		snprintf(why, why_len, "out of memory");
		goto out;
	}
	for (i = 0; i < len; i++)
		mine[i] = (uint8_t)~(i * 5 + 3);
	if (sim.write(peer, off, mine, len)) {
		snprintf(why, why_len, "peer write failed: %s",
			 strerror(errno));
		goto out;
	}
	if (cpu)
		memcpy(seen, cpu, len);
	err = cpu ? 0 : ibv_memcpy_from_dm(seen, dm, 0, len);
	if (err) {
		snprintf(why, why_len, "CPU read after peer write: %s",
			 strerror(err));
		goto out;
	}
	ok = !memcmp(mine, seen, len);
	if (!ok)
		snprintf(why, why_len, "CPU did not see the peer's bytes");
out:
	free(mine);
	free(seen);
	return ok;
}

/*
 * The peer's import of @fd, which must hold @need bytes; NULL with *@ret
 * -1 (no peer device) or 0 (failed), @why saying which.
 */
static struct rdma_sim_peer *peer_open(int fd, uint64_t need, int *ret,
				       char *why, size_t why_len)
{
	struct rdma_sim_peer *peer;

	*ret = -1;
	if (load_peer_library(why, why_len))
		return NULL;
	if (!sim.active()) {
		snprintf(why, why_len,
			 "not running under rdma-sim, so no peer device "
			 "(a GPU or second NIC would import it)");
		return NULL;
	}
	*ret = 0;
	peer = sim.import(fd);
	if (!peer) {
		snprintf(why, why_len, "peer import failed: %s",
			 strerror(errno));
		return NULL;
	}
	if (need > sim.size(peer)) {
		snprintf(why, why_len, "dma-buf is %zu bytes, need %zu",
			 sim.size(peer), (size_t)need);
		sim.release(peer);
		return NULL;
	}
	return peer;
}

int peer_check_mem(int fd, const uint8_t *cpu, size_t len, char *why,
		   size_t why_len)
{
	struct rdma_sim_peer *peer;
	int ok;

	peer = peer_open(fd, len, &ok, why, why_len);
	if (!peer)
		return ok;
	ok = compare_peer_read(peer, 0, cpu, len, why, why_len) &&
	     peer_write_cpu_read(peer, 0, NULL, cpu, len, why, why_len);
	if (ok)
		snprintf(why, why_len,
			 "peer read the %zu bytes the CPU wrote, CPU read "
			 "the peer's",
			 len);
	sim.release(peer);
	return ok;
}

int peer_check(int fd, struct ibv_dm *dm, size_t len, const uint8_t *pattern,
	       unsigned int round, char *why, size_t why_len)
{
	uint64_t off = dm_offset_in_dmabuf(dm);
	struct rdma_sim_peer *peer;
	int ok;

	peer = peer_open(fd, off + len, &ok, why, why_len);
	if (!peer)
		return ok;
	ok = compare_peer_read(peer, off, pattern, len, why, why_len) &&
	     peer_write_cpu_read(peer, off, dm, NULL, len, why, why_len);
	if (ok)
		snprintf(why, why_len,
			 "dma-buf %zu bytes; peer read the %zu bytes written, "
			 "CPU read the peer's",
			 sim.size(peer), len);
	sim.release(peer);
	return ok;
}

#else

int peer_check_mem(int fd, const uint8_t *cpu, size_t len, char *why,
		   size_t why_len)
{
	snprintf(why, why_len,
		 "built without rdma-sim's peer library (no peer device)");
	return -1;
}

int peer_check(int fd, struct ibv_dm *dm, size_t len, const uint8_t *pattern,
	       unsigned int round, char *why, size_t why_len)
{
	snprintf(why, why_len,
		 "built without rdma-sim's peer library (no peer device)");
	return -1;
}

#endif
