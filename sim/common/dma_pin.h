/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Pinned user memory as the HCA reaches it from another process. The
 * kernel side (core/dma_pin.c) backs the private anonymous pages it pins
 * for the device (a user MR, a CQ buffer) by one memfd per process,
 * mapped shared at the same addresses, and publishes here which virtual
 * ranges sit where in that memfd: <dir>/m<pid>, one page, which every
 * process of the world may map. The HCA of another process (hw/mlx5/
 * hca_peer.c) reads it, maps the memfd (/proc/<pid>/fd/<fd>, checked by
 * its inode) and copies into the pages directly, as a device DMAs into
 * pinned pages from anywhere; a range not here is written through the
 * peer's address space instead (process_vm_writev).
 *
 * The owner changes the table under sim_lock as a sequence lock: seq odd
 * while it writes, bumped to even after. A reader copies what it needs
 * between two equal even reads of seq.
 */
#ifndef RDMA_SIM_DMA_PIN_H
#define RDMA_SIM_DMA_PIN_H

#include <stdint.h>
#include <stdio.h>

#include "sim_shared.h"

#define SIM_DMA_RANGES 160
/* The memfd's offsets stay below this: a peer maps that much of it. */
#define SIM_DMA_SPAN (1ull << 40)
#define SIM_DMA_MEMFD_NAME "rdma-sim-dma"

struct sim_dma_range {
	uint64_t va;  /* page aligned */
	uint64_t len; /* page multiple, 0: a free slot */
	uint64_t off; /* where the pages sit in the memfd */
};

struct sim_dma_table {
	uint32_t seq;
	int32_t fd;	  /* the memfd's number in the owner, -1: none */
	uint64_t ino;	  /* its inode: another image's memfd differs */
	uint32_t n;	  /* slots in use at the front of r[] */
	uint32_t pad;
	struct sim_dma_range r[SIM_DMA_RANGES];
};

_Static_assert(sizeof(struct sim_dma_table) <= 4096,
	       "the table fits one page");

/* <dir>/m<pid>: 0, or -1 if it does not fit len. */
static inline int sim_dma_table_path(char *buf, size_t len, const char *dir,
				     int32_t pid)
{
	int n = snprintf(buf, len, "%s/m%u", dir, (unsigned int)pid);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

#endif
