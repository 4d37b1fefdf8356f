/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rxe driver model internals: its queue buffers and their mmap entries. */
#ifndef RDMA_SIM_RXE_H
#define RDMA_SIM_RXE_H

#include "uapi.h"

#include <rdma/rdma_user_rxe.h>

struct rxe_sim_queue {
	struct rxe_sim_queue *next;
	struct sim_uvfile *uv;
	uint64_t offset; /* mmap offset (struct mminfo) */
	uint32_t size;	 /* page-rounded bytes */
	uint32_t usable; /* slots - 1: what create/query report */
	void *kbuf;	 /* the kernel's mapping */
	uint8_t pending; /* not yet mmap()ed by userspace */
};

/* A ring of at least nelem entries of elem_size bytes (both rounded up to
 * powers of two, as rxe_queue_init does); fills mi. NULL on ENOMEM. */
struct rxe_sim_queue *rxe_queue_new(struct sim_uvfile *uv, uint32_t nelem,
				    uint32_t elem_size, struct mminfo *mi);
void rxe_queue_free(struct rxe_sim_queue *q);
/* rxe_mmap: the pending entry at offset, length at most its size. */
void *rxe_queue_mmap(struct sim_uvfile *uv, void *addr, size_t len, int flags,
		     uint64_t offset);

#endif
